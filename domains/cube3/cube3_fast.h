/* domains/cube3/cube3_fast.h: what the cube offers code compiled for it
 * alone (search/generic/gen_ida_cube.c, IDA* on the pruning tables): a
 * node that a quarter turn updates through plain tables, and its bound
 * from six lookups, the cube's three axes and its inverse's, as
 * static-inline functions. The tables are the pruning handle's
 * (cube3_prune.c), handed over by dom_c3_fast_of.
 *
 * The cube's axis coordinates follow a turn through move tables. The
 * inverse cube's do not (a turn of the cube renames the inverse's cubies,
 * so its coordinates depend on the whole permutation): the node keeps the
 * inverse itself, renamed by a table per turn, and reads its coordinates
 * through per-position tables of the three conjugations. */
#ifndef DOM_CUBE3_FAST_H
#define DOM_CUBE3_FAST_H

#include <stdint.h>
#include <string.h>

#define C3F_AXES 3
#define C3F_MOVES 12
#define C3F_CUBIES 20 /* 8 corners, then 12 edges */
#define C3F_TWISTS 2187

/* One node of the search. inv[i]: where the inverse cube puts cubie
 * position i's entry: position * 3 + twist (corners, i < 8) or position *
 * 2 + flip (edges, 8 + edge). */
typedef struct c3f_node {
    uint16_t flip[C3F_AXES], slice[C3F_AXES], twist[C3F_AXES];
    uint8_t parity; /* of the corner permutation: the distance's parity */
    uint8_t inv[C3F_CUBIES];
} c3f_node;

typedef struct c3_fast {
    const uint8_t *table;       /* 4-bit exact distances, entry i in bits 4(i mod 2) */
    const uint32_t *edge_class; /* [flip * nslice + slice]: class * 16 + symmetry */
    const uint16_t (*twist_conj)[C3F_TWISTS];
    const uint16_t (*twist_move)[C3F_MOVES];
    const uint16_t (*flip_move)[C3F_MOVES];
    const uint16_t *slice_move; /* [nslice][C3F_MOVES] */
    uint32_t nslice;
    int sorted; /* the slice edges' order is part of the coordinate */
    /* axis_move[a][m]: turn m as seen by the cube conjugated along axis a */
    uint8_t axis_move[C3F_AXES][C3F_MOVES];
    /* rename[m][i][v]: inv[i] = v becomes rename[m][i < 8 ? 0 : 1][v] */
    uint8_t rename[C3F_MOVES][2][24];
    /* the inverse's conjugate along axis a: its position p reads inv[from[a][p]]
     * (p < 8 corners, then edges), which adds twist[a][p][v] (a multiple of a
     * power of 3), flip[a][p - 8][v] (a bit) and sets slice[a][p - 8][v]
     * (0, or 1 + which slice edge lands there) */
    uint8_t from[C3F_AXES][C3F_CUBIES];
    uint16_t twist_part[C3F_AXES][8][24];
    uint16_t flip_part[C3F_AXES][12][24];
    uint8_t slice_part[C3F_AXES][12][24];
    uint16_t binom[12][5];
    uint8_t perm[256]; /* the 4 slice edges' order (2 bits each) -> its rank */
    uint8_t solved[C3F_CUBIES];
} c3_fast;

/* The tables of a cube3 heuristic handle (dom_heur_handle): the pruning
 * tables' ("fst", "fsst"), NULL for the others. */
const c3_fast *dom_c3_fast_of(const void *heur);
/* The node of a cube (a cube3 state), through the handle's tables. */
void dom_c3_fast_node(const void *heur, const uint8_t *state, c3f_node *n);

static inline uint64_t c3f_entry(const c3_fast *f, uint32_t edge, uint32_t twist)
{
    uint32_t cs = f->edge_class[edge];
    return (uint64_t)(cs >> 4) * C3F_TWISTS + f->twist_conj[cs & 15][twist];
}

static inline int c3f_get(const c3_fast *f, uint64_t i)
{
    return f->table[i >> 1] >> ((i & 1) * 4) & 15;
}

