/* The place scorer's training (see train/trn_emp.h): groups shuffled once
 * for the train / validation split, the training groups reshuffled every
 * epoch, each batch a run of whole groups. */
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "search/emp/srch_em_place.h"
#include "train/trn_emp.h"

typedef struct {
    const float *x, *y;
    const int32_t *group;
    int *start, ngroups; /* group g is rows start[g] .. start[g + 1] - 1 */
    int *order, ntrain;  /* shuffled groups: the first ntrain train, the rest validate */
    int max_rows;        /* rows of the largest group */
} place_data;

/* Group boundaries and the shuffled train / validation split. */
static int index_groups(place_data *d, size_t rows, int ngroups, double val, uint64_t seed)
{
    d->start = malloc(sizeof(int) * ((size_t)ngroups + 1));
    d->order = malloc(sizeof(int) * (size_t)ngroups);
    hn_rng *rng = hn_rng_new(seed);
    if (!d->start || !d->order || !rng) {
        hn_rng_free(rng);
        return HN_ERR_NOMEM;
    }
    int g = 0;
    for (size_t i = 0; i < rows; i++)
        if (i == 0 || d->group[i] != d->group[i - 1])
            d->start[g++] = (int)i;
    d->start[g] = (int)rows;
    d->ngroups = g;
    d->max_rows = 0;
    for (g = 0; g < d->ngroups; g++) {
        int n = d->start[g + 1] - d->start[g];
        d->max_rows = n > d->max_rows ? n : d->max_rows;
        d->order[g] = g;
    }
    for (g = d->ngroups - 1; g > 0; g--) {
        int j = (int)hn_rng_below(rng, (uint32_t)g + 1), t = d->order[g];
        d->order[g] = d->order[j], d->order[j] = t;
    }
    d->ntrain = d->ngroups - (int)(val * d->ngroups);
    hn_rng_free(rng);
    return HN_OK;
}

/* Rows of groups order[a..b) into x, y, grp; returns the row count. */
static int gather(const place_data *d, int a, int b, float *x, float *y, int32_t *grp)
{
    int n = 0;
    for (int k = a; k < b; k++) {
        int g = d->order[k], lo = d->start[g], hi = d->start[g + 1];
        memcpy(x + (size_t)n * SRCH_EM_PLACE_DIM, d->x + (size_t)lo * SRCH_EM_PLACE_DIM,
               sizeof(float) * SRCH_EM_PLACE_DIM * (size_t)(hi - lo));
        memcpy(y + n, d->y + lo, sizeof(float) * (size_t)(hi - lo));
        for (int i = lo; i < hi; i++)
            grp[n++] = k;
    }
    return n;
}

/* Index of the largest of v[0..n) (the first on ties). */
static int argmax(const float *v, int n, int stride)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (v[(size_t)i * stride] > v[(size_t)k * stride])
            k = i;
    return k;
}

/* One group's share of the validation figures: the label gain over a
 * random pick of the model's first choice, of the best candidate, and of
 * the rule "most fillers for the east cell". */
static void score_group(const float *x, const float *y, const float *s, int n,
                        struct trn_emp_place_val *v)
{
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    int k = argmax(s, n, 1), best = argmax(y, n, 1), rule = argmax(x + 1, n, SRCH_EM_PLACE_DIM);
    v->top1 += y[k] - mean;
    v->oracle += y[best] - mean;
    v->rule += y[rule] - mean;
    v->hit += y[k] == y[best];
}

typedef struct {
    nn_model *m;
    nn_train *t;
    nn_adam *opt;
    hn_rng *rng;
    float *x, *y;
    int32_t *grp;
} trainer;

/* Loss and ranking figures over the validation groups (means per group). */
static int validate(const place_data *d, trainer *w, const struct trn_emp_place_opts *o,
                    struct trn_emp_place_val *v)
{
    *v = (struct trn_emp_place_val){0};
    int groups = d->ngroups - d->ntrain;
    for (int k = d->ntrain; k < d->ngroups; k++) {
        int n = gather(d, k, k + 1, w->x, w->y, w->grp);
        if (nn_train_forward(w->t, w->x, n, NN_MODE_EVAL) != HN_OK)
            return HN_ERR_ARG;
        v->loss += nn_train_loss_listwise(w->t, w->y, w->grp, (float)o->target_temp);
        score_group(w->x, w->y, nn_train_output(w->t), n, v);
    }
    if (groups > 0) {
        v->loss /= groups, v->top1 /= groups, v->oracle /= groups;
        v->rule /= groups, v->hit /= groups;
    }
    return HN_OK;
}

/* One epoch over the training groups in a fresh order; mean batch loss. */
static double epoch(place_data *d, trainer *w, float *params, const struct trn_emp_place_opts *o)
{
    for (int g = d->ntrain - 1; g > 0; g--) {
        int j = (int)hn_rng_below(w->rng, (uint32_t)g + 1), tmp = d->order[g];
        d->order[g] = d->order[j], d->order[j] = tmp;
    }
    double sum = 0;
    int batches = 0;
    for (int k = 0; k < d->ntrain; k += o->batch) {
        int end = k + o->batch < d->ntrain ? k + o->batch : d->ntrain;
        int n = gather(d, k, end, w->x, w->y, w->grp);
        if (n < 2 || nn_train_forward(w->t, w->x, n, NN_MODE_TRAIN) != HN_OK)
            continue;
        sum += nn_train_loss_listwise(w->t, w->y, w->grp, (float)o->target_temp);
        if (nn_train_backward(w->t) != HN_OK)
            continue;
        nn_adam_step(w->opt, params, nn_train_grad(w->t));
        batches++;
    }
    return batches ? sum / batches : 0;
}

