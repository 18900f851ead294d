/* The sparse-input training path against the dense one: on random small
 * networks (batch norm, ELU, dropout on and off) and random 0/1 batches
 * with a variable number of active inputs per row, nn_train_forward_sparse
 * must give the outputs, gradients and running statistics that
 * nn_train_forward gives on the same rows written out densely, and a few
 * Adam steps the same parameters. Bad arguments fail without harm. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"

#define TOL 1e-5
#define MAX_ROWS 33

/* A batch of rows given both ways: active indices and dense floats. */
struct batch {
    int n, in;
    int32_t off[MAX_ROWS + 1];
    int32_t *idx;
    float *x;
};

/* Row r gets 0..max_active distinct inputs, ascending when `sorted`. */
static void batch_fill(struct batch *b, hn_rng *rng, int n, int in, int max_active, int sorted)
{
    b->n = n;
    b->in = in;
    b->off[0] = 0;
    memset(b->x, 0, sizeof *b->x * (size_t)n * in);
    for (int r = 0; r < n; r++) {
        int k = (int)hn_rng_below(rng, (uint64_t)max_active + 1), c = 0;
        int32_t *a = b->idx + b->off[r];
        while (c < k) {
            int32_t i = (int32_t)hn_rng_below(rng, (uint64_t)in);
            if (b->x[(size_t)r * in + i] != 0.0f)
                continue;
            b->x[(size_t)r * in + i] = 1.0f;
            a[c++] = i;
        }
        if (sorted)
            for (int p = 1; p < k; p++) /* insertion sort */
                for (int q = p; q > 0 && a[q - 1] > a[q]; q--) {
                    int32_t s = a[q];
                    a[q] = a[q - 1];
                    a[q - 1] = s;
                }
        b->off[r + 1] = b->off[r] + k;
    }
}

static void check_floats(const float *a, const float *b, size_t n, const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double s = fmax(1.0, fmax(fabs(a[i]), fabs(b[i])));
        if (!(fabs((double)a[i] - b[i]) <= TOL * s) && bad++ == 0)
            fprintf(stderr, "%s[%zu]: %.9g vs %.9g\n", what, i, a[i], b[i]);
    }
    CHECK_MSG(bad == 0, "%s: %zu of %zu values differ", what, bad, n);
}

/* A random spec: in inputs, 1..3 hidden layers, one output. */
static struct nn_spec random_spec(hn_rng *rng, int in, int bn, int elu, float dropout)
{
    struct nn_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.n_inputs = in;
    sp.n_layers = 2 + (int)hn_rng_below(rng, 3);
    for (int l = 0; l < sp.n_layers; l++) {
        struct nn_layer_spec *ls = &sp.layer[l];
        int last = l == sp.n_layers - 1;
        ls->width = last ? 1 : 3 + (int)hn_rng_below(rng, 20);
        ls->act = last ? NN_ACT_LINEAR : elu ? NN_ACT_ELU : NN_ACT_RELU;
        ls->elu_alpha = 1.0f;
        ls->bn = !last && bn;
        ls->bn_eps = 1e-3f;
        ls->dropout = last ? 0.0f : dropout;
        ls->init = NN_INIT_HE;
    }
    return sp;
}

/* Two identical models and contexts with the same dropout seed; the dense
 * one (0) and the sparse one (1) see the same batches. */
struct pair {
    nn_model *m[2];
    nn_train *t[2];
    nn_adam *a[2];
    size_t np, ns;
};

static int pair_new(struct pair *p, const struct nn_spec *sp, uint64_t seed)
{
    int rc = HN_OK;
    memset(p, 0, sizeof *p);
    p->m[0] = nn_model_new(sp, seed, &rc);
    p->m[1] = p->m[0] ? nn_model_clone(p->m[0], &rc) : NULL;
    if (!p->m[1])
        return rc ? rc : HN_ERR_NOMEM;
    nn_model_params(p->m[0], &p->np);
    nn_model_state(p->m[0], &p->ns);
    for (int k = 0; k < 2; k++) {
        if (!(p->t[k] = nn_train_new(p->m[k], MAX_ROWS, seed + 11, &rc)))
            return rc;
        if (!(p->a[k] = nn_adam_new(p->np, &NN_ADAM_DEFAULTS, &rc)))
            return rc;
    }
    return HN_OK;
}

