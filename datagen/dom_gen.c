/* Optimal labels on any domain: states are drawn in index order, solved by
 * IDA* with an admissible heuristic on worker threads in any order, and
 * written strictly in index order through a window of slots into FILE.part,
 * which is committed every second (or 4096 rows) and renamed to FILE once
 * complete. A window, not chunks: the cost of a uniform 15-puzzle board
 * varies a hundredfold, and waiting for each chunk's slowest board idled
 * the other threads. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "datagen/dataset.h"
#include "datagen/dom_ds_priv.h"
#include "search/generic/srch_dom.h"

#define WINDOW_PER_THREAD 256
#define COMMIT_SECONDS 1.0
#define COMMIT_ROWS 4096

/* One slot of the window: a sampled state and its result. */
struct item {
    int state; /* 0 free, 1 being solved, 2 done */
    int status;
    int walk; /* moves of its walk, -1 for a uniform state */
    int64_t cost;
    uint64_t expanded;
    int nmoves;
    char msg[256]; /* the worker's error message (messages are per thread) */
};

/* Rows waiting for the writer. */
struct rowbuf {
    size_t sb, n, cap;
    uint8_t *states, *source;
    uint16_t *cost, *walk;
    uint64_t *expanded;
};

struct dgen {
    const dg_dom_gen_opts *o;
    const dom *d;
    size_t sb;
    hn_rng *rng; /* the state stream */
    uint64_t rng_block, rng_next;
    /* the window: stream index i lives in slot i % cap while being solved
     * and written; next is handed out next, written goes to the file next */
    size_t cap;
    uint64_t next, written, end;
    int stop, running;
    uint8_t *states, *moves; /* moves: SRCH_DOM_MAX_PATH per state with path_states */
    struct item *items;
    srch_dom_heur **h; /* one per thread */
    pthread_mutex_t mu;
    pthread_cond_t space, ready;
    uint64_t expanded;
    uint64_t base;       /* stream index of the file's first state */
    uint8_t *all_states; /* --all: the enumeration, all_n states */
    uint16_t *all_cost;
    uint64_t all_n;
};

/* ---- the state stream ---- */

/* State idx of the stream; called in increasing idx. */
static int draw(struct dgen *g, uint64_t idx, uint8_t *s, int *walk)
{
    const dg_dom_gen_opts *o = g->o;
    if (o->instances) {
        memcpy(s, o->instances[idx].state, g->sb);
        *walk = -1;
        return HN_OK;
    }
    uint64_t block = idx / DG_SEED_BLOCK;
    if (!g->rng || block != g->rng_block || idx < g->rng_next) {
        hn_rng_free(g->rng);
        if (!(g->rng = hn_rng_new(hn_seed_mix(o->seed, block))))
            return hn_fail(HN_ERR_NOMEM, "out of memory");
        g->rng_block = block;
        g->rng_next = block * DG_SEED_BLOCK;
    }
    for (; g->rng_next <= idx; g->rng_next++) {
        if (o->uniform) {
            *walk = -1;
            int rc = dom_random_state(g->d, s, g->rng);
            if (rc)
                return hn_fail(rc, "%s cannot draw uniform states", dom_spec(g->d));
        } else {
            int k =
                o->walk_min + (int)hn_rng_below(g->rng, (uint32_t)(o->walk_max - o->walk_min + 1));
            dom_goal(g->d, s);
            *walk = dom_walk(g->d, s, k, g->rng);
        }
    }
    return HN_OK;
}

/* ---- labelling ---- */

