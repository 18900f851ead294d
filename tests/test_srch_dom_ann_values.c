/* The generic network heuristic's estimates on the shipped n-puzzle models
 * against the float network itself (nn_infer on one-hot rows built here):
 * float engine within 1e-4 moves, q8 within 0.25 (its first layer is
 * rounded to int8 steps); mirror as the mean over the board and its mirror
 * image; a blank-first model on blank-last boards as the network of the
 * board turned by 180 degrees with tile t renamed N - t. This is the
 * reference the n-puzzle's own heuristic used to be compared with. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

enum { N = 400 };

/* One-hot row of a state (cells' tiles, then the blank's cell): input
 * t * C + p is on when cell p holds tile t; `turn` reads the board turned
 * by 180 degrees and renamed (the other goal layout's view). */
static void onehot(const uint8_t *s, int cells, int turn, float *x)
{
    memset(x, 0, sizeof *x * (size_t)cells * (size_t)cells);
    for (int p = 0; p < cells; p++) {
        int t = s[p], q = p;
        if (turn) {
            t = t ? cells - t : 0;
            q = cells - 1 - p;
        }
        x[t * cells + q] = 1.0f;
    }
}

/* The network's float output for each state (and its mirror with sym). */
static void reference(const nn_model *m, const dom *d, const uint8_t *s, int turn, int sym,
                      double *want)
{
    int st, cells = (int)dom_state_bytes(d) - 1;
    nn_infer *inf = nn_infer_new(m, 1, &st);
    float *x = malloc(sizeof *x * (size_t)cells * (size_t)cells), y;
    uint8_t mir[DOM_MAX_STATE_BYTES];
    for (int i = 0; inf && i < N; i++) {
        const uint8_t *si = s + (size_t)i * dom_state_bytes(d);
        onehot(si, cells, turn, x);
        CHECK(nn_infer_run(inf, x, 1, &y) == 0);
        want[i] = y;
        if (sym > 1) {
            dom_symmetric(d, si, 1, mir);
            onehot(mir, cells, turn, x);
            CHECK(nn_infer_run(inf, x, 1, &y) == 0);
            want[i] = (want[i] + y) / 2;
        }
    }
    CHECK(inf != NULL);
    free(x);
    nn_infer_free(inf);
}

static void check_model(const char *file, const char *domain, const char *settings, int turn,
                        int sym, double tol)
{
    char path[1024], spec[1200];
    snprintf(path, sizeof path, "%s/models/%s", HN_TEST_SRC, file);
    snprintf(spec, sizeof spec, "ann:%s,%s", path, settings);
    int st;
    dom *d = dom_open(domain, &st);
    nn_model *m = nn_model_load(path, &st);
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.residual = 0; /* the network alone */
    srch_dom_heur *h = d && m ? srch_dom_heur_open(d, spec, &o, &st) : NULL;
    CHECK_MSG(h != NULL, "%s on %s: %s", spec, domain, hn_errmsg());
    if (!h) {
        nn_model_free(m);
        dom_free(d);
        return;
    }
    size_t sb = dom_state_bytes(d);
    uint8_t *s = malloc(N * sb);
    double *want = malloc(N * sizeof *want), *got = malloc(N * sizeof *got);
    hn_rng *rng = hn_rng_new(7);
    for (int i = 0; i < N; i++) {
        dom_goal(d, s + (size_t)i * sb);
        dom_walk(d, s + (size_t)i * sb, 5 + i % 90, rng);
    }
    reference(m, d, s, turn, sym, want);
    CHECK(srch_dom_heur_estimate(h, s, N, NULL, NULL, NULL, got) == 0);
    double worst = 0;
    for (int i = 0; i < N; i++)
        worst = fmax(worst, fabs(got[i] - want[i]));
    CHECK_MSG(worst <= tol, "%s on %s: estimates differ from the float network by up to %g (> %g)",
              settings, domain, worst, tol);
    hn_rng_free(rng);
    free(s);
    free(want);
    free(got);
    srch_dom_heur_free(h);
    nn_model_free(m);
    dom_free(d);
}

int main(void)
{
    check_model("15puzzle-search.h5", "npuzzle:4x4", "float", 0, 1, 1e-4);
    check_model("15puzzle-search.h5", "npuzzle:4x4", "q8,acc16", 0, 1, 0.25);
    check_model("15puzzle-search.h5", "npuzzle:4x4", "q8,acc32,cache:8", 0, 1, 0.25);
    check_model("15puzzle-annd-q35.h5", "npuzzle:4x4", "mirror,float", 0, 2, 1e-4);
    check_model("15puzzle-search.h5", "npuzzle:4x4:blank-last", "float", 1, 1, 1e-4);
    check_model("15puzzle-annd.h5", "npuzzle:4x4:blank-last", "mirror,float", 1, 2, 1e-4);
    check_model("8puzzle-annd.h5", "npuzzle:3x3", "float,cache:4", 0, 1, 1e-4);
    check_model("24puzzle-search.h5", "npuzzle:5x5", "q8", 0, 1, 0.25);
    check_model("24puzzle-annd.h5", "npuzzle:5x5:blank-last", "mirror,float", 1, 2, 1e-4);
    /* the settings each mean one thing */
    int st;
    dom *d = dom_open("npuzzle:4x4", &st);
    char spec[1200];
    snprintf(spec, sizeof spec, "ann:%s/models/15puzzle-search.h5,cache:29", HN_TEST_SRC);
    CHECK(d && srch_dom_heur_open(d, spec, NULL, &st) == NULL && st == HN_ERR_ARG);
    snprintf(spec, sizeof spec, "ann:%s/models/15puzzle-search.h5,acc8", HN_TEST_SRC);
    CHECK(d && srch_dom_heur_open(d, spec, NULL, &st) == NULL && st == HN_ERR_ARG);
    dom_free(d);
    return CHECK_DONE();
}
