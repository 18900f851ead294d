/* nn: the neural-network library of heurnet — multilayer perceptrons with
 * dense layers, batch norm, ELU/ReLU, dropout, He init, MSE losses and Adam,
 * all on OpenBLAS sgemm; models saved in a self-describing HDF5 layout.
 *
 * Objects: nn_model (parameters in one flat float buffer), nn_train (the
 * workspace for forward/backward on a batch), nn_adam (optimizer state over
 * the flat buffer), nn_infer (per-thread inference workspace with batch norm
 * folded into the dense weights). Errors: functions return a status from
 * common/hn.h (0 ok, negative codes) and record a message for hn_errmsg();
 * constructors return NULL and fill an optional status. Nothing prints. */
#ifndef NN_H
#define NN_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"

HEURNET_API_BEGIN

/* ---- architecture spec ------------------------------------------------- */

#define NN_MAX_LAYERS 64
#define NN_SPEC_MAX 4096 /* enough for any formatted spec of NN_MAX_LAYERS layers */

enum nn_act { NN_ACT_LINEAR = 0, NN_ACT_RELU = 1, NN_ACT_ELU = 2, NN_ACT_LEAKY = 3 };
enum nn_init { NN_INIT_HE = 0, NN_INIT_GLOROT = 1 };

/* Settings of one dense layer (and what follows it: batch norm, activation,
 * dropout). A layer computes act(bn(x @ kernel + bias)), then dropout. */
struct nn_layer_spec {
    int width; /* output width */
    enum nn_act act;
    float elu_alpha; /* ELU: x for x > 0, alpha*(exp(x)-1) otherwise; leaky ReLU
                      * (from ONNX LeakyRelu): x for x > 0, alpha*x otherwise */
    int bn;          /* 1: batch norm after the dense layer */
    float bn_eps;
    float dropout; /* drop probability in [0, 1) during training */
    enum nn_init init;
};

/* Defaults for hidden layers that a spec string does not override. The
 * output layer is always linear, without batch norm and dropout, unless the
 * spec overrides it explicitly. */
struct nn_layer_defaults {
    enum nn_act act;
    float elu_alpha;
    int bn;
    float bn_eps;
    float dropout;
    enum nn_init init;
};

/* The library's own defaults: elu (alpha 1), bn on (eps 1e-3, as Keras),
 * dropout 0, He init. Model files store specs relative to these. */
extern const struct nn_layer_defaults NN_LAYER_DEFAULTS;

struct nn_spec {
    int n_inputs;
    int n_layers; /* dense layers, the last one is the output layer */
    struct nn_layer_spec layer[NN_MAX_LAYERS];
};

/* Parse "256-1024-1024:relu,nobn,do=0.2-1". Widths are separated by '-';
 * a width may be followed by ':' and comma-separated overrides: elu, relu,
 * linear, bn, nobn, do=P, alpha=A (ELU alpha), eps=E (bn epsilon), he, glorot.
 * `d` gives the hidden-layer defaults (NULL: NN_LAYER_DEFAULTS). Returns 0 or
 * HN_ERR_FORMAT with a message naming the 1-based character position. */
int nn_spec_parse(const char *s, const struct nn_layer_defaults *d, struct nn_spec *out);

/* Write the spec as a string that nn_spec_parse(…, d, …) turns back into the
 * same spec: only settings that differ from the defaults are written (d NULL:
 * NN_LAYER_DEFAULTS). Returns 0, or HN_ERR_ARG if `cap` is too small. */
int nn_spec_format(const struct nn_spec *spec, const struct nn_layer_defaults *d, char *buf,
                   size_t cap);

/* Check widths, probabilities and epsilons; 0 or HN_ERR_ARG with a message. */
int nn_spec_check(const struct nn_spec *spec);

const char *nn_act_name(enum nn_act act); /* "elu", "relu", "linear", "leaky" */
/* 0 and *act set, or HN_ERR_FORMAT for an unknown name. */
int nn_act_parse(const char *name, enum nn_act *act);

/* ---- model ------------------------------------------------------------- */

typedef struct nn_model nn_model;

