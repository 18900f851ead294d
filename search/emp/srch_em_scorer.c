/* The learned move scorer: a network trained on emp-move-v1 rows
 * (`heurnet emp gen-data` + `heurnet train`) scores every candidate of a
 * perturbation step in one nn_infer_run call; the best (or a softmax sample)
 * is played. Plugged into srch_em_solve through srch_em_opts.choose. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "search/emp/srch_em_int.h"
#include "search/emp/srch_em_scorer.h"

struct srch_em_scorer {
    nn_model *model;
    nn_infer *inf;
    srch_em_feat *feat;
    int cap; /* candidates per call (batch rows) */
    float *x, *y;
    int pick;
    double temp;
    long calls, scored;
    double seconds;
};

void srch_em_scorer_free(srch_em_scorer *s)
{
    if (!s)
        return;
    nn_infer_free(s->inf);
    nn_model_free(s->model);
    srch_em_feat_free(s->feat);
    free(s->x);
    free(s->y);
    free(s);
}

int srch_em_model_check(const nn_model *m, const char *path, const char *encoder, int dim,
                        const char *what)
{
    const char *enc = nn_model_encoder(m);
    if (strcmp(enc, encoder))
        return hn_fail(HN_ERR_FORMAT, "%s: model encoder is \"%s\", but the %s needs \"%s\"", path,
                       enc, what, encoder);
    if (nn_model_inputs(m) != dim)
        return hn_fail(HN_ERR_SHAPE, "%s: model takes %d inputs, but %s has %d features", path,
                       nn_model_inputs(m), encoder, dim);
    if (nn_model_outputs(m) != 1)
        return hn_fail(HN_ERR_SHAPE, "%s: model has %d outputs, the %s needs 1", path,
                       nn_model_outputs(m), what);
    return HN_OK;
}

srch_em_scorer *srch_em_scorer_new(const char *path, const srch_em_inst *inst, int pick,
                                   double temperature, int *status)
{
    if ((pick != SRCH_EM_PICK_BEST && pick != SRCH_EM_PICK_SOFTMAX) || !(temperature > 0)) {
        *status = hn_fail(HN_ERR_ARG, "move scorer: unknown pick rule or temperature <= 0");
        return NULL;
    }
    srch_em_scorer *s = calloc(1, sizeof *s);
    if (!s) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the move scorer");
        return NULL;
    }
    s->pick = pick;
    s->temp = temperature;
    s->cap = inst->n + 4; /* srch_em_moves_enum returns at most n + 3 */
    s->model = nn_model_load(path, status);
    if (!s->model)
        goto fail;
    if ((*status = srch_em_model_check(s->model, path, SRCH_EM_FEAT_ENCODER, SRCH_EM_FEAT_DIM,
                                       "move scorer")) != HN_OK)
        goto fail;
    s->inf = nn_infer_new(s->model, s->cap, status);
    s->feat = s->inf ? srch_em_feat_new(inst, status) : NULL;
    if (!s->feat)
        goto fail;
    s->x = malloc(sizeof *s->x * (size_t)s->cap * SRCH_EM_FEAT_DIM);
    s->y = malloc(sizeof *s->y * (size_t)s->cap);
    if (!s->x || !s->y) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for the move scorer");
        goto fail;
    }
    return s;
fail:
    srch_em_scorer_free(s);
    return NULL;
}

/* A softmax sample over y / temp (max subtracted for range). */
static int softmax_pick(const float *y, int n, double temp, hn_rng *rng)
{
    float mx = y[0];
    for (int i = 1; i < n; i++)
        mx = y[i] > mx ? y[i] : mx;
    double z = 0;
    for (int i = 0; i < n; i++)
        z += exp((y[i] - mx) / temp);
    double u = hn_rng_uniform(rng) * z;
    for (int i = 0; i < n; i++) {
        u -= exp((y[i] - mx) / temp);
        if (u <= 0)
            return i;
    }
    return n - 1;
}

int srch_em_scorer_choose(void *user, srch_em_board *b, const srch_em_move *cand, int n,
                          hn_rng *rng)
{
    srch_em_scorer *s = user;
    if (n <= 0 || n > s->cap)
        return -1;
    double t0 = srch_em_cpu_seconds(); /* CPU clock: the load of a shared machine does not count */
    srch_em_feat_sync(s->feat, b);
    for (int i = 0; i < n; i++)
        srch_em_feat_move(s->feat, b, &cand[i], s->x + (size_t)i * SRCH_EM_FEAT_DIM);
    if (nn_infer_run(s->inf, s->x, n, s->y) != HN_OK)
        return -1;
    int k = 0;
    if (s->pick == SRCH_EM_PICK_SOFTMAX) {
        k = softmax_pick(s->y, n, s->temp, rng);
    } else {
        for (int i = 1; i < n; i++)
            if (s->y[i] > s->y[k])
                k = i;
    }
    s->calls++;
    s->scored += n;
    s->seconds += srch_em_cpu_seconds() - t0;
    return k;
}

void srch_em_scorer_stats(const srch_em_scorer *s, long *calls, long *scored, double *seconds)
{
    *calls = s->calls;
    *scored = s->scored;
    *seconds = s->seconds;
}
