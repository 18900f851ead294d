/* Finite-difference checks of every gradient the training workspace
 * computes: dense, ELU, ReLU, batch norm in train mode, dropout with a fixed
 * mask (the RNG state is restored before each forward), MSE, asymmetric MSE
 * and a whole small network. Float forward passes, central differences at
 * two step sizes (points where they disagree sit next to a ReLU/ELU/loss kink
 * and are skipped, at most 30% of them), a relative tolerance. The seeds are
 * fixed; with other seeds a pre-activation can land within ~1e-3 of a kink,
 * where finite differences cannot check anything. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "tests/check.h"

struct case_ {
    const char *spec;
    int batch;
    enum nn_loss loss;
    float over;
    int onehot; /* inputs one-hot in blocks of 4: exercises the sparse first layer */
};

static double loss_at(nn_train *t, hn_rng *rng, const void *state, const float *x, const float *y,
                      int n, const struct case_ *c)
{
    hn_rng_state_set(rng, state);
    nn_train_forward(t, x, n, NN_MODE_TRAIN);
    return nn_train_loss(t, y, c->loss, c->over);
}

/* (loss(q + h) - loss(q - h)) / 2h with the same dropout mask. */
static double central_diff(nn_train *t, hn_rng *drop, const void *state, const float *x,
                           const float *y, int n, const struct case_ *c, float *q, float h)
{
    float save = *q;
    *q = save + h;
    double lp = loss_at(t, drop, state, x, y, n, c);
    *q = save - h;
    double lm = loss_at(t, drop, state, x, y, n, c);
    *q = save;
    return (lp - lm) / (2.0 * h);
}

/* Perturb a tensor so gamma != 1, beta != 0, biases != 0 (checks mean something). */
static void jitter(float *p, int n, hn_rng *r, float sd)
{
    for (int i = 0; p && i < n; i++)
        p[i] += (float)hn_rng_gauss(r, sd);
}

static void check_case(const struct case_ *c)
{
    struct nn_spec sp;
    int rc = nn_spec_parse(c->spec, NULL, &sp);
    CHECK_MSG(rc == 0, "%s: %s", c->spec, hn_errmsg());
    if (rc)
        return;
    nn_model *m = nn_model_new(&sp, 7, &rc);
    CHECK(m != NULL);
    hn_rng *r = hn_rng_new(11);
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        jitter(L.bias, L.out, r, 0.2f);
        jitter(L.gamma, L.has_bn ? L.out : 0, r, 0.3f);
        jitter(L.beta, L.has_bn ? L.out : 0, r, 0.3f);
    }
    int n = c->batch, din = nn_model_inputs(m), dout = nn_model_outputs(m);
    float *x = malloc(sizeof(float) * n * din), *y = malloc(sizeof(float) * n * dout);
    int hot = 0;
    for (int i = 0; i < n * din; i++) {
        if (c->onehot && i % 4 == 0)
            hot = (int)hn_rng_below(r, 4);
        x[i] = c->onehot ? (i % 4 == hot ? 1.0f : 0.0f) : (float)hn_rng_gauss(r, 1.0);
    }
    for (int i = 0; i < n * dout; i++)
        y[i] = (float)hn_rng_gauss(r, 1.0);
    nn_train *t = nn_train_new(m, n, 5, &rc);
    hn_rng *drop = nn_train_rng(t);
    char state[8192];
    CHECK(hn_rng_state_size(drop) <= sizeof state);
    hn_rng_state_get(drop, state);

    loss_at(t, drop, state, x, y, n, c);
    CHECK(nn_train_backward(t) == 0);
    size_t np;
    float *p = nn_model_params(m, &np);
    float *g = malloc(sizeof(float) * np);
    memcpy(g, nn_train_grad(t), sizeof(float) * np);

    int bad = 0, checked = 0, kinks = 0;
    for (int l = 0; l < nn_model_layers(m); l++) {
        struct nn_layer_info L;
        nn_model_layer(m, l, &L);
        float *tensors[4] = {L.kernel, L.bias, L.gamma, L.beta};
        int sizes[4] = {L.in * L.out, L.out, L.has_bn ? L.out : 0, L.has_bn ? L.out : 0};
        for (int k = 0; k < 4; k++)
            for (int i = 0; i < sizes[k]; i++) {
                float *q = tensors[k] + i;
                double num = central_diff(t, drop, state, x, y, n, c, q, 1e-2f);
                double half = central_diff(t, drop, state, x, y, n, c, q, 5e-3f);
                double ana = g[q - p];
                checked++;
                /* Two step sizes disagreeing means a kink (ReLU, ELU with alpha != 1,
                 * the asymmetric loss) lies within reach: finite differences say
                 * nothing there. A wrong gradient makes both agree on another value. */
                if (fabs(num - half) > 1e-3 + 1e-2 * fabs(num)) {
                    kinks++;
                    continue;
                }
                double err = fabs(num - ana), scale = fmax(fabs(num), fabs(ana));
                if (err > 2e-3 + 3e-2 * scale) {
                    bad++;
                    fprintf(stderr, "%s: layer %d tensor %d index %d: numeric %.6g analytic %.6g\n",
                            c->spec, l, k, i, num, ana);
                }
            }
    }
    CHECK_MSG(bad == 0, "%s: %d of %d gradients disagree", c->spec, bad, checked);
    CHECK_MSG(checked > 0 && kinks * 10 <= checked * 3,
              "%s: %d of %d points skipped as kinks (more than 30%%)", c->spec, kinks, checked);
    free(g);
    free(x);
    free(y);
    nn_train_free(t);
    hn_rng_free(r);
    nn_model_free(m);
}

