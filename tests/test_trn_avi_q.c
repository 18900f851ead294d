/* Distillation on the cube (trn_avi_opts.teacher): a Q student (teacher_q) has one
 * output per move and learns the teacher's value of the child each move
 * leads to, move by move (a student whose outputs were shuffled among the
 * moves would not match), starting from the teacher repeated. Without a
 * teacher a Q network learns Bellman values of the children from itself. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dom_test.h"
#include "nn/nn.h"
#include "search/generic/srch_dom.h"
#include "train/trn.h"

enum { N = 200 };

/* Mean |student(s)[a] - teacher(s after move a + shift)| over N walk states
 * and all moves (shift 0: the right move; else another one). */
static double q_error(const dom *d, const nn_model *teacher, const nn_model *q, int shift)
{
    size_t sb = dom_state_bytes(d);
    uint8_t *s = malloc((size_t)N * sb), *kids = malloc((size_t)N * 12 * sb), sol[64], mv[12],
            aq[12];
    hn_rng *r = hn_rng_new(77);
    for (int i = 0; i < N; i++) {
        tdom_walk_solution(d, r, 1 + i % 12, s + (size_t)i * sb, sol);
        int k =
            dom_expand(d, s + (size_t)i * sb, DOM_PRUNE_ROOT, kids + (size_t)i * 12 * sb, mv, aq);
        CHECK(k == 12);
        for (int a = 0; a < 12; a++)
            CHECK(mv[a] == a); /* the root expands every move, in order */
    }
    float *yq = malloc(sizeof(float) * N * 12), *yt = malloc(sizeof(float) * N * 12);
    CHECK(tdom_dense_outputs(d, q, s, N, yq) == 0);
    CHECK(tdom_dense_outputs(d, teacher, kids, N * 12, yt) == 0);
    double err = 0;
    for (int i = 0; i < N; i++)
        for (int a = 0; a < 12; a++) {
            int b = (a + shift) % 12;
            float want =
                dom_is_goal(d, kids + ((size_t)i * 12 + (size_t)b) * sb) ? 0.0f : yt[i * 12 + b];
            err += fabs(yq[i * 12 + a] - want);
        }
    free(yq);
    free(yt);
    free(s);
    free(kids);
    hn_rng_free(r);
    return err / (N * 12);
}

/* The small runs' shared settings: cube walks of 0..walk_max quarter turns,
 * 50 Adam steps of 200 states per round at a fixed rate. */
static void small_run(struct trn_avi_opts *o, const dom *d, int walk_max, uint64_t seed)
{
    trn_avi_opts_default(o);
    o->dom = d;
    o->teacher_q = 1;
    o->walk_max = walk_max;
    o->batch = 200;
    o->steps_per_round = 50;
    o->lr = 3e-3;
    o->lr_decay = 1.0;
    o->seed = seed;
}

/* A fresh network of shape arch (no dropout, no batch norm, as the runs),
 * targets scaled around mean, std, trained for the given rounds. */
static void fresh_net(struct trn_avi_opts *o, const char *arch, double mean, double std, int rounds)
{
    o->init = NULL;
    o->arch = arch;
    o->defaults = NN_LAYER_DEFAULTS;
    o->defaults.dropout = 0.0f;
    o->defaults.bn = 0;
    o->target_mean = mean;
    o->target_std = std;
    o->rounds = rounds;
}

/* Mean |student - teacher| over N states of random walks (lengths first
 * + i % span), and the teacher's own mean deviation into *spread. */
static double distill_error(const dom *d, const nn_model *student, const nn_model *teacher,
                            int first, int span, uint64_t seed, double *spread)
{
    size_t sb = dom_state_bytes(d);
    uint8_t *s = malloc((size_t)N * sb), sol[64];
    hn_rng *r = hn_rng_new(seed);
    for (int i = 0; i < N; i++)
        tdom_walk_solution(d, r, first + i % span, s + (size_t)i * sb, sol);
    float ys[N], yt[N];
    CHECK(tdom_dense_outputs(d, student, s, N, ys) == 0);
    CHECK(tdom_dense_outputs(d, teacher, s, N, yt) == 0);
    double mean = 0, err = 0;
    *spread = 0;
    for (int i = 0; i < N; i++)
        mean += yt[i] / N;
    for (int i = 0; i < N; i++) {
        err += fabs(ys[i] - yt[i]) / N;
        *spread += fabs(mean - yt[i]) / N;
    }
    hn_rng_free(r);
    free(s);
    return err;
}

