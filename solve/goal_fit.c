/* How far a model's estimates are off at the goal and next to it (see
 * heurnet_goal_fit in solve/eval_report.h). A network trained only on
 * uniform random boards (gen --puzzle 15 without --path-states) never saw
 * the goal's neighbourhood and may put the goal itself 28 moves away; A*
 * then cannot finish, and nothing in the training figures shows it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domains/dom.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"
#include "search/npuzzle/encode.h"
#include "solve/eval_report.h"

/* States exactly 1 and 2 moves from the goal (a unit-cost, reversible
 * domain: breadth-first distances are the distances): ring[0..n) with
 * dist[i], at most cap. */
static size_t near_goal(const dom *d, uint8_t *ring, int *dist, size_t cap)
{
    size_t sb = dom_state_bytes(d), n = 1;
    uint8_t kids[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], mv[DOM_MAX_MOVES];
    dom_goal(d, ring);
    dist[0] = 0;
    for (size_t at = 0; at < n && dist[at] < 2; at++) {
        int k = dom_expand(d, ring + at * sb, DOM_PRUNE_ROOT, kids, mv, NULL);
        for (int c = 0; c < k && n < cap; c++) {
            const uint8_t *s = kids + (size_t)c * sb;
            size_t j = 0;
            while (j < n && memcmp(ring + j * sb, s, sb))
                j++;
            if (j < n)
                continue; /* seen nearer (or as near) */
            memcpy(ring + n * sb, s, sb);
            dist[n++] = dist[at] + 1;
        }
    }
    return n;
}

/* The domain the model records, else the one its n-puzzle encoder names. */
static int model_domain(const nn_model *m, char *spec, size_t cap)
{
    const char *rec = nn_model_get_meta_str(m, "domain");
    if (rec && strlen(rec) < cap) {
        snprintf(spec, cap, "%s", rec);
        return 0;
    }
    int st = srch_np_encode_domain(nn_model_encoder(m), spec, cap);
    hn_error_clear();
    return st ? -1 : 0;
}

static int fit_on(const dom *d, const nn_model *m, heurnet_goal_fit *f)
{
    enum { CAP = 4096 };
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.engine = SRCH_DOM_ENGINE_FLOAT;
    o.residual = 0; /* a base's table may take minutes to build: the goal alone below */
    int st;
    srch_dom_heur *h = srch_dom_heur_net(d, m, "model", &o, &st);
    if (!h)
        return st;
    const char *res = nn_model_get_meta_str(m, "residual");
    int residual = res && res[0];
    size_t sb = dom_state_bytes(d), n = 1;
    uint8_t *ring = malloc(CAP * sb);
    int *dist = malloc(CAP * sizeof *dist);
    double *est = malloc(CAP * sizeof *est);
    st = ring && dist && est ? 0 : hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!st) {
        /* an admissible base is 0 at the goal, so a residual model's goal
         * estimate is its network's; next to the goal the base is unknown */
        if (!residual && dom_unit_cost(d) && dom_reversible(d))
            n = near_goal(d, ring, dist, CAP);
        else
            dom_goal(d, ring), dist[0] = 0;
        st = srch_dom_heur_estimate(h, ring, n, NULL, NULL, NULL, est);
    }
    for (size_t i = 0; !st && i < n; i++) {
        double off = est[i] - dist[i];
        if (i == 0)
            f->at_goal = est[0];
        else if (fabs(off) > fabs(f->worst_near))
            f->worst_near = off;
    }
    f->near = n - 1;
    srch_dom_heur_free(h);
    free(ring);
    free(dist);
    free(est);
    return st;
}

int heurnet_goal_fit_of(const nn_model *m, heurnet_goal_fit *f)
{
    *f = (heurnet_goal_fit){0};
    if (model_domain(m, f->domain, sizeof f->domain))
        return HN_ERR_UNSUPPORTED; /* no domain to place a goal in */
    int st;
    dom *d = dom_open(f->domain, &st);
    if (!d)
        return st;
    st = fit_on(d, m, f);
    dom_free(d);
    return st;
}

int heurnet_goal_fit_warning(const char *name, const nn_model *m, double tol, char *msg, size_t cap)
{
    return heurnet_goal_fit_warning_fix(name, m, tol, NULL, msg, cap);
}

int heurnet_goal_fit_warning_fix(const char *name, const nn_model *m, double tol, const char *fix,
                                 char *msg, size_t cap)
{
    heurnet_goal_fit f;
    msg[0] = '\0';
    if (heurnet_goal_fit_of(m, &f)) {
        hn_error_clear();
        return 0; /* nothing to judge by: no warning */
    }
    int goal_bad = fabs(f.at_goal) > tol, near_bad = fabs(f.worst_near) > tol;
    if (!goal_bad && !near_bad)
        return 0;
    char near[160] = "";
    if (f.near)
        snprintf(near, sizeof near, "; at the %zu states 1-2 moves from it it is up to %+.1f off",
                 f.near, f.worst_near);
    snprintf(msg, cap,
             "%s estimates %.1f moves at the goal of %s itself%s (more than %g moves): a search "
             "cannot use it near the goal; %s",
             name, f.at_goal, f.domain, near, tol,
             fix ? fix
                 : "if its training data held no states near the goal, label boards with "
                   "`heurnet gen --path-states` (or --walk) and train again");
    return 1;
}

int heurnet_goal_fit_file(const char *path, double tol, char *msg, size_t cap)
{
    int st;
    msg[0] = '\0';
    nn_model *m = path ? nn_model_load(path, &st) : NULL;
    if (!m) {
        hn_error_clear();
        return 0;
    }
    int bad = heurnet_goal_fit_warning(path, m, tol, msg, cap);
    nn_model_free(m);
    return bad;
}

/* A network far off at the goal explains a search that solves nothing:
 * said in the report and as a warning. */
void heurnet_eval_goal_note(FILE *f, const char *model)
{
    char msg[1024];
    if (!heurnet_goal_fit_file(model, HEURNET_GOAL_TOL, msg, sizeof msg))
        return;
    hn_log(HN_LOG_WARN, "eval: %s", msg);
    fprintf(f, "**Warning**: %s.\n\n", msg);
}