/* The loss value and output gradient against a hand computation. */
static void check_loss_values(void)
{
    struct nn_spec sp;
    nn_spec_parse("1-1", NULL, &sp);
    nn_model *m = nn_model_new(&sp, 1, NULL);
    struct nn_layer_info L;
    nn_model_layer(m, 0, &L);
    L.kernel[0] = 1.0f;
    L.bias[0] = 0.0f;
    nn_train *t = nn_train_new(m, 4, 1, NULL);
    float x[4] = {1, 2, 3, 4}, y[4] = {2, 2, 1, 5}; /* errors -1, 0, 2, -1 */
    nn_train_forward(t, x, 4, NN_MODE_TRAIN);
    CHECK_CLOSE(nn_train_loss(t, y, NN_LOSS_MSE, 1.0f), (1 + 0 + 4 + 1) / 4.0, 1e-6);
    CHECK_CLOSE(nn_train_output_grad(t)[2], 2.0 * 2 / 4, 1e-6);
    /* over-estimate (index 2) weighted by 3 */
    CHECK_CLOSE(nn_train_loss(t, y, NN_LOSS_ASYM_MSE, 3.0f), (1 + 0 + 12 + 1) / 4.0, 1e-6);
    CHECK_CLOSE(nn_train_output_grad(t)[2], 3.0 * 2 * 2 / 4, 1e-6);
    CHECK_CLOSE(nn_train_output_grad(t)[0], 2.0 * -1 / 4, 1e-6);
    /* pinball at tau 0.1: the over-estimate costs 0.9 per move, the others 0.1 */
    CHECK_CLOSE(nn_train_loss(t, y, NN_LOSS_QUANTILE, 0.1f), (0.1 + 0 + 0.9 * 2 + 0.1) / 4.0, 1e-6);
    CHECK_CLOSE(nn_train_output_grad(t)[2], 0.9 / 4, 1e-6);
    CHECK_CLOSE(nn_train_output_grad(t)[0], -0.1 / 4, 1e-6);
    nn_train_free(t);
    nn_model_free(m);
}

/* Dropout drops about p of the units, and masks change between steps. */
static void check_dropout_stats(void)
{
    struct nn_spec sp;
    struct nn_layer_info L;
    nn_train *t;
    nn_spec_parse("1-10000:linear,nobn,do=0.25-1", NULL, &sp);
    nn_model *m = nn_model_new(&sp, 3, NULL);
    nn_model_layer(m, 1, &L);
    for (int i = 0; i < L.in; i++)
        L.kernel[i] = 1.0f;
    nn_model_layer(m, 0, &L);
    L.kernel[0] = 0.0f;
    for (int j = 0; j < L.out; j++) {
        L.kernel[j] = 0.0f;
        L.bias[j] = 1.0f;
    }
    t = nn_train_new(m, 2, 9, NULL);
    float x2[2] = {0, 0};
    nn_train_forward(t, x2, 2, NN_MODE_TRAIN);
    /* output = (kept units) / 0.75; expected kept 7500 of 10000 */
    double kept0 = nn_train_output(t)[0] * 0.75, kept1 = nn_train_output(t)[1] * 0.75;
    CHECK_MSG(fabs(kept0 - 7500) < 200 && fabs(kept1 - 7500) < 200, "kept %g %g", kept0, kept1);
    CHECK(kept0 != kept1);
    nn_train_forward(t, x2, 2, NN_MODE_EVAL);
    CHECK_CLOSE(nn_train_output(t)[0], 10000.0, 1e-6);
    nn_train_free(t);
    nn_model_free(m);
}

int main(void)
{
    const struct case_ cases[] = {
        {"4-3", 5, NN_LOSS_MSE, 1, 0},                        /* dense */
        {"4-6:elu,nobn-1", 5, NN_LOSS_MSE, 1, 0},             /* ELU */
        {"4-6:elu,nobn,alpha=0.5-1", 5, NN_LOSS_MSE, 1, 0},   /* ELU alpha */
        {"4-6:relu,nobn-1", 5, NN_LOSS_MSE, 1, 0},            /* ReLU */
        {"4-6:leaky,nobn,alpha=0.1-1", 5, NN_LOSS_MSE, 1, 0}, /* leaky ReLU */
        {"4-6:linear,bn-1", 6, NN_LOSS_MSE, 1, 0},            /* batch norm, train mode */
        {"4-6:elu,bn,eps=0.01-2", 6, NN_LOSS_MSE, 1, 0},      /* bn + ELU */
        {"4-8:elu,nobn,do=0.3-1", 5, NN_LOSS_MSE, 1, 0},      /* dropout, fixed mask */
        {"4-6:elu,nobn-2", 5, NN_LOSS_ASYM_MSE, 3.0f, 0},     /* asymmetric MSE */
        {"5-8:elu,bn,do=0.2-6:relu,bn-4:elu,nobn-2", 7, NN_LOSS_ASYM_MSE, 2.5f, 0}, /* whole net */
        {"4-6:elu,nobn-2", 5, NN_LOSS_QUANTILE, 0.2f, 0},                           /* pinball */
        {"16-8:elu,bn,do=0.2-4:relu,nobn-1", 6, NN_LOSS_MSE, 1, 1}, /* one-hot input */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_case(&cases[i]);
    check_loss_values();
    check_dropout_stats();
    return CHECK_DONE();
}
