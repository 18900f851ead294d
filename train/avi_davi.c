/* DAVI (Agostinelli et al., DeepCubeA, 2019): boards from random walks back
 * from the goal, each labelled with the one-step Bellman backup through a
 * frozen copy of the network, computed in chunks on several threads with
 * batched network calls. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/ann.h"
#include "train/avi_private.h"

#define CHUNK 2048 /* boards per job: one batch of up to 4 * CHUNK children */

struct davi_job {
    const struct trn_avi_opts *o;
    const srch_np_heur *net;         /* the frozen network as a heuristic, or NULL (h = 0) */
    const struct trn_avi_table *tab; /* its values of all boards (o->table), or NULL */
    srch_np_board *b;
    int *walk; /* walk length per board, -1 for a uniform board (NULL: no clamp) */
    float *y;
    int *raised;   /* per board: 1 if the floor decided the target */
    int *base;     /* per board: the residual heuristic, or NULL */
    uint8_t *rows; /* the boards' cells, row after row (NULL: not kept) */
    size_t n;
    int generate;  /* 1: draw the boards first (seeded per chunk) */
    uint64_t seed; /* of this round's walks */
};

static int draw_walks(const struct davi_job *j, size_t lo, size_t hi, uint64_t chunk)
{
    hn_rng *r = hn_rng_new(hn_seed_mix(j->seed, chunk));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    const struct trn_avi_opts *o = j->o;
    for (size_t i = lo; i < hi; i++) {
        /* a uniform or a start board knows no bound on its distance: no clamp */
        double u = o->uniform_share > 0 || o->start_share > 0 ? hn_rng_uniform(r) : 1.0;
        if (u < o->uniform_share) {
            j->walk[i] = -1;
            srch_np_board_random(&j->b[i], o->width, o->goal, r);
            continue;
        }
        if (u < o->uniform_share + o->start_share) {
            j->walk[i] = -1;
            j->b[i] = o->start_boards[hn_rng_below(r, (uint32_t)o->nstart)];
            srch_np_board_walk_on(&j->b[i], (int)hn_rng_below(r, (uint32_t)o->start_walk + 1), r);
            continue;
        }
        j->walk[i] = (int)hn_rng_below(r, (uint32_t)o->walk_max + 1);
        srch_np_board_random_walk(&j->b[i], o->width, o->goal, j->walk[i], r);
    }
    hn_rng_free(r);
    return HN_OK;
}

/* One level of the look-ahead tree below a chunk's boards: the boards, the
 * index of each one's parent in the level above, the move that made it, and
 * (filled bottom-up) its value and whether the floor decided that value. */
struct level {
    srch_np_board *b;
    size_t *par;
    int8_t *dir;
    double *v;
    int *up;
    size_t n;
};

static void level_free(struct level *l)
{
    free(l->b);
    free(l->par);
    free(l->dir);
    free(l->v);
    free(l->up);
}

static int level_alloc(struct level *l, size_t cap)
{
    cap = cap ? cap : 1;
    *l = (struct level){.b = malloc(sizeof *l->b * cap),
                        .par = malloc(sizeof *l->par * cap),
                        .dir = malloc(sizeof *l->dir * cap),
                        .v = malloc(sizeof *l->v * cap),
                        .up = malloc(sizeof *l->up * cap)};
    if (l->b && l->par && l->dir && l->v && l->up)
        return HN_OK;
    level_free(l);
    *l = (struct level){0};
    return hn_fail(HN_ERR_NOMEM, "out of memory");
}

/* The children of `from`'s boards into `to`, except the move that undoes
 * how a board was reached (from the roots: every move). A goal below the
 * roots is not expanded: its value is 0. */
