/* The training loop: seeded epoch permutations over the training split,
 * one Adam step per batch, validation after each epoch, best weights kept,
 * checkpoints written between batches on request. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/npuzzle/encode.h"
#include "train/trn_private.h"

/* .defaults repeats NN_LAYER_DEFAULTS' values (an object is not a constant
 * expression in C); test_trn_train checks that the two agree. */
const struct trn_opts TRN_OPTS_DEFAULTS = {
    .defaults = {.act = NN_ACT_ELU,
                 .elu_alpha = 1.0f,
                 .bn = 1,
                 .bn_eps = 1e-3f,
                 .dropout = 0.0f,
                 .init = NN_INIT_HE},
    .loss = NN_LOSS_MSE,
    .over_weight = 1.0f,
    .batch = 512,
    .epochs = 10,
    .lr = 1e-3,
    .schedule = TRN_LR_CONSTANT,
    .lr_step = 10,
    .lr_gamma = 0.5,
    .lr_min = 0.01,
    .seed = 1,
    .threads = 1,
};

const char *trn_schedule_name(enum trn_schedule s)
{
    return s == TRN_LR_STEP ? "step" : s == TRN_LR_COSINE ? "cosine" : "constant";
}

int trn_schedule_parse(const char *s, enum trn_schedule *out)
{
    static const char *const names[] = {"constant", "step", "cosine"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (enum trn_schedule)i;
            return HN_OK;
        }
    return hn_fail(HN_ERR_ARG, "learning-rate schedule '%s' is not constant, step or cosine", s);
}

int trn_loss_parse(const char *s, enum nn_loss *loss, float *over_weight)
{
    char *end;
    if (!strcmp(s, "mse")) {
        *loss = NN_LOSS_MSE;
        *over_weight = 1.0f;
        return HN_OK;
    }
    if (!strcmp(s, "amse")) {
        *loss = NN_LOSS_ASYM_MSE;
        *over_weight = 2.0f;
        return HN_OK;
    }
    if (!strncmp(s, "amse:", 5)) {
        double f = strtod(s + 5, &end);
        if (end != s + 5 && *end == '\0' && f > 0 && f <= 1e6) {
            *loss = NN_LOSS_ASYM_MSE;
            *over_weight = (float)f;
            return HN_OK;
        }
    }
    if (!strncmp(s, "quantile:", 9)) {
        double tau = strtod(s + 9, &end);
        if (end != s + 9 && *end == '\0' && tau > 0 && tau < 1) {
            *loss = NN_LOSS_QUANTILE;
            *over_weight = (float)tau;
            return HN_OK;
        }
    }
    return hn_fail(HN_ERR_ARG,
                   "loss '%s' is not mse, amse, amse:FACTOR (FACTOR > 0) or quantile:TAU "
                   "(0 < TAU < 1)",
                   s);
}

/* Learning rate for batch b of nb in epoch e (0-based). */
static double lr_at(const struct trn_opts *o, int e, uint64_t b, uint64_t nb)
{
    if (o->schedule == TRN_LR_STEP)
        return o->lr * pow(o->lr_gamma, (double)(e / (o->lr_step > 0 ? o->lr_step : 1)));
    if (o->schedule == TRN_LR_COSINE) {
        double t = ((double)e * (double)nb + (double)b) / ((double)o->epochs * (double)nb);
        return o->lr *
               (o->lr_min + (1.0 - o->lr_min) * 0.5 * (1.0 + cos(3.14159265358979323846 * t)));
    }
    return o->lr;
}

/* The order of the training rows in epoch e: a function of (seed, e) only,
 * so a resumed run sees the same order. */
