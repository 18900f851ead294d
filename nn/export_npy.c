/* npy export: the raw weights as .npy files (readable by numpy, PyTorch via
 * numpy, Julia's NPZ, ...) and model.json saying how they combine, for
 * users who want to rebuild the network in their own framework. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nn/export_private.h"

#define NPY_MAX_FILES (6 * NN_MAX_LAYERS + 1)

/* The folder under construction and the files written into it, so a
 * failure can remove exactly what it created. */
struct npy_dir {
    char path[4096];
    char file[NPY_MAX_FILES][32];
    int n_files;
};

/* .npy version 1.0: magic, version, header length, a Python dict literal
 * padded with spaces to a multiple of 64 bytes, then little-endian data. */
static int npy_write(struct npy_dir *d, const char *name, const float *data, int rank, long d0,
                     long d1)
{
    char full[4200], dict[160], head[256];
    snprintf(full, sizeof full, "%s/%s", d->path, name);
    if (rank == 2)
        snprintf(dict, sizeof dict,
                 "{'descr': '<f4', 'fortran_order': False, 'shape': (%ld, %ld), }", d0, d1);
    else
        snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%ld,), }",
                 d0);
    size_t hlen = strlen(dict) + 1, total = (10 + hlen + 63) / 64 * 64;
    memcpy(head, "\x93NUMPY\x01\x00", 8);
    head[8] = (char)((total - 10) & 0xff);
    head[9] = (char)((total - 10) >> 8);
    memset(head + 10, ' ', total - 10);
    memcpy(head + 10, dict, strlen(dict));
    head[total - 1] = '\n';
    struct nn_ex_buf b = {0};
    nn_ex_buf_put(&b, head, total);
    for (long i = 0; i < d0 * (rank == 2 ? d1 : 1); i++)
        nn_ex_buf_put_f32le(&b, data[i]);
    FILE *f = b.failed ? NULL : fopen(full, "wb");
    int ok = f && fwrite(b.p, 1, b.n, f) == b.n;
    if (f && fclose(f) != 0)
        ok = 0;
    nn_ex_buf_free(&b);
    if (f)
        snprintf(d->file[d->n_files++], sizeof d->file[0], "%s", name);
    return ok ? HN_OK : hn_fail(HN_ERR_IO, "%s: cannot write: %s", full, strerror(errno));
}

static int write_layer_arrays(struct npy_dir *d, int l, const struct nn_layer_info *L)
{
    static const char *const bn_names[4] = {"gamma", "beta", "moving_mean", "moving_variance"};
    const float *bn[4] = {L->gamma, L->beta, L->moving_mean, L->moving_var};
    char name[32];
    snprintf(name, sizeof name, "layer%03d_kernel.npy", l);
    int rc = npy_write(d, name, L->kernel, 2, L->in, L->out);
    snprintf(name, sizeof name, "layer%03d_bias.npy", l);
    if (!rc)
        rc = npy_write(d, name, L->bias, 1, L->out, 0);
    for (int i = 0; i < 4 && L->has_bn && !rc; i++) {
        snprintf(name, sizeof name, "layer%03d_%s.npy", l, bn_names[i]);
        rc = npy_write(d, name, bn[i], 1, L->out, 0);
    }
    return rc;
}

/* ---- model.json -------------------------------------------------------- */

static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static void json_layer(FILE *f, int l, const struct nn_layer_info *L)
{
    char alpha[32], drop[32], eps[32];
    nn_ex_float_str(L->elu_alpha, alpha, sizeof alpha);
    nn_ex_float_str(L->dropout, drop, sizeof drop);
    nn_ex_float_str(L->bn_eps, eps, sizeof eps);
    fprintf(f,
            "    {\"index\": %d, \"in\": %d, \"out\": %d, \"kernel\": \"layer%03d_kernel.npy\", "
            "\"bias\": \"layer%03d_bias.npy\",\n     \"activation\": \"%s\", \"elu_alpha\": %s, "
            "\"dropout\": %s,\n     \"batch_norm\": ",
            l, L->in, L->out, l, l, nn_act_name(L->act), alpha, drop);
    if (L->has_bn)
        fprintf(f,
                "{\"gamma\": \"layer%03d_gamma.npy\", \"beta\": \"layer%03d_beta.npy\", "
                "\"moving_mean\": \"layer%03d_moving_mean.npy\",\n"
                "                    \"moving_variance\": \"layer%03d_moving_variance.npy\", "
                "\"epsilon\": %s}}",
                l, l, l, l, eps);
    else
        fputs("null}", f);
}

