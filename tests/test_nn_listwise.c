/* The listwise softmax cross-entropy loss: its output gradient and the
 * parameter gradients of a small network trained with it agree with
 * central finite differences; the loss ignores a shift of one group's
 * scores, is smallest when the scores rank like the targets, and single-row
 * groups add nothing to it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "tests/check.h"

enum { N = 12 };

/* Groups of 3, 1, 4, 2 and 2 rows. */
static const int32_t group[N] = {0, 0, 0, 1, 2, 2, 2, 2, 3, 3, 4, 4};

static void test_output_grad(void)
{
    hn_rng *r = hn_rng_new(4);
    float y[N], t[N], dy[N];
    for (int i = 0; i < N; i++)
        y[i] = (float)hn_rng_gauss(r, 1.0), t[i] = (float)hn_rng_gauss(r, 2.0);
    double loss = nn_listwise_loss(y, t, group, N, 0.7f, dy);
    CHECK(loss > 0 && isfinite(loss));
    for (int i = 0; i < N; i++) {
        float save = y[i], h = 1e-2f;
        y[i] = save + h;
        double lp = nn_listwise_loss(y, t, group, N, 0.7f, NULL);
        y[i] = save - h;
        double lm = nn_listwise_loss(y, t, group, N, 0.7f, NULL);
        y[i] = save;
        CHECK_CLOSE(dy[i], (lp - lm) / (2.0 * h), 2e-3);
    }
    CHECK(dy[3] == 0); /* the single-row group */
    /* a shift of one group's scores changes nothing */
    float z[N];
    memcpy(z, y, sizeof z);
    for (int i = 4; i < 8; i++)
        z[i] += 5.0f;
    CHECK_CLOSE(nn_listwise_loss(z, t, group, N, 0.7f, NULL), loss, 1e-5);
    /* scores that rank like sharp targets beat scores that rank against them */
    float up[N], down[N];
    for (int i = 0; i < N; i++)
        up[i] = 4 * t[i], down[i] = -4 * t[i];
    CHECK(nn_listwise_loss(up, t, group, N, 0.1f, NULL) <
          nn_listwise_loss(down, t, group, N, 0.1f, NULL));
    hn_rng_free(r);
}

/* Through a network: every parameter's gradient from nn_train_backward
 * after nn_train_loss_listwise against a central difference of the loss. */
static void test_param_grad(void)
{
    struct nn_spec sp;
    int st;
    CHECK(nn_spec_parse("5-7:nobn,do=0-1", NULL, &sp) == HN_OK);
    nn_model *m = nn_model_new(&sp, 9, &st);
    nn_train *t = m ? nn_train_new(m, N, 1, &st) : NULL;
    hn_rng *r = hn_rng_new(6);
    CHECK(m && t && r);
    if (!t || !r)
        goto out;
    float x[N * 5], y[N];
    for (int i = 0; i < N * 5; i++)
        x[i] = (float)hn_rng_gauss(r, 1.0);
    for (int i = 0; i < N; i++)
        y[i] = (float)hn_rng_gauss(r, 1.0);
    size_t np;
    float *p = nn_model_params(m, &np);
    CHECK(nn_train_forward(t, x, N, NN_MODE_TRAIN) == HN_OK);
    nn_train_loss_listwise(t, y, group, 0.5f);
    CHECK(nn_train_backward(t) == HN_OK);
    float *g = malloc(sizeof(float) * np);
    if (!g)
        goto out;
    memcpy(g, nn_train_grad(t), sizeof(float) * np);
    int checked = 0, bad = 0;
    for (size_t k = 0; k < np; k++) {
        float save = p[k], h = 1e-2f;
        p[k] = save + h;
        nn_train_forward(t, x, N, NN_MODE_TRAIN);
        double lp = nn_train_loss_listwise(t, y, group, 0.5f);
        p[k] = save - h;
        nn_train_forward(t, x, N, NN_MODE_TRAIN);
        double lm = nn_train_loss_listwise(t, y, group, 0.5f);
        p[k] = save;
        double fd = (lp - lm) / (2.0 * h);
        /* ELU is smooth except at 0: a few points near a kink may differ */
        bad += fabs(fd - g[k]) > 3e-3 * fmax(1.0, fabs(fd));
        checked++;
    }
    CHECK(checked >= 50);
    CHECK_MSG(bad * 20 <= checked, "%d of %d parameter gradients off", bad, checked);
    free(g);
out:
    nn_train_free(t);
    nn_model_free(m);
    hn_rng_free(r);
}

int main(void)
{
    test_output_grad();
    test_param_grad();
    return CHECK_DONE();
}
