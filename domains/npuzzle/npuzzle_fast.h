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

/* ---- additive pattern databases ---- */

/* A group's placement (the cells of its k tiles, in the group's tile
 * order) ranked as a k-permutation of the cells: digit i is the cell's
 * index among the cells tiles 0..i-1 leave free. Tables are indexed by it. */
static inline uint64_t npf_rank(const uint8_t *cell, int k, int cells)
{
    uint64_t used = 0, r = 0;
    for (int i = 0; i < k; i++) {
        uint64_t bit = 1ull << cell[i];
        r = r * (uint64_t)(cells - i) +
            (uint64_t)(cell[i] - __builtin_popcountll(used & (bit - 1)));
        used |= bit;
    }
    return r;
}

#define NPF_MAX_GROUPS 32
#define NPF_MAX_K 8
#define NPF_VIEWS 2

/* One way of reading the board into the tables: as it is, or mirrored on
 * the main diagonal (a square board's reflection, which keeps every
 * distance). Group g's i-th table tile is read from board tile
 * src[g][i], whose cell is mapped by cell_map. */
typedef struct npf_pdb_view {
    int8_t group_of[NPF_MAX_CELLS]; /* board tile -> the group that reads it */
    uint8_t src[NPF_MAX_GROUPS][NPF_MAX_K];
    uint8_t cell_map[NPF_MAX_CELLS];
} npf_pdb_view;

/* An additive set of pattern databases with one or two views: the value
 * is the largest over views of the sum over groups. */
typedef struct npf_pdb {
    int cells, ngroups, nviews;
    int k[NPF_MAX_GROUPS];
    const uint8_t *table[NPF_MAX_GROUPS];
    npf_pdb_view v[NPF_VIEWS];
    int8_t next[4][NPF_MAX_CELLS];
    uint8_t goal[NPF_MAX_CELLS + 1];
} npf_pdb;

/* The table of an n-puzzle pattern-database heuristic handle, NULL for
 * the others (dom_heur_handle of the built-in npuzzle domain). */
const npf_pdb *dom_np_pdb_fast_of(const void *heur);
/* Its tables as dom_heur_pdb_tables lists them (domains/dom.h): at most
 * cap into out, the count; 0 for the npuzzle domain's other heuristics. */
struct dom_pdb_table;
int dom_np_pdb_tables_of(const void *heur, struct dom_pdb_table *out, int cap);

/* Group g's index under view v for tile positions pos (tile -> cell). */
static inline uint64_t npf_pdb_index(const npf_pdb *p, const npf_pdb_view *v, int g,
                                     const uint8_t *pos)
{
    uint8_t cell[NPF_MAX_K];
    for (int j = 0; j < p->k[g]; j++)
        cell[j] = v->cell_map[pos[v->src[g][j]]];
    return npf_rank(cell, p->k[g], p->cells);
}

/* Group g's entry under view v for tile positions pos. */
static inline int npf_pdb_group(const npf_pdb *p, const npf_pdb_view *v, int g, const uint8_t *pos)
{
    return p->table[g][npf_pdb_index(p, v, g, pos)];
}

/* Tile positions of a state. */
static inline void npf_pdb_positions(const npf_pdb *p, const uint8_t *s, uint8_t *pos)
{
    for (int c = 0; c < p->cells; c++)
        pos[s[c]] = (uint8_t)c;
}

/* The whole value at tile positions pos. */
static inline int npf_pdb_value(const npf_pdb *p, const uint8_t *pos)
{
    int h = 0;
    for (int k = 0; k < p->nviews; k++) {
        int sum = 0;
        for (int g = 0; g < p->ngroups; g++)
            sum += npf_pdb_group(p, &p->v[k], g, pos);
        h = sum > h ? sum : h;
    }
    return h;
}

/* The value after move m from s without the per-depth values of a search
 * (dom_def's heur_delta), given hv, the value at s; -1 when m is illegal.
 * One view: only the moved tile's group is ranked, before and after the
 * move. Two: the largest view cannot be told from hv, so the child is
 * valued whole (without being made). */
static inline int npf_pdb_delta(const npf_pdb *p, const uint8_t *s, int m, int hv)
{
    int b = s[p->cells], to = p->next[m][b];
    if (to < 0)
        return -1;
    uint8_t pos[NPF_MAX_CELLS];
    npf_pdb_positions(p, s, pos);
    int t = s[to];
    if (p->nviews == 2) {
        pos[t] = (uint8_t)b;
        return npf_pdb_value(p, pos);
    }
    int g = p->v[0].group_of[t], before = npf_pdb_group(p, &p->v[0], g, pos);
    pos[t] = (uint8_t)b;
    return hv - before + npf_pdb_group(p, &p->v[0], g, pos);
}

/* What a depth-first search keeps to value a child by one table read per
 * view: the current state's tile positions and group values, each view's
 * sum, and per depth the children's table indices (ranked and prefetched
 * together before the first child is valued, so their cache misses
 * overlap) and the values the move into the next depth replaced. The
 * search (search/generic/gen_ida_np.c) owns it and says when it goes a
 * level down (npf_pdb_apply) or back (npf_pdb_undo). */
