/* DAVI (Agostinelli et al., DeepCubeA, 2019) on any domain: states from
 * random walks back from the goal (or drawn uniformly, or walked on from
 * given start states), each labelled by the Bellman backup through the
 * frozen target network over o->lookahead moves, on the domain's expand,
 * encoding and heuristics, in chunks on several threads with batched
 * network calls; or by a teacher network, or by the walk length. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/sparse.h"
#include "train/avi_private.h"

_Static_assert(sizeof(int) == sizeof(int32_t), "dom_encode writes int32_t, nn/sparse.h reads int");

#define CHUNK 1024 /* states per job */
#define EVAL 512   /* network rows per call */

static int draw_states(const struct trn_avi_job *j, size_t lo, size_t hi, uint64_t chunk)
{
    const struct trn_avi_opts *o = j->o;
    hn_rng *r = hn_rng_new(hn_seed_mix(j->seed, chunk));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    size_t sb = dom_state_bytes(o->dom);
    int rc = 0;
    for (size_t i = lo; !rc && i < hi; i++) {
        uint8_t *s = j->s + i * sb;
        /* a uniform or a start state knows no bound on its distance: no clamp */
        double u = o->uniform_share > 0 || o->start_share > 0 ? hn_rng_uniform(r) : 1.0;
        if (u < o->uniform_share) {
            j->walk[i] = -1;
            rc = dom_random_state(o->dom, s, r);
            continue;
        }
        if (u < o->uniform_share + o->start_share) {
            j->walk[i] = -1;
            memcpy(s, o->start_states + hn_rng_below(r, (uint32_t)o->nstart) * sb, sb);
            dom_walk(o->dom, s, (int)hn_rng_below(r, (uint32_t)o->start_walk + 1), r);
            continue;
        }
        j->walk[i] = (int)hn_rng_below(r, (uint32_t)o->walk_max + 1);
        dom_goal(o->dom, s);
        dom_walk(o->dom, s, j->walk[i], r);
    }
    hn_rng_free(r);
    return rc;
}

/* One level of the look-ahead tree: states, each one's parent index in the
 * level above, its pruning-automaton state, value, and floor flag. */
struct level {
    uint8_t *s;
    size_t *par;
    uint8_t *q;
    double *v;
    int *up;
    size_t n;
};

static void level_free(struct level *l)
{
    free(l->s);
    free(l->par);
    free(l->q);
    free(l->v);
    free(l->up);
}

static int level_alloc(struct level *l, size_t cap, size_t sb)
{
    cap = cap ? cap : 1;
    *l = (struct level){.s = malloc(sb * cap),
                        .par = malloc(sizeof *l->par * cap),
                        .q = malloc(cap),
                        .v = malloc(sizeof *l->v * cap),
                        .up = malloc(sizeof *l->up * cap)};
    if (l->s && l->par && l->q && l->v && l->up)
        return HN_OK;
    level_free(l);
    *l = (struct level){0};
    return hn_fail(HN_ERR_NOMEM, "out of memory");
}

/* Children of `from` into `to` under the pruning automaton; goals below the
 * roots are not expanded (their value is 0). */
static int expand_level(const dom *d, const struct level *from, int root, struct level *to)
{
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d);
    int rc = level_alloc(to, nm * from->n, sb);
    uint8_t moves[DOM_MAX_MOVES];
    for (size_t i = 0; !rc && i < from->n; i++) {
        const uint8_t *st = from->s + i * sb;
        if (!root && dom_is_goal(d, st))
            continue;
        int k = dom_expand(d, st, root ? DOM_PRUNE_ROOT : from->q[i], to->s + to->n * sb, moves,
                           to->q + to->n);
        for (int c = 0; c < k; c++)
            to->par[to->n + (size_t)c] = i;
        to->n += (size_t)k;
    }
    return rc;
}

/* The outputs of sp's network (the target network or the teacher) for n
 * states (without the residual). */
