/* DAVI on any domain (o->dom): states from random walks back from the goal
 * (or drawn uniformly), each labelled by the Bellman backup through the
 * frozen target network over o->lookahead moves, on the domain's expand,
 * encoding and heuristics. The n-puzzle of widths 3..5 keeps its own
 * specialised path (avi_davi.c); the rest of a run (Adam steps,
 * checkpoints, records, several processes) is shared. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/sparse.h"
#include "train/avi_private.h"

_Static_assert(sizeof(int) == sizeof(int32_t), "dom_encode writes int32_t, nn/sparse.h reads int");

#define CHUNK 1024 /* states per job */
#define EVAL 512   /* network rows per call */

struct dom_job {
    const struct trn_avi_opts *o;
    const nn_sparse *net; /* the frozen network, or NULL (h = 0) */
    int outs;             /* its outputs per row */
    uint8_t *s;           /* the round's states, state_bytes each */
    int *walk;            /* walk length, -1 for a uniform state */
    float *y;
    int *raised;
    int *base; /* residual heuristic per state, or NULL */
    size_t n;
    uint64_t seed;
};

static int draw_states(const struct dom_job *j, size_t lo, size_t hi, uint64_t chunk)
{
    const struct trn_avi_opts *o = j->o;
    hn_rng *r = hn_rng_new(hn_seed_mix(j->seed, chunk));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    size_t sb = dom_state_bytes(o->dom);
    int rc = 0;
    for (size_t i = lo; !rc && i < hi; i++) {
        uint8_t *s = j->s + i * sb;
        double u = o->uniform_share > 0 ? hn_rng_uniform(r) : 1.0;
        if (u < o->uniform_share) {
            j->walk[i] = -1;
            rc = dom_random_state(o->dom, s, r);
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
static int estimate(const struct dom_job *j, nn_sparse *sp, int32_t *acc, const uint8_t *s,
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

/* The network's outputs (j->outs per state) for n states through a
 * workspace of this thread's own (j->net's weights). */
static int net_values(const struct dom_job *j, const uint8_t *s, size_t n, float *h)
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

/* Value v of non-goal state st raised to its floor fl and, with --parity,
 * rounded to the distance's parity; *raised is 1 when the floor decided. */
static double settle(const struct trn_avi_opts *o, const uint8_t *st, double v, int fl, int *raised)
{
    if (o->dom_parity) {
        int p = dom_heur_eval(o->dom_parity, st) & 1;
        v = parity_round(v, p);
        fl += (fl ^ p) & 1; /* the distance has parity p and is >= fl */
    }
    *raised = fl > v;
    return *raised ? fl : v;
}

/* Leaves: 0 at the goal, else max(child value, floor), the child value
 * being the target network's estimate (with the residual heuristic added),
 * or before the first target network the residual heuristic alone (0
 * without one), so round 1 already backs up the residual. */
static int leaf_values(const struct dom_job *j, struct level *l)
{
    const struct trn_avi_opts *o = j->o;
    const dom *d = o->dom;
    size_t sb = dom_state_bytes(d), n = l->n ? l->n : 1;
    float *h = malloc(sizeof *h * n);
    int rc = h ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    int same_floor = o->dom_floor && o->dom_residual &&
                     !strcmp(dom_heur_name(o->dom_floor), dom_heur_name(o->dom_residual));
    if (!rc && j->net)
        rc = net_values(j, l->s, l->n, h);
    for (size_t m = 0; !rc && m < l->n; m++) {
        const uint8_t *st = l->s + m * sb;
        if (dom_is_goal(d, st)) {
            l->v[m] = 0.0;
            l->up[m] = 0;
            continue;
        }
        /* a floor named as the residual is the same table: one lookup */
        int base = o->dom_residual ? dom_heur_eval(o->dom_residual, st) : 0;
        double v = j->net ? trn_avi_child_value(o, h[m] + (float)base) : base;
        int fl = !o->dom_floor ? 0 : same_floor ? base : dom_heur_eval(o->dom_floor, st);
        l->v[m] = settle(o, st, v, fl, &l->up[m]);
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

static int chunk_targets(const struct dom_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d);
    struct level lv[TRN_AVI_MAX_LOOKAHEAD + 1] = {{0}};
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
        else if (j->walk[b] >= 0 && j->o->clamp && j->y[b] > (float)j->walk[b])
            j->y[b] = (float)j->walk[b], j->raised[b] = 0;
    }
    lv[0].s = NULL; /* the round's own states */
    for (int k = 0; k <= depth; k++)
        level_free(&lv[k]);
    return rc;
}

/* Distillation targets of states [lo, hi): the teacher's values (over the
 * run's residual heuristic when there is one, the teacher's too). */
static int chunk_distill(const struct dom_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d);
    int rc = net_values(j, j->s + lo * sb, hi - lo, j->y + lo);
    for (size_t i = lo; !rc && i < hi; i++) {
        j->y[i] = dom_is_goal(d, j->s + i * sb) ? 0.0f : j->y[i] + (j->base ? j->base[i] : 0);
        j->raised[i] = 0;
    }
    return rc;
}

/* Q targets of states [lo, hi): per state, one value per move, the
 * teacher's value of the child it leads to (0 at a goal), or for a move
 * that does not apply the teacher's value of the state + 1. */
static int chunk_q_targets(const struct dom_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d), n = hi - lo;
    /* rows: the n states, then every child */
    uint8_t *rows = malloc(sb * n * (nm + 1)), *mv = malloc(n * nm), q[DOM_MAX_MOVES];
    int *kids = malloc(sizeof *kids * n);
    float *h = malloc(sizeof *h * n * (nm + 1));
    int rc = rows && mv && kids && h ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    size_t nr = n;
    if (!rc)
        memcpy(rows, j->s + lo * sb, sb * n);
    for (size_t i = 0; !rc && i < n; i++) {
        kids[i] =
            dom_expand(d, j->s + (lo + i) * sb, DOM_PRUNE_ROOT, rows + nr * sb, mv + i * nm, q);
        nr += (size_t)kids[i];
    }
    if (!rc)
        rc = net_values(j, rows, nr, h);
    for (size_t i = 0, r = n; !rc && i < n; i++) {
        float *y = j->y + (lo + i) * nm;
        for (size_t a = 0; a < nm; a++)
            y[a] = h[i] + 1.0f;
        for (int c = 0; c < kids[i]; c++, r++)
            y[mv[i * nm + (size_t)c]] = dom_is_goal(d, rows + r * sb) ? 0.0f : h[r];
        j->raised[lo + i] = 0;
    }
    free(h);
    free(kids);
    free(mv);
    free(rows);
    return rc;
}

/* A Q run's children: their states, the moves that lead to them, per
 * child the moves that apply from it and whether one reaches the goal. */
struct qkids {
    uint8_t *s, *mv, *legal, *near;
    int *k;    /* children per state */
    float *h;  /* the target network's outputs, nmoves per child */
    double *v; /* each child's value */
};

static void qkids_free(struct qkids *c)
{
    free(c->s);
    free(c->mv);
    free(c->legal);
    free(c->near);
    free(c->k);
    free(c->h);
    free(c->v);
}

/* The children of states [lo, hi) and one move further: which moves apply
 * and whether one reaches the goal (that child is then exactly 1 away). */
static int qkids_expand(const struct dom_job *j, size_t lo, size_t hi, struct qkids *c, size_t *nr)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d), n = hi - lo, most = n * nm;
    uint8_t q[DOM_MAX_MOVES], gm[DOM_MAX_MOVES], *g = malloc(sb * nm);
    *c = (struct qkids){.s = malloc(sb * most),
                        .mv = malloc(most),
                        .legal = calloc(most, nm),
                        .near = calloc(most, 1),
                        .k = malloc(sizeof *c->k * n),
                        .h = malloc(sizeof *c->h * most * nm),
                        .v = malloc(sizeof *c->v * most)};
    if (!g || !c->s || !c->mv || !c->legal || !c->near || !c->k || !c->h || !c->v) {
        free(g);
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    }
    *nr = 0;
    for (size_t i = 0; i < n; i++) {
        c->k[i] =
            dom_expand(d, j->s + (lo + i) * sb, DOM_PRUNE_ROOT, c->s + *nr * sb, c->mv + i * nm, q);
        *nr += (size_t)c->k[i];
    }
    for (size_t r = 0; r < *nr; r++) {
        int k = dom_expand(d, c->s + r * sb, DOM_PRUNE_ROOT, g, gm, q);
        for (int a = 0; a < k; a++) {
            c->legal[r * nm + gm[a]] = 1;
            c->near[r] |= dom_is_goal(d, g + (size_t)a * sb);
        }
    }
    free(g);
    return HN_OK;
}

