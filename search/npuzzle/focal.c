/* Focal search (Pearl & Kim's A*_eps): the open list is ordered by an
 * admissible f; the focal list holds the open nodes with f <= bound * fmin
 * and is ordered by the network's estimate, so the network chooses what to
 * expand while the admissible heuristic proves the bound. Open nodes enter
 * the focal list by f buckets as fmin (never decreasing with a consistent
 * heuristic) raises the bound. */
#include <math.h>
#include <limits.h>
#include <stdlib.h>

#include "search/npuzzle/bfs_store.h"
#include "search/npuzzle/np_internal.h"

typedef struct {
    srch_np_bfs_heap *b; /* b[f]: open nodes with admissible f, waiting for the bound */
    int nb;
} buckets;

typedef struct {
    srch_np_bfs_store s;
    srch_np_bfs_heap open, focal;
    buckets wait;
    const srch_np_heur *adm, *guide;
    int gscale;
    double bound;
    long fb; /* nodes with f <= fb are in the focal list */
} focal;

static int valid(const focal *a, srch_np_bfs_item it)
{
    return a->s.nodes[it.idx].open && a->s.nodes[it.idx].g == it.g;
}

static int wait_push(focal *a, long f, uint32_t idx, int g)
{
    if (f >= a->wait.nb) {
        int nb = (int)f + 64;
        srch_np_bfs_heap *p = realloc(a->wait.b, (size_t)nb * sizeof *p);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "focal: out of memory for the open buckets");
        for (int i = a->wait.nb; i < nb; i++)
            p[i] = (srch_np_bfs_heap){0};
        a->wait.b = p;
        a->wait.nb = nb;
    }
    return srch_np_bfs_heap_push(&a->wait.b[f], 0, idx, g);
}

static int push(void *ctx, uint32_t idx)
{
    focal *a = ctx;
    const srch_np_bfs_node *x = &a->s.nodes[idx];
    long f = x->g + x->h[1];
    uint64_t tie = (uint64_t)(0xffff - x->g);
    int st = srch_np_bfs_heap_push(&a->open, (uint64_t)f << 16 | tie, idx, x->g);
    if (st)
        return st;
    if (f > a->fb)
        return wait_push(a, f, idx, x->g);
    uint64_t fg = (uint64_t)x->g * (uint64_t)a->gscale + x->h[0];
    return srch_np_bfs_heap_push(&a->focal, fg << 16 | tie, idx, x->g);
}

/* Raise the focal bound to bound * fmin and move the waiting nodes below it. */
static int raise_bound(focal *a, long fmin)
{
    long fb = (long)floor(a->bound * (double)fmin + 1e-9);
    for (long f = a->fb + 1; f <= fb; f++) {
        if (f >= a->wait.nb)
            break;
        srch_np_bfs_heap *w = &a->wait.b[f];
        for (size_t i = 0; i < w->n; i++)
            if (valid(a, w->a[i])) {
                const srch_np_bfs_node *x = &a->s.nodes[w->a[i].idx];
                uint64_t fg = (uint64_t)x->g * (uint64_t)a->gscale + x->h[0];
                if (srch_np_bfs_heap_push(&a->focal, fg << 16 | (uint64_t)(0xffff - x->g),
                                          w->a[i].idx, x->g))
                    return HN_ERR_NOMEM;
            }
        free(w->a);
        *w = (srch_np_bfs_heap){0};
    }
    if (fb > a->fb)
        a->fb = fb;
    return 0;
}

/* The node to expand next, or -1 when the open list is empty. */
static long next_node(focal *a, int *st)
{
    while (a->open.n && !valid(a, a->open.a[0]))
        srch_np_bfs_heap_pop(&a->open);
    if (!a->open.n)
        return -1;
    if ((*st = raise_bound(a, (long)(a->open.a[0].pri >> 16))))
        return -1;
    while (a->focal.n) {
        srch_np_bfs_item it = srch_np_bfs_heap_pop(&a->focal);
        if (valid(a, it))
            return it.idx;
    }
    *st = hn_fail(HN_ERR_ARG, "focal: the focal list is empty below the bound (is the "
                              "admissible heuristic inconsistent?)");
    return -1;
}

static int run(focal *a, const srch_np_board *start, const srch_limits *lim, double deadline,
               srch_np_result *res)
{
    srch_np_bfs_child root = {.b = *start, .parent = BFS_NO_PARENT};
    srch_np_bfs_pack(start, root.key);
    res->h0 = srch_np_heur_eval(a->guide, start);
    res->heur_calls++;
    if (srch_np_bfs_store_add(&a->s, &root, res->h0, srch_np_heur_eval(a->adm, start)) < 0 ||
        push(a, 0))
        return HN_ERR_NOMEM;
    int goal = srch_np_heur_goal(a->adm), st = 0;
    for (;;) {
        if ((st = srch_np_bfs_limits_hit("focal", res, lim, deadline, a->s.n)))
            return st;
        long idx = next_node(a, &st);
        if (idx < 0)
            break;
        a->s.nodes[idx].open = 0;
        srch_np_board b;
        srch_np_bfs_board_of(&a->s, (size_t)idx, &b);
        if (srch_np_board_is_goal(&b, goal)) {
            srch_np_bfs_take_path(&a->s, (size_t)idx, res);
            return 0;
        }
        res->expanded++;
        if ((st = srch_np_bfs_expand(&a->s, (uint32_t)idx, &b, a->guide, a->adm, INT_MAX, push, a,
                                     res)))
            return st;
    }
    return st ? st
              : hn_fail(HN_ERR_UNSOLVABLE, "focal: open list exhausted without reaching the goal");
}

int srch_np_focal(const srch_np_board *start, const srch_np_heur *adm, const srch_np_heur *guide,
                  double bound, const srch_limits *lim, srch_np_result *res)
{
    if (srch_np_search_begin(start, guide, res))
        return res->status;
    if (srch_np_heur_width(adm) != start->width ||
        srch_np_heur_goal(adm) != srch_np_heur_goal(guide))
        return res->status = hn_fail(HN_ERR_ARG, "focal: the admissible heuristic is for another "
                                                 "board size or goal layout");
    if (!(bound >= 1.0) || bound > 100 || srch_np_heur_scale(adm) != 1)
        return res->status = hn_fail(HN_ERR_ARG,
                                     "focal: bound must be 1..100 (got %g) and the "
                                     "admissible heuristic in whole moves",
                                     bound);
    double t0 = hn_now();
    focal a = {
        .adm = adm, .guide = guide, .gscale = srch_np_heur_scale(guide), .bound = bound, .fb = -1};
    res->status = srch_np_bfs_store_init(&a.s, start->width);
    srch_np_bfs_store_track(&a.s, adm);
    if (!res->status)
        res->status =
            run(&a, start, lim, lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0, res);
    res->stored = a.s.n;
    res->seconds = hn_now() - t0;
    srch_np_bfs_store_free(&a.s);
    free(a.open.a);
    free(a.focal.a);
    for (int i = 0; i < a.wait.nb; i++)
        free(a.wait.b[i].a);
    free(a.wait.b);
    return res->status;
}