/* A freshly initialised model (He or Glorot kernels from the seed, zero
 * biases, gamma 1, beta 0, running mean 0, running variance 1, target
 * scaling mean 0 std 1, encoder ""). NULL on error (status set). Free with
 * nn_model_free. */
nn_model *nn_model_new(const struct nn_spec *spec, uint64_t seed, int *status);
void nn_model_free(nn_model *m);

/* Load a model written by nn_model_save (layout in docs/formats.md). NULL on error
 * with a message naming the file and dataset: missing file, not HDF5,
 * wrong or missing format attribute, truncated data, kernels whose shapes do
 * not chain or disagree with the spec, NaN/Inf in any weight. */
nn_model *nn_model_load(const char *path, int *status);

/* Write the model to `path.part` and rename it to `path` when complete. */
int nn_model_save(const nn_model *m, const char *path);

/* A deep copy (parameters, state, metadata). NULL on allocation failure. */
nn_model *nn_model_clone(const nn_model *m, int *status);
/* A copy of one-output model m whose output layer gives k (2..4096) outputs,
 * each a copy of m's one (kernel column and bias): a multi-output network
 * (one value per move, say) that starts where the one-output network is.
 * NULL on error (*status: HN_ERR_SHAPE when m has more than one output or
 * k is out of range, HN_ERR_NOMEM). */
nn_model *nn_model_repeat_output(const nn_model *m, int k, int *status);

const struct nn_spec *nn_model_spec(const nn_model *m);
int nn_model_inputs(const nn_model *m);
int nn_model_outputs(const nn_model *m);
int nn_model_layers(const nn_model *m);
/* Number of trainable parameters (kernels, biases, gamma, beta), without
 * the alignment padding of the flat buffer. */
size_t nn_model_param_count(const nn_model *m);

/* One dense layer with what follows it. Pointers view into the model's flat
 * buffers (row-major kernel [in, out]); gamma/beta/mean/var are NULL
 * without batch norm. Valid while the model lives. */
struct nn_layer_info {
    int in, out;
    enum nn_act act;
    float elu_alpha;
    int has_bn;
    float bn_eps;
    float dropout;
    float *kernel, *bias, *gamma, *beta, *moving_mean, *moving_var;
};
/* 0, or HN_ERR_ARG for an index out of range. */
int nn_model_layer(const nn_model *m, int i, struct nn_layer_info *info);

/* The flat trainable buffer (what Adam updates) and its length in floats,
 * including zero padding between tensors (kept zero by training since its
 * gradient is zero). The layout is the one nn_train_grad uses. */
float *nn_model_params(nn_model *m, size_t *n);
/* The non-trainable state (batch-norm running means and variances). */
float *nn_model_state(nn_model *m, size_t *n);

/* Encoder name (e.g. "npuzzle-onehot n=4 goal=blank-first"); never NULL. */
const char *nn_model_encoder(const nn_model *m);
int nn_model_set_encoder(nn_model *m, const char *encoder);
/* Target scaling: outputs are y = raw * std + mean. */
void nn_model_target(const nn_model *m, double *mean, double *std);
int nn_model_set_target(nn_model *m, double mean, double std);

/* Training-record attributes saved as root attributes of the model file.
 * Keys must not collide with the format's own attributes (format,
 * format_version, spec, encoder, target_mean, target_std). Setting a key
 * replaces its value (and type). */
int nn_model_set_meta_str(nn_model *m, const char *key, const char *value);
int nn_model_set_meta_double(nn_model *m, const char *key, double value);
/* The value, or NULL / HN_ERR_ARG when the key is missing or of the other type. */
const char *nn_model_get_meta_str(const nn_model *m, const char *key);
int nn_model_get_meta_double(const nn_model *m, const char *key, double *value);
/* Iterate: i in [0, nn_model_meta_count). Exactly one of *str / is_num is
 * meaningful: is_num 1 means *num holds the value. */
int nn_model_meta_count(const nn_model *m);
int nn_model_meta_at(const nn_model *m, int i, const char **key, int *is_num, const char **str,
                     double *num);

/* ---- training ---------------------------------------------------------- */

