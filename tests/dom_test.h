/* Helpers the generic-search tests share: a network with random biases for
 * a domain's input width, and a random walk with its undoing solution. */
#ifndef HN_TEST_DOM_TEST_H
#define HN_TEST_DOM_TEST_H

#include <stdlib.h>

#include "domains/dom.h"
#include "nn/nn.h"

/* A fresh network of spec arch (weights from seed, biases gauss(0.1)),
 * outputs scaled raw * std + mean, and root attribute "residual" when
 * residual is not NULL. NULL on error. */
static inline nn_model *tdom_random_model(const char *arch, uint64_t seed, double mean, double std,
                                          const char *residual)
{
    struct nn_spec sp;
    int st = 0;
    if (nn_spec_parse(arch, NULL, &sp))
        return NULL;
    nn_model *m = nn_model_new(&sp, seed, &st);
    if (!m)
        return NULL;
    hn_rng *r = hn_rng_new(seed + 1);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info li;
        nn_model_layer(m, l, &li);
        for (int j = 0; j < li.out; j++)
            li.bias[j] = (float)hn_rng_gauss(r, 0.1);
    }
    nn_model_set_target(m, mean, std);
    if (residual)
        nn_model_set_meta_str(m, "residual", residual);
    hn_rng_free(r);
    return m;
}

/* The outputs of m (all of them, row by row) on dense one-hot rows of n
 * states into y: 0, or nn_infer's status. */
static inline int tdom_dense_outputs(const dom *d, const nn_model *m, const uint8_t *states, int n,
                                     float *y)
{
    int w = (int)dom_facts_of(d)->inputs, st = 0;
    size_t sb = dom_state_bytes(d);
    float *x = calloc((size_t)n * (size_t)w, sizeof *x);
    nn_infer *inf = x ? nn_infer_new(m, n, &st) : NULL;
    for (int i = 0; inf && i < n; i++) {
        int32_t act[DOM_MAX_ACTIVE];
        int k = dom_encode(d, states + (size_t)i * sb, act);
        for (int j = 0; j < k; j++)
            x[(size_t)i * (size_t)w + (size_t)act[j]] = 1.0f;
    }
    st = !inf ? (st ? st : -1) : nn_infer_run(inf, x, n, y);
    nn_infer_free(inf);
    free(x);
    return st;
}

/* A random walk of n moves from the goal into s, and the walk undone (a
 * solution from s) into sol. */
static inline void tdom_walk_solution(const dom *d, hn_rng *r, int n, uint8_t *s, uint8_t *sol)
{
    dom_goal(d, s);
    for (int k = 0; k < n; k++) {
        int m = (int)hn_rng_below(r, (uint32_t)dom_nmoves(d));
        while (!dom_apply(d, s, m))
            m = (m + 1) % dom_nmoves(d);
        sol[n - 1 - k] = (uint8_t)dom_inverse(d, m);
    }
}

#endif
