/* Best-first search over any domain: A*, weighted A* and batch weighted A*
 * (BWAS) are one loop that pops `batch` open states, expands them and
 * evaluates all their new children with one heuristic call; anytime
 * weighted A* runs it once per phase (weights, then deltas), bounded by the
 * incumbent.
 *
 * The open list is ordered by f = g * scale + weight * h in 1/64 steps,
 * ties toward larger g (as the specialized n-puzzle A*). Graph search only
 * prunes the move that undoes the last one: the pruning automaton's other
 * cuts are safe for tree search (IDA*) but not with duplicate detection,
 * where a state kept under one path's automaton state would lose moves
 * another path of the same cost allows. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

const srch_dom_opts SRCH_DOM_DEFAULTS = {.weight = 1.0,
                                         .batch = 1,
                                         .width = 1024,
                                         .nweights = 5,
                                         .weights = {5.0, 3.0, 2.0, 1.5, 1.0},
                                         .ida_at = 0.5,
                                         .shortcut = {.budget = 1000000, .max_rounds = 8}};

#define F_MAX (((uint64_t)1 << 40) - 1)
#define DELTA_ALONE INT64_MAX
/* gen_node.h of a child stored past the incumbent's bound without its
 * (network) value: evaluated only if a cheaper path brings it back. */
#define H_LAZY (-2)

typedef struct {
    const dom *d;
    const dom_def *def;
    const void *inst;
    srch_dom_heur *h;
    gen_store s;
    gen_heap open;
    const char *algo;
    double weight;
    int batch, scale, nmoves, adm;
    int cont;      /* anytime: a pass continues the last one's search (else restarts) */
    int64_t bound; /* anytime: prune g (+ a lower bound) reaching it */
    uint64_t all;  /* every move's bit */
    /* anytime: an admissible H (may be h itself: H_is_h) and its values per
     * node in h's units, for the bound and the delta phases; NULL: none */
    srch_dom_heur *H;
    int H_is_h, Hscale;
    int32_t *ha;
    size_t hacap;
    int *hbuf;     /* H of a step's children */
    int64_t delta; /* this phase orders by: -1 h, else max(h - delta, H); DELTA_ALONE: H */
    /* one step's buffers, allocated once: the popped states, their
     * children's states, the children's parents, moves and store indices */
    uint8_t *parents, *kids, *cbuf, *kmoves;
    int *parent_of, *hv;
    uint32_t *kidx;
    long incumbent; /* the best goal popped (node index), or -1 */
    const srch_limits *lim;
    double deadline;
    srch_dom_result *res;
} bfs;

static uint64_t f_of(const bfs *b, uint32_t g, int h)
{
    double f = ((double)g * b->scale + b->weight * h) * 64.0;
    uint64_t F = f >= (double)F_MAX ? F_MAX : (uint64_t)llround(f);
    return F << 24 | (uint64_t)(0xffffff - (g < 0xffffff ? g : 0xffffff));
}

/* The value node idx is ordered by in this phase. */
static int h_order(const bfs *b, uint32_t idx)
{
    int h = b->s.nodes[idx].h;
    if (b->delta < 0)
        return h;
    int H = b->ha[idx];
    if (b->delta == DELTA_ALONE)
        return H;
    int64_t v = (int64_t)h - b->delta;
    return v > H ? (int)v : H;
}

/* Whether node idx can still lead below the bound: g + H, else g + h when
 * h is admissible, else g. */
static int within_bound(const bfs *b, uint32_t idx)
{
    if (b->bound == INT64_MAX)
        return 1;
    const gen_node *x = &b->s.nodes[idx];
    int lbh = b->H ? b->ha[idx] : b->adm ? x->h : 0;
    return (double)x->g + (double)lbh / b->scale < (double)b->bound;
}

static int push(bfs *b, uint32_t idx)
{
    gen_node *x = &b->s.nodes[idx];
    if (!within_bound(b, idx)) {
        x->open = 0;
        return 0;
    }
    x->open = 1;
    return srch_gen_heap_push(&b->open, f_of(b, x->g, h_order(b, idx)), idx, x->g);
}

