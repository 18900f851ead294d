/* Focal search over any domain (Pearl & Kim's A*_eps, as the n-puzzle's
 * search/npuzzle/focal.c): OPEN is ordered by f = g + H with an admissible
 * H in whole costs; FOCAL holds the open states with f <= bound * fmin and
 * is ordered by g * scale + h of a guiding heuristic (a network), so the
 * network chooses what to expand while H proves the bound.
 *
 * Why the bound holds: at any time some open state lies on an optimal path
 * with its optimal g, so every fmin seen is <= the optimal cost C*; the
 * focal limit fb = floor(bound * the largest fmin so far) is then <=
 * bound * C*, and a goal taken from FOCAL has cost g = f <= fb. fb never
 * falls (a re-opened state may lower fmin, but the old fmin was a lower
 * bound as well), so states waiting above fb move into FOCAL exactly once.
 *
 * A step pops up to opts->batch states of FOCAL, expands them and
 * evaluates all their new children with one call of each heuristic. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

#define FOCAL_ALGO "focal"
#define KEY_MAX (((uint64_t)1 << 40) - 1)

typedef struct {
    const dom *d;
    const dom_def *def;
    const void *inst;
    srch_dom_heur *guide, *adm;
    gen_store s;
    int32_t *H; /* the admissible value of each stored state */
    size_t hcap;
    gen_heap open, focal, wait; /* wait: open states with f > fb, by f */
    uint64_t waited;            /* states put on the wait list so far */
    double bound;
    int64_t fb; /* open states with f <= fb are in FOCAL */
    int batch, scale, nmoves;
    uint64_t all;
    /* one step's buffers: parents, children, their parents, moves, indices,
     * the guide's and the admissible values */
    uint8_t *parents, *kids, *cbuf, *kmoves;
    int *parent_of, *hv, *Hv;
    uint32_t *kidx, *popped;
    const srch_limits *lim;
    double deadline;
    srch_dom_result *res;
} focal;

static uint64_t key_of(uint64_t v, uint32_t g)
{
    v = v > KEY_MAX ? KEY_MAX : v;
    return v << 24 | (uint64_t)(0xffffff - (g < 0xffffff ? g : 0xffffff));
}

static int64_t f_of(const focal *a, uint32_t idx)
{
    return (int64_t)a->s.nodes[idx].g + a->H[idx];
}

static int valid(const focal *a, gen_item it)
{
    return a->s.nodes[it.idx].open && a->s.nodes[it.idx].g == it.g;
}

static int focal_push(focal *a, uint32_t idx)
{
    const gen_node *x = &a->s.nodes[idx];
    uint64_t v = (uint64_t)x->g * (uint64_t)a->scale + (uint64_t)(x->h > 0 ? x->h : 0);
    return srch_gen_heap_push(&a->focal, key_of(v, x->g), idx, x->g);
}

/* A waiting state's key: f, then the order states began to wait, so that
 * states of one f enter FOCAL first come first (as the n-puzzle's f buckets
 * did: equal guide values then break the same way, and the searches expand
 * the same states). */
static uint64_t wait_key(focal *a, int64_t f)
{
    uint64_t F = f > (int64_t)0xffffff ? 0xffffff : (uint64_t)f;
    return F << 40 | (a->waited++ & (((uint64_t)1 << 40) - 1));
}

/* Open state idx (evaluated): into OPEN, and into FOCAL or the wait list. */
static int push(focal *a, uint32_t idx)
{
    gen_node *x = &a->s.nodes[idx];
    int64_t f = f_of(a, idx);
    x->open = 1;
    int st = srch_gen_heap_push(&a->open, key_of((uint64_t)f, x->g), idx, x->g);
    if (st)
        return st;
    return f <= a->fb ? focal_push(a, idx)
                      : srch_gen_heap_push(&a->wait, wait_key(a, f), idx, x->g);
}

/* Raise fb to floor(bound * fmin) and move the waiting states below it. */
static int raise_bound(focal *a, int64_t fmin)
{
    int64_t fb = (int64_t)floor(a->bound * (double)fmin + 1e-9);
    if (fb <= a->fb)
        return 0;
    a->fb = fb;
    while (a->wait.n && (int64_t)(a->wait.a[0].pri >> 40) <= fb) {
        gen_item it = srch_gen_heap_pop(&a->wait);
        int st = valid(a, it) ? focal_push(a, it.idx) : 0;
        if (st)
            return st;
    }
    return 0;
}

/* The next state of FOCAL (closed) into *idx, -1 when OPEN is empty; 0 or
 * a status. Only the first pop of a step may raise the bound: after it,
 * the states popped wait for their children, and the smallest open f is
 * no longer a lower bound on the optimum. */
