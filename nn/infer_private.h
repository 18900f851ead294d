/* nn internals shared by the dense (infer.c) and sparse (sparse.c)
 * inference paths: a model's weights with batch norm folded in, shared by
 * reference count between per-thread workspaces. */
#ifndef NN_INFER_PRIVATE_H
#define NN_INFER_PRIVATE_H

#include <stdatomic.h>

#include "nn/nn_private.h"

struct nn_folded {
    atomic_int refs;
    int n_inputs, n_layers, widest;
    struct {
        int in, out;
        enum nn_act act;
        float alpha;
        float *w, *b; /* kernel [in, out] row-major with batch norm folded, bias [out] */
    } layer[NN_MAX_LAYERS];
    float *buf;
    float mean, std; /* target scaling: y = raw * std + mean */
};

/* The model's weights with batch norm folded into kernels and biases, one
 * reference held by the caller; NULL when out of memory (no message). */
struct nn_folded *nn_fold(const nn_model *m);
/* Drop one reference; the last one frees. NULL is ignored. */
void nn_folded_release(struct nn_folded *f);

#endif
