/* Keras export: the legacy weights file that tf.keras `save_weights('x.h5')`
 * writes and `load_weights` reads, plus the Python that builds the matching
 * Sequential model. Keras matches layers by order and shape, so the layer
 * list below is the single source for both the file and the snippet. */
#include <stdlib.h>
#include <string.h>

#include "nn/export_private.h"
#include "common/hn_h5.h"

enum kl_kind { KL_DENSE, KL_BN, KL_ACT, KL_ELU, KL_DROPOUT, KL_RESCALE };

struct kl {
    enum kl_kind kind;
    int layer; /* heurnet layer it comes from */
    char name[48];
};

#define KL_MAX (4 * NN_MAX_LAYERS + 1)

/* Keras' automatic names: dense, dense_1, dense_2, ... per layer class. */
static void kl_add(struct kl *list, int *n, enum kl_kind kind, int layer)
{
    static const char *const base[] = {
        "dense", "batch_normalization", "activation", "elu", "dropout", "rescaling"};
    int same = 0;
    for (int i = 0; i < *n; i++)
        same += list[i].kind == kind;
    list[*n].kind = kind;
    list[*n].layer = layer;
    if (same)
        snprintf(list[*n].name, sizeof list[*n].name, "%s_%d", base[kind], same);
    else
        snprintf(list[*n].name, sizeof list[*n].name, "%s", base[kind]);
    (*n)++;
}

/* Dense (linear), BatchNormalization, Activation or ELU (alpha != 1),
 * Dropout per heurnet layer; Rescaling for a non-identity target scaling. */
static int kl_build(const nn_model *m, struct kl *list)
{
    int n = 0;
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        kl_add(list, &n, KL_DENSE, l);
        if (L.has_bn)
            kl_add(list, &n, KL_BN, l);
        if (L.act == NN_ACT_RELU || (L.act == NN_ACT_ELU && L.elu_alpha == 1.0f))
            kl_add(list, &n, KL_ACT, l);
        else if (L.act == NN_ACT_ELU)
            kl_add(list, &n, KL_ELU, l);
        if (L.dropout > 0.0f)
            kl_add(list, &n, KL_DROPOUT, l);
    }
    double mean, std;
    nn_model_target(m, &mean, &std);
    if (mean != 0.0 || std != 1.0)
        kl_add(list, &n, KL_RESCALE, -1);
    return n;
}

/* ---- HDF5 -------------------------------------------------------------- */

/* A 1-d attribute of fixed-length strings (numpy 'S', as h5py writes
 * Keras' name lists); n may be 0 for weightless layers. */
static int attr_strings(hid_t obj, const char *attr, const char *const *s, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len = strlen(s[i]) > len ? strlen(s[i]) : len;
    char *buf = calloc(n > 0 ? (size_t)n : 1, len);
    if (!buf)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        memcpy(buf + (size_t)i * len, s[i], strlen(s[i]));
    hsize_t dims[1] = {(hsize_t)n};
    hid_t type = H5Tcopy(H5T_C_S1), space = H5Screate_simple(1, dims, NULL), a = -1;
    herr_t err = type < 0 || space < 0 || H5Tset_size(type, len) < 0 ||
                 H5Tset_strpad(type, H5T_STR_NULLPAD) < 0;
    if (!err)
        a = H5Acreate2(obj, attr, type, space, H5P_DEFAULT, H5P_DEFAULT);
    err = err || a < 0 || H5Awrite(a, type, buf) < 0;
    if (a >= 0)
        H5Aclose(a);
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    free(buf);
    return err ? hn_fail(HN_ERR_HDF5, "cannot write attribute %s", attr) : HN_OK;
}

