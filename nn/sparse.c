/* The sparse, incremental inference path (nn/sparse.h): first-layer
 * accumulators built from active inputs and updated by moves, and the later
 * layers in float or int8 from a batch of accumulators. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/infer_private.h"
#include "nn/kernels.h"
#include "nn/sparse_private.h"

/* The element-wise passes are compiled for AVX-512 and AVX2 with FMA as
 * well as the build's baseline, chosen when the program loads (GCC function
 * multiversioning): a build for any x86-64 still runs them at full width.
 * Without contraction (ISO C: -ffp-contract=off), and with fmaf where fused
 * (correctly rounded, libm without FMA), every version computes the same
 * floats. Not when the baseline has AVX2 already (-march=native): the
 * clones could not inline nn_expf_neg, compiled for a target they do not
 * cover. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__gnu_linux__) &&   \
    !defined(__AVX2__)
#define NN_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define NN_CLONES
#endif

/* One vector register (GCC vector extensions): 64 bytes where the build
 * targets AVX-512, else 32. A 64-byte type on AVX2 is a register pair that
 * GCC 12 spills to the stack in every loop carrying one (the accumulator
 * updates and min_max ran at a third of their speed). */
#ifdef __AVX512F__
#define NN_VBYTES 64
#else
#define NN_VBYTES 32
#endif
#define NN_VF (NN_VBYTES / 4) /* float lanes */
typedef float vnf __attribute__((vector_size(NN_VBYTES)));
typedef int32_t vni __attribute__((vector_size(NN_VBYTES)));
/* 16-bit accumulator lanes, unsigned so that sums wrap (see acc16_bits) */
typedef uint16_t vnu __attribute__((vector_size(NN_VBYTES)));

/* Fewest fractional bits 16-bit accumulators may have: a step of 2^-8 keeps
 * an accumulator of 17 rounded terms within 17/512 of the float sum, below a
 * quarter of the 7-bit input step of a row whose range is 16 or more. */
#define ACC16_MIN_BITS 8

/* Columns of the padded last layer of a narrow-output Q8 network. */
#define NN_TAIL16 16

/* What clones share, read-only after creation. */
struct nn_sparse_w {
    atomic_int refs;
    struct nn_folded *f;
    enum nn_sparse_kind kind;
    int stride;         /* int32 words per accumulator: first layer width rounded up to 16
                           (int32 entries), or to 32 and halved (int16 entries) */
    int wide;           /* float scratch row: widest layer rounded up to 16 */
    int acc16;          /* entries are int16 (nn_sparse_new_bounded), else int32 */
    int lanes;          /* entries per accumulator: stride, or 2 * stride with acc16 */
    int32_t *w0;        /* first-layer kernel rows in fixed point, padded: [inputs, lanes] */
    int32_t *b0;        /* first-layer bias in fixed point, padded: [lanes] */
    int16_t *w0h, *b0h; /* the same in 16 bits (acc16) */
    float unit;         /* value of one fixed-point step: 2^-bits */
    /* Q8, a last layer of 2..NN_TAIL16 outputs (a Q network's): its kernel
     * padded to NN_TAIL16 columns, so a row's sums stay in registers */
    float *tail16;
    struct nn_qlayer q[NN_MAX_LAYERS]; /* Q8: layers 1 .. n_layers - 2 */
};

struct nn_sparse {
    struct nn_sparse_w *w;
    int max_batch;
    enum nn_simd simd;
    nn_q8_kernel *kernel;
    float *fa, *fb;   /* ping-pong activations [max_batch, wide] */
    uint8_t *u;       /* quantized inputs [max_batch, wide] */
    int32_t *z;       /* integer sums [max_batch, wide] */
    float *lo, *step; /* per row: a ~ lo + step * u */
};

static int round_up(int n, int k)
{
    return (n + k - 1) / k * k;
}

/* Zeroed memory on a 64-byte boundary: a 64-byte vector access that
 * straddles two cache lines is split in two, and a split store does not
 * forward to the load that follows. */
static void *zalloc64(size_t bytes)
{
    bytes = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p)
        memset(p, 0, bytes);
    return p;
}

static void qlayer_free(struct nn_qlayer *q)
{
    free(q->w);
    free(q->scale);
    free(q->colsum);
}

