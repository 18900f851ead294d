/* The multi-neighbourhood local search of the seed paper: cycles of
 * TA -> BO -> BW -> TSR -> RO until no neighbourhood improves, then a
 * perturbation, until the time limit; the best board is kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search/emp/srch_em_int.h"

const srch_em_opts SRCH_EM_OPTS_DEFAULTS = {.time_limit = 30,
                                            .cpu_clock = 0,
                                            .seed = 1,
                                            .start = SRCH_EM_START_GREEDY,
                                            .ta_k = 16,
                                            .ta_n = 1000,
                                            .ro_w = 6,
                                            .ro_h = 6,
                                            .ro_n = 10,
                                            .ro_nodes = 20000,
                                            .start_nodes = 1000000,
                                            .perturb = 0,
                                            .walk = 0,
                                            .walk_temp = 0,
                                            .slack = 2,
                                            .escalate = 0,
                                            .backtrack_time = 0,
                                            .break_from = SRCH_EM_SCAN_BREAK_FROM,
                                            .breaks = SRCH_EM_SCAN_BREAKS,
                                            .restart = 0,
                                            .reheat_temp = 0,
                                            .reheat_tries = 30000000};

typedef struct {
    const srch_em_opts *o;
    const srch_em_inst *in;
    srch_em_board *cur, *best;
    /* anchor: the best board of the current descent, where the walk is sent
     * back when it falls too far. It is the run's best unless opts.restart is
     * on; then it is a board of its own that each restart resets to `start`. */
    srch_em_board *anchor, *start;
    double anchor_time; /* when the anchor last improved (or the descent began) */
    hn_rng *rng;
    srch_em_result *res;
    double t0, deadline, last_report;
    srch_em_progress_fn fn;
    void *user;
    srch_em_move *cand;
    int cand_cap;
    /* STAGE restart points (opts.stage_k): the chosen candidate, scratch
     * ints for the features, and the logged descent's start */
    srch_em_board *stage_pick;
    int *stage_scratch, stage_logged, stage_before;
    float stage_f[SRCH_EM_STAGE_DIM];
} em_run;

double srch_em_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double run_now(const em_run *r)
{
    return r->o->cpu_clock ? srch_em_cpu_seconds() : hn_now();
}

static int out_of_time(em_run *r)
{
    return run_now(r) >= r->deadline || hn_stop_requested() ||
           r->best->score == srch_em_inst_joins(r->in);
}

static void note_best(em_run *r)
{
    double now = run_now(r);
    if (r->cur->score > r->anchor->score) {
        if (r->anchor != r->best)
            srch_em_board_copy(r->anchor, r->cur);
        r->anchor_time = now;
    }
    if (r->cur->score > r->best->score) {
        srch_em_board_copy(r->best, r->cur);
        r->res->time_best = now - r->t0;
    }
    if (r->fn && now - r->last_report >= 1.0) {
        r->last_report = now;
        r->fn(r->cur->score, r->best->score, r->cur->evals, now - r->t0, r->user);
    }
}

/* The single place where a perturbation (plateau) move is chosen. A learned
 * move scorer replaces the random pick below: it receives the candidates of
 * srch_em_moves_enum (each with its immediate delta) in this board context. */
static void choose_perturbation_move(em_run *r)
{
    srch_em_board *b = r->cur;
    int cell, picks = 0;
    do
        cell = (int)hn_rng_below(r->rng, (uint32_t)b->n);
    while (b->fixed[cell] && ++picks < 64);
    if (b->fixed[cell])
        return; /* (almost) every cell is a clue */
    int nc = srch_em_moves_enum(b, cell, r->cand, r->cand_cap);
    if (nc == 0)
        return;
    int k = r->o->choose && !r->o->walk_choose
                ? r->o->choose(r->o->choose_user, b, r->cand, nc, r->rng)
                : -1;
    if (k >= 0 && k < nc) {
        srch_em_move_apply(b, &r->cand[k]);
        return;
    }
    /* prefer moves that lose at most one join: a kick, not a restart */
    k = (int)hn_rng_below(r->rng, (uint32_t)nc);
    for (int tries = 0; tries < 8 && r->cand[k].delta < -1; tries++)
        k = (int)hn_rng_below(r->rng, (uint32_t)nc);
    srch_em_move_apply(b, &r->cand[k]);
}

