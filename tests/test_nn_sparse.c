/* The sparse path against the dense reference: accumulators from active
 * inputs and from chains of moves give nn_infer_run's outputs; the int8
 * kernels agree with the scalar one exactly and with float within a bound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nn/sparse.h"

#define SIDE 4
#define CELLS 16
#define INPUTS (CELLS * CELLS)

/* A 15-puzzle-like board: tile[cell], blank = tile 0; one-hot input
 * tile * 16 + cell is active for every cell. */
typedef struct {
    int tile[CELLS];
    int blank;
} board;

static void board_active(const board *b, int *idx)
{
    for (int p = 0; p < CELLS; p++)
        idx[p] = b->tile[p] * CELLS + p;
}

static void board_random(board *b, hn_rng *r)
{
    for (int p = 0; p < CELLS; p++)
        b->tile[p] = p;
    for (int p = CELLS - 1; p > 0; p--) {
        int q = (int)hn_rng_below(r, (uint32_t)p + 1), t = b->tile[p];
        b->tile[p] = b->tile[q];
        b->tile[q] = t;
    }
    for (int p = 0; p < CELLS; p++)
        if (b->tile[p] == 0)
            b->blank = p;
}

/* Move the blank to a random neighbour; removed/added get the 2 + 2 inputs
 * that change. */
static void board_move(board *b, hn_rng *r, int *removed, int *added)
{
    int to;
    do {
        int d = (int)hn_rng_below(r, 4), row = b->blank / SIDE, col = b->blank % SIDE;
        row += d == 0 ? -1 : d == 1 ? 1 : 0;
        col += d == 2 ? -1 : d == 3 ? 1 : 0;
        to = row >= 0 && row < SIDE && col >= 0 && col < SIDE ? row * SIDE + col : -1;
    } while (to < 0);
    int t = b->tile[to], from = b->blank;
    removed[0] = 0 * CELLS + from;
    removed[1] = t * CELLS + to;
    b->tile[from] = t;
    b->tile[to] = 0;
    b->blank = to;
    added[0] = 0 * CELLS + to;
    added[1] = t * CELLS + from;
}

static void encode(const board *b, float *x)
{
    memset(x, 0, sizeof(float) * INPUTS);
    for (int p = 0; p < CELLS; p++)
        x[b->tile[p] * CELLS + p] = 1.0f;
}

/* A random network with non-trivial batch norm and target scaling, so that
 * folding is exercised. */
static nn_model *random_model(const char *arch, uint64_t seed)
{
    struct nn_spec sp;
    int st = 0;
    if (nn_spec_parse(arch, NULL, &sp))
        return NULL;
    nn_model *m = nn_model_new(&sp, seed, &st);
    if (!m)
        return NULL;
    hn_rng *r = hn_rng_new(seed + 1);
    size_t n;
    float *state = nn_model_state(m, &n);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info li;
        nn_model_layer(m, l, &li);
        for (int j = 0; li.has_bn && j < li.out; j++) {
            li.moving_mean[j] = (float)hn_rng_gauss(r, 0.5);
            li.moving_var[j] = 0.5f + (float)hn_rng_uniform(r);
            li.gamma[j] = 0.5f + (float)hn_rng_uniform(r);
            li.beta[j] = (float)hn_rng_gauss(r, 0.3);
        }
        for (int j = 0; j < li.out; j++)
            li.bias[j] = (float)hn_rng_gauss(r, 0.1);
    }
    (void)state;
    nn_model_set_target(m, 30.0, 8.0);
    hn_rng_free(r);
    return m;
}

