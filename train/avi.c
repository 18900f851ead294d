/* Learning without optimal labels: the round loop shared by DAVI and
 * bootstrapping (set-up, Adam steps on generated rows, target-network
 * bookkeeping, checkpoints, the training record) and a small thread pool
 * for making targets. The methods' rounds live in avi_davi.c and boot.c. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/avi_private.h"
#include "train/trn_private.h"

void trn_avi_opts_default(struct trn_avi_opts *o)
{
    memset(o, 0, sizeof *o);
    o->method = TRN_AVI_DAVI;
    o->defaults = NN_LAYER_DEFAULTS;
    o->target_mean = 0.0;
    o->target_std = 1.0;
    o->batch = 1000;
    o->rounds = 100;
    o->steps_per_round = 500;
    o->lr = 1e-3;
    o->lr_decay = 1.0;
    o->seed = 1;
    o->threads = 1;
    o->blas_threads = 1;
    o->walk_max = 30;
    o->clamp = 1;
    o->lookahead = 1;
    o->boards = 100;
    o->budget = 2000;
    o->weight = 1.5;
    o->walk = 20;
    o->walk_step = 10;
    o->raise = 0.9;
    o->solved_min = 0.5;
    o->buffer_max = 1000000;
}

void trn_avi_default_scale(const dom *d, int residual, double *mean, double *std)
{
    unsigned typ = dom_facts_of(d)->typical_depth;
    double t = typ ? typ : 40;
    *mean = residual ? 0 : 0.9 * t;
    *std = 0.25 * t / (residual ? 4 : 1);
}

/* The start states must fit the run (they are the caller's, parsed by the
 * domain, so valid states). */
static int check_start(const struct trn_avi_opts *o)
{
    if (!(o->start_share >= 0 && o->start_share <= 1 - o->uniform_share))
        return hn_fail(HN_ERR_ARG, "start share %g is not 0..%g (1 - the uniform share)",
                       o->start_share, 1 - o->uniform_share);
    if (o->start_share > 0 && (!o->nstart || !o->start_states || o->method != TRN_AVI_DAVI))
        return hn_fail(HN_ERR_ARG, "a start share needs start states and DAVI");
    if (o->nstart > UINT32_MAX) /* drawn by a 32-bit index */
        return hn_fail(HN_ERR_ARG, "%zu start states: at most 2^32 - 1", o->nstart);
    if (o->start_walk < 0 || o->start_walk > TRN_AVI_MAX_WALK)
        return hn_fail(HN_ERR_ARG, "start walk %d is not 0..%d", o->start_walk, TRN_AVI_MAX_WALK);
    return HN_OK;
}

/* The run's floor by name, "none" without one. */
static const char *floor_name(const struct trn_avi_opts *o)
{
    return o->floor ? dom_heur_name(o->floor) : "none";
}

/* What the domain must offer. */
static int check_dom(const struct trn_avi_opts *o)
{
    if (!o->dom)
        return hn_fail(HN_ERR_ARG, "value iteration needs a domain");
    if (!dom_unit_cost(o->dom))
        return hn_fail(HN_ERR_ARG, "DAVI on %s: moves of other costs than 1 are not supported",
                       dom_spec(o->dom));
    if (!o->residual != !o->residual_spec)
        return hn_fail(HN_ERR_ARG, "a residual needs both its heuristic and its name");
    if (o->uniform_share > 0 && !dom_facts_of(o->dom)->has_uniform)
        return hn_fail(HN_ERR_ARG, "domain %s draws no uniform states (uniform share %g)",
                       dom_spec(o->dom), o->uniform_share);
    if (o->table && (o->method != TRN_AVI_DAVI || o->teacher || o->teacher_q || o->walk_targets))
        return hn_fail(HN_ERR_ARG, "a target table needs DAVI with Bellman targets (no teacher, "
                                   "Q network or walk targets)");
    return HN_OK;
}