void srch_em_metropolis_init(srch_em_metropolis *m, double temp)
{
    m->keep[0] = 0;
    m->on = temp > 0;
    for (int d = 1; d < 8; d++)
        m->keep[d] = temp > 0 ? (uint32_t)(4294967295.0 * exp(-d / temp)) : 0;
}

/* Annealed walk: random swap+rotate moves of one class, kept when they do not
 * lose a join, so the board drifts across equal-score plateaus cheaply; at a
 * temperature > 0, moves that lose joins are kept by the Metropolis rule. The
 * kernel hands the board back in chunks, and as soon as it beats the anchor,
 * so a record is kept the moment it appears and the time limit is checked. */
static void annealed_walk(em_run *r, long tries, double temp)
{
    srch_em_metropolis acc;
    srch_em_metropolis_init(&acc, temp);
    srch_em_walk_rng wr;
    srch_em_walk_seed(&wr, hn_rng_u64(r->rng));
    srch_em_walk_guide g = {.k = r->o->choose ? r->o->walk_choose : 0,
                            .cand = r->cand,
                            .choose = r->o->choose,
                            .user = r->o->choose_user,
                            .rng = r->rng};
    const long chunk = 1L << 16;
    while (tries > 0) {
        long n = tries < chunk ? tries : chunk;
        if (g.k > 0)
            tries -= srch_em_walk_guided(r->cur, n, &acc, &wr, r->anchor->score, &g);
        else
            tries -= srch_em_walk(r->cur, n, &acc, &wr, r->anchor->score);
        note_best(r);
        if (out_of_time(r))
            return;
    }
}

/* The board a new descent (opts.restart) starts from: the start board, or
 * with a reheat temperature the run's best after a long walk at that
 * temperature: a perturbation that keeps most of what was found, where the
 * start board keeps none of it. (On Eternity II the walk has a sharp melting
 * point: 30 M tries at T 0.25 move a tenth of the pieces of a 456 board, at
 * T 0.28 nearly all of them.) */
/* The descent that ends now, for the caller fitting a value (opts.on_descent). */
static void stage_log(em_run *r)
{
    if (r->stage_logged && r->o->on_descent)
        r->o->on_descent(r->stage_f, r->stage_before, r->anchor->score, r->o->descent_user);
    r->stage_logged = 0;
}

/* STAGE: kicked copies of the run's best, of random kick sizes; the one of
 * highest learned value goes to r->cur. */
static void stage_start(em_run *r)
{
    const srch_em_opts *o = r->o;
    int kick = o->stage_kick > 0 ? o->stage_kick : r->in->n / 8 + 1;
    double best_v = -HUGE_VAL;
    float f[SRCH_EM_STAGE_DIM];
    stage_log(r);
    for (int i = 0; i < o->stage_k; i++) {
        srch_em_board_copy(r->cur, r->best);
        int moves = kick / 2 + (int)hn_rng_below(r->rng, (uint32_t)kick + 1);
        for (int j = 0; j < moves; j++)
            choose_perturbation_move(r);
        srch_em_stage_features(r->cur, r->best, r->stage_scratch, f);
        double v = srch_em_stage_value(o->stage_w, f);
        if (v > best_v) {
            best_v = v;
            srch_em_board_copy(r->stage_pick, r->cur);
            memcpy(r->stage_f, f, sizeof f);
        }
    }
    srch_em_board_copy(r->cur, r->stage_pick);
    r->stage_before = r->best->score;
    r->stage_logged = 1;
}

static void new_descent(em_run *r)
{
    if (r->o->stage_k > 0) {
        stage_start(r);
    } else if (r->o->reheat_temp > 0) {
        /* anchored on the best, so a reheat that passes it keeps that board */
        srch_em_board_copy(r->cur, r->best);
        srch_em_board_copy(r->anchor, r->best);
        annealed_walk(r, r->o->reheat_tries, r->o->reheat_temp);
    } else {
        srch_em_board_copy(r->cur, r->start);
    }
    srch_em_board_copy(r->anchor, r->cur);
}

static void region_samples(em_run *r)
{
    const srch_em_opts *o = r->o;
    int rh = o->ro_h < r->in->h ? o->ro_h : r->in->h;
    int rw = o->ro_w < r->in->w ? o->ro_w : r->in->w;
    for (int i = 0; i < o->ro_n && !out_of_time(r); i++) {
        int r0 = (int)hn_rng_below(r->rng, (uint32_t)(r->in->h - rh + 1));
        int c0 = (int)hn_rng_below(r->rng, (uint32_t)(r->in->w - rw + 1));
        srch_em_ro(r->cur, r0, c0, rh, rw, o->ro_nodes, NULL);
        note_best(r);
    }
}