/* Random boards: sparse float (acc_init) against nn_infer_run, batch 1 and 7. */
static void test_random_boards(nn_model *m)
{
    int st = 0;
    nn_infer *inf = nn_infer_new(m, 8, &st);
    nn_sparse *sp = nn_sparse_new(m, NN_SPARSE_FLOAT, 8, &st);
    CHECK(inf && sp);
    if (!inf || !sp)
        goto done;
    int stride = nn_sparse_acc_stride(sp);
    CHECK(stride % 16 == 0 && stride >= 1);
    int32_t *acc = calloc((size_t)8 * stride, sizeof *acc);
    float x[8 * INPUTS], y0[8], y1[8];
    hn_rng *r = hn_rng_new(5);
    board b;
    int idx[CELLS];
    for (int rep = 0; rep < 20; rep++) {
        int n = rep % 2 ? 7 : 1;
        for (int i = 0; i < n; i++) {
            board_random(&b, r);
            board_active(&b, idx);
            encode(&b, x + i * INPUTS);
            nn_sparse_acc_init(sp, idx, CELLS, acc + (size_t)i * stride);
        }
        CHECK(nn_infer_run(inf, x, n, y0) == 0);
        CHECK(nn_sparse_run(sp, acc, n, y1) == 0);
        /* first-layer weights rounded to 2^-20 or finer, then the same
         * float operations: differences of a few ulps of the sums */
        for (int i = 0; i < n; i++)
            CHECK_CLOSE(y1[i], y0[i], 1e-5);
    }
    CHECK(nn_sparse_run(sp, acc, 0, y1) == HN_ERR_ARG);
    CHECK(nn_sparse_run(sp, acc, 9, y1) == HN_ERR_ARG);
    hn_rng_free(r);
    free(acc);
done:
    nn_infer_free(inf);
    nn_sparse_free(sp);
}

/* A random board b and its accumulator: where a walk starts. */
static void walk_start(const nn_sparse *sp, board *b, hn_rng *r, int32_t *acc)
{
    int idx[CELLS];
    board_random(b, r);
    board_active(b, idx);
    nn_sparse_acc_init(sp, idx, CELLS, acc);
}

/* 100 random moves of b with acc updated in place, then a fresh accumulator
 * of the board reached into `fresh`: 1 if the two are equal bit for bit. */
static int walk_100(const nn_sparse *sp, board *b, hn_rng *r, int32_t *acc, int32_t *fresh)
{
    int idx[CELLS], rem[2], add[2];
    for (int step = 0; step < 100; step++) {
        board_move(b, r, rem, add);
        nn_sparse_acc_update(sp, acc, rem, 2, add, 2, acc);
    }
    board_active(b, idx);
    nn_sparse_acc_init(sp, idx, CELLS, fresh);
    return !memcmp(acc, fresh, sizeof *acc * nn_sparse_acc_stride(sp));
}

/* A random walk of 2000 moves with the accumulator updated in place; every
 * 100 moves it must equal a fresh acc_init bit for bit (fixed-point sums
 * are exact) and give the dense outputs. */
static void test_move_chain(nn_model *m)
{
    int st = 0;
    nn_infer *inf = nn_infer_new(m, 1, &st);
    nn_sparse *sp = nn_sparse_new(m, NN_SPARSE_FLOAT, 1, &st);
    CHECK(inf && sp);
    if (!inf || !sp)
        goto done;
    int stride = nn_sparse_acc_stride(sp);
    int32_t *acc = calloc((size_t)stride, sizeof *acc),
            *fresh = calloc((size_t)stride, sizeof *fresh);
    float x[INPUTS], y0, y1;
    hn_rng *r = hn_rng_new(9);
    board b;
    walk_start(sp, &b, r, acc);
    int same = 1;
    for (int k = 0; k < 20; k++) {
        same &= walk_100(sp, &b, r, acc, fresh);
        encode(&b, x);
        nn_infer_run(inf, x, 1, &y0);
        nn_sparse_run(sp, acc, 1, &y1);
        CHECK_CLOSE(y1, y0, 1e-5);
    }
    CHECK_MSG(same, "an accumulator updated by moves differs from a fresh one");
    hn_rng_free(r);
    free(acc);
    free(fresh);
done:
    nn_infer_free(inf);
    nn_sparse_free(sp);
}