/* H's values of n states into out[], in h's units. */
static int eval_H(bfs *b, const void *states, size_t n, const int *hv, int *out)
{
    if (b->H_is_h) {
        memcpy(out, hv, n * sizeof *out);
        return 0;
    }
    int st = srch_dom_heur_eval(b->H, states, n, NULL, NULL, NULL, out);
    for (size_t i = 0; !st && i < n; i++)
        out[i] = (int)((int64_t)out[i] * b->scale / b->Hscale);
    return st;
}

/* Room for H of every stored node. */
static int reserve_ha(bfs *b)
{
    if (b->hacap >= b->s.cap)
        return 0;
    int32_t *p = realloc(b->ha, b->s.cap * sizeof *p);
    if (!p)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory", b->algo);
    b->ha = p;
    b->hacap = b->s.cap;
    return 0;
}

static int alloc_step(bfs *b)
{
    size_t sb = b->s.sb, kmax = (size_t)b->batch * (size_t)b->nmoves;
    b->parents = malloc((size_t)b->batch * sb);
    b->kids = malloc(kmax * sb);
    b->cbuf = malloc((size_t)b->nmoves * sb);
    b->kmoves = malloc(kmax);
    b->parent_of = malloc(kmax * sizeof *b->parent_of);
    b->hv = malloc(kmax * sizeof *b->hv);
    b->kidx = malloc(kmax * sizeof *b->kidx);
    b->hbuf = malloc(kmax * sizeof *b->hbuf);
    if (!b->parents || !b->kids || !b->cbuf || !b->kmoves || !b->parent_of || !b->hv || !b->kidx ||
        !b->hbuf)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory", b->algo);
    return 0;
}

static void free_step(bfs *b)
{
    free(b->parents);
    free(b->kids);
    free(b->cbuf);
    free(b->kmoves);
    free(b->parent_of);
    free(b->hv);
    free(b->kidx);
    free(b->hbuf);
    free(b->ha);
    srch_gen_store_free(&b->s);
    free(b->open.a);
}

/* Child state c (node idx, of the step's parent p by move m) into the
 * step's evaluation at *nk. A state reached twice in one step is queued
 * once: its h is then no longer H_LAZY. */
static void queue_kid(bfs *b, const uint8_t *c, uint32_t idx, int p, int m, int *nk)
{
    memcpy(b->kids + (size_t)*nk * b->s.sb, c, b->s.sb);
    b->kidx[*nk] = idx;
    b->parent_of[*nk] = p;
    b->kmoves[(*nk)++] = (uint8_t)m;
    b->s.nodes[idx].h = -1;
}

/* The children of node idx (copied as parent p of the step): new ones
 * stored (h unknown) and queued for evaluation at *nk, cheaper paths to
 * stored ones taken over and re-queued. */
static int children(bfs *b, uint32_t idx, int p, int *nk)
{
    const gen_node *x = &b->s.nodes[idx];
    uint64_t mask = b->all;
    int inv = x->parent == GEN_NO_PARENT ? -1 : dom_inverse(b->d, x->move);
    if (inv >= 0)
        mask &= ~(1ull << inv);
    const uint8_t *ps = b->parents + (size_t)p * b->s.sb;
    uint8_t cm[DOM_MAX_MOVES];
    int n = b->def->expand(b->inst, ps, mask, b->cbuf, cm);
    uint32_t g0 = x->g;
    b->res->generated += (uint64_t)n;
    for (int i = 0; i < n; i++) {
        const uint8_t *c = b->cbuf + (size_t)i * b->s.sb;
        uint32_t g = g0 + (uint32_t)dom_move_cost(b->d, cm[i]);
        uint64_t hv = dom_hash(b->d, c);
        long j = srch_gen_store_find(&b->s, c, hv);
        if (j < 0) {
            if ((j = srch_gen_store_add(&b->s, c, hv, idx, g, cm[i])) < 0)
                return HN_ERR_NOMEM;
            queue_kid(b, c, (uint32_t)j, p, cm[i], nk);
        } else if (b->s.nodes[j].g > g) {
            gen_node *y = &b->s.nodes[j];
            y->g = g;
            y->parent = idx;
            y->move = cm[i];
            int st = 0;
            if (y->h >= 0)
                st = push(b, (uint32_t)j);
            else if (y->h == H_LAZY) /* evaluated with this step's new children */
                queue_kid(b, c, (uint32_t)j, p, cm[i], nk);
            /* else new in this step, queued already */
            if (st)
                return st;
        }
    }
    return 0;
}

