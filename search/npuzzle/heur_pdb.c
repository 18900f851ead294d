/* The additive PDB heuristic with the reflected lookup. A "view" maps the
 * board to a blank-first board the tables index: the plain view, and the
 * board mirrored on the main diagonal (cell (r,c) -> (c,r), tile t -> the
 * tile whose goal cell is t's goal cell mirrored). For the blank-last goal
 * both views first apply the 180-degree conversion. Each view reads, per
 * pattern tile, the cell of some board tile through a cell map, so a move
 * only re-ranks the one pattern per view that holds the moved tile. */
#include <stdio.h>
#include <stdlib.h>

#include "search/npuzzle/np_internal.h"
#include "search/npuzzle/pdb_internal.h"

#define NVIEWS 2

typedef struct {
    uint8_t src[SRCH_NP_MAX_PATTERNS][SRCH_NP_MAX_CELLS]; /* board tile to read */
    uint8_t cell_map[SRCH_NP_MAX_CELLS];                  /* board cell -> table cell */
    int8_t pattern_of[SRCH_NP_MAX_CELLS];                 /* board tile -> pattern */
} view;

typedef struct {
    srch_np_pdb *pdb;
    int own, nviews, ncells, npatterns;
    int size[SRCH_NP_MAX_PATTERNS];
    const uint8_t *table[SRCH_NP_MAX_PATTERNS];
    view v[NVIEWS];
    char name[48];
} pdb_heur;

/* Incremental state: each view's per-pattern values, val[k * npatterns + i]
 * (nviews * npatterns bytes: 8 for the 24-puzzle's 6-6-6-6, small enough
 * for a best-first search to keep one per stored node). */
typedef uint8_t pdb_val;

/* Index of board b's entry in pattern i's table under view v. */
static inline uint64_t pattern_rank(const pdb_heur *p, const view *v, int i, const srch_np_board *b)
{
    uint8_t cells[SRCH_NP_MAX_CELLS];
    for (int j = 0; j < p->size[i]; j++)
        cells[j] = v->cell_map[b->pos[v->src[i][j]]];
    return srch_np_rank(cells, p->size[i], p->ncells);
}

static inline int pattern_value(const pdb_heur *p, const view *v, int i, const srch_np_board *b)
{
    return p->table[i][pattern_rank(p, v, i, b)];
}

static int pdb_init(void *self, const srch_np_board *b, void *state)
{
    const pdb_heur *p = self;
    pdb_val *s = state;
    int h = 0;
    for (int k = 0; k < p->nviews; k++) {
        int sum = 0;
        for (int i = 0; i < p->npatterns; i++) {
            s[k * p->npatterns + i] = (pdb_val)pattern_value(p, &p->v[k], i, b);
            sum += s[k * p->npatterns + i];
        }
        if (sum > h)
            h = sum;
    }
    return h;
}

static int pdb_eval(void *self, const srch_np_board *b)
{
    pdb_val s[SRCH_NP_MAX_PATTERNS * NVIEWS];
    return pdb_init(self, b, s);
}

/* One view of a child: the parent's values ps with pattern i's replaced by
 * val, into s; returns their sum. */
static inline int view_after(const pdb_val *ps, pdb_val *s, int np, int i, int val)
{
    int sum = 0;
    for (int j = 0; j < np; j++)
        sum += s[j] = j == i ? (pdb_val)val : ps[j];
    return sum;
}

static int pdb_move(void *self, const srch_np_board *after, int tile, int from, int to,
                    const void *parent, void *child, int bound)
{
    (void)from;
    (void)to;
    const pdb_heur *p = self;
    const pdb_val *ps = parent;
    pdb_val *s = child;
    int h = 0, np = p->npatterns;
    for (int k = 0; k < p->nviews; k++) {
        const view *v = &p->v[k];
        int i = v->pattern_of[tile];
        int sum = view_after(ps + k * np, s + k * np, np, i, pattern_value(p, v, i, after));
        if (sum > h)
            h = sum;
        if (h > bound)
            break; /* pruned anyway: skip the other view's memory access */
    }
    return h;
}

/* The children of one parent from its state: a move re-ranks one pattern
 * per view, so a child costs nviews table reads instead of nviews *
 * npatterns, and the reads of all children are prefetched together. */
static int pdb_move_batch(void *self, const srch_np_board *after, const int *tile, size_t n,
                          const void *parent, void *states, int *out)
{
    const pdb_heur *p = self;
    const pdb_val *ps = parent;
    int np = p->npatterns, ss = p->nviews * np;
    uint64_t at[4][NVIEWS];
    for (size_t lo = 0; lo < n; lo += 4) {
        size_t m = n - lo < 4 ? n - lo : 4;
        for (size_t r = 0; r < m; r++)
            for (int k = 0; k < p->nviews; k++) {
                int i = p->v[k].pattern_of[tile[lo + r]];
                at[r][k] = pattern_rank(p, &p->v[k], i, &after[lo + r]);
                __builtin_prefetch(p->table[i] + at[r][k]);
            }
        for (size_t r = 0; r < m; r++) {
            pdb_val *s = (pdb_val *)states + (lo + r) * (size_t)ss;
            int h = 0;
            for (int k = 0; k < p->nviews; k++) {
                int i = p->v[k].pattern_of[tile[lo + r]];
                int sum = view_after(ps + k * np, s + k * np, np, i, p->table[i][at[r][k]]);
                h = sum > h ? sum : h;
            }
            out[lo + r] = h;
        }
    }
    return 0;
}

