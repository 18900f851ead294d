/* nn import: turn a network trained elsewhere into a heurnet model, so that
 * search can run it on every inference engine (float, sparse, int8).
 * ONNX is read by a protobuf reader of our own (no dependency). Errors: a
 * status from common/hn.h with a message for hn_errmsg() that names the
 * file; nothing prints. */
#ifndef NN_IMPORT_H
#define NN_IMPORT_H

#include <stddef.h>

#include "nn/nn.h"

HEURNET_API_BEGIN

/* Read a multilayer perceptron from an ONNX file as PyTorch
 * (torch.onnx.export) and Keras (tf2onnx) write it, opsets 7 to 22:
 *
 *   Gemm (transB 0 or 1, alpha, beta), or MatMul followed by Add  a dense layer
 *   BatchNormalization right after it (before the activation)       its batch norm
 *   BatchNormalization anywhere else        folded into the next dense layer
 *   Relu, Elu (alpha), LeakyRelu (alpha >= 0)                     its activation
 *   Mul or Add by a constant (one value, or one per column): before the
 *     activation into the layer's kernel and bias (or batch norm), after
 *     it into the next dense layer; after the last activation, the target
 *     scaling (the same factor and offset for every output)
 *   Dropout, Identity, Flatten (axis 1)                                 nothing
 *
 * which covers what `heurnet export` writes, so exporting and importing
 * again gives the same weights bit for bit. Initializers (or Constant
 * nodes) are float tensors in raw_data or float_data. The model's encoder
 * comes from the metadata property "encoder" when present (else ""), its
 * training record from "train.*" properties.
 *
 * Returns a new model (free with nn_model_free) or NULL with *status:
 * HN_ERR_IO (cannot read), HN_ERR_FORMAT (not ONNX, damaged or truncated,
 * a missing or mis-sized initializer), HN_ERR_SHAPE (layers whose widths do
 * not chain), HN_ERR_NAN (a weight is NaN or infinite), HN_ERR_UNSUPPORTED
 * (an operator, attribute, data type, opset or graph shape heurnet cannot
 * express; the message names it), HN_ERR_NOMEM. */
nn_model *nn_import_onnx(const char *path, int *status);

/* The same from size bytes in memory; `name` stands for the file in
 * messages. The bytes are only read during the call. */
nn_model *nn_import_onnx_mem(const void *data, size_t size, const char *name, int *status);

HEURNET_API_END

#endif