static int write_array(hid_t g, const char *name, const float *data, int rank, hsize_t d0,
                       hsize_t d1)
{
    hsize_t dims[2] = {d0, d1};
    hid_t space = H5Screate_simple(rank, dims, NULL);
    hid_t ds = space < 0 ? -1
                         : H5Dcreate2(g, name, H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT,
                                      H5P_DEFAULT);
    herr_t err = ds < 0 || H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0;
    if (ds >= 0)
        H5Dclose(ds);
    if (space >= 0)
        H5Sclose(space);
    return err ? hn_fail(HN_ERR_HDF5, "cannot write dataset %s", name) : HN_OK;
}

/* The weights of one Keras layer: group /NAME/NAME with `kernel:0`, ... and
 * weight_names "NAME/kernel:0", ... on /NAME. */
static int write_layer(hid_t file, const struct kl *k, const nn_model *m)
{
    struct nn_layer_info L = {0};
    const char *wn[4] = {0}, *full[4];
    const float *data[4] = {0};
    char fullbuf[4][80];
    int nw = 0;
    if (k->layer >= 0)
        nn_model_layer(m, k->layer, &L);
    if (k->kind == KL_DENSE) {
        wn[0] = "kernel:0", wn[1] = "bias:0", data[0] = L.kernel, data[1] = L.bias, nw = 2;
    } else if (k->kind == KL_BN) {
        wn[0] = "gamma:0", wn[1] = "beta:0", wn[2] = "moving_mean:0", wn[3] = "moving_variance:0";
        data[0] = L.gamma, data[1] = L.beta, data[2] = L.moving_mean, data[3] = L.moving_var,
        nw = 4;
    }
    hid_t g = H5Gcreate2(file, k->name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), sub = -1;
    if (g < 0)
        return hn_fail(HN_ERR_HDF5, "cannot create group /%s", k->name);
    for (int i = 0; i < nw; i++) {
        snprintf(fullbuf[i], sizeof fullbuf[i], "%s/%s", k->name, wn[i]);
        full[i] = fullbuf[i];
    }
    int rc = attr_strings(g, "weight_names", full, nw);
    if (!rc && nw) {
        sub = H5Gcreate2(g, k->name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        rc = sub < 0 ? hn_fail(HN_ERR_HDF5, "cannot create group /%s/%s", k->name, k->name) : HN_OK;
    }
    for (int i = 0; i < nw && !rc; i++) {
        int kernel = k->kind == KL_DENSE && i == 0;
        rc = write_array(sub, wn[i], data[i], kernel ? 2 : 1, (hsize_t)(kernel ? L.in : L.out),
                         (hsize_t)L.out);
    }
    if (sub >= 0)
        H5Gclose(sub);
    H5Gclose(g);
    return rc;
}

static int write_keras(hid_t file, const nn_model *m, const struct kl *list, int n)
{
    const char *names[KL_MAX];
    char spec[NN_SPEC_MAX];
    for (int i = 0; i < n; i++)
        names[i] = list[i].name;
    nn_spec_format(nn_model_spec(m), NULL, spec, sizeof spec);
    int rc = attr_strings(file, "layer_names", names, n);
    if (!rc)
        rc = hn_h5_attr_set_str(file, "backend", "tensorflow");
    if (!rc)
        rc = hn_h5_attr_set_str(file, "keras_version", "2.11.0");
    if (!rc)
        rc = hn_h5_attr_set_str(file, "heurnet_spec", spec);
    if (!rc)
        rc = hn_h5_attr_set_str(file, "heurnet_encoder", nn_model_encoder(m));
    for (int i = 0; i < n && !rc; i++)
        rc = write_layer(file, &list[i], m);
    return rc;
}

/* The file is built in memory (HDF5 core driver, no backing store) and
 * written with stdio: a full disk then fails a checked fwrite, where a
 * failed write inside libhdf5 left a file id that crashed the library's
 * exit handler. */
static int keras_image(const nn_model *m, const char *path, void **image, size_t *size)
{
    struct kl list[KL_MAX];
    int n = kl_build(m, list), rc = HN_OK;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), f = -1;
    if (fapl < 0 || H5Pset_fapl_core(fapl, 1 << 20, 0) < 0 ||
        (f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)) < 0)
        rc = hn_fail(HN_ERR_HDF5, "%s: cannot create the file in memory", path);
    if (!rc && (rc = write_keras(f, m, list, n))) {
        char msg[256]; /* hn_fail must not read the buffer it writes */
        snprintf(msg, sizeof msg, "%s", hn_errmsg());
        rc = hn_fail(rc, "%s: %s", path, msg);
    }
    ssize_t len = rc || H5Fflush(f, H5F_SCOPE_GLOBAL) < 0 ? -1 : H5Fget_file_image(f, NULL, 0);
    *image = len > 0 ? malloc((size_t)len) : NULL;
    if (!rc && (len <= 0 || !*image || H5Fget_file_image(f, *image, (size_t)len) != len))
        rc = hn_fail(len > 0 && !*image ? HN_ERR_NOMEM : HN_ERR_HDF5,
                     "%s: cannot build the file image", path);
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_HDF5, "%s: cannot close the file in memory", path);
    if (fapl >= 0)
        H5Pclose(fapl);
    *size = rc ? 0 : (size_t)len;
    return rc;
}

