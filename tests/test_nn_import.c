/* nn import at the library level: what heurnet exports comes back with the
 * same weights (bit for bit) and runs on every engine (nn_infer, nn_sparse
 * float and q8) with the original's outputs; every prefix of a file is
 * either refused with a message naming it or imports the same weights; an
 * operator swapped for one heurnet lacks is refused by name. The graphs of
 * other producers are checked against onnxruntime in tests/cli_import.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn/export.h"
#include "nn/import.h"
#include "nn/sparse.h"
#include "tests/check.h"

#define ROWS 24

static nn_model *model(const char *spec, uint64_t seed, int bn_stats, double mean, double std)
{
    struct nn_spec sp;
    CHECK(nn_spec_parse(spec, NULL, &sp) == 0);
    nn_model *m = nn_model_new(&sp, seed, NULL);
    hn_rng *r = hn_rng_new(seed + 1);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        for (int j = 0; j < L.out; j++) {
            L.bias[j] = (float)(hn_rng_gauss(r, 0.3));
            if (L.has_bn && bn_stats) {
                L.gamma[j] = (float)(0.5 + hn_rng_uniform(r));
                L.beta[j] = (float)(hn_rng_gauss(r, 0.3));
                L.moving_mean[j] = (float)(hn_rng_gauss(r, 0.5));
                L.moving_var[j] = (float)(0.3 + 1.7 * hn_rng_uniform(r));
            }
        }
    }
    hn_rng_free(r);
    nn_model_set_target(m, mean, std);
    nn_model_set_encoder(m, "npuzzle-onehot n=3 goal=blank-last");
    return m;
}

/* One-hot 8-puzzle boards: x[t*9 + p] = 1 where cell p holds tile t. */
static void boards(float *x, int *active)
{
    hn_rng *r = hn_rng_new(99);
    memset(x, 0, sizeof(float) * ROWS * 81);
    for (int i = 0; i < ROWS; i++) {
        int cell[9];
        for (int p = 0; p < 9; p++)
            cell[p] = p;
        for (int p = 8; p > 0; p--) {
            int q = (int)hn_rng_below(r, (uint32_t)p + 1), t = cell[p];
            cell[p] = cell[q], cell[q] = t;
        }
        for (int p = 0; p < 9; p++) {
            x[i * 81 + cell[p] * 9 + p] = 1.0f;
            active[i * 9 + p] = cell[p] * 9 + p;
        }
    }
    hn_rng_free(r);
}

static void run_dense(const nn_model *m, const float *x, float *y)
{
    nn_infer *c = nn_infer_new(m, ROWS, NULL);
    CHECK(c && nn_infer_run(c, x, ROWS, y) == 0);
    nn_infer_free(c);
}