/* Child r's value for a Q run's Bellman targets: 0 at the goal, 1 next to
 * it, else the least 1 + output over the moves that apply from it (the
 * parentless value a search uses; 1 before the first target network or
 * when no move applies), then settled to the floor and parity as the
 * leaves of a backup are. Returns 1 when the floor raised it. */
static int q_child_value(const struct dom_job *j, const struct qkids *c, size_t r)
{
    const struct trn_avi_opts *o = j->o;
    size_t sb = dom_state_bytes(o->dom), nm = (size_t)dom_nmoves(o->dom);
    const uint8_t *st = c->s + r * sb;
    int goal = dom_is_goal(o->dom, st), raised = 0;
    if (goal || c->near[r]) {
        c->v[r] = goal ? 0.0 : 1.0;
        return 0;
    }
    double v = INFINITY;
    for (size_t a = 0; j->net && a < nm; a++)
        if (c->legal[r * nm + a])
            v = fmin(v, 1.0 + trn_avi_child_value(o, c->h[r * nm + a]));
    int fl = o->dom_floor ? dom_heur_eval(o->dom_floor, st) : 0;
    c->v[r] = settle(o, st, isfinite(v) ? v : 1.0, fl, &raised);
    return raised;
}

/* Bellman Q targets of states [lo, hi) (teacher_q without a teacher): per
 * state, output m is the value of the child move m leads to (q_child_value,
 * through the target network's row of that child), or for a move that does
 * not apply the state's own value + 1; with the clamp at most the walk
 * length + 1, as a child of a state k moves from the goal is at most k + 1
 * away. */