static void weights_release(struct nn_sparse_w *w)
{
    if (!w || atomic_fetch_sub(&w->refs, 1) != 1)
        return;
    for (int l = 0; l < NN_MAX_LAYERS; l++)
        qlayer_free(&w->q[l]);
    nn_folded_release(w->f);
    free(w->w0);
    free(w->b0);
    free(w->w0h);
    free(w->b0h);
    free(w->tail16);
    free(w);
}

/* Per output channel: scale = max |w| / 127, q = round(w / scale). */
static int qlayer_make(struct nn_qlayer *q, const float *W, int in, int out)
{
    *q = (struct nn_qlayer){
        .in = in, .out = out, .in4 = round_up(in, 4), .out16 = round_up(out, 16)};
    int groups = q->in4 / 4;
    q->w = zalloc64((size_t)q->in4 * q->out16);
    q->scale = zalloc64((size_t)q->out16 * sizeof *q->scale);
    q->colsum = zalloc64((size_t)q->out16 * sizeof *q->colsum);
    if (!q->w || !q->scale || !q->colsum)
        return HN_ERR_NOMEM;
    for (int j = 0; j < out; j++) {
        float mx = 0.0f;
        for (int i = 0; i < in; i++)
            mx = fmaxf(mx, fabsf(W[(size_t)i * out + j]));
        float s = mx > 0.0f ? mx / 127.0f : 1.0f;
        q->scale[j] = s;
        for (int i = 0; i < in; i++) {
            long v = lroundf(W[(size_t)i * out + j] / s);
            v = v > 127 ? 127 : v < -127 ? -127 : v;
            q->w[((size_t)(j / 16) * groups + i / 4) * 64 + (j % 16) * 4 + i % 4] = (int8_t)v;
            q->colsum[j] += (int32_t)v;
        }
    }
    return HN_OK;
}

/* The first layer in fixed point with 2^bits steps per unit, bits as large
 * as lets |bias| + sum of all |rows| fit in 2^30 for every output: then no
 * accumulator of any set of active inputs can overflow, and sums are exact,
 * so an accumulator updated by any chain of moves equals one built afresh. */
static void first_layer_fixed(struct nn_sparse_w *w, const float *W, const float *b, int in,
                              int out)
{
    double worst = 1e-30;
    for (int j = 0; j < out; j++) {
        double t = fabs((double)b[j]);
        for (int i = 0; i < in; i++)
            t += fabs((double)W[(size_t)i * out + j]);
        worst = fmax(worst, t);
    }
    int bits = (int)floor(log2((double)(1 << 30) / worst));
    bits = bits > 40 ? 40 : bits; /* tiny weights: no point in finer steps */
    double one = ldexp(1.0, bits);
    w->unit = (float)ldexp(1.0, -bits);
    for (int j = 0; j < out; j++) {
        w->b0[j] = (int32_t)llround(b[j] * one);
        for (int i = 0; i < in; i++)
            w->w0[(size_t)i * w->lanes + j] = (int32_t)llround(W[(size_t)i * out + j] * one);
    }
}

/* |b_j| + the sum of the `active` largest |w_ij| over i, the weights and
 * bias scaled by `one` and rounded to integers (one = 0: not scaled, not
 * rounded): the largest |output j| of any input with `active` ones. */
static double column_bound(const float *W, const float *b, int in, int out, int j, int active,
                           double one)
{
    double top[NN_SPARSE_MAX_ACTIVE] = {0}; /* descending */
    for (int i = 0; i < in; i++) {
        double v = W[(size_t)i * out + j];
        v = fabs(one > 0 ? (double)llround(v * one) : v);
        int k = active;
        for (; k > 0 && top[k - 1] < v; k--)
            if (k < active)
                top[k] = top[k - 1];
        if (k < active)
            top[k] = v;
    }
    double t = fabs(one > 0 ? (double)llround(b[j] * one) : (double)b[j]);
    for (int k = 0; k < active; k++)
        t += top[k];
    return t;
}

/* Fractional bits of 16-bit accumulators for inputs with at most `active`
 * ones: the most (up to 15) for which every output's bound, in the rounded
 * integers themselves, fits int16. Then every accumulator of such an input
 * is exact. The partial sums of an update (parent - rows + rows) may leave
 * int16; the lanes wrap (unsigned arithmetic) and the result, which is in
 * range, is still exact. -1 when even ACC16_MIN_BITS do not fit. */