static int expand(const struct trn_avi_opts *o, const struct level *from, int root,
                  struct level *to)
{
    int rc = level_alloc(to, 4 * from->n);
    for (size_t i = 0; !rc && i < from->n; i++) {
        if (!root && srch_np_board_is_goal(&from->b[i], o->goal))
            continue;
        for (int d = 0; d < 4; d++) {
            if (!root && d == (from->dir[i] ^ 1)) /* U<->D, L<->R */
                continue;
            to->b[to->n] = from->b[i];
            if (srch_np_board_move(&to->b[to->n], d) >= 0) {
                to->par[to->n] = i;
                to->dir[to->n++] = (int8_t)d;
            }
        }
    }
    return rc;
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

/* The leaves' values: 0 at the goal, else max(network, floor). */
static int leaf_values(const struct davi_job *j, struct level *l)
{
    float *h = j->net ? malloc(sizeof *h * (l->n ? l->n : 1)) : NULL;
    int *fl = j->o->floor ? malloc(sizeof *fl * (l->n ? l->n : 1)) : NULL;
    int rc =
        (h || !j->net) && (fl || !j->o->floor) ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!rc && j->net)
        rc = srch_np_heur_ann_estimate(j->net, l->b, l->n, h);
    if (!rc && j->o->floor)
        rc = srch_np_heur_eval_batch(j->o->floor, l->b, l->n, fl);
    for (size_t m = 0; !rc && m < l->n; m++) {
        double v = srch_np_board_is_goal(&l->b[m], j->o->goal) ? 0.0
                   : h                                         ? trn_avi_child_value(j->o, h[m])
                                                               : 0.0;
        l->up[m] = fl && fl[m] > v;
        l->v[m] = l->up[m] ? fl[m] : v;
    }
    free(h);
    free(fl);
    return rc;
}

/* Each board of `up` gets min over its children of 1 + value (0 at a goal
 * below the roots). */
static void back_up(const struct trn_avi_opts *o, struct level *up, const struct level *kids,
                    int root)
{
    for (size_t i = 0; i < up->n; i++) {
        up->v[i] = !root && srch_np_board_is_goal(&up->b[i], o->goal) ? 0.0 : INFINITY;
        up->up[i] = 0;
    }
    for (size_t m = 0; m < kids->n; m++) {
        size_t i = kids->par[m];
        if (1.0 + kids->v[m] < up->v[i]) {
            up->v[i] = 1.0 + kids->v[m];
            up->up[i] = kids->up[m];
        }
    }
}

/* Targets of boards lo..hi: the backup through lookahead levels of moves
 * (1: DAVI's one-step Bellman backup), then 0 at the goal and the clamp. */
static void clamp_targets(const struct davi_job *j, size_t lo, size_t hi)
{
    for (size_t b = lo; b < hi; b++) {
        if (srch_np_board_is_goal(&j->b[b], j->o->goal))
            j->y[b] = 0.0f, j->raised[b] = 0;
        else if (j->walk && j->walk[b] >= 0 && j->o->clamp && j->y[b] > (float)j->walk[b])
            j->y[b] = (float)j->walk[b], j->raised[b] = 0;
    }
}

static int lookahead(const struct davi_job *j, size_t lo, size_t hi)
{
    if (j->tab) {
        for (size_t b = lo; b < hi; b++)
            j->y[b] = (float)trn_avi_table_target(j->o, j->tab, &j->b[b], &j->raised[b]);
        clamp_targets(j, lo, hi);
        return HN_OK;
    }
    struct level lv[TRN_AVI_MAX_LOOKAHEAD + 1] = {{0}};
    int depth = j->o->lookahead > 1 ? j->o->lookahead : 1, rc = HN_OK;
    size_t n = hi - lo;
    lv[0] = (struct level){.b = j->b + lo,
                           .n = n,
                           .v = malloc(sizeof *lv[0].v * n),
                           .up = malloc(sizeof *lv[0].up * n)};
    if (!lv[0].v || !lv[0].up)
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int d = 1; !rc && d <= depth; d++)
        rc = expand(j->o, &lv[d - 1], d == 1, &lv[d]);
    if (!rc)
        rc = leaf_values(j, &lv[depth]);
    for (int d = depth - 1; !rc && d >= 0; d--)
        back_up(j->o, &lv[d], &lv[d + 1], d == 0);
    for (size_t i = 0; !rc && i < lv[0].n; i++) {
        j->y[lo + i] = (float)lv[0].v[i];
        j->raised[lo + i] = lv[0].up[i];
    }
    if (!rc)
        clamp_targets(j, lo, hi);
    lv[0].b = NULL; /* the chunk's own boards */
    for (int d = 0; d <= depth; d++)
        level_free(&lv[d]);
    return rc;
}

static int davi_chunk(void *user, int job)
{
    const struct davi_job *j = user;
    size_t lo = (size_t)job * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    if (j->generate && draw_walks(j, lo, hi, (uint64_t)job))
        return HN_ERR_NOMEM;
    int rc = lookahead(j, lo, hi);
    if (!rc && j->base)
        rc = srch_np_heur_eval_batch(j->o->residual, j->b + lo, hi - lo, j->base + lo);
    for (size_t i = lo; !rc && j->rows && i < hi; i++)
        memcpy(j->rows + i * j->b[i].ncells, j->b[i].tile, j->b[i].ncells);
    return rc;
}

