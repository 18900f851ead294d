/* What all exporters share: format names, the check that a model fits a
 * format, batch-norm and target-scaling folding, the encoder description,
 * and atomic output files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/export_private.h"

/* Generated C keeps two activation vectors of the widest layer on the
 * stack; beyond this width that could overflow a thread's stack. */
#define NN_EX_C_MAX_WIDTH 16384

static const char *const format_names[] = {"onnx", "keras", "c", "npy"};

int nn_export_format_parse(const char *name, enum nn_export_format *fmt)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(name, format_names[i])) {
            *fmt = (enum nn_export_format)i;
            return HN_OK;
        }
    return hn_fail(HN_ERR_ARG, "unknown export format '%s' (expected onnx, keras, c or npy)", name);
}

const char *nn_export_format_name(enum nn_export_format fmt)
{
    return (unsigned)fmt < 4 ? format_names[fmt] : "?";
}

/* Every format has linear, ReLU and ELU (ONNX Relu/Elu, Keras Activation
 * and ELU layers, a loop in C, a name in model.json); the leaky ReLU, which
 * only ONNX import creates, goes back to ONNX (LeakyRelu) alone. A future
 * activation of the nn module lands in the default branch until its
 * writers exist. */
static int act_ok(enum nn_act act, enum nn_export_format fmt)
{
    switch (act) {
    case NN_ACT_LINEAR:
    case NN_ACT_RELU:
    case NN_ACT_ELU:
        return 1;
    case NN_ACT_LEAKY:
        return fmt == NN_EXPORT_ONNX;
    default:
        return 0;
    }
}

int nn_export_check(const nn_model *m, enum nn_export_format fmt)
{
    if ((unsigned)fmt >= 4)
        return hn_fail(HN_ERR_ARG, "unknown export format %d", (int)fmt);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        int rc = nn_model_layer(m, l, &L);
        if (rc)
            return rc;
        if (!act_ok(L.act, fmt))
            return hn_fail(HN_ERR_UNSUPPORTED,
                           "layer %d: activation %d (%s) has no %s equivalent in this exporter", l,
                           (int)L.act, nn_act_name(L.act) ? nn_act_name(L.act) : "unknown",
                           format_names[fmt]);
        if (fmt == NN_EXPORT_C && L.out > NN_EX_C_MAX_WIDTH)
            return hn_fail(HN_ERR_UNSUPPORTED,
                           "layer %d is %d wide; the C export keeps activations on the stack and "
                           "allows at most %d",
                           l, L.out, NN_EX_C_MAX_WIDTH);
    }
    if (fmt == NN_EXPORT_C && nn_model_inputs(m) > NN_EX_C_MAX_WIDTH)
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "the model reads %d inputs; the C export allows at most %d",
                       nn_model_inputs(m), NN_EX_C_MAX_WIDTH);
    return HN_OK;
}

/* ---- folding ----------------------------------------------------------- */

/* W' = W * s per output column, b' = (b - mean) * s + beta with
 * s = gamma / sqrt(var + eps); then, for the last layer, the target scaling. */
static void fold_layer(const struct nn_layer_info *L, double scale, double offset, float *w,
                       float *b)
{
    for (int j = 0; j < L->out; j++) {
        double s = 1.0, c = L->bias[j];
        if (L->has_bn) {
            s = L->gamma[j] / sqrt((double)L->moving_var[j] + L->bn_eps);
            c = (c - L->moving_mean[j]) * s + L->beta[j];
        }
        s *= scale;
        b[j] = (float)(c * scale + offset);
        for (int i = 0; i < L->in; i++)
            w[(size_t)i * L->out + j] = (float)(L->kernel[(size_t)i * L->out + j] * s);
    }
}

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

int nn_ex_fold(const nn_model *m, struct nn_ex_net *net)
{
    double mean, std;
    nn_model_target(m, &mean, &std);
    memset(net, 0, sizeof *net);
    net->n_layers = nn_model_layers(m);
    for (int l = 0; l < net->n_layers; l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        struct nn_ex_dense *d = &net->layer[l];
        *d = (struct nn_ex_dense){.in = L.in, .out = L.out, .act = L.act, .alpha = L.elu_alpha};
        d->w = malloc(sizeof(float) * (size_t)L.in * L.out);
        d->b = malloc(sizeof(float) * (size_t)L.out);
        if (!d->w || !d->b)
            return hn_fail(HN_ERR_NOMEM, "out of memory folding layer %d (%d x %d)", l, L.in,
                           L.out);
        int last_linear = l == net->n_layers - 1 && L.act == NN_ACT_LINEAR;
        fold_layer(&L, last_linear ? std : 1.0, last_linear ? mean : 0.0, d->w, d->b);
        if (!all_finite(d->w, (size_t)L.in * L.out) || !all_finite(d->b, (size_t)L.out))
            return hn_fail(HN_ERR_NAN,
                           "layer %d: folding batch norm and target scaling overflows float "
                           "(a tiny moving variance or huge gamma?)",
                           l);
    }
    const struct nn_ex_dense *last = &net->layer[net->n_layers - 1];
    if (last->act != NN_ACT_LINEAR && (mean != 0.0 || std != 1.0)) {
        net->post = 1;
        net->post_scale = (float)std;
        net->post_offset = (float)mean;
    }
    return HN_OK;
}

