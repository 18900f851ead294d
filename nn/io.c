/* Model files in HDF5 (layout in docs/formats.md): root attributes for format,
 * spec, encoder, target scaling and the training record; one group per dense
 * layer under /layers. Loading checks everything a damaged or foreign file
 * could get wrong and names the file and dataset. */
#include "nn/nn_private.h"
#include "common/hn_h5.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NN_FORMAT "heurnet-model"
#define NN_FORMAT_VERSION 1

/* ---- writing ----------------------------------------------------------- */

static int write_dataset(hid_t g, const char *name, const float *data, int rank,
                         const hsize_t *dims)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    if (sp < 0)
        return hn_fail(HN_ERR_HDF5, "cannot create dataspace for '%s'", name);
    hid_t d = H5Dcreate2(g, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (d >= 0 && H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
                 ? HN_OK
                 : hn_fail(HN_ERR_HDF5, "cannot write dataset '%s'", name);
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(sp);
    return rc;
}

static int write_layer(const nn_model *m, hid_t layers, int i)
{
    char name[16];
    snprintf(name, sizeof name, "%03d", i);
    hid_t g = H5Gcreate2(layers, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0)
        return hn_fail(HN_ERR_HDF5, "cannot create group /layers/%s", name);
    struct nn_layer_info L;
    nn_model_layer(m, i, &L);
    hsize_t kd[2] = {(hsize_t)L.in, (hsize_t)L.out}, bd[1] = {(hsize_t)L.out};
    int rc = write_dataset(g, "kernel", L.kernel, 2, kd);
    if (!rc)
        rc = write_dataset(g, "bias", L.bias, 1, bd);
    if (!rc)
        rc = hn_h5_attr_set_str(g, "activation", nn_act_name(L.act));
    if (!rc)
        rc = hn_h5_attr_set_double(g, "dropout", L.dropout);
    if (!rc && (L.act == NN_ACT_ELU || L.act == NN_ACT_LEAKY))
        rc = hn_h5_attr_set_double(g, "elu_alpha", L.elu_alpha);
    if (!rc && L.has_bn) {
        rc = write_dataset(g, "gamma", L.gamma, 1, bd);
        if (!rc)
            rc = write_dataset(g, "beta", L.beta, 1, bd);
        if (!rc)
            rc = write_dataset(g, "moving_mean", L.moving_mean, 1, bd);
        if (!rc)
            rc = write_dataset(g, "moving_variance", L.moving_var, 1, bd);
        if (!rc)
            rc = hn_h5_attr_set_double(g, "bn_epsilon", L.bn_eps);
    }
    H5Gclose(g);
    return rc;
}

static int write_root(const nn_model *m, hid_t f)
{
    char spec[NN_SPEC_MAX];
    int rc = nn_spec_format(&m->spec, NULL, spec, sizeof spec);
    if (!rc)
        rc = hn_h5_attr_set_str(f, "format", NN_FORMAT);
    if (!rc)
        rc = hn_h5_attr_set_int(f, "format_version", NN_FORMAT_VERSION);
    if (!rc)
        rc = hn_h5_attr_set_str(f, "spec", spec);
    if (!rc)
        rc = hn_h5_attr_set_str(f, "encoder", m->encoder);
    if (!rc)
        rc = hn_h5_attr_set_double(f, "target_mean", m->target_mean);
    if (!rc)
        rc = hn_h5_attr_set_double(f, "target_std", m->target_std);
    for (int i = 0; !rc && i < m->n_meta; i++)
        rc = m->meta[i].is_num ? hn_h5_attr_set_double(f, m->meta[i].key, m->meta[i].num)
                               : hn_h5_attr_set_str(f, m->meta[i].key, m->meta[i].str);
    return rc;
}

int nn_model_save(const nn_model *m, const char *path)
{
    char part[4096];
    int rc = hn_part_path(path, part, sizeof part);
    if (rc)
        return rc;
    hid_t f = hn_h5_create(part, -1); /* says why; leaves no empty file behind */
    if (f < 0)
        return (int)f;
    rc = write_root(m, f);
    hid_t layers = -1;
    if (!rc) {
        layers = H5Gcreate2(f, "layers", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (layers < 0)
            rc = hn_fail(HN_ERR_HDF5, "cannot create group /layers");
    }
    for (int i = 0; !rc && i < m->spec.n_layers; i++)
        rc = write_layer(m, layers, i);
    if (layers >= 0)
        H5Gclose(layers);
    if (H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot finish writing", part);
    if (rc) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", hn_errmsg());
        hn_part_discard(path);
        return hn_fail(rc, "%s: %s", path, msg);
    }
    rc = hn_part_commit_sealed(path);
    if (rc)
        hn_part_discard(path);
    return rc;
}

/* ---- reading ----------------------------------------------------------- */

/* Read a float dataset that must have exactly the given shape, and hold only
 * finite numbers. `where` is "/layers/001" for messages. */
static int read_dataset(const char *path, hid_t g, const char *where, const char *name, int rank,
                        const hsize_t *want, float *out)
{
    if (H5Lexists(g, name, H5P_DEFAULT) <= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: %s/%s is missing", path, where, name);
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: %s/%s cannot be opened", path, where, name);
    char what[96];
    snprintf(what, sizeof what, "%s/%s", where, name);
    int bad = hn_h5_dset_check(d, path, what);
    if (bad) {
        H5Dclose(d);
        return bad;
    }
    hid_t sp = H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    int r = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (r == rank)
        H5Sget_simple_extent_dims(sp, dims, NULL);
    if (sp >= 0)
        H5Sclose(sp);
    int rc = HN_OK;
    if (r != rank || dims[0] != want[0] || (rank == 2 && dims[1] != want[1])) {
        if (rank == 2 && r == 2)
            rc =
                hn_fail(HN_ERR_SHAPE, "%s: %s/%s has shape [%llu, %llu], expected [%llu, %llu]",
                        path, where, name, (unsigned long long)dims[0], (unsigned long long)dims[1],
                        (unsigned long long)want[0], (unsigned long long)want[1]);
        else
            rc = hn_fail(HN_ERR_SHAPE,
                         "%s: %s/%s has rank %d or length %llu, expected %d-d length %llu", path,
                         where, name, r, (unsigned long long)dims[0], rank,
                         (unsigned long long)want[0]);
    } else if (H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0) {
        rc = hn_fail(HN_ERR_FORMAT, "%s: %s/%s cannot be read (truncated or damaged file)", path,
                     where, name);
    }
    H5Dclose(d);
    size_t n = rank == 2 ? want[0] * want[1] : want[0];
    for (size_t i = 0; !rc && i < n; i++)
        if (!isfinite(out[i]))
            rc = hn_fail(HN_ERR_NAN, "%s: %s/%s holds %s at index %zu", path, where, name,
                         isnan(out[i]) ? "NaN" : "infinity", i);
    return rc;
}

/* Shape of /layers/NNN/kernel, so chaining is checked before the spec. */
static int kernel_shape(const char *path, hid_t layers, int i, hsize_t dims[2])
{
    char name[32];
    snprintf(name, sizeof name, "%03d/kernel", i);
    if (H5Lexists(layers, name, H5P_DEFAULT) <= 0) {
        snprintf(name, sizeof name, "%03d", i);
        if (H5Lexists(layers, name, H5P_DEFAULT) <= 0)
            return hn_fail(HN_ERR_FORMAT, "%s: group /layers/%03d is missing", path, i);
        return hn_fail(HN_ERR_FORMAT, "%s: /layers/%03d/kernel is missing", path, i);
    }
    hid_t d = H5Dopen2(layers, name, H5P_DEFAULT);
    if (d < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: /layers/%s cannot be opened", path, name);
    hid_t sp = H5Dget_space(d);
    int r = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (r == 2)
        H5Sget_simple_extent_dims(sp, dims, NULL);
    if (sp >= 0)
        H5Sclose(sp);
    H5Dclose(d);
    if (r != 2)
        return hn_fail(HN_ERR_SHAPE, "%s: /layers/%s is not a 2-d [in, out] array", path, name);
    return HN_OK;
}

/* Kernels must chain (out of layer i = in of layer i+1) and match the spec. */
static int check_shapes(const char *path, hid_t layers, const struct nn_spec *sp)
{
    hsize_t n_links = 0;
    H5G_info_t info;
    if (H5Gget_info(layers, &info) >= 0)
        n_links = info.nlinks;
    hsize_t prev_out = 0;
    for (int i = 0; i < (int)n_links; i++) {
        hsize_t d[2];
        int rc = kernel_shape(path, layers, i, d);
        if (rc)
            return rc;
        if (i > 0 && d[0] != prev_out)
            return hn_fail(HN_ERR_SHAPE,
                           "%s: /layers/%03d/kernel is [%llu, %llu] but /layers/%03d outputs %llu: "
                           "kernel shapes do not chain",
                           path, i, (unsigned long long)d[0], (unsigned long long)d[1], i - 1,
                           (unsigned long long)prev_out);
        int want_in = i == 0 ? sp->n_inputs : i <= sp->n_layers ? sp->layer[i - 1].width : 0;
        if (i < sp->n_layers && (d[0] != (hsize_t)want_in || d[1] != (hsize_t)sp->layer[i].width))
            return hn_fail(HN_ERR_SHAPE,
                           "%s: /layers/%03d/kernel is [%llu, %llu] but the spec says [%d, %d]",
                           path, i, (unsigned long long)d[0], (unsigned long long)d[1], want_in,
                           sp->layer[i].width);
        prev_out = d[1];
    }
    if ((int)n_links != sp->n_layers)
        return hn_fail(HN_ERR_SHAPE, "%s: /layers has %d layers but the spec has %d", path,
                       (int)n_links, sp->n_layers);
    return HN_OK;
}

static int read_layer(const char *path, hid_t layers, nn_model *m, int i)
{
    char where[32], gname[16];
    snprintf(gname, sizeof gname, "%03d", i);
    snprintf(where, sizeof where, "/layers/%03d", i);
    hid_t g = H5Gopen2(layers, gname, H5P_DEFAULT);
    if (g < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: %s cannot be opened", path, where);
    struct nn_layer_info L;
    nn_model_layer(m, i, &L);
    hsize_t kd[2] = {(hsize_t)L.in, (hsize_t)L.out}, bd[1] = {(hsize_t)L.out};
    char act[32] = "";
    int rc = read_dataset(path, g, where, "kernel", 2, kd, L.kernel);
    if (!rc)
        rc = read_dataset(path, g, where, "bias", 1, bd, L.bias);
    if (!rc && hn_h5_attr_get_str(g, "activation", act, sizeof act) != HN_OK)
        rc = hn_fail(HN_ERR_FORMAT, "%s: %s: attribute 'activation' is missing or not a string",
                     path, where);
    if (!rc && strcmp(act, nn_act_name(L.act)))
        rc = hn_fail(HN_ERR_FORMAT, "%s: %s: activation '%s' but the spec says '%s'", path, where,
                     act, nn_act_name(L.act));
    int file_bn = H5Lexists(g, "gamma", H5P_DEFAULT) > 0;
    if (!rc && file_bn != L.has_bn)
        rc = hn_fail(HN_ERR_FORMAT, "%s: %s: batch-norm weights %s but the spec says %s", path,
                     where, file_bn ? "present" : "missing", L.has_bn ? "bn" : "nobn");
    if (!rc && L.has_bn) {
        rc = read_dataset(path, g, where, "gamma", 1, bd, L.gamma);
        if (!rc)
            rc = read_dataset(path, g, where, "beta", 1, bd, L.beta);
        if (!rc)
            rc = read_dataset(path, g, where, "moving_mean", 1, bd, L.moving_mean);
        if (!rc)
            rc = read_dataset(path, g, where, "moving_variance", 1, bd, L.moving_var);
        for (int j = 0; !rc && j < L.out; j++)
            if (L.moving_var[j] < 0.0f)
                rc = hn_fail(HN_ERR_FORMAT, "%s: %s/moving_variance is negative at index %d", path,
                             where, j);
    }
    H5Gclose(g);
    return rc;
}

static int read_meta_attr(hid_t f, const char *name, nn_model *m)
{
    for (const char *const *r = (const char *const[]){"format", "format_version", "spec", "encoder",
                                                      "target_mean", "target_std", NULL};
         *r; r++)
        if (!strcmp(name, *r))
            return HN_OK;
    hid_t a = H5Aopen(f, name, H5P_DEFAULT);
    if (a < 0)
        return HN_OK;
    hid_t t = H5Aget_type(a);
    H5T_class_t c = H5Tget_class(t);
    H5Tclose(t);
    H5Aclose(a);
    if (c == H5T_STRING) {
        /* a string that cannot be read whole (too long, a NUL inside) is an
         * error: skipping it made a model's recorded search vanish */
        char *buf = malloc(HN_H5_STR_MAX + 1);
        int rc = buf ? hn_h5_attr_get_str(f, name, buf, HN_H5_STR_MAX + 1)
                     : hn_fail(HN_ERR_NOMEM, "out of memory");
        if (!rc)
            rc = nn_model_set_meta_str(m, name, buf);
        free(buf);
        return rc;
    } else if (c == H5T_INTEGER || c == H5T_FLOAT) {
        double v;
        if (hn_h5_attr_get_double(f, name, &v) == HN_OK)
            return nn_model_set_meta_double(m, name, v);
    }
    return HN_OK; /* arrays and other kinds are not part of the training record */
}

struct meta_read {
    nn_model *m;
    int rc;
};

static herr_t meta_cb(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    struct meta_read *r = data;
    r->rc = read_meta_attr(loc, name, r->m);
    return r->rc ? -1 : 0;
}

static int read_root(const char *path, hid_t f, struct nn_spec *sp, char *enc, size_t enc_cap,
                     double *tm, double *ts)
{
    char fmt[64] = "", spec[NN_SPEC_MAX];
    long long ver = 0;
    if (!hn_h5_attr_exists(f, "format"))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: not a heurnet model (root attribute 'format' is missing)", path);
    if (hn_h5_attr_get_str(f, "format", fmt, sizeof fmt) || strcmp(fmt, NN_FORMAT))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: not a heurnet model (attribute 'format' is '%s', expected '%s')", path,
                       fmt, NN_FORMAT);
    if (hn_h5_attr_get_int(f, "format_version", &ver) || ver < 1 || ver > NN_FORMAT_VERSION)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: unsupported or missing format_version (this build reads %d)", path,
                       NN_FORMAT_VERSION);
    if (hn_h5_attr_get_str(f, "spec", spec, sizeof spec))
        return hn_fail(HN_ERR_FORMAT, "%s: root attribute 'spec' is missing or unreadable", path);
    if (nn_spec_parse(spec, NULL, sp)) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", hn_errmsg());
        return hn_fail(HN_ERR_FORMAT, "%s: attribute 'spec': %s", path, msg);
    }
    enc[0] = '\0';
    if (hn_h5_attr_exists(f, "encoder") && hn_h5_attr_get_str(f, "encoder", enc, enc_cap))
        return hn_fail(HN_ERR_FORMAT, "%s: attribute 'encoder' is not a string", path);
    *tm = 0.0;
    *ts = 1.0;
    if ((hn_h5_attr_exists(f, "target_mean") && hn_h5_attr_get_double(f, "target_mean", tm)) ||
        (hn_h5_attr_exists(f, "target_std") && hn_h5_attr_get_double(f, "target_std", ts)) ||
        !(fabs(*tm) <= 1e30 && *ts > 0.0 && *ts <= 1e30))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: target_mean/target_std: need |mean| <= 1e30 and 0 < std <= 1e30", path);
    return HN_OK;
}

static nn_model *load_open(const char *path, hid_t f, int *rc)
{
    struct nn_spec sp;
    char enc[4096];
    double tm, ts;
    nn_model *m = NULL;
    *rc = read_root(path, f, &sp, enc, sizeof enc, &tm, &ts);
    if (*rc)
        return NULL;
    hid_t layers = H5Gopen2(f, "layers", H5P_DEFAULT);
    if (layers < 0) {
        *rc = hn_fail(HN_ERR_FORMAT, "%s: group /layers is missing", path);
        return NULL;
    }
    *rc = check_shapes(path, layers, &sp);
    if (!*rc)
        m = nn_model_alloc(&sp, rc);
    for (int i = 0; m && !*rc && i < sp.n_layers; i++)
        *rc = read_layer(path, layers, m, i);
    H5Gclose(layers);
    if (!*rc)
        *rc = nn_model_set_encoder(m, enc);
    if (!*rc)
        *rc = nn_model_set_target(m, tm, ts);
    struct meta_read mr = {m, 0};
    if (!*rc && H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, NULL, meta_cb, &mr) < 0)
        *rc = mr.rc ? hn_fail(mr.rc, "%s: %s", path, hn_errmsg())
                    : hn_fail(HN_ERR_FORMAT, "%s: root attributes cannot be read", path);
    if (*rc) {
        nn_model_free(m);
        return NULL;
    }
    return m;
}

static void probe_load(void *path)
{
    int st;
    nn_model_free(nn_model_load(path, &st));
}

nn_model *nn_model_load(const char *path, int *status)
{
    int rc0 = hn_h5_probe_call(path, probe_load, (void *)path);
    if (rc0) {
        if (status)
            *status = rc0;
        return NULL;
    }
    hid_t f = hn_h5_open_verified(path);
    if (f < 0) {
        if (status)
            *status = (int)f;
        return NULL;
    }
    int rc;
    nn_model *m = load_open(path, f, &rc);
    H5Fclose(f);
    if (status)
        *status = rc;
    return m;
}