enum nn_mode { NN_MODE_TRAIN = 0, NN_MODE_EVAL = 1 };
enum nn_loss { NN_LOSS_MSE = 0, NN_LOSS_ASYM_MSE = 1, NN_LOSS_QUANTILE = 2 };

typedef struct nn_train nn_train;

/* Workspace for batches of up to max_batch rows: activations, batch-norm
 * batch statistics, dropout masks (drawn from an hn_rng seeded with `seed`)
 * and the flat gradient buffer. The model is modified by training (running
 * statistics in train-mode forward; parameters by the optimizer) and must
 * outlive the context. NULL on error. */
nn_train *nn_train_new(nn_model *m, int max_batch, uint64_t seed, int *status);
void nn_train_free(nn_train *t);

/* Batch-norm running averages: running = momentum * running + (1 - momentum)
 * * batch (Keras convention; default 0.99). The running variance uses the
 * unbiased batch variance. */
void nn_train_set_bn_momentum(nn_train *t, float momentum);

/* Sums n doubles element-wise over all the processes that train on stripes
 * of one batch, in place (an MPI allreduce, say). 0 or a negative status. */
typedef int (*nn_sum_fn)(double *buf, size_t n, void *user);

/* Synchronised batch norm (NULL: off). With fn set, a train-mode forward
 * sums each batch-norm layer's column sums and row count through fn, and
 * backward the two column sums its gradient needs, so processes that each
 * hold a stripe of a batch use the statistics of the whole batch. The caller
 * then scales the output gradient to the whole batch's loss (by the stripe's
 * share of the rows) and sums nn_train_grad over the processes. The library
 * itself stays free of any message-passing code. */
void nn_train_set_sum(nn_train *t, nn_sum_fn fn, void *user);

/* Forward n rows of x ([n, inputs] row-major). TRAIN: batch statistics,
 * running-average update, inverted dropout; EVAL: running statistics, no
 * dropout. Returns 0, HN_ERR_ARG (n out of range; n >= 2 for train mode
 * with batch norm) or the status of a failed nn_sum_fn. Outputs in
 * nn_train_output. */
int nn_train_forward(nn_train *t, const float *x, int n, enum nn_mode mode);
/* The same for rows of zeros and ones (one-hot encodings), given by their
 * active inputs: row i's ones are at active[offsets[i] .. offsets[i+1]-1]
 * (offsets has n + 1 entries; an index listed twice counts twice). The
 * first layer adds the kernel rows of the active inputs instead of a
 * product with a dense matrix, and nn_train_backward scatters its kernel
 * gradient to those rows (no input gradient); everything else is the dense
 * path's. With each row's indices ascending, outputs and gradients equal
 * nn_train_forward's on the dense rows bit for bit when those are mostly
 * zeros. The inputs are copied. HN_ERR_ARG, with the workspace as it was,
 * for a NULL array, a negative first offset, a row with a negative count or
 * an index outside 0..inputs-1; else as nn_train_forward. */
int nn_train_forward_sparse(nn_train *t, const int32_t *active, const int32_t *offsets, int n,
                            enum nn_mode mode);
/* Outputs of the last forward, [n, outputs] (raw, before target scaling). */
const float *nn_train_output(const nn_train *t);

/* Loss of the last forward against target ([n, outputs], in raw units) and
 * the output gradient stored for nn_train_backward. MSE is the mean of
 * (y - t)^2 over all n * outputs values; ASYM_MSE multiplies terms where
 * y > t (an over-estimate) by `over_weight`. QUANTILE is the pinball loss
 * of quantile tau = `over_weight` (0 < tau < 1): (1 - tau)(y - t) for an
 * over-estimate, tau (t - y) otherwise, so the minimiser is the tau-quantile
 * of the target given the input and over-estimates are rare for a small
 * tau. Returns the loss (0 before any forward pass). */
double nn_train_loss(nn_train *t, const float *target, enum nn_loss kind, float over_weight);
/* One term of that loss for the error d = y - t (the same definitions), for
 * callers that evaluate predictions outside a training context. */
double nn_loss_term(enum nn_loss kind, float over_weight, double d);
/* The output gradient dLoss/dy of the last forward, [n, outputs]; writable
 * so callers can supply their own loss. */