static int chunk_q_bellman(const struct dom_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d), nr = 0;
    struct qkids c;
    int rc = qkids_expand(j, lo, hi, &c, &nr);
    if (!rc && j->net)
        rc = net_values(j, c.s, nr, c.h);
    for (size_t i = lo, r = 0; !rc && i < hi; i++) {
        float *y = j->y + i * nm;
        size_t r0 = r;
        double vs = dom_is_goal(d, j->s + i * sb) ? 0.0 : INFINITY;
        j->raised[i] = 0;
        for (int k = 0; k < c.k[i - lo]; k++, r++) {
            j->raised[i] |= q_child_value(j, &c, r);
            vs = 1.0 + c.v[r] < vs ? 1.0 + c.v[r] : vs;
        }
        vs = isfinite(vs) ? vs : 0.0; /* no move applies: outputs no search reads */
        double cap = j->walk[i] >= 0 && j->o->clamp ? j->walk[i] + 1.0 : INFINITY;
        for (size_t a = 0; a < nm; a++)
            y[a] = (float)fmin(vs + 1.0, cap);
        for (int k = 0; k < c.k[i - lo]; k++)
            y[c.mv[(i - lo) * nm + (size_t)k]] = (float)fmin(c.v[r0 + (size_t)k], cap);
    }
    qkids_free(&c);
    return rc;
}

