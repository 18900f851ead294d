/* Searches of an opened search over any domain: the algorithm's call, the
 * window shortcut after it within the state's time, a batch of states on a
 * pool of threads, and the batch's summary. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solve/dom_int.h"

/* focal with a clone of the admissible heuristic: the search writes its
 * scratch memory, and a batch runs one search per thread. */
static int run_focal(const heurnet_dom_search *s, const void *start, srch_dom_heur *h,
                     const srch_limits *lim, srch_dom_result *res)
{
    int st;
    srch_dom_heur *adm = srch_dom_heur_clone(s->adm, &st);
    if (adm)
        st = srch_dom_focal(s->d, start, h, adm, s->o.bound, &s->o.so, lim, res);
    else
        res->status = st;
    srch_dom_heur_free(adm);
    return st;
}

static int dispatch(const heurnet_dom_search *s, const void *start, srch_dom_heur *h,
                    const srch_limits *lim, srch_dom_result *res)
{
    const srch_dom_opts *so = &s->o.so;
    switch (s->o.algo) {
    case HEURNET_DOM_FOCAL:
        return run_focal(s, start, h, lim, res);
    case HEURNET_DOM_BWAS:
        return srch_dom_bwas(s->d, start, h, so, lim, res);
    case HEURNET_DOM_BEAM:
        return srch_dom_beam(s->d, start, h, so, lim, res);
    case HEURNET_DOM_IDASTAR:
        return srch_dom_idastar(s->d, start, h, lim, res);
    case HEURNET_DOM_ANYTIME:
        return srch_dom_anytime(s->d, start, h, so, lim, res);
    default:
        return srch_dom_astar(s->d, start, h, so, lim, res);
    }
}

/* The search in its share of the limits (*first), and once more in the
 * time left when the clock ended it without a path before a proof. */
static int search_stage(const heurnet_dom_search *s, srch_dom_heur *h, const void *start,
                        const srch_limits *lim, double t0, srch_limits *first, srch_dom_result *res)
{
    *first = heurnet_dom_prove_share(s, lim);
    srch_limits own = *first, again;
    /* a beam widens until its deadline: the windows get a share of the
     * time after it (the cube's windows of 16 moves take about 0.55 s under
     * the 6-edge PDB max) */
    if (s->o.algo == HEURNET_DOM_BEAM && s->o.so.shortcut.max_window && own.time_limit > 0)
        own.time_limit *= 1.0 - HEURNET_DOM_SHORTCUT_SHARE;
    int st = dispatch(s, start, h, lim ? &own : NULL, res);
    if (!heurnet_dom_prove_again(s, lim, t0, res, &again))
        return st;
    uint64_t e = res->expanded, g = res->generated;
    double before = hn_now() - t0;
    st = dispatch(s, start, h, &again, res);
    res->expanded += e; /* both runs' work, the first path's time from t0 */
    res->generated += g;
    res->first_seconds += res->first_seconds > 0 ? before : 0;
    *first = *lim;
    return st;
}

/* One search with heuristic h (s's or a thread's clone), then the windows
 * and the proof stage. */
static int run_one(const heurnet_dom_search *s, srch_dom_heur *h, const void *start,
                   const srch_limits *lim, srch_dom_result *res)
{
    double t0 = hn_now();
    srch_limits first;
    const srch_dom_shortcut_opts *sc = &s->o.so.shortcut;
    int st = search_stage(s, h, start, lim, t0, &first, res);
    int windows = s->o.algo != HEURNET_DOM_ANYTIME && sc->max_window;
    if (st || (!windows && !s->prove))
        return st;
    /* the final solution shortened within the search's time */
    double deadline = first.time_limit > 0 ? t0 + first.time_limit : 0;
    if (windows && srch_dom_result_shortcut(s->d, start, sc, deadline, res))
        hn_error_clear(); /* the search's solution stands */
    if (s->prove)
        heurnet_dom_prove_run(s, start, lim, t0, res);
    res->seconds = hn_now() - t0;
    return st;
}

int heurnet_dom_search_solve(heurnet_dom_search *s, const void *start, const srch_limits *lim,
                             srch_dom_result *res)
{
    int st = heurnet_dom_search_prepare(s);
    if (st) {
        *res = (srch_dom_result){.status = st, .length = -1, .cost = -1, .proof_from = -1};
        return st;
    }
    return run_one(s, s->h, start, lim ? lim : &s->o.lim, res);
}

/* ---- a batch on a pool of threads ---- */

typedef struct {
    const heurnet_dom_search *s;
    const uint8_t *states;
    size_t stride, n;
    srch_dom_result *res;
    atomic_size_t next;
    atomic_int status; /* the first thread that could not start its heuristic */
} batch_job;

