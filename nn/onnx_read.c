/* A protobuf wire-format reader for the part of onnx.proto an MLP uses
 * (field numbers from onnx.proto, onnx 1.12). Every read is checked against
 * the end of its enclosing message, so a damaged file is refused with the
 * byte offset where it went wrong; lengths and counts have fixed limits, and
 * nesting is bounded by construction: only ModelProto > GraphProto >
 * NodeProto > AttributeProto > TensorProto (and the short ValueInfoProto
 * chain) are descended, every other field, subgraphs included, is skipped. */
#include <stdlib.h>
#include <string.h>

#include "nn/onnx_private.h"

enum { WT_VARINT = 0, WT_FIXED64 = 1, WT_LEN = 2, WT_FIXED32 = 5 };

/* One message being read: [p, end) within the file at `base`. */
struct pb {
    const uint8_t *p, *end;
};

struct pb_field {
    int num, wt;
    uint64_t v;          /* varint and fixed values */
    const uint8_t *data; /* length-delimited payload */
    size_t len;
    size_t at; /* offset of the field's tag in the file */
};

struct rd {
    struct nn_ox_model *m;
    const uint8_t *base;
};

static int bad(const struct rd *r, size_t at, const char *msg, const char *what)
{
    return hn_fail(HN_ERR_FORMAT, "%s: not a valid ONNX file: byte %zu, in %s: %s", r->m->path, at,
                   msg, what);
}

