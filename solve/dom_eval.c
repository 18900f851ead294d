/* The searches of heurnet eval on any domain: one state at a time, each
 * given its share of a time budget over the run, each solution replayed,
 * into the rows of the report (solve/eval_dom.h). */
#include <stdio.h>
#include <stdlib.h>

#include "solve/dom_search.h"
#include "solve/eval_dom.h"

srch_limits heurnet_dom_budget_limits(const srch_limits *lim, double budget, size_t i, size_t n,
                                      double used)
{
    srch_limits out = *lim;
    if (budget > 0 && i < n) {
        double share = (budget * (double)n - used) / (double)(n - i);
        share = share > 1e-3 ? share : 1e-3;
        out.time_limit = lim->time_limit > 0 && lim->time_limit < share ? lim->time_limit : share;
    }
    return out;
}

void heurnet_dom_eval_state(heurnet_dom_search *s, const dom_instance_rec *x,
                            const srch_limits *lim, srch_dom_result *res, heurnet_dom_eval_row *r)
{
    const dom *d = heurnet_dom_search_domain(s);
    heurnet_dom_search_solve(s, x->state, lim, res);
    *r = (heurnet_dom_eval_row){.line = x->line,
                                .known = x->length,
                                .status = res->status,
                                .length = res->length,
                                .h0 = res->h0,
                                .proven = res->proven,
                                .expanded = res->expanded,
                                .generated = res->generated,
                                .rows = res->rows,
                                .seconds = res->seconds,
                                .time_limit = lim->time_limit,
                                .phases = res->phases,
                                .saved = res->saved};
    snprintf(r->id, sizeof r->id, "%s", x->id);
    r->valid = res->status == 0 && dom_replay(d, x->state, res->moves, res->length) == 1;
    hn_error_clear();
}

int heurnet_dom_eval_run(heurnet_dom_search *s, const dom_instance_rec *inst, size_t n,
                         double budget, int quiet, heurnet_dom_eval_row *rows, size_t *done)
{
    srch_dom_result *res = malloc(sizeof *res);
    *done = 0;
    if (!res)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    int st = heurnet_dom_search_prepare(s);
    hn_progress *bar = st ? NULL : hn_progress_new("eval", n, quiet);
    const srch_limits *lim = &heurnet_dom_search_settings(s)->lim;
    double used = 0;
    for (; !st && *done < n && !hn_stop_requested(); (*done)++) {
        srch_limits own = heurnet_dom_budget_limits(lim, budget, *done, n, used);
        heurnet_dom_eval_state(s, &inst[*done], &own, res, &rows[*done]);
        used += rows[*done].seconds;
        hn_progress_update(bar, *done + 1, NULL);
    }
    hn_progress_finish(bar);
    free(res);
    return st;
}