/* With an incumbent and an H apart from h: H of the step's children
 * first, and those the bound cuts stored without h (H_LAZY), so the
 * network runs only on children that can lead below the incumbent (late
 * phases generate mostly such cut children). The kept ones move to the
 * front of the step's buffers; returns how many. */
static int cut_lazy(bfs *b, int nk, int *st)
{
    if ((*st = reserve_ha(b)) || (*st = eval_H(b, b->kids, (size_t)nk, NULL, b->hbuf)))
        return 0;
    int m = 0;
    for (int i = 0; i < nk; i++) {
        uint32_t idx = b->kidx[i];
        b->ha[idx] = b->hbuf[i];
        if (!within_bound(b, idx)) {
            b->s.nodes[idx].h = H_LAZY;
            b->s.nodes[idx].open = 0;
            continue;
        }
        if (m != i) {
            memmove(b->kids + (size_t)m * b->s.sb, b->kids + (size_t)i * b->s.sb, b->s.sb);
            b->kidx[m] = idx;
            b->parent_of[m] = b->parent_of[i];
            b->kmoves[m] = b->kmoves[i];
        }
        m++;
    }
    return m;
}

/* Evaluate the step's new children in one call and queue them. */
static int eval_kids(bfs *b, int nk)
{
    int st = 0, lazy = b->H && !b->H_is_h && b->bound < INT64_MAX;
    if (lazy)
        nk = cut_lazy(b, nk, &st);
    if (st || !nk)
        return st;
    st = srch_dom_heur_eval(b->h, b->kids, (size_t)nk, b->parents, b->parent_of, b->kmoves, b->hv);
    if (!st && b->H && !lazy && !(st = reserve_ha(b)))
        st = eval_H(b, b->kids, (size_t)nk, b->hv, b->hbuf);
    for (int i = 0; !st && i < nk; i++) {
        b->s.nodes[b->kidx[i]].h = b->hv[i];
        if (b->H && !lazy)
            b->ha[b->kidx[i]] = b->hbuf[i];
        st = push(b, b->kidx[i]);
    }
    return st;
}

/* Pop up to `batch` open states; a goal becomes the incumbent. Returns the
 * count, or a status. *done when the search is over (the best open f is
 * no better than the incumbent's). */
static int pop_batch(bfs *b, uint32_t *popped, int *done)
{
    int np = 0;
    while (np < b->batch && b->open.n) {
        if (b->incumbent >= 0 &&
            b->open.a[0].pri >> 24 >= f_of(b, b->s.nodes[b->incumbent].g, 0) >> 24) {
            *done = 1;
            break;
        }
        gen_item top = srch_gen_heap_pop(&b->open);
        gen_node *x = &b->s.nodes[top.idx];
        if (!x->open || x->g != top.g)
            continue; /* stale: expanded or improved since */
        if (dom_is_goal(b->d, gen_state(&b->s, top.idx))) {
            x->open = 0;
            if (b->incumbent < 0 || x->g < b->s.nodes[b->incumbent].g)
                b->incumbent = top.idx;
            if (b->batch == 1) {
                *done = 1;
                break;
            }
            continue;
        }
        /* before it is closed: a phase the limit stops leaves it open */
        int st = srch_gen_limits_hit(b->algo, b->res, b->lim, b->deadline, b->s.n);
        if (st)
            return st;
        x->open = 0;
        memcpy(b->parents + (size_t)np * b->s.sb, gen_state(&b->s, top.idx), b->s.sb);
        popped[np++] = top.idx;
        b->res->expanded++;
    }
    if (!b->open.n && !np)
        *done = 1;
    return np;
}