static int estimate(const struct trn_avi_job *j, nn_sparse *sp, int32_t *acc, const uint8_t *s,
                    size_t n, float *h)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), stride = (size_t)nn_sparse_acc_stride(sp);
    int act[DOM_MAX_ACTIVE]; /* dom_encode's int32_t, nn/sparse.h's int */
    for (size_t lo = 0; lo < n; lo += EVAL) {
        size_t k = n - lo < EVAL ? n - lo : EVAL;
        for (size_t i = 0; i < k; i++) {
            int na = dom_encode(d, s + (lo + i) * sb, act);
            nn_sparse_acc_init(sp, act, na, acc + i * stride);
        }
        int rc = nn_sparse_run(sp, acc, (int)k, h + lo * (size_t)j->outs);
        if (rc)
            return rc;
    }
    return HN_OK;
}

int trn_avi_net_values(const struct trn_avi_job *j, const uint8_t *s, size_t n, float *h)
{
    nn_sparse *sp = nn_sparse_clone(j->net, EVAL, NULL);
    int32_t *acc = sp ? nn_sparse_acc_alloc(sp, EVAL) : NULL;
    int rc = acc ? estimate(j, sp, acc, s, n, h) : hn_fail(HN_ERR_NOMEM, "out of memory");
    free(acc);
    nn_sparse_free(sp);
    return rc;
}

/* v rounded to the nearest integer of parity p (at least p). When a
 * domain's distance parity is known (the cube's corner permutation, the
 * n-puzzle's Manhattan distance), a leaf whose value is off by less than 1
 * is then exact, so the min over many noisy children no longer drags the
 * targets down round after round. */
static double parity_round(double v, int p)
{
    double r = p + 2.0 * floor((v - p) / 2.0 + 0.5);
    return r < p ? p : r;
}

double trn_avi_settle(const struct trn_avi_opts *o, const uint8_t *st, double v, int fl,
                      int *raised)
{
    if (o->parity) {
        int p = dom_heur_eval(o->parity, st) & 1;
        v = parity_round(v, p);
        fl += (fl ^ p) & 1; /* the distance has parity p and is >= fl */
    }
    *raised = fl > v;
    return *raised ? fl : v;
}

/* A child's value from the network: never below 0. With integer targets it
 * is also rounded to the nearest integer. With unit costs the backup is then
 * the exact discrete Bellman operator on a network whose error is below 0.5
 * everywhere, so such an error no longer compounds from update to update. */
double trn_avi_child_value(const struct trn_avi_opts *o, float h)
{
    double v = h > 0 ? (double)h : 0.0;
    return o->integer_targets ? floor(v + 0.5) : v;
}

/* Leaves from the target table (the values leaf_values gave every state). */
static int leaf_lookup(const struct trn_avi_job *j, struct level *l)
{
    size_t sb = dom_state_bytes(j->o->dom);
    for (size_t m = 0; m < l->n; m++) {
        int64_t k = trn_avi_table_find(j->o, j->tab, l->s + m * sb);
        if (k < 0)
            return hn_fail(HN_ERR_ARG, "%s: a state outside the target table", dom_spec(j->o->dom));
        l->v[m] = j->tab->value[k];
        l->up[m] = j->tab->raised[k];
    }
    return HN_OK;
}

/* Leaves: 0 at the goal, else max(child value, floor), the child value
 * being the target network's estimate (with the residual heuristic added),
 * or before the first target network the residual heuristic alone (0
 * without one), so round 1 already backs up the residual. */
static int leaf_values(const struct trn_avi_job *j, struct level *l)
{
    if (j->tab)
        return leaf_lookup(j, l);
    const struct trn_avi_opts *o = j->o;
    const dom *d = o->dom;
    size_t sb = dom_state_bytes(d), n = l->n ? l->n : 1;
    float *h = malloc(sizeof *h * n);
    int rc = h ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    int same_floor =
        o->floor && o->residual && !strcmp(dom_heur_name(o->floor), dom_heur_name(o->residual));
    if (!rc && j->net)
        rc = trn_avi_net_values(j, l->s, l->n, h);
    for (size_t m = 0; !rc && m < l->n; m++) {
        const uint8_t *st = l->s + m * sb;
        if (dom_is_goal(d, st)) {
            l->v[m] = 0.0;
            l->up[m] = 0;
            continue;
        }
        /* a floor named as the residual is the same table: one lookup */
        int base = o->residual ? dom_heur_eval(o->residual, st) : 0;
        double v = j->net ? trn_avi_child_value(o, h[m] + (float)base) : base;
        int fl = !o->floor ? 0 : same_floor ? base : dom_heur_eval(o->floor, st);
        l->v[m] = trn_avi_settle(o, st, v, fl, &l->up[m]);
    }
    free(h);
    return rc;
}