/* Outputs of the Q8 path with kernel `simd` for n random boards. */
static int q8_outputs(nn_sparse *q, enum nn_simd simd, hn_rng *r, int n, int32_t *acc, float *y)
{
    if (nn_sparse_set_simd(q, simd))
        return -1;
    int stride = nn_sparse_acc_stride(q), idx[CELLS];
    board b;
    for (int i = 0; i < n; i++) {
        board_random(&b, r);
        board_active(&b, idx);
        nn_sparse_acc_init(q, idx, CELLS, acc + (size_t)i * stride);
    }
    return nn_sparse_run(q, acc, n, y);
}

/* Every kernel this CPU runs gives the scalar kernel's outputs exactly
 * (integer sums, then the same float code), for batches that use every
 * tile shape (1, 6 = 4 + 2 and 11 = 8 + 3 rows: tiles of 4, 3, 2 and 1 rows). */
static void test_kernels_agree(nn_model *m)
{
    int st = 0, n = 11;
    nn_sparse *q = nn_sparse_new(m, NN_SPARSE_Q8, n, &st);
    CHECK(q != NULL);
    if (!q)
        return;
    CHECK(nn_sparse_kind(q) == NN_SPARSE_Q8 && nn_sparse_simd(q) == nn_simd_best());
    int32_t *acc = calloc((size_t)n * nn_sparse_acc_stride(q), sizeof *acc);
    float ref[11], y[11];
    for (int s = NN_SIMD_SCALAR; s <= NN_SIMD_VNNI; s++) {
        if (!nn_simd_supported((enum nn_simd)s)) {
            CHECK(nn_sparse_set_simd(q, (enum nn_simd)s) == HN_ERR_ARG);
            printf("kernel %s: not supported by this CPU, skipped\n", nn_simd_name(s));
            continue;
        }
        for (int len = 1; len <= n; len += 5) {
            hn_rng *r1 = hn_rng_new(77), *r2 = hn_rng_new(77);
            CHECK(q8_outputs(q, NN_SIMD_SCALAR, r1, len, acc, ref) == 0);
            CHECK(q8_outputs(q, (enum nn_simd)s, r2, len, acc, y) == 0);
            for (int i = 0; i < len; i++)
                CHECK_MSG(y[i] == ref[i], "kernel %s row %d: %.9g vs scalar %.9g", nn_simd_name(s),
                          i, y[i], ref[i]);
            hn_rng_free(r1);
            hn_rng_free(r2);
        }
        printf("kernel %s: equal to scalar\n", nn_simd_name(s));
    }
    enum nn_simd parsed;
    CHECK(nn_simd_parse("avx2", &parsed) == 0 && parsed == NN_SIMD_AVX2);
    CHECK(nn_simd_parse("sse9", &parsed) == HN_ERR_ARG);
    free(acc);
    nn_sparse_free(q);
}

/* Mean and largest |y1 - y0| over n outputs, checked against `mae` and
 * `max` for `what`. */
static void check_diff(const char *what, const float *y1, const float *y0, int n, double mae,
                       double max, double *mean, double *worst)
{
    double sum = 0.0;
    *worst = 0.0;
    for (int i = 0; i < n; i++) {
        sum += fabs((double)y1[i] - y0[i]);
        *worst = fmax(*worst, fabs((double)y1[i] - y0[i]));
    }
    *mean = sum / n;
    CHECK_MSG(*mean <= mae, "%s: mean |q8 - float| %g > %g", what, *mean, mae);
    CHECK_MSG(*worst <= max, "%s: max |q8 - float| %g > %g", what, *worst, max);
}

/* Q8 against float on 400 random boards: the mean and largest absolute
 * difference in output units (every output of a many-output network, a Q
 * network's narrow last layer included) must stay below `mae` and `max`. */