/* A pass that continues the last one (anytime A*, as ARA* reuses its
 * search): the states it expanded stay closed with their children stored,
 * those it left open go back in under this pass's order, and a cheaper
 * path to a closed state reopens it (children). Each phase's order is at
 * most the last one's on nearly every state (the weights fall, then delta
 * rises), so what the last pass expanded this one would expand too, and
 * a phase costs only its new states. The open list running out still
 * proves the incumbent: every state that could lead below it is closed
 * with its cheapest known g, open, or cut by the bound, whatever the order
 * that got it there. */
static int requeue(bfs *b)
{
    b->res->h0 = b->s.nodes[0].h;
    for (size_t i = 0; i < b->s.n; i++)
        if (b->s.nodes[i].open && b->s.nodes[i].h >= 0) {
            int st = push(b, (uint32_t)i);
            if (st)
                return st;
        }
    return 0;
}

/* Queue the root: stored and evaluated on the first pass. A later pass
 * continues the last one, or (b->cont 0) forgets how every stored state
 * was reached (g infinite) but keeps its value, so the network runs once
 * per state and search either way. */
static int start_pass(bfs *b, const void *start)
{
    b->open.n = 0;
    b->incumbent = -1;
    if (b->s.n && b->cont)
        return requeue(b);
    if (b->s.n) {
        for (size_t i = 0; i < b->s.n; i++)
            b->s.nodes[i] = (gen_node){.parent = GEN_NO_PARENT,
                                       .g = UINT32_MAX,
                                       .h = b->s.nodes[i].h,
                                       .move = b->s.nodes[i].move};
        b->s.nodes[0].g = 0;
        b->res->h0 = b->s.nodes[0].h;
        return push(b, 0);
    }
    if (srch_gen_store_add(&b->s, start, dom_hash(b->d, start), GEN_NO_PARENT, 0, 0) < 0)
        return HN_ERR_NOMEM;
    int st = srch_dom_heur_eval(b->h, start, 1, NULL, NULL, NULL, &b->res->h0);
    b->s.nodes[0].h = b->res->h0;
    if (!st && b->H && !(st = reserve_ha(b))) {
        int v;
        st = eval_H(b, start, 1, &b->res->h0, &v);
        b->ha[0] = v;
    }
    return st ? st : push(b, 0);
}

static int run(bfs *b, const void *start)
{
    uint32_t *popped = malloc((size_t)b->batch * sizeof *popped);
    int st = popped ? start_pass(b, start) : hn_fail(HN_ERR_NOMEM, "%s: out of memory", b->algo);
    for (int done = 0; !st && !done;) {
        int np = pop_batch(b, popped, &done), nk = 0;
        if (np < 0)
            st = np;
        for (int p = 0; !st && p < np; p++)
            st = children(b, popped[p], p, &nk);
        if (!st)
            st = eval_kids(b, nk);
        if (b->s.n > b->res->stored)
            b->res->stored = b->s.n;
    }
    free(popped);
    if (!st && b->incumbent < 0)
        st = hn_fail(HN_ERR_UNSOLVABLE, "%s: no goal reachable%s", b->algo,
                     b->bound < INT64_MAX ? " below the incumbent" : "");
    if (!st)
        st = srch_gen_take_path(&b->s, (size_t)b->incumbent, b->res);
    return st;
}

/* A search's store and buffers; its passes set weight, bound, limits and
 * result. 0 or a status (then bfs_free still frees). */
static int bfs_init(bfs *b, const dom *d, srch_dom_heur *h, int batch, const char *algo)
{
    *b = (bfs){.d = d,
               .def = dom_def_of(d),
               .inst = dom_instance(d),
               .h = h,
               .algo = algo,
               .batch = batch,
               .scale = srch_dom_heur_scale(h),
               .nmoves = dom_nmoves(d),
               .adm = srch_dom_heur_admissible(h),
               .bound = INT64_MAX,
               .delta = -1,
               .incumbent = -1};
    b->all = b->nmoves == 64 ? ~0ull : (1ull << b->nmoves) - 1;
    int st = srch_gen_store_init(&b->s, d);
    return st ? st : alloc_step(b);
}

