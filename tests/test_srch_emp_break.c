/* The learned break gate of the backtracker (emp-break-v1's incremental
 * counts are checked against a recount in test_srch_emp_place): its
 * features follow the neighbours; the break sampler is reproducible by seed with labels
 * in range; a break model's decision is read from the file and models of
 * another decision, encoder or width are refused; a gate that allows every
 * break searches exactly as no gate does, and one that allows none never
 * leaves a join open. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "search/emp/emp.h"
#include "search/emp/srch_em_place.h"
#include "tests/check.h"
#include "tests/emp_check.h"

enum { W = 7, H = 6, N = W * H };

static void test_features(void)
{
    emp_feats x;
    int ok = emp_feats_open(&x, 5);
    srch_em_board *ref = x.ref;
    srch_em_pfeat *f = x.f;
    hn_rng *rng = x.rng;
    CHECK(ok);
    if (!ok)
        goto out;
    srch_em_board_random(ref, rng);
    /* the features follow the neighbours: with cell 8's west and north
     * neighbours placed it has colours to match (rarity > 0), alone none */
    float a[SRCH_EM_BREAK_DIM], b[SRCH_EM_BREAK_DIM];
    srch_em_place_ctx ctx = {.depths = N, .budget = 4};
    srch_em_bfeat_encode(f, 8, &ctx, a);
    srch_em_pfeat_push(f, 1, srch_em_board_piece(ref, 1), srch_em_board_rot(ref, 1));
    srch_em_pfeat_push(f, 7, srch_em_board_piece(ref, 7), srch_em_board_rot(ref, 7));
    srch_em_bfeat_encode(f, 8, &ctx, b);
    CHECK(a[9] == 0 && a[10] == 0 && b[9] > 0 && b[10] > 0); /* rarity of w and n colours */
    CHECK(a[13] == 1 && a[15] > 0 && b[5] >= 0);
out:
    emp_feats_close(&x);
}

typedef struct {
    int n, bad_states;
    float x[40 * SRCH_EM_BREAK_DIM], y[40];
} rows;

static int collect(void *user, int state, const float *x, float y)
{
    rows *r = user;
    if (r->n == 40)
        return HN_ERR_LIMIT;
    r->bad_states += state != r->n; /* one row per state, numbered in order */
    memcpy(r->x + (size_t)r->n * SRCH_EM_BREAK_DIM, x, sizeof(float) * SRCH_EM_BREAK_DIM);
    r->y[r->n++] = y;
    return HN_OK;
}

static int sample(const srch_em_inst *in, uint64_t seed, rows *r)
{
    srch_em_place_sample_opts o = SRCH_EM_PLACE_SAMPLE_DEFAULTS;
    o.states = 12, o.runs = 2, o.probe_nodes = 2000, o.rate = 0.05, o.restart_nodes = 20000;
    o.breaks = 6, o.seed = seed;
    memset(r, 0, sizeof *r);
    int base = 0, st = srch_em_break_sample(in, &o, collect, r, &base);
    return st == HN_OK && base == 12 ? HN_OK : HN_ERR_LIMIT;
}

static void test_sampler(void)
{
    /* an inner clue turned a quarter, so no board is perfect and the driving
     * search keeps a budget to break with */
    srch_em_inst *in = emp_clued(8, 8, 5, 1);
    rows *a = calloc(3, sizeof *a);
    CHECK(in && a);
    if (!in || !a)
        goto out;
    CHECK(sample(in, 7, &a[0]) == HN_OK);
    CHECK(sample(in, 7, &a[1]) == HN_OK);
    CHECK(sample(in, 8, &a[2]) == HN_OK);
    CHECK(a[0].bad_states == 0);
    CHECK(!memcmp(&a[0], &a[1], sizeof *a));
    CHECK(memcmp(a[0].x, a[2].x, sizeof a[0].x) != 0);
    /* a label is a difference of two probes, each the deepest cell (at most
     * the 64 cells) plus at most 1 + the budget (7 at the last cell); the
     * sampled cells are past the first break depth with room for a break */
    int bad = 0, nonzero = 0;
    for (int i = 0; i < a[0].n; i++) {
        const float *x = a[0].x + (size_t)i * SRCH_EM_BREAK_DIM;
        bad += !(fabsf(a[0].y[i]) <= 64 + 8) || x[0] < 0.7f || x[3] <= 0;
        nonzero += a[0].y[i] != 0;
    }
    CHECK_MSG(bad == 0, "%d rows out of range", bad);
    CHECK(nonzero > 0); /* the decision does change what the probes reach */
out:
    free(a);
    srch_em_inst_free(in);
}

