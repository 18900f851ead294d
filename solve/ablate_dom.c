/* Ablation measurements on any domain: the --search and --instances files
 * read through the data's domain, the trained network searched by the one
 * core's A* and its estimates compared with the files' optima. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "search/generic/srch_dom.h"
#include "solve/ablate_int.h"

static void bad_line(const char *msg, void *user)
{
    heurnet_abl_say(user, HEURNET_ABL_BAD_LINE, "%s", msg);
}

/* The states of `path` with a known optimum, the first `keep` (0: all),
 * into *out, *n. */
static int known_states(const struct heurnet_ablate *a, const char *path, size_t keep,
                        dom_instance_rec **out, size_t *n)
{
    dom_instance_rec *all;
    size_t total, k = 0;
    int rc = dom_read_instances(a->dom, path, bad_line, (void *)a, &all, &total);
    if (rc)
        return rc;
    for (size_t i = 0; i < total && (!keep || k < keep); i++)
        if (all[i].length >= 0)
            all[k++] = all[i];
    *out = all;
    *n = k;
    return 0;
}

int heurnet_abl_dom_boards(struct heurnet_ablate *a)
{
    if (a->search_goal >= 0)
        return hn_fail(HN_ERR_ARG,
                       "--search %s@GOAL: a goal layout is for n-puzzle /boards data; the "
                       "domain %s has its own goal",
                       a->search, dom_spec(a->dom));
    return known_states(a, a->search, (size_t)a->search_n, &a->states, &a->nboards);
}

/* "ann:SELF[,search_opts]": the network just trained, with the settings. */
static srch_dom_heur *run_heur(const struct heurnet_ablate *a, const nn_model *m, int *st)
{
    char spec[1024];
    int w = snprintf(spec, sizeof spec, "ann:SELF%s%s", a->search_opts ? "," : "",
                     a->search_opts ? a->search_opts : "");
    if (w < 0 || (size_t)w >= sizeof spec) {
        *st = hn_fail(HN_ERR_ARG, "--search-opts is too long");
        return NULL;
    }
    return srch_dom_heur_open_model(a->dom, spec, m, NULL, st);
}

int heurnet_abl_dom_search(const struct heurnet_ablate *a, const nn_model *m, const char *label,
                           double *out)
{
    int st;
    srch_dom_heur *h = run_heur(a, m, &st);
    if (!h)
        return hn_fail(st, "%s: %s", label, hn_errmsg());
    srch_dom_result *res = malloc(sizeof *res);
    if (!res) {
        srch_dom_heur_free(h);
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    }
    srch_limits lim = {.max_expanded = a->search_limit};
    double optimal = 0, excess = 0, expanded = 0, solved = 0, seconds = 0;
    for (size_t i = 0; i < a->nboards && !hn_stop_requested(); i++) {
        st = srch_dom_astar(a->dom, a->states[i].state, h, &SRCH_DOM_DEFAULTS, &lim, res);
        expanded += (double)res->expanded;
        seconds += res->seconds;
        if (st == HN_ERR_LIMIT)
            continue;
        if (st)
            break;
        solved++;
        optimal += res->length == a->states[i].length;
        excess += res->length - a->states[i].length;
    }
    size_t n = a->nboards;
    free(res);
    srch_dom_heur_free(h);
    if (st && st != HN_ERR_LIMIT)
        return st;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    out[HEURNET_ABL_S_OPTIMAL] = optimal / (double)n;
    out[HEURNET_ABL_S_EXCESS] = solved ? excess / solved : NAN;
    /* with no state solved the mean is the node limit, not a result */
    out[HEURNET_ABL_S_EXPANDED] = solved ? expanded / (double)n : NAN;
    out[HEURNET_ABL_S_SOLVED] = solved / (double)n;
    out[HEURNET_ABL_S_TIME] = seconds / (double)n;
    return 0;
}

int heurnet_abl_dom_inst(const struct heurnet_ablate *a, const nn_model *m, int k, double *out)
{
    if (a->goal[k] >= 0)
        return hn_fail(HN_ERR_ARG,
                       "--instances %s@GOAL: a goal layout is for n-puzzle /boards data; the "
                       "domain %s has its own goal",
                       a->inst[k], dom_spec(a->dom));
    dom_instance_rec *s;
    size_t n;
    int st = known_states(a, a->inst[k], 0, &s, &n);
    if (st)
        return st;
    srch_dom_heur *h = n ? run_heur(a, m, &st) : NULL;
    size_t sb = dom_state_bytes(a->dom);
    uint8_t *x = h ? malloc(n * sb) : NULL;
    double *est = h ? malloc(n * sizeof *est) : NULL;
    if (h && (!x || !est))
        st = hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = 0; x && i < n; i++)
        memcpy(x + i * sb, s[i].state, sb);
    if (!st && n)
        st = srch_dom_heur_estimate(h, x, n, NULL, NULL, NULL, est);
    double mae = 0, exact = 0, over = 0;
    for (size_t i = 0; !st && i < n; i++) {
        double e = est[i] - s[i].length;
        mae += fabs(e);
        exact += lround(est[i]) == s[i].length;
        over += lround(est[i]) > s[i].length;
    }
    if (!st && !n)
        st = hn_fail(HN_ERR_ARG, "%s: no state with a known optimal length", a->inst[k]);
    if (!st) {
        out[0] = mae / (double)n;
        out[1] = exact / (double)n;
        out[2] = over / (double)n;
    }
    free(est);
    free(x);
    free(s);
    srch_dom_heur_free(h);
    return st;
}