static int varint(const struct rd *r, struct pb *b, const char *msg, uint64_t *v)
{
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        if (b->p >= b->end)
            return bad(r, (size_t)(b->p - r->base), msg, "truncated varint");
        uint8_t c = *b->p++;
        if (i == 9 && c > 1)
            return bad(r, (size_t)(b->p - 1 - r->base), msg, "varint longer than 64 bits");
        x |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            *v = x;
            return HN_OK;
        }
    }
    return bad(r, (size_t)(b->p - r->base), msg, "varint longer than 10 bytes");
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t x = 0;
    for (int i = n - 1; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

/* The next field of b: 1 with *f filled, 0 at the end, or a status. */
static int pb_next(const struct rd *r, struct pb *b, const char *msg, struct pb_field *f)
{
    if (b->p >= b->end)
        return 0;
    uint64_t tag;
    f->at = (size_t)(b->p - r->base);
    int rc = varint(r, b, msg, &tag);
    if (rc)
        return rc;
    f->num = (int)(tag >> 3);
    f->wt = (int)(tag & 7);
    if ((tag >> 3) == 0 || (tag >> 3) > ((1u << 29) - 1))
        return bad(r, f->at, msg, "field number out of range");
    size_t left;
    switch (f->wt) {
    case WT_VARINT:
        return varint(r, b, msg, &f->v) ? HN_ERR_FORMAT : 1;
    case WT_FIXED64:
    case WT_FIXED32: {
        size_t n = f->wt == WT_FIXED64 ? 8 : 4;
        if ((size_t)(b->end - b->p) < n)
            return bad(r, f->at, msg, "truncated fixed-size field");
        f->v = le(b->p, (int)n);
        b->p += n;
        return 1;
    }
    case WT_LEN:
        if ((rc = varint(r, b, msg, &f->v)))
            return rc;
        left = (size_t)(b->end - b->p);
        if (f->v > left) {
            char what[128];
            snprintf(what, sizeof what,
                     "field %d claims %llu bytes but only %zu remain (truncated file?)", f->num,
                     (unsigned long long)f->v, left);
            return bad(r, f->at, msg, what);
        }
        f->data = b->p;
        f->len = (size_t)f->v;
        b->p += f->len;
        return 1;
    default:
        return bad(r, f->at, msg, "wire type 3, 4, 6 or 7 (groups or garbage)");
    }
}

static int want(const struct rd *r, const struct pb_field *f, int wt, const char *msg)
{
    if (f->wt == wt)
        return HN_OK;
    char what[96];
    snprintf(what, sizeof what, "field %d has wire type %d, expected %d", f->num, f->wt, wt);
    return bad(r, f->at, msg, what);
}

/* A string field copied into the model's pool. */
static int str(const struct rd *r, const struct pb_field *f, const char *msg, const char **out)
{
    int rc = want(r, f, WT_LEN, msg);
    if (rc)
        return rc;
    if (memchr(f->data, 0, f->len))
        return bad(r, f->at, msg, "string with a NUL byte");
    struct nn_ox_model *m = r->m;
    if (m->pool_n + f->len + 1 > m->pool_cap) /* cannot happen: see nn_ox_read */
        return bad(r, f->at, msg, "string pool exhausted");
    char *s = m->pool + m->pool_n;
    memcpy(s, f->data, f->len);
    s[f->len] = 0;
    m->pool_n += f->len + 1;
    *out = s;
    return HN_OK;
}

static struct pb sub(const struct pb_field *f)
{
    return (struct pb){f->data, f->data + f->len};
}

/* Room for one more element of a growing array; NULL when full or out of memory. */
static void *grow(void **arr, int n, size_t elem)
{
    if (n >= NN_OX_MAX_ITEMS)
        return NULL;
    if ((n & (n - 1)) == 0) { /* n is 0 or a power of two: double */
        void *p = realloc(*arr, elem * (size_t)(n ? 2 * n : 4));
        if (!p)
            return NULL;
        *arr = p;
    }
    char *slot = (char *)*arr + elem * (size_t)n;
    memset(slot, 0, elem);
    return slot;
}

static int grow_fail(const struct rd *r, const struct pb_field *f, const char *msg, int n)
{
    if (n >= NN_OX_MAX_ITEMS)
        return bad(r, f->at, msg, "more than 8192 entries of one kind");
    return hn_fail(HN_ERR_NOMEM, "%s: out of memory reading the ONNX graph", r->m->path);
}

/* ---- TensorProto ------------------------------------------------------- */

static int tensor_dim(const struct rd *r, struct nn_ox_tensor *t, uint64_t v, size_t at)
{
    if (t->ndims >= NN_OX_MAX_DIMS)
        return bad(r, at, "TensorProto", "more than 8 dimensions");
    if (v > INT32_MAX)
        return bad(r, at, "TensorProto", "negative or huge dimension");
    t->dims[t->ndims++] = (int64_t)v;
    return HN_OK;
}

static int tensor_dims(const struct rd *r, const struct pb_field *f, struct nn_ox_tensor *t)
{
    if (f->wt == WT_VARINT)
        return tensor_dim(r, t, f->v, f->at);
    int rc = want(r, f, WT_LEN, "TensorProto.dims");
    struct pb b = sub(f);
    uint64_t v;
    while (!rc && b.p < b.end)
        if (!(rc = varint(r, &b, "TensorProto.dims", &v)))
            rc = tensor_dim(r, t, v, f->at);
    return rc;
}

static int put_float(const struct rd *r, struct nn_ox_tensor *t, uint32_t bits)
{
    if (t->fdata_n == t->fdata_cap) {
        size_t cap = t->fdata_cap ? 2 * t->fdata_cap : 16;
        float *p = realloc(t->fdata, cap * sizeof *p);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "%s: out of memory reading float_data", r->m->path);
        t->fdata = p;
        t->fdata_cap = cap;
    }
    float x;
    memcpy(&x, &bits, sizeof x);
    t->fdata[t->fdata_n++] = x;
    return HN_OK;
}

/* float_data, packed (one length-delimited run) or one fixed32 per value. */
static int tensor_floats(const struct rd *r, const struct pb_field *f, struct nn_ox_tensor *t)
{
    if (f->wt == WT_FIXED32)
        return put_float(r, t, (uint32_t)f->v);
    int rc = want(r, f, WT_LEN, "TensorProto.float_data");
    if (!rc && f->len % 4)
        rc = bad(r, f->at, "TensorProto.float_data", "packed length not a multiple of 4");
    for (size_t i = 0; !rc && i < f->len; i += 4)
        rc = put_float(r, t, (uint32_t)le(f->data + i, 4));
    return rc;
}

