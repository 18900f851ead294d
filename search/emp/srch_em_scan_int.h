/* Private to the scan-row backtracker and what drives it (the learned
 * ordering, the sampler of labelled states): its context and search loop. */
#ifndef SRCH_EM_SCAN_INT_H
#define SRCH_EM_SCAN_INT_H

#include "search/emp/srch_em_int.h"
#include "search/emp/srch_em_place.h"

/* The learned order covers a cell whose perfect-match bucket holds at most
 * this many items (a larger one keeps its shuffled order); offsets within a
 * bucket then fit four bits. */
#define SCAN_ORD_MAX 16

/* A piece at a rotation, with the colours the scan reads: the west and north
 * sides select it, the east and south sides constrain the next cells. */
typedef struct {
    uint16_t piece;
    uint8_t rot, e, s, w, n;
} scan_item;

/* Candidates of one cell kind (frame orientation or inner) in three orders:
 * by (west, north) colour pair, by west colour alone, by north alone. */
typedef struct {
    scan_item *by_wn, *by_w, *by_n, *all;
    int *off_wn, *off_w, *off_n, nall;
} scan_kind;

enum { SCAN_KINDS = 9 };

/* What one depth of the scan reads, fixed for the whole search: its cell,
 * the cells whose east / south colours it must match (the sentinel cell n
 * shows grey, the outside), and the colours a clue east or south needs
 * (-1: no clue there). */
typedef struct {
    int cell, west, north, e_need, s_need;
    const scan_kind *kind;
} scan_step;

typedef struct scan_ctx scan_ctx;
struct scan_ctx {
    const srch_em_inst *in;
    const srch_em_scan_opts *o;
    srch_em_scan_result *res;
    double t0, deadline;
    int from;                /* depth of the first break */
    int ncol, nkinds, m;     /* m: free cells in scan order */
    int kind_of[SCAN_KINDS]; /* key of each kind: class and outward side, -1 inner */
    scan_kind kind[SCAN_KINDS];
    scan_step *step;
    int *allowed, *brk, *phase, *idx;
    scan_item *chosen, *deep, *best; /* the current path, the deepest one, the best board */
    uint8_t *east, *south;           /* [n + 1]: colours each placed cell shows east and south */
    uint8_t *used, *fixed_cell;
    hn_rng *rng; /* the shuffles of each restart */
    /* learned ordering (srch_em_scan_order.c): per depth, the perfect-match
     * candidates in the scorer's order (bucket offsets), or nord -1 for the
     * bucket's own (shuffled) order */
    srch_em_place_scorer *order;
    uint8_t *ord;
    int *nord;
    /* optional: called on entering depth d (its cell not yet placed); a
     * nonzero return stops the search (srch_em_scan_data.c samples here) */
    int (*enter)(scan_ctx *s, int d);
    /* optional: called where depth d's break phases would begin (its
     * perfect matches tried, the budget allowing a break); 0 skips them, so
     * the search backtracks (srch_em_scan_break.c: the learned gate; the
     * break sampler labels here). NULL: breaks wherever the budget allows */
    int (*allow_break)(scan_ctx *s, int d);
    srch_em_break_gate *gate;
    void *user;
    int probe;      /* 1: complete boards only counted, the budget never lowered */
    int probe_best; /* probe: fewest breaks of a complete board, -1 none */
    /* the colour bound (enum srch_em_scan_bound; 0: off, counters unused):
     * per colour, the sides the unplaced pieces hold minus the sides placed
     * cells and clues show to empty cells (open demands); dead = sum of
     * max(0, -bal), odd = colours whose bal is positive and odd */
    int bound;
    int *bal, *bal0, dead, odd; /* bal0: of the empty path */
    int *resolve; /* [m]: a depth by which every demand open after depth d is met or broken */
};

/* Scan order, clue colours, cell kinds and candidate tables; scan_free
 * frees a partial build. */
int srch_em_scan_init(scan_ctx *s, const srch_em_inst *in, hn_rng *rng);
/* Turn the colour bound on at level `bound` (supply and demands counted
 * from the pieces and clues; call with s->from set and an empty path). */
int srch_em_scan_bound_init(scan_ctx *s, int bound);
void srch_em_scan_free(scan_ctx *s);
/* Reshuffle every bucket of the candidate tables from s->rng. */
void srch_em_scan_shuffle(scan_ctx *s);
/* The budget: none before `from`, then a linear rise to `total` at the last cell. */
void srch_em_scan_set_budget(scan_ctx *s, int from, int total);
/* Depth-first search from depth `floor` (the path above it placed by the
 * caller) until `limit` placements in s->res->nodes, the deadline, s->enter
 * or a stop request; the path below floor is unmarked on return. Returns 1
 * if the subtree was exhausted. */
int srch_em_scan_dfs(scan_ctx *s, int floor, long limit);
/* Place item `it` at depth d by hand (as next_placement does), with `cost`
 * breaks (scan_place); the candidates of phase 0 (perfect matches) at depth
 * d: list[lo..hi) (scan_perfect); the breaks item `it` makes at depth d in
 * phase 0, only with clues east or south (scan_clue_cost). Inline: they run
 * at every placement. */
/* The candidate list of phase ph at a cell whose west and north neighbours
 * show colours w and nn: 0 matches both, 1 west only, 2 north only, 3 any
 * (both sides broken, for boards no single break can finish). */
static inline const scan_item *scan_phase_list(const scan_kind *k, int ph, int w, int nn, int ncol,
                                               int *lo, int *hi)
{
    switch (ph) {
    case 0:
        *lo = k->off_wn[w * ncol + nn], *hi = k->off_wn[w * ncol + nn + 1];
        return k->by_wn;
    case 1:
        *lo = k->off_w[w], *hi = k->off_w[w + 1];
        return k->by_w;
    case 2:
        *lo = k->off_n[nn], *hi = k->off_n[nn + 1];
        return k->by_n;
    default:
        *lo = 0, *hi = k->nall;
        return k->all;
    }
}