static void *batch_worker(void *arg)
{
    batch_job *j = arg;
    int st;
    srch_dom_heur *h = srch_dom_heur_clone(j->s->h, &st);
    if (!h) {
        int none = 0;
        atomic_compare_exchange_strong(&j->status, &none, st);
        return NULL;
    }
    for (size_t i; (i = atomic_fetch_add(&j->next, 1)) < j->n && !hn_stop_requested();)
        run_one(j->s, h, j->states + i * j->stride, &j->s->o.lim, &j->res[i]);
    srch_dom_heur_free(h);
    return NULL;
}

int heurnet_dom_search_fits(const heurnet_dom_search *s, int threads)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    int bits;
    double one = (double)srch_dom_heur_spec_cache_bytes(s->d, s->o.heuristic, &bits);
    double all = one * threads;
    double half = (double)pages * (double)page / 2, gb = 1e-9;
    if (pages <= 0 || page <= 0 || all <= half)
        return 0;
    int fit = bits;
    while (fit > 0 && all / (double)(1ull << (bits - fit)) > half)
        fit--;
    return hn_fail(HN_ERR_ARG,
                   "the network's cache:%d takes %.2f GB per search thread (%d thread%s: %.2f GB), "
                   "more than half of the %.2f GB of physical memory; use cache:%d or less, or "
                   "fewer threads",
                   bits, one * gb, threads, threads > 1 ? "s" : "", all * gb, 2 * half * gb, fit);
}

int heurnet_dom_search_batch(heurnet_dom_search *s, const void *states, size_t stride, size_t n,
                             int threads, srch_dom_result *res)
{
    if (threads < 1 || threads > 256)
        return hn_fail(HN_ERR_ARG, "threads must be 1..256, not %d", threads);
    int st = heurnet_dom_search_prepare(s);
    if (!st)
        st = heurnet_dom_search_fits(s, threads);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++)
        res[i] = (srch_dom_result){
            .status = HN_ERR_INTERRUPTED, .length = -1, .cost = -1, .proof_from = -1};
    batch_job j = {.s = s,
                   .states = states,
                   .stride = stride ? stride : dom_state_bytes(s->d),
                   .n = n,
                   .res = res};
    pthread_t tid[256];
    int started = 0;
    for (; threads > 1 && started < threads; started++)
        if (pthread_create(&tid[started], NULL, batch_worker, &j))
            break;
    if (!started)
        batch_worker(&j);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    st = atomic_load(&j.status);
    return st ? hn_fail(st, "a search thread could not copy the heuristic: %s", hn_strerror(st))
              : 0;
}

void heurnet_dom_summarize(const srch_dom_result *res, const int *known, size_t n,
                           heurnet_dom_summary *sum)
{
    *sum = (heurnet_dom_summary){.count = n};
    for (size_t i = 0; i < n; i++) {
        const srch_dom_result *r = &res[i];
        sum->seconds += r->seconds;
        sum->expanded_all += (double)r->expanded; /* an unsolved state: until its limit */
        if (r->status)
            continue;
        sum->solved++;
        sum->expanded += (double)r->expanded;
        sum->length += r->length;
        if (known && known[i] >= 0) {
            sum->with_known++;
            sum->known += known[i];
            sum->differ += r->length != known[i];
            sum->shorter += r->length < known[i];
        }
    }
}

/* ---- the search in words ---- */

/* snprintf at buf + k (k < 0 or past cap: nothing); the new k. */
#define DESCRIBE(...)                                                                              \
    (k >= 0 && (size_t)k < cap ? k + snprintf(buf + k, cap - (size_t)k, __VA_ARGS__) : k)

int heurnet_dom_search_describe(const heurnet_dom_search *s, char *buf, size_t cap)
{
    const heurnet_dom_opts *o = &s->o;
    int k = snprintf(buf, cap, "%s, weight %g, batch %d, width %d", heurnet_dom_algo_name(o->algo),
                     o->so.weight, o->so.batch, o->so.width);
    if (o->algo == HEURNET_DOM_FOCAL)
        k = DESCRIBE(", bound %g over %s", o->bound, o->admissible);
    for (int i = 0; o->algo == HEURNET_DOM_ANYTIME && i < o->so.nweights; i++)
        k = DESCRIBE("%s%g", i ? "," : ", weights ", o->so.weights[i]);
    if (o->algo == HEURNET_DOM_ANYTIME && o->so.restart)
        k = DESCRIBE(", phases restart");
    if (o->so.widen > 0)
        k = DESCRIBE(", widen %g", o->so.widen);
    if (o->so.variants > 1)
        k = DESCRIBE(", %d variants", o->so.variants);
    if (s->ball)
        k = DESCRIBE(", ball %d (%zu states, %.1f s to build)", o->ball_radius,
                     srch_dom_ball_states(s->ball), s->ball_seconds);
    if (o->so.shortcut.max_window)
        k = DESCRIBE(", windows of up to %d moves%s, %d rounds", o->so.shortcut.max_window,
                     o->so.shortcut.ida ? " (IDA* over 16)" : "", o->so.shortcut.max_rounds);
    if (o->prove)
        k = DESCRIBE(", then IDA* on %s below it after %g of the time", o->prove, o->prove_at);
    return k;
}