static int run_jobs(struct davi_job *j, const nn_model *target)
{
    int rc = 0;
    srch_np_heur *net = NULL;
    if (target && !j->tab) {
        srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
        ao.cache_bits = 0; /* the boards of a round rarely repeat */
        ao.max_batch = 4 * CHUNK;
        net = trn_avi_net_heur(j->o, target, "target network", NULL, &ao, &rc);
        if (!net)
            return rc ? rc : HN_ERR_NOMEM;
    }
    j->net = net;
    int njobs = (int)((j->n + CHUNK - 1) / CHUNK);
    rc = trn_avi_parallel_part(j->o, njobs, davi_chunk, j);
    srch_np_heur_free(net);
    /* under comm every process holds the round's rows and targets */
    size_t cells = (size_t)(j->o->width * j->o->width);
    if (!rc && j->rows)
        rc = trn_avi_share(j->o, j->rows, cells, njobs, CHUNK, j->n);
    if (!rc && j->rows)
        rc = trn_avi_share(j->o, j->y, sizeof *j->y, njobs, CHUNK, j->n);
    if (!rc && j->rows)
        rc = trn_avi_share(j->o, j->raised, sizeof *j->raised, njobs, CHUNK, j->n);
    if (!rc && j->rows && j->base)
        rc = trn_avi_share(j->o, j->base, sizeof *j->base, njobs, CHUNK, j->n);
    return rc;
}

int trn_avi_targets(const struct trn_avi_opts *o, const nn_model *target, const srch_np_board *b,
                    const int *walk, size_t n, float *y)
{
    int *raised = malloc(sizeof(int) * (n ? n : 1));
    if (!raised)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    struct trn_avi_opts alone = *o; /* all n boards in this process */
    alone.comm = NULL;
    struct davi_job j = {.o = &alone,
                         .b = (srch_np_board *)b,
                         .walk = (int *)walk,
                         .y = y,
                         .raised = raised,
                         .n = n};
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
int trn_avi_update_target(struct avi_state *s)
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

static int round_rows(const struct trn_avi_opts *o, struct avi_state *s, struct davi_job *j,
                      uint8_t *rows, uint32_t *perm, struct trn_avi_round *r)
{
    double t0 = hn_now();
    j->rows = rows;
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
    return rc ? rc : trn_avi_round_finish(o, s, j->y, 1, j->raised, j->base, j->n, perm, r);
}

int trn_avi_round_finish(const struct trn_avi_opts *o, const struct avi_state *s, float *y,
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

int trn_avi_davi_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
    if (o->dom)
        return trn_avi_dom_round(o, s, r);
    size_t n = (size_t)o->batch * (size_t)o->steps_per_round, cells = (size_t)(o->width * o->width);
    struct davi_job j = {.o = o,
                         .n = n,
                         .generate = 1,
                         .seed = hn_seed_mix(o->seed, 0x5000000ull + (uint64_t)s->round)};
    j.b = malloc(sizeof *j.b * n);
    j.walk = malloc(sizeof *j.walk * n);
    j.y = malloc(sizeof *j.y * n);
    j.raised = malloc(sizeof *j.raised * n);
    j.base = o->residual ? malloc(sizeof *j.base * n) : NULL;
    uint8_t *rows = malloc(cells * n);
    uint32_t *perm = malloc(sizeof *perm * n);
    int rc = j.b && j.walk && j.y && j.raised && rows && perm && (j.base || !o->residual)
                 ? HN_OK
                 : hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!rc)
        rc = round_rows(o, s, &j, rows, perm, r);
    if (!rc)
        rc = trn_avi_fit(o, s, rows, j.y, perm, o->steps_per_round, &r->loss);
    /* DeepCubeA replaces the target network once the loss is small enough;
     * with no threshold it is replaced every round. */
    if (!rc && (o->update_loss <= 0 || r->loss < o->update_loss)) {
        rc = trn_avi_lockstep(o, s->m);
        rc = rc ? rc : trn_avi_update_target(s);
        r->updated = 1;
    }
    free(j.b);
    free(j.walk);
    free(j.y);
    free(j.raised);
    free(j.base);
    free(rows);
    free(perm);
    return rc;
}