static void solve_one(struct dgen *g, srch_dom_heur *h, uint64_t idx, srch_dom_result *res)
{
    size_t i = (size_t)(idx % g->cap);
    struct item *it = &g->items[i];
    const uint8_t *s = g->states + i * g->sb;
    int rc =
        hn_stop_requested() ? HN_ERR_INTERRUPTED : srch_dom_idastar(g->d, s, h, &g->o->limits, res);
    char text[160];
    if (rc != HN_OK && rc != HN_ERR_INTERRUPTED) {
        char why[200];
        snprintf(why, sizeof why, "%s", hn_errmsg());
        dom_format_state(g->d, s, text, sizeof text);
        rc = hn_fail(rc, "state %llu (%s): %s", (unsigned long long)idx, text, why);
    } else if (rc == HN_OK && res->cost > UINT16_MAX) {
        rc = hn_fail(HN_ERR_LIMIT, "state %llu: cost %lld does not fit a uint16 label",
                     (unsigned long long)idx, (long long)res->cost);
    } else if (rc == HN_OK && it->walk >= 0 && dom_unit_cost(g->d) && res->cost > it->walk) {
        /* a walk of k moves is a path of k moves: the label cannot exceed it */
        dom_format_state(g->d, s, text, sizeof text);
        rc =
            hn_fail(HN_ERR_FORMAT,
                    "state %llu (%s): IDA* found %lld moves after a walk of %d; is heuristic "
                    "%s admissible?",
                    (unsigned long long)idx, text, (long long)res->cost, it->walk, g->o->heur_name);
    }
    it->status = rc;
    if (rc) {
        snprintf(it->msg, sizeof it->msg, "%s", hn_errmsg());
        return;
    }
    it->cost = res->cost;
    it->expanded = res->expanded;
    it->nmoves = res->length;
    if (g->moves)
        memcpy(g->moves + i * SRCH_DOM_MAX_PATH, res->moves, (size_t)res->length);
}

struct worker_arg {
    struct dgen *g;
    srch_dom_heur *h;
    srch_dom_result *res;
};

/* Take the next state while the window has room (drawn under the mutex, so
 * in stream order), solve it outside, mark it done. */
static void *worker(void *p)
{
    struct worker_arg *a = p;
    struct dgen *g = a->g;
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (!g->stop && g->next < g->end && g->next >= g->written + g->cap)
            pthread_cond_wait(&g->space, &g->mu);
        if (g->stop || g->next >= g->end || hn_stop_requested())
            break;
        uint64_t idx = g->next++;
        struct item *it = &g->items[idx % g->cap];
        it->state = 1;
        int rc = draw(g, idx, g->states + (idx % g->cap) * g->sb, &it->walk);
        pthread_mutex_unlock(&g->mu);
        if (!rc)
            solve_one(g, a->h, idx, a->res);
        else
            it->status = rc, snprintf(it->msg, sizeof it->msg, "%s", hn_errmsg());
        pthread_mutex_lock(&g->mu);
        it->state = 2;
        pthread_cond_broadcast(&g->ready);
    }
    g->running--;
    pthread_cond_broadcast(&g->ready);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* Threads of a run: 1..255. */
static int nthreads(const dg_dom_gen_opts *o)
{
    return o->threads > 1 ? (o->threads < 256 ? o->threads : 255) : 1;
}

/* ---- rows ---- */

static int rowbuf_push(struct rowbuf *b, const uint8_t *s, int64_t cost, uint64_t exp, int src,
                       int walk)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        uint8_t *st = realloc(b->states, cap * b->sb);
        if (st)
            b->states = st;
        uint8_t *so = realloc(b->source, cap);
        if (so)
            b->source = so;
        uint16_t *c = realloc(b->cost, cap * 2);
        if (c)
            b->cost = c;
        uint16_t *w = realloc(b->walk, cap * 2);
        if (w)
            b->walk = w;
        uint64_t *e = realloc(b->expanded, cap * 8);
        if (e)
            b->expanded = e;
        if (!st || !so || !c || !w || !e)
            return hn_fail(HN_ERR_NOMEM, "out of memory for %zu rows", cap);
        b->cap = cap;
    }
    memcpy(b->states + b->n * b->sb, s, b->sb);
    b->cost[b->n] = (uint16_t)cost;
    b->expanded[b->n] = exp;
    b->source[b->n] = (uint8_t)src;
    b->walk[b->n] = (uint16_t)(walk > 0 ? walk : 0);
    b->n++;
    return HN_OK;
}

static void rowbuf_free(struct rowbuf *b)
{
    free(b->states);
    free(b->source);
    free(b->cost);
    free(b->walk);
    free(b->expanded);
}

/* The rows of solved state in slot i: itself, then with path states every
 * state on its optimal path with the cost still to go (the goal excluded). */
static int emit(struct dgen *g, struct rowbuf *b, size_t i)
{
    const struct item *it = &g->items[i];
    const uint8_t *s = g->states + i * g->sb;
    int src = g->o->instances ? DG_SOURCE_FILE : g->o->uniform ? DG_SOURCE_RANDOM : DG_SOURCE_WALK;
    int rc = rowbuf_push(b, s, it->cost, it->expanded, src, it->walk);
    g->expanded += it->expanded;
    if (rc || !g->moves)
        return rc;
    uint8_t cur[DOM_MAX_STATE_BYTES];
    memcpy(cur, s, g->sb);
    int64_t left = it->cost;
    const uint8_t *mv = g->moves + i * SRCH_DOM_MAX_PATH;
    for (int k = 0; k + 1 < it->nmoves && !rc; k++) {
        left -= dom_move_cost(g->d, mv[k]);
        dom_apply(g->d, cur, mv[k]);
        rc = rowbuf_push(b, cur, left, 0, DG_SOURCE_PATH, 0);
    }
    return rc;
}