static void test_q8_accuracy(nn_model *m, const char *what, double mae, double max)
{
    int st = 0, n = 400, outs = nn_model_outputs(m);
    nn_sparse *fl = nn_sparse_new(m, NN_SPARSE_FLOAT, n, &st);
    nn_sparse *q = nn_sparse_new(m, NN_SPARSE_Q8, n, &st);
    nn_sparse *qc = q ? nn_sparse_clone(q, 3, &st) : NULL;
    CHECK(fl && q && qc);
    if (!fl || !q || !qc)
        goto done;
    int stride = nn_sparse_acc_stride(fl), idx[CELLS];
    int32_t *acc = calloc((size_t)n * stride, sizeof *acc);
    float *y0 = calloc((size_t)n * outs, sizeof *y0), *y1 = calloc((size_t)n * outs, sizeof *y1),
          y2[3 * 16];
    hn_rng *r = hn_rng_new(3);
    board b;
    for (int i = 0; i < n; i++) {
        board_random(&b, r);
        board_active(&b, idx);
        nn_sparse_acc_init(fl, idx, CELLS, acc + (size_t)i * stride);
    }
    CHECK(nn_sparse_run(fl, acc, n, y0) == 0 && nn_sparse_run(q, acc, n, y1) == 0);
    CHECK(nn_sparse_run(qc, acc, 3, y2) == 0);
    double mean, worst;
    check_diff(what, y1, y0, n * outs, mae, max, &mean, &worst);
    for (int i = 0; i < 3 * outs; i++)
        CHECK(y2[i] == y1[i]); /* a clone shares the quantized weights */
    printf("%s: q8 vs float on %d boards: mean |diff| %.4f, max %.4f\n", what, n, mean, worst);
    hn_rng_free(r);
    free(acc);
    free(y0);
    free(y1);
done:
    nn_sparse_free(fl);
    nn_sparse_free(q);
    nn_sparse_free(qc);
}

/* |a - b| over the first layer's entries of two accumulators (of two workspaces). */
static double acc_diff(const nn_sparse *sa, const int32_t *a, const nn_sparse *sb, const int32_t *b,
                       int width)
{
    double worst = 0.0;
    for (int j = 0; j < width; j++)
        worst = fmax(worst, fabs((double)nn_sparse_acc_value(sa, a, j) -
                                 (double)nn_sparse_acc_value(sb, b, j)));
    return worst;
}

/* 16-bit accumulators (nn_sparse_new_bounded, CELLS active inputs): a
 * 2,000-move walk updated in place equals a fresh accumulator bit for bit
 * every 100 moves, and every entry is within the rounding bound of the
 * int32 accumulator's: each holds CELLS + 1 rounded terms, so the two
 * differ by at most (CELLS + 1) / 2 * (unit16 + unit32). Then the outputs
 * against float on 400 random boards, within `mae` and `max` as q8. */
static void test_acc16(nn_model *m, const char *what, int width, double mae, double max)
{
    int st = 0, n = 400;
    nn_sparse *q16 = nn_sparse_new_bounded(m, NN_SPARSE_Q8, n, CELLS, &st);
    nn_sparse *q32 = nn_sparse_new(m, NN_SPARSE_Q8, 1, &st);
    nn_sparse *fl = nn_sparse_new(m, NN_SPARSE_FLOAT, n, &st);
    CHECK(q16 && q32 && fl);
    if (!q16 || !q32 || !fl)
        goto done;
    CHECK_MSG(nn_sparse_acc_bits(q16) == 16 && nn_sparse_acc_bits(q32) == 32,
              "%s: accumulators of %d and %d bits", what, nn_sparse_acc_bits(q16),
              nn_sparse_acc_bits(q32));
    float u16 = nn_sparse_acc_unit(q16), u32 = nn_sparse_acc_unit(q32);
    int s16 = nn_sparse_acc_stride(q16), s32 = nn_sparse_acc_stride(fl), idx[CELLS];
    CHECK(s16 % 16 == 0 && 2 * s16 >= width);
    int32_t *acc = nn_sparse_acc_alloc(q16, n), *fresh = nn_sparse_acc_alloc(q16, 1),
            *a32 = nn_sparse_acc_alloc(fl, n);
    float *y0 = calloc(n, sizeof *y0), *y1 = calloc(n, sizeof *y1);
    hn_rng *r = hn_rng_new(12);
    board b;
    walk_start(q16, &b, r, acc);
    int same = 1;
    double worst = 0.0, bound = (CELLS + 1) / 2.0 * ((double)u16 + u32);
    for (int k = 0; k < 20; k++) {
        same &= walk_100(q16, &b, r, acc, fresh);
        board_active(&b, idx);
        nn_sparse_acc_init(fl, idx, CELLS, a32);
        worst = fmax(worst, acc_diff(q16, acc, fl, a32, width));
    }
    CHECK_MSG(same, "%s: a 16-bit accumulator updated by moves differs from a fresh one", what);
    CHECK_MSG(worst <= bound, "%s: 16-bit accumulator off by %g > %g", what, worst, bound);
    for (int i = 0; i < n; i++) {
        board_random(&b, r);
        board_active(&b, idx);
        nn_sparse_acc_init(q16, idx, CELLS, acc + (size_t)i * s16);
        nn_sparse_acc_init(fl, idx, CELLS, a32 + (size_t)i * s32);
    }
    CHECK(nn_sparse_run(q16, acc, n, y1) == 0 && nn_sparse_run(fl, a32, n, y0) == 0);
    double mean, far;
    check_diff(what, y1, y0, n, mae, max, &mean, &far);
    printf("%s: acc16 unit 2^%d, entries within %.2g of int32 (bound %.2g); q8 vs float: mean "
           "|diff| %.4f, max %.4f\n",
           what, (int)lround(log2(u16)), worst, bound, mean, far);
    hn_rng_free(r);
    free(acc);
    free(fresh);
    free(a32);
    free(y0);
    free(y1);
done:
    nn_sparse_free(q16);
    nn_sparse_free(q32);
    nn_sparse_free(fl);
}

