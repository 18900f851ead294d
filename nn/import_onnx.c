/* ONNX import: walk the decoded graph (nn/onnx_read.c) as a chain of nodes
 * from the one data input to the one output, map each node onto heurnet's
 * layer (dense, batch norm, activation), and build the model. Anything that
 * is not such a chain is refused by name rather than approximated. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/import.h"
#include "nn/nn_private.h"
#include "nn/onnx_private.h"

#define OPSET_MIN 7
#define OPSET_MAX 22

/* One dense layer under construction; arrays are malloc'd. */
struct imp_layer {
    int in, out;
    float *w, *b;
    float *gamma, *beta, *mean, *var; /* batch norm, NULL without */
    float eps;
    int act_set; /* an activation was seen */
    enum nn_act act;
    float alpha;
};

struct imp {
    const struct nn_ox_model *ox;
    const char *path;
    int k;           /* index of the node being mapped */
    const char *cur; /* the tensor the chain has reached */
    int width;       /* its width; -1 before the first layer when unknown */
    int n;           /* layers */
    struct imp_layer layer[NN_MAX_LAYERS];
    /* x' = s * x + t per column, from batch norm, Mul or Add after an
     * activation: folded into the next dense layer, or after the last
     * layer the target scaling (when every column has the same s and t). */
    double *fold_s, *fold_t;
    int has_target;
    double target_std, target_mean;
    char where[160];
};

/* "node 3 (Gemm 'fc1')" for messages about the node being mapped. */
static const char *here(struct imp *im)
{
    const struct nn_ox_node *nd = &im->ox->node[im->k];
    snprintf(im->where, sizeof im->where, "node %d (%s%s%.80s%s)", im->k, nd->op,
             *nd->name ? " '" : "", nd->name, *nd->name ? "'" : "");
    return im->where;
}

static int unsup(struct imp *im, const char *what)
{
    return hn_fail(HN_ERR_UNSUPPORTED, "%s: %s: %s", im->path, here(im), what);
}

/* ---- attributes and constants ------------------------------------------ */

static const struct nn_ox_attr *attr(const struct nn_ox_node *nd, const char *name)
{
    for (int i = 0; i < nd->n_attr && i < NN_OX_MAX_ATTRS; i++)
        if (!strcmp(nd->attr[i].name, name))
            return &nd->attr[i];
    return NULL;
}

static float attr_f(const struct nn_ox_node *nd, const char *name, float dflt)
{
    const struct nn_ox_attr *a = attr(nd, name);
    return a && a->has_f ? a->f : dflt;
}

static int64_t attr_i(const struct nn_ox_node *nd, const char *name, int64_t dflt)
{
    const struct nn_ox_attr *a = attr(nd, name);
    return a && a->has_i ? a->i : dflt;
}

/* An initializer, or the value of a Constant node, named `name`; NULL if
 * the tensor is computed (or does not exist). */
static const struct nn_ox_tensor *konst(const struct nn_ox_model *ox, const char *name)
{
    for (int i = 0; i < ox->n_init; i++)
        if (!strcmp(ox->init[i].name, name))
            return &ox->init[i];
    for (int i = 0; i < ox->n_node; i++) {
        const struct nn_ox_node *nd = &ox->node[i];
        if (!strcmp(nd->op, "Constant") && nd->n_out >= 1 && !strcmp(nd->out[0], name)) {
            const struct nn_ox_attr *a = attr(nd, "value");
            return a && a->has_t ? &a->t : NULL;
        }
    }
    return NULL;
}

/* Why input `name` is no constant: computed by the graph (a branch), or
 * provided by nothing at all (a broken file). */
