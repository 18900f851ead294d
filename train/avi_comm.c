/* Value iteration and bootstrapping over several processes (o->comm): each
 * process makes a contiguous part of every round's jobs (DAVI chunks,
 * bootstrap searches), the parts are shared so every process holds the
 * round's rows, and the Adam steps are data parallel as in trn_run. Jobs are
 * seeded by their index, so the rows do not depend on how they were split.
 * Without comm every function here is the single-process case. */
#include <stdlib.h>

#include "train/avi_private.h"
#include "train/trn_private.h"

/* Jobs [lo, hi) of njobs that process `rank` of `size` makes. */
static void job_range(size_t njobs, int rank, int size, size_t *lo, size_t *hi)
{
    *lo = njobs * (size_t)rank / (size_t)size;
    *hi = njobs * (size_t)(rank + 1) / (size_t)size;
}

struct part_run {
    int (*fn)(void *, int);
    void *user;
    int first;
};

static int part_job(void *user, int job)
{
    struct part_run *p = user;
    return p->fn(p->user, p->first + job);
}

int trn_avi_parallel_part(const struct trn_avi_opts *o, int njobs, int (*fn)(void *user, int job),
                          void *user)
{
    const struct trn_comm *c = o->comm;
    size_t lo = 0, hi = (size_t)njobs;
    if (c)
        job_range((size_t)njobs, c->rank, c->size, &lo, &hi);
    struct part_run p = {.fn = fn, .user = user, .first = (int)lo};
    int rc = trn_avi_parallel(o->threads, (int)(hi - lo), part_job, &p);
    if (c && c->wait) {
        int w = c->wait(c->user);
        rc = rc ? rc : w;
    }
    /* a stop or failure in one process ends the round in all of them */
    return trn_comm_agree(c, rc);
}

int trn_avi_share(const struct trn_avi_opts *o, void *buf, size_t elem, int njobs, size_t unit,
                  size_t n)
{
    const struct trn_comm *c = o->comm;
    if (!c || c->size == 1)
        return HN_OK;
    size_t *part = malloc(sizeof *part * ((size_t)c->size + 1));
    if (!part)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int p = 0; p <= c->size; p++) {
        size_t lo, hi;
        job_range((size_t)njobs, p < c->size ? p : c->size - 1, c->size, &lo, &hi);
        size_t at = (p < c->size ? lo : hi) * unit;
        part[p] = at < n ? at : n;
    }
    int rc = c->share(buf, elem, part, c->user);
    free(part);
    return rc;
}

int trn_avi_stripe(const struct trn_avi_opts *o, int *first)
{
    const struct trn_comm *c = o->comm;
    int size = c ? c->size : 1;
    *first = c ? c->rank * (o->batch / size) : 0;
    return o->batch / size;
}

int trn_avi_sum_grad(const struct trn_avi_opts *o, nn_train *t, int stripe, size_t np)
{
    const struct trn_comm *c = o->comm;
    if (!c)
        return nn_train_backward(t);
    /* each stripe's gradient as its share of the whole batch's mean loss */
    float *dy = nn_train_output_grad(t), share = (float)stripe / (float)o->batch;
    for (int i = 0; i < stripe; i++)
        dy[i] *= share;
    int rc = nn_train_backward(t);
    return rc ? rc : c->sum_float(nn_train_grad(t), np, c->user);
}

int trn_avi_mean(const struct trn_avi_opts *o, double *v)
{
    const struct trn_comm *c = o->comm;
    if (!c)
        return HN_OK;
    int rc = c->sum_double(v, 1, c->user);
    *v /= c->size;
    return rc;
}

int trn_avi_stop_check(const struct trn_avi_opts *o)
{
    return trn_comm_agree(o->comm, hn_stop_requested() ? HN_ERR_INTERRUPTED : HN_OK);
}

int trn_avi_lockstep(const struct trn_avi_opts *o, nn_model *m)
{
    const struct trn_comm *c = o->comm;
    if (!c || c->size == 1)
        return HN_OK;
    size_t np, ns;
    float *p = nn_model_params(m, &np), *st = nn_model_state(m, &ns);
    int rc = c->bcast(p, np * sizeof *p, c->user);
    return rc ? rc : c->bcast(st, ns * sizeof *st, c->user);
}

int trn_avi_ckpt_lead(const char *path, const struct trn_avi_opts *o, const struct avi_state *s)
{
    const struct trn_comm *c = o->comm;
    int rc = !c || c->rank == 0 ? trn_avi_ckpt_save(path, o, s) : HN_OK;
    return trn_comm_agree(c, rc);
}