static void run_sparse(const nn_model *m, enum nn_sparse_kind kind, const int *active, float *y)
{
    nn_sparse *s = nn_sparse_new(m, kind, ROWS, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    int32_t *acc = nn_sparse_acc_alloc(s, ROWS);
    for (int i = 0; i < ROWS; i++)
        nn_sparse_acc_init(s, active + 9 * i, 9, acc + (size_t)i * nn_sparse_acc_stride(s));
    CHECK(nn_sparse_run(s, acc, ROWS, y) == 0);
    free(acc);
    nn_sparse_free(s);
}

/* 1 if the two models have the same spec and the same weights, bit for bit. */
static int same_weights(const nn_model *a, const nn_model *b)
{
    char sa[NN_SPEC_MAX], sb[NN_SPEC_MAX];
    nn_spec_format(nn_model_spec(a), NULL, sa, sizeof sa);
    nn_spec_format(nn_model_spec(b), NULL, sb, sizeof sb);
    if (strcmp(sa, sb))
        return 0;
    for (int l = 0; l < nn_model_layers(a); l++) {
        struct nn_layer_info A, B;
        nn_model_layer(a, l, &A);
        nn_model_layer(b, l, &B);
        size_t n = sizeof(float) * (size_t)A.out;
        if (memcmp(A.kernel, B.kernel, n * (size_t)A.in) || memcmp(A.bias, B.bias, n))
            return 0;
    }
    double ma, sa_, mb, sb_;
    nn_model_target(a, &ma, &sa_);
    nn_model_target(b, &mb, &sb_);
    return ma == mb && sa_ == sb_;
}

static nn_model *round_trip(const nn_model *m, const char *path)
{
    int st = -1;
    CHECK(nn_export_onnx(m, path) == 0);
    nn_model *r = nn_import_onnx(path, &st);
    CHECK_MSG(r && st == 0, "%s", hn_errmsg());
    return r;
}

/* Without batch norm and with a linear output, the export holds the model's
 * own arrays: the import gives them back exactly, and q8 (quantized from
 * the same floats) the same outputs bit for bit. */
static void check_plain(const char *dir, const float *x, const int *active)
{
    char p[512];
    snprintf(p, sizeof p, "%s/plain.onnx", dir);
    nn_model *m = model("81-32:leaky,alpha=0.05,nobn-16:relu,nobn-1", 5, 0, 0.0, 1.0);
    nn_model *r = round_trip(m, p);
    if (!r)
        return;
    CHECK(same_weights(m, r));
    CHECK(!strcmp(nn_model_encoder(r), "npuzzle-onehot n=3 goal=blank-last"));
    float y0[ROWS], y1[ROWS];
    run_sparse(m, NN_SPARSE_Q8, active, y0);
    run_sparse(r, NN_SPARSE_Q8, active, y1);
    CHECK(!memcmp(y0, y1, sizeof y0));
    run_dense(m, x, y0);
    run_dense(r, x, y1);
    CHECK(!memcmp(y0, y1, sizeof y0));
    nn_model_free(m);
    nn_model_free(r);
}

/* With batch norm (folded on export) and a relu output (target scaling as
 * Mul/Add): export -> import -> export -> import is a fixed point, and
 * every engine reproduces the original network's outputs. */
static void check_engines(const char *dir, const float *x, const int *active)
{
    char p[512], q[512];
    snprintf(p, sizeof p, "%s/bn.onnx", dir);
    snprintf(q, sizeof q, "%s/bn2.onnx", dir);
    nn_model *m = model("81-32:alpha=0.5-16:relu-1:relu", 6, 1, 21.5, 6.25);
    nn_model *r = round_trip(m, p), *r2 = r ? round_trip(r, q) : NULL;
    if (!r2) {
        nn_model_free(m);
        nn_model_free(r);
        return;
    }
    CHECK(same_weights(r, r2));
    float y0[ROWS], yd[ROWS], ys[ROWS], yq[ROWS];
    run_dense(m, x, y0);
    run_dense(r, x, yd);
    run_sparse(r, NN_SPARSE_FLOAT, active, ys);
    run_sparse(r, NN_SPARSE_Q8, active, yq);
    for (int i = 0; i < ROWS; i++) {
        CHECK_CLOSE(yd[i], y0[i], 1e-5);
        CHECK_CLOSE(ys[i], y0[i], 1e-4);
        CHECK_CLOSE(yq[i], y0[i], 0.05); /* 7-bit activations, 8-bit weights */
    }
    nn_model_free(m);
    nn_model_free(r);
    nn_model_free(r2);
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = malloc(1 << 20);
    *n = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
    if (f)
        fclose(f);
    return buf;
}

/* Every prefix: refused with HN_ERR_FORMAT and the file's name, or (cut
 * inside the trailing metadata) the same weights. */
static void check_prefixes(const char *dir)
{
    char p[512];
    snprintf(p, sizeof p, "%s/plain.onnx", dir);
    size_t n;
    unsigned char *buf = slurp(p, &n);
    nn_model *full = nn_import_onnx_mem(buf, n, "mem.onnx", NULL);
    CHECK(full != NULL && n > 1000);
    int refused = 0, bad = 0;
    for (size_t k = 0; full && k < n; k++) {
        int st = 0;
        nn_model *m = nn_import_onnx_mem(buf, k, "mem.onnx", &st);
        if (!m) {
            refused++;
            bad += st != HN_ERR_FORMAT || strncmp(hn_errmsg(), "mem.onnx: ", 10);
        } else {
            bad += !same_weights(full, m);
        }
        nn_model_free(m);
    }
    CHECK_MSG(bad == 0, "%d prefixes refused wrongly or imported other weights", bad);
    CHECK(refused > (int)n / 2);
    nn_model_free(full);
    free(buf);
}

/* Replace the first `from` in the bytes by `to` (same length) and import. */
static void check_swap(const char *dir, const char *from, const char *to, const char *want)
{
    char p[512];
    snprintf(p, sizeof p, "%s/bn.onnx", dir);
    size_t n, k = strlen(from);
    unsigned char *buf = slurp(p, &n);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(buf + i, from, k)) {
            memcpy(buf + i, to, k);
            break;
        }
    int st = 0;
    nn_model *m = nn_import_onnx_mem(buf, n, "swap.onnx", &st);
    CHECK(!m && st == HN_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(hn_errmsg(), want), "%s", hn_errmsg());
    free(buf);
}

int main(void)
{
    char dir[] = "/tmp/heurnet-import-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    static float x[ROWS * 81];
    static int active[ROWS * 9];
    boards(x, active);
    check_plain(dir, x, active);
    check_engines(dir, x, active);
    check_prefixes(dir);
    check_swap(dir, "Relu", "Tanh", "operator Tanh is not supported");
    check_swap(dir, "Gemm", "Conv", "node 0 (Conv 'gemm0'): operator Conv");
    int st = 0;
    CHECK(!nn_import_onnx("/nonexistent/x.onnx", &st) && st == HN_ERR_IO);
    CHECK(strstr(hn_errmsg(), "/nonexistent/x.onnx: cannot open"));
    const char *names[] = {"plain.onnx", "bn.onnx", "bn2.onnx"};
    for (int i = 0; i < 3; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
    return CHECK_DONE();
}
