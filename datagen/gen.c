/* Labelled-data generation: worker threads solve boards optimally in any
 * order, the calling thread writes them strictly in index order through a
 * window of slots, so the file never depends on the thread count and a
 * restart continues exactly where the committed rows end. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datagen/dg.h"
#include "datagen/gen_priv.h"

#define WINDOW_PER_THREAD 256
#define COMMIT_SECONDS 5.0
#define COMMIT_ROWS (1u << 16)

struct slot {
    srch_np_board board;
    int state; /* 0 free, 1 being solved, 2 done */
    int status;
    uint16_t cost;
    uint16_t nmoves;
    uint64_t expanded;
    uint8_t moves[256];
    char msg[256]; /* the worker's error message (messages are per thread) */
};

struct gen {
    const dg_gen_opts *o;
    int source;          /* enum dg_source of the sampled boards */
    uint64_t first, end; /* global indices of this run: [first, end) */
    uint64_t next;       /* next global index to hand out */
    uint64_t written;    /* global index of the next board to write */
    size_t window;
    struct slot *slots;
    uint64_t expanded; /* solver expansions of the boards written */
    int stop, running;
    /* board stream */
    hn_rng *rng;
    uint64_t rng_block, rng_next;
    pthread_mutex_t mu;
    pthread_cond_t space, ready;
};

/* Board g of the run's stream; called under the mutex in increasing g. */
static int next_board(struct gen *g, uint64_t idx, srch_np_board *b)
{
    const dg_gen_opts *o = g->o;
    if (o->instances) {
        *b = o->instances[idx].board;
        return HN_OK;
    }
    uint64_t block = idx / DG_SEED_BLOCK;
    if (!g->rng || block != g->rng_block || idx != g->rng_next) {
        hn_rng_free(g->rng);
        g->rng = hn_rng_new(hn_seed_mix(o->seed, block));
        if (!g->rng)
            return hn_fail(HN_ERR_NOMEM, "out of memory");
        g->rng_block = block;
        g->rng_next = block * DG_SEED_BLOCK;
    }
    for (; g->rng_next <= idx; g->rng_next++) {
        if (o->walk_length > 0)
            srch_np_board_random_walk(b, o->width, o->goal, o->walk_length, g->rng);
        else
            srch_np_board_random(b, o->width, o->goal, g->rng);
    }
    return HN_OK;
}

static void solve_slot(const dg_gen_opts *o, struct slot *s, uint64_t idx)
{
    srch_np_result res;
    int rc = srch_np_idastar(&s->board, o->heur, &o->limits, &res);
    if (rc == HN_OK && res.length > 255)
        rc = hn_fail(HN_ERR_LIMIT, "board %llu: solution of %d moves is too long to store",
                     (unsigned long long)idx, res.length);
    else if (rc != HN_OK && rc != HN_ERR_INTERRUPTED) {
        char why[200], tiles[128];
        snprintf(why, sizeof why, "%s", hn_errmsg()); /* hn_fail reuses its buffer */
        srch_np_board_format(&s->board, tiles, sizeof tiles);
        rc = hn_fail(rc, "board %llu (%s): %s", (unsigned long long)idx, tiles, why);
    }
    int known = o->instances ? o->instances[idx].optimal : -1;
    if (rc == HN_OK && known >= 0 && res.length != known) /* an inadmissible heuristic? */
        rc = hn_fail(HN_ERR_FORMAT, "%s:%d: solved in %d moves but the file says %d is optimal",
                     o->from ? o->from : "instances", o->instances[idx].line, res.length, known);
    s->status = rc;
    if (rc) {
        snprintf(s->msg, sizeof s->msg, "%s", hn_errmsg());
        return;
    }
    s->cost = (uint16_t)res.length;
    s->expanded = res.expanded;
    s->nmoves = (uint16_t)res.nmoves;
    if (o->path_states)
        memcpy(s->moves, res.moves, (size_t)res.nmoves);
}

