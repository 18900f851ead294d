/* The ONNX file as the importer sees it: the few message types of onnx.proto
 * a multilayer perceptron uses, decoded by a protobuf reader of our own
 * (nn/onnx_read.c) into plain structs that point into the file's bytes.
 * Nothing here knows what a layer is; nn/import_onnx.c does. */
#ifndef NN_ONNX_PRIVATE_H
#define NN_ONNX_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "nn/nn.h"

/* Limits far above any MLP, so that a hostile file cannot make the reader
 * allocate or loop without bound. */
#define NN_OX_MAX_FILE ((size_t)1 << 31) /* protobuf's own limit is 2 GiB */
#define NN_OX_MAX_DIMS 8
#define NN_OX_MAX_IO 8       /* inputs / outputs kept per node (the count is exact) */
#define NN_OX_MAX_ATTRS 16   /* attributes kept per node (the count is exact) */
#define NN_OX_MAX_ITEMS 8192 /* nodes, initializers, graph inputs, metadata entries */

enum { NN_OX_FLOAT = 1 }; /* TensorProto.DataType */
enum { NN_OX_ATTR_FLOAT = 1, NN_OX_ATTR_INT = 2, NN_OX_ATTR_TENSOR = 4 };

struct nn_ox_tensor {
    const char *name; /* "" when absent */
    int ndims;
    int64_t dims[NN_OX_MAX_DIMS];
    int64_t count; /* product of dims (1 for a scalar) */
    int dtype;
    int external;       /* data_location EXTERNAL or external_data entries */
    const uint8_t *raw; /* raw_data bytes (little-endian), NULL when absent */
    size_t raw_n;
    float *fdata; /* float_data values (malloc'd; packed and unpacked alike) */
    size_t fdata_n, fdata_cap;
    size_t offset; /* byte offset of the message in the file, for messages */
};

struct nn_ox_attr {
    const char *name;
    int type; /* AttributeProto.type; 0 when the file left it out */
    int has_f, has_i, has_t;
    float f;
    int64_t i;
    struct nn_ox_tensor t;
};

struct nn_ox_node {
    const char *op, *name, *domain;
    int n_in, n_out, n_attr; /* exact counts; at most the MAX_ kept */
    const char *in[NN_OX_MAX_IO], *out[NN_OX_MAX_IO];
    struct nn_ox_attr attr[NN_OX_MAX_ATTRS];
    size_t offset;
};

/* A graph input or output: its name and, when the file gives them, its
 * dims (-1 for a symbolic or missing dimension; ndims -1 without a shape). */
struct nn_ox_value {
    const char *name;
    int ndims;
    int64_t dims[NN_OX_MAX_DIMS];
    int elem_type;
};

struct nn_ox_meta {
    const char *key, *value;
};

struct nn_ox_model {
    const char *path; /* for messages */
    int64_t ir_version;
    int64_t opset; /* default domain ("" or "ai.onnx"); -1 when not imported */
    const char *producer, *producer_version;
    struct nn_ox_node *node;
    struct nn_ox_tensor *init;
    struct nn_ox_value *input, *output;
    struct nn_ox_meta *meta;
    int n_node, n_init, n_input, n_output, n_meta;
    char *pool; /* every string, NUL-terminated */
    size_t pool_n, pool_cap;
};

/* Decode an ONNX ModelProto from data[0..size) (which must outlive the
 * result: raw_data points into it). `path` names the file in messages.
 * 0, or HN_ERR_FORMAT naming the file, byte offset, message and problem
 * (truncated, bad varint, length past the end, wrong wire type, limits),
 * or HN_ERR_NOMEM. *out is complete on success; free it with
 * nn_ox_model_free, also after a failure. */
int nn_ox_read(const uint8_t *data, size_t size, const char *path, struct nn_ox_model *out);
void nn_ox_model_free(struct nn_ox_model *m);

#endif
