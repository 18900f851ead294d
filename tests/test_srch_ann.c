/* The ANN heuristic and the searches of search/npuzzle/ann.h on the 8-puzzle:
 * batched and single evaluation agree with a direct forward pass, models of
 * another size or encoder are refused, every solution replays to the goal,
 * A* and batch A* at weight 1 are optimal with an admissible heuristic
 * (also when it goes through the network path), weighted A* and focal
 * search stay within their bounds. Optima come from a BFS table. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "np_replay.h"
#include "nn/nn.h"
#include "nn/sparse.h"
#include "np_bfs.h"
#include "search/npuzzle/ann.h"
#include "search/npuzzle/encode.h"

#define NBOARDS 40

static uint8_t *dist;

static int optimum(const srch_np_board *b)
{
    return dist[srch_np_board_rank(b)];
}

/* A small random network that reads 8-puzzle boards; outputs scaled to the
 * range of 8-puzzle distances so searches with it terminate quickly. */
static nn_model *small_model(const char *encoder)
{
    struct nn_spec spec;
    if (nn_spec_parse("81-32-16-1", NULL, &spec))
        return NULL;
    nn_model *m = nn_model_new(&spec, 7, NULL);
    if (m) {
        nn_model_set_encoder(m, encoder);
        nn_model_set_target(m, 20.0, 4.0);
    }
    return m;
}

/* A one-layer network that computes `factor` times the Manhattan distance
 * (blank-first goal) of its one-hot input exactly: an admissible network
 * for factor 1, a bounded over-estimate above. */
static nn_model *manhattan_model(double factor)
{
    struct nn_spec spec;
    if (nn_spec_parse("81-1", NULL, &spec))
        return NULL;
    nn_model *m = nn_model_new(&spec, 1, NULL);
    struct nn_layer_info li;
    if (!m || nn_model_layer(m, 0, &li)) {
        nn_model_free(m);
        return NULL;
    }
    nn_model_set_encoder(m, "npuzzle-onehot n=3 goal=blank-first");
    for (int t = 0; t < 9; t++)
        for (int p = 0; p < 9; p++)
            li.kernel[t * 9 + p] =
                t ? (float)(factor * (abs(p / 3 - t / 3) + abs(p % 3 - t % 3))) : 0.0f;
    li.bias[0] = 0;
    return m;
}

/* An 8-puzzle network heuristic without a floor (NULL on error). */
static srch_np_heur *ann8(const nn_model *m, int goal, const srch_np_ann_opts *o)
{
    int st;
    return srch_np_heur_ann_new(m, "t", 3, goal, NULL, o, &st);
}

static void test_values(const nn_model *m, const srch_np_board *boards, int goal)
{
    srch_np_ann_opts dense = SRCH_NP_ANN_DEFAULTS, nocache = SRCH_NP_ANN_DEFAULTS,
                     small = SRCH_NP_ANN_DEFAULTS;
    dense.engine = nocache.engine = small.engine = SRCH_NP_ANN_DENSE; /* bit for bit */
    nocache.cache_bits = 0;
    small.max_batch = 3; /* forces several network calls per batch */
    srch_np_heur *a = ann8(m, goal, &dense);
    srch_np_heur *b = ann8(m, goal, &nocache);
    srch_np_heur *c = ann8(m, goal, &small);
    CHECK(a && b && c);
    if (!a || !b || !c)
        return;
    nn_infer *inf = nn_infer_new(m, NBOARDS, NULL);
    float x[NBOARDS * 81], y[NBOARDS], est[NBOARDS];
    for (int i = 0; i < NBOARDS; i++)
        srch_np_encode_onehot(&boards[i], goal, SRCH_NP_GOAL_BLANK_FIRST, x + 81 * i);
    CHECK(inf && nn_infer_run(inf, x, NBOARDS, y) == 0);
    int ha[NBOARDS], hb[NBOARDS], hc[NBOARDS];
    CHECK(srch_np_heur_eval_batch(a, boards, NBOARDS, ha) == 0);
    CHECK(srch_np_heur_eval_batch(b, boards, NBOARDS, hb) == 0);
    CHECK(srch_np_heur_eval_batch(c, boards, NBOARDS, hc) == 0);
    CHECK(srch_np_heur_ann_estimate(a, boards, NBOARDS, est) == 0); /* from the cache now */
    int same = 1;
    for (int i = 0; i < NBOARDS; i++) {
        int one = srch_np_heur_eval(b, &boards[i]);
        long want = lround(y[i]) < 0 ? 0 : lround(y[i]);
        same &= ha[i] == want && hb[i] == want && hc[i] == want && one == want && est[i] == y[i];
    }
    CHECK_MSG(same, "batched, single, cached and direct forward values differ");
    srch_np_ann_stats sa, sc;
    srch_np_heur_ann_thread_stats(a, &sa);
    srch_np_heur_ann_thread_stats(c, &sc);
    CHECK(sa.rows == NBOARDS && sa.hits == NBOARDS && sa.calls == 1);
    CHECK(sc.calls == (NBOARDS + 2) / 3);
    srch_np_board g;
    srch_np_board_goal(&g, 3, goal);
    CHECK(srch_np_heur_eval(a, &g) == 0);
    nn_infer_free(inf);
    srch_np_heur_free(a);
    srch_np_heur_free(b);
    srch_np_heur_free(c);
}