static int next_state(focal *a, int first, long *idx)
{
    *idx = -1;
    while (a->open.n && !valid(a, a->open.a[0]))
        srch_gen_heap_pop(&a->open);
    if (!a->open.n)
        return 0;
    int st = first ? raise_bound(a, (int64_t)(a->open.a[0].pri >> 24)) : 0;
    if (st)
        return st;
    while (a->focal.n) {
        gen_item it = srch_gen_heap_pop(&a->focal);
        if (valid(a, it)) {
            a->s.nodes[it.idx].open = 0;
            *idx = it.idx;
            return 0;
        }
    }
    if (!first)
        return 0; /* this step took all of FOCAL */
    /* fb >= fmin, so the state of OPEN with fmin is in FOCAL */
    return hn_fail(HN_ERR_ARG, "focal: the focal list is empty below the bound");
}

static int grow_H(focal *a)
{
    if (a->s.cap <= a->hcap)
        return 0;
    int32_t *p = realloc(a->H, a->s.cap * sizeof *p);
    if (!p)
        return hn_fail(HN_ERR_NOMEM, "focal: out of memory for %zu states", a->s.cap);
    a->H = p;
    a->hcap = a->s.cap;
    return 0;
}

/* A state reached by a cheaper path: taken over, and back into the lists
 * once it has its values (new children of this step get them later). */
static int improve(focal *a, long j, uint32_t parent, uint32_t g, uint8_t move)
{
    gen_node *y = &a->s.nodes[j];
    y->g = g;
    y->parent = parent;
    y->move = move;
    return y->h >= 0 ? push(a, (uint32_t)j) : 0;
}

/* The children of node idx (copied as parent p of the step). */
static int children(focal *a, uint32_t idx, int p, int *nk)
{
    const gen_node *x = &a->s.nodes[idx];
    uint64_t mask = a->all;
    int inv = x->parent == GEN_NO_PARENT ? -1 : dom_inverse(a->d, x->move);
    if (inv >= 0)
        mask &= ~(1ull << inv);
    const uint8_t *ps = a->parents + (size_t)p * a->s.sb;
    uint8_t cm[DOM_MAX_MOVES];
    int n = a->def->expand(a->inst, ps, mask, a->cbuf, cm);
    uint32_t g0 = x->g;
    a->res->generated += (uint64_t)n;
    for (int i = 0, st; i < n; i++) {
        const uint8_t *c = a->cbuf + (size_t)i * a->s.sb;
        uint32_t g = g0 + (uint32_t)dom_move_cost(a->d, cm[i]);
        uint64_t hv = dom_hash(a->d, c);
        long j = srch_gen_store_find(&a->s, c, hv);
        if (j >= 0) {
            if (a->s.nodes[j].g > g && (st = improve(a, j, idx, g, cm[i])))
                return st;
            continue;
        }
        if ((j = srch_gen_store_add(&a->s, c, hv, idx, g, cm[i])) < 0 || grow_H(a))
            return HN_ERR_NOMEM;
        memcpy(a->kids + (size_t)*nk * a->s.sb, c, a->s.sb);
        a->kidx[*nk] = (uint32_t)j;
        a->parent_of[*nk] = p;
        a->kmoves[(*nk)++] = cm[i];
    }
    return 0;
}

/* Both heuristics of the step's new children, one call each; then queued. */
static int eval_kids(focal *a, int nk)
{
    if (!nk)
        return 0;
    int st = srch_dom_heur_eval(a->guide, a->kids, (size_t)nk, a->parents, a->parent_of, a->kmoves,
                                a->hv);
    if (!st)
        st = srch_dom_heur_eval(a->adm, a->kids, (size_t)nk, a->parents, a->parent_of, a->kmoves,
                                a->Hv);
    for (int i = 0; !st && i < nk; i++) {
        a->s.nodes[a->kidx[i]].h = a->hv[i];
        a->H[a->kidx[i]] = a->Hv[i];
        st = push(a, a->kidx[i]);
    }
    return st;
}

/* Pop up to `batch` states of FOCAL into a->popped: *np of them, or *goal
 * set to a goal's index (the answer: within the bound). 0 or a status. */
static int pop_step(focal *a, int *np, long *goal)
{
    for (*np = 0; *np < a->batch;) {
        long idx;
        int st = next_state(a, *np == 0, &idx);
        if (st || idx < 0)
            return st || *np ? st : hn_fail(HN_ERR_UNSOLVABLE, "focal: no goal reachable");
        if (dom_is_goal(a->d, gen_state(&a->s, (size_t)idx))) {
            *goal = idx;
            return 0;
        }
        if ((st = srch_gen_limits_hit(FOCAL_ALGO, a->res, a->lim, a->deadline, a->s.n)))
            return st;
        memcpy(a->parents + (size_t)*np * a->s.sb, gen_state(&a->s, (size_t)idx), a->s.sb);
        a->popped[(*np)++] = (uint32_t)idx;
        a->res->expanded++;
    }
    return 0;
}