static int check_opts(const struct trn_avi_opts *o)
{
    int rc = check_dom(o);
    if (rc)
        return rc;
    if (o->batch < 2 || o->rounds < 0 || o->steps_per_round < 1 || !(o->lr > 0) ||
        !(o->lr_decay > 0 && o->lr_decay <= 1) || !(o->target_std > 0))
        return hn_fail(HN_ERR_ARG, "batch >= 2, rounds >= 0, steps per round >= 1, lr > 0, "
                                   "0 < lr decay <= 1 and target std > 0 are required");
    if (o->threads < 1 || o->threads > 256 || o->blas_threads < 1 || o->blas_threads > 256)
        return hn_fail(HN_ERR_ARG, "threads %d or BLAS threads %d is not 1..256", o->threads,
                       o->blas_threads);
    if (o->comm && (o->batch % o->comm->size || o->batch / o->comm->size < 2))
        return hn_fail(HN_ERR_ARG,
                       "batch %d is not a multiple of the %d processes (at least 2 "
                       "rows each)",
                       o->batch, o->comm->size);
    if ((uint64_t)o->batch * (uint64_t)o->steps_per_round > UINT32_MAX)
        return hn_fail(HN_ERR_ARG, "batch * steps per round exceeds 2^32 rows");
    if (o->walk_max < 0 || o->walk_max > TRN_AVI_MAX_WALK || o->update_loss < 0)
        return hn_fail(HN_ERR_ARG, "walk max %d is not 0..%d or the update loss is negative",
                       o->walk_max, TRN_AVI_MAX_WALK);
    if (o->method == TRN_AVI_BOOT &&
        (o->boards < 1 || o->budget < 1 || !(o->weight >= 1) || o->walk < 1 || o->walk_step < 0 ||
         o->walk > o->walk_max || !(o->raise > 0 && o->raise <= 1) ||
         !(o->solved_min >= 0 && o->solved_min <= o->raise) || o->buffer_max < (uint64_t)o->batch))
        return hn_fail(HN_ERR_ARG, "bootstrap: boards >= 1, budget >= 1, weight >= 1, "
                                   "1 <= walk <= walk max, walk step >= 0, 0 < raise <= 1, "
                                   "0 <= solved min <= raise and buffer >= batch are required");
    int max_look = o->table ? TRN_AVI_MAX_TABLE_LOOKAHEAD : TRN_AVI_MAX_LOOKAHEAD;
    if (o->lookahead < 1 || o->lookahead > max_look)
        return hn_fail(HN_ERR_ARG, "lookahead %d is not 1..%d%s", o->lookahead, max_look,
                       o->table ? "" : " (without a target table)");
    if (!(o->uniform_share >= 0 && o->uniform_share <= 1))
        return hn_fail(HN_ERR_ARG, "uniform share %g is not 0..1", o->uniform_share);
    return check_start(o);
}

/* ---- threads ----------------------------------------------------------- */

struct pool {
    int (*fn)(void *, int);
    void *user;
    int njobs, next, rc;
    pthread_mutex_t mu;
};

static void *pool_worker(void *arg)
{
    struct pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        int job = p->rc ? p->njobs : p->next++;
        pthread_mutex_unlock(&p->mu);
        if (job >= p->njobs)
            return NULL;
        int rc = p->fn(p->user, job);
        if (rc) {
            pthread_mutex_lock(&p->mu);
            if (!p->rc)
                p->rc = rc;
            pthread_mutex_unlock(&p->mu);
        }
    }
}

int trn_avi_parallel(int threads, int njobs, int (*fn)(void *user, int job), void *user)
{
    struct pool p = {.fn = fn, .user = user, .njobs = njobs};
    pthread_t tid[256];
    int started = 0;
    if (pthread_mutex_init(&p.mu, NULL))
        return hn_fail(HN_ERR_NOMEM, "cannot create a mutex");
    for (; threads > 1 && started < threads && started < 256; started++)
        if (pthread_create(&tid[started], NULL, pool_worker, &p))
            break;
    if (!started)
        pool_worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_mutex_destroy(&p.mu);
    return p.rc;
}