static int no_konst(struct imp *im, const char *name)
{
    const struct nn_ox_model *ox = im->ox;
    int made = 0;
    for (int i = 0; i < ox->n_node && !made; i++)
        for (int k = 0; k < ox->node[i].n_out && k < NN_OX_MAX_IO; k++)
            made |= !strcmp(ox->node[i].out[k], name);
    for (int i = 0; i < ox->n_input && !made; i++)
        made = !strcmp(ox->input[i].name, name);
    if (made) {
        char what[200];
        snprintf(what, sizeof what,
                 "operand '%.60s' is computed, not a constant (a branch?): only a chain of "
                 "layers is imported",
                 name);
        return unsup(im, what);
    }
    return hn_fail(HN_ERR_FORMAT, "%s: %s: no initializer, Constant or node provides '%s'",
                   im->path, here(im), name);
}

/* The float values of constant input `slot` of the node, which must hold
 * `count` of them (count < 0: any, returned in *n). malloc'd into *out. */
static int konst_floats(struct imp *im, int slot, long count, float **out, long *n)
{
    const struct nn_ox_node *nd = &im->ox->node[im->k];
    *out = NULL;
    if (slot >= nd->n_in || slot >= NN_OX_MAX_IO || !*nd->in[slot])
        return hn_fail(HN_ERR_FORMAT, "%s: %s: input %d is missing", im->path, here(im), slot);
    const char *name = nd->in[slot];
    const struct nn_ox_tensor *t = konst(im->ox, name);
    if (!t)
        return no_konst(im, name);
    if (t->dtype != NN_OX_FLOAT)
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "%s: %s: tensor '%s' has data type %d; only float (1) is imported", im->path,
                       here(im), name, t->dtype);
    if (t->external)
        return hn_fail(HN_ERR_UNSUPPORTED, "%s: tensor '%s' is stored in an external file",
                       im->path, name);
    if (count >= 0 && t->count != count)
        return hn_fail(HN_ERR_SHAPE, "%s: %s: tensor '%s' holds %lld values, expected %ld",
                       im->path, here(im), name, (long long)t->count, count);
    size_t c = (size_t)t->count;
    if (t->raw ? t->raw_n != 4 * c : t->fdata_n != c)
        return hn_fail(
            HN_ERR_FORMAT, "%s: tensor '%s': its shape needs %zu floats but %s holds %zu", im->path,
            name, c, t->raw ? "raw_data" : "float_data", t->raw ? t->raw_n / 4 : t->fdata_n);
    float *v = malloc(sizeof *v * (c ? c : 1));
    if (!v)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory for tensor '%s'", im->path, name);
    for (size_t i = 0; i < c; i++) {
        if (t->raw) {
            const uint8_t *p = t->raw + 4 * i;
            uint32_t bits =
                (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            memcpy(&v[i], &bits, sizeof v[i]);
        } else {
            v[i] = t->fdata[i];
        }
        if (!isfinite(v[i])) {
            free(v);
            return hn_fail(HN_ERR_NAN, "%s: tensor '%s': value %zu is not finite", im->path, name,
                           i);
        }
    }
    *out = v;
    if (n)
        *n = (long)c;
    return HN_OK;
}

static const struct nn_ox_tensor *konst_at(struct imp *im, int slot)
{
    const struct nn_ox_node *nd = &im->ox->node[im->k];
    return slot < nd->n_in && slot < NN_OX_MAX_IO ? konst(im->ox, nd->in[slot]) : NULL;
}

/* ---- dense layers ------------------------------------------------------ */

static struct imp_layer *last(struct imp *im)
{
    return im->n ? &im->layer[im->n - 1] : NULL;
}

/* The pending x' = s * x + t, folded into this layer's kernel and bias (in
 * double). */
static void fold_pending(struct imp *im, struct imp_layer *L)
{
    for (int j = 0; j < L->out; j++) {
        double b = L->b[j];
        for (int i = 0; i < L->in; i++) {
            float *w = &L->w[(size_t)i * L->out + j];
            b += im->fold_t[i] * *w;
            *w = (float)(im->fold_s[i] * *w);
        }
        L->b[j] = (float)b;
    }
    free(im->fold_s);
    free(im->fold_t);
    im->fold_s = im->fold_t = NULL;
}