void nn_ex_net_free(struct nn_ex_net *net)
{
    for (int l = 0; l < net->n_layers; l++) {
        free(net->layer[l].w);
        free(net->layer[l].b);
        net->layer[l].w = net->layer[l].b = NULL;
    }
}

/* ---- encoder ----------------------------------------------------------- */

/* Accepts the board width (3, 4, 5) or the puzzle's name (8, 15, 24). */
static int encoder_width(const char *v)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (*end)
        return 0;
    if (n >= 2 && n <= 5)
        return (int)n;
    for (int w = 2; w <= 5; w++)
        if (n == w * w - 1)
            return w;
    return 0;
}

void nn_ex_encoder_parse(const char *enc, struct nn_ex_encoder *e)
{
    memset(e, 0, sizeof *e);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", enc ? enc : "");
    char *save = NULL, *tok = strtok_r(buf, " \t", &save);
    if (!tok)
        return;
    snprintf(e->name, sizeof e->name, "%s", tok);
    snprintf(e->goal, sizeof e->goal, "blank-first");
    while ((tok = strtok_r(NULL, " \t", &save))) {
        if (!strncmp(tok, "n=", 2))
            e->width = encoder_width(tok + 2);
        else if (!strncmp(tok, "goal=", 5))
            snprintf(e->goal, sizeof e->goal, "%s", tok + 5);
    }
    int first = !strcmp(e->goal, "blank-first"), last = !strcmp(e->goal, "blank-last");
    if (strcmp(e->name, "npuzzle-onehot") || !e->width || (!first && !last))
        return;
    e->npuzzle = 1;
    int cells = e->width * e->width;
    for (int c = 0; c < cells; c++)
        e->goal_tile[c] = first ? c : (c + 1) % cells;
}

void nn_ex_goal_string(const struct nn_ex_encoder *e, char *buf, size_t cap)
{
    size_t k = 0;
    buf[0] = 0;
    for (int c = 0; e->npuzzle && c < e->width * e->width && k < cap; c++)
        k += (size_t)snprintf(buf + k, cap - k, c ? " %d" : "%d", e->goal_tile[c]);
}

void nn_ex_encoding_text(const struct nn_ex_encoder *e, int inputs, char *buf, size_t cap)
{
    if (!e->npuzzle) {
        snprintf(buf, cap, "%d floats as produced by encoder '%s'", inputs, e->name);
        return;
    }
    int nn = e->width * e->width;
    snprintf(buf, cap,
             "%d floats, all 0 except x[t*%d + p] = 1 where p is the row-major cell (0..%d) "
             "holding tile t (t = 0 is the blank) on a %dx%d board; goal layout %s",
             nn * nn, nn, nn - 1, e->width, e->width, e->goal);
}

/* ---- buffers and files ------------------------------------------------- */

void nn_ex_buf_put(struct nn_ex_buf *b, const void *src, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

void nn_ex_buf_put_f32le(struct nn_ex_buf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    unsigned char le[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                           (unsigned char)(u >> 24)};
    nn_ex_buf_put(b, le, 4);
}

void nn_ex_buf_free(struct nn_ex_buf *b)
{
    free(b->p);
    *b = (struct nn_ex_buf){0};
}

FILE *nn_ex_part_open(const char *path, int *status)
{
    char part[4096];
    int rc = HN_OK;
    FILE *f;
    if (hn_path_is_special(path)) { /* a device: in place */
        f = fopen(path, "wb");
        if (!f)
            rc = hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    } else {
        f = hn_part_fopen(path, part, sizeof part, &rc);
    }
    if (status)
        *status = rc;
    return f;
}

int nn_ex_part_close(FILE *f, const char *path, int ok)
{
    int e = errno; /* when !ok, what the caller's failed write left */
    int werr = !ok || ferror(f) || fflush(f) != 0;
    if (ok && werr)
        e = errno;
    if (fclose(f) != 0 && !werr) {
        werr = 1;
        e = errno;
    }
    if (werr) {
        /* always a message: "success" used to follow a failed fwrite */
        if (!hn_path_is_special(path))
            hn_part_discard(path);
        return hn_fail(HN_ERR_IO, "%s: write failed: %s", path,
                       e ? strerror(e) : "error writing the file");
    }
    return hn_path_is_special(path) ? HN_OK : hn_part_commit(path);
}

int nn_ex_write_file(const char *path, const void *data, size_t n)
{
    int rc;
    FILE *f = nn_ex_part_open(path, &rc);
    if (!f)
        return rc;
    int ok = fwrite(data, 1, n, f) == n;
    return nn_ex_part_close(f, path, ok);
}

void nn_ex_float_str(float v, char *buf, size_t cap)
{
    char tmp[32];
    for (int digits = 6; digits <= 9; digits++) {
        snprintf(tmp, sizeof tmp, "%.*g", digits, (double)v);
        if ((float)strtod(tmp, NULL) == v)
            break;
    }
    size_t n = strlen(tmp) < cap ? strlen(tmp) : cap - 1;
    memcpy(buf, tmp, n);
    buf[n] = 0;
}

void nn_ex_put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
