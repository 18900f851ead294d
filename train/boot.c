/* Bootstrapping (Arfaee, Zilles & Holte, AIJ 2011): solve boards with the
 * current network under a node budget, learn the cost-to-go of every state
 * on the solved paths, and make the boards harder (or the budget larger)
 * from round to round. */
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/ann.h"
#include "train/avi_private.h"

struct boot_job {
    const struct trn_avi_opts *o;
    const srch_np_heur *h;
    srch_np_board *b;
    srch_np_result *res;
    uint64_t seed, budget;
    int walk;
};

static int boot_solve(void *user, int job)
{
    struct boot_job *j = user;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    hn_rng *r = hn_rng_new(hn_seed_mix(j->seed, (uint64_t)job));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    srch_np_board_random_walk(&j->b[job], j->o->width, j->o->goal, j->walk, r);
    hn_rng_free(r);
    srch_np_bfs_opts bo = {.batch = 1, .weight = j->o->weight};
    srch_limits lim = {.max_expanded = j->budget};
    int st = srch_np_batch_astar(&j->b[job], j->h, &bo, &lim, &j->res[job]);
    /* Running out of budget is the normal way to fail here. */
    return st == HN_ERR_LIMIT || st == HN_OK ? HN_OK : st;
}

/* Add every state of a solved path but the goal, with its remaining cost
 * along the path, to the ring buffer. */
static void keep_path(const struct trn_avi_opts *o, struct avi_state *s, const srch_np_board *start,
                      const srch_np_result *res)
{
    size_t cells = (size_t)(o->width * o->width);
    srch_np_board b = *start;
    for (int i = 0; i < res->nmoves; i++) {
        uint64_t at = s->buf_head;
        memcpy(s->buf_b + at * cells, b.tile, cells);
        s->buf_y[at] = (float)(res->nmoves - i);
        s->buf_head = (at + 1) % o->buffer_max;
        if (s->buf_n < o->buffer_max)
            s->buf_n++;
        srch_np_board_move(&b, res->moves[i]);
    }
}

static int solve_boards(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
    int rc = 0;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    srch_np_heur *fl = NULL;
    if (o->floor && !(fl = trn_avi_borrow(o->floor, &rc)))
        return rc ? rc : HN_ERR_NOMEM;
    srch_np_heur *h = trn_avi_net_heur(o, s->m, "current network", fl, &ao, &rc);
    if (!h)
        return rc ? rc : HN_ERR_NOMEM;
    struct boot_job j = {.o = o,
                         .h = h,
                         .budget = s->budget,
                         .walk = s->walk,
                         .seed = hn_seed_mix(o->seed, 0xb0000000ull + (uint64_t)s->round)};
    j.b = malloc(sizeof *j.b * (size_t)o->boards);
    j.res = calloc((size_t)o->boards, sizeof *j.res);
    rc = j.b && j.res ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    nn_blas_threads(1);
    if (!rc)
        rc = trn_avi_parallel_part(o, o->boards, boot_solve, &j);
    nn_blas_threads(o->blas_threads);
    /* under comm every process adds every solved path, in board order */
    if (!rc)
        rc = trn_avi_share(o, j.b, sizeof *j.b, o->boards, 1, (size_t)o->boards);
    if (!rc)
        rc = trn_avi_share(o, j.res, sizeof *j.res, o->boards, 1, (size_t)o->boards);
    r->solved = 0;
    for (int i = 0; !rc && i < o->boards; i++)
        if (j.res[i].status == HN_OK) {
            r->solved++;
            keep_path(o, s, &j.b[i], &j.res[i]);
        }
    r->boards = o->boards;
    free(j.b);
    free(j.res);
    srch_np_heur_free(h);
    return rc;
}

/* Arfaee et al.: more boards solved than `raise` -> harder boards; fewer
 * than `solved_min` -> a larger budget. */
static void adapt(const struct trn_avi_opts *o, struct avi_state *s, const struct trn_avi_round *r)
{
    double share = (double)r->solved / (double)r->boards;
    if (share >= o->raise)
        s->walk = s->walk + o->walk_step < o->walk_max ? s->walk + o->walk_step : o->walk_max;
    else if (share < o->solved_min && s->budget < UINT64_MAX / 2)
        s->budget *= 2;
}

int trn_avi_boot_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
    double t0 = hn_now();
    r->budget = s->budget;
    r->walk = s->walk;
    int rc = o->dom ? trn_avi_boot_dom_solve(o, s, r) : solve_boards(o, s, r);
    r->target_seconds = hn_now() - t0;
    r->buffer = s->buf_n;
    if (rc)
        return rc;
    if (s->buf_n < 2) {
        adapt(o, s, r);
        return HN_OK;
    }
    size_t n = (size_t)o->batch * (size_t)o->steps_per_round;
    uint32_t *idx = malloc(sizeof *idx * n);
    hn_rng *g = hn_rng_new(hn_seed_mix(o->seed, 0xc0000000ull + (uint64_t)s->round));
    rc = idx && g ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    double sum = 0, mx = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        idx[i] = hn_rng_below(g, (uint32_t)s->buf_n);
        sum += s->buf_y[idx[i]];
        mx = s->buf_y[idx[i]] > mx ? s->buf_y[idx[i]] : mx;
    }
    r->target_mean = sum / (double)n;
    r->target_max = mx;
    if (!rc)
        rc = trn_avi_fit(o, s, s->buf_b, s->buf_y, idx, o->steps_per_round, &r->loss);
    if (!rc)
        adapt(o, s, r);
    free(idx);
    hn_rng_free(g);
    return rc;
}
