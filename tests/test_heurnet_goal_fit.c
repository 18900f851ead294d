/* A model's estimates at the goal and next to it (issue 63, defect 20):
 * the shipped search networks are within HEURNET_GOAL_TOL there and get no
 * warning; a network whose estimates sit near the mean of far boards (as
 * one trained on uniform random boards only) is warned about, naming the
 * model and the fix; a model of no domain is not judged. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"
#include "solve/eval_report.h"

static void shipped(const char *file, int want_near)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/models/%s", HN_TEST_SRC, file);
    int st;
    nn_model *m = nn_model_load(path, &st);
    CHECK_MSG(m != NULL, "%s: %s", path, hn_errmsg());
    if (!m)
        return;
    heurnet_goal_fit f;
    CHECK_MSG(heurnet_goal_fit_of(m, &f) == 0, "%s: %s", file, hn_errmsg());
    fprintf(stderr, "%s: domain %s, goal %.3f, %zu near states, worst %+.3f\n", file, f.domain,
            f.at_goal, f.near, f.worst_near);
    CHECK_MSG(fabs(f.at_goal) <= HEURNET_GOAL_TOL, "%s: %.3f at the goal", file, f.at_goal);
    CHECK_MSG(fabs(f.worst_near) <= HEURNET_GOAL_TOL, "%s: %+.3f near the goal", file,
              f.worst_near);
    CHECK_MSG(want_near ? f.near > 0 : f.near == 0, "%s: %zu near states", file, f.near);
    char msg[1024];
    CHECK(heurnet_goal_fit_warning(file, m, HEURNET_GOAL_TOL, msg, sizeof msg) == 0 && !msg[0]);
    nn_model_free(m);
}

/* A fresh network scaled to mean `mean`: its outputs stay near it on every
 * board, the goal too. */
static nn_model *flat(const char *encoder, const char *arch, double mean)
{
    struct nn_spec sp;
    int st;
    if (nn_spec_parse(arch, NULL, &sp))
        return NULL;
    nn_model *m = nn_model_new(&sp, 5, &st);
    if (m) {
        nn_model_set_target(m, mean, 0.01);
        nn_model_set_encoder(m, encoder);
    }
    return m;
}

int main(void)
{
    shipped("15puzzle-search.h5", 1);
    shipped("8puzzle-annd.h5", 1);
    shipped("cube3.h5", 1);
    shipped("24puzzle-search.h5", 0); /* residual: the goal alone */

    nn_model *m = flat("npuzzle-onehot n=4 goal=blank-first", "256-16-1", 28.0);
    CHECK(m != NULL);
    heurnet_goal_fit f;
    CHECK(m && heurnet_goal_fit_of(m, &f) == 0 && fabs(f.at_goal - 28.0) < 1.0 && f.near > 0);
    CHECK(m && !strcmp(f.domain, "npuzzle:4x4"));
    char msg[1024];
    CHECK(m && heurnet_goal_fit_warning("uniform.h5", m, HEURNET_GOAL_TOL, msg, sizeof msg) == 1);
    CHECK_MSG(strstr(msg, "uniform.h5") && strstr(msg, "gen --path-states") && strstr(msg, "28."),
              "%s", msg);
    /* within the tolerance at the goal and next to it: no warning */
    nn_model_free(m);
    m = flat("npuzzle-onehot n=3 goal=blank-first", "81-8-1", 1.0);
    CHECK(m && heurnet_goal_fit_warning("near.h5", m, HEURNET_GOAL_TOL, msg, sizeof msg) == 0);
    /* no domain to judge by */
    nn_model_free(m);
    m = flat("", "81-8-1", 28.0);
    CHECK(m && heurnet_goal_fit_of(m, &f) == HN_ERR_UNSUPPORTED);
    CHECK(m && heurnet_goal_fit_warning("x.h5", m, HEURNET_GOAL_TOL, msg, sizeof msg) == 0);
    nn_model_free(m);
    return CHECK_DONE();
}
