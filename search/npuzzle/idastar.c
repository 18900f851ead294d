/* IDA* on the n-puzzle: depth-first with an f bound that grows to the
 * smallest pruned f. The board is changed in place and restored, the
 * heuristic updated incrementally from a per-depth state stack allocated
 * once per search, and the move back to the parent is never generated. */
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/np_internal.h"

typedef struct {
    srch_np_board b;
    const srch_np_heur *h;
    int goal, bound, next_bound, length, status, depth_hit;
    char *states; /* heuristic state per depth, `ssz` bytes each */
    size_t ssz;
    uint64_t expanded, generated, heur_calls, max_expanded;
    double deadline;
    int8_t nb[SRCH_NP_MAX_CELLS][4];
    uint8_t path[SRCH_NP_MAX_PATH];
} ida;

/* Checked on every expansion (the count) and every 4096 (time, Ctrl-C). */
static int over_limit(ida *s)
{
    if (s->max_expanded && s->expanded > s->max_expanded) {
        s->status = HN_ERR_LIMIT;
        return 1;
    }
    if ((s->expanded & 4095) == 0) {
        if (hn_stop_requested())
            s->status = HN_ERR_INTERRUPTED;
        else if (s->deadline > 0 && hn_now() > s->deadline)
            s->status = HN_ERR_LIMIT;
        return s->status != 0;
    }
    return 0;
}

/* Returns 1 when the goal was found (board left at the goal), -1 when a
 * limit stopped the search, 0 when the subtree holds no goal within bound. */
static int dfs(ida *s, int g, int prev, int hcur)
{
    if (hcur == 0 && srch_np_board_is_goal(&s->b, s->goal)) {
        s->length = g;
        return 1;
    }
    s->expanded++;
    if (over_limit(s))
        return -1;
    if (g + 1 >= SRCH_NP_MAX_PATH) {
        s->status = hn_fail(HN_ERR_LIMIT, "IDA*: depth limit %d reached", SRCH_NP_MAX_PATH - 1);
        s->depth_hit = 1;
        return -1;
    }
    const srch_np_heur_ops *ops = &s->h->ops;
    void *self = s->h->self;
    for (int d = 0; d < 4; d++) {
        int from = s->b.blank, to = s->nb[from][d];
        if (to < 0 || d == (prev ^ 1))
            continue;
        int tile = s->b.tile[to];
        srch_np_board_slide(&s->b, to);
        s->generated++;
        s->heur_calls++;
        int hc = ops->inc_move
                     ? ops->inc_move(self, &s->b, tile, to, from, s->states + (size_t)g * s->ssz,
                                     s->states + (size_t)(g + 1) * s->ssz, s->bound - g - 1)
                     : ops->eval(self, &s->b);
        int f = g + 1 + hc;
        if (f <= s->bound) {
            s->path[g] = (uint8_t)d;
            int r = dfs(s, g + 1, d, hc);
            if (r)
                return r;
        } else if (f < s->next_bound) {
            s->next_bound = f;
        }
        srch_np_board_slide(&s->b, from);
    }
    return 0;
}

/* Shared argument checks of the searches; fills the result's defaults. */
int srch_np_search_begin(const srch_np_board *start, const srch_np_heur *h, srch_np_result *res)
{
    memset(res, 0, sizeof *res);
    res->length = -1;
    res->h0 = -1;
    if (start->width != h->width)
        return res->status = hn_fail(HN_ERR_ARG, "board width %d, heuristic for width %d",
                                     start->width, h->width);
    if (!srch_np_board_solvable(start, h->goal))
        return res->status = hn_fail(HN_ERR_UNSOLVABLE, "board cannot reach the %s goal",
                                     srch_np_goal_name(h->goal));
    return 0;
}

static void ida_run(ida *s, srch_np_result *res)
{
    int h0 = s->h->ops.inc_move ? s->h->ops.inc_init(s->h->self, &s->b, s->states)
                                : s->h->ops.eval(s->h->self, &s->b);
    s->heur_calls++;
    res->h0 = h0;
    s->bound = h0;
    for (;;) {
        s->next_bound = 1 << 30;
        res->stored++; /* iterations */
        int r = dfs(s, 0, -1, h0);
        if (r > 0)
            break;
        if (r < 0)
            return;
        if (s->next_bound == 1 << 30) {
            s->status = hn_fail(HN_ERR_UNSOLVABLE, "IDA*: search space exhausted");
            return;
        }
        s->bound = s->next_bound;
    }
    res->length = s->length;
    res->nmoves = s->length;
    memcpy(res->moves, s->path, (size_t)s->length);
}

int srch_np_idastar(const srch_np_board *start, const srch_np_heur *h, const srch_limits *lim,
                    srch_np_result *res)
{
    if (srch_np_search_begin(start, h, res))
        return res->status;
    double t0 = hn_now();
    ida *s = calloc(1, sizeof *s);
    size_t ssz = (h->ops.state_size + 7) & ~(size_t)7;
    char *states = ssz ? malloc(ssz * (SRCH_NP_MAX_PATH + 1)) : NULL;
    if (!s || (ssz && !states)) {
        free(s);
        free(states);
        return res->status = hn_fail(HN_ERR_NOMEM, "IDA*: out of memory");
    }
    s->b = *start;
    s->h = h;
    s->goal = h->goal;
    s->states = states;
    s->ssz = ssz;
    s->max_expanded = lim ? lim->max_expanded : 0;
    s->deadline = lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0;
    for (int c = 0; c < start->ncells; c++)
        for (int d = 0; d < 4; d++)
            s->nb[c][d] = (int8_t)srch_np_neighbour(start->width, c, d);
    ida_run(s, res);
    res->status = s->status;
    if (s->status == HN_ERR_LIMIT && !s->depth_hit)
        hn_fail(HN_ERR_LIMIT, "IDA*: node or time limit reached");
    else if (s->status == HN_ERR_INTERRUPTED)
        hn_fail(HN_ERR_INTERRUPTED, "IDA*: interrupted");
    res->expanded = s->expanded;
    res->generated = s->generated;
    res->heur_calls = s->heur_calls;
    res->seconds = hn_now() - t0;
    free(states);
    free(s);
    return res->status;
}