static int acc16_bits(const float *W, const float *b, int in, int out, int active)
{
    double worst = 1e-30;
    for (int j = 0; j < out; j++)
        worst = fmax(worst, column_bound(W, b, in, out, j, active, 0));
    /* rounding adds at most (active + 1) / 2 to a bound */
    int bits = (int)floor(log2((INT16_MAX - (active + 1) / 2.0) / worst));
    for (bits = bits > 15 ? 15 : bits; bits >= ACC16_MIN_BITS; bits--) {
        double one = ldexp(1.0, bits), w2 = 0;
        for (int j = 0; j < out && w2 <= INT16_MAX; j++)
            w2 = fmax(w2, column_bound(W, b, in, out, j, active, one));
        if (w2 <= INT16_MAX)
            return bits;
    }
    return -1;
}

/* The first layer in 16 bits when `active` (1..NN_SPARSE_MAX_ACTIVE)
 * allows ACC16_MIN_BITS: 1, 0 when it does not, -1 when out of memory. */
static int first_layer_16(struct nn_sparse_w *w, const float *W, const float *b, int in, int out,
                          int active)
{
    int bits = acc16_bits(W, b, in, out, active);
    if (bits < 0)
        return 0;
    w->lanes = round_up(out, 32);
    w->stride = w->lanes / 2;
    w->w0h = zalloc64((size_t)in * w->lanes * sizeof *w->w0h);
    w->b0h = zalloc64((size_t)w->lanes * sizeof *w->b0h);
    if (!w->w0h || !w->b0h)
        return -1;
    double one = ldexp(1.0, bits);
    w->unit = (float)ldexp(1.0, -bits);
    w->acc16 = 1;
    for (int j = 0; j < out; j++) {
        w->b0h[j] = (int16_t)llround(b[j] * one);
        for (int i = 0; i < in; i++)
            w->w0h[(size_t)i * w->lanes + j] = (int16_t)llround(W[(size_t)i * out + j] * one);
    }
    return 1;
}

/* The shared weights; max_active > 0 (Q8 only) tries 16-bit accumulators. */
/* The padded copy of a narrow last layer (tail16), when there is one. */
static int tail_make(struct nn_sparse_w *w)
{
    int last = w->f->n_layers - 1, in = w->f->layer[last].in, out = w->f->layer[last].out;
    if (last < 1 || out < 2 || out > NN_TAIL16)
        return 0;
    w->tail16 = zalloc64((size_t)in * NN_TAIL16 * sizeof *w->tail16);
    if (!w->tail16)
        return -1;
    for (int i = 0; i < in; i++)
        memcpy(w->tail16 + (size_t)i * NN_TAIL16, w->f->layer[last].w + (size_t)i * out,
               (size_t)out * sizeof *w->tail16);
    return 0;
}

static struct nn_sparse_w *weights_make(const nn_model *m, enum nn_sparse_kind kind, int max_active)
{
    struct nn_sparse_w *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    atomic_init(&w->refs, 1);
    w->kind = kind;
    w->f = nn_fold(m);
    if (!w->f)
        goto fail;
    const struct nn_folded *f = w->f;
    int out0 = f->layer[0].out, got16 = 0;
    w->wide = round_up(f->widest, 16);
    /* 16 bits only where the quantizing pass reads them (a layer after the first) */
    if (kind == NN_SPARSE_Q8 && max_active > 0 && f->n_layers > 2)
        got16 = first_layer_16(w, f->layer[0].w, f->layer[0].b, f->n_inputs, out0, max_active);
    if (got16 < 0)
        goto fail;
    if (!got16) {
        w->lanes = w->stride = round_up(out0, 16);
        w->w0 = zalloc64((size_t)f->n_inputs * w->stride * sizeof *w->w0);
        w->b0 = zalloc64((size_t)w->stride * sizeof *w->b0);
        if (!w->w0 || !w->b0)
            goto fail;
        first_layer_fixed(w, f->layer[0].w, f->layer[0].b, f->n_inputs, out0);
    }
    for (int l = 1; kind == NN_SPARSE_Q8 && l + 1 < f->n_layers; l++)
        if (qlayer_make(&w->q[l], f->layer[l].w, f->layer[l].in, f->layer[l].out))
            goto fail;
    if (kind == NN_SPARSE_Q8 && tail_make(w))
        goto fail;
    return w;
fail:
    weights_release(w);
    return NULL;
}