/* Resident memory of this process in MB (VmRSS), or -1. */
static long rss_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb < 0 ? -1 : kb / 1024;
}

/* Issue 48: the cache was filled with a marker up front, so cache:N cost
 * 24 * 2^N bytes of memory before the first board (6.4 GB at cache:28).
 * A 400 MB cache that has seen a few boards must stay nearly untouched. */
static void test_cache_lazy(const nn_model *m, const srch_np_board *boards, int goal)
{
    srch_np_ann_opts big = SRCH_NP_ANN_DEFAULTS;
    big.cache_bits = 24;
    long before = rss_mb();
    srch_np_heur *h = ann8(m, goal, &big);
    int hv[NBOARDS];
    CHECK(h && srch_np_heur_eval_batch(h, boards, NBOARDS, hv) == 0);
    CHECK(h && srch_np_heur_eval_batch(h, boards, NBOARDS, hv) == 0); /* hits */
    long after = rss_mb();
    CHECK_MSG(before >= 0 && after - before < 64, "a 400 MB cache made %ld MB resident",
              after - before);
    srch_np_heur_free(h);
}

/* The sparse engines against the dense one, with and without mirror: SPARSE
 * within float rounding, Q8 (with 32- and 16-bit accumulators) within its
 * quantization error (nn/sparse.h); and since accumulators are exact, the
 * values do not depend on the order boards come in (forward, then
 * backward, no cache). */
static void test_engines(const nn_model *m, const srch_np_board *boards, int goal)
{
    int rc = 0;
    nn_sparse *q16 = nn_sparse_new_bounded(m, NN_SPARSE_Q8, 1, 9, &rc);
    CHECK_MSG(q16 && nn_sparse_acc_bits(q16) == 16, "acc16 does not apply to the test model");
    nn_sparse_free(q16);
    for (int mir = 0; mir < 2; mir++)
        for (int v = 0; v < 3; v++) { /* SPARSE, Q8, Q8 with acc16 */
            int e = v ? SRCH_NP_ANN_Q8 : SRCH_NP_ANN_SPARSE;
            srch_np_ann_opts od = SRCH_NP_ANN_DEFAULTS, oe = SRCH_NP_ANN_DEFAULTS;
            od.mirror = oe.mirror = mir;
            od.engine = SRCH_NP_ANN_DENSE;
            oe.engine = e;
            oe.acc16 = v == 2;
            oe.cache_bits = 0;
            oe.max_batch = 4; /* rows derived across calls, too */
            srch_np_heur *d = ann8(m, goal, &od), *h = ann8(m, goal, &oe);
            CHECK(d && h);
            if (!d || !h)
                continue;
            float yd[NBOARDS], yf[NBOARDS], yb[NBOARDS];
            srch_np_board rev[NBOARDS];
            for (int i = 0; i < NBOARDS; i++)
                rev[i] = boards[NBOARDS - 1 - i];
            CHECK(srch_np_heur_ann_estimate(d, boards, NBOARDS, yd) == 0);
            CHECK(srch_np_heur_ann_estimate(h, boards, NBOARDS, yf) == 0);
            CHECK(srch_np_heur_ann_estimate(h, rev, NBOARDS, yb) == 0);
            double worst = 0.0;
            int same = 1;
            for (int i = 0; i < NBOARDS; i++) {
                worst = fmax(worst, fabs((double)yf[i] - yd[i]));
                same &= yf[i] == yb[NBOARDS - 1 - i];
            }
            srch_np_ann_stats st;
            srch_np_heur_ann_thread_stats(h, &st);
            /* random boards share few tiles; derived rows come from
             * neighbours in test_searches, here only some */
            CHECK(st.rows == (uint64_t)(2 * NBOARDS * (1 + mir)));
            /* SPARSE: float rounding of outputs near 20; Q8: 8-bit weights
             * and inputs, on an output of std 4 (measured max ~0.1) */
            double tol = e == SRCH_NP_ANN_SPARSE ? 1e-4 : 0.4;
            CHECK_MSG(worst <= tol, "engine %d acc16 %d mirror %d: |diff| %g > %g", e, oe.acc16,
                      mir, worst, tol);
            CHECK_MSG(same, "engine %d acc16 %d mirror %d: values depend on the order", e, oe.acc16,
                      mir);
            srch_np_heur_free(d);
            srch_np_heur_free(h);
        }
}