static int start(focal *a, const void *s0)
{
    if (srch_gen_store_add(&a->s, s0, dom_hash(a->d, s0), GEN_NO_PARENT, 0, 0) < 0 || grow_H(a))
        return HN_ERR_NOMEM;
    int st = srch_dom_heur_eval(a->guide, s0, 1, NULL, NULL, NULL, &a->res->h0);
    if (!st)
        st = srch_dom_heur_eval(a->adm, s0, 1, NULL, NULL, NULL, &a->H[0]);
    a->s.nodes[0].h = a->res->h0;
    return st ? st : push(a, 0);
}

static int run(focal *a, const void *s0)
{
    long goal = -1;
    int st = start(a, s0);
    while (!st && goal < 0) {
        int np = 0, nk = 0;
        st = pop_step(a, &np, &goal);
        for (int p = 0; !st && goal < 0 && p < np; p++)
            st = children(a, a->popped[p], p, &nk);
        if (!st && goal < 0)
            st = eval_kids(a, nk);
        if (a->s.n > a->res->stored)
            a->res->stored = a->s.n;
    }
    return st ? st : srch_gen_take_path(&a->s, (size_t)goal, a->res);
}

static int alloc_step(focal *a)
{
    size_t sb = a->s.sb, kmax = (size_t)a->batch * (size_t)a->nmoves;
    a->parents = malloc((size_t)a->batch * sb);
    a->kids = malloc(kmax * sb);
    a->cbuf = malloc((size_t)a->nmoves * sb);
    a->kmoves = malloc(kmax);
    a->parent_of = malloc(kmax * sizeof *a->parent_of);
    a->hv = malloc(kmax * sizeof *a->hv);
    a->Hv = malloc(kmax * sizeof *a->Hv);
    a->kidx = malloc(kmax * sizeof *a->kidx);
    a->popped = malloc((size_t)a->batch * sizeof *a->popped);
    if (!a->parents || !a->kids || !a->cbuf || !a->kmoves || !a->parent_of || !a->hv || !a->Hv ||
        !a->kidx || !a->popped)
        return hn_fail(HN_ERR_NOMEM, "focal: out of memory");
    return 0;
}

static void focal_free(focal *a)
{
    free(a->parents);
    free(a->kids);
    free(a->cbuf);
    free(a->kmoves);
    free(a->parent_of);
    free(a->hv);
    free(a->Hv);
    free(a->kidx);
    free(a->popped);
    free(a->H);
    free(a->open.a);
    free(a->focal.a);
    free(a->wait.a);
    srch_gen_store_free(&a->s);
}

static int check_args(const dom *d, const srch_dom_heur *adm, double bound, int batch)
{
    if (!adm || srch_dom_heur_domain(adm) != d)
        return hn_fail(HN_ERR_ARG, "focal: no admissible heuristic, or one of another domain");
    if (!srch_dom_heur_admissible(adm) || srch_dom_heur_scale(adm) != 1)
        return hn_fail(HN_ERR_ARG,
                       "focal: the bounding heuristic must be admissible (no network) and in "
                       "whole costs (scale 1)");
    if (!(bound >= 1.0) || bound > 100 || batch < 1 || batch > 65536)
        return hn_fail(HN_ERR_ARG, "focal: bound must be 1..100 (got %g) and batch 1..65536",
                       bound);
    return 0;
}

int srch_dom_focal(const dom *d, const void *s0, srch_dom_heur *h, srch_dom_heur *adm, double bound,
                   const srch_dom_opts *opts, const srch_limits *lim, srch_dom_result *res)
{
    const srch_dom_opts *o = opts ? opts : &SRCH_DOM_DEFAULTS;
    if (srch_gen_begin(d, s0, h, res) || (res->status = check_args(d, adm, bound, o->batch)))
        return res->status;
    double t0 = hn_now();
    uint64_t rows0 = srch_dom_heur_rows(h);
    focal a = {.d = d,
               .def = dom_def_of(d),
               .inst = dom_instance(d),
               .guide = h,
               .adm = adm,
               .bound = bound,
               .fb = -1,
               .batch = o->batch,
               .scale = srch_dom_heur_scale(h),
               .nmoves = dom_nmoves(d),
               .lim = lim,
               .deadline = srch_gen_deadline(lim, t0),
               .res = res};
    a.all = a.nmoves == 64 ? ~0ull : (1ull << a.nmoves) - 1;
    int st = srch_gen_store_init(&a.s, d);
    if (!st)
        st = alloc_step(&a);
    if (!st)
        st = run(&a, s0);
    if (!st)
        st = srch_gen_check(d, s0, FOCAL_ALGO, res);
    focal_free(&a);
    res->proven = !st && bound == 1.0;
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - t0;
    return res->status = st;
}