/* The decision, encoder, settings for `emp solve` and the training record. */
static int record(nn_model *m, const struct trn_emp_place_opts *o,
                  const struct trn_emp_place_val *v)
{
    return nn_model_set_encoder(m, SRCH_EM_PLACE_ENCODER) ||
           nn_model_set_meta_str(m, "decision", SRCH_EM_DECISION_PLACE) ||
           nn_model_set_meta_str(m, "search", "--start backtrack") ||
           nn_model_set_meta_double(m, "place_temperature", o->temperature) ||
           nn_model_set_meta_double(m, "target_temp", o->target_temp) ||
           nn_model_set_meta_str(m, "train_data", o->data) ||
           nn_model_set_meta_str(m, "train_loss", "listwise softmax cross-entropy") ||
           nn_model_set_meta_double(m, "train_epochs", o->epochs) ||
           nn_model_set_meta_double(m, "train_seed", (double)o->seed) ||
           nn_model_set_meta_double(m, "val_loss", v->loss) ||
           nn_model_set_meta_double(m, "val_top1_gain", v->top1) ||
           nn_model_set_meta_double(m, "val_oracle_gain", v->oracle);
}

static void trainer_free(trainer *w)
{
    nn_train_free(w->t), nn_adam_free(w->opt), nn_model_free(w->m), hn_rng_free(w->rng);
    free(w->x), free(w->y), free(w->grp);
}

static int trainer_init(trainer *w, const place_data *d, const struct trn_emp_place_opts *o)
{
    struct nn_layer_defaults def = NN_LAYER_DEFAULTS;
    def.bn = 0;
    struct nn_spec spec;
    int st = nn_spec_parse(o->arch, &def, &spec);
    if (st != HN_OK)
        return st;
    if (spec.n_inputs != SRCH_EM_PLACE_DIM || spec.layer[spec.n_layers - 1].width != 1)
        return hn_fail(HN_ERR_SHAPE, "--arch must read %d inputs and give 1 output",
                       SRCH_EM_PLACE_DIM);
    size_t rows = (size_t)o->batch * (size_t)d->max_rows, np;
    struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
    ao.lr = (float)o->lr;
    w->m = nn_model_new(&spec, hn_seed_mix(o->seed, 1), &st);
    w->t = w->m ? nn_train_new(w->m, (int)rows, hn_seed_mix(o->seed, 2), &st) : NULL;
    float *params = w->t ? nn_model_params(w->m, &np) : NULL;
    w->opt = params ? nn_adam_new(np, &ao, &st) : NULL;
    w->rng = hn_rng_new(hn_seed_mix(o->seed, 3));
    w->x = malloc(sizeof(float) * rows * SRCH_EM_PLACE_DIM);
    w->y = malloc(sizeof(float) * rows);
    w->grp = malloc(sizeof(int32_t) * rows);
    if (!w->opt)
        return st;
    return w->rng && w->x && w->y && w->grp ? HN_OK : HN_ERR_NOMEM;
}

static int train(place_data *d, const struct trn_emp_place_opts *o, nn_model **out,
                 struct trn_emp_place_val *v)
{
    trainer w = {0};
    int st = trainer_init(&w, d, o);
    size_t np;
    float *params = st == HN_OK ? nn_model_params(w.m, &np) : NULL;
    for (int e = 0; e < o->epochs && st == HN_OK && !hn_stop_requested(); e++) {
        double loss = epoch(d, &w, params, o);
        st = validate(d, &w, o, v);
        if (o->on_epoch)
            o->on_epoch(e + 1, loss, v, o->user);
    }
    if (st == HN_OK && record(w.m, o, v))
        st = hn_fail(HN_ERR_NOMEM, "cannot record the model's attributes");
    if (st == HN_OK) {
        *out = w.m;
        w.m = NULL;
    }
    trainer_free(&w);
    return st;
}

int trn_emp_place_train(const float *x, const float *y, const int32_t *group, size_t rows,
                        int ngroups, const struct trn_emp_place_opts *o, nn_model **out,
                        struct trn_emp_place_result *res)
{
    place_data d = {.x = x, .y = y, .group = group};
    *out = NULL;
    *res = (struct trn_emp_place_result){0};
    int st = HN_OK;
    if (index_groups(&d, rows, ngroups, o->val, o->seed) != HN_OK)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for %d groups", ngroups);
    if (st == HN_OK && d.ntrain < 1)
        st = hn_fail(HN_ERR_ARG, "%s: no cell left to train on", o->data);
    if (st == HN_OK)
        st = train(&d, o, out, &res->val);
    res->groups = d.ngroups;
    res->train_groups = d.ntrain;
    free(d.start), free(d.order);
    return st;
}