/* ---- Adam steps -------------------------------------------------------- */

int trn_avi_uses_target(const struct trn_avi_opts *o)
{
    return !o->teacher && !o->walk_targets;
}

int trn_avi_outputs(const struct trn_avi_opts *o)
{
    return o->teacher_q ? dom_nmoves(o->dom) : 1;
}

int trn_avi_fit(const struct trn_avi_opts *o, struct avi_state *s, const uint8_t *boards,
                const float *y, const uint32_t *idx, int steps, double *loss)
{
    size_t sb = dom_state_bytes(o->dom);
    int most = DOM_MAX_ACTIVE, bs = o->batch, first; /* active inputs per row */
    int stripe = trn_avi_stripe(o, &first);          /* this process's rows of each batch */
    /* one-hot inputs: each row as its active inputs, not a dense row */
    int32_t *act = malloc(sizeof(int32_t) * (size_t)stripe * (size_t)most),
            *off = malloc(sizeof(int32_t) * ((size_t)stripe + 1));
    int outs = nn_model_outputs(s->m); /* y holds outs targets per board */
    float *t = malloc(sizeof(float) * (size_t)stripe * (size_t)outs);
    uint64_t *bits = calloc((size_t)nn_model_inputs(s->m) / 64 + 1, sizeof *bits);
    double mean, std, sum = 0;
    size_t np;
    float *params = nn_model_params(s->m, &np);
    int rc = act && off && t && bits ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    nn_model_target(s->m, &mean, &std);
    int k = 0;
    for (; !rc && k < steps; k++) {
        if ((rc = trn_avi_stop_check(o)))
            break;
        const uint32_t *row = idx + (size_t)k * (size_t)bs + first;
        off[0] = 0;
        for (int i = 0; i < stripe; i++) {
            /* one-hot inputs: each row as its active inputs */
            off[i + 1] =
                off[i] + trn_active_state(o->dom, boards + (size_t)row[i] * sb, act + off[i], bits);
            for (int a = 0; a < outs; a++)
                t[(size_t)i * outs + a] = (float)((y[(size_t)row[i] * outs + a] - mean) / std);
        }
        double lr = o->lr * pow(o->lr_decay, (double)s->steps);
        /* annealed within the target period, so the fit ends precise */
        if (o->lr_cosine)
            lr *= 0.5 * (1.0 + cos(3.14159265358979323846 * (k + 0.5) / steps));
        nn_adam_set_lr(s->a, (float)lr);
        if ((rc = nn_train_forward_sparse(s->t, act, off, stripe, NN_MODE_TRAIN)))
            break;
        sum += nn_train_loss(s->t, t, NN_LOSS_MSE, 1.0f);
        if ((rc = trn_avi_sum_grad(o, s->t, stripe, np)))
            break;
        nn_adam_step(s->a, params, nn_train_grad(s->t));
        s->steps++;
        s->samples += (uint64_t)bs;
        if (o->progress && (k % 16 == 15 || k + 1 == steps)) {
            char extra[64];
            snprintf(extra, sizeof extra, "round %d loss %.4g", s->round + 1,
                     sum / (k + 1) * std * std);
            o->progress((uint64_t)k + 1, (uint64_t)steps, extra, o->progress_user);
        }
    }
    if (!rc || rc == HN_ERR_INTERRUPTED) { /* the same in every process */
        int q = trn_avi_mean(o, &sum);
        rc = q ? q : rc;
    }
    *loss = k ? sum / k * std * std : 0.0;
    free(act);
    free(off);
    free(bits);
    free(t);
    return rc;
}

/* ---- set-up ------------------------------------------------------------ */

/* A model records the domain it was trained on; one that records none
 * (n-puzzle models of older versions) is known by its encoder alone. */
