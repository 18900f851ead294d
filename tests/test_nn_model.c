/* Model objects: batch-norm eval mode equals the folded inference path,
 * batched inference equals one row at a time, save -> load gives identical
 * outputs and metadata, and damaged files are refused with a message that
 * names the file and dataset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn/nn.h"
#include "tests/check.h"
#include "common/hn_h5.h"

enum { N = 37 };

/* A model with non-trivial batch-norm statistics: a few train-mode passes. */
static nn_model *trained_model(const char *spec, float **xout)
{
    struct nn_spec sp;
    nn_spec_parse(spec, NULL, &sp);
    nn_model *m = nn_model_new(&sp, 42, NULL);
    nn_model_set_target(m, 3.5, 2.0);
    int d = nn_model_inputs(m);
    float *x = malloc(sizeof(float) * N * d);
    hn_rng *r = hn_rng_new(1);
    nn_train *t = nn_train_new(m, N, 3, NULL);
    nn_train_set_bn_momentum(t, 0.5f);
    for (int rep = 0; rep < 5; rep++) {
        for (int i = 0; i < N * d; i++)
            x[i] = (float)hn_rng_gauss(r, 1.5) + 0.3f;
        nn_train_forward(t, x, N, NN_MODE_TRAIN);
    }
    nn_train_free(t);
    hn_rng_free(r);
    *xout = x;
    return m;
}

static void check_fold_and_batching(int onehot)
{
    float *x;
    nn_model *m = trained_model("12-16:elu,bn,do=0.3-8:relu,bn-4:linear,bn-2", &x);
    for (int i = 0; onehot && i < N * 12; i++)
        x[i] = i % 4 == (i / 4 * 7) % 4 ? 1.0f : 0.0f; /* one-hot in blocks of 4 */
    struct nn_layer_info L;
    nn_model_layer(m, 0, &L);
    CHECK(L.moving_mean[0] != 0.0f && L.moving_var[0] != 1.0f); /* statistics moved */
    nn_train *t = nn_train_new(m, N, 3, NULL);
    nn_infer *inf = nn_infer_new(m, N, NULL);
    float y[N * 2], y1[2];
    nn_train_forward(t, x, N, NN_MODE_EVAL);
    nn_infer_run(inf, x, N, y);
    const float *raw = nn_train_output(t);
    int bad = 0;
    for (int i = 0; i < N * 2; i++)
        bad += fabsf(raw[i] * 2.0f + 3.5f - y[i]) > 1e-4f * fmaxf(1.0f, fabsf(y[i]));
    CHECK_MSG(bad == 0, "%d outputs of eval mode and the folded path differ", bad);
    bad = 0;
    for (int i = 0; i < N; i++) {
        nn_infer_run(inf, x + i * 12, 1, y1);
        bad += fabsf(y1[0] - y[2 * i]) > 1e-5f * fmaxf(1.0f, fabsf(y1[0])) ||
               fabsf(y1[1] - y[2 * i + 1]) > 1e-5f * fmaxf(1.0f, fabsf(y1[1]));
    }
    CHECK_MSG(bad == 0, "%d rows differ between batched and one-by-one inference", bad);
    /* A clone shares the folded weights and gives the same outputs. */
    nn_infer *c2 = nn_infer_clone(inf, 4, NULL);
    nn_infer_free(inf);
    nn_infer_run(c2, x + 12, 1, y1);
    CHECK(fabsf(y1[0] - y[2]) <= 1e-5f * fmaxf(1.0f, fabsf(y[2])));
    CHECK(nn_infer_run(c2, x, 5, y) == HN_ERR_ARG); /* more rows than it holds */
    /* refresh sees a changed model */
    nn_model_layer(m, 3, &L);
    L.bias[0] += 1.0f;
    float before = y1[0];
    nn_infer_refresh(c2, m);
    nn_infer_run(c2, x + 12, 1, y1);
    CHECK_CLOSE(y1[0], before + 2.0f, 1e-4); /* bias 1 times target std 2 */
    nn_infer_free(c2);
    nn_train_free(t);
    nn_model_free(m);
    free(x);
}