/* Each state of `up` gets min over its children of cost + value. */
static void back_up(const dom *d, struct level *up, const struct level *kids, int root)
{
    size_t sb = dom_state_bytes(d);
    for (size_t i = 0; i < up->n; i++) {
        up->v[i] = !root && dom_is_goal(d, up->s + i * sb) ? 0.0 : INFINITY;
        up->up[i] = 0;
    }
    for (size_t m = 0; m < kids->n; m++) {
        size_t i = kids->par[m];
        if (1.0 + kids->v[m] < up->v[i]) { /* unit costs (checked at the start) */
            up->v[i] = 1.0 + kids->v[m];
            up->up[i] = kids->up[m];
        }
    }
}

static int chunk_targets(const struct trn_avi_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d);
    struct level lv[TRN_AVI_MAX_TABLE_LOOKAHEAD + 1] = {{0}};
    int depth = j->o->lookahead > 1 ? j->o->lookahead : 1, rc = HN_OK;
    size_t n = hi - lo;
    lv[0] = (struct level){.s = j->s + lo * sb,
                           .n = n,
                           .v = malloc(sizeof *lv[0].v * n),
                           .up = malloc(sizeof *lv[0].up * n)};
    if (!lv[0].v || !lv[0].up)
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int k = 1; !rc && k <= depth; k++)
        rc = expand_level(d, &lv[k - 1], k == 1, &lv[k]);
    if (!rc)
        rc = leaf_values(j, &lv[depth]);
    for (int k = depth - 1; !rc && k >= 0; k--)
        back_up(d, &lv[k], &lv[k + 1], k == 0);
    for (size_t i = 0; !rc && i < n; i++) {
        size_t b = lo + i;
        j->y[b] = (float)lv[0].v[i];
        j->raised[b] = lv[0].up[i];
        if (dom_is_goal(d, j->s + b * sb))
            j->y[b] = 0.0f, j->raised[b] = 0;
        else if (j->walk && j->walk[b] >= 0 && j->o->clamp && j->y[b] > (float)j->walk[b])
            j->y[b] = (float)j->walk[b], j->raised[b] = 0;
    }
    lv[0].s = NULL; /* the round's own states */
    for (int k = 0; k <= depth; k++)
        level_free(&lv[k]);
    return rc;
}

static int dom_chunk(void *user, int job)
{
    const struct trn_avi_job *j = user;
    size_t lo = (size_t)job * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    int rc = j->generate ? draw_states(j, lo, hi, (uint64_t)job) : HN_OK;
    size_t sb = dom_state_bytes(j->o->dom);
    for (size_t i = lo; !rc && j->base && i < hi; i++) /* the distillation adds it */
        j->base[i] = dom_heur_eval(j->o->residual, j->s + i * sb);
    if (!rc && j->o->walk_targets)
        for (size_t i = lo; i < hi; i++) /* the diffusion distance: no backup */
            j->y[i] = (float)j->walk[i], j->raised[i] = 0;
    else if (j->o->teacher)
        rc = rc                ? rc
             : j->o->teacher_q ? trn_avi_chunk_q_teacher(j, lo, hi)
                               : trn_avi_chunk_distill(j, lo, hi);
    else if (j->o->teacher_q)
        rc = rc ? rc : trn_avi_chunk_q_bellman(j, lo, hi);
    else
        rc = rc ? rc : chunk_targets(j, lo, hi);
    return rc;
}

/* The network the jobs run: the frozen target network, or the teacher; NULL
 * (and 0) when there is none or the leaves are table lookups. */
static int open_net(const struct trn_avi_opts *o, const nn_model *m, nn_sparse **net)
{
    int rc = 0;
    *net = m ? nn_sparse_new(m, o->target_q8 ? NN_SPARSE_Q8 : NN_SPARSE_FLOAT, 1, &rc) : NULL;
    return m && !*net ? (rc ? rc : HN_ERR_NOMEM) : HN_OK;
}

