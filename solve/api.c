/* The flat facade for bindings (solve/api.h): errors, models from a spec,
 * board checks, heuristic values and solving a batch of boards the way
 * heurnet solve does, so Python gets the command line's numbers. */
#include "solve/api.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/encode.h"
#include "solve/search.h"

/* heurnet solve's defaults (cli/search_opts.c) */
#define API_BATCH 16
#define API_BOUND 1.05
#define API_LAMBDA 0.8

size_t heurnet_errmsg_copy(char *buf, size_t cap)
{
    const char *m = hn_errmsg();
    if (buf && cap)
        snprintf(buf, cap, "%s", m);
    return strlen(m);
}

nn_model *heurnet_model_create(const char *arch, float dropout, uint64_t seed, int *status)
{
    struct nn_layer_defaults d = NN_LAYER_DEFAULTS;
    struct nn_spec *sp = malloc(sizeof *sp);
    int st = sp ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory for a spec");
    d.dropout = dropout;
    if (!st && !(dropout >= 0.0f && dropout < 1.0f))
        st = hn_fail(HN_ERR_ARG, "dropout %g: expected a share in [0, 1)", (double)dropout);
    if (!st && !arch)
        st = hn_fail(HN_ERR_ARG, "no architecture spec given");
    if (!st && (st = nn_spec_parse(arch, &d, sp)))
        hn_fail(st, "spec '%s': %s", arch, hn_errmsg());
    if (!st)
        st = nn_spec_check(sp);
    nn_model *m = st ? NULL : nn_model_new(sp, seed, &st);
    free(sp);
    if (status)
        *status = st;
    return m;
}

int heurnet_model_spec_string(const nn_model *m, char *buf, size_t cap)
{
    return nn_spec_format(nn_model_spec(m), NULL, buf, cap);
}

static int board_get(const uint8_t *tiles, size_t i, int width, int goal, srch_np_board *b)
{
    size_t cells = (size_t)width * (size_t)width;
    if (srch_np_board_set(b, width, tiles + i * cells))
        return hn_fail(HN_ERR_ARG, "board %zu: %s", i, hn_errmsg());
    if (!srch_np_board_solvable(b, goal))
        return hn_fail(HN_ERR_ARG, "board %zu cannot reach the %s goal", i,
                       srch_np_goal_name(goal));
    return HN_OK;
}

int heurnet_boards_check(const uint8_t *tiles, size_t n, int width, int goal)
{
    srch_np_board b;
    if (width < 3 || width > 5 || !srch_np_goal_name(goal))
        return hn_fail(HN_ERR_ARG, "width %d / goal %d: expected width 3..5 and a goal layout",
                       width, goal);
    if (n && !tiles)
        return hn_fail(HN_ERR_ARG, "%zu boards but no tiles (NULL)", n);
    for (size_t i = 0; i < n; i++)
        if (board_get(tiles, i, width, goal, &b))
            return HN_ERR_ARG;
    return HN_OK;
}

int heurnet_boards_encode(const uint8_t *tiles, size_t n, int width, int goal, float *x)
{
    int st = heurnet_boards_check(tiles, n, width, goal);
    if (st)
        return st;
    if (n && !x)
        return hn_fail(HN_ERR_ARG, "%zu boards but no output (NULL)", n);
    srch_np_encode_onehot_rows(tiles, n, width * width, x);
    return HN_OK;
}

int heurnet_heur_values(const srch_np_heur *h, const uint8_t *tiles, size_t n, int width,
                        int32_t *out)
{
    srch_np_board b;
    if (!h || width != srch_np_heur_width(h))
        return hn_fail(HN_ERR_ARG, "boards of width %d for a heuristic of width %d", width,
                       h ? srch_np_heur_width(h) : 0);
    if (n && (!tiles || !out))
        return hn_fail(HN_ERR_ARG, "%zu boards but no tiles or output (NULL)", n);
    for (size_t i = 0; i < n; i++) {
        if (srch_np_board_set(&b, width, tiles + i * (size_t)width * (size_t)width))
            return hn_fail(HN_ERR_ARG, "board %zu: %s", i, hn_errmsg());
        out[i] = srch_np_heur_eval(h, &b);
    }
    return HN_OK;
}

/* The scalars of a in heurnet solve's ranges (cli/cmd_solve.c,
 * cli/search_opts.c); 0 keeps its meaning "the default". */
static int solve_scalars(const heurnet_solve_args *a)
{
    if (a->batch < 0 || a->batch > 65536)
        return hn_fail(HN_ERR_ARG, "batch %d: expected 1..65536 (0: the default)", a->batch);
    if (!(isfinite(a->weight) && a->weight >= 0))
        return hn_fail(HN_ERR_ARG, "weight %g: expected a finite number > 0 (0: the default)",
                       a->weight);
    if (!(a->bound == 0 || (a->bound >= 1 && a->bound <= 100)))
        return hn_fail(HN_ERR_ARG, "bound %g: expected 1..100 (0: the default)", a->bound);
    if (!(isfinite(a->lim.time_limit) && a->lim.time_limit >= 0))
        return hn_fail(HN_ERR_ARG, "time_limit %g: expected finite seconds >= 0 (0: no limit)",
                       a->lim.time_limit);
    if (a->threads < 0 || a->threads > HEURNET_MAX_THREADS)
        return hn_fail(HN_ERR_ARG, "threads %d: expected 1..%d", a->threads, HEURNET_MAX_THREADS);
    return HN_OK;
}

