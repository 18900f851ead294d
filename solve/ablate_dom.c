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

/* The n-puzzle of a->dom in goal layout `goal` (1: blank-last) for a
 * FILE@GOAL, into *out (owned); the network reads such states through the
 * domain's layout turn. */
static int layout_dom(const struct heurnet_ablate *a, const char *opt, const char *path, int goal,
                      dom **out)
{
    const char *c = dom_canonical(a->dom);
    int w, h, n = 0, st;
    if (sscanf(c, "npuzzle:%dx%d%n", &w, &h, &n) != 2)
        return hn_fail(HN_ERR_ARG,
                       "%s %s@GOAL: a goal layout is for the n-puzzle; the domain %s has its "
                       "own goal",
                       opt, path, c);
    char spec[64];
    snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", w, h, goal ? ":blank-last" : "");
    *out = dom_open(spec, &st);
    return *out ? 0 : st;
}

/* The states of `path` (read through domain d) with a known optimum, the
 * first `keep` (0: all), into *out, *n. */
static int known_states(const struct heurnet_ablate *a, const dom *d, const char *path, size_t keep,
                        dom_instance_rec **out, size_t *n)
{
    dom_instance_rec *all;
    size_t total, k = 0;
    int rc = dom_read_instances(d, path, bad_line, (void *)a, &all, &total);
    if (rc)
        return rc;
    for (size_t i = 0; i < total && (!keep || k < keep); i++)
        if (all[i].length >= 0)
            all[k++] = all[i];
    *out = all;
    *n = k;
    return 0;
}

int heurnet_ablate_search_boards(struct heurnet_ablate *a)
{
    int st = a->search_goal >= 0
                 ? layout_dom(a, "--search", a->search, a->search_goal, &a->search_dom)
                 : 0;
    return st ? st
              : known_states(a, a->search_dom ? a->search_dom : a->dom, a->search,
                             (size_t)a->search_n, &a->states, &a->nboards);
}

/* "ann:SELF[,search_opts]" on d: the network just trained, with the
 * settings. */
static srch_dom_heur *run_heur(const struct heurnet_ablate *a, const dom *d, const nn_model *m,
                               int *st)
{
    char spec[1024];
    int w = snprintf(spec, sizeof spec, "ann:SELF%s%s", a->search_opts ? "," : "",
                     a->search_opts ? a->search_opts : "");
    if (w < 0 || (size_t)w >= sizeof spec) {
        *st = hn_fail(HN_ERR_ARG, "--search-opts is too long");
        return NULL;
    }
    /* float unless the settings say q8: a run's figures do not depend on
     * the CPU's SIMD kernels */
    srch_dom_net_opts no = SRCH_DOM_NET_DEFAULTS;
    no.engine = SRCH_DOM_ENGINE_FLOAT;
    return srch_dom_heur_open_model(d, spec, m, &no, st);
}

int heurnet_abl_dom_search(const struct heurnet_ablate *a, const nn_model *m, const char *label,
                           double *out)
{
    int st;
    const dom *d = a->search_dom ? a->search_dom : a->dom;
    srch_dom_heur *h = run_heur(a, d, m, &st);
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
        st = srch_dom_astar(d, a->states[i].state, h, &SRCH_DOM_DEFAULTS, &lim, res);
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
    dom *own = NULL;
    int st = a->goal[k] >= 0 ? layout_dom(a, "--instances", a->inst[k], a->goal[k], &own) : 0;
    const dom *d = own ? own : a->dom;
    dom_instance_rec *s = NULL;
    size_t n = 0;
    if (!st)
        st = known_states(a, d, a->inst[k], 0, &s, &n);
    if (!st && !n) { /* no optimum to compare with: no figure */
        out[0] = out[1] = out[2] = NAN;
        free(s);
        dom_free(own);
        return 0;
    }
    srch_dom_heur *h = st ? NULL : run_heur(a, d, m, &st);
    size_t sb = dom_state_bytes(d);
    uint8_t *x = h ? malloc(n * sb) : NULL;
    double *est = h ? malloc(n * sizeof *est) : NULL;
    if (h && (!x || !est))
        st = hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = 0; x && i < n; i++)
        memcpy(x + i * sb, s[i].state, sb);
    if (!st)
        st = srch_dom_heur_estimate(h, x, n, NULL, NULL, NULL, est);
    double mae = 0, exact = 0, over = 0;
    for (size_t i = 0; !st && i < n; i++) {
        double e = est[i] - s[i].length;
        mae += fabs(e);
        exact += lround(est[i]) == s[i].length;
        over += lround(est[i]) > s[i].length;
    }
    if (!st) {
        out[0] = mae / (double)n;
        out[1] = exact / (double)n;
        out[2] = over / (double)n;
    }
    free(est);
    free(x);
    free(s);
    srch_dom_heur_free(h);
    dom_free(own);
    return st;
}
