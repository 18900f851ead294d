/* The IDA* stage of anytime A*: one depth-first iteration under a fixed
 * bound (the incumbent's length minus 2), pruned everywhere by the
 * admissible heuristic and, in bands of moves left under the bound, by the
 * network less a band's delta.
 *
 * Why a second kind of phase: an A* phase pays the network on every board it
 * stores (a few microseconds), while a depth-first pass with the incremental
 * PDB alone costs a fraction of a microsecond per node and no memory. The
 * bulk of such a pass lies where the PDB is weakest, some 40-70 moves from
 * the goal; a network with a generous delta cuts exactly that part, and it is
 * asked only there. A network that over-estimates by more than its delta on
 * the optimal path (the failure of the A* phases) is then survived by the
 * bands it does not cover. Children are tried in the network's order where
 * it was asked, else in the PDB's, so a pass that can succeed succeeds
 * early. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/ann.h"
#include "search/npuzzle/np_internal.h"

typedef struct {
    srch_np_board b;
    const srch_np_heur *adm, *guide;
    int goal, bound, scale, length, status;
    long delta[SRCH_NP_MAX_PATH]; /* per moves left after a child's move: -1 no network,
                                     LONG_MAX the network's order without a cut */
    char *states;                 /* adm state per (depth, child slot), ssz bytes each */
    size_t ssz;
    const srch_limits *lim;
    double deadline;
    srch_np_result *res;
    int8_t nb[SRCH_NP_MAX_CELLS][4];
    uint8_t path[SRCH_NP_MAX_PATH];
} stage;

/* Checked on every expansion (the count) and every 4096 (time, Ctrl-C). */
static int stopped(stage *s)
{
    const srch_limits *lim = s->lim;
    if (lim && lim->max_expanded && s->res->expanded >= lim->max_expanded)
        s->status = hn_fail(HN_ERR_LIMIT, "anytime A*: node limit reached");
    else if ((s->res->expanded & 4095) == 0) {
        if (hn_stop_requested())
            s->status = hn_fail(HN_ERR_INTERRUPTED, "anytime A*: interrupted");
        else if (s->deadline > 0 && hn_now() > s->deadline)
            s->status = hn_fail(HN_ERR_LIMIT, "anytime A*: time limit reached");
    }
    return s->status != 0;
}

typedef struct {
    int dir, to, h; /* h: adm in moves */
    int slot;       /* where its adm state is, at the next depth */
    int key;        /* order: the network's value where asked, else adm */
} kid;

/* Four adm states per depth, one per child, since the children are
 * visited in another order than they are made. */
static char *state(stage *s, int depth, int k)
{
    return s->states + ((size_t)depth * 4 + (size_t)k) * s->ssz;
}

/* The children of the board at depth g (its adm state in slot `me`) within
 * the bound by adm. Returns how many. */
static int children(stage *s, int g, int me, int prev, kid *out)
{
    const srch_np_heur_ops *ops = &s->adm->ops;
    int n = 0, left = s->bound - g - 1;
    for (int d = 0; d < 4; d++) {
        int from = s->b.blank, to = s->nb[from][d];
        if (to < 0 || d == (prev ^ 1))
            continue;
        int tile = s->b.tile[to];
        srch_np_board_slide(&s->b, to);
        int h = ops->inc_move ? ops->inc_move(s->adm->self, &s->b, tile, to, from, state(s, g, me),
                                              state(s, g + 1, n), left)
                              : ops->eval(s->adm->self, &s->b);
        srch_np_board_slide(&s->b, from);
        s->res->generated++;
        s->res->heur_calls++;
        if (h <= left) {
            out[n] = (kid){d, to, h, n, h * s->scale};
            n++;
        }
    }
    return n;
}

/* In a band: drop the children the network, less the band's delta, puts
 * beyond the bound, and order the rest by its value. Returns how many are
 * left, or a negative status. */
static int network_cut(stage *s, int g, kid *k, int n)
{
    long delta = s->delta[s->bound - g - 1];
    if (delta < 0 || n == 0)
        return n;
    srch_np_board kb[4];
    int v[4];
    for (int i = 0; i < n; i++) {
        kb[i] = s->b;
        srch_np_board_slide(&kb[i], k[i].to);
    }
    int st = srch_np_heur_eval_batch(s->guide, kb, (size_t)n, v);
    if (st)
        return st;
    s->res->heur_calls += (uint64_t)n;
    s->res->batches++;
    long cap = delta == LONG_MAX ? LONG_MAX : (long)(s->bound - g - 1) * s->scale + delta;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (v[i] <= cap) {
            kid x = k[i];
            x.key = v[i];
            k[m++] = x;
        }
    return m;
}

/* 1: goal found (path and length set), 0: none within the bound, < 0: a
 * limit, an interrupt or an error (s->status). */
