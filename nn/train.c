/* Training workspace: forward in train or eval mode, losses, and backward
 * into the flat gradient buffer. Per layer the work is one sgemm forward and
 * two backward; bias, batch norm, activation and dropout are fused into one
 * or two passes over the activations, and nothing is allocated per step. */
#include "nn/kernels.h"
#include "nn/nn_private.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct nn_train {
    nn_model *m;
    int max_batch, n, mode, have_fwd;
    int sparse_input; /* the last input was mostly zeros: layer 0 skips them */
    int active_input; /* the last input came as active indices (idx, off) */
    int32_t *idx;     /* copies of the active inputs of the last sparse forward */
    int32_t *off;     /* [max_batch + 1], rebased to start at 0 */
    int32_t *by_in;   /* backward: the rows of each input, [in_end[i-1], in_end[i]) */
    int32_t *in_end;  /* [inputs] */
    size_t idx_cap;
    float momentum;
    float *act[NN_MAX_LAYERS + 1]; /* act[0] input copy, act[l+1] output of layer l */
    float *z[NN_MAX_LAYERS];       /* x @ W of bn layers (bias and normalisation are
                                      applied on the fly: backward recomputes xhat) */
    float *mean[NN_MAX_LAYERS], *invstd[NN_MAX_LAYERS]; /* batch statistics */
    uint32_t drop_seed[NN_MAX_LAYERS];
    float *dbuf[2], *dy;
    float *col_a, *col_b; /* per-column float partial sums */
    float *shift;         /* per-column shift of the synchronised sums */
    double *sum;          /* per-column totals: [0, w) first, [w, 2w) second
                             sum, [2w] rows (one buffer: one reduction) */
    nn_sum_fn sync;       /* synchronised batch norm, or NULL */
    void *sync_user;
    double rows[NN_MAX_LAYERS]; /* rows of the whole batch per bn layer */
    float *grad;
    hn_rng *rng;
};

void nn_train_free(nn_train *t)
{
    if (!t)
        return;
    for (int l = 0; l <= NN_MAX_LAYERS; l++)
        free(t->act[l]);
    for (int l = 0; l < NN_MAX_LAYERS; l++) {
        free(t->z[l]);
        free(t->mean[l]);
        free(t->invstd[l]);
    }
    free(t->dbuf[0]);
    free(t->dbuf[1]);
    free(t->dy);
    free(t->col_a);
    free(t->col_b);
    free(t->shift);
    free(t->sum);
    free(t->grad);
    free(t->idx);
    free(t->off);
    free(t->by_in);
    free(t->in_end);
    hn_rng_free(t->rng);
    free(t);
}

static int train_alloc(nn_train *t)
{
    const struct nn_spec *sp = &t->m->spec;
    size_t b = (size_t)t->max_batch, w = (size_t)nn_widest(sp);
    int ok = (t->act[0] = nn_falloc(b * sp->n_inputs)) != NULL;
    for (int l = 0; ok && l < sp->n_layers; l++) {
        size_t out = (size_t)sp->layer[l].width;
        ok = (t->act[l + 1] = nn_falloc(b * out)) != NULL;
        if (ok && sp->layer[l].bn)
            ok = (t->z[l] = nn_falloc(b * out)) && (t->mean[l] = nn_falloc(out)) &&
                 (t->invstd[l] = nn_falloc(out));
    }
    ok = ok && (t->dbuf[0] = nn_falloc(b * w)) && (t->dbuf[1] = nn_falloc(b * w)) &&
         (t->dy = nn_falloc(b * sp->layer[sp->n_layers - 1].width)) && (t->col_a = nn_falloc(w)) &&
         (t->col_b = nn_falloc(w)) && (t->shift = nn_falloc(w)) &&
         (t->sum = calloc(2 * w + 1, sizeof(double))) && (t->grad = nn_falloc(t->m->n_params)) &&
         (t->off = malloc(sizeof *t->off * (b + 1))) &&
         (t->in_end = malloc(sizeof *t->in_end * (size_t)sp->n_inputs));
    return ok ? HN_OK
              : hn_fail(HN_ERR_NOMEM, "out of memory for a training workspace of batch %d",
                        t->max_batch);
}