/* Plain distillation (teacher_q 0): a student of another shape learns the
 * teacher's values of the states themselves. */
static void test_distill(const dom *d, const nn_model *t, struct trn_avi_opts *o)
{
    o->teacher_q = 0;
    o->arch = "480-128-1";
    o->rounds = 60;
    nn_model *m = NULL;
    CHECK_MSG(trn_avi_run(o, &m) == 0 && m, "%s", hn_errmsg());
    if (!m)
        return;
    double spread, err = distill_error(d, m, t, 1, 12, 78, &spread);
    /* seen: 0.25 of the spread; the teacher repeated: 1, another target: over 1 */
    fprintf(stderr, "distilled: error %g against a spread of %g\n", err, spread);
    CHECK_MSG(err < 0.4 * spread, "distilled error %g, spread %g", err, spread);
    CHECK(nn_model_outputs(m) == 1 &&
          !strcmp(nn_model_get_meta_str(m, "avi_teacher"), "random teacher"));
    nn_model_free(m);
    o->teacher_q = 1;
}

/* Distillation over a residual: teacher and student are both corrections
 * to the 8-puzzle's Manhattan distance, and the student's own output
 * follows the teacher's; a teacher over no residual is refused. */
static void test_distill_residual(void)
{
    int st;
    dom *d = dom_open("npuzzle:3x3", &st);
    dom_heur *md = d ? dom_heur_open(d, "manhattan", &st) : NULL;
    CHECK(d && md);
    if (!md)
        return;
    char arch[64];
    snprintf(arch, sizeof arch, "%d-16-1", (int)dom_facts_of(d)->inputs);
    nn_model *t = tdom_random_model(arch, 5, 0.0, 2.0, "manhattan");
    nn_model_set_meta_str(t, "domain", dom_spec(d));
    nn_model_set_encoder(t, dom_facts_of(d)->encoding);
    struct trn_avi_opts o;
    small_run(&o, d, 30, 13);
    o.teacher_q = 0;
    o.teacher = t;
    o.teacher_name = "residual teacher";
    o.residual = md;
    o.residual_spec = "manhattan";
    snprintf(arch, sizeof arch, "%d-64-1", (int)dom_facts_of(d)->inputs);
    fresh_net(&o, arch, 0, 2, 40);
    nn_model *m = NULL;
    CHECK_MSG(trn_avi_run(&o, &m) == 0 && m, "%s", hn_errmsg());
    double spread = 0, err = m ? distill_error(d, m, t, 5, 25, 80, &spread) : 1;
    fprintf(stderr, "distilled over a residual: error %g against a spread of %g\n", err, spread);
    CHECK_MSG(m && err < 0.4 * spread, "error %g, spread %g", err, spread);
    const char *res = m ? nn_model_get_meta_str(m, "residual") : NULL;
    CHECK(res && !strcmp(res, "manhattan"));
    nn_model_free(m);
    nn_model_set_meta_str(t, "residual", "");
    m = NULL;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    nn_model_free(t);
    dom_heur_free(md);
    dom_free(d);
}

/* Bellman Q (teacher_q without a teacher): from a fresh network, states
 * a few quarter turns out learn their children's distances (exact, from a
 * ball) move by move, so the least output names a move toward the goal. */
