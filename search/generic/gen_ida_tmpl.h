/* IDA*'s depth-first pass as a static-inline template, private to
 * search/generic. One source, compiled once per way of making moves and
 * valuing children: through the domain's function table (gen_ida.c, every
 * domain and plug-in), and with a built-in domain's move and incremental
 * heuristic inlined (gen_ida_np.c). The iterations around the pass, the
 * limits and the result are gen_ida.c's, shared by all of them.
 *
 * The first part (guarded) is the search's state. The second is the
 * template: define these, then include this header (it undefines them):
 *   GEN_IDA_NAME          the pass's function name
 *   GEN_IDA_APPLY_FIRST   1: GEN_IDA_CHILD makes the move (and a pruned
 *                         child is undone); 0: it only values the child,
 *                         and the move is made when the child is entered
 *   GEN_IDA_CHILD(s, dp, m, h) the child's value by move m from the
 *                         state at depth dp (s->state) whose value is h
 *                         (in heuristic units), -1 when m is illegal there
 *   GEN_IDA_APPLY(s, m)   make the legal move m (APPLY_FIRST 0 only)
 *   GEN_IDA_UNDO(s, d, m) undo move m made at depth d
 *   GEN_IDA_SAVE(s, d, allowed) before the moves from depth d, allowed
 *                         their mask (undo by copies; or every child
 *                         valued at once, their memory reads overlapping)
 *   GEN_IDA_IS_GOAL(s, dp) 1 when the state at depth dp (s->state) is a goal
 *   GEN_IDA_NMOVES(s), GEN_IDA_COST(s, m)
 * f = g x s->scale + h x s->hscale: h is the heuristic's own value times
 * hscale (1 when GEN_IDA_CHILD gives the root's value already scaled). */
#ifndef GEN_IDA_TMPL_H
#define GEN_IDA_TMPL_H

#include "search/generic/gen_internal.h"

struct gen_ida {
    const dom *d;
    const dom_def *def;
    const void *inst;
    srch_dom_heur *h;
    /* the admissible leaf valued move by move (dom_heur_delta), or NULL */
    const dom_heur *adm;
    /* a built-in domain's tables for its own instantiation, or NULL */
    const void *fast;
    uint8_t *state;
    int nmoves, scale, hscale, length, status;
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
    struct gen_ida_level *lv[SRCH_DOM_MAX_PATH];
    int64_t bound, next_bound;
    int64_t below; /* f bounds stop short of it (anytime's incumbent), INT64_MAX: none */
    uint64_t expanded, generated, max_expanded;
    double deadline;
    uint8_t path[SRCH_DOM_MAX_PATH];
    /* an instantiation's own nodes by depth, or NULL (freed with the search) */
    void *fast_nodes;
};

/* Checked on every expansion (the count) and every 4096 (time, Ctrl-C). */
static inline int gen_ida_over_limit(gen_ida *s)
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

/* What every pass does on entering a state: 1 at a goal (the length
 * kept), -1 at a limit, 0 to expand it. */
static inline int gen_ida_enter(gen_ida *s, int depth, int at_goal)
{
    if (at_goal) {
        s->length = depth;
        return 1;
    }
    s->expanded++;
    if (gen_ida_over_limit(s))
        return -1;
    if (depth + 1 >= SRCH_DOM_MAX_PATH) {
        s->status = hn_fail(HN_ERR_LIMIT, "IDA*: depth limit %d reached", SRCH_DOM_MAX_PATH - 1);
        return -1;
    }
    return 0;
}

#endif /* GEN_IDA_TMPL_H */

#ifdef GEN_IDA_NAME

/* 1 when the goal was found (the state left there), -1 when a limit
 * stopped the search, 0 when the subtree holds no goal within the bound. */
static int GEN_IDA_NAME(gen_ida *s, int depth, int64_t g, int q, int hcur)
{
    int e = gen_ida_enter(s, depth, (hcur == 0 || s->goal_any) && GEN_IDA_IS_GOAL(s, depth));
    if (e)
        return e;
    uint64_t allowed = s->allowed[q];
    const uint8_t *next = s->prune_next ? s->prune_next + (size_t)q * (size_t)s->nmoves : NULL;
    GEN_IDA_SAVE(s, depth, allowed);
    for (int m = 0; m < GEN_IDA_NMOVES(s); m++) {
        if (!(allowed >> m & 1))
            continue;
        int hc = GEN_IDA_CHILD(s, depth, m, hcur);
        if (hc < 0)
            continue;
        s->generated++;
        int64_t gc = g + GEN_IDA_COST(s, m);
        int64_t f = gc * s->scale + (int64_t)hc * s->hscale;
        if (f <= s->bound) {
#if !GEN_IDA_APPLY_FIRST
            GEN_IDA_APPLY(s, m);
#endif
            s->path[depth] = (uint8_t)m;
            int r = GEN_IDA_NAME(s, depth + 1, gc, next ? next[m] : 0, hc);
            if (r)
                return r;
            GEN_IDA_UNDO(s, depth, m);
            continue;
        }
        if (f < s->next_bound)
            s->next_bound = f;
#if GEN_IDA_APPLY_FIRST
        GEN_IDA_UNDO(s, depth, m);
#endif
    }
    return 0;
}

#undef GEN_IDA_NAME
#undef GEN_IDA_APPLY_FIRST
#undef GEN_IDA_CHILD
#undef GEN_IDA_APPLY
#undef GEN_IDA_UNDO
#undef GEN_IDA_SAVE
#undef GEN_IDA_IS_GOAL
#undef GEN_IDA_NMOVES
#undef GEN_IDA_COST

#endif /* GEN_IDA_NAME */