/* The search of a, with heurnet solve's defaults for what a leaves 0. */
static int solve_setup(const heurnet_solve_args *a, heurnet_search *s)
{
    int algo;
    if (!a->algo || heurnet_algo_parse(a->algo, &algo) || algo == HEURNET_ALGO_ANYTIME)
        return hn_fail(HN_ERR_ARG,
                       "algo '%s': expected idastar, astar, wastar, batch-astar, bwas or focal",
                       a->algo ? a->algo : "(null)");
    double w = a->weight > 0                 ? a->weight
               : algo == HEURNET_ALGO_WASTAR ? 1.5
               : algo == HEURNET_ALGO_BWAS   ? API_LAMBDA
                                             : 1;
    int batch = a->batch > 0 ? a->batch : algo == HEURNET_ALGO_WASTAR ? 1 : API_BATCH;
    if (algo == HEURNET_ALGO_WASTAR && batch != 1)
        return hn_fail(HN_ERR_ARG, "wastar expands one node at a time; use batch-astar for batch");
    if (algo == HEURNET_ALGO_BWAS ? w > 1 : w < 1)
        return hn_fail(HN_ERR_ARG, "weight %g out of range for %s", w, heurnet_algo_name(algo));
    *s = (heurnet_search){.algo = algo,
                          .bfs = {batch, w},
                          .bound = a->bound > 0 ? a->bound : API_BOUND,
                          .threads = a->threads > 0 ? a->threads : 1};
    const char *h =
        a->heuristic && a->heuristic[0] ? a->heuristic : heurnet_default_heuristic(a->width);
    const char *adm = a->admissible && a->admissible[0] ? a->admissible : NULL;
    return heurnet_search_setup(s, h, adm, a->width, a->goal, a->quiet);
}

typedef struct {
    const heurnet_solve_args *a;
    const heurnet_search *s;
    const uint8_t *tiles;
    srch_np_result *res;
    size_t n;
    atomic_size_t next;
} solve_job;

static void *solve_worker(void *arg)
{
    solve_job *j = arg;
    srch_np_board b;
    srch_np_ann_stats nn;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || hn_stop_requested())
            break;
        board_get(j->tiles, i, j->a->width, j->a->goal, &b); /* checked before */
        heurnet_search_solve(j->s, &b, &j->a->lim, &j->res[i], &nn);
    }
    return NULL;
}

/* As heurnet solve: one board after the other, or a pool of threads. */
static void solve_all(solve_job *j)
{
    int threads = j->a->threads > 1 ? j->a->threads : 1; /* <= HEURNET_MAX_THREADS */
    pthread_t tid[HEURNET_MAX_THREADS];
    int started = 0;
    for (; threads > 1 && started < threads; started++)
        if (pthread_create(&tid[started], NULL, solve_worker, j))
            break;
    if (!started)
        solve_worker(j);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

static void row_fill(const srch_np_result *r, heurnet_solve_row *row, char *moves, size_t stride)
{
    *row = (heurnet_solve_row){.status = r->status,
                               .length = r->length,
                               .h0 = r->h0,
                               .nmoves = r->status ? 0 : r->nmoves,
                               .expanded = r->expanded,
                               .generated = r->generated,
                               .seconds = r->seconds};
    moves[0] = 0;
    if (!r->status)
        srch_np_moves_format(r->moves, r->nmoves, moves, stride);
}

int heurnet_solve_boards(const heurnet_solve_args *a, const uint8_t *tiles, size_t n,
                         heurnet_solve_row *rows, char *moves, size_t stride)
{
    if (!a || (n && (!tiles || !rows || !moves)))
        return hn_fail(HN_ERR_ARG, "heurnet_solve_boards: NULL arguments");
    if (stride < SRCH_NP_MAX_PATH + 1)
        return hn_fail(HN_ERR_ARG, "moves stride %zu: at least %d needed", stride,
                       SRCH_NP_MAX_PATH + 1);
    int st = solve_scalars(a);
    if (!st)
        st = heurnet_boards_check(tiles, n, a->width, a->goal);
    srch_np_result *res = st ? NULL : malloc((n ? n : 1) * sizeof *res);
    if (!st && !res)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for %zu results", n);
    heurnet_search s;
    if (st || (st = solve_setup(a, &s))) {
        free(res);
        return st;
    }
    for (size_t i = 0; i < n; i++)
        res[i] = (srch_np_result){.status = HN_ERR_INTERRUPTED, .length = -1, .h0 = -1};
    solve_job j = {.a = a, .s = &s, .tiles = tiles, .res = res, .n = n};
    solve_all(&j);
    for (size_t i = 0; i < n; i++)
        row_fill(&res[i], &rows[i], moves + i * stride, stride);
    free(res);
    heurnet_search_free(&s);
    return hn_stop_requested() ? hn_fail(HN_ERR_INTERRUPTED, "interrupted") : HN_OK;
}
