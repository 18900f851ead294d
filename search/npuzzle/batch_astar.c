/* Batch weighted A*: expand the B best open nodes at once and evaluate all
 * their children in one heuristic call, so a network heuristic runs one
 * large sgemm per step instead of one tiny one per node (DeepCubeA's batch
 * weighted A*, whose lambda*g + h is this search's g + h/lambda). A goal
 * becomes the incumbent; the search ends when no open node can beat it,
 * which keeps weight-1 runs with an admissible heuristic optimal for every
 * B. */
#include <math.h>
#include <stdlib.h>

#include "search/npuzzle/bfs_store.h"
#include "search/npuzzle/np_internal.h"

typedef struct {
    srch_np_bfs_store s;
    srch_np_bfs_heap open;
    const srch_np_heur *h;
    int scale, batch;
    double weight;
    srch_np_bfs_child *kids;
    srch_np_board *boards;
    int *hv;
    uint32_t *par, *improved;
    uint64_t best_f; /* incumbent f (scaled), UINT64_MAX: none */
    long best;
} bwa;

/* f in 1/F_RES of a heuristic unit, so a weight that is not a whole number
 * (BWAS's 1/lambda = 1.25, 1.67, ...) still orders nodes by g + w*h instead
 * of by its rounding. Fits the heap key's 48 bits for g, h < 2^16. */
#define F_RES 64

static uint64_t f_key(const bwa *a, int g, int h)
{
    return (uint64_t)g * (uint64_t)a->scale * F_RES + (uint64_t)llround(a->weight * h * F_RES);
}

static int push(bwa *a, uint32_t idx)
{
    const srch_np_bfs_node *x = &a->s.nodes[idx];
    uint64_t f = f_key(a, x->g, x->h[0]);
    if (x->h[0] == 0 && f < a->best_f) {
        srch_np_board b;
        srch_np_bfs_board_of(&a->s, idx, &b);
        if (srch_np_board_is_goal(&b, srch_np_heur_goal(a->h))) {
            a->best_f = f;
            a->best = idx;
        }
    }
    return srch_np_bfs_heap_push(&a->open, f << 16 | (uint64_t)(0xffff - x->g), idx, x->g);
}

/* Take up to `batch` open nodes that could still beat the incumbent. */
static int pop_batch(bwa *a)
{
    int n = 0;
    while (a->open.n && n < a->batch) {
        srch_np_bfs_item top = a->open.a[0];
        srch_np_bfs_node *x = &a->s.nodes[top.idx];
        if (!x->open || x->g != top.g) {
            srch_np_bfs_heap_pop(&a->open);
            continue;
        }
        if ((top.pri >> 16) >= a->best_f)
            break;
        srch_np_bfs_heap_pop(&a->open);
        x->open = 0;
        a->par[n++] = top.idx;
    }
    return n;
}

/* Expand the popped nodes: one eval_batch for all new children. */
static int expand(bwa *a, int npar, srch_np_result *res)
{
    int nk = 0, nimp = 0;
    for (int i = 0; i < npar; i++) {
        srch_np_board b;
        srch_np_bfs_board_of(&a->s, a->par[i], &b);
        srch_np_bfs_children(&a->s, a->par[i], &b, a->kids, &nk, a->improved, &nimp, res);
    }
    res->expanded += (uint64_t)npar;
    for (int i = 0; i < nimp; i++)
        if (push(a, a->improved[i]))
            return HN_ERR_NOMEM;
    if (!nk)
        return 0;
    for (int i = 0; i < nk; i++)
        a->boards[i] = a->kids[i].b;
    int st = srch_np_heur_eval_batch(a->h, a->boards, (size_t)nk, a->hv);
    if (st)
        return st;
    res->heur_calls += (uint64_t)nk;
    res->batches++;
    for (int i = 0; i < nk; i++) {
        const srch_np_bfs_child *c = &a->kids[i];
        /* a twin from another parent of the batch; the children of one
         * parent are distinct and were not in the store, so with one parent
         * (plain A*, the usual case) there is nothing to look up */
        long k = npar > 1 ? srch_np_bfs_store_find(&a->s, c->key) : -1;
        if (k >= 0 && a->s.nodes[k].g <= c->g)
            continue;
        if (k >= 0) {
            srch_np_bfs_node *y = &a->s.nodes[k];
            y->g = c->g;
            y->parent = c->parent;
            y->dir = c->dir;
        } else if ((k = srch_np_bfs_store_add(&a->s, c, a->hv[i], 0)) < 0) {
            return HN_ERR_NOMEM;
        }
        if (push(a, (uint32_t)k))
            return HN_ERR_NOMEM;
    }
    return 0;
}

