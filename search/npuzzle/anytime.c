/* Anytime A* over a schedule of deltas: phase k is A* on
 * f = g + max(h - delta_k, adm), restricted to f < the incumbent's length,
 * so each phase either finds a shorter solution or shows that its ordering
 * cannot. A last delta of infinity leaves the admissible heuristic alone,
 * and that phase running to its end proves the incumbent optimal. Weighted phases
 * (f = g + w h for falling w, as in ARA*) may come first: the first finds a
 * solution fast, the next ones improve it on boards where the network
 * under-estimates so much that the delta-0 phase would not end in time.
 * Where the clock or a node limit stops the schedule, the incumbent is the
 * answer.
 *
 * A phase continues the search of the one before instead of starting at
 * the root again (as ARA* reuses its search): each phase's f is at most the
 * last one's for every node (the weights fall, then delta rises, and the
 * inf phase takes the smallest value of all), so whatever the last phase
 * expanded the next would expand too. Its expanded nodes stay closed with
 * their children stored; the nodes it left open or pruned are queued again
 * under the new f, and a shorter path to a closed node reopens it. A phase
 * then costs only its new nodes (each board goes through the network once
 * per run), and the last one that runs to its end still proves: every
 * board on an optimal path is either closed with its true g or reachable
 * from one that is. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/bfs_store.h"
#include "search/npuzzle/np_internal.h"

typedef struct {
    srch_np_bfs_store s;
    srch_np_bfs_heap open;
    const srch_np_heur *h, *adm;
    int scale, goal;
    long delta; /* this phase's delta in 1/scale units; LONG_MAX: adm alone */
    long wq;    /* this phase's weight on h in 1/F_RES (F_RES: plain A*) */
    int best;   /* incumbent length, INT_MAX: none */
    int nmoves;
    uint8_t moves[SRCH_NP_MAX_PATH];
    const srch_np_board *start;
    const srch_np_shortcut_opts *sc; /* NULL: incumbents are kept as found */
    double deadline;
    int saved;           /* moves the shortcut pass removed */
    srch_np_result *res; /* the run's counters (lazy guide values count in heur_calls) */
} anytime;

/* f in 1/F_RES of a heuristic unit, so a first phase of weight 1.25 is
 * not rounded away (as in batch_astar.c). */
#define F_RES 64

/* f of node idx in this phase (g and h below 2^16 each, weight <= 100)
 * into *f: 0 or a status. A node stored lazily (past the incumbent's
 * bound) and reached by a shorter path since gets the guide's value here,
 * the only place that reads it. */
static int f_of(anytime *a, uint32_t idx, uint64_t *f)
{
    srch_np_bfs_node *x = &a->s.nodes[idx];
    if (x->lazy && a->delta != LONG_MAX) {
        int st = srch_np_bfs_fill_guide(&a->s, idx, a->h, a->adm, a->res);
        if (st)
            return st;
    }
    long lo = (long)x->h[1] * a->scale;
    long v = a->delta == LONG_MAX ? lo : (long)x->h[0] - a->delta;
    *f =
        (uint64_t)x->g * (uint64_t)a->scale * F_RES + (uint64_t)a->wq * (uint64_t)(v > lo ? v : lo);
    return 0;
}

/* f of a solution of the incumbent's length (h = 0 at the goal). */
static uint64_t f_best(const anytime *a)
{
    return (uint64_t)a->best * (uint64_t)a->scale * F_RES;
}

/* Every solution has the incumbent's parity (a move shifts the blank by
 * one cell), so a shorter one has at most best - 2 moves and cannot pass a
 * node whose admissible bound says best - 1 or more. */
static int cannot_improve(const anytime *a, const srch_np_bfs_node *x)
{
    return a->best != INT_MAX && x->g + x->h[1] >= a->best - 1;
}

/* A goal reached by a shorter path becomes the incumbent (kept outside the
 * store, whose parents the next phase overwrites), shortened by windows
 * first when asked: the rest of the phase and the next ones are then
 * bounded by the shorter length. */
