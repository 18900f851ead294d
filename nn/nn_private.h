/* nn internals shared by the model, training and inference files: the
 * model object and the layout of its flat buffers. */
#ifndef NN_PRIVATE_H
#define NN_PRIVATE_H

#include "nn/nn.h"

/* Tensors in the flat buffers start on 64-byte boundaries (16 floats). */
#define NN_ALIGN_FLOATS 16

struct nn_layer_view {
    int in, out;
    size_t kernel, bias, gamma, beta; /* offsets into params (gamma/beta: bn only) */
    size_t mean, var;                 /* offsets into state (bn only) */
};

struct nn_meta {
    char *key;
    int is_num;
    char *str;
    double num;
};

struct nn_model {
    struct nn_spec spec;
    struct nn_layer_view view[NN_MAX_LAYERS];
    float *params; /* trainable, zero padded, aligned */
    size_t n_params;
    size_t n_true; /* without padding */
    float *state;  /* running mean / variance */
    size_t n_state;
    char *encoder;
    double target_mean, target_std;
    struct nn_meta *meta;
    int n_meta;
};

/* Allocate a model with the layout of `spec` (parameters zero). */
nn_model *nn_model_alloc(const struct nn_spec *spec, int *status);
/* 64-byte aligned zeroed floats, NULL on failure; free with free(). */
float *nn_falloc(size_t n);
size_t nn_round_up(size_t n);
int nn_widest(const struct nn_spec *spec);

#endif