static void json_encoder(FILE *f, const nn_model *m)
{
    struct nn_ex_encoder e;
    char text[512];
    nn_ex_encoder_parse(nn_model_encoder(m), &e);
    nn_ex_encoding_text(&e, nn_model_inputs(m), text, sizeof text);
    fputs("  \"encoder\": {\"string\": ", f);
    nn_ex_put_quoted(f, nn_model_encoder(m));
    fputs(", \"name\": ", f);
    nn_ex_put_quoted(f, e.name);
    if (e.npuzzle) {
        fprintf(f, ", \"width\": %d, \"goal\": \"%s\",\n              \"goal_layout\": [", e.width,
                e.goal);
        for (int c = 0; c < e.width * e.width; c++)
            fprintf(f, c ? ", %d" : "%d", e.goal_tile[c]);
        fputs("]", f);
    }
    fputs(",\n              \"description\": ", f);
    nn_ex_put_quoted(f, text);
    fputs("},\n", f);
}

static void json_training(FILE *f, const nn_model *m)
{
    fputs("  \"training\": {", f);
    for (int i = 0; i < nn_model_meta_count(m); i++) {
        const char *key, *str;
        int is_num;
        double num;
        nn_model_meta_at(m, i, &key, &is_num, &str, &num);
        fputs(i ? ",\n               " : "", f);
        nn_ex_put_quoted(f, key);
        fputs(": ", f);
        if (is_num)
            json_number(f, num);
        else
            nn_ex_put_quoted(f, str);
    }
    fputs("}\n", f);
}

static void json_model(FILE *f, const nn_model *m)
{
    char spec[NN_SPEC_MAX];
    double mean, std;
    nn_spec_format(nn_model_spec(m), NULL, spec, sizeof spec);
    nn_model_target(m, &mean, &std);
    fputs("{\n  \"format\": \"heurnet-npy\",\n  \"format_version\": 1,\n  \"spec\": ", f);
    nn_ex_put_quoted(f, spec);
    fprintf(f, ",\n  \"inputs\": %d,\n  \"outputs\": %d,\n", nn_model_inputs(m),
            nn_model_outputs(m));
    fputs(
        "  \"forward\": \"a = x; for each layer: z = a @ kernel + bias; with batch_norm: z = (z - "
        "moving_mean) / sqrt(moving_variance + epsilon) * gamma + beta; a = activation(z) with "
        "relu(z) = max(z, 0), elu(z) = z if z > 0 else elu_alpha * (exp(z) - 1), linear(z) = z; "
        "dropout acts in training only. Output y = a * target.std + target.mean.\",\n",
        f);
    fputs("  \"target\": {\"mean\": ", f);
    json_number(f, mean);
    fputs(", \"std\": ", f);
    json_number(f, std);
    fputs("},\n", f);
    json_encoder(f, m);
    fputs("  \"layers\": [\n", f);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        json_layer(f, l, &L);
        fputs(l + 1 < nn_model_layers(m) ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
    json_training(f, m);
    fputs("}\n", f);
}

static int write_json(struct npy_dir *d, const nn_model *m)
{
    char full[4200];
    snprintf(full, sizeof full, "%s/model.json", d->path);
    FILE *f = fopen(full, "w");
    if (!f)
        return hn_fail(HN_ERR_IO, "%s: cannot create: %s", full, strerror(errno));
    snprintf(d->file[d->n_files++], sizeof d->file[0], "model.json");
    json_model(f, m);
    int ok = !ferror(f);
    if (fclose(f) != 0)
        ok = 0;
    return ok ? HN_OK : hn_fail(HN_ERR_IO, "%s: write failed (disk full?)", full);
}

static void npy_dir_remove(struct npy_dir *d)
{
    char full[4200];
    for (int i = 0; i < d->n_files; i++) {
        snprintf(full, sizeof full, "%s/%s", d->path, d->file[i]);
        unlink(full);
    }
    rmdir(d->path);
}

int nn_export_npy(const nn_model *m, const char *dir)
{
    int rc = nn_export_check(m, NN_EXPORT_NPY);
    if (rc)
        return rc;
    struct npy_dir *d = calloc(1, sizeof *d);
    if (!d)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    if ((rc = hn_part_path(dir, d->path, sizeof d->path)))
        goto done;
    if (mkdir(d->path, 0777) != 0) {
        rc = hn_fail(HN_ERR_IO, "%s: cannot create the temporary folder %s: %s%s", dir, d->path,
                     strerror(errno),
                     errno == EEXIST ? " (left by an interrupted export? remove it)" : "");
        goto done;
    }
    for (int l = 0; l < nn_model_layers(m) && !rc; l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        rc = write_layer_arrays(d, l, &L);
    }
    if (!rc)
        rc = write_json(d, m);
    if (!rc && rename(d->path, dir) != 0)
        rc = hn_fail(HN_ERR_IO, "%s: cannot rename %s into place: %s", dir, d->path,
                     strerror(errno));
    if (rc)
        npy_dir_remove(d);
done:
    free(d);
    return rc;
}