static void test_bellman(const dom *d)
{
    struct trn_avi_opts o;
    small_run(&o, d, 5, 12);
    fresh_net(&o, "480-128-12", 3, 2, 25);
    int st;
    dom_heur *par = dom_heur_open(d, "parity", &st);
    o.parity = par;
    nn_model *m = NULL;
    CHECK_MSG(trn_avi_run(&o, &m) == 0 && m, "%s", hn_errmsg());
    srch_dom_ball *ball = srch_dom_ball_new(d, 6, &st);
    CHECK(ball && par);
    if (!m || !ball || !par)
        return;
    const char *how = nn_model_get_meta_str(m, "avi_q_targets");
    CHECK(nn_model_outputs(m) == 12 && how && !strncmp(how, "Bellman", 7));
    size_t sb = dom_state_bytes(d);
    uint8_t *s = malloc((size_t)N * sb), *kids = malloc(12 * sb), sol[64], mv[12], aq[12];
    float *y = malloc(sizeof(float) * N * 12);
    hn_rng *r = hn_rng_new(79);
    for (int i = 0; i < N; i++)
        tdom_walk_solution(d, r, 1 + i % 4, s + (size_t)i * sb, sol);
    CHECK(tdom_dense_outputs(d, m, s, N, y) == 0);
    double err = 0;
    int toward = 0;
    for (int i = 0; i < N; i++) {
        const uint8_t *si = s + (size_t)i * sb;
        CHECK(dom_expand(d, si, DOM_PRUNE_ROOT, kids, mv, aq) == 12);
        int best = 0, ds = srch_dom_ball_dist(ball, si);
        for (int a = 0; a < 12; a++) {
            err += fabs(y[i * 12 + a] - srch_dom_ball_dist(ball, kids + (size_t)a * sb));
            best = y[i * 12 + a] < y[i * 12 + best] ? a : best;
        }
        toward += srch_dom_ball_dist(ball, kids + (size_t)best * sb) == ds - 1;
    }
    err /= N * 12;
    /* seen: error about 0.1, the least output toward the goal on nearly all;
     * a random move goes toward it on about 1 in 12 */
    fprintf(stderr, "bellman q: error %g, least output toward the goal on %d of %d\n", err, toward,
            N);
    CHECK_MSG(err < 0.5 && toward >= N * 9 / 10, "error %g, toward %d of %d", err, toward, N);
    hn_rng_free(r);
    free(y);
    free(kids);
    free(s);
    srch_dom_ball_free(ball);
    dom_heur_free(par);
    nn_model_free(m);
}

int main(void)
{
    int st;
    dom *d = dom_open("cube3", &st);
    CHECK(d != NULL);
    /* a teacher whose children differ clearly: a random network */
    nn_model *t = tdom_random_model("480-16-1", 3, 10.0, 4.0, NULL);
    nn_model_set_meta_str(t, "domain", "cube3");
    nn_model_set_encoder(t, dom_facts_of(d)->encoding);
    CHECK(nn_model_save(t, "test_trn_avi_q_teacher.h5") == 0);
    struct trn_avi_opts o;
    small_run(&o, d, 12, 11);
    o.teacher = t;
    o.teacher_name = "random teacher";
    o.init = "test_trn_avi_q_teacher.h5";
    /* from the teacher: its output repeated, recorded */
    o.rounds = 2;
    nn_model *q = NULL;
    CHECK_MSG(trn_avi_run(&o, &q) == 0 && q, "%s", hn_errmsg());
    if (q) {
        CHECK(nn_model_outputs(q) == 12);
        const char *name = nn_model_get_meta_str(q, "avi_teacher");
        CHECK(name && !strcmp(name, "random teacher"));
    }
    nn_model_free(q);
    /* a fresh student with room for twelve functions learns them */
    fresh_net(&o, "480-128-12", 10, 4, 60);
    q = NULL;
    CHECK_MSG(trn_avi_run(&o, &q) == 0 && q, "%s", hn_errmsg());
    if (q) {
        double right = q_error(d, t, q, 0), wrong = q_error(d, t, q, 5);
        nn_model *start = nn_model_repeat_output(t, 12, &st);
        double before = q_error(d, t, start, 0);
        nn_model_free(start);
        fprintf(stderr, "q error %g (the teacher repeated %g, moves shuffled %g)\n", right, before,
                wrong);
        CHECK_MSG(right < 0.25 * before && right < 0.25 * wrong, "error %g (start %g, shuffled %g)",
                  right, before, wrong);
    }
    nn_model_free(q);
    test_distill(d, t, &o);
    test_bellman(d);
    test_distill_residual();
    q = NULL;
    /* a teacher of two outputs, or a Q run without a domain: refused */
    nn_model *two = tdom_random_model("480-8-2", 3, 10.0, 4.0, NULL);
    nn_model_set_meta_str(two, "domain", "cube3");
    nn_model_set_encoder(two, dom_facts_of(d)->encoding);
    o.teacher = two;
    nn_model *x = NULL;
    CHECK(trn_avi_run(&o, &x) == HN_ERR_SHAPE && !x);
    nn_model_free(two);
    nn_model_free(q);
    nn_model_free(t);
    remove("test_trn_avi_q_teacher.h5");
    dom_free(d);
    return CHECK_DONE();
}