float *nn_train_output_grad(nn_train *t);

/* Back-propagate the output gradient of the last TRAIN forward into the
 * gradient buffer (overwritten, not accumulated). 0, HN_ERR_ARG or the
 * status of a failed nn_sum_fn. */
int nn_train_backward(nn_train *t);
/* The gradient buffer, laid out like nn_model_params. */
float *nn_train_grad(nn_train *t);
/* The dropout RNG (for checkpoints: hn_rng_state_get/set). */
hn_rng *nn_train_rng(nn_train *t);

/* Listwise softmax cross-entropy (ListNet's top-one form) for ranking the
 * rows of a group against each other: consecutive rows with the same
 * group[i] form one list (a group's rows must be contiguous). Within a list
 * the target distribution is p = softmax(target / target_temp) and the model's
 * q = softmax(y); the loss is the mean over lists of -sum p log q, and
 * dy[i] = (q_i - p_i) / lists. Single-row lists add nothing. Writes dy
 * (may be NULL) and returns the loss; target_temp > 0. */
double nn_listwise_loss(const float *y, const float *target, const int32_t *group, int n,
                        float target_temp, float *dy);
/* The same on the last forward of t (one output), storing the output
 * gradient for nn_train_backward. */
double nn_train_loss_listwise(nn_train *t, const float *target, const int32_t *group,
                              float target_temp);

/* ---- Adam -------------------------------------------------------------- */

struct nn_adam_opts {
    float lr;           /* 1e-3 */
    float beta1;        /* 0.9 */
    float beta2;        /* 0.999 */
    float eps;          /* 1e-7 (Keras) */
    float weight_decay; /* 0: off; else decoupled (AdamW): p -= lr * wd * p */
};
extern const struct nn_adam_opts NN_ADAM_DEFAULTS;

typedef struct nn_adam nn_adam;

/* Adam over a flat buffer of n parameters. NULL on error. */
nn_adam *nn_adam_new(size_t n, const struct nn_adam_opts *opts, int *status);
void nn_adam_free(nn_adam *a);
/* One step with bias correction: params -= lr * mhat / (sqrt(vhat) + eps). */
void nn_adam_step(nn_adam *a, float *params, const float *grad);
void nn_adam_set_lr(nn_adam *a, float lr);
struct nn_adam_opts nn_adam_get_opts(const nn_adam *a);
/* State for checkpoints: the moments (n floats each, writable) and the
 * number of steps taken. */
float *nn_adam_m(nn_adam *a);
float *nn_adam_v(nn_adam *a);
size_t nn_adam_size(const nn_adam *a);
uint64_t nn_adam_step_count(const nn_adam *a);
void nn_adam_set_step_count(nn_adam *a, uint64_t steps);

/* ---- inference --------------------------------------------------------- */

typedef struct nn_infer nn_infer;

/* A workspace for batches of up to max_batch rows. It takes a snapshot of
 * the model with batch norm folded into the kernels (eval mode), so the
 * model is only read and may be shared by threads; changes to the model
 * after this call are not seen (see nn_infer_refresh). NULL on error. */
nn_infer *nn_infer_new(const nn_model *m, int max_batch, int *status);
/* Another workspace sharing base's folded weights (no copy), for one more
 * thread. Either may be freed first. */
nn_infer *nn_infer_clone(const nn_infer *base, int max_batch, int *status);
void nn_infer_free(nn_infer *c);
/* Re-fold from the model (e.g. after training steps). Affects only this
 * context (a clone keeps the old weights). 0 or HN_ERR_NOMEM. */
int nn_infer_refresh(nn_infer *c, const nn_model *m);
/* Evaluate n rows of x ([n, inputs]) into y ([n, outputs]), target scaling
 * applied. One sgemm per layer; nothing is allocated. 0 or HN_ERR_ARG. */
int nn_infer_run(nn_infer *c, const float *x, int n, float *y);
int nn_infer_max_batch(const nn_infer *c);

/* ---- BLAS -------------------------------------------------------------- */

/* Threads OpenBLAS may use (process-wide). */
void nn_blas_threads(int n);

HEURNET_API_END

#endif