/* Finished states in stream order from the window into b, up to the first
 * not done; under the mutex. A stop request seen by the solver ends the
 * run without an error; a failed state is the run's error (the states
 * before it stay). */
static int collect(struct dgen *g, struct rowbuf *b)
{
    int rc = HN_OK;
    while (!rc && g->written < g->next) {
        struct item *it = &g->items[g->written % g->cap];
        if (it->state != 2)
            break;
        if (it->status == HN_ERR_INTERRUPTED) {
            g->stop = 1;
            break;
        }
        rc = it->status ? hn_fail(it->status, "%s", it->msg)
                        : emit(g, b, (size_t)(g->written % g->cap));
        if (rc)
            break;
        it->state = 0;
        g->written++;
    }
    pthread_cond_broadcast(&g->space);
    return rc;
}

static int flush_rows(struct rowbuf *b, dg_dom_writer *w, uint64_t done)
{
    struct dg_dom_rows r = {b->states, b->cost, b->walk, b->expanded, b->source, b->n};
    int rc = dg_dom_writer_append(w, &r);
    if (!rc)
        rc = dg_dom_writer_commit(w, done);
    b->n = 0;
    return rc;
}

/* ---- the run ---- */

static int setup(struct dgen *g, const dg_dom_gen_opts *o)
{
    int nt = nthreads(o), rc = HN_OK;
    g->o = o;
    g->d = o->d;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->space, NULL);
    pthread_cond_init(&g->ready, NULL);
    g->sb = dom_state_bytes(o->d);
    g->cap = (size_t)nt * WINDOW_PER_THREAD;
    g->states = malloc(g->cap * g->sb);
    g->items = calloc(g->cap, sizeof *g->items);
    g->moves = o->path_states ? malloc(g->cap * SRCH_DOM_MAX_PATH) : NULL;
    g->h = calloc((size_t)nt, sizeof *g->h);
    if (!g->states || !g->items || !g->h || (o->path_states && !g->moves))
        return hn_fail(HN_ERR_NOMEM, "out of memory for %d threads", nt);
    if (o->all)
        return HN_OK; /* breadth-first distances: no search */
    g->h[0] =
        o->heur ? srch_dom_heur_clone(o->heur, &rc) : srch_dom_heur_adm(o->d, o->heur_name, &rc);
    for (int t = 1; t < nt && g->h[t - 1]; t++)
        g->h[t] = srch_dom_heur_clone(g->h[0], &rc);
    return g->h[nt - 1] ? HN_OK : rc;
}

static void teardown(struct dgen *g)
{
    int nt = g->o ? nthreads(g->o) : 1;
    for (int t = 0; g->h && t < nt; t++)
        srch_dom_heur_free(g->h[t]);
    free(g->h);
    free(g->states);
    free(g->items);
    free(g->moves);
    free(g->all_states);
    free(g->all_cost);
    hn_rng_free(g->rng);
    if (g->o) {
        pthread_cond_destroy(&g->ready);
        pthread_cond_destroy(&g->space);
        pthread_mutex_destroy(&g->mu);
    }
}

/* Wait up to 0.2 s for a state to finish; under the mutex. */
static void wait_ready(struct dgen *g)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200000000L;
    if (ts.tv_nsec >= 1000000000L)
        ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&g->ready, &g->mu, &ts);
}

/* The writer: collect finished states in order and commit them every
 * COMMIT_SECONDS (or COMMIT_ROWS rows) and at the end; a failed state
 * stops the workers, and what came before it is committed. */