static int dfs(stage *s, int g, int me, int prev, int hcur)
{
    if (hcur == 0 && srch_np_board_is_goal(&s->b, s->goal)) {
        s->length = g;
        return 1;
    }
    s->res->expanded++;
    if (stopped(s))
        return -1;
    if (g + 1 >= SRCH_NP_MAX_PATH)
        return 0; /* callers keep the bound below the path limit */
    kid k[4];
    int n = network_cut(s, g, k, children(s, g, me, prev, k));
    if (n < 0) {
        s->status = n;
        return -1;
    }
    for (int i = 1; i < n; i++) /* insertion sort of at most 3 */
        for (int j = i; j > 0 && k[j].key < k[j - 1].key; j--) {
            kid t = k[j];
            k[j] = k[j - 1];
            k[j - 1] = t;
        }
    for (int i = 0; i < n; i++) {
        int from = s->b.blank;
        srch_np_board_slide(&s->b, k[i].to);
        s->path[g] = (uint8_t)k[i].dir;
        int r = dfs(s, g + 1, k[i].slot, k[i].dir, k[i].h);
        if (r)
            return r;
        srch_np_board_slide(&s->b, from);
    }
    return 0;
}

int srch_np_ida_proves(const srch_np_ida_opts *o)
{
    for (int i = 0; i < o->nbands; i++)
        if (!isinf(o->band[i].delta))
            return 0;
    return 1;
}

int srch_np_ida_bands_check(const srch_np_ida_opts *o)
{
    if (o->nbands < 0 || o->nbands > SRCH_NP_MAX_BANDS)
        return hn_fail(HN_ERR_ARG, "IDA* stage: 0..%d bands, not %d", SRCH_NP_MAX_BANDS, o->nbands);
    if (!(o->at >= 0 && o->at <= 1))
        return hn_fail(HN_ERR_ARG, "IDA* stage: start at a share of the time in 0..1, not %g",
                       o->at);
    for (int i = 0; i < o->nbands; i++) {
        const srch_np_band *b = &o->band[i];
        if (b->lo < 1 || b->hi < b->lo || b->hi >= SRCH_NP_MAX_PATH || !(b->delta >= 0) ||
            (b->delta > 1000 && !isinf(b->delta)))
            return hn_fail(HN_ERR_ARG,
                           "IDA* stage: band %d must be 1 <= lo <= hi < %d moves left with a "
                           "delta in 0..1000 or inf (got %d-%d:%g)",
                           i + 1, SRCH_NP_MAX_PATH, b->lo, b->hi, b->delta);
        for (int j = 0; j < i; j++)
            if (b->lo <= o->band[j].hi && o->band[j].lo <= b->hi)
                return hn_fail(HN_ERR_ARG, "IDA* stage: bands %d and %d overlap", j + 1, i + 1);
    }
    return 0;
}

int srch_np_ida_pass(const srch_np_board *start, const srch_np_heur *adm, const srch_np_heur *guide,
                     const srch_np_ida_opts *o, int bound, const srch_limits *lim, double deadline,
                     srch_np_result *res, uint8_t *moves, int *nmoves)
{
    if (bound < 0 || bound >= SRCH_NP_MAX_PATH - 1)
        return hn_fail(HN_ERR_ARG, "IDA* stage: bound %d not in 0..%d", bound,
                       SRCH_NP_MAX_PATH - 2);
    stage *s = calloc(1, sizeof *s);
    size_t ssz = (adm->ops.state_size + 7) & ~(size_t)7;
    char *states = malloc((ssz ? ssz : 8) * 4 * (SRCH_NP_MAX_PATH + 1));
    if (!s || !states) {
        free(s);
        free(states);
        return hn_fail(HN_ERR_NOMEM, "IDA* stage: out of memory");
    }
    *s = (stage){.b = *start,
                 .adm = adm,
                 .guide = guide,
                 .goal = adm->goal,
                 .bound = bound,
                 .scale = srch_np_heur_scale(guide),
                 .states = states,
                 .ssz = ssz,
                 .lim = lim,
                 .deadline = deadline,
                 .res = res};
    for (int r = 0; r < SRCH_NP_MAX_PATH; r++)
        s->delta[r] = -1;
    for (int i = 0; i < o->nbands; i++)
        for (int r = o->band[i].lo; r <= o->band[i].hi; r++)
            s->delta[r] = isinf(o->band[i].delta) ? LONG_MAX : lround(o->band[i].delta * s->scale);
    for (int c = 0; c < start->ncells; c++)
        for (int d = 0; d < 4; d++)
            s->nb[c][d] = (int8_t)srch_np_neighbour(start->width, c, d);
    int h0 = adm->ops.inc_move ? adm->ops.inc_init(adm->self, &s->b, state(s, 0, 0))
                               : adm->ops.eval(adm->self, &s->b);
    res->heur_calls++;
    int r = h0 > bound ? 0 : dfs(s, 0, 0, -1, h0);
    if (r > 0) {
        *nmoves = s->length;
        memcpy(moves, s->path, (size_t)s->length);
    }
    if (r < 0)
        r = s->status;
    free(states);
    free(s);
    return r;
}