static void pair_free(struct pair *p)
{
    for (int k = 0; k < 2; k++) {
        nn_adam_free(p->a[k]);
        nn_train_free(p->t[k]);
        nn_model_free(p->m[k]);
    }
}

/* Forward both ways; in train mode also loss, backward and the gradients. */
static void compare_step(struct pair *p, const struct batch *b, const float *target,
                         enum nn_mode mode)
{
    CHECK(nn_train_forward(p->t[0], b->x, b->n, mode) == HN_OK);
    CHECK(nn_train_forward_sparse(p->t[1], b->idx, b->off, b->n, mode) == HN_OK);
    int outs = nn_model_outputs(p->m[0]);
    check_floats(nn_train_output(p->t[0]), nn_train_output(p->t[1]), (size_t)b->n * outs, "output");
    check_floats(nn_model_state(p->m[0], NULL), nn_model_state(p->m[1], NULL), p->ns, "state");
    if (mode != NN_MODE_TRAIN)
        return;
    double l0 = nn_train_loss(p->t[0], target, NN_LOSS_MSE, 1.0f);
    double l1 = nn_train_loss(p->t[1], target, NN_LOSS_MSE, 1.0f);
    CHECK_CLOSE(l0, l1, TOL);
    CHECK(nn_train_backward(p->t[0]) == HN_OK);
    CHECK(nn_train_backward(p->t[1]) == HN_OK);
    check_floats(nn_train_grad(p->t[0]), nn_train_grad(p->t[1]), p->np, "grad");
}

/* Make the sparse side's model equal the dense side's again. */
static void pair_sync(struct pair *p)
{
    memcpy(nn_model_params(p->m[1], NULL), nn_model_params(p->m[0], NULL), sizeof(float) * p->np);
    memcpy(nn_model_state(p->m[1], NULL), nn_model_state(p->m[0], NULL), sizeof(float) * p->ns);
    memcpy(nn_adam_m(p->a[1]), nn_adam_m(p->a[0]), sizeof(float) * p->np);
    memcpy(nn_adam_v(p->a[1]), nn_adam_v(p->a[0]), sizeof(float) * p->np);
}

/* One network: a few train steps with Adam, then an eval forward. With
 * `same_sums` (ascending indices, mostly-zero batches) both sides add the
 * same numbers in the same order, and the parameters must follow the same
 * trajectory. Otherwise (indices in any order, or dense batches, where the
 * dense side uses sgemm) the sums round differently, and Adam, dividing
 * by sqrt(v), turns that noise in a gradient that is zero in exact
 * arithmetic (a bias before batch norm) into steps of lr: then each step
 * starts from the dense side's parameters again. */
static void run_case(hn_rng *rng, int bn, int elu, float dropout, int same_sums)
{
    int in = 6 + (int)hn_rng_below(rng, 40);
    struct nn_spec sp = random_spec(rng, in, bn, elu, dropout);
    struct pair p;
    struct batch b = {.idx = malloc(sizeof(int32_t) * MAX_ROWS * in),
                      .x = malloc(sizeof(float) * MAX_ROWS * in)};
    float target[MAX_ROWS];
    int rc = pair_new(&p, &sp, hn_rng_u64(rng));
    CHECK(rc == HN_OK && b.idx && b.x);
    if (rc || !b.idx || !b.x)
        goto done;
    for (int step = 0; step < 5; step++) {
        /* at most a quarter of the inputs, or up to all of them */
        int n = 2 + (int)hn_rng_below(rng, MAX_ROWS - 1);
        int dense = !same_sums && step % 2;
        batch_fill(&b, rng, n, in, dense ? in : 1 + in / 8, same_sums);
        for (int i = 0; i < n; i++)
            target[i] = (float)hn_rng_uniform(rng) * 4.0f - 2.0f;
        compare_step(&p, &b, target, NN_MODE_TRAIN);
        for (int k = 0; k < 2; k++)
            nn_adam_step(p.a[k], nn_model_params(p.m[k], NULL), nn_train_grad(p.t[k]));
        if (same_sums)
            check_floats(nn_model_params(p.m[0], NULL), nn_model_params(p.m[1], NULL), p.np,
                         "params");
        else
            pair_sync(&p);
    }
    batch_fill(&b, rng, MAX_ROWS, in, 3, same_sums);
    compare_step(&p, &b, target, NN_MODE_EVAL);
done:
    free(b.idx);
    free(b.x);
    pair_free(&p);
}

