/* Learning end to end: a small net (elu, batch norm, Adam, MSE) fits
 * y = sin(3 x0) x1 + x0^2 on [-1, 1]^2 from a fixed seed in a fixed number
 * of steps, reaching a held-out MSE below 0.005 (the variance of y is about
 * 0.25, so predicting the mean scores ~0.25). Evaluated through the folded
 * inference path, so training, running statistics and folding all agree.
 * A second net learns a conditional quantile with the pinball loss: for
 * y = x + U(0, 1) at tau 0.1 about a tenth of fresh targets fall below the
 * prediction (the mean would put half there). */
#include <math.h>
#include <stdlib.h>

#include "nn/nn.h"
#include "tests/check.h"

enum { B = 128, STEPS = 4000, NVAL = 1000 };

static void sample(hn_rng *r, float *x, float *y, int n)
{
    for (int i = 0; i < n; i++) {
        float a = (float)(2 * hn_rng_uniform(r) - 1), b = (float)(2 * hn_rng_uniform(r) - 1);
        x[2 * i] = a;
        x[2 * i + 1] = b;
        y[i] = sinf(3 * a) * b + a * a;
    }
}

static double val_mse(nn_infer *inf, const float *vx, const float *vy, float *vp)
{
    nn_infer_run(inf, vx, NVAL, vp);
    double s = 0;
    for (int i = 0; i < NVAL; i++)
        s += (vp[i] - vy[i]) * (double)(vp[i] - vy[i]);
    return s / NVAL;
}

/* A model of `spec`, its training context and an Adam optimiser at `lr`. */
typedef struct {
    nn_model *m;
    nn_train *t;
    nn_adam *a;
    float *p;
} learner;

static learner learner_new(const char *spec, uint64_t seed, float lr)
{
    struct nn_spec sp;
    CHECK(nn_spec_parse(spec, NULL, &sp) == 0);
    learner L = {.m = nn_model_new(&sp, seed, NULL)};
    L.t = nn_train_new(L.m, B, seed + 1, NULL);
    size_t np;
    L.p = nn_model_params(L.m, &np);
    struct nn_adam_opts o = NN_ADAM_DEFAULTS;
    o.lr = lr;
    L.a = nn_adam_new(np, &o, NULL);
    return L;
}

static void learner_free(learner *L)
{
    nn_adam_free(L->a);
    nn_train_free(L->t);
    nn_model_free(L->m);
}

static void check_quantile(void)
{
    learner L = learner_new("1-16:elu,nobn-1", 5, 3e-3f);
    nn_train *t = L.t;
    hn_rng *r = hn_rng_new(17);
    static float x[NVAL], y[NVAL], pred[NVAL];
    for (int s = 0; s < STEPS; s++) {
        for (int i = 0; i < B; i++) {
            x[i] = (float)(2 * hn_rng_uniform(r) - 1);
            y[i] = x[i] + (float)hn_rng_uniform(r);
        }
        nn_train_forward(t, x, B, NN_MODE_TRAIN);
        nn_train_loss(t, y, NN_LOSS_QUANTILE, 0.1f);
        nn_train_backward(t);
        nn_adam_step(L.a, L.p, nn_train_grad(t));
    }
    for (int i = 0; i < NVAL; i++) {
        x[i] = (float)(2 * hn_rng_uniform(r) - 1);
        y[i] = x[i] + (float)hn_rng_uniform(r);
    }
    nn_infer *inf = nn_infer_new(L.m, NVAL, NULL);
    nn_infer_run(inf, x, NVAL, pred);
    int below = 0;
    for (int i = 0; i < NVAL; i++)
        below += y[i] < pred[i];
    fprintf(stderr, "pinball tau 0.1: %.3f of held-out targets below the prediction\n",
            below / (double)NVAL);
    CHECK_MSG(below > NVAL * 0.06 && below < NVAL * 0.14, "%d of %d below, want about a tenth",
              below, NVAL);
    nn_infer_free(inf);
    hn_rng_free(r);
    learner_free(&L);
}

int main(void)
{
    learner L = learner_new("2-32-32-1", 123, 1e-2f);
    nn_train *t = L.t;
    nn_model *m = L.m;
    nn_adam *a = L.a;
    float *p = L.p;
    hn_rng *r = hn_rng_new(99);
    static float x[B * 2], y[B], vx[NVAL * 2], vy[NVAL], vp[NVAL];
    sample(r, vx, vy, NVAL);
    double var = 0, mean = 0;
    for (int i = 0; i < NVAL; i++)
        mean += vy[i] / NVAL;
    for (int i = 0; i < NVAL; i++)
        var += (vy[i] - mean) * (vy[i] - mean) / NVAL;
    nn_infer *inf = nn_infer_new(m, NVAL, NULL);
    double start = val_mse(inf, vx, vy, vp);
    for (int s = 0; s < STEPS; s++) {
        if (s == STEPS / 2)
            nn_adam_set_lr(a, 3e-3f);
        sample(r, x, y, B);
        nn_train_forward(t, x, B, NN_MODE_TRAIN);
        nn_train_loss(t, y, NN_LOSS_MSE, 1.0f);
        nn_train_backward(t);
        nn_adam_step(a, p, nn_train_grad(t));
    }
    nn_infer_refresh(inf, m);
    double end = val_mse(inf, vx, vy, vp);
    fprintf(stderr, "variance of y %.4f, held-out MSE %.5f before, %.5f after %d steps\n", var,
            start, end, STEPS);
    CHECK(var > 0.15);
    CHECK_MSG(end < 0.005, "held-out MSE %.5f, want < 0.005", end);
    CHECK(end < start / 20);
    nn_infer_free(inf);
    hn_rng_free(r);
    learner_free(&L);
    check_quantile();
    return CHECK_DONE();
}
