/* domains/cube3 internals: the cubie model its files share (moves, text,
 * patterns). A state is four byte arrays, each entry indexed by position:
 * which corner sits there and its twist, which edge and its flip. */
#ifndef DOM_CUBE3_PRIVATE_H
#define DOM_CUBE3_PRIVATE_H

#include <stdint.h>

#include "domains/domain.h"

#define C3_CORNERS 8
#define C3_EDGES 12
#define C3_MOVES 12
#define C3_FACELETS 54
/* cp[8] co[8] ep[12] eo[12]: no padding, so the bytes are the state. */
#define C3_CP 0
#define C3_CO 8
#define C3_EP 16
#define C3_EO 28
#define C3_STATE_BYTES 40
/* Pruning automaton: the root, after one quarter turn m (1 + m), after two
 * clockwise turns of face f (13 + f). */
#define C3_PRUNE_STATES 19
/* Longest scramble the text parser takes (a line is at most 16 kB). */
#define C3_MAX_SCRAMBLE 8192
/* Whole-cube symmetries that are their own inverse (the identity, 3 half
 * turns about face axes, 6 about edge axes, 9 mirror planes, the point
 * reflection), each also composed with the inverse cube: 40 maps. */
#define C3_SYMS 20

/* A quarter turn as the 4 corner and 4 edge positions it refills: the
 * position each one's cubie comes from and the twist (flip) it adds. */
typedef struct dom_c3_turn {
    uint8_t cpos[4], csrc[4], ctwist[4];
    uint8_t epos[4], esrc[4], eflip[4];
} dom_c3_turn;

typedef struct c3 {
    const dom_host *host;
    dom_c3_turn turn[C3_MOVES];
    /* facelets: the facelet indices of each corner and edge position, the
     * U/D (or F/B) one first, then clockwise */
    uint8_t corner_facelet[C3_CORNERS][3];
    uint8_t edge_facelet[C3_EDGES][2];
    /* facelet_turn[m][i]: the facelet whose colour moves to i under m */
    uint8_t facelet_turn[C3_MOVES][C3_FACELETS];
    uint8_t prune[C3_PRUNE_STATES * C3_MOVES];
    /* sym_move[j][m]: the turn m becomes under whole-cube symmetry j (a
     * mirror turns the other way); sym_cfrom[j][p]: the corner position
     * whose cubie symmetry j takes to p, sym_corner[j][p][cubie * 3 +
     * twist]: that cubie's name and twist at p (cubie' * 3 + twist'); the
     * edges' likewise (flips for twists) */
    uint8_t sym_move[C3_SYMS][C3_MOVES];
    uint8_t sym_cfrom[C3_SYMS][C3_CORNERS];
    uint8_t sym_corner[C3_SYMS][C3_CORNERS][C3_CORNERS * 3];
    uint8_t sym_efrom[C3_SYMS][C3_EDGES];
    uint8_t sym_edge[C3_SYMS][C3_EDGES][C3_EDGES * 2];
    /* Korf's 3-D Manhattan distance: quarter turns one cubie needs from
     * (position, twist or flip) to its home, [cubie][position * 3 + twist]
     * and [cubie][position * 2 + flip] */
    uint8_t corner_dist[C3_CORNERS][24];
    uint8_t edge_dist[C3_EDGES][24];
} c3;

/* Face letters in Kociemba's facelet order and the cubie names. */
extern const char DOM_C3_FACES[7];
extern const char *const DOM_C3_CORNER_NAME[C3_CORNERS];
extern const char *const DOM_C3_EDGE_NAME[C3_EDGES];

/* cube3.c */
void dom_c3_solved(uint8_t *s);
int dom_c3_apply(const void *inst, void *state, int move);

/* cube3_geometry.c: fill facelet tables, turns and distance tables. */
void dom_c3_geometry_init(c3 *c);
/* Whole-cube symmetry j (0..C3_SYMS-1) of s: the cube turned (or mirrored)
 * in space and its colours renamed so the centres are home again. */
void dom_c3_conjugate(const c3 *c, int j, const uint8_t *s, uint8_t *out);

/* cube3_text.c */
int dom_c3_parse_state(const void *inst, const char *text, void *state);
int dom_c3_format_state(const void *inst, const void *state, char *buf, size_t cap);
int dom_c3_parse_moves(const void *inst, const char *text, uint8_t *moves, int cap);
/* Facelets (54 colours as face indices 0..5) to cubies, checking that the
 * cube exists and is solvable: 0, or a status through host->fail. */
int dom_c3_from_facelets(const c3 *c, const uint8_t *colour, uint8_t *s);
/* The same without the whole-cube checks: each position's cubie and twist
 * (flip) read on its own, so a cubie may appear twice. */
int dom_c3_read_cubies(const c3 *c, const uint8_t *colour, uint8_t *s);
void dom_c3_to_facelets(const c3 *c, const uint8_t *s, uint8_t *colour);
/* Parity (0 even, 1 odd) of a permutation of n <= 12 entries. */
int dom_c3_parity(const uint8_t *p, int n);

/* cube3_pattern.c */
int dom_c3_pattern_open(const void *inst, const char *name, dom_pattern *out);
void *dom_c3_heur_open(const void *inst, const char *name);
int dom_c3_heur_eval(const void *heur, const void *state);
void dom_c3_heur_free(void *heur);

#endif