/* The bound's edges: FLOAT keeps int32, and more than NN_SPARSE_MAX_ACTIVE is refused. */
static void test_acc16_edges(nn_model *m)
{
    int st = 0;
    nn_sparse *f = nn_sparse_new_bounded(m, NN_SPARSE_FLOAT, 1, CELLS, &st);
    CHECK(f && nn_sparse_acc_bits(f) == 32);
    nn_sparse_free(f);
    CHECK(!nn_sparse_new_bounded(m, NN_SPARSE_Q8, 1, NN_SPARSE_MAX_ACTIVE + 1, &st) &&
          st == HN_ERR_ARG);
}

/* A shipped model (path below the source tree) through every check that
 * needs no random weights. */
static void test_shipped(const char *path, double mae, double max)
{
    char full[1024];
    int st = 0;
    snprintf(full, sizeof full, "%s/%s", HN_TEST_SRC, path);
    nn_model *m = nn_model_load(full, &st);
    CHECK_MSG(m != NULL, "%s does not load", path);
    if (m) {
        test_random_boards(m);
        test_kernels_agree(m);
        test_q8_accuracy(m, path, mae, max);
        test_acc16(m, path, 512, mae, max);
    }
    nn_model_free(m);
}

int main(void)
{
    nn_model *m = random_model("256-96-40-24:relu-1", 4);
    nn_model *small = random_model("256-8-1", 5);
    nn_model *q = random_model("256-96-40-24:relu-12", 6); /* a Q network's shape */
    CHECK(m && small && q);
    if (m && small) {
        test_random_boards(m);
        test_random_boards(small);
        test_move_chain(m);
        test_kernels_agree(m);
        /* target std 8: 0.3 is about 4 % of the output's scale */
        test_q8_accuracy(m, "random 256-96-40-24-1", 0.3, 1.5);
        test_q8_accuracy(q, "random 256-96-40-24-12", 0.3, 1.5);
        test_acc16(m, "random 256-96-40-24-1", 96, 0.3, 1.5);
        test_acc16_edges(m);
    }
    nn_model_free(m);
    nn_model_free(small);
    nn_model_free(q);
    /* the shipped search networks, in moves: the 0.35-quantile network and
     * the student distilled from it */
    test_shipped("models/15puzzle-annd-q35.h5", 0.1, 0.5);
    test_shipped("models/15puzzle-search.h5", 0.1, 0.5);
    return CHECK_DONE();
}