static int dom_chunk(void *user, int job)
{
    const struct dom_job *j = user;
    size_t lo = (size_t)job * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    int rc = draw_states(j, lo, hi, (uint64_t)job);
    size_t sb = dom_state_bytes(j->o->dom);
    for (size_t i = lo; !rc && j->base && i < hi; i++) /* the distillation adds it */
        j->base[i] = dom_heur_eval(j->o->dom_residual, j->s + i * sb);
    if (!rc && j->o->walk_targets)
        for (size_t i = lo; i < hi; i++) /* the diffusion distance: no backup */
            j->y[i] = (float)j->walk[i], j->raised[i] = 0;
    else if (j->o->teacher)
        rc = rc ? rc : j->o->teacher_q ? chunk_q_targets(j, lo, hi) : chunk_distill(j, lo, hi);
    else if (j->o->teacher_q)
        rc = rc ? rc : chunk_q_bellman(j, lo, hi);
    else
        rc = rc ? rc : chunk_targets(j, lo, hi);
    return rc;
}

static int run_jobs(struct dom_job *j, const nn_model *target)
{
    int rc = 0;
    if (!trn_avi_uses_target(j->o)) /* the walk length or the teacher's values */
        target = j->o->teacher;
    nn_sparse *net =
        target ? nn_sparse_new(target, j->o->target_q8 ? NN_SPARSE_Q8 : NN_SPARSE_FLOAT, 1, &rc)
               : NULL;
    if (target && !net)
        return rc ? rc : HN_ERR_NOMEM;
    j->net = net;
    j->outs = target ? nn_model_outputs(target) : 1;
    int njobs = (int)((j->n + CHUNK - 1) / CHUNK);
    rc = trn_avi_parallel_part(j->o, njobs, dom_chunk, j);
    nn_sparse_free(net);
    size_t sb = dom_state_bytes(j->o->dom);
    if (!rc)
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

static int targets_and_order(const struct trn_avi_opts *o, struct avi_state *s, struct dom_job *j,
                             uint32_t *perm, struct trn_avi_round *r)
{
    double t0 = hn_now();
    nn_blas_threads(1);
    int rc = run_jobs(j, s->target);
    nn_blas_threads(o->blas_threads);
    r->target_seconds = hn_now() - t0;
    return rc ? rc
              : trn_avi_round_finish(o, s, j->y, (size_t)trn_avi_outputs(o), j->raised, j->base,
                                     j->n, perm, r);
}

int trn_avi_dom_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
    size_t n = (size_t)o->batch * (size_t)o->steps_per_round, sb = dom_state_bytes(o->dom);
    struct dom_job j = {
        .o = o, .n = n, .seed = hn_seed_mix(o->seed, 0x5000000ull + (uint64_t)s->round)};
    j.s = malloc(sb * n);
    j.walk = malloc(sizeof *j.walk * n);
    j.y = malloc(sizeof *j.y * n * (size_t)trn_avi_outputs(o));
    j.raised = malloc(sizeof *j.raised * n);
    j.base = o->dom_residual ? malloc(sizeof *j.base * n) : NULL;
    uint32_t *perm = malloc(sizeof *perm * n);
    int rc = j.s && j.walk && j.y && j.raised && perm && (j.base || !o->dom_residual)
                 ? HN_OK
                 : hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = targets_and_order(o, s, &j, perm, r);
    if (!rc)
        rc = trn_avi_fit(o, s, j.s, j.y, perm, o->steps_per_round, &r->loss);
    if (!rc && (o->update_loss <= 0 || r->loss < o->update_loss)) {
        rc = trn_avi_lockstep(o, s->m);
        if (trn_avi_uses_target(o)) { /* else no copy is run: none to replace */
            rc = rc ? rc : trn_avi_update_target(s);
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
