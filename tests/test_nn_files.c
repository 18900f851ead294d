/* nn: values that overflow a float are refused by the spec parser (issue 22,
 * defect 3), and model files carry a checksum that loading verifies: any
 * flipped byte is refused or leaves the loaded model unchanged (defect 13). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn/nn.h"
#include "tests/check.h"

static void test_spec_ranges(void)
{
    struct nn_spec sp;
    static const char *const bad[] = {
        "16-8:alpha=1e39-1", "16-8:alpha=1e300-1", "16-8:eps=1e39-1",  "16-8:eps=1e999-1",
        "16-8:do=1e400-1",   "16-8:alpha=1e5-1",   "16-8:eps=2-1",     "16-8:alpha=1e-50-1",
        "16-8:eps=1e-50-1",  "16-8:do=nan-1",      "16-8:alpha=inf-1", "16-8:alpha=0x1p200-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(nn_spec_parse(bad[i], NULL, &sp) == HN_ERR_FORMAT, "%s accepted", bad[i]);
    CHECK(nn_spec_parse("16-8:alpha=2.5,eps=1e-5,do=0.5-1", NULL, &sp) == HN_OK);
    CHECK(sp.layer[0].elu_alpha == 2.5f && sp.layer[0].bn_eps == 1e-5f);
    sp.layer[0].elu_alpha = INFINITY;
    CHECK(nn_spec_check(&sp) == HN_ERR_ARG);
    sp.layer[0].elu_alpha = 1.0f;
    sp.layer[0].bn_eps = 1e30f;
    CHECK(nn_spec_check(&sp) == HN_ERR_ARG);
    sp.layer[0].bn_eps = 1e-3f;
    nn_model *m = nn_model_new(&sp, 1, NULL);
    CHECK(m != NULL);
    CHECK(nn_model_set_target(m, 0.0, -1.0) == HN_ERR_ARG);
    CHECK(nn_model_set_target(m, 1e300, 1.0) == HN_ERR_ARG);
    CHECK(nn_model_set_target(m, 0.0, 1e300) == HN_ERR_ARG);
    CHECK(nn_model_set_target(m, -40.0, 3.0) == HN_OK);
    nn_model_free(m);
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n);
    CHECK(b && fread(b, 1, *n, f) == *n);
    fclose(f);
    return b;
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
    unlink(path); /* a fresh file, not a truncated one (ext4 flushes those) */
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b, 1, n, f) == n);
    if (f)
        fclose(f);
}

/* Same weights, batch-norm state, target scaling and spec. */
static int same_model(nn_model *a, nn_model *b)
{
    size_t na, nb, sa, sb;
    float *pa = nn_model_params(a, &na), *pb = nn_model_params(b, &nb);
    float *qa = nn_model_state(a, &sa), *qb = nn_model_state(b, &sb);
    double ma, da, mb, db;
    nn_model_target(a, &ma, &da);
    nn_model_target(b, &mb, &db);
    char s1[NN_SPEC_MAX], s2[NN_SPEC_MAX];
    nn_spec_format(nn_model_spec(a), NULL, s1, sizeof s1);
    nn_spec_format(nn_model_spec(b), NULL, s2, sizeof s2);
    return na == nb && sa == sb && !memcmp(pa, pb, na * sizeof *pa) &&
           !memcmp(qa, qb, sa * sizeof *qa) && ma == mb && da == db && !strcmp(s1, s2) &&
           !strcmp(nn_model_encoder(a), nn_model_encoder(b));
}

static char warned[512];
static void log_cb(int level, const char *msg, void *user)
{
    (void)user;
    if (level == HN_LOG_WARN)
        snprintf(warned, sizeof warned, "%s", msg);
}

/* Defect 13: every single-byte change of a model file is refused, or loads
 * the very same model (a byte HDF5 never reads). */
static void test_model_flips(void)
{
    const char *path = "test_nn_files.h5", *bad = "test_nn_files_bad.h5";
    struct nn_spec sp;
    CHECK(nn_spec_parse("12-6-1", NULL, &sp) == HN_OK);
    nn_model *m = nn_model_new(&sp, 7, NULL);
    CHECK(m && nn_model_set_target(m, 2.5, 1.5) == HN_OK &&
          nn_model_set_encoder(m, "test") == HN_OK);
    CHECK(nn_model_save(m, path) == HN_OK);
    int sealed = 0;
    CHECK(hn_file_verify(path, &sealed) == HN_OK && sealed == 1);
    size_t n = 0;
    unsigned char *b = slurp(path, &n);
    int refused = 0, same = 0, changed = 0;
    for (size_t i = 0; b && i < n; i++) {
        unsigned char keep = b[i];
        b[i] ^= (unsigned char)(1u + i % 255u);
        spit(bad, b, n);
        b[i] = keep;
        int rc = 0;
        nn_model *l = nn_model_load(bad, &rc);
        if (!l) {
            refused++;
            CHECK(rc != HN_OK && strstr(hn_errmsg(), bad) != NULL);
        } else if (same_model(l, m)) {
            same++;
        } else {
            changed++;
        }
        nn_model_free(l);
    }
    fprintf(stderr,
            "model file of %zu bytes, each byte changed: %d refused, %d same model, %d changed\n",
            n, refused, same, changed);
    CHECK_MSG(changed == 0, "%d of %zu flips changed the model silently", changed, n);
    CHECK(refused > (int)n - 30);
    /* a file without the trailer (an older heurnet) loads, with a warning */
    hn_log_set(log_cb, NULL);
    spit(bad, b, n - 24);
    int rc = 0;
    nn_model *old = nn_model_load(bad, &rc);
    CHECK(old && same_model(old, m) && strstr(warned, "no checksum") && strstr(warned, bad));
    CHECK(hn_file_seal(bad) == HN_OK && hn_file_verify(bad, &sealed) == HN_OK && sealed == 1);
    hn_log_set(NULL, NULL);
    nn_model_free(old);
    free(b);
    nn_model_free(m);
    unlink(path);
    unlink(bad);
}

int main(void)
{
    test_spec_ranges();
    test_model_flips();
    return CHECK_DONE();
}