/* Colour c's balance changes by delta (grey is no join). */
static inline void scan_bound_colour(scan_ctx *s, int c, int delta)
{
    if (!c)
        return;
    int v = s->bal[c];
    s->dead -= v < 0 ? -v : 0;
    s->odd -= v > 0 ? v & 1 : 0;
    v += delta;
    s->bal[c] = v;
    s->dead += v < 0 ? -v : 0;
    s->odd += v > 0 ? v & 1 : 0;
}

/* The counters as item `it` enters (sign 1) or leaves (-1) depth d: it
 * leaves the supply, meets or breaks the demands its west and north
 * neighbours (and a clue east or south) showed it, and its free east and
 * south sides become demands. A side that matches its demand changes
 * nothing, so a perfect placement touches two colours. */
static inline void scan_bound_move(scan_ctx *s, int d, const scan_item *it, int sign)
{
    const scan_step *st = &s->step[d];
    int w = s->east[st->west], nn = s->south[st->north];
    if (w != it->w)
        scan_bound_colour(s, w, sign), scan_bound_colour(s, it->w, -sign);
    if (nn != it->n)
        scan_bound_colour(s, nn, sign), scan_bound_colour(s, it->n, -sign);
    if (st->e_need < 0)
        scan_bound_colour(s, it->e, -2 * sign);
    else if (st->e_need != it->e)
        scan_bound_colour(s, st->e_need, sign), scan_bound_colour(s, it->e, -sign);
    if (st->s_need < 0)
        scan_bound_colour(s, it->s, -2 * sign);
    else if (st->s_need != it->s)
        scan_bound_colour(s, st->s_need, sign), scan_bound_colour(s, it->s, -sign);
}

/* 1 if the breaks after placing depth d cannot stay within the budget.
 * Every open demand needs its own unplaced side of its colour, so `dead`
 * demands will be breaks, all made by depth resolve[d], where the budget is
 * allowed[resolve[d]]; and a colour whose sides left over after its demands
 * are odd in number leaves one unmatched side among the empty cells, where
 * a break holds two unmatched sides, so the rest of the board adds at least
 * (dead + odd) / 2 breaks by the last cell. */
static inline int scan_bound_prunes(const scan_ctx *s, int d)
{
    int b = s->brk[d + 1];
    if (b + s->dead > s->allowed[s->resolve[d]])
        return 1;
    return s->bound == SRCH_EM_SCAN_BOUND_PARITY &&
           b + (s->dead + s->odd + 1) / 2 > s->allowed[s->m - 1];
}

/* The counters of the path above depth `upto` recounted (srch_em_scan.c);
 * scan_place recounts at `from`:
 * the bound cannot prune before breaks are allowed, so it is kept only past
 * there, which spares the placements of the perfect prefix. */
void srch_em_scan_bound_recount(scan_ctx *s, int upto);

static inline void scan_place(scan_ctx *s, int d, const scan_item *it, int cost)
{
    const scan_step *st = &s->step[d];
    if (s->bound && d >= s->from)
        scan_bound_move(s, d, it, 1);
    s->used[it->piece] = 1;
    s->east[st->cell] = it->e;
    s->south[st->cell] = it->s;
    s->chosen[d] = *it;
    s->brk[d + 1] = s->brk[d] + cost;
    if (s->bound && d == s->from - 1)
        srch_em_scan_bound_recount(s, s->from);
}

/* Undo scan_place at depth d. */
static inline void scan_unplace(scan_ctx *s, int d)
{
    s->used[s->chosen[d].piece] = 0;
    if (s->bound && d >= s->from)
        scan_bound_move(s, d, &s->chosen[d], -1);
}

static inline const scan_item *scan_perfect(const scan_ctx *s, int d, int *lo, int *hi)
{
    const scan_step *st = &s->step[d];
    return scan_phase_list(st->kind, 0, s->east[st->west], s->south[st->north], s->ncol, lo, hi);
}

static inline int scan_clue_cost(const scan_ctx *s, int d, const scan_item *it)
{
    const scan_step *st = &s->step[d];
    return (st->e_need >= 0 && it->e != st->e_need) + (st->s_need >= 0 && it->s != st->s_need);
}

/* A 64-bit mix (murmur3's finaliser): the slot of a cache key. */
static inline uint64_t scan_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb93fe53ce39bULL;
    return x ^ (x >> 33);
}

/* srch_em_scan_order.c: the learned order of depth d's perfect-match
 * candidates into s->ord (returns their count), or -1 to keep the bucket's
 * order (fewer than two, too many, or the scorer failed). */
int srch_em_scan_order(scan_ctx *s, int d);
/* Bring the encoder's stack to the scan's path above depth d: pop back to
 * where they part, push the rest. */
void srch_em_scan_sync_feat(srch_em_pfeat *f, const scan_ctx *s, int d);
/* The encoder's view of depth d's decision. */
void srch_em_scan_place_ctx(const scan_ctx *s, int d, srch_em_place_ctx *c);
/* A new restart: orders cached before it are not served again (fresh noise). */
void srch_em_scan_order_restart(srch_em_place_scorer *sc);
/* srch_em_scan_break.c: the learned gate's verdict on depth d's break phases
 * (the allow_break hook when opts.gate is set): 1 allow, 0 skip. */
int srch_em_scan_break_allow(scan_ctx *s, int d);
/* The emp-break-v1 features of depth d's break decision into out. */
void srch_em_scan_break_encode(srch_em_pfeat *f, const scan_ctx *s, int d, float *out);

#endif