static nn_sparse *sparse_make(struct nn_sparse_w *w, int max_batch, enum nn_simd simd, int *status)
{
    int rc;
    if (max_batch < 1 || max_batch > (1 << 20)) {
        rc = hn_fail(HN_ERR_ARG, "batch size %d out of range [1, %d]", max_batch, 1 << 20);
        goto fail;
    }
    nn_sparse *s = calloc(1, sizeof *s);
    if (s) {
        size_t cells = (size_t)max_batch * w->wide;
        *s = (nn_sparse){.w = w, .max_batch = max_batch, .simd = simd};
        s->kernel = nn_q8_kernel_get(simd);
        s->fa = nn_falloc(cells);
        s->fb = nn_falloc(cells);
        s->u = zalloc64(cells);
        s->z = zalloc64(cells * sizeof *s->z);
        s->lo = nn_falloc((size_t)max_batch);
        s->step = nn_falloc((size_t)max_batch);
        if (s->fa && s->fb && s->u && s->z && s->lo && s->step)
            return s;
        s->w = NULL;
        nn_sparse_free(s);
    }
    rc = hn_fail(HN_ERR_NOMEM, "out of memory for a sparse inference workspace of batch %d",
                 max_batch);
fail:
    weights_release(w);
    if (status)
        *status = rc;
    return NULL;
}

nn_sparse *nn_sparse_new(const nn_model *m, enum nn_sparse_kind kind, int max_batch, int *status)
{
    return nn_sparse_new_bounded(m, kind, max_batch, 0, status);
}

nn_sparse *nn_sparse_new_bounded(const nn_model *m, enum nn_sparse_kind kind, int max_batch,
                                 int max_active, int *status)
{
    if (max_active < 0 || max_active > NN_SPARSE_MAX_ACTIVE) {
        int rc = hn_fail(HN_ERR_ARG, "at most %d active inputs, 0..%d supported", max_active,
                         NN_SPARSE_MAX_ACTIVE);
        if (status)
            *status = rc;
        return NULL;
    }
    struct nn_sparse_w *w = weights_make(m, kind, max_active);
    if (!w) {
        int rc = hn_fail(HN_ERR_NOMEM, "out of memory for the sparse network's weights");
        if (status)
            *status = rc;
        return NULL;
    }
    return sparse_make(w, max_batch, nn_simd_best(), status);
}

nn_sparse *nn_sparse_clone(const nn_sparse *base, int max_batch, int *status)
{
    atomic_fetch_add(&base->w->refs, 1);
    return sparse_make(base->w, max_batch, base->simd, status);
}

void nn_sparse_free(nn_sparse *s)
{
    if (!s)
        return;
    weights_release(s->w);
    free(s->fa);
    free(s->fb);
    free(s->u);
    free(s->z);
    free(s->lo);
    free(s->step);
    free(s);
}

enum nn_sparse_kind nn_sparse_kind(const nn_sparse *s)
{
    return s->w->kind;
}
enum nn_simd nn_sparse_simd(const nn_sparse *s)
{
    return s->simd;
}
int nn_sparse_inputs(const nn_sparse *s)
{
    return s->w->f->n_inputs;
}
int nn_sparse_max_batch(const nn_sparse *s)
{
    return s->max_batch;
}
int nn_sparse_acc_stride(const nn_sparse *s)
{
    return s->w->stride;
}

int nn_sparse_acc_bits(const nn_sparse *s)
{
    return s->w->acc16 ? 16 : 32;
}

float nn_sparse_acc_unit(const nn_sparse *s)
{
    return s->w->unit;
}

float nn_sparse_acc_value(const nn_sparse *s, const int32_t *acc, int j)
{
    const struct nn_sparse_w *w = s->w;
    return (float)(w->acc16 ? ((const int16_t *)acc)[j] : acc[j]) * w->unit;
}

int32_t *nn_sparse_acc_alloc(const nn_sparse *s, int n)
{
    return n < 1 ? NULL : zalloc64((size_t)n * s->w->stride * sizeof(int32_t));
}

