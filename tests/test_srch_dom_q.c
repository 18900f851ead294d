/* Q networks (one output per move) as search heuristics on the cube: a
 * model's output repeated per move, each child valued by its parent's row
 * at the move's output, a state without a parent by its best move, and a
 * beam search that solves with them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dom_test.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"

/* The output layer of a one-output model repeated: every output is the
 * original's; wrong shapes are refused. */
static void test_repeat(const dom *d, const nn_model *m)
{
    int st = 0;
    nn_model *q = nn_model_repeat_output(m, 12, &st);
    CHECK(q && nn_model_outputs(q) == 12 && nn_model_inputs(q) == 480);
    CHECK(!strcmp(nn_model_get_meta_str(q, "domain"), "cube3"));
    enum { N = 40 };
    uint8_t s[N * DOM_MAX_STATE_BYTES], sol[64];
    size_t sb = dom_state_bytes(d);
    hn_rng *r = hn_rng_new(5);
    for (int i = 0; i < N; i++)
        tdom_walk_solution(d, r, 3 + i, s + (size_t)i * sb, sol);
    float y1[N], yq[N * 12];
    CHECK(tdom_dense_outputs(d, m, s, N, y1) == 0);
    CHECK(tdom_dense_outputs(d, q, s, N, yq) == 0);
    for (int i = 0; i < N; i++)
        for (int a = 0; a < 12; a++)
            CHECK_CLOSE(yq[i * 12 + a], y1[i], 1e-5);
    CHECK(nn_model_repeat_output(q, 12, &st) == NULL && st == HN_ERR_SHAPE);
    CHECK(nn_model_repeat_output(m, 1, &st) == NULL && st == HN_ERR_SHAPE);
    hn_rng_free(r);
    nn_model_free(q);
}

static srch_dom_heur *heur(const dom *d, const nn_model *m, int engine, int max_batch)
{
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.engine = engine;
    o.max_batch = max_batch;
    int st;
    srch_dom_heur *h = srch_dom_heur_net(d, m, "q model", &o, &st);
    CHECK_MSG(h != NULL, "%s", hn_errmsg());
    return h;
}

/* Children of a few parents: each one's value is its parent's output at
 * its move (in small batches, so rows are flushed mid-parent too); states
 * with no parent: 1 + their least output. */
static void test_values(const dom *d, const nn_model *q, int engine, int max_batch, double tol)
{
    enum { P = 9 };
    size_t sb = dom_state_bytes(d);
    uint8_t par[P * DOM_MAX_STATE_BYTES], kids[P * 12 * DOM_MAX_STATE_BYTES], km[P * 12],
        kq[DOM_MAX_MOVES], sol[64];
    int parent_of[P * 12], nk = 0;
    hn_rng *r = hn_rng_new(9);
    for (int p = 0; p < P; p++) {
        tdom_walk_solution(d, r, 5 + p, par + (size_t)p * sb, sol);
        int k = dom_expand(d, par + (size_t)p * sb, DOM_PRUNE_ROOT, kids + (size_t)nk * sb, km + nk,
                           kq);
        for (int c = 0; c < k; c++)
            parent_of[nk + c] = p;
        nk += k;
    }
    CHECK(nk == P * 12);
    float yq[P * 12];
    CHECK(tdom_dense_outputs(d, q, par, P, yq) == 0);
    double est[P * 12];
    srch_dom_heur *h = heur(d, q, engine, max_batch);
    CHECK(srch_dom_heur_estimate(h, kids, (size_t)nk, par, parent_of, km, est) == 0);
    for (int i = 0; i < nk; i++)
        CHECK_MSG(fabs(est[i] - yq[parent_of[i] * 12 + km[i]]) <= tol, "child %d: %g vs %g", i,
                  est[i], (double)yq[parent_of[i] * 12 + km[i]]);
    /* one row per parent */
    CHECK_MSG(srch_dom_heur_rows(h) == P, "%llu rows", (unsigned long long)srch_dom_heur_rows(h));
    CHECK(srch_dom_heur_estimate(h, par, P, NULL, NULL, NULL, est) == 0);
    for (int p = 0; p < P; p++) {
        double best = INFINITY;
        for (int a = 0; a < 12; a++)
            best = fmin(best, 1.0 + yq[p * 12 + a]);
        CHECK_MSG(fabs(est[p] - best) <= tol, "state %d: %g vs %g", p, est[p], best);
    }
    srch_dom_heur_free(h);
    hn_rng_free(r);
}

/* Averaged over the L-R mirror (sym:2: the cube's first map that commutes
 * with the turns is map 2; map 1, the inverse, does not), child i of parent
 * p by move m: the mean of p's output m and the mirror of p's output for
 * the mirror of m. */