static int check_domain(const struct trn_avi_opts *o, const nn_model *m, const char *name)
{
    const char *dm = nn_model_get_meta_str(m, "domain");
    if (!dm || !strcmp(dm, dom_spec(o->dom)))
        return HN_OK;
    return hn_fail(HN_ERR_ARG, "%s: the model is for domain \"%s\", this run is on \"%s\"", name,
                   dm, dom_spec(o->dom));
}

int trn_avi_check_model(const struct trn_avi_opts *o, const nn_model *m, const char *name)
{
    const char *enc = dom_facts_of(o->dom)->encoding;
    int drc = check_domain(o, m, name);
    if (drc)
        return drc;
    if (strcmp(nn_model_encoder(m), enc))
        return hn_fail(HN_ERR_ARG, "%s: the model reads \"%s\", this run needs \"%s\"", name,
                       nn_model_encoder(m), enc);
    int outs = trn_avi_outputs(o);
    if (nn_model_outputs(m) != outs && !(o->teacher_q && nn_model_outputs(m) == 1))
        return hn_fail(HN_ERR_SHAPE, "%s: the network has %d outputs, this run needs %d", name,
                       nn_model_outputs(m), outs);
    const char *res = nn_model_get_meta_str(m, "residual");
    if (strcmp(res ? res : "", o->residual_spec ? o->residual_spec : ""))
        return hn_fail(HN_ERR_ARG, "%s: the model is a residual over \"%s\", this run over \"%s\"",
                       name, res ? res : "nothing",
                       o->residual_spec ? o->residual_spec : "nothing");
    return HN_OK;
}

/* A teacher: a one-output network of this domain run (check_model: the
 * domain, the encoder, the run's residual). A Q run has no residual. */
static int check_teacher(const struct trn_avi_opts *o)
{
    const nn_model *t = o->teacher;
    const char *name = o->teacher_name ? o->teacher_name : "the teacher";
    if (o->residual && o->teacher_q)
        return hn_fail(HN_ERR_ARG, "%s: a Q network's teacher needs a run without a residual",
                       name);
    int rc = trn_avi_check_model(o, t, name);
    if (!rc && nn_model_outputs(t) != 1)
        rc = hn_fail(HN_ERR_SHAPE, "%s: the teacher must have one output (it has %d)", name,
                     nn_model_outputs(t));
    return rc;
}

/* A fresh residual network starts at exactly 0 (last layer zeroed), so the
 * run starts from h = residual heuristic, not from noise added to it. */
static int zero_output(const struct trn_avi_opts *o, nn_model *m)
{
    struct nn_layer_info li;
    int rc = nn_model_layer(m, nn_model_layers(m) - 1, &li);
    if (rc)
        return rc;
    memset(li.kernel, 0, sizeof(float) * (size_t)li.in * (size_t)li.out);
    memset(li.bias, 0, sizeof(float) * (size_t)li.out);
    return nn_model_set_target(m, 0.0, o->target_std);
}

/* A Q run from a one-output model starts from it, its output repeated
 * once per move: every child valued as the parent at first. */
static int q_start(const struct trn_avi_opts *o, nn_model **m)
{
    if (!o->teacher_q || nn_model_outputs(*m) != 1)
        return HN_OK;
    int rc = 0;
    nn_model *q = nn_model_repeat_output(*m, trn_avi_outputs(o), &rc);
    nn_model_free(*m);
    *m = q;
    return q ? HN_OK : rc ? rc : HN_ERR_NOMEM;
}

