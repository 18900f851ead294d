/* Adam with bias correction and optional decoupled weight decay, over the
 * model's flat parameter buffer; moments and step count are exposed so
 * checkpoints can save and restore them exactly. */
#include "nn/nn_private.h"

#include <math.h>
#include <stdlib.h>

const struct nn_adam_opts NN_ADAM_DEFAULTS = {
    .lr = 1e-3f,
    .beta1 = 0.9f,
    .beta2 = 0.999f,
    .eps = 1e-7f,
    .weight_decay = 0.0f,
};

struct nn_adam {
    struct nn_adam_opts o;
    size_t n;
    uint64_t t;
    float *m, *v;
};

nn_adam *nn_adam_new(size_t n, const struct nn_adam_opts *opts, int *status)
{
    struct nn_adam_opts o = opts ? *opts : NN_ADAM_DEFAULTS;
    if (!(o.lr >= 0.0f) || !(o.beta1 >= 0.0f && o.beta1 < 1.0f) ||
        !(o.beta2 >= 0.0f && o.beta2 < 1.0f) || !(o.eps > 0.0f) || !(o.weight_decay >= 0.0f)) {
        int rc =
            hn_fail(HN_ERR_ARG,
                    "Adam: need lr >= 0, beta1 and beta2 in [0, 1), eps > 0, weight decay >= 0");
        if (status)
            *status = rc;
        return NULL;
    }
    nn_adam *a = calloc(1, sizeof *a);
    if (a) {
        a->o = o;
        a->n = n;
        a->m = nn_falloc(n);
        a->v = nn_falloc(n);
    }
    if (!a || !a->m || !a->v) {
        nn_adam_free(a);
        int rc = hn_fail(HN_ERR_NOMEM, "out of memory for Adam moments of %zu parameters", n);
        if (status)
            *status = rc;
        return NULL;
    }
    return a;
}

void nn_adam_free(nn_adam *a)
{
    if (!a)
        return;
    free(a->m);
    free(a->v);
    free(a);
}

void nn_adam_step(nn_adam *a, float *p, const float *g)
{
    a->t++;
    const float b1 = a->o.beta1, b2 = a->o.beta2, eps = a->o.eps;
    /* Bias correction folded into the step size and epsilon:
     * mhat / (sqrt(vhat) + eps) = (m / c1) / (sqrt(v) / sqrt(c2) + eps). */
    double c1 = 1.0 - pow(b1, (double)a->t), c2 = 1.0 - pow(b2, (double)a->t);
    const float step = (float)(a->o.lr * sqrt(c2) / c1);
    const float eps_hat = (float)(eps * sqrt(c2));
    const float decay = a->o.lr * a->o.weight_decay;
    float *m = a->m, *v = a->v;
    for (size_t i = 0; i < a->n; i++) {
        float gi = g[i];
        m[i] = b1 * m[i] + (1.0f - b1) * gi;
        v[i] = b2 * v[i] + (1.0f - b2) * gi * gi;
        p[i] -= step * m[i] / (sqrtf(v[i]) + eps_hat) + decay * p[i];
    }
}

void nn_adam_set_lr(nn_adam *a, float lr)
{
    a->o.lr = lr;
}
struct nn_adam_opts nn_adam_get_opts(const nn_adam *a)
{
    return a->o;
}
float *nn_adam_m(nn_adam *a)
{
    return a->m;
}
float *nn_adam_v(nn_adam *a)
{
    return a->v;
}
size_t nn_adam_size(const nn_adam *a)
{
    return a->n;
}
uint64_t nn_adam_step_count(const nn_adam *a)
{
    return a->t;
}
void nn_adam_set_step_count(nn_adam *a, uint64_t steps)
{
    a->t = steps;
}
