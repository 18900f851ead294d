/* nn export at the library level: refusals leave nothing behind (an
 * activation the writers do not know, a folder or file that cannot be
 * created), names and formats are validated, and the raw arrays written to
 * npy and Keras files are the model's own bytes. The consumers (onnxruntime,
 * numpy, a C compiler) are exercised in tests/cli_export.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nn/export.h"
#include "tests/check.h"
#include "common/hn_h5.h"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static nn_model *small_model(void)
{
    struct nn_spec sp;
    nn_spec_parse("6-5-2", NULL, &sp);
    nn_model *m = nn_model_new(&sp, 3, NULL);
    nn_model_set_encoder(m, "npuzzle-onehot n=3 goal=blank-first");
    return m;
}

static void check_names(void)
{
    enum nn_export_format f;
    CHECK(nn_export_format_parse("onnx", &f) == 0 && f == NN_EXPORT_ONNX);
    CHECK(nn_export_format_parse("npy", &f) == 0 && f == NN_EXPORT_NPY);
    CHECK(nn_export_format_parse("tflite", &f) == HN_ERR_ARG && strstr(hn_errmsg(), "'tflite'"));
    CHECK(!strcmp(nn_export_format_name(NN_EXPORT_KERAS), "keras"));
    CHECK(nn_export_c_name_ok("h15_v2") && nn_export_c_name_ok("_x"));
    CHECK(!nn_export_c_name_ok("") && !nn_export_c_name_ok("2net") && !nn_export_c_name_ok("a-b"));
}

/* An activation added to nn but not to the exporters must be refused by
 * every format before anything is written. The spec is edited in place to
 * simulate it (the model owns a writable copy). */
static void check_unknown_activation(const char *dir)
{
    nn_model *m = small_model();
    struct nn_spec *sp = (struct nn_spec *)nn_model_spec(m);
    sp->layer[0].act = (enum nn_act)7;
    char p[512], h[512], c[512];
    for (int f = 0; f < 4; f++) {
        CHECK(nn_export_check(m, (enum nn_export_format)f) == HN_ERR_UNSUPPORTED);
        CHECK_MSG(strstr(hn_errmsg(), "layer 0: activation 7"), "%s", hn_errmsg());
    }
    snprintf(p, sizeof p, "%s/u.onnx", dir);
    CHECK(nn_export_onnx(m, p) == HN_ERR_UNSUPPORTED && !exists(p));
    snprintf(p, sizeof p, "%s/u.h5", dir);
    CHECK(nn_export_keras(m, p) == HN_ERR_UNSUPPORTED && !exists(p));
    snprintf(h, sizeof h, "%s/u.h", dir);
    snprintf(c, sizeof c, "%s/u.c", dir);
    CHECK(nn_export_c(m, "u", h, c) == HN_ERR_UNSUPPORTED && !exists(h) && !exists(c));
    snprintf(p, sizeof p, "%s/u_npy", dir);
    CHECK(nn_export_npy(m, p) == HN_ERR_UNSUPPORTED && !exists(p));
    nn_model_free(m);
}

/* The npy kernel file: a 128-byte v1.0 header, then the kernel's floats. */
static void check_npy_bytes(const char *dir)
{
    nn_model *m = small_model();
    char p[512], f[600];
    snprintf(p, sizeof p, "%s/n", dir);
    CHECK(nn_export_npy(m, p) == 0);
    CHECK(nn_export_npy(m, p) == HN_ERR_IO); /* exists: rename refused */
    CHECK(hn_part_path(p, f, sizeof f) == 0 && !exists(f));
    snprintf(f, sizeof f, "%s/layer000_kernel.npy", p);
    FILE *in = fopen(f, "rb");
    unsigned char head[128];
    float w[30];
    CHECK(in && fread(head, 1, 128, in) == 128 && fread(w, sizeof(float), 30, in) == 30 &&
          fgetc(in) == EOF);
    if (in)
        fclose(in);
    CHECK(!memcmp(head, "\x93NUMPY\x01\x00", 8) && head[8] + 256 * head[9] == 118 &&
          head[127] == '\n');
    CHECK(strstr((char *)head + 10, "'shape': (6, 5)") != NULL);
    struct nn_layer_info L;
    nn_model_layer(m, 0, &L);
    CHECK(!memcmp(w, L.kernel, sizeof w));
    nn_model_free(m);
}

/* Keras: /dense_1/dense_1/kernel:0 is the second layer's kernel. */
static void check_keras_bytes(const char *dir)
{
    nn_model *m = small_model();
    char p[512];
    snprintf(p, sizeof p, "%s/k.h5", dir);
    CHECK(nn_export_keras(m, p) == 0);
    hid_t f = H5Fopen(p, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = f < 0 ? -1 : H5Dopen2(f, "/dense_1/dense_1/kernel:0", H5P_DEFAULT);
    float w[10];
    CHECK(d >= 0 && H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, w) >= 0);
    struct nn_layer_info L;
    nn_model_layer(m, 1, &L);
    CHECK(!memcmp(w, L.kernel, sizeof w));
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0)
        H5Fclose(f);
    nn_model_free(m);
}

static void check_unwritable(const char *dir)
{
    nn_model *m = small_model();
    char p[512], h[512];
    snprintf(p, sizeof p, "%s/missing/m.onnx", dir);
    CHECK(nn_export_onnx(m, p) == HN_ERR_IO && strstr(hn_errmsg(), "cannot create"));
    snprintf(p, sizeof p, "%s/missing/m.h5", dir);
    CHECK(nn_export_keras(m, p) == HN_ERR_IO);
    snprintf(p, sizeof p, "%s/m.c", dir);
    snprintf(h, sizeof h, "%s/missing/m.h", dir);
    CHECK(nn_export_c(m, "m", h, p) == HN_ERR_IO && !exists(p));
    CHECK(nn_export_c(m, "not-an-id", p, p) == HN_ERR_ARG);
    nn_model_free(m);
}

int main(void)
{
    hn_h5_quiet();
    char dir[] = "/tmp/test_nn_export_XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    check_names();
    check_unknown_activation(dir);
    check_npy_bytes(dir);
    check_keras_bytes(dir);
    check_unwritable(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