static int drive(struct dgen *g, dg_dom_writer *w, uint64_t from)
{
    struct rowbuf b = {.sb = g->sb};
    int rc = HN_OK, wrc = HN_OK;
    double last = hn_now();
    pthread_mutex_lock(&g->mu);
    for (;;) {
        if (!rc)
            rc = collect(g, &b);
        int finished = g->running == 0 || rc;
        if (!rc && !g->stop && hn_stop_requested())
            g->stop = 1;
        if (!finished && b.n < COMMIT_ROWS && hn_now() - last < COMMIT_SECONDS) {
            wait_ready(g);
            continue;
        }
        uint64_t done = g->written - g->base;
        pthread_mutex_unlock(&g->mu);
        wrc = flush_rows(&b, w, done);
        if (g->o->progress)
            g->o->progress(done + g->base - from, g->end - from, NULL, g->o->user);
        last = hn_now();
        pthread_mutex_lock(&g->mu);
        if (wrc || finished)
            break;
    }
    g->stop = 1;
    pthread_cond_broadcast(&g->space);
    while (g->running > 0)
        pthread_cond_wait(&g->ready, &g->mu);
    pthread_mutex_unlock(&g->mu);
    rowbuf_free(&b);
    return rc ? rc : wrc;
}

/* Label states [from, end) on the threads; *done gets the states the file
 * holds (from its first). */
static int label(struct dgen *g, dg_dom_writer *w, uint64_t from, uint64_t end, uint64_t *done)
{
    int nt = nthreads(g->o), started = 0;
    pthread_t tid[256];
    struct worker_arg args[256];
    g->next = g->written = from;
    g->end = end;
    for (; started < nt; started++) { /* fewer threads when one cannot start */
        args[started] = (struct worker_arg){g, g->h[started], malloc(sizeof(srch_dom_result))};
        if (!args[started].res)
            break;
        pthread_mutex_lock(&g->mu);
        g->running++;
        pthread_mutex_unlock(&g->mu);
        if (pthread_create(&tid[started], NULL, worker, &args[started])) {
            pthread_mutex_lock(&g->mu);
            g->running--;
            pthread_mutex_unlock(&g->mu);
            free(args[started].res);
            break;
        }
    }
    int rc = started ? drive(g, w, from) : hn_fail(HN_ERR_NOMEM, "cannot start labelling threads");
    for (int t = 0; t < started; t++) {
        pthread_join(tid[t], NULL);
        free(args[t].res);
    }
    *done = g->written - g->base;
    return rc;
}

/* --all: the enumerated states [from, end) with their distances, committed
 * every ALL_ROWS rows. */
#define ALL_ROWS 65536
static int label_all(struct dgen *g, dg_dom_writer *w, uint64_t from, uint64_t end, uint64_t *done)
{
    struct rowbuf b = {.sb = g->sb};
    int rc = HN_OK;
    uint64_t at = from;
    while (!rc && at < end && !hn_stop_requested()) {
        uint64_t n = end - at < ALL_ROWS ? end - at : ALL_ROWS;
        for (uint64_t k = at; k < at + n && !rc; k++)
            rc = rowbuf_push(&b, g->all_states + k * g->sb, g->all_cost[k], 0, DG_SOURCE_ALL, 0);
        if (!rc)
            rc = flush_rows(&b, w, at + n - g->base);
        if (!rc)
            at += n;
        if (!rc && g->o->progress)
            g->o->progress(at - from, end - from, NULL, g->o->user);
    }
    rowbuf_free(&b);
    *done = at - g->base;
    return rc;
}

/* States [lo, hi) of `total` that shard i of n holds: contiguous blocks, so
 * the shards in order concatenate to the unsharded file. */
static void shard_range(uint64_t total, int i, int n, uint64_t *lo, uint64_t *hi)
{
    uint64_t q = total / (uint64_t)n, r = total % (uint64_t)n;
    *lo = q * (uint64_t)i + r * (uint64_t)i / (uint64_t)n;
    *hi = q * (uint64_t)(i + 1) + r * (uint64_t)(i + 1) / (uint64_t)n;
}

static const char *source_kind(const dg_dom_gen_opts *o)
{
    return o->all ? "all" : o->instances ? "file" : o->uniform ? "uniform" : "random-walk";
}

static int check_opts(const dg_dom_gen_opts *o, uint64_t total)
{
    int nshard = o->shard_count > 0 ? o->shard_count : 1;
    if (total == 0 || (!o->all && !o->heur_name) || o->walk_min < 0 || o->walk_min > o->walk_max ||
        o->walk_max > DG_DOM_MAX_WALK)
        return hn_fail(HN_ERR_ARG,
                       "count >= 1, a heuristic and walks of 0 <= A <= B <= %d moves "
                       "are required",
                       DG_DOM_MAX_WALK);
    if (o->shard_index < 0 || o->shard_index >= nshard)
        return hn_fail(HN_ERR_ARG, "shard %d/%d does not exist", o->shard_index, nshard);
    if (o->all + !!o->instances + !!o->uniform > 1)
        return hn_fail(HN_ERR_ARG, "all, instances and uniform exclude each other");
    if (o->uniform && !dom_facts_of(o->d)->has_uniform)
        return hn_fail(HN_ERR_ARG, "%s cannot draw uniform states; use walks", dom_spec(o->d));
    return HN_OK;
}