static int set_incumbent(anytime *a, const uint8_t *moves, int nmoves, int length)
{
    a->best = length;
    a->nmoves = nmoves;
    memcpy(a->moves, moves, (size_t)nmoves);
    if (!a->sc || a->nmoves != a->best) /* a path too long to hold is not shortened */
        return 0;
    int st = srch_np_shortcut(a->start, a->moves, &a->nmoves, a->sc, a->deadline, &a->saved);
    a->best = a->nmoves;
    return st;
}

static int take_incumbent(anytime *a, uint32_t idx)
{
    srch_np_result r;
    srch_np_bfs_take_path(&a->s, idx, &r);
    return set_incumbent(a, r.moves, r.nmoves, r.length);
}

/* Whether node idx goes into the open list, at *pri: 1 yes; 0 not when it
 * cannot lead to a solution shorter than the incumbent (f >= best), or is
 * a goal, which is taken at once instead; < 0 an error. */
static int admit(anytime *a, uint32_t idx, uint64_t *pri)
{
    const srch_np_bfs_node *x = &a->s.nodes[idx];
    if (x->h[1] == 0 && x->g < a->best) {
        srch_np_board b;
        srch_np_bfs_board_of(&a->s, idx, &b);
        if (srch_np_board_is_goal(&b, a->goal))
            return take_incumbent(a, idx);
    }
    if (cannot_improve(a, x))
        return 0;
    uint64_t f;
    int st = f_of(a, idx, &f);
    if (st)
        return st;
    if (a->best != INT_MAX && f >= f_best(a))
        return 0;
    *pri = f << 16 | (uint64_t)(0xffff - x->g);
    return 1;
}

/* The expansion's callback: a new or improved child, queued at once. */
static int push(void *ctx, uint32_t idx)
{
    anytime *a = ctx;
    uint64_t pri;
    int r = admit(a, idx, &pri);
    return r <= 0 ? r : srch_np_bfs_heap_push(&a->open, pri, idx, a->s.nodes[idx].g);
}

/* The open list of a new phase: every stored node not expanded since its
 * g last fell (the first phase: the root), under this phase's f. They go
 * in unordered and are heapified once, which for the millions a late phase
 * re-queues is cheaper than a push each. */
static int requeue(anytime *a)
{
    a->open.n = 0;
    for (size_t i = 0; i < a->s.n; i++) {
        uint64_t pri;
        int r = a->s.nodes[i].open ? admit(a, (uint32_t)i, &pri) : 0;
        if (r > 0)
            r = srch_np_bfs_heap_append(&a->open, pri, (uint32_t)i, a->s.nodes[i].g);
        if (r < 0)
            return r;
    }
    srch_np_bfs_heapify(&a->open);
    return 0;
}

/* One phase, continuing the search the phases before it left. */
static int phase(anytime *a, const srch_limits *lim, double deadline, srch_np_result *res)
{
    int st = requeue(a);
    if (st)
        return st;
    while (a->open.n) {
        srch_np_bfs_item top = srch_np_bfs_heap_pop(&a->open);
        srch_np_bfs_node *x = &a->s.nodes[top.idx];
        if (!x->open || x->g != top.g)
            continue;
        if (a->best != INT_MAX && (top.pri >> 16) >= f_best(a))
            break; /* an incumbent found in this phase made the rest useless */
        /* before the node is closed: a phase stopped here leaves it open for the next */
        if ((st = srch_np_bfs_limits_hit("anytime A*", res, lim, deadline, a->s.n)))
            return st;
        x->open = 0;
        if (cannot_improve(a, x))
            continue; /* queued before the incumbent it cannot beat */
        /* boards stored in any phase keep their values: only new ones are evaluated */
        srch_np_board b;
        srch_np_bfs_board_of(&a->s, top.idx, &b);
        res->expanded++;
        /* a child cannot_improve() would drop needs no guide value, nor
           does any in the inf phase (the last), whose f is adm's alone */
        int cut = a->delta == LONG_MAX ? 0 : a->best == INT_MAX ? INT_MAX : a->best - 1;
        if ((st = srch_np_bfs_expand(&a->s, top.idx, &b, a->h, a->adm, cut, push, a, res)))
            return st;
    }
    return 0;
}