static int fresh_model(const struct trn_avi_opts *o, nn_model **out)
{
    int rc = 0, inputs = (int)dom_facts_of(o->dom)->inputs;
    if (o->init) {
        *out = nn_model_load(o->init, &rc);
        rc = *out ? trn_avi_check_model(o, *out, o->init) : rc ? rc : HN_ERR_IO;
        return rc ? rc : q_start(o, out);
    }
    if (!o->arch)
        return hn_fail(HN_ERR_ARG, "an architecture spec is required");
    struct nn_spec spec;
    if ((rc = nn_spec_parse(o->arch, &o->defaults, &spec)))
        return hn_fail(rc, "--arch %s: %s", o->arch, hn_errmsg());
    if (spec.n_inputs != inputs || spec.layer[spec.n_layers - 1].width != trn_avi_outputs(o))
        return hn_fail(HN_ERR_SHAPE,
                       "--arch %s: a network for %s reads %d inputs and has %d output(s)", o->arch,
                       dom_spec(o->dom), inputs, trn_avi_outputs(o));
    if (!(*out = nn_model_new(&spec, hn_seed_mix(o->seed, 1), &rc)))
        return rc;
    rc = nn_model_set_target(*out, o->target_mean, o->target_std);
    if (!rc)
        rc = nn_model_set_meta_str(*out, "domain", dom_spec(o->dom));
    if (!rc && o->residual)
        rc = zero_output(o, *out);
    if (!rc && o->residual)
        rc = nn_model_set_meta_str(*out, "residual", o->residual_spec);
    return rc ? rc : nn_model_set_encoder(*out, dom_facts_of(o->dom)->encoding);
}

/* The history this run's rounds extend: a checkpoint's as it is (--resume);
 * a model to start from (--init-from) that value iteration trained opens it
 * with its totals and history, so the model a run writes says how all of it
 * was trained, not only the last part. */
static int open_history(const struct trn_avi_opts *o, struct avi_state *s)
{
    const char *h = nn_model_get_meta_str(s->m, "avi_history");
    if (!h || !(o->resume || o->init))
        return HN_OK;
    char head[160] = "";
    if (!o->resume) {
        double rounds = 0, samples = 0, seconds = 0;
        nn_model_get_meta_double(s->m, "avi_rounds", &rounds);
        nn_model_get_meta_double(s->m, "avi_samples", &samples);
        nn_model_get_meta_double(s->m, "avi_seconds", &seconds);
        snprintf(head, sizeof head, "--init-from a model of %.0f rounds, %.0f samples, %.0f s: [",
                 rounds, samples, seconds);
    }
    size_t n = strlen(head) + strlen(h) + 2;
    if (!(s->history = malloc(n)))
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    snprintf(s->history, n, "%s%s%s", head, h, o->resume ? "" : "]");
    return HN_OK;
}

static int setup(const struct trn_avi_opts *o, struct avi_state *s)
{
    int rc = HN_OK;
    *s = (struct avi_state){.budget = o->budget, .walk = o->walk, .tab_built_at = -1};
    if (o->method == TRN_AVI_BOOT) {
        s->buf_b = malloc(dom_state_bytes(o->dom) * o->buffer_max);
        s->buf_y = malloc(sizeof(float) * o->buffer_max);
        if (!s->buf_b || !s->buf_y)
            return hn_fail(HN_ERR_NOMEM, "out of memory for a buffer of %llu states",
                           (unsigned long long)o->buffer_max);
    }
    if (o->teacher && (rc = check_teacher(o)))
        return rc;
    if (o->resume)
        rc = trn_avi_ckpt_load(o->resume, o, s); /* checks the model first */
    else if (!(rc = fresh_model(o, &s->m))) {
        size_t np;
        nn_model_params(s->m, &np);
        struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
        ao.lr = (float)o->lr;
        if (!(s->a = nn_adam_new(np, &ao, &rc)))
            rc = rc ? rc : HN_ERR_NOMEM;
    }
    /* a model to start from is also the first target network: its values
     * are what the run continues from, not the all-zero start of a fresh one;
     * so is a fresh residual network (h = the residual heuristic) */
    if (!rc && !o->resume && (o->init || o->residual) && trn_avi_uses_target(o) &&
        !(s->target = nn_model_clone(s->m, &rc)))
        rc = rc ? rc : HN_ERR_NOMEM;
    /* dropout masks differ between processes (rank 0's are a lone run's) */
    int first, stripe = trn_avi_stripe(o, &first), rank = o->comm ? o->comm->rank : 0;
    uint64_t seed = hn_seed_mix(o->seed, 2 + ((uint64_t)rank << 32));
    if (!rc && !(s->t = nn_train_new(s->m, stripe, seed, &rc)))
        rc = rc ? rc : HN_ERR_NOMEM;
    if (!rc && o->comm)
        nn_train_set_sum(s->t, o->comm->sum_double, o->comm->user);
    s->session_first = s->round + 1;
    return rc ? rc : open_history(o, s);
}