/* A new layer from kernel B ([in, out], or [out, in] when trans) times alpha. */
static int dense_new(struct imp *im, const float *B, const struct nn_ox_tensor *t, int trans,
                     float alpha)
{
    if (im->n == NN_MAX_LAYERS)
        return unsup(im, "more dense layers than heurnet allows (64)");
    if (t->ndims != 2)
        return hn_fail(HN_ERR_SHAPE, "%s: %s: weight '%s' has %d dimensions, expected 2", im->path,
                       here(im), t->name, t->ndims);
    int in = (int)t->dims[trans ? 1 : 0], out = (int)t->dims[trans ? 0 : 1];
    if (in < 1 || out < 1 || out > 1000000)
        return hn_fail(HN_ERR_SHAPE, "%s: %s: weight '%s' is [%d, %d]", im->path, here(im), t->name,
                       (int)t->dims[0], (int)t->dims[1]);
    if (im->width >= 0 && in != im->width)
        return hn_fail(HN_ERR_SHAPE,
                       "%s: %s: weight '%s' is [%d, %d] (transB %d), so it reads %d values, but "
                       "the tensor before it has %d",
                       im->path, here(im), t->name, (int)t->dims[0], (int)t->dims[1], trans, in,
                       im->width);
    struct imp_layer *L = &im->layer[im->n++];
    *L = (struct imp_layer){.in = in, .out = out, .alpha = 1.0f};
    L->w = malloc(sizeof(float) * (size_t)in * out);
    L->b = calloc((size_t)out, sizeof(float));
    if (!L->w || !L->b)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory for a %d x %d layer", im->path, in, out);
    for (int i = 0; i < in; i++)
        for (int j = 0; j < out; j++) {
            float w = B[trans ? (size_t)j * in + i : (size_t)i * out + j];
            L->w[(size_t)i * out + j] = alpha == 1.0f ? w : alpha * w;
        }
    if (im->fold_s)
        fold_pending(im, L);
    im->width = out;
    return HN_OK;
}

/* Add c (out values, or one broadcast) to the bias, times beta. */
static void bias_add(struct imp_layer *L, const float *c, long n, float beta)
{
    for (int j = 0; j < L->out; j++) {
        float v = c[n == 1 ? 0 : j];
        L->b[j] += beta == 1.0f ? v : beta * v;
    }
}

static int op_gemm(struct imp *im, const struct nn_ox_node *nd)
{
    if (attr_i(nd, "transA", 0))
        return unsup(im, "Gemm with transA 1");
    const struct nn_ox_tensor *t = konst_at(im, 1);
    float *B, *C = NULL;
    long nc = 0;
    int rc = konst_floats(im, 1, -1, &B, NULL);
    if (!rc)
        rc = dense_new(im, B, t, attr_i(nd, "transB", 0) != 0, attr_f(nd, "alpha", 1.0f));
    free(B);
    if (rc || nd->n_in < 3 || !*nd->in[2])
        return rc;
    if ((rc = konst_floats(im, 2, -1, &C, &nc)))
        return rc;
    struct imp_layer *L = last(im);
    if (nc != 1 && nc != L->out)
        rc = hn_fail(HN_ERR_SHAPE, "%s: %s: bias '%s' holds %ld values, expected %d or 1", im->path,
                     here(im), nd->in[2], nc, L->out);
    else
        bias_add(L, C, nc, attr_f(nd, "beta", 1.0f));
    free(C);
    return rc;
}

static int op_matmul(struct imp *im, const struct nn_ox_node *nd)
{
    (void)nd;
    float *B;
    int rc = konst_floats(im, 1, -1, &B, NULL);
    if (!rc)
        rc = dense_new(im, B, konst_at(im, 1), 0, 1.0f);
    free(B);
    return rc;
}

/* ---- element-wise steps ------------------------------------------------ */