static void test_sym(const dom *d, const nn_model *q)
{
    enum { P = 6 };
    size_t sb = dom_state_bytes(d);
    uint8_t par[P * DOM_MAX_STATE_BYTES], mir[P * DOM_MAX_STATE_BYTES],
        kids[P * 12 * DOM_MAX_STATE_BYTES], km[P * 12], kq[DOM_MAX_MOVES], sol[64];
    int parent_of[P * 12], nk = 0;
    hn_rng *r = hn_rng_new(4);
    for (int p = 0; p < P; p++) {
        tdom_walk_solution(d, r, 6 + p, par + (size_t)p * sb, sol);
        dom_symmetric(d, par + (size_t)p * sb, 2, mir + (size_t)p * sb);
        int k = dom_expand(d, par + (size_t)p * sb, DOM_PRUNE_ROOT, kids + (size_t)nk * sb, km + nk,
                           kq);
        for (int c = 0; c < k; c++)
            parent_of[nk + c] = p;
        nk += k;
    }
    float yp[P * 12], ym[P * 12];
    CHECK(tdom_dense_outputs(d, q, par, P, yp) == 0);
    CHECK(tdom_dense_outputs(d, q, mir, P, ym) == 0);
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.engine = SRCH_DOM_ENGINE_FLOAT;
    o.symmetries = 2;
    int st;
    srch_dom_heur *h = srch_dom_heur_net(d, q, "q", &o, &st);
    CHECK_MSG(h != NULL, "%s", hn_errmsg());
    double est[P * 12];
    CHECK(h && srch_dom_heur_estimate(h, kids, (size_t)nk, par, parent_of, km, est) == 0);
    for (int i = 0; h && i < nk; i++) {
        uint8_t mm = km[i];
        dom_symmetric_path(d, 2, &mm, 1);
        int p = parent_of[i];
        double want = 0.5 * (yp[p * 12 + km[i]] + ym[p * 12 + mm]);
        CHECK_MSG(fabs(est[i] - want) <= 1e-4, "child %d: %g vs %g", i, est[i], want);
    }
    CHECK(!h || srch_dom_heur_rows(h) == 2 * P);
    /* more parents than children (a call's first one is past 64): only
     * parent 69's child, the mean as above */
    enum { MANY = 70 };
    static uint8_t many[MANY * DOM_MAX_STATE_BYTES];
    for (int p = 0; p < MANY; p++)
        tdom_walk_solution(d, r, 3 + p % 9, many + (size_t)p * sb, sol);
    uint8_t kid[DOM_MAX_STATE_BYTES], km1 = 5, mir1[DOM_MAX_STATE_BYTES], mm1 = km1;
    int last = MANY - 1;
    memcpy(kid, many + (size_t)last * sb, sb);
    CHECK(dom_apply(d, kid, km1));
    dom_symmetric(d, many + (size_t)last * sb, 2, mir1);
    dom_symmetric_path(d, 2, &mm1, 1);
    float y1[12], y2[12];
    CHECK(tdom_dense_outputs(d, q, many + (size_t)last * sb, 1, y1) == 0);
    CHECK(tdom_dense_outputs(d, q, mir1, 1, y2) == 0);
    double e1 = 0;
    CHECK(h && srch_dom_heur_estimate(h, kid, 1, many, &last, &km1, &e1) == 0);
    CHECK_MSG(fabs(e1 - 0.5 * (y1[km1] + y2[mm1])) <= 1e-4, "parent 69: %g", e1);
    srch_dom_heur_free(h);
    /* 19 whole-cube symmetries besides the identity commute with the turns */
    o.symmetries = 20;
    CHECK((h = srch_dom_heur_net(d, q, "q", &o, &st)) != NULL);
    srch_dom_heur_free(h);
    o.symmetries = 21;
    CHECK(srch_dom_heur_net(d, q, "q", &o, &st) == NULL && st == HN_ERR_ARG);
    hn_rng_free(r);
}

/* A model with a wrong output count: refused. */
static void test_refused(const dom *d)
{
    int st;
    nn_model *w = tdom_random_model("480-8-5", 4, 10.0, 3.0, NULL);
    nn_model_set_meta_str(w, "domain", "cube3");
    CHECK(srch_dom_heur_net(d, w, "w", NULL, &st) == NULL && st == HN_ERR_SHAPE);
    nn_model_free(w);
}

/* A beam search with a Q heuristic solves short scrambles (replayed). */
static void test_beam(const dom *d, const nn_model *q)
{
    srch_dom_heur *h = heur(d, q, SRCH_DOM_ENGINE_AUTO, 4096);
    srch_dom_opts o = SRCH_DOM_DEFAULTS;
    o.width = 2000;
    hn_rng *r = hn_rng_new(21);
    uint8_t s[DOM_MAX_STATE_BYTES], sol[16];
    for (int t = 0; t < 5; t++) {
        tdom_walk_solution(d, r, 4, s, sol);
        srch_dom_result *res = calloc(1, sizeof *res);
        CHECK(srch_dom_beam(d, s, h, &o, NULL, res) == 0);
        CHECK(res->length >= 0 && res->length <= 40 &&
              dom_replay(d, s, res->moves, res->length) == 1);
        CHECK(res->rows > 0 && res->rows <= res->expanded + 1);
        free(res);
    }
    hn_rng_free(r);
    srch_dom_heur_free(h);
}

int main(void)
{
    int st;
    dom *d = dom_open("cube3", &st);
    CHECK(d != NULL);
    nn_model *m = tdom_random_model("480-32-16-1", 7, 10.0, 3.0, NULL);
    nn_model_set_encoder(m, dom_facts_of(d)->encoding); /* a model reads its domain's encoding */
    nn_model_set_meta_str(m, "domain", "cube3");
    test_repeat(d, m);
    /* a Q model whose outputs differ by move: output a shifted by 0.1 a */
    nn_model *q = nn_model_repeat_output(m, 12, &st);
    struct nn_layer_info li;
    nn_model_layer(q, nn_model_layers(q) - 1, &li);
    for (int a = 0; a < 12; a++)
        li.bias[a] += 0.1f * (float)a;
    test_values(d, q, SRCH_DOM_ENGINE_FLOAT, 1024, 1e-4);
    test_values(d, q, SRCH_DOM_ENGINE_FLOAT, 2, 1e-4);
    test_values(d, q, SRCH_DOM_ENGINE_Q8, 4, 0.1);
    test_sym(d, q);
    test_refused(d);
    test_beam(d, q);
    nn_model_free(q);
    nn_model_free(m);
    dom_free(d);
    return CHECK_DONE();
}