nn_train *nn_train_new(nn_model *m, int max_batch, uint64_t seed, int *status)
{
    int rc = HN_OK;
    nn_train *t = NULL;
    if (max_batch < 1 || max_batch > (1 << 24)) {
        rc = hn_fail(HN_ERR_ARG, "batch size %d out of range [1, %d]", max_batch, 1 << 24);
        goto fail;
    }
    t = calloc(1, sizeof *t);
    if (!t) {
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
        goto fail;
    }
    t->m = m;
    t->max_batch = max_batch;
    t->momentum = 0.99f;
    t->rng = hn_rng_new(seed);
    if (!t->rng) {
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if ((rc = train_alloc(t)))
        goto fail;
    return t;
fail:
    nn_train_free(t);
    if (status)
        *status = rc;
    return NULL;
}

void nn_train_set_bn_momentum(nn_train *t, float momentum)
{
    t->momentum = momentum;
}
void nn_train_set_sum(nn_train *t, nn_sum_fn fn, void *user)
{
    t->sync = fn;
    t->sync_user = user;
}
const float *nn_train_output(const nn_train *t)
{
    return t->act[t->m->spec.n_layers];
}
float *nn_train_output_grad(nn_train *t)
{
    return t->dy;
}
float *nn_train_grad(nn_train *t)
{
    return t->grad;
}
hn_rng *nn_train_rng(nn_train *t)
{
    return t->rng;
}

/* ---- forward ----------------------------------------------------------- */

/* Column sums of z - shift and of its square (n rows, w columns) into
 * t->sum: partial sums in float over blocks of rows, totals in double. */
static void shifted_sums(nn_train *t, const float *z, int n, int w, const float *shift)
{
    float *pa = t->col_a, *pb = t->col_b;
    double *sa = t->sum, *sb = t->sum + w;
    memset(sa, 0, (size_t)w * sizeof *sa);
    memset(sb, 0, (size_t)w * sizeof *sb);
    for (int i0 = 0; i0 < n; i0 += 64) {
        int i1 = i0 + 64 < n ? i0 + 64 : n;
        memset(pa, 0, (size_t)w * sizeof *pa);
        memset(pb, 0, (size_t)w * sizeof *pb);
        for (int i = i0; i < i1; i++) {
            const float *zi = z + (size_t)i * w;
            for (int j = 0; j < w; j++) {
                float d = zi[j] - shift[j];
                pa[j] += d;
                pb[j] += d * d;
            }
        }
        for (int j = 0; j < w; j++) {
            sa[j] += pa[j];
            sb[j] += pb[j];
        }
    }
    t->sum[2 * w] = n;
}

/* Column means and inverse standard deviations of z (n rows, w columns) plus
 * bias, over the whole batch. Sums are shifted to avoid cancellation: by the
 * first row alone, by the running mean (the same in every process) when
 * synchronised. */
static int batch_stats(nn_train *t, int l, const float *z, int n, int w, const float *bias,
                       float *mean, float *invstd, float eps, float *run_mean, float *run_var)
{
    const float *shift = z;
    if (t->sync) {
        for (int j = 0; j < w; j++)
            t->shift[j] = run_mean[j] - bias[j];
        shift = t->shift;
    }
    shifted_sums(t, z, n, w, shift);
    if (t->sync) {
        int rc = t->sync(t->sum, 2 * (size_t)w + 1, t->sync_user);
        if (rc)
            return rc;
    }
    double rows = t->sum[2 * w], *sa = t->sum, *sb = t->sum + w;
    float keep = t->momentum;
    t->rows[l] = rows;
    for (int j = 0; j < w; j++) {
        double mu_shift = sa[j] / rows;
        double var = sb[j] / rows - mu_shift * mu_shift;
        if (var < 0.0)
            var = 0.0;
        mean[j] = (float)(mu_shift + shift[j]);
        invstd[j] = (float)(1.0 / sqrt(var + eps));
        run_mean[j] = keep * run_mean[j] + (1.0f - keep) * (mean[j] + bias[j]);
        run_var[j] = keep * run_var[j] + (1.0f - keep) * (float)(var * rows / (rows - 1));
    }
    return HN_OK;
}

/* h = act(u), then inverted dropout, for one row; u is overwritten by nothing. */
static void act_row(const struct nn_layer_spec *l, const float *u, float *h, int w, uint32_t seed,
                    uint32_t base, int drop)
{
    float a = l->elu_alpha;
    switch (l->act) {
    case NN_ACT_ELU:
        for (int j = 0; j < w; j++)
            h[j] = nn_act_apply(NN_ACT_ELU, a, u[j]);
        break;
    case NN_ACT_RELU:
        for (int j = 0; j < w; j++)
            h[j] = nn_act_apply(NN_ACT_RELU, a, u[j]);
        break;
    case NN_ACT_LEAKY:
        for (int j = 0; j < w; j++)
            h[j] = nn_act_apply(NN_ACT_LEAKY, a, u[j]);
        break;
    default:
        if (h != u)
            memcpy(h, u, (size_t)w * sizeof *h);
    }
    if (drop) {
        uint32_t thresh = (uint32_t)(l->dropout * 4294967296.0);
        float scale = 1.0f / (1.0f - l->dropout);
        for (int j = 0; j < w; j++)
            h[j] = nn_drop_hash(seed, base + (uint32_t)j) >= thresh ? h[j] * scale : 0.0f;
    }
}

/* acc (out floats) = 0 + the rows sel[0..count) of base ([*, out]
 * row-major), four at a time so that acc is loaded and stored once per
 * four rows; each element still gets the additions one by one in sel's
 * order (the sums of the dense path's row-wise kernels, bit for bit). */
static void sum_rows(float *restrict acc, const float *base, const int32_t *sel, int32_t count,
                     int out)
{
    int32_t k = 0;
    memset(acc, 0, (size_t)out * sizeof *acc);
    for (; k + 4 <= count; k += 4) {
        const float *restrict r0 = base + (size_t)sel[k] * out;
        const float *restrict r1 = base + (size_t)sel[k + 1] * out;
        const float *restrict r2 = base + (size_t)sel[k + 2] * out;
        const float *restrict r3 = base + (size_t)sel[k + 3] * out;
        for (int j = 0; j < out; j++) {
            float a = acc[j];
            a += r0[j];
            a += r1[j];
            a += r2[j];
            a += r3[j];
            acc[j] = a;
        }
    }
    for (; k < count; k++) {
        const float *restrict r0 = base + (size_t)sel[k] * out;
        for (int j = 0; j < out; j++)
            acc[j] += r0[j];
    }
}

/* z = x @ W for 0/1 rows given by their active inputs: per row the sum of
 * the kernel rows ([in, out] row-major, so each one is contiguous) of its
 * active inputs. In ascending order, the sums are nn_matvec's. */
static void active_rows(const int32_t *idx, const int32_t *off, int n, const float *W, int out,
                        float *z)
{
    for (int r = 0; r < n; r++)
        sum_rows(z + (size_t)r * out, W, idx + off[r], off[r + 1] - off[r], out);
}

static int forward_layer(nn_train *t, int l, int n, int train)
{
    const nn_model *m = t->m;
    const struct nn_layer_spec *ls = &m->spec.layer[l];
    const struct nn_layer_view *v = &m->view[l];
    const float *W = m->params + v->kernel, *b = m->params + v->bias;
    int w = v->out, drop = train && ls->dropout > 0.0f;
    float *out = t->act[l + 1], *z = ls->bn ? t->z[l] : out;
    if (l == 0 && t->active_input)
        active_rows(t->idx, t->off, n, W, w, z);
    else if (l == 0 && t->sparse_input)
        nn_gemm_rows(t->act[0], n, W, v->in, w, z);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, w, v->in, 1.0f, t->act[l], v->in,
                    W, w, 0.0f, z, w);
    if (drop)
        t->drop_seed[l] = (uint32_t)hn_rng_u64(t->rng);
    if (!ls->bn) {
        for (int i = 0; i < n; i++) {
            float *zi = z + (size_t)i * w;
            for (int j = 0; j < w; j++)
                zi[j] += b[j];
            act_row(ls, zi, zi, w, t->drop_seed[l], (uint32_t)i * (uint32_t)w, drop);
        }
        return HN_OK;
    }
    float *mean = t->mean[l], *inv = t->invstd[l];
    float *rm = m->state + v->mean, *rv = m->state + v->var;
    const float *g = m->params + v->gamma, *be = m->params + v->beta;
    if (train) {
        int rc = batch_stats(t, l, z, n, w, b, mean, inv, ls->bn_eps, rm, rv);
        if (rc)
            return rc;
    } else {
        for (int j = 0; j < w; j++) {
            mean[j] = rm[j] - b[j];
            inv[j] = 1.0f / sqrtf(rv[j] + ls->bn_eps);
        }
    }
    for (int i = 0; i < n; i++) {
        const float *zi = z + (size_t)i * w;
        float *oi = out + (size_t)i * w;
        for (int j = 0; j < w; j++)
            oi[j] = g[j] * ((zi[j] - mean[j]) * inv[j]) + be[j];
        act_row(ls, oi, oi, w, t->drop_seed[l], (uint32_t)i * (uint32_t)w, drop);
    }
    return HN_OK;
}