/* With `mirror` every value is the mean of the network's outputs for the board
 * and its diagonal mirror — batched, in small batches (a pair never split
 * across calls), one at a time and from the cache alike. max_batch 1 cannot
 * hold a pair and is refused. */
static void test_mirror(const nn_model *m, const srch_np_board *boards, int goal)
{
    srch_np_ann_opts mir = SRCH_NP_ANN_DEFAULTS, odd = SRCH_NP_ANN_DEFAULTS;
    mir.mirror = odd.mirror = 1;
    mir.scale = odd.scale = 1000;
    odd.max_batch = 3;
    odd.cache_bits = 0;
    int st;
    srch_np_heur *plain = ann8(m, goal, NULL);
    srch_np_heur *a = ann8(m, goal, &mir);
    srch_np_heur *c = ann8(m, goal, &odd);
    CHECK(plain && a && c);
    if (!plain || !a || !c)
        return;
    srch_np_board mirrored[NBOARDS];
    float y[NBOARDS], ym[NBOARDS], est[NBOARDS];
    for (int i = 0; i < NBOARDS; i++)
        srch_np_board_transpose(&boards[i], goal, &mirrored[i]);
    CHECK(srch_np_heur_ann_estimate(plain, boards, NBOARDS, y) == 0);
    CHECK(srch_np_heur_ann_estimate(plain, mirrored, NBOARDS, ym) == 0);
    int ha[NBOARDS], hc[NBOARDS], same = 1, differ = 0;
    CHECK(srch_np_heur_eval_batch(a, boards, NBOARDS, ha) == 0);
    CHECK(srch_np_heur_eval_batch(c, boards, NBOARDS, hc) == 0);
    CHECK(srch_np_heur_ann_estimate(a, boards, NBOARDS, est) == 0); /* cached means */
    for (int i = 0; i < NBOARDS; i++) {
        float mean = 0.5f * y[i] + 0.5f * ym[i];
        long want = srch_np_board_is_goal(&boards[i], goal) ? 0 : lround(mean * 1000.0);
        want = want < 0 ? 0 : want;
        same &= labs(ha[i] - want) <= 1 && ha[i] == hc[i] &&
                ha[i] == srch_np_heur_eval(c, &boards[i]) && fabsf(est[i] - mean) < 1e-5f;
        differ += fabsf(y[i] - ym[i]) > 1e-3f;
    }
    CHECK_MSG(same, "mirror values are not the mean of board and mirror");
    CHECK(differ > NBOARDS / 2); /* the network is not symmetric: the test has teeth */
    srch_np_ann_stats sa;
    srch_np_heur_ann_thread_stats(a, &sa);
    CHECK(sa.rows == 2 * NBOARDS);
    odd.max_batch = 1;
    CHECK(!srch_np_heur_ann_new(m, "t", 3, goal, NULL, &odd, &st) && st == HN_ERR_ARG);
    srch_np_heur_free(plain);
    srch_np_heur_free(a);
    srch_np_heur_free(c);
}

