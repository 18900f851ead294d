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

/* Entries per accumulator: the first layer's width rounded up to 16 (the
 * stride of the rows nn_sparse_run reads). Padding entries stay zero.
 *
 * Accumulators are int32 fixed point (the first layer's folded weights and
 * bias rounded to 2^-k, k per model as large as keeps every possible sum
 * below 2^30; 23 for the shipped 15-puzzle models): sums are exact, so an
 * accumulator updated along any chain of moves is bit for bit the one
 * acc_init builds. */
int nn_sparse_acc_stride(const nn_sparse *s);

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
