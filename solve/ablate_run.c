/* The runs of an ablation: each (variant, seed) is trained, measured and
 * searched with in a forked worker, so every run starts from the same
 * state of the parent (deterministic per run whatever the order or the
 * number of workers) and gets its own BLAS threads. A worker sends its CSV
 * row through a pipe; the parent alone writes the journal. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/hn.h"
#include "solve/ablate_int.h"
#include "solve/eval_report.h"

/* What a worker collects while it trains: the learning curve. */
struct curve {
    double *v;
    int n, cap;
    const char *label;
    const struct heurnet_ablate *a;
};

static void on_epoch(const struct trn_epoch *e, void *user)
{
    struct curve *c = user;
    if (c->a->on_epoch)
        c->a->on_epoch(c->label, e, c->a->user);
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        double *p = realloc(c->v, (size_t)cap * sizeof *p);
        if (!p)
            return; /* the curve is shorter; checked after training */
        c->v = p;
        c->cap = cap;
    }
    c->v[c->n++] = e->val_mae;
}

static int measure(const struct heurnet_ablate *a, const trn_data *d, nn_model *m,
                   const struct trn_opts *o, const char *label, double *metric)
{
    struct trn_epoch plain = {0};
    int rc = trn_evaluate(d, trn_data_rows(d, TRN_VAL) ? TRN_VAL : TRN_TRAIN, m, o->batch,
                          NN_LOSS_MSE, 1.0f, &plain);
    if (rc)
        return rc;
    /* validation rows far from the goal cannot show that a network is
     * useless to a search near it: say so for every run it is true of */
    char msg[1024];
    if (heurnet_goal_fit_warning(label, m, HEURNET_GOAL_TOL, msg, sizeof msg))
        heurnet_abl_say(a, HEURNET_ABL_SAY, "warning: %s", msg);
    metric[HEURNET_ABL_MSE] = plain.val_loss;
    metric[HEURNET_ABL_MAE] = plain.val_mae;
    metric[HEURNET_ABL_EXACT] = plain.val_exact;
    metric[HEURNET_ABL_OVER] = plain.val_over;
    for (int k = 0; k < a->ninst; k++)
        if ((rc = heurnet_abl_dom_inst(a, m, k, metric + HEURNET_ABL_NFIXED + 3 * k)))
            return rc;
    return a->col_search < 0 ? 0 : heurnet_abl_dom_search(a, m, label, metric + a->col_search);
}

/* Train and measure run (v, k); the CSV row goes to *row. */
static int run_one(const struct heurnet_ablate *a, const trn_data *d, const trn_abl_journal *j,
                   int v, int k, char **row)
{
    char spec[NN_SPEC_MAX], label[NN_SPEC_MAX + 64];
    struct trn_opts o;
    if (heurnet_ablate_variant(a->var.s[v], &a->o, spec, sizeof spec, &o))
        return HN_ERR_ARG;
    snprintf(label, sizeof label, "%s seed %llu", a->var.s[v], (unsigned long long)a->seed[k]);
    struct curve c = {.label = label, .a = a};
    o.seed = a->seed[k];
    o.on_epoch = on_epoch;
    o.epoch_user = &c;
    nn_model *m = NULL;
    struct trn_result res;
    double metric[HEURNET_ABL_MAX_COLS] = {0};
    int rc = trn_run(d, &o, &m, &res);
    if (!rc && c.n < res.epochs_run)
        rc = hn_fail(HN_ERR_NOMEM, "out of memory for the learning curve");
    if (!rc && !(rc = measure(a, d, m, &o, label, metric)) && a->save) {
        char path[4096];
        /* one seed: the names of the single-seed ablate */
        if (a->nseeds == 1)
            snprintf(path, sizeof path, "%s%d.h5", a->save, v + 1);
        else
            snprintf(path, sizeof path, "%s%d-%llu.h5", a->save, v + 1,
                     (unsigned long long)a->seed[k]);
        rc = nn_model_save(m, path);
    }
    metric[HEURNET_ABL_PARAMS] = (double)res.params;
    metric[HEURNET_ABL_EPOCHS] = res.epochs_run;
    metric[HEURNET_ABL_TRAIN_S] = res.seconds;
    metric[HEURNET_ABL_SPS] = res.samples_per_s;
    if (!rc && !(*row = trn_abl_row_format(j, v, k, metric, c.v, c.n)))
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    nn_model_free(m);
    free(c.v);
    return rc;
}