int nn_sparse_set_simd(nn_sparse *s, enum nn_simd simd)
{
    if (!nn_simd_supported(simd))
        return hn_fail(HN_ERR_ARG, "this CPU cannot run the %s kernel", nn_simd_name(simd));
    s->simd = simd;
    s->kernel = nn_q8_kernel_get(simd);
    return HN_OK;
}

/* dst = base - rows `sub` + rows `add` of the fixed-point kernel KERNEL,
 * one vector V of entries T at a time so each block stays in a register
 * across all rows. base may equal dst: a block is read before it is
 * written. */
#define ACC_SUM(NAME, T, V, KERNEL)                                                                \
    NN_CLONES static void NAME(const struct nn_sparse_w *w, const T *base, const int *sub, int ns, \
                               const int *add, int na, T *dst)                                     \
    {                                                                                              \
        int k = w->lanes, step = (int)(sizeof(V) / sizeof(T));                                     \
        for (int j0 = 0; j0 < k; j0 += step) {                                                     \
            V t, r;                                                                                \
            memcpy(&t, base + j0, sizeof t);                                                       \
            for (int a = 0; a < ns; a++) {                                                         \
                memcpy(&r, w->KERNEL + (size_t)sub[a] * k + j0, sizeof r);                         \
                t -= r;                                                                            \
            }                                                                                      \
            for (int a = 0; a < na; a++) {                                                         \
                memcpy(&r, w->KERNEL + (size_t)add[a] * k + j0, sizeof r);                         \
                t += r;                                                                            \
            }                                                                                      \
            memcpy(dst + j0, &t, sizeof t);                                                        \
        }                                                                                          \
    }
ACC_SUM(acc_sum, int32_t, vni, w0)
ACC_SUM(acc_sum16, int16_t, vnu, w0h) /* wraps; exact for legal inputs (acc16_bits) */

void nn_sparse_acc_init(const nn_sparse *s, const int *active, int n, int32_t *acc)
{
    if (s->w->acc16)
        acc_sum16(s->w, s->w->b0h, NULL, 0, active, n, (int16_t *)acc);
    else
        acc_sum(s->w, s->w->b0, NULL, 0, active, n, acc);
}

void nn_sparse_acc_update(const nn_sparse *s, const int32_t *parent, const int *removed, int nr,
                          const int *added, int na, int32_t *child)
{
    if (s->w->acc16)
        acc_sum16(s->w, (const int16_t *)parent, removed, nr, added, na, (int16_t *)child);
    else
        acc_sum(s->w, parent, removed, nr, added, na, child);
}

/* exp(x) for x <= 0 within 5e-5 (relative): nn_expf_neg's range reduction
 * with a degree-4 polynomial, for ELU ahead of 7-bit quantization, whose
 * steps are a hundred times coarser. */
static inline float expf_neg_q8(float x)
{
    float r, scale = nn_expf_reduce(x, &r);
    float p = fmaf(fmaf(1.0f / 24.0f, r, 1.0f / 6.0f), r, 0.5f);
    return (fmaf(p, r * r, r) + 1.0f) * scale;
}

/* z = act(z + b) in place, b may be NULL; `fast`: ELU with expf_neg_q8. One
 * loop per activation so each vectorises (no branch on it inside). */
NN_CLONES static void bias_act(float *restrict z, const float *restrict b, int width,
                               enum nn_act act, float alpha, int fast)
{
    if (b)
        for (int j = 0; j < width; j++)
            z[j] += b[j];
    if (act == NN_ACT_ELU && fast)
        for (int j = 0; j < width; j++)
            z[j] = z[j] > 0.0f ? z[j] : fmaf(alpha, expf_neg_q8(z[j]), -alpha);
    else if (act == NN_ACT_ELU)
        for (int j = 0; j < width; j++)
            z[j] = nn_act_apply(NN_ACT_ELU, alpha, z[j]);
    else if (act == NN_ACT_RELU)
        for (int j = 0; j < width; j++)
            z[j] = nn_act_apply(NN_ACT_RELU, alpha, z[j]);
    else if (act == NN_ACT_LEAKY)
        for (int j = 0; j < width; j++)
            z[j] = nn_act_apply(NN_ACT_LEAKY, alpha, z[j]);
}

