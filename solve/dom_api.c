/* The flat facade of the search over any domain (solve/dom_search.h):
 * states as one byte array, settings as strings, results as rows of
 * scalars, for bindings that cannot fill the option structs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/dom_batch.h"
#include "solve/dom_int.h"

static void row_fill(const srch_dom_result *r, heurnet_dom_row *row, uint8_t *moves, size_t stride)
{
    size_t k = r->status == 0 && moves ? (size_t)r->length : 0;
    k = k < stride ? k : stride;
    if (k)
        memcpy(moves, r->moves, k);
    *row = (heurnet_dom_row){.status = r->status,
                             .length = r->status == 0 ? r->length : -1,
                             .nmoves = (int32_t)k,
                             .h0 = r->h0,
                             .proven = r->proven,
                             .cost = r->status == 0 ? r->cost : -1,
                             .expanded = r->expanded,
                             .generated = r->generated,
                             .stored = r->stored,
                             .seconds = r->seconds};
}

/* The settings of the strings into o (words kept in buf). */
static int settings(heurnet_dom_opts *o, const char *algo, const char *heuristic,
                    const char *options, char *buf, size_t cap)
{
    heurnet_dom_opts_default(o);
    int st = options ? heurnet_dom_words_apply(options, o, buf, cap, 0, 1) : 0;
    if (!st && algo && algo[0])
        st = heurnet_dom_opts_set(o, HEURNET_DOM_OPT_ALGO, algo);
    if (!st && heuristic && heuristic[0])
        st = heurnet_dom_opts_set(o, HEURNET_DOM_OPT_HEURISTIC, heuristic);
    return st;
}

/* Solve with settings o (checked states), the search described into desc. */
static int solve_with(const dom *d, const heurnet_dom_opts *o, const uint8_t *states, size_t n,
                      size_t state_bytes, int threads, heurnet_dom_row *rows, uint8_t *moves,
                      size_t stride, char *desc, size_t dcap)
{
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    heurnet_dom_search *s = st ? NULL : heurnet_dom_search_open_on(d, o, &st);
    srch_dom_result *res = s ? malloc((n ? n : 1) * sizeof *res) : NULL;
    if (s && !res)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for %zu results", n);
    if (res && !(st = heurnet_dom_search_batch(s, states, state_bytes, n, threads, res)))
        for (size_t i = 0; i < n; i++)
            row_fill(&res[i], &rows[i], moves ? moves + i * stride : NULL, stride);
    if (s && desc && dcap)
        heurnet_dom_search_describe(s, desc, dcap);
    free(res);
    heurnet_dom_search_free(s);
    return st;
}

int heurnet_dom_solve_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                             const char *algo, const char *heuristic, const char *options,
                             int threads, heurnet_dom_row *rows, uint8_t *moves, size_t stride)
{
    if (!d || (n && (!states || !rows)))
        return hn_fail(HN_ERR_ARG, "a domain, states and rows are required");
    char words[4096];
    heurnet_dom_opts o;
    int st = settings(&o, algo, heuristic, options, words, sizeof words);
    return st ? st
              : solve_with(d, &o, states, n, state_bytes, threads, rows, moves, stride, NULL, 0);
}

int heurnet_dom_solve_pairs(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                            const char *const *names, const char *const *values, int npairs,
                            int threads, heurnet_dom_row *rows, uint8_t *moves, size_t stride,
                            char *desc, size_t dcap)
{
    if (!d || (n && (!states || !rows)) || npairs < 0 || (npairs && (!names || !values)))
        return hn_fail(HN_ERR_ARG, "a domain, states, rows and settings are required");
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    for (int i = 0; i < npairs; i++) {
        int id = names[i] ? heurnet_dom_opt_id(names[i]) : -1;
        if (id < 0 || id == HEURNET_DOM_OPT_DOMAIN)
            return hn_fail(HN_ERR_ARG, "no search setting %s", names[i] ? names[i] : "(null)");
        int st = values[i] ? heurnet_dom_opts_set(&o, id, values[i])
                           : hn_fail(HN_ERR_ARG, "%s: no value given", names[i]);
        if (st)
            return st;
    }
    return solve_with(d, &o, states, n, state_bytes, threads, rows, moves, stride, desc, dcap);
}

/* Estimates in batches: a network's rows go through it together. */
#define ESTIMATE_BATCH 1024

int heurnet_dom_estimate_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                                const char *heuristic, double *est)
{
    if (!d || !heuristic || (n && (!states || !est)))
        return hn_fail(HN_ERR_ARG, "a domain, a heuristic, states and estimates are required");
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    srch_dom_heur *h = st ? NULL : srch_dom_heur_open(d, heuristic, NULL, &st);
    for (size_t i = 0; h && !st && i < n; i += ESTIMATE_BATCH) {
        size_t k = n - i < ESTIMATE_BATCH ? n - i : ESTIMATE_BATCH;
        st = srch_dom_heur_estimate(h, states + i * state_bytes, k, NULL, NULL, NULL, est + i);
    }
    srch_dom_heur_free(h);
    return st;
}