static int tensor_field(const struct rd *r, const struct pb_field *f, struct nn_ox_tensor *t)
{
    const char *msg = "TensorProto";
    switch (f->num) {
    case 1:
        return tensor_dims(r, f, t);
    case 2:
        t->dtype = (int)f->v;
        return want(r, f, WT_VARINT, msg);
    case 3:
        return hn_fail(HN_ERR_UNSUPPORTED, "%s: tensor '%s' is split into segments", r->m->path,
                       t->name);
    case 4:
        return tensor_floats(r, f, t);
    case 8:
        return str(r, f, msg, &t->name);
    case 9:
        t->raw = f->data;
        t->raw_n = f->len;
        return want(r, f, WT_LEN, msg);
    case 13:
        t->external = 1;
        return HN_OK;
    case 14:
        t->external |= f->v == 1;
        return want(r, f, WT_VARINT, msg);
    default:
        return HN_OK;
    }
}

static int tensor(const struct rd *r, const struct pb_field *f, struct nn_ox_tensor *t)
{
    struct pb b = sub(f);
    struct pb_field g;
    int rc;
    t->name = "";
    t->offset = f->at;
    while ((rc = pb_next(r, &b, "TensorProto", &g)) == 1)
        if ((rc = tensor_field(r, &g, t)))
            return rc;
    if (rc)
        return rc;
    t->count = 1;
    for (int i = 0; i < t->ndims; i++) {
        t->count *= t->dims[i];
        if (t->count > INT32_MAX)
            return bad(r, f->at, "TensorProto", "more than 2^31 elements");
    }
    return HN_OK;
}

static void tensor_free(struct nn_ox_tensor *t)
{
    free(t->fdata);
    t->fdata = NULL;
}

/* ---- NodeProto --------------------------------------------------------- */

static int attr_field(const struct rd *r, const struct pb_field *f, struct nn_ox_attr *a)
{
    const char *msg = "AttributeProto";
    int rc;
    switch (f->num) {
    case 1:
        return str(r, f, msg, &a->name);
    case 2:
        a->has_f = 1;
        memcpy(&a->f, &(uint32_t){(uint32_t)f->v}, sizeof a->f);
        return want(r, f, WT_FIXED32, msg);
    case 3:
        a->has_i = 1;
        a->i = (int64_t)f->v;
        return want(r, f, WT_VARINT, msg);
    case 5:
        if ((rc = want(r, f, WT_LEN, msg)))
            return rc;
        if (a->has_t)
            return bad(r, f->at, msg, "two tensors in one attribute");
        a->has_t = 1;
        return tensor(r, f, &a->t);
    case 20:
        a->type = (int)f->v;
        return want(r, f, WT_VARINT, msg);
    default:
        return HN_OK;
    }
}

static int attribute(const struct rd *r, const struct pb_field *f, struct nn_ox_node *n)
{
    int rc = want(r, f, WT_LEN, "NodeProto.attribute");
    if (rc)
        return rc;
    struct nn_ox_attr dummy = {0}, *a = n->n_attr < NN_OX_MAX_ATTRS ? &n->attr[n->n_attr] : &dummy;
    if (n->n_attr++ >= INT16_MAX)
        return bad(r, f->at, "NodeProto", "too many attributes");
    a->name = "";
    struct pb b = sub(f);
    struct pb_field g;
    while ((rc = pb_next(r, &b, "AttributeProto", &g)) == 1)
        if ((rc = attr_field(r, &g, a)))
            break;
    tensor_free(&dummy.t);
    return rc;
}

/* input=1, output=2 (kept up to NN_OX_MAX_IO, counted all). */
static int node_io(const struct rd *r, const struct pb_field *f, const char **arr, int *n)
{
    const char *s;
    int rc = str(r, f, "NodeProto", &s);
    if (rc)
        return rc;
    if (*n >= INT16_MAX)
        return bad(r, f->at, "NodeProto", "too many inputs or outputs");
    if (*n < NN_OX_MAX_IO)
        arr[*n] = s;
    (*n)++;
    return HN_OK;
}

