/* A proof stage after any search: IDA* on an admissible heuristic whose
 * f bounds stop below the solution's cost. A solution it finds is optimal
 * (IDA*'s bounds rise to the optimum), and its end without one proves the
 * search's. The last bound is the cost less one, or less two where the
 * heuristic carries the domain's parity (the cube's pruning tables raise
 * every bound to the distance's parity: gen_ida_cube.c), so a quarter-turn
 * cube solved in L moves is proven by the iterations up to L - 2. */
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

/* The IDA* run's outcome into res: a better path, or the proof. */
static int prove_take(const srch_dom_result *r, int st, srch_dom_result *res)
{
    res->expanded += r->expanded;
    res->generated += r->generated;
    res->proof_expanded = r->expanded;
    if (st == HN_ERR_UNSOLVABLE) { /* nothing below the cost: it is optimal */
        res->proven = 1;
        return 0;
    }
    if (st == HN_ERR_LIMIT || st == HN_ERR_INTERRUPTED)
        return 0; /* the search's path stands, unproven */
    if (st)
        return st;
    memcpy(res->moves, r->moves, (size_t)r->length);
    res->length = r->length;
    res->cost = r->cost;
    res->proven = r->proven;
    res->improvements++;
    return 0;
}

int srch_dom_result_prove(const dom *d, const void *start, const srch_dom_heur *H,
                          const srch_limits *lim, srch_dom_result *res)
{
    res->proof_from = res->length;
    if (res->status || res->cost < 0 || res->proven)
        return 0;
    if (!srch_dom_heur_admissible(H) || srch_dom_heur_domain(H) != d)
        return hn_fail(HN_ERR_ARG, "proof stage: the heuristic must be admissible and of %s",
                       dom_spec(d));
    double t0 = hn_now();
    int st;
    srch_dom_heur *c = srch_dom_heur_clone(H, &st); /* its scratch is this call's */
    srch_dom_result *r = c ? malloc(sizeof *r) : NULL;
    if (c && !r)
        st = hn_fail(HN_ERR_NOMEM, "proof stage: out of memory");
    if (r) {
        int64_t below = (int64_t)srch_dom_heur_scale(c) * res->cost;
        st = prove_take(r, srch_gen_ida_below(d, start, c, lim, below, r), res);
        if (!st)
            hn_error_clear(); /* the limit's or the proof's message */
    }
    res->proof_seconds = hn_now() - t0;
    free(r);
    srch_dom_heur_free(c);
    return st;
}