static void check_save_load(const char *path)
{
    float *x;
    nn_model *m = trained_model("12-16:elu,bn,do=0.3-8:relu,nobn-2", &x);
    nn_model_set_encoder(m, "test-encoder v1");
    nn_model_set_meta_str(m, "dataset", "data/train.h5");
    nn_model_set_meta_double(m, "epochs", 12);
    CHECK(nn_model_set_meta_str(m, "spec", "x") == HN_ERR_ARG); /* reserved */
    CHECK(nn_model_save(m, path) == 0);
    char part[512];
    CHECK(hn_part_path(path, part, sizeof part) == 0 && access(part, F_OK) != 0);
    int rc = 0;
    nn_model *l = nn_model_load(path, &rc);
    CHECK_MSG(l != NULL, "%s", hn_errmsg());
    if (!l)
        return;
    size_t n1, n2, s1, s2;
    float *p1 = nn_model_params(m, &n1), *p2 = nn_model_params(l, &n2);
    float *q1 = nn_model_state(m, &s1), *q2 = nn_model_state(l, &s2);
    CHECK(n1 == n2 && !memcmp(p1, p2, n1 * sizeof(float)));
    CHECK(s1 == s2 && !memcmp(q1, q2, s1 * sizeof(float)));
    CHECK(!strcmp(nn_model_encoder(l), "test-encoder v1"));
    const char *ds = nn_model_get_meta_str(l, "dataset");
    CHECK(ds && !strcmp(ds, "data/train.h5"));
    double ep = 0, tm, ts;
    CHECK(nn_model_get_meta_double(l, "epochs", &ep) == 0 && ep == 12);
    nn_model_target(l, &tm, &ts);
    CHECK(tm == 3.5 && ts == 2.0);
    struct nn_layer_info L;
    nn_model_layer(l, 0, &L);
    CHECK(L.dropout == 0.3f && L.has_bn && L.act == NN_ACT_ELU);
    nn_infer *a = nn_infer_new(m, N, NULL), *b = nn_infer_new(l, N, NULL);
    float ya[N * 2], yb[N * 2];
    nn_infer_run(a, x, N, ya);
    nn_infer_run(b, x, N, yb);
    CHECK(!memcmp(ya, yb, sizeof ya));
    nn_infer_free(a);
    nn_infer_free(b);
    nn_model_free(l);
    nn_model_free(m);
    free(x);
}

/* Loading `path` fails with `status` and a message containing `want`. */
static void refused(const char *path, int status, const char *want)
{
    int rc = 0;
    nn_model *m = nn_model_load(path, &rc);
    CHECK_MSG(m == NULL && rc == status, "%s: rc %d, want %d", path, rc, status);
    CHECK_MSG(strstr(hn_errmsg(), want) && strstr(hn_errmsg(), path), "%s: message '%s' lacks '%s'",
              path, hn_errmsg(), want);
    nn_model_free(m);
}

/* Overwrite element 37 of /layers/001/kernel (16x8 in these tests). */
static void poke_nan(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t d = H5Dopen2(f, "/layers/001/kernel", H5P_DEFAULT);
    float k[16 * 8];
    H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, k);
    k[37] = NAN;
    H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, k);
    H5Dclose(d);
    H5Fclose(f);
}

static void set_format(const char *path, const char *value)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    hn_h5_attr_set_str(f, "format", value);
    H5Fclose(f);
}

static void check_bad_files(const char *good)
{
    hn_h5_quiet();
    refused("no/such/model.h5", HN_ERR_IO, "cannot open");
    const char *txt = "test_nn_model_text.h5";
    FILE *fp = fopen(txt, "w");
    fputs("not hdf5\n", fp);
    fclose(fp);
    refused(txt, HN_ERR_FORMAT, "not an HDF5 file");
    /* truncated: copy the first half of a good file */
    const char *tr = "test_nn_model_trunc.h5";
    fp = fopen(good, "rb");
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc(size);
    CHECK(fread(buf, 1, size, fp) == (size_t)size);
    fclose(fp);
    fp = fopen(tr, "wb");
    fwrite(buf, 1, size / 2, fp);
    fclose(fp);
    int rc = 0;
    nn_model *m = nn_model_load(tr, &rc);
    CHECK_MSG(m == NULL && rc != 0 && strstr(hn_errmsg(), tr), "truncated file: '%s'", hn_errmsg());
    nn_model_free(m);
    /* NaN in a kernel, then a foreign format attribute */
    const char *nanf = "test_nn_model_nan.h5";
    fp = fopen(nanf, "wb");
    fwrite(buf, 1, size, fp);
    fclose(fp);
    free(buf);
    poke_nan(nanf);
    refused(nanf, HN_ERR_NAN, "/layers/001/kernel holds NaN at index 37");
    set_format(nanf, "keras");
    refused(nanf, HN_ERR_FORMAT, "attribute 'format' is 'keras'");
    unlink(txt);
    unlink(tr);
    unlink(nanf);
}

int main(void)
{
    const char *path = "test_nn_model.h5";
    check_fold_and_batching(0);
    check_fold_and_batching(1);
    check_save_load(path);
    check_bad_files(path);
    unlink(path);
    return CHECK_DONE();
}