static int make_perm(uint32_t *perm, uint64_t n, uint64_t seed, int e)
{
    hn_rng *r = hn_rng_new(hn_seed_mix(seed, 0x7e0000ull + (uint64_t)e));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (uint64_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (uint64_t i = n - 1; i > 0; i--) {
        uint32_t j = hn_rng_below(r, (uint32_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    hn_rng_free(r);
    return HN_OK;
}

/* CPU seconds of the process: on a shared machine the fair measure of speed. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- processes training together --------------------------------------- */

int trn_comm_agree(const struct trn_comm *c, int rc)
{
    if (!c)
        return rc;
    double v[2] = {rc != HN_OK && rc != HN_ERR_INTERRUPTED, rc == HN_ERR_INTERRUPTED};
    int q = c->sum_double(v, 2, c->user);
    if (q || rc)
        return q ? q : rc;
    if (v[0] > 0)
        return hn_fail(HN_ERR_IO, "another process of the run failed");
    return v[1] > 0 ? HN_ERR_INTERRUPTED : HN_OK;
}

static int stop_check(const struct trn_comm *c)
{
    return trn_comm_agree(c, hn_stop_requested() ? HN_ERR_INTERRUPTED : HN_OK);
}

/* ---- evaluation -------------------------------------------------------- */

/* Under c each process evaluates every size-th batch and the sums are
 * shared (eval mode needs no batch statistics). */
static int eval_with(nn_train *t, const trn_data *d, enum trn_split s, const nn_model *m, int batch,
                     enum nn_loss loss, float over, const struct trn_comm *c, struct trn_epoch *e)
{
    uint64_t n = trn_data_rows(d, s);
    int din = trn_data_inputs(d);
    float *x = malloc(sizeof(float) * (size_t)batch * din),
          *y = malloc(sizeof(float) * (size_t)batch);
    uint32_t *idx = malloc(sizeof(uint32_t) * (size_t)batch);
    double mean, std, sl = 0, sa = 0;
    uint64_t exact = 0, overs = 0;
    int rc = x && y && idx ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    nn_model_target(m, &mean, &std);
    uint64_t first = c ? (uint64_t)c->rank * (uint64_t)batch : 0;
    uint64_t step = (uint64_t)batch * (uint64_t)(c ? c->size : 1);
    for (uint64_t r = first; !rc && r < n; r += step) {
        int k = n - r < (uint64_t)batch ? (int)(n - r) : batch;
        for (int i = 0; i < k; i++)
            idx[i] = (uint32_t)(r + (uint64_t)i);
        trn_data_batch(d, s, idx, k, x, y);
        if ((rc = nn_train_forward(t, x, k, NN_MODE_EVAL)))
            break;
        const float *out = nn_train_output(t);
        for (int i = 0; i < k; i++) {
            double p = out[i] * std + mean, err = p - y[i];
            sl += nn_loss_term(loss, over, err);
            sa += fabs(err);
            exact += lround(p) == lround(y[i]);
            overs += lround(p) > lround(y[i]);
        }
    }
    free(x);
    free(y);
    free(idx);
    double tot[4] = {sl, sa, (double)exact, (double)overs}, dn = n ? (double)n : 1.0;
    if ((rc = trn_comm_agree(c, rc)) == HN_OK && c)
        rc = c->sum_double(tot, 4, c->user);
    e->val_loss = tot[0] / dn;
    e->val_mae = tot[1] / dn;
    e->val_exact = tot[2] / dn;
    e->val_over = tot[3] / dn;
    return rc;
}

int trn_evaluate(const trn_data *d, enum trn_split s, nn_model *m, int batch, enum nn_loss loss,
                 float over_weight, struct trn_epoch *e)
{
    int rc = 0;
    nn_train *t = nn_train_new(m, batch, 1, &rc);
    if (!t)
        return rc;
    rc = eval_with(t, d, s, m, batch, loss, over_weight, NULL, e);
    nn_train_free(t);
    return rc;
}

/* ---- setting up a run -------------------------------------------------- */

/* The spec from --arch, or from `base` (the --init model or the resumed
 * checkpoint, named `bname`) when there is no --arch; both must agree. */
static int get_spec(const struct trn_opts *o, const nn_model *base, const char *bname,
                    struct nn_spec *spec)
{
    if (!o->arch) {
        if (!base)
            return hn_fail(HN_ERR_ARG, "an architecture spec is required");
        *spec = *nn_model_spec(base);
        return HN_OK;
    }
    int rc = nn_spec_parse(o->arch, &o->defaults, spec);
    if (rc)
        return hn_fail(rc, "--arch %s: %s", o->arch, hn_errmsg());
    char a[NN_SPEC_MAX], b[NN_SPEC_MAX];
    if (base && (nn_spec_format(spec, NULL, a, sizeof a) ||
                 nn_spec_format(nn_model_spec(base), NULL, b, sizeof b) || strcmp(a, b)))
        return hn_fail(HN_ERR_ARG, "%s: the model's spec %s differs from --arch %s", bname, b, a);
    return HN_OK;
}

/* The network must read the data's rows and give one output. */
static int check_fit(const trn_data *d, const char *arch, const struct nn_spec *spec)
{
    const struct trn_file *f = &d->files[0];
    if (spec->n_inputs != d->d) {
        if (d->boards == TRN_STATES)
            return hn_fail(HN_ERR_SHAPE,
                           "%s: %s states encode to %d inputs but the spec %s reads %d inputs",
                           f->path, d->domain, d->d, arch, spec->n_inputs);
        if (d->boards)
            return hn_fail(HN_ERR_SHAPE,
                           "%s: /boards rows have %d cells (%d-puzzle, %d one-hot inputs) but the "
                           "spec %s reads %d inputs",
                           f->path, d->cells, d->cells - 1, d->d, arch, spec->n_inputs);
        return hn_fail(HN_ERR_SHAPE, "%s: /x rows have %d features but the spec %s reads %d inputs",
                       f->path, d->d, arch, spec->n_inputs);
    }
    if (spec->layer[spec->n_layers - 1].width != 1)
        return hn_fail(HN_ERR_SHAPE, "%s: the output layer must have width 1 (one target)", arch);
    return HN_OK;
}

/* A model to fine-tune must be for the data's domain. */
static int check_init_domain(const nn_model *init, const char *name, const trn_data *d)
{
    const char *md = nn_model_get_meta_str(init, "domain");
    hn_error_clear();
    if (!md || !d->domain[0] || !strcmp(md, d->domain) ||
        (d->dom && !strcmp(md, dom_canonical(d->dom))))
        return HN_OK;
    return hn_fail(HN_ERR_ARG, "%s: a model of domain %s, but the data is of %s", name, md,
                   d->domain);
}

/* A new model, or the --init model (taken over: *init becomes NULL) with its
 * own target scaling so its outputs keep their meaning. */
static int fresh_state(const trn_data *d, const struct trn_opts *o, const struct nn_spec *spec,
                       nn_model **init, struct trn_state *s)
{
    int rc = 0;
    double mean, std;
    if (*init) {
        s->m = *init;
        *init = NULL;
    } else {
        s->m = nn_model_new(spec, hn_seed_mix(o->seed, 1), &rc);
        if (!s->m)
            return rc;
        trn_data_target_stats(d, TRN_TRAIN, &mean, &std);
        rc = nn_model_set_target(s->m, mean, std > 1e-6 ? std : 1.0);
    }
    if (!rc)
        rc = nn_model_set_encoder(s->m, trn_data_encoder(d));
    char dname[64];
    if (!rc && d->domain[0]) /* what solve --model and srch_dom_heur_net look for */
        rc = nn_model_set_meta_str(s->m, "domain", d->domain);
    else if (!rc && srch_np_encode_domain(trn_data_encoder(d), dname, sizeof dname) == 0)
        rc = nn_model_set_meta_str(s->m, "domain", dname);
    hn_error_clear();
    if (rc)
        return rc;
    s->best = nn_model_clone(s->m, &rc);
    if (!s->best)
        return rc;
    size_t np;
    nn_model_params(s->m, &np);
    struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
    ao.lr = (float)o->lr;
    ao.weight_decay = (float)o->weight_decay;
    s->a = nn_adam_new(np, &ao, &rc);
    return s->a ? HN_OK : rc;
}

static void copy_weights(nn_model *dst, nn_model *src)
{
    size_t n, k;
    float *p = nn_model_params(src, &n), *q = nn_model_params(dst, &k);
    memcpy(q, p, sizeof(float) * n);
    p = nn_model_state(src, &n);
    q = nn_model_state(dst, &k);
    memcpy(q, p, sizeof(float) * n);
}

/* ---- the loop ---------------------------------------------------------- */

struct loop {
    const trn_data *d;
    const struct trn_opts *o;
    struct trn_state *s;
    int bs;     /* rows per batch over all processes */
    int stripe; /* rows per batch of this process */
    uint64_t nb;
    float *x, *y;   /* x: dense rows (NULL for one-hot data) */
    int32_t *act;   /* one-hot data: the rows' active inputs ... */
    int32_t *off;   /* ... row i's at act[off[i] .. off[i+1]) */
    uint64_t *bits; /* scratch of trn_data_batch_active */
    uint32_t *perm;
    double mean, std;
    double step_seconds, step_cpu;
    uint64_t samples;
};

/* Factor from the loss on standardised targets to raw moves: the pinball
 * loss is linear in the error, the squared losses quadratic. */
static double raw_loss_unit(const struct loop *L)
{
    return L->o->loss == NN_LOSS_QUANTILE ? L->std : L->std * L->std;
}

/* The gradient of this process's stripe (rows [rank * stripe, +stripe) of
 * the batch); under comm scaled to its share of the whole batch's loss and
 * summed over the processes in one reduction of the flat buffer. */
static int stripe_grad(struct loop *L, size_t np)
{
    struct trn_state *s = L->s;
    const struct trn_comm *c = L->o->comm;
    uint64_t row0 = s->cursor * (uint64_t)L->bs + (uint64_t)(c ? c->rank : 0) * (uint64_t)L->stripe;
    const uint32_t *rows = L->perm + row0;
    if (L->act)
        trn_data_batch_active(L->d, TRN_TRAIN, rows, L->stripe, L->act, L->off, L->y, L->bits);
    else
        trn_data_batch(L->d, TRN_TRAIN, rows, L->stripe, L->x, L->y);
    for (int i = 0; i < L->stripe; i++)
        L->y[i] = (float)((L->y[i] - L->mean) / L->std);
    int rc = L->act ? nn_train_forward_sparse(s->t, L->act, L->off, L->stripe, NN_MODE_TRAIN)
                    : nn_train_forward(s->t, L->x, L->stripe, NN_MODE_TRAIN);
    if (rc)
        return rc;
    s->loss_sum += nn_train_loss(s->t, L->y, L->o->loss, L->o->over_weight);
    if (c) {
        float *dy = nn_train_output_grad(s->t), share = (float)L->stripe / (float)L->bs;
        for (int i = 0; i < L->stripe; i++)
            dy[i] *= share;
    }
    if ((rc = nn_train_backward(s->t)))
        return rc;
    return c ? c->sum_float(nn_train_grad(s->t), np, c->user) : HN_OK;
}

/* Under comm the loss sum becomes the mean over the processes (the same in
 * each, so a checkpoint of rank 0 holds the whole batches' loss). */
static int sync_loss(struct loop *L)
{
    const struct trn_comm *c = L->o->comm;
    double v = L->s->loss_sum;
    int rc = c ? c->sum_double(&v, 1, c->user) : HN_OK;
    if (c && !rc)
        L->s->loss_sum = v / c->size;
    return rc;
}

/* Batches s->cursor.. of the current epoch; HN_ERR_INTERRUPTED on a stop. */
static int train_batches(struct loop *L)
{
    struct trn_state *s = L->s;
    size_t np;
    float *params = nn_model_params(s->m, &np);
    for (; s->cursor < L->nb; s->cursor++) {
        int rc = stop_check(L->o->comm);
        if (rc)
            return rc;
        double t0 = hn_now(), c0 = cpu_now();
        nn_adam_set_lr(s->a, (float)lr_at(L->o, s->epoch, s->cursor, L->nb));
        if ((rc = stripe_grad(L, np)))
            return rc;
        nn_adam_step(s->a, params, nn_train_grad(s->t));
        L->step_seconds += hn_now() - t0;
        L->step_cpu += cpu_now() - c0;
        L->samples += (uint64_t)L->bs;
        if (L->o->progress && (s->cursor % 16 == 15 || s->cursor + 1 == L->nb)) {
            char extra[96];
            snprintf(extra, sizeof extra, "epoch %d/%d loss %.4g", s->epoch + 1, L->o->epochs,
                     s->loss_sum / (double)(s->cursor + 1) * raw_loss_unit(L));
            L->o->progress((s->cursor + 1) * (uint64_t)L->bs, L->nb * (uint64_t)L->bs, extra,
                           L->o->progress_user);
        }
    }
    return HN_OK;
}

/* Close an epoch: validation, best weights, callback. */
static int finish_epoch(struct loop *L, double t_epoch, uint64_t first_batch, double step0,
                        int *stop)
{
    struct trn_state *s = L->s;
    struct trn_epoch e = {0};
    int rc = sync_loss(L);
    if (rc)
        return rc;
    e.epoch = s->epoch + 1;
    e.train_loss = s->loss_sum / (double)L->nb * raw_loss_unit(L);
    e.lr = lr_at(L->o, s->epoch, L->nb - 1, L->nb);
    double steps = L->step_seconds - step0;
    e.samples_per_s = steps > 0 ? (double)((L->nb - first_batch) * (uint64_t)L->bs) / steps : 0.0;
    /* Without a validation split the figures are those of the training rows
     * (e.g. all 8-puzzle states) and the last weights are kept. */
    enum trn_split vs = trn_data_rows(L->d, TRN_VAL) > 0 ? TRN_VAL : TRN_TRAIN;
    rc = eval_with(s->t, L->d, vs, s->m, L->stripe, L->o->loss, L->o->over_weight, L->o->comm, &e);
    if (rc)
        return rc;
    e.seconds = hn_now() - t_epoch;
    s->epoch++;
    s->cursor = 0;
    s->loss_sum = 0.0;
    if (!s->have_best || e.val_loss < s->best_e.val_loss || trn_data_rows(L->d, TRN_VAL) == 0) {
        copy_weights(s->best, s->m);
        s->best_e = e;
        s->have_best = 1;
        s->bad_epochs = 0;
        e.best = 1;
    } else {
        s->bad_epochs++;
    }
    s->train_seconds += e.seconds;
    if (L->o->on_epoch)
        L->o->on_epoch(&e, L->o->epoch_user);
    *stop = L->o->patience > 0 && s->bad_epochs >= L->o->patience;
    return HN_OK;
}

static int run_epochs(struct loop *L, int *stopped_early)
{
    struct trn_state *s = L->s;
    int rc = HN_OK;
    *stopped_early = 0;
    while (!rc && s->epoch < L->o->epochs && !*stopped_early) {
        uint64_t ntrain = trn_data_rows(L->d, TRN_TRAIN);
        if ((rc = make_perm(L->perm, ntrain, L->o->seed, s->epoch)))
            break;
        double t0 = hn_now(), step0 = L->step_seconds;
        uint64_t first = s->cursor;
        rc = train_batches(L);
        if (!rc)
            rc = finish_epoch(L, t0, first, step0, stopped_early);
        else if (rc == HN_ERR_INTERRUPTED) {
            s->train_seconds += hn_now() - t0;
            int q = sync_loss(L);
            rc = q ? q : rc;
        }
        if ((!rc || rc == HN_ERR_INTERRUPTED) && L->o->checkpoint) {
            const struct trn_comm *c = L->o->comm;
            int q = !c || c->rank == 0 ? trn_ckpt_save(L->o->checkpoint, s, L->o, L->d) : HN_OK;
            q = trn_comm_agree(c, q);
            rc = q ? q : rc;
        }
        if (!rc)
            rc = stop_check(L->o->comm);
    }
    return rc;
}

/* ---- the training record ----------------------------------------------- */

static int record(nn_model *m, const trn_data *d, const struct trn_opts *o,
                  const struct trn_state *s, const struct trn_result *res)
{
    char buf[NN_SPEC_MAX], loss[32];
    int rc = nn_spec_format(nn_model_spec(m), NULL, buf, sizeof buf);
    if (o->loss == NN_LOSS_ASYM_MSE)
        snprintf(loss, sizeof loss, "amse:%g", (double)o->over_weight);
    else if (o->loss == NN_LOSS_QUANTILE)
        snprintf(loss, sizeof loss, "quantile:%g", (double)o->over_weight);
    else
        snprintf(loss, sizeof loss, "mse");
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    struct {
        const char *k;
        double v;
    } nums[] = {{"train_epochs", s->epoch},
                {"train_epochs_max", o->epochs},
                {"train_batch", o->batch},
                {"train_lr", o->lr},
                {"train_threads", o->threads},
                {"train_patience", o->patience},
                {"train_stopped_early", res->stopped_early},
                {"train_rows", (double)trn_data_rows(d, TRN_TRAIN)},
                {"val_rows", (double)trn_data_rows(d, TRN_VAL)},
                {"train_seconds", s->train_seconds},
                {"best_epoch", s->best_e.epoch},
                {"best_train_loss", s->best_e.train_loss},
                {"best_val_loss", s->best_e.val_loss},
                {"best_val_mae", s->best_e.val_mae},
                {"best_val_exact", s->best_e.val_exact},
                {"best_val_over", s->best_e.val_over},
                {"train_weight_decay", o->weight_decay}};
    struct {
        const char *k, *v;
    } strs[] = {{"train_spec", buf},
                {"train_loss", loss},
                {"train_lr_schedule", trn_schedule_name(o->schedule)},
                {"train_seed", seed},
                {"train_revision", hn_revision()},
                {"train_version", hn_version()}};
    for (size_t i = 0; !rc && i < sizeof nums / sizeof nums[0]; i++)
        rc = nn_model_set_meta_double(m, nums[i].k, nums[i].v);
    for (size_t i = 0; !rc && i < sizeof strs / sizeof strs[0]; i++)
        rc = nn_model_set_meta_str(m, strs[i].k, strs[i].v);
    /* After --init-from the starting model's record stays where this run does
     * not overwrite it (e.g. data3.* of an earlier run with more files). */
    if (!rc && o->init)
        rc = nn_model_set_meta_str(m, "train_init_from", o->init);
    if (!rc)
        rc = trn_data_record(d, m);
    return rc;
}

/* ---- public ------------------------------------------------------------ */

static void state_free(struct trn_state *s)
{
    nn_train_free(s->t);
    nn_adam_free(s->a);
    nn_model_free(s->m);
    nn_model_free(s->best);
}

static int loop_setup(struct loop *L, const trn_data *d, const struct trn_opts *o,
                      struct trn_state *s)
{
    uint64_t ntrain = trn_data_rows(d, TRN_TRAIN);
    if (ntrain < 2)
        return hn_fail(HN_ERR_ARG, "%s: only %llu training row(s); at least 2 are needed",
                       d->files[0].path, (unsigned long long)ntrain);
    int procs = o->comm ? o->comm->size : 1;
    if (o->batch % procs)
        return hn_fail(HN_ERR_ARG, "batch %d is not a multiple of the %d processes", o->batch,
                       procs);
    *L = (struct loop){.d = d, .o = o, .s = s};
    L->bs = ntrain < (uint64_t)o->batch ? (int)ntrain : o->batch;
    L->bs -= L->bs % procs;
    if (L->bs < procs)
        return hn_fail(HN_ERR_ARG, "%s: %llu training rows for %d processes", d->files[0].path,
                       (unsigned long long)ntrain, procs);
    L->stripe = L->bs / procs;
    L->nb =
        ntrain / (uint64_t)L->bs; /* the last partial batch is left out (different each epoch) */
    /* one-hot rows (boards, domain states) go in as their active inputs:
     * no dense batch to write, copy and scan */
    int most = trn_data_active_max(d), in_ok;
    if (most > 0) {
        L->act = malloc(sizeof(int32_t) * (size_t)L->stripe * (size_t)most);
        L->off = malloc(sizeof(int32_t) * ((size_t)L->stripe + 1));
        L->bits = calloc((size_t)d->d / 64 + 1, sizeof *L->bits);
        in_ok = L->act && L->off && L->bits;
    } else
        in_ok = (L->x = malloc(sizeof(float) * (size_t)L->stripe * d->d)) != NULL;
    L->y = malloc(sizeof(float) * (size_t)L->stripe);
    L->perm = malloc(sizeof(uint32_t) * ntrain);
    nn_model_target(s->m, &L->mean, &L->std);
    return in_ok && L->y && L->perm ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
}

int trn_run(const trn_data *d, const struct trn_opts *o, nn_model **out, struct trn_result *res)
{
    struct nn_spec spec;
    struct trn_state s = {0};
    struct loop L = {0};
    struct trn_result r = {0};
    uint8_t *rng = NULL;
    size_t rng_len = 0;
    *out = NULL;
    if (o->batch < 2 || o->epochs < 1 || !(o->lr > 0))
        return hn_fail(HN_ERR_ARG, "batch >= 2, epochs >= 1 and lr > 0 are required");
    nn_model *init = NULL;
    int rc = HN_OK;
    if (o->resume)
        rc = trn_ckpt_load(o->resume, &s, o, d, &rng, &rng_len);
    else if (o->init && !(init = nn_model_load(o->init, &rc)))
        rc = rc ? rc : HN_ERR_IO;
    const nn_model *base = o->resume ? s.m : init;
    const char *bname = o->resume ? o->resume : o->init;
    if (!rc)
        rc = get_spec(o, base, bname, &spec);
    if (!rc)
        rc = check_fit(d, o->arch ? o->arch : bname, &spec);
    if (!rc && init)
        rc = check_init_domain(init, o->init, d);
    if (!rc && init && strcmp(nn_model_encoder(init), trn_data_encoder(d)))
        rc = hn_fail(HN_ERR_ARG, "%s: the model reads \"%s\" but the data is \"%s\"", o->init,
                     nn_model_encoder(init), trn_data_encoder(d));
    if (!rc && !o->resume)
        rc = fresh_state(d, o, &spec, &init, &s);
    nn_model_free(init);
    if (!rc)
        rc = loop_setup(&L, d, o, &s);
    /* Dropout masks differ between processes; rank 0 draws those of a single
     * process (and its generator is the one a checkpoint keeps). */
    int rank = o->comm ? o->comm->rank : 0;
    if (!rc &&
        !(s.t = nn_train_new(s.m, L.stripe, hn_seed_mix(o->seed, 2 + ((uint64_t)rank << 32)), &rc)))
        rc = rc ? rc : HN_ERR_NOMEM;
    if (!rc && o->comm)
        nn_train_set_sum(s.t, o->comm->sum_double, o->comm->user);
    if (!rc && rng && rank == 0) {
        hn_rng *dr = nn_train_rng(s.t);
        if (rng_len != hn_rng_state_size(dr))
            rc = hn_fail(HN_ERR_FORMAT, "%s: /checkpoint/rng has %zu bytes, expected %zu",
                         o->resume, rng_len, hn_rng_state_size(dr));
        else
            hn_rng_state_set(dr, rng);
    }
    double t0 = hn_now();
    if (!rc)
        rc = run_epochs(&L, &r.stopped_early);
    r.seconds = hn_now() - t0;
    r.samples_per_s = L.step_seconds > 0 ? (double)L.samples / L.step_seconds : 0.0;
    r.cpu_samples_per_s = L.step_cpu > 0 ? (double)L.samples / L.step_cpu : 0.0;
    r.epochs_run = s.epoch;
    r.best = s.best_e;
    r.params = s.m ? nn_model_param_count(s.m) : 0;
    if (!rc)
        rc = record(s.best, d, o, &s, &r);
    if (!rc) {
        *out = s.best;
        s.best = NULL;
    }
    if (res)
        *res = r;
    free(rng);
    free(L.x);
    free(L.act);
    free(L.off);
    free(L.bits);
    free(L.y);
    free(L.perm);
    state_free(&s);
    return rc;
}