/* A batch (the children of an expansion): every entry of every board is
 * ranked and prefetched before any is read. The reads are cache misses in
 * tables of up to 0.5 GB each, and issued together their latencies overlap
 * instead of adding up. */
#define BATCH_CHUNK 16

static int pdb_eval_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    const pdb_heur *p = self;
    uint64_t at[BATCH_CHUNK][NVIEWS][SRCH_NP_MAX_PATTERNS];
    for (size_t lo = 0; lo < n; lo += BATCH_CHUNK) {
        size_t k = n - lo < BATCH_CHUNK ? n - lo : BATCH_CHUNK;
        for (size_t r = 0; r < k; r++)
            for (int v = 0; v < p->nviews; v++)
                for (int i = 0; i < p->npatterns; i++) {
                    at[r][v][i] = pattern_rank(p, &p->v[v], i, &b[lo + r]);
                    __builtin_prefetch(p->table[i] + at[r][v][i]);
                }
        for (size_t r = 0; r < k; r++) {
            int h = 0;
            for (int v = 0; v < p->nviews; v++) {
                int sum = 0;
                for (int i = 0; i < p->npatterns; i++)
                    sum += p->table[i][at[r][v][i]];
                h = sum > h ? sum : h;
            }
            out[lo + r] = h;
        }
    }
    return 0;
}

static void pdb_destroy(void *self)
{
    pdb_heur *p = self;
    if (p->own)
        srch_np_pdb_free(p->pdb);
    free(p);
}

/* Fill view v. tile_map: board tile -> blank-first tile; cell_map: board
 * cell -> table cell (both for the whole transformation of the view). */
static void view_init(pdb_heur *p, view *v, const uint8_t *tile_map, const uint8_t *cell_map)
{
    const srch_np_partition *part = &p->pdb->part;
    uint8_t inverse[SRCH_NP_MAX_CELLS];
    for (int t = 0; t < p->ncells; t++)
        inverse[tile_map[t]] = (uint8_t)t;
    for (int c = 0; c < p->ncells; c++)
        v->cell_map[c] = cell_map[c];
    for (int t = 0; t < p->ncells; t++)
        v->pattern_of[t] = 0; /* the blank is never moved as a tile */
    for (int i = 0; i < part->npatterns; i++)
        for (int j = 0; j < part->size[i]; j++) {
            int board_tile = inverse[part->tiles[i][j]];
            v->src[i][j] = (uint8_t)board_tile;
            v->pattern_of[board_tile] = (int8_t)i;
        }
}

static void views_init(pdb_heur *p, int goal)
{
    int n = p->ncells, w = p->pdb->part.width;
    uint8_t tmap[SRCH_NP_MAX_CELLS], cmap[SRCH_NP_MAX_CELLS], mirror[SRCH_NP_MAX_CELLS];
    for (int c = 0; c < n; c++)
        mirror[c] = (uint8_t)((c % w) * w + c / w);
    for (int k = 0; k < p->nviews; k++) {
        for (int c = 0; c < n; c++) {
            /* blank-last: rotate by 180 degrees and relabel t -> n - t */
            int cell = goal == SRCH_NP_GOAL_BLANK_LAST ? n - 1 - c : c;
            int tile = goal == SRCH_NP_GOAL_BLANK_LAST && c ? n - c : c;
            /* mirror: blank-first tile t has goal cell t, so relabel it like a cell */
            cmap[c] = k ? mirror[cell] : (uint8_t)cell;
            tmap[c] = k ? mirror[tile] : (uint8_t)tile;
        }
        view_init(p, &p->v[k], tmap, cmap);
    }
}

srch_np_heur *srch_np_heur_pdb_new(srch_np_pdb *pdb, int goal, int reflect, int own, int *status)
{
    pdb_heur *p = calloc(1, sizeof *p);
    if (!p) {
        if (own)
            srch_np_pdb_free(pdb);
        if (status)
            *status = hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
        return NULL;
    }
    p->pdb = pdb;
    p->own = own;
    p->nviews = reflect ? 2 : 1;
    p->ncells = pdb->part.width * pdb->part.width;
    p->npatterns = pdb->part.npatterns;
    for (int i = 0; i < p->npatterns; i++) {
        p->size[i] = pdb->part.size[i];
        p->table[i] = pdb->table[i];
    }
    snprintf(p->name, sizeof p->name, "pdb:%s%s", pdb->part.name, reflect ? "" : ":noreflect");
    views_init(p, goal);
    srch_np_heur_ops ops = {.name = p->name,
                            .eval = pdb_eval,
                            .eval_batch = pdb_eval_batch,
                            .state_size = (size_t)(p->nviews * p->npatterns),
                            .inc_init = pdb_init,
                            .inc_move = pdb_move,
                            .destroy = pdb_destroy};
    srch_np_heur *h = srch_np_heur_wrap(&ops, p, pdb->part.width, goal, status);
    if (h)
        h->move_batch = pdb_move_batch;
    return h;
}