/* The attributes of this run's file; total: states over all shards. */
static int make_info(const dg_dom_gen_opts *o, uint64_t total, dg_dom_info *in)
{
    memset(in, 0, sizeof *in);
    const dom_facts *f = dom_facts_of(o->d);
    int rc = check_opts(o, total), walks = !o->all && !o->instances && !o->uniform;
    if (rc)
        return rc;
    snprintf(in->domain, sizeof in->domain, "%s", dom_spec(o->d));
    in->state_bytes = (int)dom_state_bytes(o->d);
    in->inputs = (int)f->inputs;
    snprintf(in->encoding, sizeof in->encoding, "%s", f->encoding ? f->encoding : "");
    snprintf(in->heuristic, sizeof in->heuristic, "%s", o->all ? "bfs" : o->heur_name);
    snprintf(in->solver, sizeof in->solver, "%s", o->all ? "bfs" : "idastar");
    in->path_states = !o->all && o->path_states;
    snprintf(in->source, sizeof in->source, "%s%s", source_kind(o), in->path_states ? "+path" : "");
    if (o->instances) {
        snprintf(in->from, sizeof in->from, "%s", o->from ? o->from : "");
        in->from_crc = o->from_crc;
    }
    in->walk_min = walks ? o->walk_min : 0;
    in->walk_max = walks ? o->walk_max : 0;
    in->seed = o->all || o->instances ? 0 : o->seed;
    in->shard_index = o->shard_index;
    in->shard_count = o->shard_count > 0 ? o->shard_count : 1;
    uint64_t lo, hi;
    shard_range(total, in->shard_index, in->shard_count, &lo, &hi);
    in->first_index = lo;
    in->count = hi - lo;
    in->total_count = total;
    return HN_OK;
}

/* FILE exists: nothing to do when it is this run's finished file. */
static int existing_final(const char *path, const dg_dom_info *want)
{
    dg_dom_info have;
    char why[700];
    int rc = dg_dom_info_read(path, &have);
    if (rc) { /* hn_fail formats into the buffer hn_errmsg returns */
        snprintf(why, sizeof why, "%s", hn_errmsg());
        return hn_fail(rc, "%s (use --force to replace it)", why);
    }
    const char *diff = dg_dom_info_diff(&have, want, why, sizeof why);
    if (!diff && have.count != want->count)
        snprintf(why, sizeof why, "count (%llu vs %llu)", (unsigned long long)have.count,
                 (unsigned long long)want->count),
            diff = why;
    if (diff || !have.complete)
        return hn_fail(HN_ERR_ARG,
                       "%s: exists, made with other settings: %s; use --force to "
                       "replace it",
                       path, diff ? diff : "not complete");
    return HN_OK;
}