/* Rows within the workspace; batch norm in train mode needs two. */
static int check_rows(const nn_train *t, int n, int train)
{
    const struct nn_spec *sp = &t->m->spec;
    if (n < 1 || n > t->max_batch)
        return hn_fail(HN_ERR_ARG, "batch of %d rows, the workspace holds 1..%d", n, t->max_batch);
    if (train && n < 2)
        for (int l = 0; l < sp->n_layers; l++)
            if (sp->layer[l].bn)
                return hn_fail(HN_ERR_ARG, "batch norm in train mode needs at least 2 rows");
    return HN_OK;
}

/* All layers from the input in t (act[0] or idx/off). */
static int forward_layers(nn_train *t, int n, enum nn_mode mode)
{
    t->have_fwd = 0;
    for (int l = 0; l < t->m->spec.n_layers; l++) {
        int rc = forward_layer(t, l, n, mode == NN_MODE_TRAIN);
        if (rc)
            return rc;
    }
    t->n = n;
    t->mode = mode;
    t->have_fwd = 1;
    return HN_OK;
}

int nn_train_forward(nn_train *t, const float *x, int n, enum nn_mode mode)
{
    int rc = check_rows(t, n, mode == NN_MODE_TRAIN);
    if (rc)
        return rc;
    size_t k = (size_t)n * t->m->spec.n_inputs;
    memcpy(t->act[0], x, k * sizeof *x);
    t->sparse_input = nn_mostly_zero(x, k);
    t->active_input = 0;
    return forward_layers(t, n, mode);
}