static void test_refused(const srch_em_inst *in)
{
    int st;
    CHECK(emp_save_model("t_break_ok.h5", "16-8-1", SRCH_EM_BREAK_ENCODER, "break") == 0);
    CHECK(emp_save_model("t_break_place.h5", "16-8-1", SRCH_EM_BREAK_ENCODER, "place") == 0);
    CHECK(emp_save_model("t_break_w.h5", "18-8-1", SRCH_EM_BREAK_ENCODER, "break") == 0);
    CHECK(emp_save_model("t_break_enc.h5", "16-8-1", SRCH_EM_PLACE_ENCODER, "break") == 0);
    CHECK(!strcmp(srch_em_model_decision("t_break_ok.h5", &st), "break"));
    CHECK(!strcmp(srch_em_model_decision("t_break_place.h5", &st), "place"));
    srch_em_break_gate *g = srch_em_break_gate_new("t_break_place.h5", in, NAN, 10, &st);
    CHECK(!g && st == HN_ERR_FORMAT && strstr(hn_errmsg(), "t_break_place.h5"));
    g = srch_em_break_gate_new("t_break_w.h5", in, NAN, 10, &st);
    CHECK(!g && st == HN_ERR_SHAPE && strstr(hn_errmsg(), "18 inputs"));
    g = srch_em_break_gate_new("t_break_enc.h5", in, NAN, 10, &st);
    CHECK(!g && st == HN_ERR_FORMAT && strstr(hn_errmsg(), "emp-break-v1"));
    g = srch_em_break_gate_new("t_break_ok.h5", in, NAN, 3, &st);
    CHECK(!g && st == HN_ERR_ARG);
}

/* Every better board a search finds, in order: (placements, breaks). */
typedef struct {
    int n;
    long nodes[64];
    int breaks[64];
} trail;

static void on_board(const srch_em_scan_result *res, void *user)
{
    trail *t = user;
    if (t->n < 64)
        t->nodes[t->n] = res->nodes, t->breaks[t->n++] = res->breaks;
}

/* A backtracking start on `in` with seed 4 and an optional gate. */
static int run(const srch_em_inst *in, srch_em_break_gate *g, trail *t, srch_em_scan_result *res,
               int *legal)
{
    int st;
    srch_em_board *b = srch_em_board_new(in, &st);
    hn_rng *rng = hn_rng_new(4);
    memset(t, 0, sizeof *t);
    if (!b || !rng) {
        srch_em_board_free(b), hn_rng_free(rng);
        return -1;
    }
    srch_em_scan_opts o = SRCH_EM_SCAN_OPTS_DEFAULTS;
    /* the clock only guards against a hang: every run here searches its tree
     * to the end, so what it asserts does not depend on the machine's speed */
    o.seconds = 600, o.cpu_clock = 1, o.breaks = 6, o.restart_nodes = 1L << 40, o.gate = g;
    o.on_board = on_board, o.user = t;
    st = srch_em_scan(b, &o, rng, res);
    int piece[N], rot[N], v;
    srch_em_board_get(b, piece, rot);
    int score = srch_em_sol_check(in, piece, rot, &v, NULL, 0);
    *legal = v == 0 && score == srch_em_board_score(b);
    srch_em_board_free(b);
    hn_rng_free(rng);
    return st;
}

static void test_gate(void)
{
    srch_em_inst *in = emp_clued(7, 6, 17, 0);
    CHECK(in != NULL);
    if (!in)
        return;
    test_refused(in);
    int st, legal;
    trail t0, t1, t2;
    srch_em_scan_result r0, r1, r2;
    /* one restart that runs until it exhausts its tree: the whole search is
     * deterministic, so "gate off" must reproduce it placement by placement */
    CHECK(run(in, NULL, &t0, &r0, &legal) == HN_OK && legal);
    srch_em_break_gate *g = srch_em_break_gate_new("t_break_ok.h5", in, -INFINITY, 10, &st);
    CHECK(g != NULL);
    if (g) {
        CHECK(run(in, g, &t1, &r1, &legal) == HN_OK && legal);
        CHECK_MSG(r0.restarts == 1 && r0.seconds < 590, "the search must exhaust its tree");
        CHECK(r0.nodes == r1.nodes && r0.boards == r1.boards && r0.breaks == r1.breaks);
        CHECK(t0.n > 0 && !memcmp(&t0, &t1, sizeof t0));
        srch_em_break_stats bs;
        srch_em_break_gate_stats(g, &bs);
        CHECK(bs.calls > 0 && bs.hits > 0 && bs.denied == 0 && bs.allowed == bs.calls + bs.hits);
        srch_em_break_gate_free(g);
    }
    /* the random ablation refusing nothing is the ungated search too */
    g = srch_em_break_gate_new("t_break_ok.h5", in, 0, 10, &st);
    CHECK(g != NULL);
    if (g) {
        srch_em_break_gate_set_random(g, 0);
        CHECK(run(in, g, &t1, &r1, &legal) == HN_OK && legal);
        CHECK(r0.nodes == r1.nodes && !memcmp(&t0, &t1, sizeof t0));
        srch_em_break_gate_free(g);
    }
    /* a gate that allows no break: every complete board is perfect, and the
     * break phases are never entered */
    g = srch_em_break_gate_new("t_break_ok.h5", in, INFINITY, 10, &st);
    CHECK(g != NULL);
    if (g) {
        CHECK(run(in, g, &t2, &r2, &legal) == HN_OK && legal);
        CHECK(!r2.complete || r2.breaks == 0);
        CHECK(r2.nodes < r0.nodes);
        srch_em_break_stats bs;
        srch_em_break_gate_stats(g, &bs);
        CHECK(bs.allowed == 0 && bs.denied > 0);
        srch_em_break_gate_free(g);
    }
    srch_em_inst_free(in);
}

int main(void)
{
    test_features();
    test_sampler();
    test_gate();
    return CHECK_DONE();
}