/* The pending transform, identity when new. */
static int pending(struct imp *im)
{
    if (im->fold_s)
        return HN_OK;
    int n = im->width;
    im->fold_s = malloc(sizeof(double) * (size_t)n);
    im->fold_t = malloc(sizeof(double) * (size_t)n);
    if (!im->fold_s || !im->fold_t)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory", im->path);
    for (int i = 0; i < n; i++) {
        im->fold_s[i] = 1.0;
        im->fold_t[i] = 0.0;
    }
    return HN_OK;
}

/* Multiply by or add c (one value per column, or one for all) before the
 * layer's activation: into its kernel and bias, or its batch norm's gamma
 * and beta. This is how MatMul gets its bias, and how Keras' batch norm,
 * which tf2onnx may write as Mul and Add, is folded. */
static void layer_affine(struct imp_layer *L, const float *c, long n, int mul)
{
    for (int j = 0; j < L->out; j++) {
        float v = c[n == 1 ? 0 : j];
        float *b = L->gamma ? &L->beta[j] : &L->b[j];
        if (!mul) {
            *b += v;
            continue;
        }
        *b *= v;
        if (L->gamma)
            L->gamma[j] *= v;
        else
            for (int i = 0; i < L->in; i++)
                L->w[(size_t)i * L->out + j] *= v;
    }
}

/* Mul or Add by a constant: into the layer before its activation, else
 * into the pending transform. */
static int op_affine(struct imp *im, const struct nn_ox_node *nd)
{
    int mul = !strcmp(nd->op, "Mul");
    int slot = strcmp(nd->in[0], im->cur) ? 0 : 1; /* the constant operand */
    struct imp_layer *L = last(im);
    float *c;
    long n;
    int rc = konst_floats(im, slot, -1, &c, &n);
    if (rc)
        return rc;
    if (im->width < 0 && n > 1)
        im->width = (int)n; /* on inputs of unknown width */
    if (n != 1 && n != im->width)
        rc = hn_fail(HN_ERR_SHAPE, "%s: %s: '%s' holds %ld values, expected %d or 1", im->path,
                     here(im), nd->in[slot], n, im->width);
    else if (L && !L->act_set && !im->fold_s)
        layer_affine(L, c, n, mul);
    else if (im->width < 0)
        rc = unsup(im, "a scalar Mul or Add on inputs of unknown width");
    else if (!(rc = pending(im)))
        for (int i = 0; i < im->width; i++) {
            double v = c[n == 1 ? 0 : i];
            im->fold_s[i] *= mul ? v : 1.0;
            im->fold_t[i] = mul ? im->fold_t[i] * v : im->fold_t[i] + v;
        }
    free(c);
    return rc;
}

static int op_act(struct imp *im, const struct nn_ox_node *nd)
{
    struct imp_layer *L = last(im);
    if (!L || L->act_set || im->fold_s)
        return unsup(im, "an activation must follow a dense layer (or its batch norm), once");
    L->act_set = 1;
    if (!strcmp(nd->op, "Relu")) {
        L->act = NN_ACT_RELU;
    } else if (!strcmp(nd->op, "LeakyRelu")) {
        /* A negative slope would make the activation decreasing, which the
         * int8 engine's per-row ranges do not allow; slope 0 is a ReLU. */
        L->alpha = attr_f(nd, "alpha", 0.01f);
        L->act = L->alpha == 0.0f ? NN_ACT_RELU : NN_ACT_LEAKY;
        if (L->act == NN_ACT_RELU)
            L->alpha = 1.0f;
        else if (!(L->alpha > 0.0f && L->alpha <= 100.0f))
            return unsup(im, "LeakyRelu alpha outside [0, 100]");
    } else {
        L->act = NN_ACT_ELU;
        L->alpha = attr_f(nd, "alpha", 1.0f);
        if (!(L->alpha > 0.0f && L->alpha <= 100.0f))
            return unsup(im, "Elu alpha outside (0, 100]");
    }
    return HN_OK;
}

/* ---- batch norm -------------------------------------------------------- */