/* Validate the active inputs of n rows and copy them into the workspace
 * (the caller may reuse its arrays before backward); grows t->idx. */
static int take_active(nn_train *t, const int32_t *active, const int32_t *offsets, int n)
{
    int in = t->m->spec.n_inputs;
    if (!active || !offsets)
        return hn_fail(HN_ERR_ARG, "sparse forward without active inputs or offsets");
    if (offsets[0] < 0)
        return hn_fail(HN_ERR_ARG, "the first offset is %d, not >= 0", (int)offsets[0]);
    for (int r = 0; r < n; r++)
        if (offsets[r + 1] < offsets[r])
            return hn_fail(HN_ERR_ARG, "row %d has %d active inputs", r,
                           (int)(offsets[r + 1] - offsets[r]));
    size_t total = (size_t)(offsets[n] - offsets[0]);
    const int32_t *a = active + offsets[0];
    for (size_t k = 0; k < total; k++)
        if (a[k] < 0 || a[k] >= in)
            return hn_fail(HN_ERR_ARG, "active input %d is not 0..%d", (int)a[k], in - 1);
    if (total > t->idx_cap) {
        int32_t *p = realloc(t->idx, total * sizeof *p),
                *q = p ? realloc(t->by_in, total * sizeof *q) : NULL;
        t->idx = p ? p : t->idx;
        t->by_in = q ? q : t->by_in;
        if (!p || !q)
            return hn_fail(HN_ERR_NOMEM, "out of memory for %zu active inputs", total);
        t->idx_cap = total;
    }
    if (total)
        memcpy(t->idx, a, total * sizeof *a);
    for (int r = 0; r <= n; r++)
        t->off[r] = offsets[r] - offsets[0];
    return HN_OK;
}