/* Ascending indices of mostly-zero rows: the same arithmetic, bit for bit. */
static void check_bitwise(hn_rng *rng)
{
    int in = 64;
    struct nn_spec sp = random_spec(rng, in, 1, 1, 0.25f);
    struct pair p;
    struct batch b = {.idx = malloc(sizeof(int32_t) * MAX_ROWS * in),
                      .x = malloc(sizeof(float) * MAX_ROWS * in)};
    float target[MAX_ROWS] = {0};
    int rc = pair_new(&p, &sp, 5);
    CHECK(rc == HN_OK && b.idx && b.x);
    if (!rc && b.idx && b.x) {
        batch_fill(&b, rng, MAX_ROWS, in, 8, 1);
        CHECK(nn_train_forward(p.t[0], b.x, b.n, NN_MODE_TRAIN) == HN_OK);
        CHECK(nn_train_forward_sparse(p.t[1], b.idx, b.off, b.n, NN_MODE_TRAIN) == HN_OK);
        nn_train_loss(p.t[0], target, NN_LOSS_MSE, 1.0f);
        nn_train_loss(p.t[1], target, NN_LOSS_MSE, 1.0f);
        CHECK(nn_train_backward(p.t[0]) == HN_OK && nn_train_backward(p.t[1]) == HN_OK);
        CHECK(!memcmp(nn_train_output(p.t[0]), nn_train_output(p.t[1]), sizeof(float) * b.n));
        CHECK(!memcmp(nn_train_grad(p.t[0]), nn_train_grad(p.t[1]), sizeof(float) * p.np));
    }
    free(b.idx);
    free(b.x);
    pair_free(&p);
}

/* Bad arguments: an error status, and the last forward still usable. */
static void check_bad_args(void)
{
    struct nn_spec sp;
    CHECK(nn_spec_parse("8-4-1", NULL, &sp) == HN_OK);
    int rc = HN_OK;
    nn_model *m = nn_model_new(&sp, 3, &rc);
    nn_train *t = m ? nn_train_new(m, 4, 1, &rc) : NULL;
    CHECK(t != NULL);
    if (!t) {
        nn_model_free(m);
        return;
    }
    int32_t idx[] = {0, 7, 3, 5}, off[] = {0, 2, 4, 4};
    float target[3] = {1, 2, 3};
    CHECK(nn_train_forward_sparse(t, idx, off, 3, NN_MODE_TRAIN) == HN_OK);
    nn_train_loss(t, target, NN_LOSS_MSE, 1.0f);
    int32_t high[] = {0, 8}, neg[] = {-1, 2}, back[] = {0, 2, 1}, neg0[] = {-1, 0};
    CHECK(nn_train_forward_sparse(t, high, off, 1, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, neg, off, 1, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, idx, back, 2, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, idx, neg0, 1, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, NULL, off, 1, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, idx, NULL, 1, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, idx, off, 0, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_forward_sparse(t, idx, off, 5, NN_MODE_TRAIN) == HN_ERR_ARG);
    CHECK(nn_train_backward(t) == HN_OK); /* the good forward is still there */
    /* a later start in the arrays: offsets need not begin at 0 */
    int32_t off2[] = {2, 4};
    CHECK(nn_train_forward_sparse(t, idx, off2, 1, NN_MODE_EVAL) == HN_OK);
    nn_train_free(t);
    nn_model_free(m);
}

int main(void)
{
    hn_rng *rng = hn_rng_new(20261128);
    if (!rng)
        return 1;
    for (int rep = 0; rep < 3; rep++)
        for (int bn = 0; bn < 2; bn++)
            for (int elu = 0; elu < 2; elu++)
                for (int drop = 0; drop < 2; drop++)
                    run_case(rng, bn, elu, drop ? 0.3f : 0.0f, rep == 0);
    check_bitwise(rng);
    check_bad_args();
    hn_rng_free(rng);
    return CHECK_DONE();
}