static dg_dom_writer *open_part(const char *path, const char *part, const dg_dom_gen_opts *o,
                                const dg_dom_info *in, dg_dom_info *found, int *rc)
{
    memset(found, 0, sizeof *found);
    if (o->overwrite && unlink(part) != 0 && errno != ENOENT) {
        *rc = hn_fail(HN_ERR_IO, "%s: cannot remove: %s", part, strerror(errno));
        return NULL;
    }
    /* afresh: the old FILE goes now, or a rerun after a stop would take it
     * for this run's finished file */
    if (o->overwrite && unlink(path) != 0 && errno != ENOENT) {
        *rc = hn_fail(HN_ERR_IO, "%s: cannot remove: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st; /* an empty FILE.part is a start killed before its header: no rows */
    if (lstat(part, &st) == 0 && !(S_ISREG(st.st_mode) && st.st_size == 0))
        return dg_dom_writer_resume(part, in, found, rc);
    if (lstat(part, &st) == 0 && unlink(part) != 0) {
        *rc = hn_fail(HN_ERR_IO, "%s: cannot remove: %s", part, strerror(errno));
        return NULL;
    }
    return dg_dom_writer_create(part, in, rc);
}

static int finish(const char *path, const char *part, dg_dom_writer *w, int complete, int rc)
{
    int empty = dg_dom_writer_rows(w) == 0;
    int crc = dg_dom_writer_close(w, complete && !rc ? path : NULL);
    rc = rc ? rc : crc;
    if (rc && rc != HN_ERR_INTERRUPTED && empty)
        unlink(part); /* a failed start (a full disk) holds nothing and would block the rerun */
    return rc;
}

/* FILE.part (and FILE.part.pack, FILE.part.new) left by a run killed after
 * it renamed the finished FILE: FILE is this run's, so they are only in the
 * way. */
static void drop_leftovers(const char *part)
{
    char name[4300];
    unlink(part);
    if (snprintf(name, sizeof name, "%s.pack", part) < (int)sizeof name)
        unlink(name);
    if (snprintf(name, sizeof name, "%s.new", part) < (int)sizeof name)
        unlink(name);
}

/* States over all shards; with all, the enumeration goes into g. */
static int run_total(struct dgen *g, const dg_dom_gen_opts *o, uint64_t *total)
{
    *total = o->instances ? (uint64_t)o->ninstances : o->count;
    if (!o->all)
        return HN_OK;
    return dg_dom_enumerate(o->d, DG_DOM_ALL_MAX, &g->all_states, &g->all_cost, total);
}

int dg_dom_gen_run(const char *path, const dg_dom_gen_opts *o, dg_dom_gen_stats *st)
{
    dg_dom_gen_stats local;
    st = st ? st : &local;
    memset(st, 0, sizeof *st);
    dg_dom_info in = {0}, found = {0};
    char part[4200];
    struct dgen g = {0};
    uint64_t total = 0;
    double t0 = hn_now();
    int rc = run_total(&g, o, &total);
    if (!rc)
        rc = make_info(o, total, &in);
    if (!rc && snprintf(part, sizeof part, "%s.part", path) >= (int)sizeof part)
        rc = hn_fail(HN_ERR_ARG, "%s: the path is too long", path);
    if (!rc && !o->overwrite && access(path, F_OK) == 0) {
        rc = existing_final(path, &in);
        st->complete = !rc;
        if (!rc)
            drop_leftovers(part);
        free(g.all_states);
        free(g.all_cost);
        return rc;
    }
    dg_dom_writer *w = rc ? NULL : open_part(path, part, o, &in, &found, &rc);
    if (!rc)
        rc = setup(&g, o);
    g.base = in.first_index;
    uint64_t end = in.count, done = found.done;
    if (o->stop_after && end - done > o->stop_after)
        end = done + o->stop_after;
    if (!rc)
        rc = (o->all ? label_all : label)(&g, w, g.base + found.done, g.base + end, &done);
    st->seconds = hn_now() - t0;
    st->resumed_from = found.done;
    st->states = done - found.done;
    st->expanded = g.expanded;
    st->rows = w ? dg_dom_writer_rows(w) : 0;
    st->complete = !rc && done == in.count;
    teardown(&g);
    if (!rc && !st->complete)
        rc = hn_fail(HN_ERR_INTERRUPTED, "%s: stopped after %llu of %llu states", part,
                     (unsigned long long)done, (unsigned long long)in.count);
    return w ? finish(path, part, w, st->complete, rc) : rc;
}

int dg_file_crc32(const char *path, uint32_t *crc)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return hn_fail(HN_ERR_IO, "%s: cannot open", path);
    uLong c = crc32(0L, Z_NULL, 0);
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        c = crc32(c, buf, (uInt)n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return hn_fail(HN_ERR_IO, "%s: read error", path);
    *crc = (uint32_t)c;
    return HN_OK;
}

int dg_dom_gen_default_uniform(const dom *d)
{
    return !strncmp(dom_spec(d), "npuzzle:", 8) && dom_state_bytes(d) <= 26 &&
           dom_facts_of(d)->has_uniform;
}

const char *dg_dom_gen_default_heur(const dom *d, char *buf, size_t cap)
{
    int w = 0, h = 0;
    if (sscanf(dom_spec(d), "npuzzle:%dx%d", &w, &h) == 2 && w == h && w >= 3 && w <= 5)
        return w == 3 ? "lc" : w == 4 ? "pdb:7-8" : "pdb:6-6-6-6";
    if (!strcmp(dom_spec(d), "cube3"))
        return "fsst"; /* optimal IDA* at 18 moves in about a second */
    const char *heurs = dom_facts_of(d)->heuristics;
    snprintf(buf, cap, "%.*s", (int)strcspn(heurs ? heurs : "", ","), heurs ? heurs : "");
    return buf;
}
