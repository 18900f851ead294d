/* Bootstrapping (Arfaee, Zilles & Holte, AIJ 2011) on any domain: the
 * states of a round are walks of s->walk moves from the goal, solved by
 * weighted A* on the current network (plus the run's residual, floored as
 * in DAVI) under s->budget expansions; every state on a solved path joins
 * the buffer with its cost-to-go along the path, the network takes Adam
 * steps on the buffer, and the states get harder (or the budget larger)
 * from round to round. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/srch_dom.h"
#include "train/avi_private.h"

struct boot_job {
    const struct trn_avi_opts *o;
    srch_dom_heur **h; /* a pool of nh (clones share tables), one per running job */
    int nh, nfree;
    int *free_slot;
    pthread_mutex_t mu;
    uint8_t *s; /* the round's start states */
    srch_dom_result *res;
    uint64_t seed, budget;
    int walk;
};

static int slot_take(struct boot_job *j)
{
    pthread_mutex_lock(&j->mu);
    int k = j->free_slot[--j->nfree]; /* never empty: at most nh jobs run */
    pthread_mutex_unlock(&j->mu);
    return k;
}

static void slot_give(struct boot_job *j, int k)
{
    pthread_mutex_lock(&j->mu);
    j->free_slot[j->nfree++] = k;
    pthread_mutex_unlock(&j->mu);
}

static int boot_solve(void *user, int job)
{
    struct boot_job *j = user;
    if (hn_stop_requested())
        return HN_ERR_INTERRUPTED;
    const dom *d = j->o->dom;
    uint8_t *st = j->s + (size_t)job * dom_state_bytes(d);
    hn_rng *r = hn_rng_new(hn_seed_mix(j->seed, (uint64_t)job));
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    dom_goal(d, st);
    dom_walk(d, st, j->walk, r);
    hn_rng_free(r);
    srch_dom_opts so = SRCH_DOM_DEFAULTS;
    so.weight = j->o->weight;
    srch_limits lim = {.max_expanded = j->budget};
    int k = slot_take(j);
    int st2 = srch_dom_astar(d, st, j->h[k], &so, &lim, &j->res[job]);
    slot_give(j, k);
    /* running out of budget is the normal way to fail here */
    return st2 == HN_ERR_LIMIT || st2 == HN_OK ? HN_OK : st2;
}

/* The current network as a search heuristic: net + residual, floored. */
static srch_dom_heur *boot_heur(const struct trn_avi_opts *o, const nn_model *m, int *rc)
{
    srch_dom_net_opts no = SRCH_DOM_NET_DEFAULTS;
    no.residual = 0; /* the run's own residual, already open, is added below */
    srch_dom_heur *h = srch_dom_heur_net(o->dom, m, "current network", &no, rc);
    if (h && o->residual) {
        srch_dom_heur *base = srch_dom_heur_adm_borrow(o->dom, o->residual, rc);
        h = base ? srch_dom_heur_sum_new(base, h, rc) : (srch_dom_heur_free(h), NULL);
    }
    srch_dom_heur *fl = h && o->floor ? srch_dom_heur_adm_borrow(o->dom, o->floor, rc) : NULL;
    if (h && (o->floor && !fl)) {
        srch_dom_heur_free(h);
        return NULL;
    }
    if (h && (*rc = srch_dom_heur_set_value(h, 1, 0.0, fl))) {
        srch_dom_heur_free(h);
        return NULL;
    }
    return h;
}

/* Every state of a solved path but the goal joins the ring buffer. */
static void boot_keep(const struct trn_avi_opts *o, struct avi_state *s, const uint8_t *start,
                      const srch_dom_result *res)
{
    size_t sb = dom_state_bytes(o->dom);
    uint8_t *cur = s->buf_b + s->buf_head * sb;
    memcpy(cur, start, sb);
    for (int i = 0; i < res->length; i++) {
        uint64_t at = s->buf_head;
        s->buf_y[at] = (float)(res->length - i);
        s->buf_head = (at + 1) % o->buffer_max;
        if (s->buf_n < o->buffer_max)
            s->buf_n++;
        uint8_t *next = s->buf_b + s->buf_head * sb;
        if (i + 1 < res->length) {
            memcpy(next, s->buf_b + at * sb, sb);
            dom_apply(o->dom, next, res->moves[i]);
        }
    }
}

static int boot_heurs(struct boot_job *j, const nn_model *m, int n)
{
    int rc = HN_OK;
    j->h = calloc((size_t)n, sizeof *j->h);
    j->free_slot = malloc(sizeof *j->free_slot * (size_t)n);
    if (!j->h || !j->free_slot)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    j->nh = j->nfree = n;
    for (int i = 0; i < n; i++)
        j->free_slot[i] = i;
    if (!(j->h[0] = boot_heur(j->o, m, &rc)))
        return rc ? rc : HN_ERR_NOMEM;
    for (int i = 1; i < n; i++)
        if (!(j->h[i] = srch_dom_heur_clone(j->h[0], &rc)))
            return rc ? rc : HN_ERR_NOMEM;
    return HN_OK;
}

static int solve_states(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r)
{
    size_t sb = dom_state_bytes(o->dom), nb = (size_t)o->boards;
    struct boot_job j = {.o = o,
                         .budget = s->budget,
                         .walk = s->walk,
                         .seed = hn_seed_mix(o->seed, 0xb0000000ull + (uint64_t)s->round),
                         .mu = PTHREAD_MUTEX_INITIALIZER};
    int nh = o->threads < o->boards ? o->threads : o->boards;
    j.s = malloc(sb * nb);
    j.res = calloc(nb, sizeof *j.res);
    int rc = j.s && j.res ? boot_heurs(&j, s->m, nh < 1 ? 1 : nh)
                          : hn_fail(HN_ERR_NOMEM, "out of memory");
    nn_blas_threads(1);
    if (!rc)
        rc = trn_avi_parallel_part(o, o->boards, boot_solve, &j);
    nn_blas_threads(o->blas_threads);
    /* under comm every process adds every solved path, in state order */
    if (!rc)
        rc = trn_avi_share(o, j.s, sb, o->boards, 1, nb);
    if (!rc)
        rc = trn_avi_share(o, j.res, sizeof *j.res, o->boards, 1, nb);
    r->solved = 0;
    for (size_t i = 0; !rc && i < nb; i++)
        if (j.res[i].status == HN_OK && j.res[i].length > 0) {
            r->solved++;
            boot_keep(o, s, j.s + i * sb, &j.res[i]);
        }
    r->boards = o->boards;
    for (int i = 0; j.h && i < j.nh; i++)
        srch_dom_heur_free(j.h[i]);
    free(j.h);
    free(j.free_slot);
    free(j.s);
    free(j.res);
    return rc;
}

/* Arfaee et al.: more states solved than `raise` -> harder states; fewer
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
    int rc = solve_states(o, s, r);
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