/* sum_i x_i y_i over sixteen lanes (vectorises; a one-column matvec is a
 * chain of dependent additions). */
NN_CLONES static float dot(const float *restrict x, const float *restrict y, int n)
{
    float l[16] = {0};
    int i = 0;
    for (; i + 16 <= n; i += 16)
        for (int k = 0; k < 16; k++)
            l[k] += x[i + k] * y[i + k];
    for (; i < n; i++)
        l[0] += x[i] * y[i];
    float t = 0.0f;
    for (int k = 0; k < 16; k++)
        t += l[k];
    return t;
}

/* y[0..out) = x @ W16 for one row, W16 [in, NN_TAIL16] (zero padded): two
 * register-sized sums (even and odd inputs), where nn_matvec's row in
 * memory makes each input wait for the previous one's store. */
NN_CLONES static void matvec_tail16(const float *restrict x, const float *restrict w16, int in,
                                    int out, float *restrict y)
{
    float a[NN_TAIL16] = {0}, b[NN_TAIL16] = {0};
    int i = 0;
    for (; i + 2 <= in; i += 2)
        for (int j = 0; j < NN_TAIL16; j++) {
            a[j] += x[i] * w16[(size_t)i * NN_TAIL16 + j];
            b[j] += x[i + 1] * w16[(size_t)(i + 1) * NN_TAIL16 + j];
        }
    for (; i < in; i++)
        for (int j = 0; j < NN_TAIL16; j++)
            a[j] += x[i] * w16[(size_t)i * NN_TAIL16 + j];
    for (int j = 0; j < out; j++)
        y[j] = a[j] + b[j];
}

/* Float layer l on n rows of `wide` floats: h -> out (nn_infer_run's arithmetic). */
static void float_layer(const nn_sparse *s, int l, const float *h, int n, float *out)
{
    const struct nn_folded *f = s->w->f;
    int in = f->layer[l].in, width = f->layer[l].out, wide = s->w->wide;
    if (s->w->kind == NN_SPARSE_Q8 && width == 1) /* the output layer of a value network */
        for (int r = 0; r < n; r++)
            out[(size_t)r * wide] = dot(h + (size_t)r * wide, f->layer[l].w, in);
    else if (s->w->tail16 && l == f->n_layers - 1) /* a Q network's */
        for (int r = 0; r < n; r++)
            matvec_tail16(h + (size_t)r * wide, s->w->tail16, in, width, out + (size_t)r * wide);
    else if (n == 1 || s->w->kind == NN_SPARSE_Q8) /* Q8: each row alone, whatever the batch */
        for (int r = 0; r < n; r++)
            nn_matvec(h + (size_t)r * wide, f->layer[l].w, in, width, out + (size_t)r * wide);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, width, in, 1.0f, h, wide,
                    f->layer[l].w, width, 0.0f, out, wide);
    for (int r = 0; r < n; r++)
        bias_act(out + (size_t)r * wide, f->layer[l].b, width, f->layer[l].act, f->layer[l].alpha,
                 s->w->kind == NN_SPARSE_Q8);
}

/* Minimum and maximum of x[0..n), n >= 1, a register of lanes at a time
 * with GCC vector extensions (a scalar min/max reduction does not
 * vectorise without -ffinite-math-only). */

/* a where take_a, else b (a macro: a function taking vectors wider than the
 * baseline's registers has another ABI, which GCC warns about). */
#define VN_PICK(take_a, a, b) ((vnf)(((vni)(a) & (take_a)) | ((vni)(b) & ~(take_a))))

NN_CLONES static void min_max(const float *restrict x, int n, float *lo, float *hi)
{
    vnf l, h;
    for (int k = 0; k < NN_VF; k++)
        l[k] = h[k] = x[0];
    int i = 0;
    for (; i + NN_VF <= n; i += NN_VF) {
        vnf v;
        memcpy(&v, x + i, sizeof v);
        l = VN_PICK(v < l, v, l);
        h = VN_PICK(v > h, v, h);
    }
    float a = l[0], b = h[0];
    for (int k = 1; k < NN_VF; k++) {
        a = l[k] < a ? l[k] : a;
        b = h[k] > b ? h[k] : b;
    }
    for (; i < n; i++) {
        a = x[i] < a ? x[i] : a;
        b = x[i] > b ? x[i] : b;
    }
    *lo = a;
    *hi = b;
}

