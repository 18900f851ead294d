/* domains/cube3 internals: the symmetry-reduced quarter-turn pruning
 * tables (cube3_sym.c: coordinates, the 16 symmetries that keep the U-D
 * axis, equivalence classes; cube3_prune.c: the 2-bit table, its cache
 * file and the heuristic).
 *
 * The coordinates are Kociemba's phase-1 ones: corner twist (3^7), edge
 * flip (2^11) and where the 4 U-D slice edges FR FL BL BR are, either as a
 * set of positions (C(12,4) = 495, "fst") or with their order
 * (495 x 24 = 11880, "fsst"). Each is closed under the 12 quarter turns, so
 * the distance of a coordinate to the solved one is a lower bound. The edge
 * part (flip x slice) is reduced by the 16 symmetries; a table entry is a
 * class and a twist conjugated by the symmetry that took the edge part to
 * the class's representative. */
#ifndef DOM_CUBE3_PRUNE_H
#define DOM_CUBE3_PRUNE_H

#include <stdint.h>

#include "domains/cube3/cube3_private.h"

/* The kind of a heuristic handle (its first int): the tables' handles. */
#define C3_HEUR_PRUNE 2

#define C3P_SYMS 16
#define C3P_TWISTS 2187
#define C3P_FLIPS 2048
#define C3P_SLICE_SORTED 11880
#define C3P_SLICE_SETS 495

/* A whole-cube symmetry as conjugation tables (see c3's sym_cfrom and
 * sym_corner): out[p] = corner[p][s[cfrom[p]]] (cubie * 3 + twist). */
typedef struct dom_c3_udsym {
    uint8_t cfrom[C3_CORNERS];
    uint8_t corner[C3_CORNERS][24];
    uint8_t efrom[C3_EDGES];
    uint8_t edge[C3_EDGES][24];
} dom_c3_udsym;

/* Coordinates, their move tables and the classes of one edge coordinate. */
typedef struct dom_c3_coords {
    int sorted;      /* 1: the slice edges' order counts (11880), 0: 495 */
    uint32_t nslice; /* slice coordinates */
    uint32_t nedge;  /* C3P_FLIPS * nslice raw edge coordinates */
    uint32_t goal_slice;
    dom_c3_udsym sym[C3P_SYMS]; /* sym[0] is the identity */
    uint8_t sym_inv[C3P_SYMS];
    /* axis_sym[a]: the whole-cube symmetry (c3's index) taking axis a (U-D,
     * R-L, F-B) to U-D */
    int axis_sym[3];
    uint16_t twist_move[C3P_TWISTS][C3_MOVES];
    uint16_t flip_move[C3P_FLIPS][C3_MOVES];
    uint16_t *slice_move; /* [nslice][C3_MOVES] */
    uint16_t twist_conj[C3P_SYMS][C3P_TWISTS];
    uint32_t *edge_class; /* [nedge]: class * 16 + the symmetry to its representative */
    uint32_t *class_rep;  /* [nclass]: the representative's raw edge coordinate */
    uint16_t *class_stab; /* [nclass]: the symmetries that fix the representative */
    uint32_t nclass;
} dom_c3_coords;

/* A cube's raw coordinates. */
typedef struct dom_c3_coord {
    uint32_t flip, slice, twist;
} dom_c3_coord;

/* cube3_sym.c */
/* The coordinates and classes (sorted: 0 or 1); a status through
 * c->host->fail. */
int dom_c3_coords_init(const c3 *c, int sorted, dom_c3_coords *co);
void dom_c3_coords_free(dom_c3_coords *co);
void dom_c3_coord_of(const dom_c3_coords *co, const uint8_t *s, dom_c3_coord *x);
/* A cube whose coordinates are x (the other cubies in some order). */
void dom_c3_coord_state(const dom_c3_coords *co, const dom_c3_coord *x, uint8_t *s);
/* Symmetry k of `sym` applied to s (as dom_c3_conjugate). */
void dom_c3_udsym_apply(const dom_c3_udsym *y, const uint8_t *s, uint8_t *out);
/* The raw edge coordinate after symmetry k. */
uint32_t dom_c3_edge_conj(const dom_c3_coords *co, int k, uint32_t edge);

/* cube3_prune.c */
/* 1 when `name` is one of the tables' heuristic names. */
int dom_c3_prune_name(const char *name);
void *dom_c3_prune_open(const c3 *c, const char *name);
int dom_c3_prune_eval(const void *h, const uint8_t *state);
void dom_c3_prune_free(void *h);
/* The exact table distance of coordinate x (for tests): through the
 * descent, without the cache. */
int dom_c3_prune_exact(const void *h, const dom_c3_coord *x);
const dom_c3_coords *dom_c3_prune_coords(const void *h);

#endif
