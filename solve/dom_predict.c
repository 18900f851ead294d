/* A model's estimates of states of any domain, as heurnet predict
 * --instances gives them: the float engine runs the model's dense layers
 * (nn_infer over the states' one-hot inputs, as an embedder without the
 * search code does), the q8 engine the search's network heuristic; either
 * way the residual base the model records is added. */
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "nn/nn.h"
#include "solve/dom_search.h"

/* Row i of x: the state's active inputs, through map (NULL: as they are)
 * when the model reads the domain's other layout. */
static void encode_row(const dom *d, const void *state, const int32_t *map, float *x, int din)
{
    int32_t on[DOM_MAX_ACTIVE];
    int k = dom_encode(d, state, on);
    memset(x, 0, sizeof *x * (size_t)din);
    for (int j = 0; j < k; j++)
        x[map ? map[on[j]] : on[j]] = 1;
}

/* The input map of a model whose encoder is another layout of d's (NULL
 * when it reads d's own); *st set on failure. */
static int32_t *input_map(const dom *d, const nn_model *m, int *st)
{
    const char *enc = nn_model_encoder(m), *own = dom_facts_of(d)->encoding;
    if (!enc || !own || !strcmp(enc, own))
        return NULL;
    int32_t *map = malloc(dom_facts_of(d)->inputs * sizeof *map);
    if (!map)
        *st = hn_fail(HN_ERR_NOMEM, "out of memory for a network's input map");
    else if (!dom_encode_as(d, enc, map)) {
        free(map);
        map = NULL;
    }
    return map;
}

/* The network's dense float layers over n states into est, `batch` rows a
 * call, plus base's values (NULL: none). */
static int dense(const dom *d, const nn_model *m, srch_dom_heur *base, const uint8_t *states,
                 size_t n, int batch, double *est)
{
    int st = 0, din = nn_model_inputs(m);
    size_t sb = dom_state_bytes(d), cap = (size_t)batch;
    int32_t *map = input_map(d, m, &st);
    nn_infer *inf = st ? NULL : nn_infer_new(m, batch, &st);
    float *x = malloc(sizeof *x * cap * (size_t)din), *y = malloc(sizeof *y * cap);
    double *b = malloc(sizeof *b * cap);
    if (!st && (!inf || !x || !y || !b))
        st = hn_fail(HN_ERR_NOMEM, "out of memory for the network's rows");
    for (size_t s = 0; !st && s < n; s += cap) {
        size_t k = n - s < cap ? n - s : cap;
        for (size_t i = 0; i < k; i++)
            encode_row(d, states + (s + i) * sb, map, x + i * (size_t)din, din);
        st = nn_infer_run(inf, x, (int)k, y);
        if (!st && base)
            st = srch_dom_heur_estimate(base, states + s * sb, k, NULL, NULL, NULL, b);
        for (size_t i = 0; !st && i < k; i++)
            est[s + i] = (double)y[i] + (base ? b[i] : 0);
    }
    free(map);
    free(x);
    free(y);
    free(b);
    nn_infer_free(inf);
    return st;
}

/* The residual base model m records (NULL: none, or *st on failure: a
 * bad attribute is a bad model file, not a misuse). */
static srch_dom_heur *residual_base(const dom *d, const nn_model *m, const char *name, int *st)
{
    const char *res = nn_model_get_meta_str(m, "residual");
    if (!res || !res[0])
        return NULL;
    srch_dom_heur *base = srch_dom_heur_adm(d, res, st);
    if (!base)
        *st = hn_fail(HN_ERR_FORMAT, "%s: attribute residual \"%s\": %s", name, res, hn_errmsg());
    return base;
}

/* The search's network heuristic (q8 or sparse float; base added) over n
 * states, max_batch a call. Takes base. */
static int by_search(const dom *d, srch_dom_heur *net, srch_dom_heur *base, const uint8_t *states,
                     size_t n, size_t batch, double *est)
{
    int st = 0;
    srch_dom_heur *h = base ? srch_dom_heur_sum_new(base, net, &st) : net;
    for (size_t i = 0, sb = dom_state_bytes(d); h && !st && i < n; i += batch) {
        size_t k = n - i < batch ? n - i : batch;
        st = srch_dom_heur_estimate(h, states + i * sb, k, NULL, NULL, NULL, est + i);
    }
    srch_dom_heur_free(h);
    return st;
}

int heurnet_dom_predict_states(const dom *d, const nn_model *m, const char *name,
                               const uint8_t *states, size_t n, int engine, int batch, double *est)
{
    if (!d || !m || batch < 1 || (n && (!states || !est)))
        return hn_fail(HN_ERR_ARG, "a domain, a model, states and a batch of at least 1 are "
                                   "required");
    srch_dom_net_opts o = SRCH_DOM_NET_DEFAULTS;
    o.engine = engine == SRCH_DOM_ENGINE_Q8 ? SRCH_DOM_ENGINE_Q8 : SRCH_DOM_ENGINE_FLOAT;
    o.max_batch = batch < 65536 ? batch : 65536;
    o.residual = 0; /* opened here, to tell a bad attribute from a misfit */
    int st = 0;
    name = name ? name : "model";
    /* opened either way: it checks that the model reads d's states */
    srch_dom_heur *net = srch_dom_heur_net(d, m, name, &o, &st);
    srch_dom_heur *base = net ? residual_base(d, m, name, &st) : NULL;
    if (!net || st) {
        srch_dom_heur_free(net);
        return st;
    }
    if (o.engine == SRCH_DOM_ENGINE_Q8 || nn_model_outputs(m) != 1)
        return by_search(d, net, base, states, n, (size_t)o.max_batch, est);
    st = dense(d, m, base, states, n, batch, est);
    srch_dom_heur_free(base);
    srch_dom_heur_free(net);
    return st;
}