static void test_refusals(void)
{
    int st;
    nn_model *m15 = small_model("npuzzle-onehot n=4 goal=blank-first");
    nn_model *emp = small_model("emp-move-v1");
    srch_np_heur *h = srch_np_heur_ann_new(m15, "m15.h5", 3, 0, NULL, NULL, &st);
    CHECK(!h && st == HN_ERR_ARG && strstr(hn_errmsg(), "15-puzzle") &&
          strstr(hn_errmsg(), "m15.h5"));
    h = srch_np_heur_ann_new(emp, "emp.h5", 3, 0, srch_np_heur_manhattan_new(3, 0, NULL), NULL,
                             &st);
    CHECK(!h && st == HN_ERR_FORMAT && strstr(hn_errmsg(), "emp-move-v1"));
    srch_np_ann_opts bad = SRCH_NP_ANN_DEFAULTS;
    bad.scale = 0;
    nn_model *m8 = small_model("npuzzle-onehot n=3 goal=blank-first");
    CHECK(!srch_np_heur_ann_new(m8, "m8", 3, 0, NULL, &bad, &st) && st == HN_ERR_ARG);
    nn_model_free(m15);
    nn_model_free(emp);
    nn_model_free(m8);
}

/* Search every board; check replay and length against the optimum. */
typedef int (*search_fn)(const srch_np_board *, void *, srch_np_result *);

static void check_searches(const char *what, search_fn fn, void *ctx, const srch_np_board *boards,
                           int goal, double bound, double slack)
{
    int ok = 1, valid = 1, within = 1;
    for (int i = 0; i < NBOARDS; i++) {
        srch_np_result r;
        if (fn(&boards[i], ctx, &r)) {
            ok = 0;
            continue;
        }
        valid &= replays(&boards[i], &r, goal);
        int opt = optimum(&boards[i]);
        within &= r.length >= opt && r.length <= bound * opt + slack + 1e-9;
    }
    CHECK_MSG(ok && valid && within, "%s: solved %d, replay %d, within bound %g: %d", what, ok,
              valid, bound, within);
}

typedef struct {
    const srch_np_heur *h, *adm;
    srch_np_bfs_opts o;
    double bound;
} run_ctx;

static int run_astar(const srch_np_board *b, void *c, srch_np_result *r)
{
    return srch_np_astar(b, ((run_ctx *)c)->h, NULL, r);
}

static int run_batch(const srch_np_board *b, void *c, srch_np_result *r)
{
    return srch_np_batch_astar(b, ((run_ctx *)c)->h, &((run_ctx *)c)->o, NULL, r);
}

static int run_focal(const srch_np_board *b, void *c, srch_np_result *r)
{
    run_ctx *x = c;
    return srch_np_focal(b, x->adm, x->h, x->bound, NULL, r);
}

