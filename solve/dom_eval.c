/* The searches of heurnet eval on any domain: one state at a time, the
 * admissible baseline first (its optimum when the file has none), then
 * the search with its share of a time budget, each solution replayed, into
 * the rows of the report (solve/eval_dom.h). */
#include <math.h>
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
        share = share > HEURNET_DOM_EVAL_MIN_SHARE ? share : HEURNET_DOM_EVAL_MIN_SHARE;
        out.time_limit = lim->time_limit > 0 && lim->time_limit < share ? lim->time_limit : share;
    }
    return out;
}

/* A heuristic's estimate of one state (NAN when it fails). */
static double estimate(srch_dom_heur *h, const void *state)
{
    double v = NAN;
    if (h && srch_dom_heur_estimate(h, state, 1, NULL, NULL, NULL, &v))
        v = NAN;
    return v;
}

static void run_baseline(const heurnet_dom_eval_run_opts *o, const dom_instance_rec *x,
                         srch_dom_result *res, heurnet_dom_eval_row *r)
{
    const dom *d = heurnet_dom_search_domain(o->base);
    r->has_base = 1;
    r->base_status = heurnet_dom_search_solve(o->base, x->state, NULL, res);
    r->base_length = res->status ? -1 : res->length;
    r->base_expanded = res->expanded;
    r->base_seconds = res->seconds;
    r->base_valid = !res->status && dom_replay(d, x->state, res->moves, res->length) == 1;
    if (r->base_valid && r->optimal < 0) {
        r->optimal = res->length;
        r->opt_src = 'b';
    } else if (r->base_valid && r->opt_src == 'k' && res->length != r->optimal) {
        hn_log(HN_LOG_WARN,
               "eval: state %s: the baseline found %d moves but the file says %d are optimal",
               x->id, res->length, r->optimal);
    }
}

void heurnet_dom_eval_state(const heurnet_dom_eval_run_opts *o, const dom_instance_rec *x,
                            const srch_limits *lim, srch_dom_result *res, heurnet_dom_eval_row *r)
{
    heurnet_dom_search *s = o->s;
    const dom *d = heurnet_dom_search_domain(s);
    srch_dom_heur *h = heurnet_dom_search_heur(s);
    int opt = !o->reference && x->length >= 0;
    *r = (heurnet_dom_eval_row){.line = x->line,
                                .known = x->length,
                                .optimal = opt ? x->length : -1,
                                .opt_src = opt ? 'k' : '-',
                                .time_limit = lim->time_limit,
                                .h_start = estimate(h, x->state)};
    snprintf(r->id, sizeof r->id, "%s", x->id);
    srch_dom_heur *bh = o->base_h ? o->base_h : o->base ? heurnet_dom_search_heur(o->base) : NULL;
    if (bh) {
        r->has_base_h = 1;
        r->base_h = estimate(bh, x->state);
    }
    if (o->base)
        run_baseline(o, x, res, r);
    double nn0 = srch_dom_heur_net_seconds(h);
    heurnet_dom_search_solve(s, x->state, lim, res);
    r->nn_seconds = srch_dom_heur_net_seconds(h) - nn0;
    r->status = res->status;
    r->length = res->length;
    r->h0 = res->h0;
    r->proven = res->proven;
    r->expanded = res->expanded;
    r->generated = res->generated;
    r->rows = res->rows;
    r->seconds = res->seconds;
    r->phases = res->phases;
    r->saved = res->saved;
    r->valid = res->status == 0 && dom_replay(d, x->state, res->moves, res->length) == 1;
    hn_error_clear();
}

int heurnet_dom_eval_run(const heurnet_dom_eval_run_opts *o, const dom_instance_rec *inst, size_t n,
                         heurnet_dom_eval_row *rows, size_t *done)
{
    srch_dom_result *res = malloc(sizeof *res);
    *done = 0;
    if (!res)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    int st = heurnet_dom_search_prepare(o->s);
    if (!st && o->base)
        st = heurnet_dom_search_prepare(o->base);
    if (!st) /* the network's own seconds (nn_seconds) */
        srch_dom_heur_time_nets(heurnet_dom_search_heur(o->s), 1);
    hn_progress *bar = st ? NULL : hn_progress_new("eval", n, o->quiet);
    const srch_limits *lim = &heurnet_dom_search_settings(o->s)->lim;
    double used = 0;
    size_t opt = 0, with = 0;
    for (; !st && *done < n && !hn_stop_requested(); (*done)++) {
        srch_limits own = heurnet_dom_budget_limits(lim, o->budget, *done, n, used);
        heurnet_dom_eval_row *r = &rows[*done];
        heurnet_dom_eval_state(o, &inst[*done], &own, res, r);
        if (hn_stop_requested())
            break; /* its searches were cut short: left out */
        used += r->seconds;
        if (r->optimal >= 0 && r->valid) {
            with++;
            opt += r->length == r->optimal;
        }
        char extra[64];
        snprintf(extra, sizeof extra, "optimal %zu/%zu", opt, with);
        hn_progress_update(bar, *done + 1, extra);
    }
    hn_progress_finish(bar);
    free(res);
    return st;
}
