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
    const srch_np_heur *net; /* the frozen network as a heuristic, or NULL (h = 0) */
    srch_np_board *b;
    int *walk; /* walk length per board (NULL: no clamp) */
    float *y;
    int *raised; /* per board: 1 if the floor decided the target */
    int *base;   /* per board: the residual heuristic, or NULL */
    size_t n;
    int generate;  /* 1: draw the boards first (seeded per chunk) */
    uint64_t seed; /* of this round's walks */
};

static int draw_walks(const struct davi_job *j, size_t lo, size_t hi, uint64_t chunk)
{
    hn_rng *r = hn_rng_new(hn_seed_mix(j->seed, chunk));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = lo; i < hi; i++) {
        j->walk[i] = (int)hn_rng_below(r, (uint32_t)j->o->walk_max + 1);
        srch_np_board_random_walk(&j->b[i], j->o->width, j->o->goal, j->walk[i], r);
    }
    hn_rng_free(r);
    return HN_OK;
}

/* Children of boards lo..hi into c (parent index in par); returns the count. */
static size_t children(const srch_np_board *b, size_t lo, size_t hi, srch_np_board *c, size_t *par)
{
    size_t k = 0;
    for (size_t i = lo; i < hi; i++)
        for (int d = 0; d < 4; d++) {
            c[k] = b[i];
            if (srch_np_board_move(&c[k], d) >= 0)
                par[k++] = i;
        }
    return k;
}

/* A child's value from the network: never below 0. With integer targets it
 * is also rounded to the nearest integer. With unit costs the backup is then
 * the exact discrete Bellman operator on a network whose error is below 0.5
 * everywhere, so such an error no longer compounds from update to update. */
static double child_value(const struct trn_avi_opts *o, float h)
{
    double v = h > 0 ? (double)h : 0.0;
    return o->integer_targets ? floor(v + 0.5) : v;
}

/* The backup of boards lo..hi from the values of their k children. */
static void backup(const struct davi_job *j, size_t lo, size_t hi, const srch_np_board *c,
                   const size_t *par, size_t k, const float *h, const int *fl)
{
    for (size_t i = lo; i < hi; i++) {
        j->y[i] = INFINITY;
        j->raised[i] = 0;
    }
    for (size_t m = 0; m < k; m++) {
        size_t i = par[m];
        double v = srch_np_board_is_goal(&c[m], j->o->goal) ? 0.0
                   : h                                      ? child_value(j->o, h[m])
                                                            : 0.0;
        int up = fl && fl[m] > v;
        if (up)
            v = fl[m];
        if (1.0 + v < j->y[i]) {
            j->y[i] = (float)(1.0 + v);
            j->raised[i] = up;
        }
    }
    for (size_t i = lo; i < hi; i++) {
        if (srch_np_board_is_goal(&j->b[i], j->o->goal))
            j->y[i] = 0.0f, j->raised[i] = 0;
        else if (j->walk && j->o->clamp && j->y[i] > (float)j->walk[i])
            j->y[i] = (float)j->walk[i], j->raised[i] = 0;
    }
}

static int davi_chunk(void *user, int job)
{
    const struct davi_job *j = user;
    size_t lo = (size_t)job * CHUNK, hi = lo + CHUNK < j->n ? lo + CHUNK : j->n;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    if (j->generate && draw_walks(j, lo, hi, (uint64_t)job))
        return HN_ERR_NOMEM;
    size_t cap = 4 * (hi - lo);
    srch_np_board *c = malloc(sizeof *c * cap);
    size_t *par = malloc(sizeof *par * cap);
    float *h = j->net ? malloc(sizeof *h * cap) : NULL;
    int *fl = j->o->floor ? malloc(sizeof *fl * cap) : NULL;
    int rc = c && par && (h || !j->net) && (fl || !j->o->floor)
                 ? HN_OK
                 : hn_fail(HN_ERR_NOMEM, "out of memory");
    size_t k = rc ? 0 : children(j->b, lo, hi, c, par);
    if (!rc && j->net)
        rc = srch_np_heur_ann_estimate(j->net, c, k, h);
    if (!rc && j->o->floor)
        rc = srch_np_heur_eval_batch(j->o->floor, c, k, fl);
    if (!rc)
        backup(j, lo, hi, c, par, k, h, fl);
    if (!rc && j->base)
        rc = srch_np_heur_eval_batch(j->o->residual, j->b + lo, hi - lo, j->base + lo);
    free(c);
    free(par);
    free(h);
    free(fl);
    return rc;
}

static int run_jobs(struct davi_job *j, const nn_model *target)
{
    int rc = 0;
    srch_np_heur *net = NULL;
    if (target) {
        srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
        ao.cache_bits = 0; /* the boards of a round rarely repeat */
        ao.max_batch = 4 * CHUNK;
        net = trn_avi_net_heur(j->o, target, "target network", NULL, &ao, &rc);
        if (!net)
            return rc ? rc : HN_ERR_NOMEM;
    }
    j->net = net;
    int njobs = (int)((j->n + CHUNK - 1) / CHUNK);
    rc = trn_avi_parallel(j->o->threads, njobs, davi_chunk, j);
    srch_np_heur_free(net);
    return rc;
}

int trn_avi_targets(const struct trn_avi_opts *o, const nn_model *target, const srch_np_board *b,
                    const int *walk, size_t n, float *y)
{
    int *raised = malloc(sizeof(int) * (n ? n : 1));
    if (!raised)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    struct davi_job j = {
        .o = o, .b = (srch_np_board *)b, .walk = (int *)walk, .y = y, .raised = raised, .n = n};
    nn_blas_threads(1);
    int rc = run_jobs(&j, target);
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

static int round_rows(const struct trn_avi_opts *o, struct avi_state *s, struct davi_job *j,
                      uint8_t *rows, uint32_t *perm, struct trn_avi_round *r)
{
    double t0 = hn_now();
    int cells = o->width * o->width;
    nn_blas_threads(1);
    int rc = run_jobs(j, s->target);
    nn_blas_threads(o->blas_threads);
    r->target_seconds = hn_now() - t0;
    if (rc)
        return rc;
    double sum = 0, mx = 0, raised = 0;
    for (size_t i = 0; i < j->n; i++) {
        memcpy(rows + i * (size_t)cells, j->b[i].tile, (size_t)cells);
        sum += j->y[i];
        mx = j->y[i] > mx ? j->y[i] : mx;
        raised += j->raised[i];
    }
    r->target_mean = sum / (double)j->n;
    r->target_max = mx;
    r->floor_share = raised / (double)j->n;
    /* a residual network learns only the correction to its heuristic */
    for (size_t i = 0; j->base && i < j->n; i++)
        j->y[i] -= (float)j->base[i];
    hn_rng *g = hn_rng_new(hn_seed_mix(o->seed, 0xa0000000ull + (uint64_t)s->round));
    if (!g)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < j->n; i++)
        perm[i] = (uint32_t)i;
    for (size_t i = j->n - 1; i > 0; i--) {
        uint32_t k = hn_rng_below(g, (uint32_t)(i + 1)), t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    hn_rng_free(g);
    return HN_OK;
}

int trn_avi_davi_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
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
        rc = update_target(s);
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
