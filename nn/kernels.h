/* Element-wise building blocks shared by training and inference: a
 * branch-free expf the compiler can vectorise (ELU would otherwise spend
 * more time in libm than sgemm spends on the layer), activations, and the
 * counter-based dropout hash (masks are recomputed in backward, not stored). */
#ifndef NN_KERNELS_H
#define NN_KERNELS_H

#include <stdint.h>
#include <string.h>

#include "nn/nn.h"

/* exp(x) = 2^k * exp(r) for x <= 0, r in [-ln2/2, ln2/2]: returns 2^k and
 * sets *r (x clamped to [-87, 0]). */
static inline float nn_expf_reduce(float x, float *r)
{
    x = x < -87.0f ? -87.0f : x;
    x = x > 0.0f ? 0.0f : x;
    /* A NaN passes both clamps: k is taken from -87 instead, so that the
     * cast to int below stays defined, while r keeps the NaN for the result
     * (found by fuzz_onnx: a network whose sums overflow to inf - inf). */
    float k = __builtin_rintf((x > -87.0f ? x : -87.0f) * 1.44269504088896341f);
    float t = x - k * 0.693359375f;
    *r = t - k * -2.12194440e-4f;
    int32_t bits = ((int32_t)k + 127) << 23;
    float scale;
    memcpy(&scale, &bits, sizeof scale);
    return scale;
}

/* exp(x) for x <= 0 within ~2 ulp: 2^k * p(r). */
static inline float nn_expf_neg(float x)
{
    float r, scale = nn_expf_reduce(x, &r);
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    return p * scale;
}

static inline float nn_act_apply(enum nn_act act, float alpha, float u)
{
    switch (act) {
    case NN_ACT_RELU:
        return u > 0.0f ? u : 0.0f;
    case NN_ACT_ELU: {
        float e = alpha * (nn_expf_neg(u) - 1.0f);
        return u > 0.0f ? u : e;
    }
    case NN_ACT_LEAKY:
        return u > 0.0f ? u : alpha * u;
    default:
        return u;
    }
}

/* Derivative from the activation's output h (cheaper than from the input). */
static inline float nn_act_deriv(enum nn_act act, float alpha, float h)
{
    switch (act) {
    case NN_ACT_RELU:
        return h > 0.0f ? 1.0f : 0.0f;
    case NN_ACT_ELU:
        return h > 0.0f ? 1.0f : h + alpha;
    case NN_ACT_LEAKY:
        return h > 0.0f ? 1.0f : alpha;
    default:
        return 1.0f;
    }
}

/* Keep an element of a dropout layer iff the hash of (seed, index) is at or
 * above `thresh` = p * 2^32. Vectorises (no serial RNG state). */
static inline uint32_t nn_drop_hash(uint32_t seed, uint32_t i)
{
    uint32_t h = i * 0x9E3779B1u ^ seed;
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

/* Nonzero when at most a quarter of x is nonzero (one-hot boards: 1/16):
 * then row-by-row accumulation of kernel rows beats a dense sgemm. */
static inline int nn_mostly_zero(const float *x, size_t count)
{
    size_t nz = 0;
    for (size_t i = 0; i < count; i++)
        nz += x[i] != 0.0f;
    return nz * 4 <= count;
}

/* y = x @ W for one row, W [in, out] row-major; zero inputs are skipped. */
static inline void nn_matvec(const float *restrict x, const float *restrict W, int in, int out,
                             float *restrict y)
{
    memset(y, 0, (size_t)out * sizeof *y);
    for (int i = 0; i < in; i++) {
        float xi = x[i];
        if (xi == 0.0f)
            continue;
        const float *wi = W + (size_t)i * out;
        for (int j = 0; j < out; j++)
            y[j] += xi * wi[j];
    }
}

/* Y = X @ W for n rows: sgemm, or row by row when X is mostly zeros. */
void nn_gemm_rows(const float *x, int n, const float *W, int in, int out, float *y);

#endif