/* The A* phases: weighted ones first (k < 0), the first of which finds a
 * solution fast, then one per delta. With an IDA* stage they give way at
 * `handover` once they have an incumbent. */
static int astar_phases(anytime *a, const double *deltas, int ndeltas, const double *weights,
                        int nweights, const srch_limits *lim, double handover, double deadline,
                        srch_np_result *res)
{
    int st = 0;
    for (int k = -nweights; k < ndeltas && !st; k++) {
        a->wq = k < 0 ? lround(weights[nweights + k] * F_RES) : F_RES;
        a->delta = k < 0 ? 0 : isinf(deltas[k]) ? LONG_MAX : lround(deltas[k] * a->scale);
        st = phase(a, lim, handover, res);
        if (st == HN_ERR_LIMIT && a->best == INT_MAX && handover != deadline &&
            (deadline <= 0 || hn_now() <= deadline))
            st = phase(a, lim, deadline, res); /* no incumbent to hand over yet */
        if (!st) {
            res->phases++;
            res->proven = a->delta == LONG_MAX;
        }
    }
    return st;
}

/* The IDA* stage: passes below the incumbent until one finds nothing (a
 * proof without bands) or a limit ends them. */
static int ida_stage(anytime *a, const srch_np_ida_opts *ida, const srch_limits *lim,
                     double deadline, srch_np_result *res)
{
    for (;;) {
        uint8_t moves[SRCH_NP_MAX_PATH];
        int n = 0;
        if (a->best < 2) {
            res->proven = srch_np_ida_proves(ida);
            return 0;
        }
        int r = srch_np_ida_pass(a->start, a->adm, a->h, ida, a->best - 2, lim, deadline, res,
                                 moves, &n);
        if (r < 0)
            return r;
        res->phases++;
        if (r == 0) {
            res->proven = srch_np_ida_proves(ida);
            return 0;
        }
        if ((r = set_incumbent(a, moves, n, n)))
            return r;
    }
}

static int run(anytime *a, const srch_np_board *start, const double *deltas, int ndeltas,
               const double *weights, int nweights, const srch_np_ida_opts *ida,
               const srch_limits *lim, double t0, double deadline, srch_np_result *res)
{
    a->start = start;
    a->deadline = deadline;
    a->res = res;
    int h0 = srch_np_heur_eval(a->h, start), a0 = srch_np_heur_eval(a->adm, start);
    res->h0 = h0;
    res->heur_calls++;
    srch_np_bfs_child root = {.b = *start, .parent = BFS_NO_PARENT};
    srch_np_bfs_pack(start, root.key);
    if (srch_np_bfs_store_add(&a->s, &root, h0, a0 > 0xffff ? 0xffff : a0) < 0)
        return HN_ERR_NOMEM;
    double handover = ida && deadline > 0 ? t0 + ida->at * (deadline - t0) : deadline;
    int st = astar_phases(a, deltas, ndeltas, weights, nweights, lim, handover, deadline, res);
    if (ida && a->best != INT_MAX && !res->proven && (st == 0 || st == HN_ERR_LIMIT) &&
        (deadline <= 0 || hn_now() < deadline))
        st = ida_stage(a, ida, lim, deadline, res);
    if (a->best == INT_MAX)
        return st ? st
                  : hn_fail(HN_ERR_UNSOLVABLE,
                            "anytime A*: open list exhausted without reaching the goal");
    res->length = a->best;
    res->saved = a->saved;
    res->nmoves = a->nmoves;
    memcpy(res->moves, a->moves, (size_t)a->nmoves);
    /* a limit ends the schedule early, but the incumbent stands; an
     * interrupt or an error does not make it an answer */
    return st == HN_ERR_LIMIT ? 0 : st;
}