int nn_train_forward_sparse(nn_train *t, const int32_t *active, const int32_t *offsets, int n,
                            enum nn_mode mode)
{
    int rc = check_rows(t, n, mode == NN_MODE_TRAIN);
    if (!rc) /* checks everything before it changes anything */
        rc = take_active(t, active, offsets, n);
    if (rc)
        return rc;
    t->sparse_input = 0;
    t->active_input = 1;
    return forward_layers(t, n, mode);
}

/* ---- loss -------------------------------------------------------------- */

double nn_loss_term(enum nn_loss kind, float over_weight, double d)
{
    if (kind == NN_LOSS_QUANTILE)
        return d > 0 ? (1.0 - over_weight) * d : -over_weight * d;
    return d * d * (kind == NN_LOSS_ASYM_MSE && d > 0 ? over_weight : 1.0);
}

/* dTerm/dd of nn_loss_term. */
static float loss_slope(enum nn_loss kind, float over_weight, float d)
{
    if (kind == NN_LOSS_QUANTILE)
        return d > 0.0f ? 1.0f - over_weight : -over_weight;
    return 2.0f * d * (kind == NN_LOSS_ASYM_MSE && d > 0.0f ? over_weight : 1.0f);
}

double nn_train_loss(nn_train *t, const float *target, enum nn_loss kind, float over_weight)
{
    size_t k = (size_t)t->n * nn_model_outputs(t->m);
    if (!t->have_fwd || k == 0)
        return 0.0; /* nothing to compare yet */
    const float *y = nn_train_output(t);
    double sum = 0.0;
    for (size_t i = 0; i < k; i++) {
        float d = y[i] - target[i];
        sum += nn_loss_term(kind, over_weight, d);
        t->dy[i] = loss_slope(kind, over_weight, d) / (float)k;
    }
    return sum / (double)k;
}

/* ---- backward ---------------------------------------------------------- */

/* d = dL/d(act output) on entry; on exit dL/d(pre-activation) (for bn: the
 * input of the affine step), with dropout undone. */