/* The activation of one value on the Q8 path (ELU with expf_neg_q8). */
static inline float act_q8(enum nn_act act, float alpha, float x)
{
    if (act == NN_ACT_ELU)
        return x > 0.0f ? x : fmaf(alpha, expf_neg_q8(x), -alpha);
    if (act == NN_ACT_LEAKY)
        return x > 0.0f ? x : alpha * x;
    return act == NN_ACT_RELU ? (x > 0.0f ? x : 0.0f) : x;
}

/* u_i = round((act(X(i)) - lo) * inv) as act * inv + half, clamped to 0..127 (the approximate
 * exp may step a hair outside [lo, hi]), padding up to in4 zero. One loop
 * per activation so each vectorises. */
#define QUANT_LOOP(ACT, X)                                                                         \
    for (int i = 0; i < in; i++) {                                                                 \
        int v = (int)fmaf(act_q8(ACT, alpha, X(i)), inv, half);                                    \
        v = v < 0 ? 0 : v;                                                                         \
        u[i] = (uint8_t)(v > 127 ? 127 : v);                                                       \
    }
#define QUANT_ROW(X)                                                                               \
    do {                                                                                           \
        if (act == NN_ACT_ELU)                                                                     \
            QUANT_LOOP(NN_ACT_ELU, X)                                                              \
        else if (act == NN_ACT_RELU)                                                               \
            QUANT_LOOP(NN_ACT_RELU, X)                                                             \
        else if (act == NN_ACT_LEAKY)                                                              \
            QUANT_LOOP(NN_ACT_LEAKY, X)                                                            \
        else                                                                                       \
            QUANT_LOOP(NN_ACT_LINEAR, X)                                                           \
        for (int i = in; i < in4; i++)                                                             \
            u[i] = 0;                                                                              \
    } while (0)

/* The row's range: the activations are non-decreasing, so the activated
 * row's minimum and maximum are those of the pre-activations, activated,
 * and the activated row is never stored. Sets row r's offset and step, and
 * u = act * inv + half, rounded down, is the 7-bit input. */
static void row_range(nn_sparse *s, int r, float mn, float mx, enum nn_act act, float alpha,
                      float *inv, float *half)
{
    float lo = act_q8(act, alpha, mn), hi = act_q8(act, alpha, mx);
    *inv = hi > lo ? 127.0f / (hi - lo) : 0.0f;
    *half = 0.5f - lo * *inv;
    s->lo[r] = lo;
    s->step[r] = hi > lo ? (hi - lo) / 127.0f : 0.0f;
}

#define X_FLOAT(i) x[i]
/* A row of float pre-activations x (range [mn, mx]) to row r of s->u. */
NN_CLONES static void quantize_pre(nn_sparse *s, const struct nn_qlayer *q, const float *restrict x,
                                   float mn, float mx, enum nn_act act, float alpha, int r)
{
    float inv, half;
    row_range(s, r, mn, mx, act, alpha, &inv, &half);
    int in = q->in, in4 = q->in4;
    uint8_t *restrict u = s->u + (size_t)r * in4;
    QUANT_ROW(X_FLOAT);
}

/* The first layer: row r's fixed-point accumulator (entries T) to row r
 * of s->u (the order of the integers is that of the floats they stand for). */
#define X_FIXED(i) ((float)acc[i] * unit)
#define QUANTIZE_FIRST(NAME, T)                                                                    \
    NN_CLONES static void NAME(nn_sparse *s, const T *restrict acc, int r)                         \
    {                                                                                              \
        const struct nn_sparse_w *w = s->w;                                                        \
        const struct nn_qlayer *q = &w->q[1];                                                      \
        enum nn_act act = w->f->layer[0].act;                                                      \
        float alpha = w->f->layer[0].alpha, unit = w->unit, inv, half;                             \
        int in = q->in, in4 = q->in4;                                                              \
        T a = acc[0], b = acc[0];                                                                  \
        for (int i = 0; i < in; i++) {                                                             \
            a = acc[i] < a ? acc[i] : a;                                                           \
            b = acc[i] > b ? acc[i] : b;                                                           \
        }                                                                                          \
        row_range(s, r, unit *(float)a, unit *(float)b, act, alpha, &inv, &half);                  \
        uint8_t *restrict u = s->u + (size_t)r * in4;                                              \
        QUANT_ROW(X_FIXED);                                                                        \
    }
