/* nn internals of the sparse path: quantized layers and the int8 kernels
 * (nn/sparse_q8.c) that nn/sparse.c dispatches to. */
#ifndef NN_SPARSE_PRIVATE_H
#define NN_SPARSE_PRIVATE_H

#include <stdint.h>

#include "nn/sparse.h"

/* One dense layer with int8 weights. Layout of w: blocks of 16 outputs, in
 * each block groups of 4 inputs, in each group 16 outputs x 4 inputs, so one
 * 64-byte load holds what one vpdpbusd needs:
 * w[((j / 16) * (in4 / 4) + i / 4) * 64 + (j % 16) * 4 + i % 4] = q_ij.
 * Padding (i >= in or j >= out) is zero. */
struct nn_qlayer {
    int in, out, in4, out16; /* widths, and rounded up to 4 and 16 */
    int8_t *w;
    float *scale;    /* [out16] per output channel: w_ij ~ scale_j * q_ij */
    int32_t *colsum; /* [out16] sum_i q_ij, for the inputs' offset */
};

/* z[r * out16 + j] = sum_i q_ij * u[r * in4 + i] for rows r < n (u in
 * 0..127, padding zero): exact int32 sums, the same on every kernel. */
typedef void nn_q8_kernel(const struct nn_qlayer *q, const uint8_t *u, int n, int32_t *z);
nn_q8_kernel *nn_q8_kernel_get(enum nn_simd s);

#endif