/* Compose s * x + t into the batch norm waiting for the next layer. */
static int bn_pending(struct imp *im, const float *const p[4], float eps)
{
    int rc = pending(im);
    for (int i = 0; !rc && i < im->width; i++) {
        double s = p[0][i] / sqrt((double)p[3][i] + eps);
        im->fold_t[i] = s * (im->fold_t[i] - p[2][i]) + p[1][i];
        im->fold_s[i] *= s;
    }
    return rc;
}

static int op_bn(struct imp *im, const struct nn_ox_node *nd)
{
    if (attr_i(nd, "training_mode", 0) || attr_i(nd, "spatial", 1) != 1)
        return unsup(im, "BatchNormalization in training mode or with spatial 0");
    float eps = attr_f(nd, "epsilon", 1e-5f);
    if (!(eps > 0.0f && eps <= 1.0f))
        return unsup(im, "BatchNormalization epsilon outside (0, 1]");
    float *p[4] = {NULL};
    const struct nn_ox_tensor *scale = konst_at(im, 1);
    if (im->width < 0 && scale)
        im->width = (int)scale->count; /* a batch norm on inputs of unknown width */
    int rc = 0;
    for (int i = 0; i < 4 && !rc; i++)
        rc = konst_floats(im, 1 + i, im->width, &p[i], NULL);
    struct imp_layer *L = last(im);
    if (!rc && L && !L->gamma && !L->act_set && !im->fold_s) {
        L->gamma = p[0], L->beta = p[1], L->mean = p[2], L->var = p[3];
        L->eps = eps;
        for (int i = 0; i < L->out; i++)
            if (!(L->var[i] >= 0.0f))
                return hn_fail(HN_ERR_FORMAT, "%s: %s: a negative variance", im->path, here(im));
        return HN_OK;
    }
    if (!rc)
        rc = bn_pending(im, (const float *const *)p, eps);
    for (int i = 0; i < 4; i++)
        free(p[i]);
    return rc;
}

/* ---- the chain --------------------------------------------------------- */

static int op_pass(struct imp *im, const struct nn_ox_node *nd)
{
    if (!strcmp(nd->op, "Flatten") && attr_i(nd, "axis", 1) != 1)
        return unsup(im, "Flatten with an axis other than 1");
    return HN_OK;
}

typedef int (*op_fn)(struct imp *im, const struct nn_ox_node *nd);

static const struct {
    const char *op;
    op_fn fn;
} ops[] = {
    {"Gemm", op_gemm},     {"MatMul", op_matmul},
    {"Add", op_affine},    {"Mul", op_affine},
    {"Relu", op_act},      {"Elu", op_act},
    {"LeakyRelu", op_act}, {"BatchNormalization", op_bn},
    {"Dropout", op_pass},  {"Identity", op_pass},
    {"Flatten", op_pass},
};

static op_fn op_find(const struct nn_ox_node *nd)
{
    if (*nd->domain && strcmp(nd->domain, "ai.onnx"))
        return NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(nd->op, ops[i].op))
            return ops[i].fn;
    return NULL;
}

/* 1 if any node or graph output reads `name`. */
static int is_read(const struct nn_ox_model *ox, const char *name)
{
    for (int i = 0; i < ox->n_node; i++)
        for (int k = 0; k < ox->node[i].n_in && k < NN_OX_MAX_IO; k++)
            if (!strcmp(ox->node[i].in[k], name))
                return 1;
    for (int i = 0; i < ox->n_output; i++)
        if (!strcmp(ox->output[i].name, name))
            return 1;
    return 0;
}

/* Every operator must be known before the chain is followed, so that the
 * message names the operator rather than the shape of the graph. */
static int check_ops(struct imp *im)
{
    const struct nn_ox_model *ox = im->ox;
    for (im->k = 0; im->k < ox->n_node; im->k++) {
        const struct nn_ox_node *nd = &ox->node[im->k];
        if (!op_find(nd) && strcmp(nd->op, "Constant")) {
            char what[200];
            snprintf(what, sizeof what,
                     "operator %s%s%.60s is not supported (import reads Gemm, MatMul, Add, Mul, "
                     "Relu, Elu, LeakyRelu, BatchNormalization, Dropout, Identity, Flatten)",
                     *nd->domain ? nd->domain : "", *nd->domain ? "." : "", nd->op);
            return unsup(im, what);
        }
    }
    return HN_OK;
}