static void act_back_row(const struct nn_layer_spec *l, float *d, const float *h, int w,
                         uint32_t seed, uint32_t base, int drop)
{
    float a = l->elu_alpha, p = l->dropout;
    if (drop) {
        uint32_t thresh = (uint32_t)(p * 4294967296.0);
        float scale = 1.0f / (1.0f - p), unscale = 1.0f - p;
        /* One loop per activation so each one vectorises. */
#define DROP_BACK(ACT)                                                                             \
    for (int j = 0; j < w; j++) {                                                                  \
        int keep = nn_drop_hash(seed, base + (uint32_t)j) >= thresh;                               \
        float dj = d[j] * scale * nn_act_deriv(ACT, a, h[j] * unscale);                            \
        d[j] = keep ? dj : 0.0f;                                                                   \
    }
        switch (l->act) {
        case NN_ACT_ELU:
            DROP_BACK(NN_ACT_ELU) break;
        case NN_ACT_RELU:
            DROP_BACK(NN_ACT_RELU) break;
        case NN_ACT_LEAKY:
            DROP_BACK(NN_ACT_LEAKY) break;
        default:
            DROP_BACK(NN_ACT_LINEAR) break;
        }
#undef DROP_BACK
        return;
    }
    switch (l->act) {
    case NN_ACT_ELU:
        for (int j = 0; j < w; j++)
            d[j] *= nn_act_deriv(NN_ACT_ELU, a, h[j]);
        break;
    case NN_ACT_RELU:
        for (int j = 0; j < w; j++)
            d[j] *= nn_act_deriv(NN_ACT_RELU, a, h[j]);
        break;
    case NN_ACT_LEAKY:
        for (int j = 0; j < w; j++)
            d[j] *= nn_act_deriv(NN_ACT_LEAKY, a, h[j]);
        break;
    default:
        break;
    }
}

/* Turn dL/d(layer output) in d into dL/dz (z = x @ W + b) and fill the
 * bias (and gamma/beta) gradients. */
static int layer_back_elementwise(nn_train *t, int l, float *d)
{
    const nn_model *m = t->m;
    const struct nn_layer_spec *ls = &m->spec.layer[l];
    const struct nn_layer_view *v = &m->view[l];
    int n = t->n, w = v->out, drop = ls->dropout > 0.0f;
    const float *h = t->act[l + 1];
    float *db = t->grad + v->bias;
    memset(db, 0, (size_t)w * sizeof *db);
    if (!ls->bn) {
        for (int i = 0; i < n; i++) {
            float *di = d + (size_t)i * w;
            act_back_row(ls, di, h + (size_t)i * w, w, t->drop_seed[l], (uint32_t)i * (uint32_t)w,
                         drop);
            for (int j = 0; j < w; j++)
                db[j] += di[j];
        }
        return HN_OK;
    }
    const float *z = t->z[l], *g = m->params + v->gamma, *inv = t->invstd[l], *mu = t->mean[l];
    float *dg = t->grad + v->gamma, *dbe = t->grad + v->beta;
    memset(dg, 0, (size_t)w * sizeof *dg);
    memset(dbe, 0, (size_t)w * sizeof *dbe);
    for (int i = 0; i < n; i++) {
        float *di = d + (size_t)i * w;
        const float *zi = z + (size_t)i * w;
        act_back_row(ls, di, h + (size_t)i * w, w, t->drop_seed[l], (uint32_t)i * (uint32_t)w,
                     drop);
        for (int j = 0; j < w; j++) {
            dbe[j] += di[j];
            dg[j] += di[j] * ((zi[j] - mu[j]) * inv[j]);
        }
    }
    /* dz = gamma * invstd * (dy - mean(dy) - xhat * mean(dy * xhat)) */
    float *ca = t->col_a, *cb = t->col_b;
    if (t->sync) { /* the means are over the whole batch */
        for (int j = 0; j < w; j++) {
            t->sum[j] = dbe[j];
            t->sum[w + j] = dg[j];
        }
        int rc = t->sync(t->sum, 2 * (size_t)w, t->sync_user);
        if (rc)
            return rc;
        for (int j = 0; j < w; j++) {
            ca[j] = (float)(t->sum[j] / t->rows[l]);
            cb[j] = (float)(t->sum[w + j] / t->rows[l]);
        }
    } else {
        for (int j = 0; j < w; j++) {
            ca[j] = dbe[j] / n;
            cb[j] = dg[j] / n;
        }
    }
    for (int i = 0; i < n; i++) {
        float *di = d + (size_t)i * w;
        const float *zi = z + (size_t)i * w;
        for (int j = 0; j < w; j++) {
            float xh = (zi[j] - mu[j]) * inv[j];
            di[j] = g[j] * inv[j] * (di[j] - ca[j] - xh * cb[j]);
            db[j] += di[j];
        }
    }
    return HN_OK;
}