static int node(const struct rd *r, const struct pb_field *f, struct nn_ox_node *n)
{
    const char *msg = "NodeProto";
    struct pb b = sub(f);
    struct pb_field g;
    int rc;
    n->op = n->name = n->domain = "";
    n->offset = f->at;
    while ((rc = pb_next(r, &b, msg, &g)) == 1) {
        switch (g.num) {
        case 1:
            rc = node_io(r, &g, n->in, &n->n_in);
            break;
        case 2:
            rc = node_io(r, &g, n->out, &n->n_out);
            break;
        case 3:
            rc = str(r, &g, msg, &n->name);
            break;
        case 4:
            rc = str(r, &g, msg, &n->op);
            break;
        case 5:
            rc = attribute(r, &g, n);
            break;
        case 7:
            rc = str(r, &g, msg, &n->domain);
            break;
        default: /* doc_string and fields of later onnx versions */
            rc = HN_OK;
        }
        if (rc)
            return rc;
    }
    return rc;
}

/* ---- ValueInfoProto ---------------------------------------------------- */

/* TensorShapeProto.Dimension: dim_value=1, dim_param=2. */
static int shape_dim(const struct rd *r, const struct pb_field *f, struct nn_ox_value *v)
{
    struct pb b = sub(f);
    struct pb_field g;
    int rc;
    if (v->ndims >= NN_OX_MAX_DIMS)
        return bad(r, f->at, "TensorShapeProto", "more than 8 dimensions");
    int64_t d = -1;
    while ((rc = pb_next(r, &b, "Dimension", &g)) == 1)
        if (g.num == 1 && g.wt == WT_VARINT)
            d = (int64_t)g.v;
    v->dims[v->ndims++] = d;
    return rc;
}

/* TypeProto.tensor_type (1) > Tensor: elem_type=1, shape=2 > dim=1. */
static int value_type(const struct rd *r, const struct pb_field *f, struct nn_ox_value *v)
{
    struct pb b = sub(f), tb, sb;
    struct pb_field g, h, k;
    int rc;
    while ((rc = pb_next(r, &b, "TypeProto", &g)) == 1) {
        if (g.num != 1 || g.wt != WT_LEN)
            continue;
        tb = sub(&g);
        while ((rc = pb_next(r, &tb, "TypeProto.Tensor", &h)) == 1) {
            if (h.num == 1 && h.wt == WT_VARINT)
                v->elem_type = (int)h.v;
            if (h.num != 2 || h.wt != WT_LEN)
                continue;
            v->ndims = 0;
            sb = sub(&h);
            while ((rc = pb_next(r, &sb, "TensorShapeProto", &k)) == 1)
                if (k.num == 1 && k.wt == WT_LEN && (rc = shape_dim(r, &k, v)))
                    return rc;
            if (rc)
                return rc;
        }
        if (rc)
            return rc;
    }
    return rc;
}

static int value_info(const struct rd *r, const struct pb_field *f, struct nn_ox_value *v)
{
    struct pb b = sub(f);
    struct pb_field g;
    int rc;
    v->name = "";
    v->ndims = -1;
    while ((rc = pb_next(r, &b, "ValueInfoProto", &g)) == 1) {
        rc = HN_OK;
        if (g.num == 1)
            rc = str(r, &g, "ValueInfoProto", &v->name);
        else if (g.num == 2 && g.wt == WT_LEN)
            rc = value_type(r, &g, v);
        if (rc)
            return rc;
    }
    return rc;
}

/* ---- GraphProto and ModelProto ----------------------------------------- */

#define ADD(arr, n, f)                                                                             \
    do {                                                                                           \
        if ((rc = want(r, f, WT_LEN, msg)))                                                        \
            return rc;                                                                             \
        slot = grow((void **)&(arr), n, sizeof *(arr));                                            \
        if (!slot)                                                                                 \
            return grow_fail(r, f, msg, n);                                                        \
        (n)++;                                                                                     \
    } while (0)

static int graph_field(const struct rd *r, const struct pb_field *f)
{
    const char *msg = "GraphProto";
    struct nn_ox_model *m = r->m;
    void *slot;
    int rc;
    switch (f->num) {
    case 1:
        ADD(m->node, m->n_node, f);
        return node(r, f, slot);
    case 5:
        ADD(m->init, m->n_init, f);
        return tensor(r, f, slot);
    case 11:
        ADD(m->input, m->n_input, f);
        return value_info(r, f, slot);
    case 12:
        ADD(m->output, m->n_output, f);
        return value_info(r, f, slot);
    case 15:
        return hn_fail(HN_ERR_UNSUPPORTED, "%s: the graph has sparse initializers", m->path);
    default:
        return HN_OK;
    }
}