/* The one graph input that is not an initializer. */
static int data_input(struct imp *im, const struct nn_ox_value **in)
{
    const struct nn_ox_model *ox = im->ox;
    *in = NULL;
    for (int i = 0; i < ox->n_input; i++) {
        if (konst(ox, ox->input[i].name))
            continue;
        if (*in)
            return hn_fail(HN_ERR_UNSUPPORTED, "%s: the graph has two inputs, '%s' and '%s'",
                           im->path, (*in)->name, ox->input[i].name);
        *in = &ox->input[i];
    }
    if (!*in)
        return hn_fail(HN_ERR_FORMAT, "%s: the graph has no input", im->path);
    if ((*in)->elem_type && (*in)->elem_type != NN_OX_FLOAT)
        return hn_fail(HN_ERR_UNSUPPORTED, "%s: input '%s' has element type %d, not float",
                       im->path, (*in)->name, (*in)->elem_type);
    return HN_OK;
}

static int step(struct imp *im)
{
    const struct nn_ox_node *nd = &im->ox->node[im->k];
    if (nd->n_in < 1 || nd->n_out < 1 || !*nd->out[0])
        return hn_fail(HN_ERR_FORMAT, "%s: %s: no input or no output", im->path, here(im));
    int reads = 0;
    for (int i = 0; i < nd->n_in && i < NN_OX_MAX_IO; i++)
        reads += !strcmp(nd->in[i], im->cur);
    int binary = !strcmp(nd->op, "Add") || !strcmp(nd->op, "Mul");
    if (reads != 1 || (!binary && strcmp(nd->in[0], im->cur))) {
        char what[200];
        snprintf(what, sizeof what,
                 "it does not read '%.60s' (once, as its data), the step before it: only a chain "
                 "of layers is imported",
                 im->cur);
        return unsup(im, what);
    }
    for (int i = 1; i < nd->n_out && i < NN_OX_MAX_IO; i++)
        if (*nd->out[i] && is_read(im->ox, nd->out[i]))
            return unsup(im, "a second output (a mask or batch statistics) is used");
    int rc = op_find(nd)(im, nd);
    im->cur = nd->out[0];
    return rc;
}

/* What is pending after the last activation must scale every output alike
 * (heurnet's target scaling, as its export writes it: Mul, then Add). */
static int take_target(struct imp *im)
{
    for (int i = 1; i < im->width; i++)
        if (im->fold_s[i] != im->fold_s[0] || im->fold_t[i] != im->fold_t[0])
            return hn_fail(HN_ERR_UNSUPPORTED,
                           "%s: BatchNormalization, Mul or Add after the last activation treats "
                           "outputs differently; heurnet scales them all alike",
                           im->path);
    if (!(im->fold_s[0] > 0.0 && im->fold_s[0] <= 1e30 && fabs(im->fold_t[0]) <= 1e30))
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "%s: the output is scaled by %g (plus %g) after the last activation; "
                       "heurnet's target scaling needs a factor in (0, 1e30]",
                       im->path, im->fold_s[0], im->fold_t[0]);
    im->has_target = 1;
    im->target_std = im->fold_s[0];
    im->target_mean = im->fold_t[0];
    return HN_OK;
}

static int walk(struct imp *im)
{
    const struct nn_ox_model *ox = im->ox;
    const struct nn_ox_value *in;
    int rc = data_input(im, &in);
    if (rc)
        return rc;
    im->cur = in->name;
    for (im->k = 0; im->k < ox->n_node; im->k++)
        if (strcmp(ox->node[im->k].op, "Constant") && (rc = step(im)))
            return rc;
    if (ox->n_output != 1 || strcmp(ox->output[0].name, im->cur))
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "%s: the graph must have one output, the end of the chain ('%s')", im->path,
                       im->cur);
    if (!im->n)
        return hn_fail(HN_ERR_UNSUPPORTED, "%s: the graph has no dense layer", im->path);
    return im->fold_s ? take_target(im) : HN_OK;
}

