/* Inference: batch norm folded into the dense weights once, shared by
 * reference between per-thread workspaces; one sgemm plus one fused
 * bias+activation pass per layer, and a hand-written matrix-vector path for
 * single rows and mostly-zero inputs (one-hot boards) that skips zeros. */
#include "nn/infer_private.h"
#include "nn/kernels.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct nn_infer {
    struct nn_folded *f;
    int max_batch;
    float *a, *b; /* ping-pong activations [max_batch, widest] */
};

void nn_folded_release(struct nn_folded *f)
{
    if (f && atomic_fetch_sub(&f->refs, 1) == 1) {
        free(f->buf);
        free(f);
    }
}

/* W' = W * s per output column, b' = (b - mean) * s + beta, s = gamma / sqrt(var + eps). */
struct nn_folded *nn_fold(const nn_model *m)
{
    struct nn_folded *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->buf = nn_falloc(m->n_params);
    if (!f->buf) {
        free(f);
        return NULL;
    }
    atomic_init(&f->refs, 1);
    memcpy(f->buf, m->params, m->n_params * sizeof(float));
    f->n_inputs = m->spec.n_inputs;
    f->n_layers = m->spec.n_layers;
    f->widest = nn_widest(&m->spec);
    f->mean = (float)m->target_mean;
    f->std = (float)m->target_std;
    for (int l = 0; l < m->spec.n_layers; l++) {
        const struct nn_layer_spec *ls = &m->spec.layer[l];
        const struct nn_layer_view *v = &m->view[l];
        float *w = f->buf + v->kernel, *b = f->buf + v->bias;
        f->layer[l].in = v->in;
        f->layer[l].out = v->out;
        f->layer[l].act = ls->act;
        f->layer[l].alpha = ls->elu_alpha;
        f->layer[l].w = w;
        f->layer[l].b = b;
        if (!ls->bn)
            continue;
        const float *g = m->params + v->gamma, *be = m->params + v->beta;
        const float *rm = m->state + v->mean, *rv = m->state + v->var;
        for (int j = 0; j < v->out; j++) {
            float s = g[j] / sqrtf(rv[j] + ls->bn_eps);
            b[j] = (b[j] - rm[j]) * s + be[j];
            for (int i = 0; i < v->in; i++)
                w[(size_t)i * v->out + j] *= s;
        }
    }
    return f;
}

static nn_infer *infer_make(struct nn_folded *f, int max_batch, int *status)
{
    int rc;
    if (max_batch < 1 || max_batch > (1 << 24)) {
        rc = hn_fail(HN_ERR_ARG, "batch size %d out of range [1, %d]", max_batch, 1 << 24);
        goto fail;
    }
    nn_infer *c = calloc(1, sizeof *c);
    if (c) {
        c->max_batch = max_batch;
        c->a = nn_falloc((size_t)max_batch * f->widest);
        c->b = nn_falloc((size_t)max_batch * f->widest);
        c->f = f;
        if (c->a && c->b)
            return c;
        free(c->a);
        free(c->b);
        free(c);
    }
    rc = hn_fail(HN_ERR_NOMEM, "out of memory for an inference workspace of batch %d", max_batch);
fail:
    nn_folded_release(f);
    if (status)
        *status = rc;
    return NULL;
}

nn_infer *nn_infer_new(const nn_model *m, int max_batch, int *status)
{
    struct nn_folded *f = nn_fold(m);
    if (!f) {
        int rc = hn_fail(HN_ERR_NOMEM, "out of memory for folded weights");
        if (status)
            *status = rc;
        return NULL;
    }
    return infer_make(f, max_batch, status);
}

nn_infer *nn_infer_clone(const nn_infer *base, int max_batch, int *status)
{
    atomic_fetch_add(&base->f->refs, 1);
    return infer_make(base->f, max_batch, status);
}

void nn_infer_free(nn_infer *c)
{
    if (!c)
        return;
    nn_folded_release(c->f);
    free(c->a);
    free(c->b);
    free(c);
}

int nn_infer_refresh(nn_infer *c, const nn_model *m)
{
    if (m->spec.n_inputs != c->f->n_inputs || nn_widest(&m->spec) > c->f->widest)
        return hn_fail(HN_ERR_ARG, "refresh: the model's shape differs from the context's");
    struct nn_folded *f = nn_fold(m);
    if (!f)
        return hn_fail(HN_ERR_NOMEM, "out of memory for folded weights");
    nn_folded_release(c->f);
    c->f = f;
    return HN_OK;
}

int nn_infer_max_batch(const nn_infer *c)
{
    return c->max_batch;
}

static void bias_act(float *z, const float *b, int n, int w, enum nn_act act, float alpha)
{
    for (int i = 0; i < n; i++) {
        float *zi = z + (size_t)i * w;
        switch (act) {
        case NN_ACT_ELU:
            for (int j = 0; j < w; j++)
                zi[j] = nn_act_apply(NN_ACT_ELU, alpha, zi[j] + b[j]);
            break;
        case NN_ACT_RELU:
            for (int j = 0; j < w; j++)
                zi[j] = nn_act_apply(NN_ACT_RELU, alpha, zi[j] + b[j]);
            break;
        case NN_ACT_LEAKY:
            for (int j = 0; j < w; j++)
                zi[j] = nn_act_apply(NN_ACT_LEAKY, alpha, zi[j] + b[j]);
            break;
        default:
            for (int j = 0; j < w; j++)
                zi[j] += b[j];
        }
    }
}

void nn_gemm_rows(const float *x, int n, const float *W, int in, int out, float *y)
{
    if (n == 1 || nn_mostly_zero(x, (size_t)n * in)) {
        for (int r = 0; r < n; r++)
            nn_matvec(x + (size_t)r * in, W, in, out, y + (size_t)r * out);
        return;
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, out, in, 1.0f, x, in, W, out, 0.0f, y,
                out);
}

int nn_infer_run(nn_infer *c, const float *x, int n, float *y)
{
    const struct nn_folded *f = c->f;
    if (n < 1 || n > c->max_batch)
        return hn_fail(HN_ERR_ARG, "batch of %d rows, the workspace holds 1..%d", n, c->max_batch);
    const float *in = x;
    float *out = c->a;
    for (int l = 0; l < f->n_layers; l++) {
        int k = f->layer[l].in, w = f->layer[l].out;
        if (l == 0)
            nn_gemm_rows(in, n, f->layer[l].w, k, w, out); /* inputs may be one-hot */
        else if (n == 1)
            nn_matvec(in, f->layer[l].w, k, w, out);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, w, k, 1.0f, in, k,
                        f->layer[l].w, w, 0.0f, out, w);
        bias_act(out, f->layer[l].b, n, w, f->layer[l].act, f->layer[l].alpha);
        in = out;
        out = out == c->a ? c->b : c->a;
    }
    size_t k = (size_t)n * f->layer[f->n_layers - 1].out;
    for (size_t i = 0; i < k; i++)
        y[i] = in[i] * f->std + f->mean;
    return HN_OK;
}

void nn_blas_threads(int n)
{
    openblas_set_num_threads(n > 0 ? n : 1);
}
