/* domains/npuzzle/npuzzle_fast.h: what the n-puzzle offers code compiled
 * for it alone (search/generic's per-domain instantiations of its
 * algorithms): the move and the incremental update of Manhattan distance
 * and linear conflicts as static-inline functions over a plain table, and
 * the call that hands a heuristic's table over. The domain's own
 * heur_delta runs these same functions, so the two cannot disagree.
 *
 * The table is all a search needs: it does not include the domain's
 * private header (npuzzle.h), whose instance layout stays the domain's. */
#ifndef DOM_NPUZZLE_FAST_H
#define DOM_NPUZZLE_FAST_H

#include <stdint.h>
#include <string.h>

#include "domains/domain.h"

#define NPF_MAX_SIDE 8
#define NPF_MAX_CELLS (NPF_MAX_SIDE * NPF_MAX_SIDE)

/* The board and one heuristic (Manhattan, or Manhattan plus linear
 * conflicts) toward the domain's goal. A state is `cells` bytes (the tile
 * on each cell, 0 = blank) and then the blank's cell; move m (U D L R =
 * 0 1 2 3) sends the blank to next[m][blank], -1 off the board. */
typedef struct np_fast {
    int w, h, cells;
    int lc; /* 1: linear conflicts too */
    int8_t next[4][NPF_MAX_CELLS];
    uint8_t dist[NPF_MAX_CELLS][NPF_MAX_CELLS];               /* [tile][cell]: Manhattan distance */
    uint8_t goal_row[NPF_MAX_CELLS], goal_col[NPF_MAX_CELLS]; /* by tile */
    uint8_t goal[NPF_MAX_CELLS + 1];                          /* the goal state */
} np_fast;

/* The table of an n-puzzle heuristic handle (dom_heur_handle of a
 * heuristic of the built-in npuzzle domain): the handle's own for
 * "manhattan" and "lc", NULL for the others (pattern databases). */
const np_fast *dom_np_fast_of(const void *heur);

/* 2 moves for every key off a longest increasing run (Hansson, Mayer &
 * Yung's linear conflicts of one line; keys are the tiles' goal positions
 * along the line, in their order on it). */
static inline int npf_lis_conflicts(const int *key, int k)
{
    int lis[NPF_MAX_SIDE], best = 0;
    for (int i = 0; i < k; i++) {
        lis[i] = 1;
        for (int j = 0; j < i; j++)
            if (key[j] < key[i] && lis[j] + 1 > lis[i])
                lis[i] = lis[j] + 1;
        best = lis[i] > best ? lis[i] : best;
    }
    return 2 * (k - best);
}

/* The conflicts of one row (is_row) or column of s with tile t on cell tc
 * (whatever s holds there) less those without t, t's goal line being this
 * line: the change when t enters it at tc, or leaves it from tc. */
static inline int npf_line_with(const np_fast *f, const uint8_t *s, int line, int is_row, int tc,
                                int t)
{
    int with[NPF_MAX_SIDE], without[NPF_MAX_SIDE], k = 0, n = 0;
    int len = is_row ? f->w : f->h, step = is_row ? 1 : f->w;
    const uint8_t *home = is_row ? f->goal_row : f->goal_col;
    const uint8_t *along = is_row ? f->goal_col : f->goal_row;
    for (int i = 0, cell = is_row ? line * f->w : line; i < len; i++, cell += step) {
        int u = cell == tc ? t : s[cell]; /* t stands on no other cell of the line */
        if (!u || home[u] != line)
            continue;
        with[k++] = along[u];
        if (u != t)
            without[n++] = along[u];
    }
    return npf_lis_conflicts(with, k) - npf_lis_conflicts(without, n);
}

/* The heuristic's value after move m from s, given hv, its value at s;
 * -1 when m is illegal. The moved tile's Manhattan term changes, and with
 * linear conflicts only the line of its goal row (a vertical move: the
 * column keeps its order) or goal column (a horizontal one) that it
 * enters or leaves: at most one line is recounted. */
static inline __attribute__((always_inline)) int npf_delta_kind(const np_fast *f, const uint8_t *s,
                                                                int m, int hv, int lc)
{
    int b = s[f->cells], to = f->next[m][b];
    if (to < 0)
        return -1;
    int t = s[to]; /* goes from `to` to b */
    int v = hv + f->dist[t][b] - f->dist[t][to];
    if (!lc)
        return v;
    int vertical = m < 2, w = f->w;
    int home = vertical ? f->goal_row[t] : f->goal_col[t];
    int from = vertical ? to / w : to % w, into = vertical ? b / w : b % w;
    if (home == from)
        v -= npf_line_with(f, s, from, vertical, to, t);
    else if (home == into)
        v += npf_line_with(f, s, into, vertical, b, t);
    return v;
}

/* npf_delta_kind with the table's kind; a caller that knows the kind
 * passes it as a constant (search/generic/gen_ida_np.c). */
static inline int npf_delta(const np_fast *f, const uint8_t *s, int m, int hv)
{
    return npf_delta_kind(f, s, m, hv, f->lc);
}

/* Move m from s in place; m must be legal (npf_delta >= 0). */
static inline void npf_apply(const np_fast *f, uint8_t *s, int m)
{
    int b = s[f->cells], to = f->next[m][b];
    s[b] = s[to];
    s[to] = 0;
    s[f->cells] = (uint8_t)to;
}

static inline int npf_is_goal(const np_fast *f, const uint8_t *s)
{
    return memcmp(s, f->goal, (size_t)f->cells + 1) == 0;
}

#endif