#define NPF_MAX_DEPTH 4096

typedef struct npf_pdb_run {
    const npf_pdb *p;
    int depth;
    int sum[NPF_VIEWS];
    uint8_t pos[NPF_MAX_CELLS];
    uint8_t val[NPF_VIEWS][NPF_MAX_GROUPS];
    uint8_t pending[NPF_VIEWS]; /* the last child's new group values */
    uint8_t old[NPF_MAX_DEPTH][NPF_VIEWS];
    uint32_t at[NPF_MAX_DEPTH][4][NPF_VIEWS]; /* < 2^32: at most 4 G entries a table */
} npf_pdb_run;

/* At the root of a pass: everything from the state. */
static inline void npf_pdb_start(npf_pdb_run *r, const uint8_t *s)
{
    const npf_pdb *p = r->p;
    r->depth = 0;
    npf_pdb_positions(p, s, r->pos);
    for (int k = 0; k < p->nviews; k++) {
        r->sum[k] = 0;
        for (int g = 0; g < p->ngroups; g++)
            r->sum[k] += r->val[k][g] = (uint8_t)npf_pdb_group(p, &p->v[k], g, r->pos);
    }
}

/* Before the moves `allowed` from s at depth d (the root: the run set up
 * first): each child's index in its moved tile's group per view, and a
 * prefetch of the entry. */
static inline void npf_pdb_children(npf_pdb_run *r, const uint8_t *s, int d, uint64_t allowed)
{
    const npf_pdb *p = r->p;
    if (d == 0)
        npf_pdb_start(r, s);
    int b = s[p->cells];
    for (int m = 0; m < 4; m++) {
        int to = p->next[m][b];
        if (!(allowed >> m & 1) || to < 0)
            continue;
        int t = s[to];
        r->pos[t] = (uint8_t)b;
        for (int k = 0; k < p->nviews; k++) {
            int g = p->v[k].group_of[t];
            uint32_t at = (uint32_t)npf_pdb_index(p, &p->v[k], g, r->pos);
            r->at[d][m][k] = at;
            __builtin_prefetch(p->table[g] + at);
        }
        r->pos[t] = (uint8_t)to;
    }
}

/* The child by move m from s, the run's current state at depth d, after
 * npf_pdb_children: -1 when m is illegal, else its value, or only its
 * first view's when that alone makes h * hscale exceed lim (the child is
 * pruned whatever the other view says; the n-puzzle-only IDA* answered
 * the same, and its f bounds followed). */
static inline __attribute__((always_inline)) int
npf_pdb_child(npf_pdb_run *r, const uint8_t *s, int d, int m, int64_t lim, int64_t hscale)
{
    const npf_pdb *p = r->p;
    int to = p->next[m][s[p->cells]];
    if (to < 0)
        return -1;
    int t = s[to], h = 0;
    for (int k = 0; k < p->nviews; k++) {
        int g = p->v[k].group_of[t], nv = p->table[g][r->at[d][m][k]];
        int sum = r->sum[k] - r->val[k][g] + nv;
        r->pending[k] = (uint8_t)nv;
        h = sum > h ? sum : h;
        if ((int64_t)h * hscale > lim)
            break;
    }
    return h;
}

static inline int npf_pdb_is_goal(const npf_pdb *p, const uint8_t *s)
{
    return memcmp(s, p->goal, (size_t)p->cells + 1) == 0;
}

/* Move m from s (valued last by npf_pdb_child) made: one level down. */
static inline void npf_pdb_apply(npf_pdb_run *r, uint8_t *s, int m)
{
    const npf_pdb *p = r->p;
    int b = s[p->cells], to = p->next[m][b], t = s[to];
    for (int k = 0; k < p->nviews; k++) {
        int g = p->v[k].group_of[t];
        r->old[r->depth][k] = r->val[k][g];
        r->sum[k] += r->pending[k] - r->val[k][g];
        r->val[k][g] = r->pending[k];
    }
    r->pos[t] = (uint8_t)b;
    s[b] = (uint8_t)t;
    s[to] = 0;
    s[p->cells] = (uint8_t)to;
    r->depth++;
}

/* Move m, made at depth d, undone: back to level d. */
static inline void npf_pdb_undo(npf_pdb_run *r, uint8_t *s, int d, int m)
{
    const npf_pdb *p = r->p;
    int b = s[p->cells], to = p->next[m ^ 1][b], t = s[to];
    for (int k = 0; k < p->nviews; k++) {
        int g = p->v[k].group_of[t];
        r->sum[k] += r->old[d][k] - r->val[k][g];
        r->val[k][g] = r->old[d][k];
    }
    r->pos[t] = (uint8_t)b;
    s[b] = (uint8_t)t;
    s[to] = 0;
    s[p->cells] = (uint8_t)to;
    r->depth = d;
}

#endif