int nn_export_keras(const nn_model *m, const char *path)
{
    int rc = nn_export_check(m, NN_EXPORT_KERAS);
    if (rc)
        return rc;
    void *image = NULL;
    size_t size = 0;
    rc = keras_image(m, path, &image, &size);
    if (!rc)
        rc = nn_ex_write_file(path, image, size); /* its messages name the file */
    free(image);
    return rc;
}

/* ---- the Python snippet ------------------------------------------------ */

static void snippet_layer(FILE *out, const nn_model *m, const struct kl *k)
{
    struct nn_layer_info L = {0};
    double mean, std;
    char v[32];
    if (k->layer >= 0)
        nn_model_layer(m, k->layer, &L);
    nn_model_target(m, &mean, &std);
    switch (k->kind) {
    case KL_DENSE:
        fprintf(out, "    layers.Dense(%d", L.out);
        break;
    case KL_BN:
        nn_ex_float_str(L.bn_eps, v, sizeof v);
        fprintf(out, "    layers.BatchNormalization(epsilon=%s, momentum=0.99", v);
        break;
    case KL_ACT:
        fprintf(out, "    layers.Activation(\"%s\"", nn_act_name(L.act));
        break;
    case KL_ELU:
        nn_ex_float_str(L.elu_alpha, v, sizeof v);
        fprintf(out, "    layers.ELU(alpha=%s", v);
        break;
    case KL_DROPOUT:
        nn_ex_float_str(L.dropout, v, sizeof v);
        fprintf(out, "    layers.Dropout(%s", v);
        break;
    case KL_RESCALE:
        fprintf(out, "    layers.Rescaling(scale=%.17g, offset=%.17g", std, mean);
        break;
    }
    fprintf(out, ", name=\"%s\"),\n", k->name);
}

int nn_export_keras_snippet(const nn_model *m, const char *weights_path, FILE *out)
{
    struct kl list[KL_MAX];
    int n = kl_build(m, list);
    char text[512];
    struct nn_ex_encoder e;
    nn_ex_encoder_parse(nn_model_encoder(m), &e);
    nn_ex_encoding_text(&e, nn_model_inputs(m), text, sizeof text);
    fprintf(out,
            "# tf.keras model matching the weights file (written by heurnet export).\n"
            "# Input x: %s.\n# Output: the prediction in target units (moves), scaling included.\n"
            "from tensorflow import keras\nfrom tensorflow.keras import layers\n\n"
            "model = keras.Sequential([\n    keras.Input(shape=(%d,)),\n",
            text, nn_model_inputs(m));
    for (int i = 0; i < n; i++)
        snippet_layer(out, m, &list[i]);
    fputs("], name=\"heurnet\")\nmodel.load_weights(", out);
    nn_ex_put_quoted(out, weights_path);
    fputs(")\n", out);
    return ferror(out) ? hn_fail(HN_ERR_IO, "cannot write the Keras snippet") : HN_OK;
}