/* One pass of all neighbourhoods; returns the score gain. */
static int cycle(em_run *r)
{
    const srch_em_opts *o = r->o;
    int start = r->cur->score;
    for (int i = 0; i < o->ta_n && !(i % 64 == 0 && out_of_time(r)); i++) {
        srch_em_ta(r->cur, o->ta_k, r->rng);
        if (i % 64 == 0)
            note_best(r);
    }
    note_best(r);
    if (out_of_time(r))
        return r->cur->score - start;
    srch_em_bo(r->cur, o->ro_nodes, NULL);
    srch_em_bw(r->cur, r->rng);
    note_best(r);
    srch_em_tsr(r->cur);
    note_best(r);
    if (o->walk > 0)
        annealed_walk(r, o->walk, o->walk_temp);
    if (o->ro_n > 0)
        region_samples(r);
    note_best(r);
    r->res->cycles++;
    return r->cur->score - start;
}

int srch_em_kick_strength(int base, int cells, int escalate, long stall)
{
    if (escalate <= 0)
        return base;
    int rungs = 1; /* base, 2 base, ... while within cells/4 */
    while (rungs < 30 && ((long)base << rungs) <= cells / 4)
        rungs++;
    return base << (stall / escalate % rungs);
}

/* A better board of the backtracking start, reported as progress. */
static void scan_board(const srch_em_scan_result *sr, void *user)
{
    em_run *r = user;
    if (r->fn) {
        int score = srch_em_inst_joins(r->in) - sr->breaks;
        r->fn(score, score, sr->nodes, run_now(r) - r->t0, r->user);
    }
}

static int start_board(em_run *r)
{
    const srch_em_opts *o = r->o;
    switch (o->start) {
    case SRCH_EM_START_GREEDY:
        srch_em_greedy(r->cur, 1, o->start_nodes, r->rng);
        r->res->time_best = run_now(r) - r->t0; /* the start is the best until beaten */
        break;
    case SRCH_EM_START_BACKTRACK: {
        srch_em_scan_opts so = SRCH_EM_SCAN_OPTS_DEFAULTS;
        so.seconds = o->backtrack_time > 0 ? o->backtrack_time : o->time_limit / 10;
        if (so.seconds > o->time_limit)
            so.seconds = o->time_limit;
        so.cpu_clock = o->cpu_clock;
        so.break_from = o->break_from;
        so.breaks = o->breaks;
        so.order = o->order;
        so.gate = o->gate;
        so.bound = o->scan_bound;
        so.fill_nodes = o->start_nodes;
        so.on_board = scan_board;
        so.user = r;
        int st = srch_em_scan(r->cur, &so, r->rng, &r->res->scan);
        /* the start board is the run's best until the local search beats it:
         * it was found when the scan found it, not when the scan ended */
        r->res->time_best = r->res->scan.time_best;
        return st;
    }
    case SRCH_EM_START_RANDOM:
        srch_em_board_random(r->cur, r->rng);
        break;
    default:
        return hn_fail(HN_ERR_ARG, "unknown start method %d", o->start);
    }
    return HN_OK;
}

