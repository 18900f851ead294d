/* A* on the n-puzzle, on the node store shared with batch A* and focal
 * search (search/npuzzle/bfs_store.h: a pool of packed boards with a hash index and
 * a heap with lazy deletion). The open list is ordered by (f, larger g
 * first). All new children of an expansion are evaluated with one
 * eval_batch call, so a batched heuristic (a network) sees them together. */
#include <limits.h>
#include <stdlib.h>

#include "search/npuzzle/bfs_store.h"
#include "search/npuzzle/np_internal.h"

typedef struct {
    srch_np_bfs_store s;
    srch_np_bfs_heap open;
} astar;

static int push(void *ctx, uint32_t idx)
{
    astar *a = ctx;
    const srch_np_bfs_node *x = &a->s.nodes[idx];
    uint64_t pri = (uint64_t)(x->g + x->h[0]) << 16 | (uint64_t)(0xffff - x->g);
    return srch_np_bfs_heap_push(&a->open, pri, idx, x->g);
}

static int astar_run(astar *a, const srch_np_board *start, const srch_np_heur *h,
                     const srch_limits *lim, double deadline, srch_np_result *res)
{
    res->h0 = srch_np_heur_eval(h, start);
    res->heur_calls++;
    srch_np_bfs_child root = {.b = *start, .parent = BFS_NO_PARENT};
    srch_np_bfs_pack(start, root.key);
    if (srch_np_bfs_store_add(&a->s, &root, res->h0, 0) < 0 || push(a, 0))
        return HN_ERR_NOMEM;
    while (a->open.n) {
        srch_np_bfs_item top = srch_np_bfs_heap_pop(&a->open);
        srch_np_bfs_node *x = &a->s.nodes[top.idx];
        if (!x->open || x->g != top.g)
            continue; /* stale entry: the node was expanded or improved since */
        x->open = 0;
        srch_np_board b;
        srch_np_bfs_board_of(&a->s, top.idx, &b);
        if (srch_np_board_is_goal(&b, h->goal)) {
            srch_np_bfs_take_path(&a->s, top.idx, res);
            return 0;
        }
        int st = srch_np_bfs_limits_hit("A*", res, lim, deadline, a->s.n);
        if (st)
            return st;
        res->expanded++;
        if ((st = srch_np_bfs_expand(&a->s, top.idx, &b, h, NULL, INT_MAX, push, a, res)))
            return st;
    }
    return hn_fail(HN_ERR_UNSOLVABLE, "A*: open list exhausted without reaching the goal");
}

int srch_np_astar(const srch_np_board *start, const srch_np_heur *h, const srch_limits *lim,
                  srch_np_result *res)
{
    if (srch_np_search_begin(start, h, res))
        return res->status;
    double t0 = hn_now();
    astar a = {0};
    res->status = srch_np_bfs_store_init(&a.s, start->width);
    if (!res->status)
        res->status = astar_run(&a, start, h, lim,
                                lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0, res);
    res->stored = a.s.n;
    res->seconds = hn_now() - t0;
    srch_np_bfs_store_free(&a.s);
    free(a.open.a);
    return res->status;
}
