/* Synchronised batch norm without MPI: two threads, each with its own copy
 * of a model and half of a batch, sum through nn_train_set_sum. Their
 * summed gradients and their running statistics must equal one context
 * training on the whole batch; a failing sum must fail the pass. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"

#define ROWS 24
#define IN 16

/* A sum over two threads: each puts its buffer in a slot, then both add. */
struct pair {
    pthread_barrier_t bar;
    double *slot[2];
};
struct worker {
    struct pair *p;
    int k;
    nn_model *m;
    const float *x, *y;
    float *grad;
    size_t np;
    int rc;
};
static __thread int my_slot;

static int pair_sum(double *buf, size_t n, void *user)
{
    struct pair *p = user;
    p->slot[my_slot] = buf;
    pthread_barrier_wait(&p->bar);
    double *other = p->slot[!my_slot];
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return HN_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        tmp[i] = buf[i] + other[i];
    pthread_barrier_wait(&p->bar); /* both have read before either writes */
    memcpy(buf, tmp, n * sizeof *tmp);
    free(tmp);
    return HN_OK;
}

static int failing_sum(double *buf, size_t n, void *user)
{
    (void)buf, (void)n, (void)user;
    return HN_ERR_IO;
}

/* One step on half of the batch, output gradient scaled to its share. */
static void *half_step(void *arg)
{
    struct worker *w = arg;
    my_slot = w->k;
    int half = ROWS / 2;
    nn_train *t = nn_train_new(w->m, half, 1, &w->rc);
    if (!t)
        return NULL;
    nn_train_set_sum(t, pair_sum, w->p);
    w->rc = nn_train_forward(t, w->x + (size_t)w->k * half * IN, half, NN_MODE_TRAIN);
    if (!w->rc) {
        nn_train_loss(t, w->y + (size_t)w->k * half, NN_LOSS_MSE, 1.0f);
        float *dy = nn_train_output_grad(t);
        for (int i = 0; i < half; i++)
            dy[i] *= 0.5f;
        w->rc = nn_train_backward(t);
    }
    if (!w->rc)
        memcpy(w->grad, nn_train_grad(t), w->np * sizeof *w->grad);
    nn_train_free(t);
    return NULL;
}

static float largest(const float *a, size_t n)
{
    float m = 0.0f;
    for (size_t i = 0; i < n; i++)
        m = fabsf(a[i]) > m ? fabsf(a[i]) : m;
    return m;
}

int main(void)
{
    struct nn_spec spec;
    int rc = 0;
    CHECK(nn_spec_parse("16-32-8-1", NULL, &spec) == 0);
    nn_model *m = nn_model_new(&spec, 7, &rc);
    nn_model *half[2] = {nn_model_clone(m, &rc), nn_model_clone(m, &rc)};
    nn_model *solo = nn_model_clone(m, &rc);
    CHECK(m && half[0] && half[1] && solo);
    float x[ROWS * IN], y[ROWS];
    hn_rng *r = hn_rng_new(3);
    for (int i = 0; i < ROWS * IN; i++)
        x[i] = (float)hn_rng_uniform(r) * 2.0f - 0.5f; /* mean 0.5: the shift matters */
    for (int i = 0; i < ROWS; i++)
        y[i] = (float)hn_rng_uniform(r);
    hn_rng_free(r);

    /* the whole batch in one context */
    size_t np, ns;
    nn_model_params(m, &np);
    nn_train *t = nn_train_new(m, ROWS, 1, &rc);
    CHECK(t && nn_train_forward(t, x, ROWS, NN_MODE_TRAIN) == 0);
    nn_train_loss(t, y, NN_LOSS_MSE, 1.0f);
    CHECK(nn_train_backward(t) == 0);
    const float *ref = nn_train_grad(t);

    /* two halves summing through the callback */
    struct pair p;
    pthread_barrier_init(&p.bar, NULL, 2);
    float *g[2] = {calloc(np, sizeof(float)), calloc(np, sizeof(float))};
    struct worker w[2];
    pthread_t th[2];
    for (int k = 0; k < 2; k++) {
        w[k] =
            (struct worker){.p = &p, .k = k, .m = half[k], .x = x, .y = y, .grad = g[k], .np = np};
        CHECK(pthread_create(&th[k], NULL, half_step, &w[k]) == 0);
    }
    for (int k = 0; k < 2; k++) {
        pthread_join(th[k], NULL);
        CHECK(w[k].rc == 0);
    }
    float scale = largest(ref, np), worst = 0.0f;
    CHECK(scale > 1e-3f); /* a real gradient, not zeros */
    for (size_t i = 0; i < np; i++) {
        float d = fabsf(g[0][i] + g[1][i] - ref[i]);
        worst = d > worst ? d : worst;
    }
    CHECK_MSG(worst <= 1e-4f * scale, "gradient differs by %g (largest %g)", (double)worst,
              (double)scale);

    /* running statistics: the same update in both halves as in the whole */
    const float *s0 = nn_model_state(m, &ns), *s1 = nn_model_state(half[0], &ns),
                *s2 = nn_model_state(half[1], &ns);
    for (size_t i = 0; i < ns; i++) {
        CHECK_CLOSE(s1[i], s0[i], 1e-5);
        CHECK_CLOSE(s2[i], s1[i], 0.0);
    }

    /* without the sum, a half sees other statistics: the check above can fail */
    nn_train *t1 = nn_train_new(solo, ROWS / 2, 1, &rc);
    CHECK(t1 && nn_train_forward(t1, x, ROWS / 2, NN_MODE_TRAIN) == 0);
    const float *s3 = nn_model_state(solo, &ns);
    int differs = 0;
    for (size_t i = 0; i < ns; i++)
        differs |= fabsf(s3[i] - s0[i]) > 1e-4f;
    CHECK(differs);

    /* a failing sum fails the pass with its status */
    nn_train_set_sum(t1, failing_sum, NULL);
    CHECK(nn_train_forward(t1, x, ROWS / 2, NN_MODE_TRAIN) == HN_ERR_IO);
    CHECK(nn_train_forward(t1, x, ROWS / 2, NN_MODE_EVAL) == 0); /* eval needs no sums */

    nn_train_free(t1);
    nn_model_free(solo);
    pthread_barrier_destroy(&p.bar);
    free(g[0]);
    free(g[1]);
    nn_train_free(t);
    nn_model_free(half[0]);
    nn_model_free(half[1]);
    nn_model_free(m);
    return CHECK_DONE();
}