#define TABLE_JOB 8192 /* table states per job */

/* The leaf values of one job's table states. */
static int table_chunk(void *user, int job)
{
    const struct trn_avi_job *j = user;
    struct trn_avi_table *t = j->fill;
    size_t sb = dom_state_bytes(j->o->dom), lo = (size_t)job * TABLE_JOB;
    size_t hi = lo + TABLE_JOB < t->n ? lo + TABLE_JOB : t->n;
    struct level l = {.s = t->states + lo * sb,
                      .n = hi - lo,
                      .v = malloc(sizeof *l.v * TABLE_JOB),
                      .up = malloc(sizeof *l.up * TABLE_JOB)};
    int rc = hn_stop_requested() ? HN_ERR_INTERRUPTED
             : l.v && l.up       ? leaf_values(j, &l)
                                 : hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !rc && i < l.n; i++) {
        t->value[lo + i] = (float)l.v[i];
        t->raised[lo + i] = (uint8_t)l.up[i];
    }
    free(l.v);
    free(l.up);
    return rc;
}

int trn_avi_table_build(const struct trn_avi_opts *o, const nn_model *target,
                        struct trn_avi_table *t)
{
    nn_sparse *net = NULL;
    int rc = trn_avi_table_states(o, t);
    if (!rc)
        rc = open_net(o, target, &net);
    struct trn_avi_job j = {.o = o, .net = net, .outs = 1, .fill = t};
    /* every process builds the whole table (a second for 181,440 states) */
    if (!rc)
        rc = trn_avi_parallel(o->threads, (int)((t->n + TABLE_JOB - 1) / TABLE_JOB), table_chunk,
                              &j);
    nn_sparse_free(net);
    return rc;
}

static int run_jobs(struct trn_avi_job *j, const nn_model *target)
{
    if (!trn_avi_uses_target(j->o)) /* the walk length or the teacher's values */
        target = j->o->teacher;
    nn_sparse *net = NULL;
    int rc = open_net(j->o, j->tab ? NULL : target, &net);
    if (rc)
        return rc;
    j->net = net;
    j->outs = target ? nn_model_outputs(target) : 1;
    int njobs = (int)((j->n + CHUNK - 1) / CHUNK);
    rc = trn_avi_parallel_part(j->o, njobs, dom_chunk, j);
    nn_sparse_free(net);
    size_t sb = dom_state_bytes(j->o->dom);
    if (!rc && j->generate)
        rc = trn_avi_share(j->o, j->s, sb, njobs, CHUNK, j->n);
    if (!rc)
        rc = trn_avi_share(j->o, j->y, sizeof *j->y * (size_t)trn_avi_outputs(j->o), njobs, CHUNK,
                           j->n);
    if (!rc)
        rc = trn_avi_share(j->o, j->raised, sizeof *j->raised, njobs, CHUNK, j->n);
    if (!rc && j->base)
        rc = trn_avi_share(j->o, j->base, sizeof *j->base, njobs, CHUNK, j->n);
    return rc;
}

int trn_avi_targets(const struct trn_avi_opts *o, const nn_model *target, const uint8_t *states,
                    const int *walk, size_t n, float *y)
{
    if (!o->dom || o->teacher || o->teacher_q || o->walk_targets)
        return hn_fail(HN_ERR_ARG, "Bellman targets need a domain and no teacher, Q network or "
                                   "walk targets");
    int *raised = malloc(sizeof(int) * (n ? n : 1));
    if (!raised)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    struct trn_avi_opts alone = *o; /* all n states in this process */
    alone.comm = NULL;
    struct trn_avi_job j = {
        .o = &alone, .s = (uint8_t *)states, .walk = (int *)walk, .y = y, .raised = raised, .n = n};
    struct trn_avi_table tab = {0};
    nn_blas_threads(1);
    int rc = o->table ? trn_avi_table_build(&alone, target, &tab) : HN_OK;
    j.tab = o->table ? &tab : NULL;
    rc = rc ? rc : run_jobs(&j, target);
    trn_avi_table_free(&tab);
    free(raised);
    return rc;
}