static int run(bwa *a, const srch_np_board *start, const srch_limits *lim, double deadline,
               srch_np_result *res)
{
    res->h0 = srch_np_heur_eval(a->h, start);
    res->heur_calls++;
    srch_np_bfs_child root = {.b = *start, .parent = BFS_NO_PARENT};
    srch_np_bfs_pack(start, root.key);
    if (srch_np_bfs_store_add(&a->s, &root, res->h0, 0) < 0)
        return HN_ERR_NOMEM;
    int st = 0;
    if (srch_np_board_is_goal(start, srch_np_heur_goal(a->h))) {
        a->best = 0;
        a->best_f = 0;
    } else if ((st = push(a, 0))) {
        return st;
    }
    for (;;) {
        if ((st = srch_np_bfs_limits_hit("batch A*", res, lim, deadline, a->s.n)))
            return st;
        int npar = pop_batch(a);
        if (!npar)
            break;
        if ((st = expand(a, npar, res)))
            return st;
    }
    if (a->best < 0)
        return hn_fail(HN_ERR_UNSOLVABLE,
                       "batch A*: open list exhausted without reaching the goal");
    srch_np_bfs_take_path(&a->s, (size_t)a->best, res);
    return 0;
}

static int check_opts(const srch_np_bfs_opts *o)
{
    if (o->batch < 1 || o->batch > 65536 || !(o->weight >= 1.0) || o->weight > 100)
        return hn_fail(HN_ERR_ARG,
                       "batch A*: batch must be 1..65536 and weight 1..100 (got %d, %g)", o->batch,
                       o->weight);
    return 0;
}

int srch_np_batch_astar(const srch_np_board *start, const srch_np_heur *h,
                        const srch_np_bfs_opts *opts, const srch_limits *lim, srch_np_result *res)
{
    srch_np_bfs_opts o = opts ? *opts : (srch_np_bfs_opts){.batch = 1, .weight = 1};
    if (srch_np_search_begin(start, h, res))
        return res->status;
    if ((res->status = check_opts(&o)))
        return res->status;
    double t0 = hn_now();
    size_t nk = 4 * (size_t)o.batch;
    bwa a = {.h = h,
             .scale = srch_np_heur_scale(h),
             .batch = o.batch,
             .weight = o.weight,
             .best_f = UINT64_MAX,
             .best = -1};
    a.kids = malloc(nk * sizeof *a.kids);
    a.boards = malloc(nk * sizeof *a.boards);
    a.hv = malloc(nk * sizeof *a.hv);
    a.par = malloc((size_t)o.batch * sizeof *a.par);
    a.improved = malloc(nk * sizeof *a.improved);
    if (!a.kids || !a.boards || !a.hv || !a.par || !a.improved)
        res->status = hn_fail(HN_ERR_NOMEM, "batch A*: out of memory for a batch of %d", o.batch);
    else if (!(res->status = srch_np_bfs_store_init(&a.s, start->width)))
        res->status =
            run(&a, start, lim, lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0, res);
    res->stored = a.s.n;
    res->seconds = hn_now() - t0;
    srch_np_bfs_store_free(&a.s);
    free(a.open.a);
    free(a.kids);
    free(a.boards);
    free(a.hv);
    free(a.par);
    free(a.improved);
    return res->status;
}