QUANTIZE_FIRST(quantize_first, int32_t)
QUANTIZE_FIRST(quantize_first16, int16_t)

/* o_j = scale_j (step z_j + lo colsum_j) + b_j: the pre-activation of
 * layer l from the integer sums (b may be NULL). */
NN_CLONES static void dequantize_row(const struct nn_qlayer *q, const int32_t *restrict z,
                                     float step, float lo, const float *restrict b,
                                     float *restrict o)
{
    const float *restrict scale = q->scale;
    const int32_t *restrict colsum = q->colsum;
    for (int j = 0; j < q->out; j++)
        o[j] = scale[j] * ((float)z[j] * step + lo * (float)colsum[j]);
    if (b)
        for (int j = 0; j < q->out; j++)
            o[j] += b[j];
}

/* The first layer's outputs from fixed-point accumulators (when no layer
 * is quantized after it). */
NN_CLONES static void first_act(const struct nn_sparse_w *w, const int32_t *restrict acc,
                                float *restrict h)
{
    const struct nn_folded *f = w->f;
    float unit = w->unit;
    for (int j = 0; j < f->layer[0].out; j++)
        h[j] = (float)acc[j] * unit;
    bias_act(h, NULL, f->layer[0].out, f->layer[0].act, f->layer[0].alpha, w->kind == NN_SPARSE_Q8);
}

/* The Q8 network on n rows: layer 0 from the accumulators, the quantized
 * layers, then the float tail. Activations run fused with quantization;
 * only the last quantized layer's outputs are activated in place. */
static int q8_run(nn_sparse *s, const int32_t *acc, int n, float *h, float *pre)
{
    const struct nn_sparse_w *w = s->w;
    const struct nn_folded *f = w->f;
    int wide = w->wide;
    for (int r = 0; r < n; r++)
        if (w->acc16)
            quantize_first16(s, (const int16_t *)(acc + (size_t)r * w->stride), r);
        else
            quantize_first(s, acc + (size_t)r * w->stride, r);
    int l = 1;
    for (; w->q[l].w; l++) {
        const struct nn_qlayer *q = &w->q[l];
        enum nn_act act = f->layer[l].act;
        float alpha = f->layer[l].alpha;
        s->kernel(q, s->u, n, s->z);
        for (int r = 0; r < n; r++) {
            float *o = w->q[l + 1].w ? pre : h + (size_t)r * wide;
            dequantize_row(q, s->z + (size_t)r * q->out16, s->step[r], s->lo[r], f->layer[l].b, o);
            if (w->q[l + 1].w) {
                float mn, mx;
                min_max(o, q->out, &mn, &mx);
                quantize_pre(s, &w->q[l + 1], o, mn, mx, act, alpha, r);
            } else {
                bias_act(o, NULL, q->out, act, alpha, 1);
            }
        }
    }
    return l;
}

int nn_sparse_run(nn_sparse *s, const int32_t *acc, int n, float *y)
{
    const struct nn_sparse_w *w = s->w;
    const struct nn_folded *f = w->f;
    if (n < 1 || n > s->max_batch)
        return hn_fail(HN_ERR_ARG, "batch of %d rows, the workspace holds 1..%d", n, s->max_batch);
    float *h = s->fa, *out = s->fb;
    int l = 1;
    if (w->q[1].w)
        l = q8_run(s, acc, n, h, out);
    else
        for (int r = 0; r < n; r++)
            first_act(w, acc + (size_t)r * w->stride, h + (size_t)r * w->wide);
    for (; l < f->n_layers; l++) {
        float_layer(s, l, h, n, out);
        float *t = h;
        h = out;
        out = t;
    }
    int outs = f->layer[f->n_layers - 1].out;
    for (int r = 0; r < n; r++)
        for (int j = 0; j < outs; j++)
            y[(size_t)r * outs + j] = h[(size_t)r * w->wide + j] * f->std + f->mean;
    return HN_OK;
}
