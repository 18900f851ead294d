/* nn export: write a trained model in formats other solvers read — ONNX,
 * the Keras legacy .h5 weights layout, a self-contained C source pair, and a
 * folder of .npy arrays described by model.json. Every writer creates its
 * output under a temporary name (`X.part`, or the folder `X.part/`) and
 * renames it into place only when complete, so a failure never leaves a
 * half-written output. Errors: a status from common/hn.h with a message for
 * hn_errmsg(); a model a format cannot express is HN_ERR_UNSUPPORTED.
 * Nothing prints (the Keras snippet goes to a stream the caller passes). */
#ifndef NN_EXPORT_H
#define NN_EXPORT_H

#include <stdio.h>

#include "nn/nn.h"

HEURNET_API_BEGIN

enum nn_export_format {
    NN_EXPORT_ONNX = 0,  /* one .onnx file, opset 13, IR version 8 */
    NN_EXPORT_KERAS = 1, /* one .h5 file as Keras' model.save_weights writes it */
    NN_EXPORT_C = 2,     /* NAME.h + NAME.c, C11, no library needed */
    NN_EXPORT_NPY = 3    /* a folder of .npy files + model.json */
};

/* "onnx", "keras", "c", "npy" -> *fmt. 0, or HN_ERR_ARG naming the choices. */
int nn_export_format_parse(const char *name, enum nn_export_format *fmt);
const char *nn_export_format_name(enum nn_export_format fmt);

/* 0 if every layer of the model can be written in the format, else
 * HN_ERR_UNSUPPORTED with a message naming the layer and what is missing. */
int nn_export_check(const nn_model *m, enum nn_export_format fmt);

/* ONNX: input `x` [N, inputs] float, output `h` [N, outputs] with target
 * scaling applied (folded into the last Gemm when the last layer is
 * linear, else a Mul and an Add), one Gemm per dense layer with batch norm
 * folded, then Relu or Elu. Metadata properties carry spec, encoder, goal
 * layout and provenance. Returns 0 or a status. */
int nn_export_onnx(const nn_model *m, const char *path);

/* Keras weights file: root attributes layer_names (every layer, weightless
 * ones too), backend, keras_version; one group per layer with weight_names;
 * Dense kernel:0 [in, out] and bias:0, BatchNormalization gamma:0, beta:0,
 * moving_mean:0, moving_variance:0. The layers are Dense (linear),
 * BatchNormalization, Activation or ELU, Dropout, and a final Rescaling when
 * the target scaling is not the identity; nn_export_keras_snippet writes
 * the Python that builds this Sequential model. Returns 0 or a status. */
int nn_export_keras(const nn_model *m, const char *path);
/* Python (tf.keras) building the model nn_export_keras describes and
 * loading `weights_path` into it, written to `out`. 0 or HN_ERR_IO. */
int nn_export_keras_snippet(const nn_model *m, const char *weights_path, FILE *out);

/* C source: `path_h` declares NAME_INPUTS, NAME_OUTPUTS,
 * `float NAME_eval(const float *x)` (output 0) and
 * `void NAME_eval_all(const float *x, float *y)`; `path_c` holds the folded
 * weights as static const arrays and the two functions (reentrant, no
 * allocation, no libm). `name` must be a C identifier (nn_export_c_name_ok).
 * Both files are complete before either is renamed into place. */
int nn_export_c(const nn_model *m, const char *name, const char *path_h, const char *path_c);
/* 1 if `name` is a C identifier of at most 64 characters, else 0. */
int nn_export_c_name_ok(const char *name);

/* npy folder: `dir` must not exist; it is built as `dir.part` and renamed.
 * Holds layerNNN_kernel.npy [in, out] float32, layerNNN_bias.npy and, with
 * batch norm, layerNNN_gamma/beta/moving_mean/moving_variance.npy (the raw
 * weights, nothing folded), plus model.json with the layer list, target
 * scaling, encoder (parsed, with the goal layout) and spec. */
int nn_export_npy(const nn_model *m, const char *dir);

/* Whether a file export may write path: not over the model file it reads
 * (HN_ERR_ARG), never over a folder, over an existing file only with force
 * (HN_ERR_IO otherwise). */
int nn_export_target_check(const char *path, const char *model, int force);
/* The C export's files for out: OUT, OUT.c or OUT.h all name OUT.h + OUT.c
 * (into h and c, cap bytes each), and the function prefix is OUT's file
 * name made a C identifier (name, 65 bytes). HN_ERR_ARG when out names no
 * file or the path is too long. */
int nn_export_c_paths(const char *out, char *h, char *c, char *name, size_t cap);
/* nn_export_npy into dir, where an earlier npy export is replaced only with
 * force: it is moved aside, removed once the new folder is in place, and
 * put back on failure; any other existing dir is refused (HN_ERR_IO).
 * *stale is 1 when the old folder (dir.old) could not be removed. */
int nn_export_npy_replace(const nn_model *m, const char *dir, int force, int *stale);

HEURNET_API_END

#endif