static int opset(const struct rd *r, const struct pb_field *f)
{
    struct pb b = sub(f);
    struct pb_field g;
    const char *domain = "";
    int64_t version = -1;
    int rc;
    while ((rc = pb_next(r, &b, "OperatorSetIdProto", &g)) == 1) {
        if (g.num == 1 && (rc = str(r, &g, "OperatorSetIdProto", &domain)))
            return rc;
        if (g.num == 2 && g.wt == WT_VARINT)
            version = (int64_t)g.v;
    }
    if (!rc && (!*domain || !strcmp(domain, "ai.onnx")))
        r->m->opset = version;
    return rc;
}

static int meta(const struct rd *r, const struct pb_field *f)
{
    const char *msg = "ModelProto";
    struct nn_ox_model *m = r->m;
    void *slot;
    int rc;
    ADD(m->meta, m->n_meta, f);
    struct nn_ox_meta *e = slot;
    struct pb b = sub(f);
    struct pb_field g;
    e->key = e->value = "";
    while ((rc = pb_next(r, &b, "StringStringEntryProto", &g)) == 1) {
        rc = HN_OK;
        if (g.num == 1)
            rc = str(r, &g, "StringStringEntryProto", &e->key);
        else if (g.num == 2)
            rc = str(r, &g, "StringStringEntryProto", &e->value);
        if (rc)
            return rc;
    }
    return rc;
}

static int model_field(const struct rd *r, const struct pb_field *f, int *graphs)
{
    const char *msg = "ModelProto";
    int rc = HN_OK;
    struct pb b;
    struct pb_field g;
    switch (f->num) {
    case 1:
        r->m->ir_version = (int64_t)f->v;
        return want(r, f, WT_VARINT, msg);
    case 2:
        return str(r, f, msg, &r->m->producer);
    case 3:
        return str(r, f, msg, &r->m->producer_version);
    case 7:
        if ((rc = want(r, f, WT_LEN, msg)))
            return rc;
        if ((*graphs)++)
            return bad(r, f->at, msg, "two graphs");
        b = sub(f);
        while ((rc = pb_next(r, &b, "GraphProto", &g)) == 1)
            if ((rc = graph_field(r, &g)))
                return rc;
        return rc;
    case 8:
        return (rc = want(r, f, WT_LEN, msg)) ? rc : opset(r, f);
    case 14:
        return meta(r, f);
    default:
        return HN_OK;
    }
}

int nn_ox_read(const uint8_t *data, size_t size, const char *path, struct nn_ox_model *out)
{
    memset(out, 0, sizeof *out);
    out->path = path;
    out->opset = -1;
    out->producer = out->producer_version = "";
    if (size > NN_OX_MAX_FILE)
        return hn_fail(HN_ERR_FORMAT, "%s: %zu bytes, more than an ONNX file can hold", path, size);
    /* A string of n bytes takes at least n + 2 bytes of the file (tag and
     * length), so the file's size bounds the pool of NUL-terminated copies. */
    out->pool_cap = size + 1;
    out->pool = malloc(out->pool_cap);
    if (!out->pool)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
    struct rd r = {out, data};
    struct pb b = {data, data + size};
    struct pb_field f;
    int rc, graphs = 0;
    while ((rc = pb_next(&r, &b, "ModelProto", &f)) == 1)
        if ((rc = model_field(&r, &f, &graphs)))
            return rc;
    if (rc)
        return rc;
    if (!graphs)
        return hn_fail(HN_ERR_FORMAT, "%s: not an ONNX model: no graph (empty or foreign file?)",
                       path);
    return HN_OK;
}

void nn_ox_model_free(struct nn_ox_model *m)
{
    for (int i = 0; i < m->n_init; i++)
        tensor_free(&m->init[i]);
    for (int i = 0; i < m->n_node; i++)
        for (int k = 0; k < m->node[i].n_attr && k < NN_OX_MAX_ATTRS; k++)
            tensor_free(&m->node[i].attr[k].t);
    free(m->node);
    free(m->init);
    free(m->input);
    free(m->output);
    free(m->meta);
    free(m->pool);
    memset(m, 0, sizeof *m);
}