/* The worker: run, then write the row and a newline to fd. The worker is
 * this module's own forked process: it ends here, and only it. */
static void worker(const struct heurnet_ablate *a, const trn_data *d, const trn_abl_journal *j,
                   int v, int k, int fd)
{
    nn_blas_threads(a->o.threads);
    char *row = NULL;
    int rc = run_one(a, d, j, v, k, &row);
    if (rc && rc != HN_ERR_INTERRUPTED)
        heurnet_abl_say(a, HEURNET_ABL_SAY, "%s seed %llu: %s", a->var.s[v],
                        (unsigned long long)a->seed[k], hn_errmsg());
    size_t len = row ? strlen(row) : 0, off = 0;
    while (!rc && off < len + 1) {
        ssize_t w = off < len ? write(fd, row + off, len - off) : write(fd, "\n", 1);
        if (w < 0 && errno != EINTR)
            rc = HN_ERR_IO;
        off += w > 0 ? (size_t)w : 0;
    }
    free(row);
    _exit(rc ? 1 : 0);
}

/* A running worker and the bytes it sent. */
struct slot {
    pid_t pid;
    int fd, v, k;
    char *buf;
    size_t len, cap;
};

static int slot_start(struct heurnet_ablate *a, const trn_data *d, const trn_abl_journal *j,
                      struct slot *s)
{
    int p[2];
    if (pipe(p)) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "cannot create a pipe: %s", strerror(errno));
        return HN_ERR_IO;
    }
    /* the caller's buffered output, or the child would write it again */
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "cannot start a worker: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return HN_ERR_IO;
    }
    if (pid == 0) {
        close(p[0]);
        worker(a, d, j, s->v, s->k, p[1]);
    }
    close(p[1]);
    s->pid = pid;
    s->fd = p[0];
    s->len = 0;
    return 0;
}

/* Read what the worker sent; 1 at its end (EOF), 0 for more, -1 on error. */
static int slot_read(struct slot *s)
{
    if (s->cap - s->len < 4096) {
        size_t cap = s->cap ? 2 * s->cap : 65536;
        char *p = realloc(s->buf, cap);
        if (!p)
            return -1;
        s->buf = p;
        s->cap = cap;
    }
    ssize_t r = read(s->fd, s->buf + s->len, s->cap - s->len - 1);
    if (r < 0)
        return errno == EINTR ? 0 : -1;
    s->len += (size_t)r;
    return r == 0;
}

/* A row for rank 0, which keeps the journal. */
static int send_row(const struct heurnet_ablate *a, const char *row)
{
    int rc = heurnet_abl_mpi_send_row(row);
    if (rc)
        heurnet_abl_say(a, HEURNET_ABL_FAIL, "%s", hn_errmsg());
    return rc;
}

/* A worker finished: store its row and rewrite the journal. */
static int slot_finish(struct heurnet_ablate *a, trn_abl_journal *j, struct slot *s, int read_rc)
{
    int status = 0;
    close(s->fd);
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
        ;
    s->pid = 0;
    int ok = read_rc == 1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && s->len &&
             s->buf[s->len - 1] == '\n';
    if (!ok && WIFSIGNALED(status) && !hn_stop_requested())
        heurnet_abl_say(a, HEURNET_ABL_SAY, "the worker of %s seed %llu died of signal %d",
                        a->var.s[s->v], (unsigned long long)a->seed[s->k], WTERMSIG(status));
    if (!ok)
        return HN_ERR_INTERRUPTED; /* the worker said why, or was stopped */
    s->buf[s->len - 1] = '\0';
    if (a->rank != 0)
        return send_row(a, s->buf); /* rank 0 keeps the journal */
    char where[128];
    snprintf(where, sizeof where, "worker of run %d/%d", s->v + 1, s->k + 1);
    int rc = trn_abl_journal_add_row(j, s->buf, where);
    if (rc || (rc = trn_abl_journal_save(j, a->csv)))
        heurnet_abl_say(a, HEURNET_ABL_FAIL, "%s", hn_errmsg());
    return rc;
    return 0;
}