/* Replace the target network by a copy of the trained one. */
static int update_target(struct avi_state *s)
{
    int rc = 0;
    nn_model *c = nn_model_clone(s->m, &rc);
    if (!c)
        return rc ? rc : HN_ERR_NOMEM;
    nn_model_free(s->target);
    s->target = c;
    s->updates++;
    return HN_OK;
}

/* perm = a shuffle of 0..n-1, seeded by the run's seed and round. */
static int shuffle(const struct trn_avi_opts *o, const struct avi_state *s, uint32_t *perm,
                   size_t n)
{
    hn_rng *g = hn_rng_new(hn_seed_mix(o->seed, 0xa0000000ull + (uint64_t)s->round));
    if (!g)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        perm[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        uint32_t k = hn_rng_below(g, (uint32_t)(i + 1)), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    hn_rng_free(g);
    return HN_OK;
}

/* After a round's targets (`per` per state, n states): their mean, max and
 * floor share into r, the residual base subtracted from y (base may be
 * NULL; per 1 then), perm shuffled. */
static int round_finish(const struct trn_avi_opts *o, const struct avi_state *s, float *y,
                        size_t per, const int *raised, const int *base, size_t n, uint32_t *perm,
                        struct trn_avi_round *r)
{
    double sum = 0, mx = 0, up = 0;
    for (size_t i = 0; i < n * per; i++) {
        sum += y[i];
        mx = y[i] > mx ? y[i] : mx;
    }
    for (size_t i = 0; i < n; i++)
        up += raised[i];
    r->target_mean = sum / (double)(n * per);
    r->target_max = mx;
    r->floor_share = up / (double)n;
    /* a residual network learns only the correction to its heuristic */
    for (size_t i = 0; base && i < n; i++)
        y[i] -= (float)base[i];
    return shuffle(o, s, perm, n);
}

static int targets_and_order(const struct trn_avi_opts *o, struct avi_state *s,
                             struct trn_avi_job *j, uint32_t *perm, struct trn_avi_round *r)
{
    double t0 = hn_now();
    nn_blas_threads(1);
    int rc = HN_OK;
    if (o->table && s->tab_built_at != s->updates) {
        rc = trn_avi_table_build(o, s->target, &s->tab);
        s->tab_built_at = rc ? -1 : s->updates;
    }
    j->tab = o->table ? &s->tab : NULL;
    rc = rc ? rc : run_jobs(j, s->target);
    nn_blas_threads(o->blas_threads);
    r->target_seconds = hn_now() - t0;
    return rc ? rc
              : round_finish(o, s, j->y, (size_t)trn_avi_outputs(o), j->raised, j->base, j->n, perm,
                             r);
}

int trn_avi_davi_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
    size_t n = (size_t)o->batch * (size_t)o->steps_per_round, sb = dom_state_bytes(o->dom);
    struct trn_avi_job j = {.o = o,
                            .n = n,
                            .generate = 1,
                            .seed = hn_seed_mix(o->seed, 0x5000000ull + (uint64_t)s->round)};
    j.s = malloc(sb * n);
    j.walk = malloc(sizeof *j.walk * n);
    j.y = malloc(sizeof *j.y * n * (size_t)trn_avi_outputs(o));
    j.raised = malloc(sizeof *j.raised * n);
    j.base = o->residual ? malloc(sizeof *j.base * n) : NULL;
    uint32_t *perm = malloc(sizeof *perm * n);
    int rc = j.s && j.walk && j.y && j.raised && perm && (j.base || !o->residual)
                 ? HN_OK
                 : hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = targets_and_order(o, s, &j, perm, r);
    if (!rc)
        rc = trn_avi_fit(o, s, j.s, j.y, perm, o->steps_per_round, &r->loss);
    /* DeepCubeA replaces the target network once the loss is small enough;
     * with no threshold it is replaced every round. */
    if (!rc && (o->update_loss <= 0 || r->loss < o->update_loss)) {
        rc = trn_avi_lockstep(o, s->m);
        if (trn_avi_uses_target(o)) { /* else no copy is run: none to replace */
            rc = rc ? rc : update_target(s);
            r->updated = 1;
        }
    }
    free(j.s);
    free(j.walk);
    free(j.y);
    free(j.raised);
    free(j.base);
    free(perm);
    return rc;
}