/* The graph input's declared width must be the first layer's. */
static int check_io(struct imp *im)
{
    const struct nn_ox_value *in = NULL;
    data_input(im, &in);
    long w = 1;
    for (int i = 1; i < in->ndims; i++)
        w = in->dims[i] > 0 && w > 0 ? w * (long)in->dims[i] : -1;
    if (in->ndims >= 2 && w > 0 && w != im->layer[0].in)
        return hn_fail(HN_ERR_SHAPE,
                       "%s: input '%s' has %ld values per row, the first layer reads %d", im->path,
                       in->name, w, im->layer[0].in);
    const struct nn_ox_value *out = &im->ox->output[0];
    int64_t last_dim = out->ndims >= 2 ? out->dims[out->ndims - 1] : -1;
    if (last_dim > 0 && last_dim != im->layer[im->n - 1].out)
        return hn_fail(HN_ERR_SHAPE,
                       "%s: output '%s' declares %lld values per row, the last layer gives %d",
                       im->path, out->name, (long long)last_dim, im->layer[im->n - 1].out);
    return HN_OK;
}

/* ---- the model --------------------------------------------------------- */

static void spec_of(const struct imp *im, struct nn_spec *s)
{
    memset(s, 0, sizeof *s);
    s->n_inputs = im->layer[0].in;
    s->n_layers = im->n;
    for (int i = 0; i < im->n; i++) {
        const struct imp_layer *L = &im->layer[i];
        s->layer[i] = (struct nn_layer_spec){.width = L->out,
                                             .act = L->act,
                                             .elu_alpha = L->alpha,
                                             .bn = L->gamma != NULL,
                                             .bn_eps = L->gamma ? L->eps : NN_LAYER_DEFAULTS.bn_eps,
                                             .init = NN_INIT_HE};
    }
}

static int all_finite(const float *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* The file's tensors are finite (konst_floats), but folding Mul, Add and
 * batch norm into them may overflow; the model file would then not load. */
static int check_finite(const struct imp *im)
{
    for (int i = 0; i < im->n; i++) {
        const struct imp_layer *L = &im->layer[i];
        size_t n = (size_t)L->out;
        if (!all_finite(L->w, n * (size_t)L->in) || !all_finite(L->b, n) ||
            !all_finite(L->gamma, n) || !all_finite(L->beta, n))
            return hn_fail(HN_ERR_NAN,
                           "%s: layer %d: folding Mul, Add or BatchNormalization into it "
                           "overflows float",
                           im->path, i);
    }
    return HN_OK;
}

static void copy_weights(const struct imp *im, nn_model *m)
{
    for (int i = 0; i < im->n; i++) {
        const struct imp_layer *L = &im->layer[i];
        struct nn_layer_info info;
        size_t n = (size_t)L->out * sizeof(float);
        nn_model_layer(m, i, &info);
        memcpy(info.kernel, L->w, n * (size_t)L->in);
        memcpy(info.bias, L->b, n);
        if (L->gamma) {
            memcpy(info.gamma, L->gamma, n);
            memcpy(info.beta, L->beta, n);
            memcpy(info.moving_mean, L->mean, n);
            memcpy(info.moving_var, L->var, n);
        }
    }
}

/* Encoder, training record ("train.K" -> K, numbers as numbers) and the
 * producer, from the metadata properties. */
static int take_meta(const struct nn_ox_model *ox, nn_model *m)
{
    int rc = HN_OK;
    for (int i = 0; i < ox->n_meta && !rc; i++) {
        const char *k = ox->meta[i].key, *v = ox->meta[i].value;
        if (!strcmp(k, "encoder")) {
            rc = nn_model_set_encoder(m, v);
        } else if (!strncmp(k, "train.", 6) && k[6]) {
            char *end;
            errno = 0;
            double x = strtod(v, &end);
            if (*v && !*end && !errno && isfinite(x))
                rc = nn_model_set_meta_double(m, k + 6, x);
            else
                rc = nn_model_set_meta_str(m, k + 6, v);
            if (rc == HN_ERR_ARG) /* a key the model file reserves: provenance only, dropped */
                rc = HN_OK;
        }
    }
    char from[300];
    snprintf(from, sizeof from, "onnx %.120s %.120s", *ox->producer ? ox->producer : "(unknown)",
             ox->producer_version);
    if (!rc)
        rc = nn_model_set_meta_str(m, "imported_from", from);
    return rc;
}

static nn_model *build(struct imp *im, int *status)
{
    struct nn_spec spec;
    spec_of(im, &spec);
    int rc = check_finite(im);
    if (rc) {
        *status = rc;
        return NULL;
    }
    rc = nn_spec_check(&spec);
    nn_model *m = rc ? NULL : nn_model_alloc(&spec, &rc);
    if (m) {
        copy_weights(im, m);
        if (im->has_target)
            rc = nn_model_set_target(m, im->target_mean, im->target_std);
        if (!rc)
            rc = take_meta(im->ox, m);
    }
    if (rc) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hn_errmsg());
        nn_model_free(m);
        m = NULL;
        hn_fail(rc, "%s: %s", im->path, msg);
    }
    *status = rc;
    return m;
}