static void state_free(struct avi_state *s)
{
    nn_train_free(s->t);
    nn_adam_free(s->a);
    nn_model_free(s->m);
    nn_model_free(s->target);
    free(s->buf_b);
    free(s->buf_y);
    trn_avi_table_free(&s->tab);
    free(s->history);
}

/* avi_history: earlier sessions, then this one's rounds and settings, so a
 * model continued over several sessions says how each part was trained. */
static int record_history(const struct trn_avi_opts *o, const struct avi_state *s)
{
    char line[512];
    if (s->round < s->session_first)
        return s->history ? nn_model_set_meta_str(s->m, "avi_history", s->history) : HN_OK;
    snprintf(line, sizeof line,
             "rounds %d-%d: steps %d batch %d lr %g decay %g%s lookahead %d integer %d table %d "
             "uniform %g walk_max %d floor %s update_loss %g threads %d%s",
             s->session_first, s->round, o->steps_per_round, o->batch, o->lr, o->lr_decay,
             o->lr_cosine ? " cosine" : "", o->lookahead, o->integer_targets, o->table,
             o->uniform_share, o->walk_max, floor_name(o), o->update_loss, o->threads,
             o->target_q8 ? " target q8" : "");
    if (o->start_share > 0) {
        size_t k = strlen(line);
        snprintf(line + k, sizeof line - k, " start %g walk %d of %zu boards (%s)", o->start_share,
                 o->start_walk, o->nstart, o->start_name ? o->start_name : "unnamed");
    }
    size_t n = (s->history ? strlen(s->history) + 2 : 0) + strlen(line) + 1;
    char *all = malloc(n);
    if (!all)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    snprintf(all, n, "%s%s%s", s->history ? s->history : "", s->history ? "; " : "", line);
    int rc = nn_model_set_meta_str(s->m, "avi_history", all);
    free(all);
    return rc;
}

/* ---- the record -------------------------------------------------------- */