/* The largest of three lookups, each table read issued before any is
 * used: every read is a miss in memory, and they overlap. */
static inline int c3f_max3(const c3_fast *f, const uint32_t *edge, const uint16_t *twist)
{
    uint64_t e[C3F_AXES];
    for (int a = 0; a < C3F_AXES; a++)
        __builtin_prefetch(&f->edge_class[edge[a]]);
    for (int a = 0; a < C3F_AXES; a++) {
        e[a] = c3f_entry(f, edge[a], twist[a]);
        __builtin_prefetch(&f->table[e[a] >> 1]);
    }
    int best = 0;
    for (int a = 0; a < C3F_AXES; a++) {
        int v = c3f_get(f, e[a]);
        best = v > best ? v : best;
    }
    return best;
}

/* The child by turn m: the cube's coordinates, its parity; the inverse is
 * renamed by c3f_turn_inverse, only when its bound is wanted. */
static inline void c3f_turn(const c3_fast *f, const c3f_node *n, int m, c3f_node *c)
{
    for (int a = 0; a < C3F_AXES; a++) {
        int k = f->axis_move[a][m];
        c->flip[a] = f->flip_move[n->flip[a]][k];
        c->slice[a] = f->slice_move[(uint32_t)n->slice[a] * C3F_MOVES + (uint32_t)k];
        c->twist[a] = f->twist_move[n->twist[a]][k];
    }
    c->parity = n->parity ^ 1; /* a quarter turn is a 4-cycle of corners */
}

static inline void c3f_turn_inverse(const c3_fast *f, const c3f_node *n, int m, c3f_node *c)
{
    for (int i = 0; i < 8; i++)
        c->inv[i] = f->rename[m][0][n->inv[i]];
    for (int i = 8; i < C3F_CUBIES; i++)
        c->inv[i] = f->rename[m][1][n->inv[i]];
}

static inline int c3f_bound_cube(const c3_fast *f, const c3f_node *n)
{
    uint32_t edge[C3F_AXES];
    for (int a = 0; a < C3F_AXES; a++)
        edge[a] = n->flip[a] * f->nslice + n->slice[a];
    return c3f_max3(f, edge, n->twist);
}

/* The inverse's coordinates along axis a: those of its conjugate, read
 * entry by entry. */
static inline void c3f_inverse_coord(const c3_fast *f, const c3f_node *n, int a, uint32_t *edge,
                                     uint16_t *twist)
{
    const uint8_t *from = f->from[a];
    uint32_t tw = 0, fl = 0, comb = 0, order = 0;
    for (int p = 0; p < 7; p++)
        tw += f->twist_part[a][p][n->inv[from[p]]];
    for (int p = 0, k = 0; p < 12; p++) {
        int v = n->inv[from[8 + p]];
        fl += f->flip_part[a][p][v];
        int e = f->slice_part[a][p][v];
        if (e) {
            comb += f->binom[p][k + 1];
            order = order << 2 | (uint32_t)(e - 1);
            k++;
        }
    }
    *twist = (uint16_t)tw;
    *edge = fl * f->nslice + (f->sorted ? comb * 24 + f->perm[order] : comb);
}

static inline int c3f_bound_inverse(const c3_fast *f, const c3f_node *n)
{
    uint32_t edge[C3F_AXES];
    uint16_t twist[C3F_AXES];
    for (int a = 0; a < C3F_AXES; a++)
        c3f_inverse_coord(f, n, a, &edge[a], &twist[a]);
    return c3f_max3(f, edge, twist);
}

/* A bound raised to the distance's parity (a quarter turn changes it by
 * one, so a cube's distance has its corner permutation's parity). */
static inline int c3f_with_parity(const c3f_node *n, int h)
{
    return h + ((h ^ n->parity) & 1);
}

static inline int c3f_is_goal(const c3_fast *f, const c3f_node *n)
{
    return memcmp(n->inv, f->solved, C3F_CUBIES) == 0;
}

#endif