static void test_searches(const srch_np_board *boards, int goal)
{
    int st;
    srch_np_heur *lc = srch_np_heur_lc_new(3, goal, &st);
    /* networks that compute Manhattan distance (admissible) and 1.3 times it */
    nn_model *m1 = manhattan_model(1.0), *m13 = manhattan_model(1.3);
    srch_np_ann_opts far = SRCH_NP_ANN_DEFAULTS, fixed = SRCH_NP_ANN_DEFAULTS;
    far.delta = 100;
    fixed.scale = 100;
    srch_np_heur *adm_net = srch_np_heur_ann_new(m1, "t", 3, goal, NULL, NULL, &st);
    srch_np_heur *net = srch_np_heur_ann_new(m13, "t", 3, goal, NULL, NULL, &st);
    srch_np_heur *net_fixed = srch_np_heur_ann_new(m13, "t", 3, goal, NULL, &fixed, &st);
    /* max(ann - 100, lc): the floor decides */
    srch_np_heur *floor_net =
        srch_np_heur_ann_new(m13, "t", 3, goal, srch_np_heur_lc_new(3, goal, NULL), &far, &st);
    nn_model_free(m1);
    nn_model_free(m13);
    CHECK(floor_net != NULL);
    CHECK(lc && adm_net && net && net_fixed);
    if (!lc || !adm_net || !net || !net_fixed)
        return;
    run_ctx c = {.h = lc, .o = {.batch = 1, .weight = 1}};
    check_searches("A* lc", run_astar, &c, boards, goal, 1.0, 0);
    int batches[] = {1, 4, 16, 64};
    for (int i = 0; i < 4; i++) {
        c.o.batch = batches[i];
        c.h = lc;
        check_searches("batch A* lc", run_batch, &c, boards, goal, 1.0, 0);
        c.h = adm_net;
        check_searches("batch A* manhattan network", run_batch, &c, boards, goal, 1.0, 0);
        c.h = floor_net;
        check_searches("batch A* max(ann-100, lc)", run_batch, &c, boards, goal, 1.0, 0);
    }
    c.h = adm_net;
    check_searches("A* manhattan network", run_astar, &c, boards, goal, 1.0, 0);
    c.o = (srch_np_bfs_opts){.batch = 1, .weight = 2.0};
    c.h = lc;
    check_searches("weighted A* w=2", run_batch, &c, boards, goal, 2.0, 0);
    double bounds[] = {1.0, 1.05, 1.2, 1.5};
    c.adm = lc;
    for (int i = 0; i < 4; i++) {
        c.bound = bounds[i];
        c.h = net;
        check_searches("focal (1.3 manhattan network guide)", run_focal, &c, boards, goal,
                       bounds[i], 0);
        c.h = net_fixed;
        check_searches("focal (fixed-point guide)", run_focal, &c, boards, goal, bounds[i], 0);
    }
    /* h <= 1.3 h*: A* and batch A* stay within 1.3 of optimal */
    c.o = (srch_np_bfs_opts){.batch = 8, .weight = 1};
    c.h = net_fixed;
    check_searches("batch A* 1.3 manhattan network", run_batch, &c, boards, goal, 1.3, 0);
    c.h = net; /* rounded: h <= 1.3 h* + 0.5, so the cost is <= 1.3 C* + 0.5 */
    check_searches("A* 1.3 manhattan network", run_astar, &c, boards, goal, 1.3, 0.5);
    srch_np_result r;
    srch_np_board g;
    srch_np_board_goal(&g, 3, goal);
    CHECK(srch_np_batch_astar(&g, net, NULL, NULL, &r) == 0 && r.length == 0);
    CHECK(srch_np_focal(&g, lc, net, 1.1, NULL, &r) == 0 && r.length == 0);
    c.o.batch = 0;
    CHECK(srch_np_batch_astar(&boards[0], lc, &c.o, NULL, &r) == HN_ERR_ARG);
    CHECK(srch_np_focal(&boards[0], lc, net, 0.9, NULL, &r) == HN_ERR_ARG);
    srch_np_heur_free(lc);
    srch_np_heur_free(adm_net);
    srch_np_heur_free(net);
    srch_np_heur_free(net_fixed);
    srch_np_heur_free(floor_net);
}

/* Mostly uniform boards (mean distance 22), some short random walks. */
static void random_board(srch_np_board *b, int goal, int i, hn_rng *rng)
{
    if (i % 4 == 3)
        srch_np_board_random_walk(b, 3, goal, 12, rng);
    else
        srch_np_board_random(b, 3, goal, rng);
}

int main(void)
{
    dist = bfs8(SRCH_NP_GOAL_BLANK_FIRST);
    uint8_t *dist_last = bfs8(SRCH_NP_GOAL_BLANK_LAST);
    nn_model *m = small_model("npuzzle-onehot n=3 goal=blank-first");
    hn_rng *rng = hn_rng_new(11);
    CHECK(dist && dist_last && m && rng);
    if (!dist || !dist_last || !m || !rng)
        return CHECK_DONE();
    srch_np_board boards[NBOARDS];
    for (int i = 0; i < NBOARDS; i++)
        random_board(&boards[i], SRCH_NP_GOAL_BLANK_FIRST, i, rng);
    test_values(m, boards, SRCH_NP_GOAL_BLANK_FIRST);
    test_cache_lazy(m, boards, SRCH_NP_GOAL_BLANK_FIRST);
    test_engines(m, boards, SRCH_NP_GOAL_BLANK_FIRST);
    test_mirror(m, boards, SRCH_NP_GOAL_BLANK_FIRST);
    test_refusals();
    test_searches(boards, SRCH_NP_GOAL_BLANK_FIRST);
    /* a blank-last run with the blank-first model: boards are converted */
    free(dist);
    dist = dist_last;
    for (int i = 0; i < NBOARDS; i++)
        random_board(&boards[i], SRCH_NP_GOAL_BLANK_LAST, i, rng);
    test_values(m, boards, SRCH_NP_GOAL_BLANK_LAST);
    test_engines(m, boards, SRCH_NP_GOAL_BLANK_LAST);
    test_mirror(m, boards, SRCH_NP_GOAL_BLANK_LAST);
    test_searches(boards, SRCH_NP_GOAL_BLANK_LAST);
    free(dist);
    hn_rng_free(rng);
    nn_model_free(m);
    return CHECK_DONE();
}