int trn_avi_record(const struct trn_avi_opts *o, const struct avi_state *s)
{
    char spec[NN_SPEC_MAX], seed[32], floor[128];
    int rc = nn_spec_format(nn_model_spec(s->m), NULL, spec, sizeof spec);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    snprintf(floor, sizeof floor, "%s", floor_name(o));
    int boot = o->method == TRN_AVI_BOOT;
    struct {
        const char *k;
        double v;
    } nums[] = {{"avi_rounds", s->round},
                {"avi_steps", (double)s->steps},
                {"avi_samples", (double)s->samples},
                {"avi_seconds", s->seconds},
                {"avi_threads", o->threads},
                {"avi_batch", o->batch},
                {"avi_steps_per_round", o->steps_per_round},
                {"avi_lr", o->lr},
                {"avi_lr_decay", o->lr_decay},
                {"avi_walk_max", o->walk_max},
                {"avi_updates", s->updates},
                {"avi_update_loss", o->update_loss},
                {"avi_clamp", o->clamp},
                {"avi_integer_targets", o->integer_targets},
                {"avi_parity", o->parity != NULL},
                {"avi_walk_targets", o->walk_targets},
                {"avi_q_outputs", o->teacher_q ? trn_avi_outputs(o) : 0},
                {"avi_target_q8", o->target_q8},
                {"avi_lookahead", o->lookahead},
                {"avi_uniform_share", o->uniform_share},
                {"avi_start_share", o->start_share},
                {"avi_start_walk", o->start_walk},
                {"avi_start_boards", (double)(o->start_share > 0 ? o->nstart : 0)},
                {"avi_table", o->table},
                {"avi_lr_cosine", o->lr_cosine},
                {"avi_boards", boot ? o->boards : 0},
                {"avi_budget", boot ? (double)s->budget : 0},
                {"avi_weight", boot ? o->weight : 0},
                {"avi_walk", boot ? s->walk : 0}};
    struct {
        const char *k, *v;
    } strs[] = {{"avi_method", boot ? "bootstrap (Arfaee, Zilles & Holte 2011)"
                                    : "davi (DeepCubeA approximate value iteration)"},
                {"avi_labels", o->teacher
                                   ? "none: the teacher network's values (distillation)"
                                   : "none: targets from the network itself (and the floor); no "
                                     "optimal label"},
                {"avi_q_targets", !o->teacher_q ? "none: one output"
                                  : o->teacher  ? "the teacher's value of each child"
                                                : "Bellman: each child's least cost + output "
                                                  "over its moves (the target network)"},
                {"avi_floor", floor},
                {"train_spec", spec},
                {"train_seed", seed},
                {"train_revision", hn_revision()},
                {"train_version", hn_version()}};
    for (size_t i = 0; !rc && i < sizeof nums / sizeof nums[0]; i++)
        rc = nn_model_set_meta_double(s->m, nums[i].k, nums[i].v);
    for (size_t i = 0; !rc && i < sizeof strs / sizeof strs[0]; i++)
        rc = nn_model_set_meta_str(s->m, strs[i].k, strs[i].v);
    if (!rc && o->init)
        rc = nn_model_set_meta_str(s->m, "train_init_from", o->init);
    if (!rc && o->residual)
        rc = nn_model_set_meta_str(s->m, "residual", o->residual_spec);
    if (!rc && o->teacher && o->teacher_name)
        rc = nn_model_set_meta_str(s->m, "avi_teacher", o->teacher_name);
    if (!rc && o->start_share > 0 && o->start_name)
        rc = nn_model_set_meta_str(s->m, "avi_start_from", o->start_name);
    return rc ? rc : record_history(o, s);
}

/* ---- the loop ---------------------------------------------------------- */

static int one_round(const struct trn_avi_opts *o, struct avi_state *s)
{
    struct trn_avi_round r = {0};
    double t0 = hn_now();
    int rc =
        o->method == TRN_AVI_BOOT ? trn_avi_boot_round(o, s, &r) : trn_avi_davi_round(o, s, &r);
    double dt = hn_now() - t0;
    if (rc == HN_ERR_INTERRUPTED)
        return rc; /* the round is redone on resume */
    if (rc)
        return rc;
    s->round++;
    s->seconds += dt;
    r.round = s->round;
    r.steps = s->steps;
    r.samples = s->samples;
    r.updates = s->updates;
    r.seconds = dt;
    r.total_seconds = s->seconds;
    r.model = s->m;
    /* The round's line first, then the checkpoint that claims the round: a
     * kill between the two leaves a line the resumed run writes again (the
     * command line drops the stale one), never a round without its line. */
    if (o->on_round)
        o->on_round(&r, o->round_user);
    if (o->checkpoint && (rc = trn_avi_ckpt_lead(o->checkpoint, o, s)))
        return rc;
    return HN_OK;
}

int trn_avi_run(const struct trn_avi_opts *o, nn_model **out)
{
    struct avi_state s;
    *out = NULL;
    int rc = check_opts(o);
    if (rc)
        return rc;
    rc = trn_comm_agree(o->comm, setup(o, &s)); /* no process goes on alone */
    while (!rc && s.round < o->rounds)
        rc = one_round(o, &s);
    if (rc == HN_ERR_INTERRUPTED && o->checkpoint && s.m && s.a) {
        /* Steps of the unfinished round are kept; the round itself is redone. */
        int c = trn_avi_ckpt_lead(o->checkpoint, o, &s);
        rc = c ? c : rc;
    }
    if (!rc)
        rc = trn_avi_record(o, &s);
    if (!rc) {
        *out = s.m;
        s.m = NULL;
    }
    state_free(&s);
    return rc;
}
