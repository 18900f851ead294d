/* ONNX export with a protobuf writer of our own: the model is a handful of
 * nested messages (ModelProto > GraphProto > NodeProto / TensorProto /
 * ValueInfoProto), so encoding them directly avoids a protobuf dependency.
 * Field numbers follow onnx.proto (onnx 1.12); see ECOSYSTEM.md. */
#include <stdint.h>
#include <string.h>

#include "nn/export_private.h"

enum { PB_VARINT = 0, PB_LEN = 2, PB_FIXED32 = 5 };
enum { ONNX_FLOAT = 1, ONNX_ATTR_FLOAT = 1, ONNX_IR_VERSION = 8, ONNX_OPSET = 13 };

/* ---- protobuf wire format ---------------------------------------------- */

static void pb_varint(struct nn_ex_buf *b, uint64_t v)
{
    unsigned char out[10];
    size_t n = 0;
    do {
        out[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            out[n] |= 0x80;
        n++;
    } while (v);
    nn_ex_buf_put(b, out, n);
}

static void pb_tag(struct nn_ex_buf *b, int field, int type)
{
    pb_varint(b, ((uint64_t)field << 3) | (uint64_t)type);
}

static void pb_uint(struct nn_ex_buf *b, int field, uint64_t v)
{
    pb_tag(b, field, PB_VARINT);
    pb_varint(b, v);
}

static void pb_bytes(struct nn_ex_buf *b, int field, const void *data, size_t n)
{
    pb_tag(b, field, PB_LEN);
    pb_varint(b, n);
    nn_ex_buf_put(b, data, n);
}

static void pb_str(struct nn_ex_buf *b, int field, const char *s)
{
    pb_bytes(b, field, s, strlen(s));
}

/* Append `sub` as a length-delimited field and release it. */
static void pb_msg(struct nn_ex_buf *b, int field, struct nn_ex_buf *sub)
{
    if (sub->failed)
        b->failed = 1;
    pb_bytes(b, field, sub->p, sub->n);
    nn_ex_buf_free(sub);
}

static void pb_float(struct nn_ex_buf *b, int field, float f)
{
    pb_tag(b, field, PB_FIXED32);
    nn_ex_buf_put_f32le(b, f);
}

/* ---- ONNX messages ----------------------------------------------------- */

/* TensorProto: dims=1, data_type=2, name=8, raw_data=9. */
static void onnx_tensor(struct nn_ex_buf *graph, const char *name, const int64_t *dims, int ndims,
                        const float *data, size_t count)
{
    struct nn_ex_buf t = {0}, raw = {0};
    for (int i = 0; i < ndims; i++)
        pb_uint(&t, 1, (uint64_t)dims[i]);
    pb_uint(&t, 2, ONNX_FLOAT);
    pb_str(&t, 8, name);
    for (size_t i = 0; i < count; i++)
        nn_ex_buf_put_f32le(&raw, data[i]);
    pb_msg(&t, 9, &raw);
    pb_msg(graph, 5, &t); /* GraphProto.initializer */
}

/* ValueInfoProto of a float [N, width] tensor with a symbolic batch N. */
static void onnx_value_info(struct nn_ex_buf *graph, int field, const char *name, int width)
{
    struct nn_ex_buf vi = {0}, type = {0}, tt = {0}, shape = {0}, d0 = {0}, d1 = {0};
    pb_str(&d0, 2, "N");              /* Dimension.dim_param */
    pb_uint(&d1, 1, (uint64_t)width); /* Dimension.dim_value */
    pb_msg(&shape, 1, &d0);
    pb_msg(&shape, 1, &d1);
    pb_uint(&tt, 1, ONNX_FLOAT); /* TypeProto.Tensor.elem_type */
    pb_msg(&tt, 2, &shape);
    pb_msg(&type, 1, &tt); /* TypeProto.tensor_type */
    pb_str(&vi, 1, name);
    pb_msg(&vi, 2, &type);
    pb_msg(graph, field, &vi);
}

/* NodeProto: input=1, output=2, name=3, op_type=4, attribute=5. `alpha`
 * adds a float attribute named "alpha" when non-negative. */
static void onnx_node(struct nn_ex_buf *graph, const char *op, const char *name,
                      const char *const *in, int n_in, const char *out, float alpha)
{
    struct nn_ex_buf node = {0};
    for (int i = 0; i < n_in; i++)
        pb_str(&node, 1, in[i]);
    pb_str(&node, 2, out);
    pb_str(&node, 3, name);
    pb_str(&node, 4, op);
    if (alpha >= 0.0f) {
        struct nn_ex_buf attr = {0};
        pb_str(&attr, 1, "alpha");
        pb_float(&attr, 2, alpha);
        pb_uint(&attr, 20, ONNX_ATTR_FLOAT);
        pb_msg(&node, 5, &attr);
    }
    pb_msg(graph, 1, &node);
}

/* One layer: Gemm(x, W, b) then the activation (with its alpha for Elu and
 * LeakyRelu); the last tensor is named
 * `out`. */
static void onnx_layer(struct nn_ex_buf *g, const struct nn_ex_dense *d, int l, const char *in,
                       const char *out)
{
    char w[32], b[32], z[32], node[32];
    snprintf(w, sizeof w, "W%d", l);
    snprintf(b, sizeof b, "B%d", l);
    snprintf(z, sizeof z, "z%d", l);
    snprintf(node, sizeof node, "gemm%d", l);
    int64_t wd[2] = {d->in, d->out}, bd[1] = {d->out};
    onnx_tensor(g, w, wd, 2, d->w, (size_t)d->in * d->out);
    onnx_tensor(g, b, bd, 1, d->b, (size_t)d->out);
    const char *gin[3] = {in, w, b};
    int linear = d->act == NN_ACT_LINEAR;
    onnx_node(g, "Gemm", node, gin, 3, linear ? out : z, -1.0f);
    if (linear)
        return;
    const char *ain[1] = {z};
    const char *op = d->act == NN_ACT_ELU ? "Elu" : d->act == NN_ACT_LEAKY ? "LeakyRelu" : "Relu";
    snprintf(node, sizeof node, "%s%d", nn_act_name(d->act), l);
    onnx_node(g, op, node, ain, 1, out, d->act == NN_ACT_RELU ? -1.0f : d->alpha);
}

/* Target scaling after a non-linear last layer: h = a * std + mean. */
static void onnx_post(struct nn_ex_buf *g, const struct nn_ex_net *net, const char *in)
{
    onnx_tensor(g, "target_std", NULL, 0, &net->post_scale, 1);
    onnx_tensor(g, "target_mean", NULL, 0, &net->post_offset, 1);
    const char *min[2] = {in, "target_std"}, *ain[2] = {"scaled", "target_mean"};
    onnx_node(g, "Mul", "scale", min, 2, "scaled", -1.0f);
    onnx_node(g, "Add", "offset", ain, 2, "h", -1.0f);
}

static void onnx_graph(struct nn_ex_buf *model, const nn_model *m, const struct nn_ex_net *net)
{
    struct nn_ex_buf g = {0};
    char in[32] = "x", out[32];
    for (int l = 0; l < net->n_layers; l++) {
        int last = l == net->n_layers - 1;
        if (last && !net->post)
            snprintf(out, sizeof out, "h");
        else
            snprintf(out, sizeof out, "a%d", l);
        onnx_layer(&g, &net->layer[l], l, in, out);
        memcpy(in, out, sizeof in);
    }
    if (net->post)
        onnx_post(&g, net, in);
    pb_str(&g, 2, "heurnet");
    onnx_value_info(&g, 11, "x", nn_model_inputs(m));
    onnx_value_info(&g, 12, "h", nn_model_outputs(m));
    pb_msg(model, 7, &g);
}

static void onnx_meta(struct nn_ex_buf *model, const char *key, const char *value)
{
    struct nn_ex_buf e = {0};
    pb_str(&e, 1, key);
    pb_str(&e, 2, value);
    pb_msg(model, 14, &e);
}

/* Spec, encoder (raw, parsed goal layout, and spelled out), target scaling
 * and the model's training record as "train.<key>". */
static void onnx_metadata(struct nn_ex_buf *b, const nn_model *m)
{
    char s[NN_SPEC_MAX], text[512];
    struct nn_ex_encoder e;
    nn_spec_format(nn_model_spec(m), NULL, s, sizeof s);
    onnx_meta(b, "spec", s);
    onnx_meta(b, "encoder", nn_model_encoder(m));
    nn_ex_encoder_parse(nn_model_encoder(m), &e);
    if (e.npuzzle) {
        onnx_meta(b, "goal", e.goal);
        nn_ex_goal_string(&e, text, sizeof text);
        onnx_meta(b, "goal_layout", text);
    }
    nn_ex_encoding_text(&e, nn_model_inputs(m), text, sizeof text);
    onnx_meta(b, "input_encoding", text);
    double mean, std;
    nn_model_target(m, &mean, &std);
    snprintf(text, sizeof text, "h = raw * %.9g + %.9g (already applied)", std, mean);
    onnx_meta(b, "target_scaling", text);
    for (int i = 0; i < nn_model_meta_count(m); i++) {
        const char *key, *str;
        int is_num;
        double num;
        char k[300], v[64];
        nn_model_meta_at(m, i, &key, &is_num, &str, &num);
        snprintf(k, sizeof k, "train.%s", key);
        if (is_num)
            snprintf(v, sizeof v, "%.17g", num);
        onnx_meta(b, k, is_num ? v : str);
    }
}

int nn_export_onnx(const nn_model *m, const char *path)
{
    int rc = nn_export_check(m, NN_EXPORT_ONNX);
    if (rc)
        return rc;
    struct nn_ex_net net;
    if ((rc = nn_ex_fold(m, &net))) {
        nn_ex_net_free(&net);
        return rc;
    }
    struct nn_ex_buf b = {0}, opset = {0};
    char version[64];
    snprintf(version, sizeof version, "%s (%s)", hn_version(), hn_revision());
    pb_uint(&b, 1, ONNX_IR_VERSION);
    pb_str(&b, 2, "heurnet");
    pb_str(&b, 3, version);
    onnx_graph(&b, m, &net);
    pb_str(&opset, 1, "");
    pb_uint(&opset, 2, ONNX_OPSET);
    pb_msg(&b, 8, &opset);
    onnx_metadata(&b, m);
    nn_ex_net_free(&net);
    if (b.failed)
        rc = hn_fail(HN_ERR_NOMEM, "%s: out of memory encoding the ONNX model", path);
    else
        rc = nn_ex_write_file(path, b.p, b.n);
    nn_ex_buf_free(&b);
    return rc;
}