static int bfs_pass(bfs *b, const void *start, double weight, int64_t bound, const srch_limits *lim,
                    double deadline, srch_dom_result *res)
{
    b->weight = weight;
    b->bound = bound;
    b->lim = lim;
    b->deadline = deadline;
    b->res = res;
    return run(b, start);
}

/* One best-first search into res (not checked, not timed). */
static int bfs_search(const dom *d, const void *start, srch_dom_heur *h, double weight, int batch,
                      const srch_limits *lim, double deadline, const char *algo,
                      srch_dom_result *res)
{
    bfs b;
    int st = bfs_init(&b, d, h, batch, algo);
    if (!st)
        st = bfs_pass(&b, start, weight, INT64_MAX, lim, deadline, res);
    free_step(&b);
    return st;
}

static int check_opts(const srch_dom_opts *o, const char *algo)
{
    if (!(o->weight >= 0 && o->weight <= 100) || o->batch < 1 || o->batch > 65536)
        return hn_fail(HN_ERR_ARG, "%s: weight must be 0..100 and batch 1..65536", algo);
    return 0;
}

static int one_search(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                      int batch, const srch_limits *lim, const char *algo, srch_dom_result *res)
{
    const srch_dom_opts *o = opts ? opts : &SRCH_DOM_DEFAULTS;
    if (srch_gen_begin(d, start, h, res) || (res->status = check_opts(o, algo)))
        return res->status;
    double t0 = hn_now();
    uint64_t rows0 = srch_dom_heur_rows(h);
    int st = bfs_search(d, start, h, o->weight, batch, lim, srch_gen_deadline(lim, t0), algo, res);
    if (!st)
        st = srch_gen_check(d, start, algo, res);
    res->proven = !st && o->weight == 1.0 && srch_dom_heur_admissible(h);
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - t0;
    return res->status = st;
}

int srch_dom_astar(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                   const srch_limits *lim, srch_dom_result *res)
{
    return one_search(d, start, h, opts, 1, lim, "A*", res);
}

int srch_dom_bwas(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                  const srch_limits *lim, srch_dom_result *res)
{
    return one_search(d, start, h, opts, opts ? opts->batch : 1, lim, "BWAS", res);
}

/* ---- anytime A*: weights, deltas, an IDA* stage ---- */

static int check_schedule(const srch_dom_opts *o)
{
    int ok = o->nweights >= (o->ndeltas ? 0 : 1) && o->nweights <= SRCH_DOM_MAX_WEIGHTS;
    for (int i = 0; ok && i < o->nweights; i++)
        ok = o->weights[i] >= 1 && o->weights[i] <= 100 &&
             (i == 0 || o->weights[i] < o->weights[i - 1]);
    if (!ok)
        return hn_fail(HN_ERR_ARG, "anytime A*: %d..%d falling weights in [1, 100]",
                       o->ndeltas ? 0 : 1, SRCH_DOM_MAX_WEIGHTS);
    ok = o->ndeltas >= 0 && o->ndeltas <= SRCH_DOM_MAX_DELTAS;
    for (int i = 0; ok && i < o->ndeltas; i++) {
        double x = o->deltas[i];
        ok = (x == SRCH_DOM_DELTA_INF ? i == o->ndeltas - 1 : x >= 0 && x <= 1000) &&
             (i == 0 || x > o->deltas[i - 1]);
    }
    if (!ok)
        return hn_fail(HN_ERR_ARG, "anytime A*: up to %d rising deltas in [0, 1000], inf only last",
                       SRCH_DOM_MAX_DELTAS);
    if (o->ida && !(o->ida_at >= 0 && o->ida_at <= 1))
        return hn_fail(HN_ERR_ARG, "anytime A*: the IDA* stage's share must be 0..1");
    int st = srch_dom_shortcut_check(&o->shortcut);
    return st ? st : check_opts(o, "anytime A*");
}

/* One anytime search: the schedule's settings and where it stands. */
typedef struct {
    const dom *d;
    const void *start;
    srch_dom_heur *h;
    srch_dom_heur *H, *H_own; /* H_own: a clone of opts->admissible, freed at the end */
    const srch_dom_opts *o;
    const srch_limits *lim;
    double t0, deadline;
    int64_t lb0; /* a lower bound on the cost at the start (from H) */
    int proven;
    srch_dom_result *res;
} anytime;