/* dW = X^T dZ for mostly-zero X: each nonzero x[s][i] adds a row of dZ. */
static void sparse_kernel_grad(const float *x, int n, const float *dz, int in, int out, float *dw)
{
    memset(dw, 0, (size_t)in * out * sizeof *dw);
    for (int s = 0; s < n; s++) {
        const float *xs = x + (size_t)s * in, *ds = dz + (size_t)s * out;
        for (int i = 0; i < in; i++) {
            float xi = xs[i];
            if (xi == 0.0f)
                continue;
            float *wi = dw + (size_t)i * out;
            for (int j = 0; j < out; j++)
                wi[j] += xi * ds[j];
        }
    }
}

/* For each input, the rows where it is active, ascending (a counting
 * sort): by_in[in_end[i-1] .. in_end[i]) for input i (from 0 for i = 0). */
static void rows_by_input(nn_train *t, int n, int in)
{
    int32_t *end = t->in_end, total = t->off[n], sum = 0;
    memset(end, 0, (size_t)in * sizeof *end);
    for (int32_t k = 0; k < total; k++)
        end[t->idx[k]]++;
    for (int i = 0; i < in; i++) { /* end[i] becomes the start of input i */
        int32_t c = end[i];
        end[i] = sum;
        sum += c;
    }
    for (int r = 0; r < n; r++) /* ... and, once filled, its end */
        for (int32_t k = t->off[r]; k < t->off[r + 1]; k++)
            t->by_in[end[t->idx[k]]++] = r;
}

/* dW = X^T dZ for 0/1 rows given by their active inputs: each kernel row
 * is the sum of dZ's rows where its input is active. Input by input, each
 * kernel row is written once and the rows of dZ (a smaller array) are
 * read. Ascending rows are the order of sparse_kernel_grad, so the sums are
 * the same bit for bit. */
static void active_kernel_grad(nn_train *t, const float *dz, int n, int in, int out, float *dw)
{
    rows_by_input(t, n, in);
    for (int i = 0, start = 0; i < in; start = t->in_end[i++])
        sum_rows(dw + (size_t)i * out, dz, t->by_in + start, t->in_end[i] - start, out);
}

int nn_train_backward(nn_train *t)
{
    if (!t->have_fwd || t->mode != NN_MODE_TRAIN)
        return hn_fail(HN_ERR_ARG, "backward needs a forward pass in train mode first");
    const nn_model *m = t->m;
    int L = m->spec.n_layers, n = t->n, cur = 0;
    float *d = t->dbuf[cur];
    memcpy(d, t->dy, (size_t)n * nn_model_outputs(m) * sizeof *d);
    for (int l = L - 1; l >= 0; l--) {
        const struct nn_layer_view *v = &m->view[l];
        int rc = layer_back_elementwise(t, l, d);
        if (rc)
            return rc;
        if (l == 0 && t->active_input) {
            active_kernel_grad(t, d, n, v->in, v->out, t->grad + v->kernel);
            break;
        }
        if (l == 0 && t->sparse_input) {
            sparse_kernel_grad(t->act[0], n, d, v->in, v->out, t->grad + v->kernel);
            break;
        }
        cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, v->in, v->out, n, 1.0f, t->act[l],
                    v->in, d, v->out, 0.0f, t->grad + v->kernel, v->out);
        if (l == 0)
            break;
        float *prev = t->dbuf[cur ^ 1];
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, v->in, v->out, 1.0f, d, v->out,
                    m->params + v->kernel, v->out, 0.0f, prev, v->in);
        cur ^= 1;
        d = prev;
    }
    return HN_OK;
}

double nn_train_loss_listwise(nn_train *t, const float *target, const int32_t *group,
                              float target_temp)
{
    if (!t->have_fwd || t->n == 0 || nn_model_outputs(t->m) != 1)
        return 0.0;
    return nn_listwise_loss(nn_train_output(t), target, group, t->n, target_temp, t->dy);
}
