/* The model object: a spec, one flat aligned buffer of trainable parameters
 * that the layers view into, the batch-norm running statistics, and the
 * metadata (encoder, target scaling, training record) saved with it. */
#include "nn/nn_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t nn_round_up(size_t n)
{
    return (n + NN_ALIGN_FLOATS - 1) / NN_ALIGN_FLOATS * NN_ALIGN_FLOATS;
}

float *nn_falloc(size_t n)
{
    size_t bytes = nn_round_up(n ? n : 1) * sizeof(float);
    float *p = aligned_alloc(64, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

int nn_widest(const struct nn_spec *spec)
{
    int w = spec->n_inputs;
    for (int i = 0; i < spec->n_layers; i++)
        if (spec->layer[i].width > w)
            w = spec->layer[i].width;
    return w;
}

nn_model *nn_model_alloc(const struct nn_spec *spec, int *status)
{
    int rc = nn_spec_check(spec);
    nn_model *m = NULL;
    if (rc)
        goto fail;
    rc = HN_ERR_NOMEM;
    m = calloc(1, sizeof *m);
    if (!m)
        goto fail;
    m->spec = *spec;
    m->target_std = 1.0;
    size_t p = 0, s = 0;
    int in = spec->n_inputs;
    for (int i = 0; i < spec->n_layers; i++) {
        struct nn_layer_view *v = &m->view[i];
        int out = spec->layer[i].width;
        v->in = in;
        v->out = out;
        v->kernel = p;
        p += nn_round_up((size_t)in * out);
        v->bias = p;
        p += nn_round_up(out);
        m->n_true += (size_t)in * out + out;
        if (spec->layer[i].bn) {
            v->gamma = p;
            p += nn_round_up(out);
            v->beta = p;
            p += nn_round_up(out);
            v->mean = s;
            s += nn_round_up(out);
            v->var = s;
            s += nn_round_up(out);
            m->n_true += 2 * (size_t)out;
        }
        in = out;
    }
    m->n_params = p;
    m->n_state = s;
    m->params = nn_falloc(p);
    m->state = nn_falloc(s);
    m->encoder = strdup("");
    if (!m->params || !m->state || !m->encoder)
        goto fail;
    return m;
fail:
    nn_model_free(m);
    if (status)
        *status = rc == HN_ERR_NOMEM ? hn_fail(rc, "out of memory for the model") : rc;
    return NULL;
}

static void init_layer(nn_model *m, int i, hn_rng *rng)
{
    const struct nn_layer_spec *l = &m->spec.layer[i];
    const struct nn_layer_view *v = &m->view[i];
    float *k = m->params + v->kernel;
    size_t n = (size_t)v->in * v->out;
    if (l->init == NN_INIT_HE) {
        double sd = sqrt(2.0 / v->in);
        for (size_t j = 0; j < n; j++)
            k[j] = (float)hn_rng_gauss(rng, sd);
    } else {
        double lim = sqrt(6.0 / (v->in + v->out));
        for (size_t j = 0; j < n; j++)
            k[j] = (float)((2.0 * hn_rng_uniform(rng) - 1.0) * lim);
    }
    if (l->bn)
        for (int j = 0; j < v->out; j++) {
            m->params[v->gamma + j] = 1.0f;
            m->state[v->var + j] = 1.0f;
        }
}

nn_model *nn_model_new(const struct nn_spec *spec, uint64_t seed, int *status)
{
    nn_model *m = nn_model_alloc(spec, status);
    if (!m)
        return NULL;
    hn_rng *rng = hn_rng_new(seed);
    if (!rng) {
        nn_model_free(m);
        if (status)
            *status = hn_fail(HN_ERR_NOMEM, "out of memory for the RNG");
        return NULL;
    }
    for (int i = 0; i < spec->n_layers; i++)
        init_layer(m, i, rng);
    hn_rng_free(rng);
    return m;
}

static void meta_clear(nn_model *m)
{
    for (int i = 0; i < m->n_meta; i++) {
        free(m->meta[i].key);
        free(m->meta[i].str);
    }
    free(m->meta);
    m->meta = NULL;
    m->n_meta = 0;
}

void nn_model_free(nn_model *m)
{
    if (!m)
        return;
    free(m->params);
    free(m->state);
    free(m->encoder);
    meta_clear(m);
    free(m);
}

/* m with src's target scaling, encoder and metadata; NULL (m freed) when
 * out of memory. */
static nn_model *copy_extras(const nn_model *src, nn_model *m, int *status)
{
    m->target_mean = src->target_mean;
    m->target_std = src->target_std;
    int rc = nn_model_set_encoder(m, src->encoder);
    for (int i = 0; !rc && i < src->n_meta; i++)
        rc = src->meta[i].is_num ? nn_model_set_meta_double(m, src->meta[i].key, src->meta[i].num)
                                 : nn_model_set_meta_str(m, src->meta[i].key, src->meta[i].str);
    if (rc) {
        nn_model_free(m);
        if (status)
            *status = rc;
        return NULL;
    }
    return m;
}

nn_model *nn_model_clone(const nn_model *src, int *status)
{
    nn_model *m = nn_model_alloc(&src->spec, status);
    if (!m)
        return NULL;
    memcpy(m->params, src->params, src->n_params * sizeof(float));
    memcpy(m->state, src->state, src->n_state * sizeof(float));
    return copy_extras(src, m, status);
}

/* Layer i of src into the same-shaped layer of dst (the output layer may
 * be wider: its one column repeated). */
static void copy_layer(const nn_model *src, nn_model *dst, int i)
{
    struct nn_layer_info a, b;
    nn_model_layer(src, i, &a);
    nn_model_layer(dst, i, &b);
    for (int r = 0; r < a.in; r++)
        for (int j = 0; j < b.out; j++)
            b.kernel[(size_t)r * b.out + j] = a.kernel[(size_t)r * a.out + j % a.out];
    for (int j = 0; j < b.out; j++)
        b.bias[j] = a.bias[j % a.out];
    if (!a.has_bn)
        return;
    memcpy(b.gamma, a.gamma, sizeof(float) * (size_t)a.out);
    memcpy(b.beta, a.beta, sizeof(float) * (size_t)a.out);
    memcpy(b.moving_mean, a.moving_mean, sizeof(float) * (size_t)a.out);
    memcpy(b.moving_var, a.moving_var, sizeof(float) * (size_t)a.out);
}

nn_model *nn_model_repeat_output(const nn_model *src, int k, int *status)
{
    int last = src->spec.n_layers - 1, rc = 0;
    if (src->spec.layer[last].width != 1 || k < 2 || k > 4096 || src->spec.layer[last].bn) {
        rc = hn_fail(HN_ERR_SHAPE,
                     "repeating the output: the model needs one output without batch norm "
                     "(it has %d) and k 2..4096 (%d)",
                     src->spec.layer[last].width, k);
        if (status)
            *status = rc;
        return NULL;
    }
    struct nn_spec spec = src->spec;
    spec.layer[last].width = k;
    nn_model *m = nn_model_alloc(&spec, status);
    if (!m)
        return NULL;
    for (int i = 0; i <= last; i++)
        copy_layer(src, m, i);
    return copy_extras(src, m, status);
}

const struct nn_spec *nn_model_spec(const nn_model *m)
{
    return &m->spec;
}
int nn_model_inputs(const nn_model *m)
{
    return m->spec.n_inputs;
}
int nn_model_outputs(const nn_model *m)
{
    return m->spec.layer[m->spec.n_layers - 1].width;
}
int nn_model_layers(const nn_model *m)
{
    return m->spec.n_layers;
}
size_t nn_model_param_count(const nn_model *m)
{
    return m->n_true;
}

int nn_model_layer(const nn_model *m, int i, struct nn_layer_info *info)
{
    if (i < 0 || i >= m->spec.n_layers)
        return hn_fail(HN_ERR_ARG, "layer %d out of range (model has %d)", i, m->spec.n_layers);
    const struct nn_layer_spec *l = &m->spec.layer[i];
    const struct nn_layer_view *v = &m->view[i];
    *info = (struct nn_layer_info){
        .in = v->in,
        .out = v->out,
        .act = l->act,
        .elu_alpha = l->elu_alpha,
        .has_bn = l->bn,
        .bn_eps = l->bn_eps,
        .dropout = l->dropout,
        .kernel = m->params + v->kernel,
        .bias = m->params + v->bias,
        .gamma = l->bn ? m->params + v->gamma : NULL,
        .beta = l->bn ? m->params + v->beta : NULL,
        .moving_mean = l->bn ? m->state + v->mean : NULL,
        .moving_var = l->bn ? m->state + v->var : NULL,
    };
    return HN_OK;
}

float *nn_model_params(nn_model *m, size_t *n)
{
    if (n)
        *n = m->n_params;
    return m->params;
}

float *nn_model_state(nn_model *m, size_t *n)
{
    if (n)
        *n = m->n_state;
    return m->state;
}

const char *nn_model_encoder(const nn_model *m)
{
    return m->encoder;
}

int nn_model_set_encoder(nn_model *m, const char *encoder)
{
    char *e = strdup(encoder ? encoder : "");
    if (!e)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    free(m->encoder);
    m->encoder = e;
    return HN_OK;
}

void nn_model_target(const nn_model *m, double *mean, double *std)
{
    if (mean)
        *mean = m->target_mean;
    if (std)
        *std = m->target_std;
}

int nn_model_set_target(nn_model *m, double mean, double std)
{
    /* beyond 1e30 the scaled outputs overflow a float */
    if (!(fabs(mean) <= 1e30 && std > 0.0 && std <= 1e30))
        return hn_fail(HN_ERR_ARG,
                       "target scaling mean %g std %g: need |mean| <= 1e30 and 0 < std <= 1e30",
                       mean, std);
    m->target_mean = mean;
    m->target_std = std;
    return HN_OK;
}

static const char *const reserved[] = {"format",  "format_version", "spec",
                                       "encoder", "target_mean",    "target_std"};

static int meta_slot(nn_model *m, const char *key)
{
    if (!key || !key[0])
        return hn_fail(HN_ERR_ARG, "empty metadata key");
    for (unsigned i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (!strcmp(key, reserved[i]))
            return hn_fail(HN_ERR_ARG, "metadata key '%s' is reserved by the model format", key);
    for (int i = 0; i < m->n_meta; i++)
        if (!strcmp(m->meta[i].key, key)) {
            free(m->meta[i].str);
            m->meta[i].str = NULL;
            return i;
        }
    struct nn_meta *grown = realloc(m->meta, (size_t)(m->n_meta + 1) * sizeof *grown);
    if (!grown)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    m->meta = grown;
    struct nn_meta *e = &m->meta[m->n_meta];
    *e = (struct nn_meta){.key = strdup(key)};
    if (!e->key)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    return m->n_meta++;
}

int nn_model_set_meta_str(nn_model *m, const char *key, const char *value)
{
    char *v = strdup(value ? value : "");
    if (!v)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    int i = meta_slot(m, key);
    if (i < 0) {
        free(v);
        return i;
    }
    m->meta[i].is_num = 0;
    m->meta[i].str = v;
    return HN_OK;
}

int nn_model_set_meta_double(nn_model *m, const char *key, double value)
{
    int i = meta_slot(m, key);
    if (i < 0)
        return i;
    m->meta[i].is_num = 1;
    m->meta[i].num = value;
    return HN_OK;
}

static const struct nn_meta *meta_find(const nn_model *m, const char *key)
{
    for (int i = 0; i < m->n_meta; i++)
        if (!strcmp(m->meta[i].key, key))
            return &m->meta[i];
    return NULL;
}

const char *nn_model_get_meta_str(const nn_model *m, const char *key)
{
    const struct nn_meta *e = meta_find(m, key);
    return e && !e->is_num ? e->str : NULL;
}

int nn_model_get_meta_double(const nn_model *m, const char *key, double *value)
{
    const struct nn_meta *e = meta_find(m, key);
    if (!e || !e->is_num)
        return hn_fail(HN_ERR_ARG, "model has no numeric attribute '%s'", key);
    *value = e->num;
    return HN_OK;
}

int nn_model_meta_count(const nn_model *m)
{
    return m->n_meta;
}

int nn_model_meta_at(const nn_model *m, int i, const char **key, int *is_num, const char **str,
                     double *num)
{
    if (i < 0 || i >= m->n_meta)
        return hn_fail(HN_ERR_ARG, "metadata index %d out of range", i);
    *key = m->meta[i].key;
    *is_num = m->meta[i].is_num;
    *str = m->meta[i].str;
    *num = m->meta[i].num;
    return HN_OK;
}