int srch_em_solve(const srch_em_inst *in, const srch_em_opts *opts, int *piece, int *rot,
                  srch_em_result *res, srch_em_progress_fn fn, void *user)
{
    srch_em_opts o = opts ? *opts : SRCH_EM_OPTS_DEFAULTS;
    srch_em_result dummy;
    if (!res)
        res = &dummy;
    *res = (srch_em_result){0};
    if (o.ta_k < 2 || o.ta_n < 0 || o.ro_w < 1 || o.ro_h < 1 || o.ro_n < 0 || o.ro_nodes < 1 ||
        o.start_nodes < 1 || o.slack < 0 || o.escalate < 0 || !(o.restart >= 0) ||
        !(o.time_limit >= 0) || !(o.walk_temp >= 0 && o.walk_temp <= 1e3) ||
        !(o.reheat_temp >= 0 && o.reheat_temp <= 1e3) || o.reheat_tries < 0 ||
        (o.reheat_temp > 0 && !(o.restart > 0)) || o.walk_choose < 0 || o.walk_choose > in->n ||
        o.stage_k < 0 || o.stage_k > 1000 || o.stage_kick < 0 ||
        (o.stage_k > 0 && !(o.restart > 0)))
        return hn_fail(HN_ERR_ARG, "invalid local search options (ta_k >= 2, region >= 1x1, "
                                   "walk_temp and reheat_temp 0..1000, a reheat only with restart, "
                                   "walk_choose 0..cells, stage_k 0..1000 and only with restart, "
                                   "no negative counts)");
    int st = HN_OK;
    em_run r = {.o = &o, .in = in, .res = res, .fn = fn, .user = user};
    r.cur = srch_em_board_new(in, &st);
    r.best = r.cur ? srch_em_board_new(in, &st) : NULL;
    if (o.restart > 0) {
        r.start = r.best ? srch_em_board_new(in, &st) : NULL;
        r.anchor = r.start ? srch_em_board_new(in, &st) : NULL;
    } else {
        r.anchor = r.best;
    }
    r.rng = hn_rng_new(o.seed);
    r.cand_cap = in->n + 4;
    r.cand = malloc(sizeof *r.cand * (size_t)r.cand_cap);
    if (o.stage_k > 0) {
        r.stage_pick = srch_em_board_new(in, &st);
        r.stage_scratch = malloc(sizeof *r.stage_scratch * (size_t)in->n);
    }
    if (!r.cur || !r.best || !r.anchor || !r.rng || !r.cand ||
        (o.stage_k > 0 && (!r.stage_pick || !r.stage_scratch))) {
        st = r.cur && r.best && r.anchor
                 ? hn_fail(HN_ERR_NOMEM, "out of memory for the local search")
                 : st;
        goto out;
    }
    double wall0 = hn_now(), cpu0 = srch_em_cpu_seconds();
    r.t0 = r.last_report = run_now(&r);
    r.deadline = r.t0 + o.time_limit;
    r.cur->deadline = r.deadline; /* every phase, the start included, stops there */
    r.cur->cpu_clock = o.cpu_clock;
    if ((st = start_board(&r)) != HN_OK)
        goto out;
    srch_em_board_copy(r.best, r.cur);
    if (r.start) {
        srch_em_board_copy(r.start, r.cur);
        srch_em_board_copy(r.anchor, r.cur);
    }
    r.anchor_time = r.t0;
    res->start_score = r.cur->score;
    int base = o.perturb > 0 ? o.perturb : 2 + in->n / 64, best_seen = r.anchor->score;
    long stall = 0; /* kicks since the anchor last improved */
    while (!out_of_time(&r)) {
        if (r.start && run_now(&r) - r.anchor_time >= o.restart) {
            /* the descent has settled in one basin: a fresh one (from the start
             * board or a reheated best) reaches others; it is anchored on its
             * own best, or the first stall would send it back to the run's best */
            new_descent(&r);
            r.anchor_time = run_now(&r);
            best_seen = r.anchor->score;
            res->restarts++;
            stall = 0;
        }
        if (cycle(&r) > 0)
            continue;
        /* local optimum of every neighbourhood: back to the anchor when the
         * walk drifted too far, then kick; a larger kick widens the slack by
         * as much, or the restart would undo it */
        stall = r.anchor->score > best_seen ? 0 : stall + 1;
        best_seen = r.anchor->score;
        int strength = srch_em_kick_strength(base, in->n, o.escalate, stall);
        if (r.cur->score < r.anchor->score - (o.slack + strength - base))
            srch_em_board_copy(r.cur, r.anchor);
        for (int i = 0; i < strength; i++)
            choose_perturbation_move(&r);
    }
    note_best(&r); /* (a descent the clock cut is not logged: it did not settle) */
    srch_em_board_get(r.best, piece, rot);
    res->best = r.best->score;
    res->moves = r.cur->evals;
    res->seconds = run_now(&r) - r.t0;
    res->wall_seconds = hn_now() - wall0;
    res->cpu_seconds = srch_em_cpu_seconds() - cpu0;
    res->stopped = hn_stop_requested() != 0;
    if (res->stopped)
        st = hn_fail(HN_ERR_INTERRUPTED, "stopped on request; best so far kept");
out:
    srch_em_board_free(r.cur);
    srch_em_board_free(r.best);
    srch_em_board_free(r.start);
    if (r.anchor != r.best)
        srch_em_board_free(r.anchor);
    hn_rng_free(r.rng);
    free(r.cand);
    srch_em_board_free(r.stage_pick);
    free(r.stage_scratch);
    return st;
}