int srch_np_anytime_check(const double *deltas, int ndeltas, const double *weights, int nweights)
{
    if (nweights < 0 || nweights > SRCH_NP_MAX_WEIGHTS || (nweights && !weights))
        return hn_fail(HN_ERR_ARG, "anytime A*: 0..%d weights, not %d", SRCH_NP_MAX_WEIGHTS,
                       nweights);
    for (int i = 0; i < nweights; i++)
        if (!(weights[i] > 1) || weights[i] > 100 || (i && !(weights[i] < weights[i - 1])))
            return hn_fail(HN_ERR_ARG,
                           "anytime A*: the weighted phases' weights must fall, each in (1, 100]; "
                           "weight %d is %g",
                           i + 1, weights[i]);
    if (ndeltas < 1 || ndeltas > SRCH_NP_MAX_DELTAS)
        return hn_fail(HN_ERR_ARG, "anytime A*: 1..%d deltas, not %d", SRCH_NP_MAX_DELTAS, ndeltas);
    for (int i = 0; i < ndeltas; i++) {
        double d = deltas[i];
        if (isnan(d) || d < 0 || (!isinf(d) && d > 1000) || (i && d <= deltas[i - 1]))
            return hn_fail(HN_ERR_ARG,
                           "anytime A*: deltas must rise from >= 0 (each <= 1000, or inf last); "
                           "delta %d is %g",
                           i + 1, d);
        if (isinf(d) && i != ndeltas - 1)
            return hn_fail(HN_ERR_ARG, "anytime A*: inf can only be the last delta");
    }
    return 0;
}

int srch_np_anytime(const srch_np_board *start, const srch_np_heur *h, const srch_np_heur *adm,
                    const double *deltas, int ndeltas, const double *weights, int nweights,
                    const srch_np_shortcut_opts *sc, const srch_limits *lim, srch_np_result *res)
{
    return srch_np_anytime_ida(start, h, adm, deltas, ndeltas, weights, nweights, sc, NULL, lim,
                               res);
}

int srch_np_anytime_ida(const srch_np_board *start, const srch_np_heur *h, const srch_np_heur *adm,
                        const double *deltas, int ndeltas, const double *weights, int nweights,
                        const srch_np_shortcut_opts *sc, const srch_np_ida_opts *ida,
                        const srch_limits *lim, srch_np_result *res)
{
    if (srch_np_search_begin(start, h, res))
        return res->status;
    if ((res->status = srch_np_anytime_check(deltas, ndeltas, weights, nweights)))
        return res->status;
    if (sc && (res->status = srch_np_shortcut_check(sc)))
        return res->status;
    if (ida && !ida->on)
        ida = NULL;
    if (ida && (res->status = srch_np_ida_bands_check(ida)))
        return res->status;
    if (!adm || srch_np_heur_scale(adm) != 1 || srch_np_heur_width(adm) != start->width ||
        srch_np_heur_goal(adm) != srch_np_heur_goal(h))
        return res->status =
                   hn_fail(HN_ERR_ARG, "anytime A*: the admissible heuristic must be given, in "
                                       "whole moves, for the guide's board size and goal");
    double t0 = hn_now();
    anytime *a = calloc(1, sizeof *a);
    if (!a)
        return res->status = hn_fail(HN_ERR_NOMEM, "anytime A*: out of memory");
    *a = (anytime){.h = h,
                   .adm = adm,
                   .scale = srch_np_heur_scale(h),
                   .goal = srch_np_heur_goal(h),
                   .best = INT_MAX,
                   .sc = sc && sc->max_window ? sc : NULL};
    res->status = srch_np_bfs_store_init(&a->s, start->width);
    srch_np_bfs_store_track(&a->s, adm);
    if (!res->status)
        res->status = run(a, start, deltas, ndeltas, weights, nweights, ida, lim, t0,
                          lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0, res);
    res->stored = a->s.n;
    res->seconds = hn_now() - t0;
    srch_np_bfs_store_free(&a->s);
    free(a->open.a);
    free(a);
    return res->status;
}