/* Forward a stop request (SIGTERM to the parent alone) to the workers. */
static void forward_stop(struct slot *slot, int jobs)
{
    for (int i = 0; i < jobs; i++)
        if (slot[i].pid > 0)
            kill(slot[i].pid, SIGTERM);
}

/* One turn of the pool: wait for output of the running workers. */
static int pool_wait(struct heurnet_ablate *a, trn_abl_journal *j, struct slot *slot, int *active)
{
    struct pollfd pfd[64];
    int map[64], n = 0, rc = 0;
    for (int i = 0; i < a->jobs; i++)
        if (slot[i].pid > 0) {
            pfd[n] = (struct pollfd){.fd = slot[i].fd, .events = POLLIN};
            map[n++] = i;
        }
    if (poll(pfd, (nfds_t)n, 200) < 0)
        return errno == EINTR ? 0 : HN_ERR_IO;
    for (int q = 0; q < n; q++) {
        if (!(pfd[q].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        struct slot *s = &slot[map[q]];
        int r = slot_read(s);
        if (r == 0)
            continue;
        int f = slot_finish(a, j, s, r);
        rc = rc ? rc : f;
        (*active)--;
    }
    if (a->size > 1 && a->rank == 0) {
        int f = heurnet_abl_mpi_poll(a, j);
        rc = rc ? rc : f;
    }
    return rc;
}

int heurnet_ablate_run_missing(struct heurnet_ablate *a, const trn_data *d, trn_abl_journal *j)
{
    struct slot slot[64] = {{0}};
    int nvar = a->var.n, next = 0, active = 0, rc = 0, stopped = 0, missing = 0;
    /* this process's runs, from the journal as it was at the start (rank 0
     * adds the other ranks' rows to j meanwhile): under mpirun the missing
     * runs are dealt round-robin */
    unsigned char *mine = calloc((size_t)(nvar * a->nseeds), 1);
    if (!mine) {
        int st = hn_fail(HN_ERR_NOMEM, "out of memory");
        heurnet_abl_say(a, HEURNET_ABL_FAIL, "%s", hn_errmsg());
        return st;
    }
    for (int i = 0; i < nvar * a->nseeds; i++)
        mine[i] =
            !trn_abl_journal_get(j, i / a->nseeds, i % a->nseeds) && missing++ % a->size == a->rank;
    while (active || (!rc && !stopped && next < nvar * a->nseeds)) {
        if (hn_stop_requested() && !stopped) {
            stopped = 1;
            forward_stop(slot, a->jobs);
        }
        /* start workers in the canonical order; finished runs are skipped */
        while (!rc && !stopped && active < a->jobs && next < nvar * a->nseeds) {
            int v = next / a->nseeds, k = next % a->nseeds;
            if (!mine[next++])
                continue;
            int i = 0;
            while (slot[i].pid > 0)
                i++;
            slot[i].v = v;
            slot[i].k = k;
            if (!(rc = slot_start(a, d, j, &slot[i])))
                active++;
        }
        if (active) {
            int r = pool_wait(a, j, slot, &active);
            rc = rc ? rc : r;
        }
    }
    for (int i = 0; i < a->jobs; i++)
        free(slot[i].buf);
    free(mine);
    return rc ? rc : stopped ? HN_ERR_INTERRUPTED : 0;
}
