/* IDA* over any domain: depth first with an f bound that rises to the
 * smallest pruned f, the state changed in place by dom_apply and restored
 * by the inverse move, the domain's pruning automaton cutting move orders
 * a kept order also reaches, nothing allocated per node. */
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

typedef struct {
    const dom *d;
    const dom_def *def;
    const void *inst;
    srch_dom_heur *h;
    uint8_t *state;
    int nmoves, scale, length, status;
    /* test every state for the goal, not only those the heuristic puts at
     * 0: a domain's own is_goal may accept other states, and a heuristic
     * that is not 0 at the goal (no admissible one) must not hide it */
    int goal_any;
    /* without an inverse for every move a child is undone by copying its
     * parent back: one saved state per depth */
    uint8_t *saved;
    /* the domain's tables, read once: a call per child costs more than
     * the child on cheap domains */
    int cost[DOM_MAX_MOVES], inverse[DOM_MAX_MOVES];
    const uint8_t *prune_next; /* NULL: no automaton */
    uint64_t allowed[256];
    /* with a network: each depth's children, evaluated in one call */
    int net;
    struct level *lv[SRCH_DOM_MAX_PATH];
    int64_t bound, next_bound;
    int64_t below; /* f bounds stop short of it (anytime's incumbent), INT64_MAX: none */
    uint64_t expanded, generated, max_expanded;
    double deadline;
    uint8_t path[SRCH_DOM_MAX_PATH];
} ida;

/* The children of one state and their values (one network call). */
struct level {
    int n;
    uint8_t moves[DOM_MAX_MOVES];
    int hv[DOM_MAX_MOVES];
    uint8_t kids[]; /* nmoves states */
};

/* Checked on every expansion (the count) and every 4096 (time, Ctrl-C). */
static int over_limit(ida *s)
{
    if (s->max_expanded && s->expanded > s->max_expanded)
        s->status = hn_fail(HN_ERR_LIMIT, "IDA*: node limit reached");
    else if ((s->expanded & 4095) == 0) {
        if (hn_stop_requested())
            s->status = hn_fail(HN_ERR_INTERRUPTED, "IDA*: interrupted");
        else if (s->deadline > 0 && hn_now() > s->deadline)
            s->status = hn_fail(HN_ERR_LIMIT, "IDA*: time limit reached");
    }
    return s->status != 0;
}

/* Before the moves from depth `depth`: keep the state when undo copies. */
static void save(ida *s, int depth)
{
    if (s->saved)
        memcpy(s->saved + (size_t)depth * dom_state_bytes(s->d), s->state, dom_state_bytes(s->d));
}

/* Undo move m made at depth `depth`: by its inverse, or by the copy. */
static void undo(ida *s, int depth, int m)
{
    if (s->saved)
        memcpy(s->state, s->saved + (size_t)depth * dom_state_bytes(s->d), dom_state_bytes(s->d));
    else
        s->def->apply(s->inst, s->state, s->inverse[m]);
}

/* 1 when the goal was found (the state left there), -1 when a limit
 * stopped the search, 0 when the subtree holds no goal within the bound. */
static int dfs(ida *s, int depth, int64_t g, int q, int hcur)
{
    if ((hcur == 0 || s->goal_any) && dom_is_goal(s->d, s->state)) {
        s->length = depth;
        return 1;
    }
    s->expanded++;
    if (over_limit(s))
        return -1;
    if (depth + 1 >= SRCH_DOM_MAX_PATH) {
        s->status = hn_fail(HN_ERR_LIMIT, "IDA*: depth limit %d reached", SRCH_DOM_MAX_PATH - 1);
        return -1;
    }
    uint64_t allowed = s->allowed[q];
    const uint8_t *next = s->prune_next ? s->prune_next + (size_t)q * (size_t)s->nmoves : NULL;
    save(s, depth);
    for (int m = 0; m < s->nmoves; m++) {
        if (!(allowed >> m & 1) || !s->def->apply(s->inst, s->state, m))
            continue;
        s->generated++;
        int64_t gc = g + s->cost[m];
        int hc = srch_gen_heur_value1(s->h, s->state);
        int64_t f = gc * s->scale + hc;
        if (f <= s->bound) {
            s->path[depth] = (uint8_t)m;
            int r = dfs(s, depth + 1, gc, next ? next[m] : 0, hc);
            if (r)
                return r;
        } else if (f < s->next_bound) {
            s->next_bound = f;
        }
        undo(s, depth, m);
    }
    return 0;
}

/* Depth `depth`'s children of the current state with their values: the
 * network builds each child's first layer from the state's, which the
 * previous call (the state's own siblings) left behind. NULL on error
 * (s->status set). */
static struct level *net_children(ida *s, int depth, int q)
{
    static const int zeros[DOM_MAX_MOVES];
    struct level *lv = s->lv[depth];
    if (!lv) { /* once per depth and search */
        lv = s->lv[depth] = malloc(sizeof *lv + (size_t)s->nmoves * dom_state_bytes(s->d));
        if (!lv) {
            s->status = hn_fail(HN_ERR_NOMEM, "IDA*: out of memory");
            return NULL;
        }
    }
    lv->n = s->def->expand(s->inst, s->state, s->allowed[q], lv->kids, lv->moves);
    int st = srch_dom_heur_eval(s->h, lv->kids, (size_t)lv->n, s->state, zeros, lv->moves, lv->hv);
    if (st) {
        s->status = st;
        return NULL;
    }
    return lv;
}

/* dfs with a network: children evaluated together, then visited in move
 * order by apply and undone by the inverse move. */
