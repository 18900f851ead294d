/* Best-first search over any domain: A*, weighted A* and batch weighted A*
 * (BWAS) are one loop that pops `batch` open states, expands them and
 * evaluates all their new children with one heuristic call; anytime
 * weighted A* runs it once per weight, bounded by the incumbent.
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

const srch_dom_opts SRCH_DOM_DEFAULTS = {
    .weight = 1.0, .batch = 1, .width = 1024, .nweights = 5, .weights = {5.0, 3.0, 2.0, 1.5, 1.0}};

#define F_MAX (((uint64_t)1 << 40) - 1)

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
    int64_t bound; /* anytime: prune g (+ h when admissible) reaching it */
    uint64_t all;  /* every move's bit */
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

/* Whether a state of cost g and value h can still lead below the bound. */
static int within_bound(const bfs *b, uint32_t g, int h)
{
    if (b->bound == INT64_MAX)
        return 1;
    double lb = (double)g + (b->adm ? (double)h / b->scale : 0.0);
    return lb < (double)b->bound;
}

static int push(bfs *b, uint32_t idx)
{
    gen_node *x = &b->s.nodes[idx];
    if (!within_bound(b, x->g, x->h)) {
        x->open = 0;
        return 0;
    }
    x->open = 1;
    return srch_gen_heap_push(&b->open, f_of(b, x->g, x->h), idx, x->g);
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
    if (!b->parents || !b->kids || !b->cbuf || !b->kmoves || !b->parent_of || !b->hv || !b->kidx)
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
    srch_gen_store_free(&b->s);
    free(b->open.a);
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
            memcpy(b->kids + (size_t)*nk * b->s.sb, c, b->s.sb);
            b->kidx[*nk] = (uint32_t)j;
            b->parent_of[*nk] = p;
            b->kmoves[(*nk)++] = cm[i];
        } else if (b->s.nodes[j].g > g) {
            gen_node *y = &b->s.nodes[j];
            y->g = g;
            y->parent = idx;
            y->move = cm[i];
            int st = y->h >= 0 ? push(b, (uint32_t)j) : 0; /* else queued in this step */
            if (st)
                return st;
        }
    }
    return 0;
}

/* Evaluate the step's new children in one call and queue them. */
static int eval_kids(bfs *b, int nk)
{
    if (!nk)
        return 0;
    int st =
        srch_dom_heur_eval(b->h, b->kids, (size_t)nk, b->parents, b->parent_of, b->kmoves, b->hv);
    for (int i = 0; !st && i < nk; i++) {
        b->s.nodes[b->kidx[i]].h = b->hv[i];
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
        x->open = 0;
        if (dom_is_goal(b->d, gen_state(&b->s, top.idx))) {
            if (b->incumbent < 0 || x->g < b->s.nodes[b->incumbent].g)
                b->incumbent = top.idx;
            if (b->batch == 1) {
                *done = 1;
                break;
            }
            continue;
        }
        int st = srch_gen_limits_hit(b->algo, b->res, b->lim, b->deadline, b->s.n);
        if (st)
            return st;
        memcpy(b->parents + (size_t)np * b->s.sb, gen_state(&b->s, top.idx), b->s.sb);
        popped[np++] = top.idx;
        b->res->expanded++;
    }
    if (!b->open.n && !np)
        *done = 1;
    return np;
}

/* Queue the root: stored and evaluated on the first pass. A later pass
 * (anytime A*) forgets how every stored state was reached (g infinite)
 * but keeps its value, so the network runs once per state and search. */
static int start_pass(bfs *b, const void *start)
{
    b->open.n = 0;
    b->incumbent = -1;
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

/* ---- anytime weighted A* ---- */

static int check_weights(const srch_dom_opts *o)
{
    int ok = o->nweights >= 1 && o->nweights <= SRCH_DOM_MAX_WEIGHTS;
    for (int i = 0; ok && i < o->nweights; i++)
        ok = o->weights[i] >= 1 && o->weights[i] <= 100 &&
             (i == 0 || o->weights[i] < o->weights[i - 1]);
    return ok ? check_opts(o, "anytime A*")
              : hn_fail(HN_ERR_ARG, "anytime A*: 1..%d falling weights in [1, 100]",
                        SRCH_DOM_MAX_WEIGHTS);
}

/* The limits left of lim for the next pass. */
static srch_limits rest_of(const srch_limits *lim, const srch_dom_result *res, double t0)
{
    srch_limits r = lim ? *lim : (srch_limits){0};
    if (r.max_expanded)
        r.max_expanded = res->expanded < r.max_expanded ? r.max_expanded - res->expanded : 1;
    if (r.time_limit > 0) {
        double left = r.time_limit - (hn_now() - t0);
        r.time_limit = left > 1e-6 ? left : 1e-6;
    }
    return r;
}

/* One pass into res's counters; a better solution into res. Returns 0
 * (solved or exhausted: *exhausted) or the limit's status. */
static int pass(bfs *b, const dom *d, const void *start, const srch_dom_opts *o, int k,
                const srch_limits *lim, double t0, srch_dom_result *res, int *exhausted)
{
    srch_dom_result *r = malloc(sizeof *r);
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "anytime A*: out of memory");
    srch_limits left = rest_of(lim, res, t0);
    memset(r, 0, sizeof *r);
    int64_t bound = res->cost >= 0 ? res->cost : INT64_MAX;
    int st = bfs_pass(b, start, o->weights[k], bound, &left, srch_gen_deadline(&left, hn_now()), r);
    res->expanded += r->expanded;
    res->generated += r->generated;
    res->stored = r->stored > res->stored ? r->stored : res->stored;
    if (res->h0 < 0)
        res->h0 = r->h0;
    *exhausted = st == HN_ERR_UNSOLVABLE;
    if (!st && !(st = srch_gen_check(d, start, "anytime A*", r))) {
        memcpy(res->moves, r->moves, (size_t)r->length);
        res->length = r->length;
        res->cost = r->cost;
        res->improvements++;
        res->seconds = hn_now() - t0;
        if (o->on_solution)
            o->on_solution(res, o->user);
    }
    free(r);
    return *exhausted ? 0 : st;
}

int srch_dom_anytime(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                     const srch_limits *lim, srch_dom_result *res)
{
    const srch_dom_opts *o = opts ? opts : &SRCH_DOM_DEFAULTS;
    if (srch_gen_begin(d, start, h, res) || (res->status = check_weights(o)))
        return res->status;
    double t0 = hn_now();
    uint64_t rows0 = srch_dom_heur_rows(h);
    int exhausted = 0;
    bfs b;
    int st = bfs_init(&b, d, h, o->batch, "anytime A*");
    for (int k = 0; k < o->nweights && !st && !exhausted; k++) {
        st = pass(&b, d, start, o, k, lim, t0, res, &exhausted);
        /* a weight-1 pass that found a solution with an admissible h ends it too */
        if (!st && !exhausted && o->weights[k] == 1.0 && srch_dom_heur_admissible(h))
            exhausted = 1;
    }
    /* a pass that ends without a solution has seen every state that could
     * lead below the incumbent (its bound prunes by g, or g + an
     * admissible h) */
    free_step(&b);
    res->proven = exhausted && res->cost >= 0;
    if (res->cost >= 0 && (st == HN_ERR_LIMIT || st == HN_ERR_INTERRUPTED))
        st = 0; /* the incumbent is the answer */
    if (!st && res->cost < 0)
        st = hn_fail(HN_ERR_UNSOLVABLE, "anytime A*: no goal reachable");
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - t0;
    return res->status = st;
}