static void *worker(void *arg)
{
    struct gen *g = arg;
    pthread_mutex_lock(&g->mu);
    for (;;) {
        while (!g->stop && g->next < g->end && g->next >= g->written + g->window)
            pthread_cond_wait(&g->space, &g->mu);
        if (g->stop || g->next >= g->end || hn_stop_requested())
            break;
        uint64_t idx = g->next++;
        struct slot *s = &g->slots[idx % g->window];
        s->state = 1;
        int rc = next_board(g, idx, &s->board);
        pthread_mutex_unlock(&g->mu);
        if (!rc)
            solve_slot(g->o, s, idx);
        else
            s->status = rc, snprintf(s->msg, sizeof s->msg, "%s", hn_errmsg());
        pthread_mutex_lock(&g->mu);
        s->state = 2;
        pthread_cond_broadcast(&g->ready);
    }
    g->running--;
    pthread_cond_broadcast(&g->ready);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* Rows of one solved board: the board itself, then (path states) every
 * board on its optimal path with the remaining distance, the goal excluded. */
static int emit_slot(struct gen *g, struct dg_rowbuf *rb, const struct slot *s)
{
    int rc = dg_rowbuf_push(rb, &s->board, s->cost, s->expanded, (uint8_t)g->source);
    g->expanded += s->expanded;
    if (rc || !g->o->path_states)
        return rc;
    srch_np_board b = s->board;
    for (int k = 0; k + 1 < s->nmoves && !rc; k++) {
        srch_np_board_move(&b, s->moves[k]);
        rc = dg_rowbuf_push(rb, &b, (uint16_t)(s->cost - k - 1), 0, DG_SOURCE_PATH);
    }
    return rc;
}

/* Move finished boards in index order from the slots into rb. Under the
 * mutex. Returns the first board error met (later boards stay unwritten). */
static int collect(struct gen *g, struct dg_rowbuf *rb)
{
    int rc = HN_OK;
    while (g->written < g->next) {
        struct slot *s = &g->slots[g->written % g->window];
        if (s->state != 2)
            break;
        if (s->status == HN_ERR_INTERRUPTED) { /* the solver saw the stop request */
            g->stop = 1;
            break;
        }
        if (s->status) {
            rc = hn_fail(s->status, "%s", s->msg);
            break;
        }
        if ((rc = emit_slot(g, rb, s)))
            break;
        s->state = 0;
        g->written++;
    }
    pthread_cond_broadcast(&g->space);
    return rc;
}

/* Progress counts this run's boards only, so rates stay true after a resume. */
static void report(const struct gen *g)
{
    if (g->o->progress)
        g->o->progress(g->written - g->first, g->end - g->first, NULL, g->o->user);
}

/* The writer loop: wait for results, write them in order, commit regularly. */
static int drive(struct gen *g, dg_writer *w, uint64_t done_before)
{
    struct dg_rowbuf rb;
    int rc = dg_rowbuf_init(&rb, g->o->width * g->o->width), werr = HN_OK;
    double last_commit = hn_now();
    pthread_mutex_lock(&g->mu);
    while (!rc) {
        rc = collect(g, &rb);
        int finished = g->running == 0;
        if (!rc && !g->stop && hn_stop_requested())
            g->stop = 1;
        if (!finished && !rc && rb.rows < COMMIT_ROWS && hn_now() - last_commit < COMMIT_SECONDS) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 200000000L;
            if (ts.tv_nsec >= 1000000000L)
                ts.tv_sec++, ts.tv_nsec -= 1000000000L;
            pthread_cond_timedwait(&g->ready, &g->mu, &ts);
            pthread_mutex_unlock(&g->mu);
            report(g);
            pthread_mutex_lock(&g->mu);
            continue;
        }
        uint64_t done = g->written - g->first;
        pthread_mutex_unlock(&g->mu);
        werr = dg_rowbuf_flush(&rb, w, done + done_before);
        report(g);
        last_commit = hn_now();
        pthread_mutex_lock(&g->mu);
        if (werr || finished)
            break;
    }
    g->stop = 1;
    pthread_cond_broadcast(&g->space);
    while (g->running > 0)
        pthread_cond_wait(&g->ready, &g->mu);
    pthread_mutex_unlock(&g->mu);
    if (rc && !werr) /* a board failed: keep what came before it */
        werr = dg_rowbuf_flush(&rb, w, g->written - g->first + done_before);
    dg_rowbuf_free(&rb);
    return rc ? rc : werr;
}

static int run_threads(struct gen *g, dg_writer *w, uint64_t done_before)
{
    int nt = g->o->threads > 0 ? g->o->threads : 1;
    pthread_t *tid = calloc((size_t)nt, sizeof *tid);
    g->window = (size_t)nt * WINDOW_PER_THREAD;
    g->slots = calloc(g->window, sizeof *g->slots);
    if (!tid || !g->slots) {
        free(tid);
        return hn_fail(HN_ERR_NOMEM, "out of memory for %d threads", nt);
    }
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->space, NULL);
    pthread_cond_init(&g->ready, NULL);
    int started = 0;
    for (; started < nt; started++) {
        g->running++;
        if (pthread_create(&tid[started], NULL, worker, g)) {
            g->running--;
            break;
        }
    }
    int rc = started ? drive(g, w, done_before)
                     : hn_fail(HN_ERR_NOMEM, "cannot start labelling threads");
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_cond_destroy(&g->ready);
    pthread_cond_destroy(&g->space);
    pthread_mutex_destroy(&g->mu);
    free(tid);
    return rc;
}

int dg_gen_run(const char *path, const dg_gen_opts *o, dg_gen_stats *st)
{
    dg_gen_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!o->heur)
        return hn_fail(HN_ERR_ARG, "dg_gen_run: no heuristic");
    if (srch_np_heur_width(o->heur) != o->width || srch_np_heur_goal(o->heur) != o->goal)
        return hn_fail(HN_ERR_ARG, "heuristic %s is for another board width or goal layout",
                       o->heur_name);
    dg_ds_info info;
    int rc = dg_gen_info(o, &info);
    dg_ds_info found;
    dg_writer *w = rc ? NULL : dg_gen_open(path, o, &info, &found, &rc);
    if (!w)
        return rc;
    struct gen g = {.o = o, .source = dg_info_default_source(&info)};
    g.first = g.next = g.written = info.first_index + found.done;
    g.end = info.first_index + info.count;
    if (o->stop_after && g.end - g.first > o->stop_after)
        g.end = g.first + o->stop_after;
    st->resumed_from = found.done;
    if (found.done)
        hn_log(HN_LOG_INFO, "%s: continuing after %llu of %llu boards", path,
               (unsigned long long)found.done, (unsigned long long)info.count);
    double t0 = hn_now();
    rc = g.first < g.end ? run_threads(&g, w, found.done) : HN_OK;
    st->seconds = hn_now() - t0;
    st->boards = g.written - g.first;
    st->rows = dg_writer_rows(w);
    st->expanded = g.expanded;
    st->complete = found.done + st->boards == info.count;
    if (!rc && !st->complete)
        rc = hn_fail(HN_ERR_INTERRUPTED, "%s: stopped after %llu of %llu boards", path,
                     (unsigned long long)(found.done + st->boards), (unsigned long long)info.count);
    int crc = dg_writer_close(w, st->complete);
    hn_rng_free(g.rng);
    free(g.slots);
    return rc ? rc : crc;
}