/* The limits left of lim for the next phase; the A* phases end at the
 * share ida_at of the time limit when an IDA* stage follows and there is
 * an incumbent. *over when no time is left for them. */
static srch_limits rest_of(const anytime *a, int astar, int *over)
{
    srch_limits r = a->lim ? *a->lim : (srch_limits){0};
    const srch_dom_result *res = a->res;
    *over = 0;
    if (r.max_expanded)
        r.max_expanded = res->expanded < r.max_expanded ? r.max_expanded - res->expanded : 1;
    if (r.time_limit > 0) {
        double used = hn_now() - a->t0, T = r.time_limit;
        if (astar && a->o->ida && res->cost >= 0)
            T *= a->o->ida_at;
        double left = T - used;
        *over = left <= 0;
        r.time_limit = left > 1e-6 ? left : 1e-6;
    }
    return r;
}

/* The share of the time left that the windows of one incumbent may take:
 * long IDA* windows on a path that is already locally shortest spend
 * their whole budget each, and a clock they took entirely would leave no
 * phase to find a better route (the excess that windows cannot remove). */
#define SHORTCUT_SHARE 0.25

/* A better solution r into res: shortened first (when on), reported. */
static int take_solution(anytime *a, srch_dom_result *r)
{
    srch_dom_result *res = a->res;
    double now = hn_now(), until = a->deadline;
    if (until > 0)
        until = now + SHORTCUT_SHARE * (until > now ? until - now : 0);
    int st = r->proven ? 0 : srch_dom_result_shortcut(a->d, a->start, &a->o->shortcut, until, r);
    if (st)
        return st;
    memcpy(res->moves, r->moves, (size_t)r->length);
    res->length = r->length;
    res->cost = r->cost;
    res->saved += r->saved;
    res->improvements++;
    res->seconds = hn_now() - a->t0;
    if (r->proven || res->cost <= a->lb0)
        a->proven = 1;
    if (a->o->on_solution)
        a->o->on_solution(res, a->o->user);
    return 0;
}

/* Add a phase's counters to the run's. */
static void count(srch_dom_result *res, const srch_dom_result *r)
{
    res->expanded += r->expanded;
    res->generated += r->generated;
    res->stored = r->stored > res->stored ? r->stored : res->stored;
    if (res->h0 < 0)
        res->h0 = r->h0;
}

/* One phase on weight w (delta < 0) or on max(h - delta, H) at weight 1.
 * 0 (solved, or exhausted: then the incumbent is proven), or the limit's
 * status. */
static int phase(anytime *a, bfs *b, double w, int64_t delta)
{
    int over;
    srch_limits left = rest_of(a, 1, &over);
    if (over)
        return hn_fail(HN_ERR_LIMIT, "anytime A*: time limit reached");
    srch_dom_result *r = malloc(sizeof *r);
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "anytime A*: out of memory");
    memset(r, 0, sizeof *r);
    b->delta = delta;
    int64_t bound = a->res->cost >= 0 ? a->res->cost : INT64_MAX;
    int st = bfs_pass(b, a->start, w, bound, &left, srch_gen_deadline(&left, hn_now()), r);
    count(a->res, r);
    if (st == HN_ERR_UNSOLVABLE) {
        /* it has seen every state that could lead below the incumbent (its
         * bound prunes by g, or g + a lower bound): proven, or no goal */
        a->proven = 1;
        st = 0;
    } else if (!st && !(st = srch_gen_check(a->d, a->start, "anytime A*", r))) {
        /* weight 1 on an admissible order: the first goal is optimal */
        r->proven = w == 1.0 && (b->adm || delta == DELTA_ALONE);
        st = take_solution(a, r);
    }
    a->res->phases += !st;
    free(r);
    return st;
}

/* IDA* pruned by H below the incumbent: a solution it finds is optimal, and
 * its end without one proves the incumbent. 0 or the limit's status. */
