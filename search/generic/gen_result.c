/* What every generic search starts and ends with: argument checks, the
 * path out of the store, the replay of a solution and the limits. */
#include <string.h>

#include "search/generic/gen_internal.h"

int srch_gen_begin(const dom *d, const void *start, const srch_dom_heur *h, srch_dom_result *res)
{
    memset(res, 0, sizeof *res);
    res->length = -1;
    res->cost = -1;
    res->h0 = -1;
    res->proof_from = -1;
    if (!d || !start || !h)
        return res->status = hn_fail(HN_ERR_ARG, "search: no domain, start or heuristic");
    if (srch_dom_heur_domain(h) != d)
        return res->status = hn_fail(HN_ERR_ARG, "search: the heuristic is of another domain");
    return 0;
}

int srch_gen_take_path(const gen_store *s, size_t idx, srch_dom_result *res)
{
    /* counted along the parents: a re-opened node's descendants may keep
     * the depth of its old path */
    int len = 0;
    for (size_t i = idx; s->nodes[i].parent != GEN_NO_PARENT; i = s->nodes[i].parent)
        len++;
    if (len > SRCH_DOM_MAX_PATH)
        return hn_fail(HN_ERR_LIMIT, "search: a solution of %d moves (at most %d)", len,
                       SRCH_DOM_MAX_PATH);
    int k = len;
    for (size_t i = idx; s->nodes[i].parent != GEN_NO_PARENT; i = s->nodes[i].parent)
        res->moves[--k] = s->nodes[i].move;
    res->length = len;
    /* from the moves: a state below one re-opened keeps its old, higher g
     * until it is reached again, while its path is already the cheaper one */
    res->cost = 0;
    for (int i = 0; i < len; i++)
        res->cost += dom_move_cost(s->d, res->moves[i]);
    return 0;
}

int srch_gen_check(const dom *d, const void *start, const char *algo, srch_dom_result *res)
{
    int64_t cost = 0;
    for (int i = 0; i < res->length; i++)
        cost += dom_move_cost(d, res->moves[i]);
    int r = dom_replay(d, start, res->moves, res->length);
    if (r != 1 || cost != res->cost)
        return hn_fail(HN_ERR_ARG,
                       "%s: the solution of %d moves does not replay to a goal at "
                       "its cost (the domain's expand and apply disagree?)",
                       algo, res->length);
    return 0;
}

int srch_gen_limits_hit(const char *algo, const srch_dom_result *res, const srch_limits *lim,
                        double deadline, size_t stored)
{
    if (lim && lim->max_expanded && res->expanded >= lim->max_expanded)
        return hn_fail(HN_ERR_LIMIT, "%s: node limit reached", algo);
    if (lim && lim->max_nodes && stored >= lim->max_nodes)
        return hn_fail(HN_ERR_LIMIT, "%s: memory (stored states) limit reached", algo);
    if (hn_stop_requested())
        return hn_fail(HN_ERR_INTERRUPTED, "%s: interrupted", algo);
    if (deadline > 0 && hn_now() > deadline)
        return hn_fail(HN_ERR_LIMIT, "%s: time limit reached", algo);
    return 0;
}

double srch_gen_deadline(const srch_limits *lim, double t0)
{
    return lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0;
}
