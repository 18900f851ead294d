/* The proof stage of a search over any domain (--prove H, --prove-at P):
 * the search runs in the share P of the time limit, then IDA* on the
 * admissible H below its solution proves it optimal or finds a shorter
 * one in the time left (srch_dom_result_prove). The cube's anytime search
 * is a beam in this form: a narrow beam first (a path within a second),
 * the learned beam widening, then IDA* on the fsst table from the beam's
 * length less 2 (the table's bounds carry the quarter-turn parity). */
#include <string.h>

#include "solve/dom_int.h"

static int given(const heurnet_dom_opts *o, int id)
{
    return (o->given & 1ull << id) != 0;
}

int heurnet_dom_prove_finish(const heurnet_dom_search *s)
{
    const heurnet_dom_opts *o = &s->o;
    if (!o->prove) /* a --prove-at of a proof stage turned off is moot */
        return given(o, HEURNET_DOM_OPT_PROVE_AT) && !given(o, HEURNET_DOM_OPT_PROVE)
                   ? hn_fail(HN_ERR_ARG, "--prove-at needs --prove H (the proof's heuristic)")
                   : 0;
    if (o->algo == HEURNET_DOM_IDASTAR)
        return hn_fail(HN_ERR_ARG, "--prove follows a search that is not exact; idastar "
                                   "proves its own solution");
    if (o->algo == HEURNET_DOM_ANYTIME)
        return hn_fail(HN_ERR_ARG, "--prove is not anytime's: its own IDA* stage is --ida plain");
    if (!strncmp(o->prove, "ann:", 4))
        return hn_fail(HN_ERR_ARG, "--prove must be an admissible heuristic, not %s", o->prove);
    return 0;
}

int heurnet_dom_prove_open(heurnet_dom_search *s)
{
    int st = 0;
    if (s->o.prove && !(s->prove = srch_dom_heur_adm(s->d, s->o.prove, &st)))
        return hn_fail(st, "--prove %s: %s", s->o.prove, hn_errmsg());
    return 0;
}

srch_limits heurnet_dom_prove_share(const heurnet_dom_search *s, const srch_limits *lim)
{
    srch_limits first = lim ? *lim : (srch_limits){0};
    if (s->prove && first.time_limit > 0)
        first.time_limit *= s->o.prove_at;
    return first;
}

int heurnet_dom_prove_again(const heurnet_dom_search *s, const srch_limits *lim, double t0,
                            const srch_dom_result *res, srch_limits *again)
{
    if (!s->prove || !lim || !(lim->time_limit > 0) || res->status != HN_ERR_LIMIT ||
        res->length >= 0)
        return 0;
    double used = hn_now() - t0, share = lim->time_limit * s->o.prove_at;
    if (used < share * 0.99 || used >= lim->time_limit)
        return 0; /* a node limit, or no time left */
    *again = *lim;
    again->time_limit = lim->time_limit - used;
    return 1;
}

void heurnet_dom_prove_run(const heurnet_dom_search *s, const void *start, const srch_limits *lim,
                           double t0, srch_dom_result *res)
{
    srch_limits left = lim ? *lim : (srch_limits){0};
    res->proof_from = res->length;
    if (left.time_limit > 0 && (left.time_limit -= hn_now() - t0) <= 0)
        return; /* no time left: the search's path stands */
    if (left.max_expanded && res->expanded >= left.max_expanded)
        return;
    if (left.max_expanded)
        left.max_expanded -= res->expanded;
    if (srch_dom_result_prove(s->d, start, s->prove, &left, res))
        hn_error_clear(); /* out of memory: the search's path stands */
}