static int ida_stage(anytime *a)
{
    int over;
    srch_limits left = rest_of(a, 0, &over);
    if (over)
        return hn_fail(HN_ERR_LIMIT, "anytime A*: time limit reached");
    srch_dom_result *r = malloc(sizeof *r);
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "anytime A*: out of memory");
    int64_t below = (int64_t)srch_dom_heur_scale(a->H) * a->res->cost;
    int st = srch_gen_ida_below(a->d, a->start, a->H, &left, below, r);
    count(a->res, r);
    if (st == HN_ERR_UNSOLVABLE) {
        a->proven = 1;
        st = 0;
    } else if (!st) {
        st = take_solution(a, r); /* r->proven: H is admissible */
    }
    a->res->phases += !st;
    free(r);
    return st;
}

/* H: opts->admissible (a clone), else h's admissible part. */
static int open_H(anytime *a)
{
    int st = 0;
    if (a->o->admissible) {
        if (!srch_dom_heur_admissible(a->o->admissible) ||
            srch_dom_heur_domain(a->o->admissible) != a->d)
            return hn_fail(HN_ERR_ARG, "anytime A*: H must be admissible and of the same domain");
        if (!(a->H = a->H_own = srch_dom_heur_clone(a->o->admissible, &st)))
            return st;
    } else {
        a->H = srch_dom_heur_base(a->h);
    }
    if (!a->H && (a->o->ndeltas || a->o->ida))
        return hn_fail(HN_ERR_ARG, "anytime A*: the deltas and the IDA* stage need an admissible "
                                   "heuristic H (the network has no floor or residual base)");
    if (a->H) {
        int v = srch_gen_heur_value1(a->H, a->start), s = srch_dom_heur_scale(a->H);
        a->lb0 = (v + s - 1) / s;
    }
    return 0;
}

/* The weights, then the deltas, then the IDA* stage, until one proves the
 * incumbent or a limit stops them. */
static int schedule(anytime *a, bfs *b)
{
    const srch_dom_opts *o = a->o;
    int st = 0, scale = srch_dom_heur_scale(a->h);
    for (int k = 0; k < o->nweights && !st && !a->proven; k++)
        st = phase(a, b, o->weights[k], -1);
    for (int k = 0; k < o->ndeltas && !st && !a->proven; k++) {
        int64_t delta = o->deltas[k] >= SRCH_DOM_DELTA_INF ? DELTA_ALONE
                                                           : (int64_t)llround(o->deltas[k] * scale);
        st = phase(a, b, 1.0, delta);
    }
    if (o->ida && !a->proven && a->res->cost >= 0 && (!st || st == HN_ERR_LIMIT))
        st = ida_stage(a);
    return st;
}

int srch_dom_anytime(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                     const srch_limits *lim, srch_dom_result *res)
{
    const srch_dom_opts *o = opts ? opts : &SRCH_DOM_DEFAULTS;
    if (srch_gen_begin(d, start, h, res) || (res->status = check_schedule(o)))
        return res->status;
    anytime a = {
        .d = d, .start = start, .h = h, .o = o, .lim = lim, .t0 = hn_now(), .lb0 = -1, .res = res};
    a.deadline = srch_gen_deadline(lim, a.t0);
    uint64_t rows0 = srch_dom_heur_rows(h);
    bfs b;
    int st = bfs_init(&b, d, h, o->batch, "anytime A*");
    if (!st)
        st = open_H(&a);
    b.cont = !o->restart;
    if (!st && a.H) {
        b.H = a.H;
        b.H_is_h = a.H == h;
        b.Hscale = srch_dom_heur_scale(a.H);
    }
    if (!st)
        st = schedule(&a, &b);
    free_step(&b);
    srch_dom_heur_free(a.H_own);
    res->proven = a.proven && res->cost >= 0;
    if (res->cost >= 0 && (st == HN_ERR_LIMIT || st == HN_ERR_INTERRUPTED))
        st = 0; /* the incumbent is the answer */
    if (!st && res->cost < 0)
        st = hn_fail(HN_ERR_UNSOLVABLE, "anytime A*: no goal reachable");
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - a.t0;
    return res->status = st;
}