static int dfs_net(ida *s, int depth, int64_t g, int q, int hcur)
{
    if ((hcur == 0 || s->goal_any) && dom_is_goal(s->d, s->state)) {
        s->length = depth;
        return 1;
    }
    s->expanded++;
    if (over_limit(s))
        return -1;
    if (depth + 1 >= SRCH_DOM_MAX_PATH) {
        s->status = hn_fail(HN_ERR_LIMIT, "IDA*: depth limit %d reached", SRCH_DOM_MAX_PATH - 1);
        return -1;
    }
    struct level *lv = net_children(s, depth, q);
    if (!lv)
        return -1;
    s->generated += (uint64_t)lv->n;
    save(s, depth);
    const uint8_t *next = s->prune_next ? s->prune_next + (size_t)q * (size_t)s->nmoves : NULL;
    for (int i = 0; i < lv->n; i++) {
        int m = lv->moves[i];
        int64_t gc = g + s->cost[m], f = gc * s->scale + lv->hv[i];
        if (f > s->bound) {
            s->next_bound = f < s->next_bound ? f : s->next_bound;
            continue;
        }
        s->path[depth] = (uint8_t)m;
        s->def->apply(s->inst, s->state, m);
        int r = dfs_net(s, depth + 1, gc, next ? next[m] : 0, lv->hv[i]);
        if (r)
            return r;
        undo(s, depth, m);
    }
    return 0;
}

static int ida_run(ida *s, srch_dom_result *res)
{
    int h0 = srch_gen_heur_value1(s->h, s->state);
    res->h0 = h0;
    s->bound = h0;
    for (;;) {
        if (s->bound >= s->below)
            return hn_fail(HN_ERR_UNSOLVABLE, "IDA*: no solution below the bound");
        s->next_bound = INT64_MAX;
        res->stored++; /* iterations */
        int r = s->net ? dfs_net(s, 0, 0, DOM_PRUNE_ROOT, h0) : dfs(s, 0, 0, DOM_PRUNE_ROOT, h0);
        if (r > 0)
            return 0;
        if (r < 0)
            return s->status;
        if (s->next_bound == INT64_MAX)
            return hn_fail(HN_ERR_UNSOLVABLE, "IDA*: search space exhausted");
        s->bound = s->next_bound;
    }
}

/* The heuristic's value at the goal (0 for every admissible one). */
static int goal_value(const dom *d, srch_dom_heur *h)
{
    uint8_t g[DOM_MAX_STATE_BYTES];
    dom_goal(d, g);
    return srch_gen_heur_value1(h, g);
}

int srch_dom_idastar(const dom *d, const void *start, srch_dom_heur *h, const srch_limits *lim,
                     srch_dom_result *res)
{
    return srch_gen_ida_below(d, start, h, lim, INT64_MAX, res);
}

int srch_gen_ida_below(const dom *d, const void *start, srch_dom_heur *h, const srch_limits *lim,
                       int64_t below, srch_dom_result *res)
{
    if (srch_gen_begin(d, start, h, res))
        return res->status;
    double t0 = hn_now();
    uint64_t rows0 = srch_dom_heur_rows(h);
    ida *s = calloc(1, sizeof *s);
    uint8_t *state = malloc(dom_state_bytes(d));
    /* a domain without inverses is undone by copies (SRCH_DOM_MAX_PATH
     * states: 1 MB at most, for the largest states) */
    uint8_t *saved = dom_reversible(d) ? NULL : malloc(SRCH_DOM_MAX_PATH * dom_state_bytes(d));
    if (!s || !state || (!dom_reversible(d) && !saved)) {
        free(s);
        free(state);
        free(saved);
        return res->status = hn_fail(HN_ERR_NOMEM, "IDA*: out of memory");
    }
    memcpy(state, start, dom_state_bytes(d));
    *s = (ida){.d = d,
               .def = dom_def_of(d),
               .inst = dom_instance(d),
               .h = h,
               .state = state,
               .nmoves = dom_nmoves(d),
               .scale = srch_dom_heur_scale(h),
               .below = below,
               .max_expanded = lim ? lim->max_expanded : 0,
               .deadline = srch_gen_deadline(lim, t0),
               .saved = saved};
    const dom_facts *f = dom_facts_of(d);
    for (int m = 0; m < s->nmoves; m++) {
        s->cost[m] = dom_move_cost(d, m);
        s->inverse[m] = dom_inverse(d, m);
    }
    s->prune_next = f->prune_states ? f->prune_next : NULL;
    for (uint32_t q = 0; q < (f->prune_states ? f->prune_states : 1); q++)
        s->allowed[q] = dom_allowed(d, (int)q);
    s->net = !srch_dom_heur_admissible(h);
    /* a network's value is 0 at every goal already (srch_dom_heur_eval) */
    s->goal_any = dom_def_of(d)->is_goal != NULL || (!s->net && goal_value(d, h) != 0);
    int st = ida_run(s, res);
    res->expanded = s->expanded;
    res->generated = s->generated;
    if (!st) {
        memcpy(res->moves, s->path, (size_t)s->length);
        res->length = s->length;
        res->cost = 0;
        for (int i = 0; i < s->length; i++)
            res->cost += dom_move_cost(d, s->path[i]);
        st = srch_gen_check(d, start, "IDA*", res);
        res->proven = !st && srch_dom_heur_admissible(h);
    }
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - t0;
    free(state);
    free(saved);
    for (int i = 0; i < SRCH_DOM_MAX_PATH; i++)
        free(s->lv[i]);
    free(s);
    return res->status = st;
}