static void imp_free(struct imp *im)
{
    for (int i = 0; i < im->n; i++) {
        struct imp_layer *L = &im->layer[i];
        free(L->w), free(L->b), free(L->gamma), free(L->beta), free(L->mean), free(L->var);
    }
    free(im->fold_s);
    free(im->fold_t);
}

static int check_model(struct imp *im)
{
    const struct nn_ox_model *ox = im->ox;
    if (ox->opset < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: no opset_import for the default ONNX domain", im->path);
    if (ox->opset < OPSET_MIN || ox->opset > OPSET_MAX)
        return hn_fail(HN_ERR_UNSUPPORTED, "%s: opset %lld; import reads opsets %d to %d", im->path,
                       (long long)ox->opset, OPSET_MIN, OPSET_MAX);
    int rc = check_ops(im);
    if (!rc)
        rc = walk(im);
    if (!rc)
        rc = check_io(im);
    return rc;
}

nn_model *nn_import_onnx_mem(const void *data, size_t size, const char *name, int *status)
{
    int st;
    if (!status)
        status = &st;
    struct nn_ox_model ox;
    struct imp *im = calloc(1, sizeof *im);
    nn_model *m = NULL;
    *status =
        im ? nn_ox_read(data, size, name, &ox) : hn_fail(HN_ERR_NOMEM, "%s: out of memory", name);
    if (!*status) {
        *im = (struct imp){.ox = &ox, .path = name, .width = -1};
        *status = check_model(im);
        if (!*status)
            m = build(im, status);
        imp_free(im);
    }
    if (im)
        nn_ox_model_free(&ox);
    free(im);
    return m;
}

nn_model *nn_import_onnx(const char *path, int *status)
{
    int st;
    if (!status)
        status = &st;
    FILE *f = fopen(path, "rb");
    if (!f) {
        *status = hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    while (!ferror(f) && !feof(f) && n <= NN_OX_MAX_FILE) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *p = realloc(buf, cap);
            if (!p)
                break;
            buf = p;
        }
        n += fread(buf + n, 1, cap - n, f);
    }
    int failed = ferror(f) || !feof(f);
    fclose(f);
    nn_model *m = NULL;
    if (failed)
        *status =
            hn_fail(n > NN_OX_MAX_FILE ? HN_ERR_FORMAT : HN_ERR_IO,
                    "%s: cannot read (larger than 2 GiB, out of memory or a read error)", path);
    else
        m = nn_import_onnx_mem(buf, n, path, status);
    free(buf);
    return m;
}
