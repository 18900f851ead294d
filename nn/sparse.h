/* nn/sparse.h: evaluating a network inside search, where each input row is
 * a one-hot board (0/1 inputs, a few active) and consecutive rows differ by
 * a move. Stockfish's NNUE is the model: the first dense layer becomes an
 * accumulator (bias + the kernel rows of the active inputs) that a move
 * updates by subtracting and adding the rows whose inputs changed; the
 * remaining layers run from a batch of accumulators, in float (the
 * reference, the same arithmetic as nn_infer_run) or quantized to int8
 * weights with int32 sums, on the best SIMD kernel the CPU has.
 *
 * Quantization (NN_SPARSE_Q8): every layer after the first except the output
 * layer. Weights: per output channel, w ~ scale_j * q (q in -127..127).
 * Inputs: per row, a ~ lo + (hi - lo) / 127 * u (u in 0..127, lo/hi the row's
 * minimum and maximum), so any activation (ELU's negative part included)
 * fits without calibration data. The integer sums sum_i q_ij u_i are exact
 * (no saturation on any kernel), so every kernel computes the same values.
 * The accumulators (fixed point, below) and the output layer are not quantized.
 *
 * Objects: nn_sparse is a per-thread workspace over weights shared read-only
 * between clones (like nn_infer). Nothing prints; errors as in nn.h. */
#ifndef NN_SPARSE_H
#define NN_SPARSE_H

#include <stdint.h>

#include "nn/nn.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nn_sparse_kind {
    NN_SPARSE_FLOAT = 0, /* float layers: the reference */
    NN_SPARSE_Q8 = 1     /* int8 weights, int32 sums after the first layer */
};

/* Kernels for the int8 layers, chosen at run time from the CPU's features
 * (the binary itself may be built for any x86-64). */
enum nn_simd {
    NN_SIMD_SCALAR = 0, /* plain C, any CPU */
    NN_SIMD_AVX2 = 1,   /* vpmaddubsw + vpmaddwd on 256-bit vectors */
    NN_SIMD_VNNI = 2    /* AVX-512 VNNI vpdpbusd on 512-bit vectors */
};

/* The best kernel this CPU runs. */
enum nn_simd nn_simd_best(void);
/* 1 if this CPU (and this build) runs kernel `s`. */
int nn_simd_supported(enum nn_simd s);
const char *nn_simd_name(enum nn_simd s); /* "scalar", "avx2", "avx512vnni" */
/* 0 and *s from a name above, or HN_ERR_ARG. */
int nn_simd_parse(const char *name, enum nn_simd *s);

typedef struct nn_sparse nn_sparse;

/* A workspace for batches of up to max_batch accumulators over a snapshot
 * of `m` (batch norm folded; `m` may be freed afterwards). Needs a model
 * whose input is 0/1 (the first layer reads x @ kernel as a sum of rows).
 * Q8 quantizes the weights here, once; the kernel is nn_simd_best(). NULL
 * on error (*status: HN_ERR_ARG for a bad batch, HN_ERR_NOMEM). */
nn_sparse *nn_sparse_new(const nn_model *m, enum nn_sparse_kind kind, int max_batch, int *status);
/* Largest max_active of nn_sparse_new_bounded. */
#define NN_SPARSE_MAX_ACTIVE 64

/* nn_sparse_new for inputs of which at most max_active (0..64; 0 = no
 * bound) are on at once. The n-puzzle's one-hot boards have exactly one
 * input on per tile, the blank included: 16 of 256 on the 15-puzzle, 25 of
 * 625 on the 24-puzzle. With Q8 and a model with a layer after the first,
 * the bound lets the accumulators be int16 (NNUE's, half the memory an
 * update reads and writes): every output j of the first layer lies within
 * |bias_j| + the sum of its max_active largest |weights|, so the most
 * fractional bits k for which that fits 16 bits make every accumulator of a
 * legal input exact; partial sums of an update may leave the range and wrap,
 * and the result is exact again. When k would be below 8, or for FLOAT, the
 * accumulators stay int32 (nn_sparse_acc_bits tells which). Passing more
 * active inputs than the bound gives wrong values (not checked). NULL on
 * error as nn_sparse_new (HN_ERR_ARG also for max_active out of range). */
nn_sparse *nn_sparse_new_bounded(const nn_model *m, enum nn_sparse_kind kind, int max_batch,
                                 int max_active, int *status);

/* Another workspace sharing base's weights (no copy) and kernel choice, for
 * one more thread. Either may be freed first. NULL on error. */
nn_sparse *nn_sparse_clone(const nn_sparse *base, int max_batch, int *status);
void nn_sparse_free(nn_sparse *s);

enum nn_sparse_kind nn_sparse_kind(const nn_sparse *s);
enum nn_simd nn_sparse_simd(const nn_sparse *s);
/* Use kernel `simd` for this workspace: 0, or HN_ERR_ARG when the CPU
 * lacks it (the workspace keeps its kernel). */
int nn_sparse_set_simd(nn_sparse *s, enum nn_simd simd);
int nn_sparse_inputs(const nn_sparse *s);
int nn_sparse_max_batch(const nn_sparse *s);

/* int32 words per accumulator (the stride of the rows nn_sparse_run
 * reads): the first layer's width rounded up to 16, or with 16-bit entries
 * rounded up to 32 and halved. Padding entries stay zero.
 *
 * Accumulators are fixed point: the first layer's folded weights and bias
 * rounded to 2^-k. With int32 entries (the default), k per model is as large
 * as keeps every possible sum below 2^30 (23 for the shipped 15-puzzle
 * models); with int16 entries see nn_sparse_new_bounded. Sums are exact
 * either way, so an accumulator updated along any chain of moves is bit for
 * bit the one acc_init builds. Callers treat the words as opaque. */
int nn_sparse_acc_stride(const nn_sparse *s);
/* 16 or 32: the bits of one accumulator entry. */
int nn_sparse_acc_bits(const nn_sparse *s);
/* The value of one fixed-point step of the accumulators: 2^-k. */
float nn_sparse_acc_unit(const nn_sparse *s);
/* Entry j of accumulator acc (0 <= j < the first layer's width) as the
 * float it stands for: the first layer's pre-activation, rounded to 2^-k. */
float nn_sparse_acc_value(const nn_sparse *s, const int32_t *acc, int j);

/* Zeroed room for n accumulators (n * stride entries) on a 64-byte
 * boundary, which the vector loads and stores run fastest on (any int32
 * array works). Free with free(). NULL when out of memory or n < 1. */
int32_t *nn_sparse_acc_alloc(const nn_sparse *s, int n);

/* acc = bias + sum of the first-layer kernel rows of inputs active[0..n)
 * (distinct, each in [0, inputs), not checked), into acc[stride]. */
void nn_sparse_acc_init(const nn_sparse *s, const int *active, int n, int32_t *acc);

/* child = parent - rows of removed[0..nr) + rows of added[0..na): the
 * accumulator after a move turned inputs `removed` (active in parent) off
 * and `added` (inactive) on. child may equal parent (in place). */
void nn_sparse_acc_update(const nn_sparse *s, const int32_t *parent, const int *removed, int nr,
                          const int *added, int na, int32_t *child);

/* The network's outputs for n accumulators (rows of acc_stride floats) into
 * y[n, outputs], target scaling applied: the first layer's activation and
 * every later layer. Nothing is allocated. 0, or HN_ERR_ARG for n out of
 * 1..max_batch. */
int nn_sparse_run(nn_sparse *s, const int32_t *acc, int n, float *y);

#ifdef __cplusplus
}
#endif

#endif
