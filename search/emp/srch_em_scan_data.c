/* Labelled states for the place scorer and the break gate, from the
 * backtracker's own search. Place data:
 * a driving backtracker (the real one, lowering its budget at each better
 * board) samples cells it enters; each perfect-match candidate of a sampled
 * cell is then placed in a copy of the state and the backtracker explores
 * the subtree under it within a node budget, a few times with different
 * shuffles (the same shuffles for every candidate: common random numbers).
 * The label is how far those probes got on average. Break data: at a cell
 * where the driving search would begin its break phases, the subtree from a
 * row or two above it is searched with that cell's breaks tried and with
 * them skipped; the label is the difference of what the two reach. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_scan_int.h"

const srch_em_place_sample_opts SRCH_EM_PLACE_SAMPLE_DEFAULTS = {
    .states = 2000,
    .runs = 4,
    .probe_nodes = 20000,
    .min_depth = 0.3,
    .rate = 0.001,
    .restart_nodes = 2000000,
    .break_from = SRCH_EM_SCAN_BREAK_FROM,
    .breaks = SRCH_EM_SCAN_BREAKS,
    .probe_rows = 1,
    .seed = 1,
};

enum { SAMPLE_MAX = 64 };

typedef struct {
    const srch_em_place_sample_opts *o;
    srch_em_scan_opts so;
    scan_ctx main, probe;
    srch_em_scan_result mres, pres;
    srch_em_pfeat *feat;
    hn_rng *rng;
    srch_em_place_row_fn row;
    void *user;
    int done, state, status;
    const scan_item *cand[SAMPLE_MAX];
    int cost[SAMPLE_MAX];
    float x[SAMPLE_MAX * SRCH_EM_PLACE_DIM], y[SAMPLE_MAX];
    int stop;                   /* break data: the driving search stops at its next cell */
    int gate_depth, gate_allow; /* break data: the probe's arm */
} sampler;

/* The free perfect-match candidates of depth d within the budget. */
static int candidates(sampler *sm, const scan_ctx *s, int d)
{
    int lo, hi, n = 0, budget = s->allowed[d] - s->brk[d];
    const scan_item *list = scan_perfect(s, d, &lo, &hi);
    for (int i = lo; i < hi && n < SAMPLE_MAX; i++) {
        int cost = scan_clue_cost(s, d, &list[i]);
        if (!s->used[list[i].piece] && cost <= budget) {
            sm->cand[n] = &list[i];
            sm->cost[n++] = cost;
        }
    }
    return n;
}

/* The probe context takes the driving search's state above depth d. */
static void copy_state(sampler *sm, int d)
{
    scan_ctx *p = &sm->probe;
    const scan_ctx *s = &sm->main;
    size_t n = (size_t)s->in->n;
    memcpy(p->used, s->used, n);
    memcpy(p->east, s->east, n + 1);
    memcpy(p->south, s->south, n + 1);
    memcpy(p->chosen, s->chosen, sizeof *p->chosen * (size_t)d);
    memcpy(p->brk, s->brk, sizeof(int) * ((size_t)d + 1));
    memcpy(p->allowed, s->allowed, sizeof(int) * ((size_t)s->m + 1));
}

/* Cells reached under candidate i at depth d with the shuffles of `seed`;
 * a complete board adds one plus the breaks it leaves unused. */
static double probe(sampler *sm, int d, int i, uint64_t seed)
{
    scan_ctx *p = &sm->probe;
    hn_rng *rng = hn_rng_new(seed);
    if (!rng)
        return -1;
    p->rng = rng;
    srch_em_scan_shuffle(p);
    sm->pres = (srch_em_scan_result){.deepest = d + 1};
    p->probe_best = -1;
    scan_place(p, d, sm->cand[i], sm->cost[i]);
    if (d + 1 < p->m)
        srch_em_scan_dfs(p, d + 1, sm->o->probe_nodes);
    else
        p->probe_best = p->brk[p->m];
    scan_unplace(p, d);
    p->rng = NULL;
    hn_rng_free(rng);
    double v = sm->pres.deepest;
    if (p->probe_best >= 0)
        v += 1 + p->allowed[p->m] - p->probe_best;
    return v;
}

/* Label the n candidates of depth d and hand the rows over. */
static int label_state(sampler *sm, int d, int n)
{
    copy_state(sm, d);
    srch_em_place_ctx ctx;
    srch_em_scan_place_ctx(&sm->main, d, &ctx);
    srch_em_scan_sync_feat(sm->feat, &sm->main, d);
    int cell = sm->main.step[d].cell;
    for (int i = 0; i < n; i++) {
        srch_em_pfeat_encode(sm->feat, cell, sm->cand[i]->piece, sm->cand[i]->rot, &ctx,
                             sm->x + (size_t)i * SRCH_EM_PLACE_DIM);
        sm->y[i] = 0;
    }
    for (int r = 0; r < sm->o->runs; r++) {
        uint64_t seed = hn_seed_mix(sm->o->seed, (uint64_t)sm->done * 1024 + (uint64_t)r + 1);
        for (int i = 0; i < n; i++) {
            double v = probe(sm, d, i, seed);
            if (v < 0)
                return hn_fail(HN_ERR_NOMEM, "out of memory for a probe");
            sm->y[i] += (float)((v - d) / sm->o->runs);
        }
    }
    for (int i = 0; i < n; i++) {
        int st = sm->row(sm->user, sm->state, sm->x + (size_t)i * SRCH_EM_PLACE_DIM, sm->y[i]);
        if (st)
            return st;
    }
    sm->state++;
    return HN_OK;
}

/* The driving search's hook: sample a cell past min_depth with two or more
 * candidates at the sampling rate. */
static int on_enter(scan_ctx *s, int d)
{
    sampler *sm = s->user;
    if (d < (int)(sm->o->min_depth * s->m))
        return 0;
    int n = candidates(sm, s, d);
    if (n < 2 || hn_rng_uniform(sm->rng) >= sm->o->rate)
        return 0;
    sm->status = label_state(sm, d, n);
    sm->done++;
    if (sm->o->progress)
        sm->o->progress((uint64_t)sm->done, (uint64_t)sm->o->states, NULL, sm->o->user);
    return sm->status != HN_OK || sm->done >= sm->o->states;
}

/* ---- break data --------------------------------------------------------- */

/* The probe's break hook: depth gate_depth keeps its breaks only in the
 * arm that allows them; every other depth as the search does. */
static int probe_gate(scan_ctx *s, int d)
{
    const sampler *sm = s->user;
    return d != sm->gate_depth || sm->gate_allow;
}

/* What the search reaches in the subtree under depth a (the path above a
 * as the driving search has it, shuffles from `seed`) within probe_nodes
 * placements, with depth d's break phases allowed or not: the deepest cell,
 * plus 1 + the unused breaks of the best complete board. */
static double subtree(sampler *sm, int a, int d, int allow, uint64_t seed)
{
    scan_ctx *p = &sm->probe;
    copy_state(sm, a);
    for (int k = a; k < d; k++) /* placed by the driving search below a */
        p->used[sm->main.chosen[k].piece] = 0;
    hn_rng *rng = hn_rng_new(seed);
    if (!rng)
        return -HUGE_VAL;
    p->rng = rng;
    srch_em_scan_shuffle(p);
    p->rng = NULL;
    hn_rng_free(rng);
    sm->pres = (srch_em_scan_result){.deepest = a};
    p->probe_best = -1;
    sm->gate_depth = d, sm->gate_allow = allow;
    srch_em_scan_dfs(p, a, sm->o->probe_nodes);
    double v = sm->pres.deepest;
    if (p->probe_best >= 0)
        v += 1 + p->allowed[p->m] - p->probe_best;
    return v;
}

/* Label the break decision at depth d and hand its row over: the subtree
 * from probe_rows rows up (one row: the cell north of d in scan order), with
 * and without breaks at d, the same shuffles in both arms of a run. */
static int label_break(sampler *sm, int d)
{
    srch_em_scan_break_encode(sm->feat, &sm->main, d, sm->x);
    int a = d - sm->o->probe_rows * sm->main.in->w;
    a = a > 0 ? a : 0;
    double y = 0;
    for (int r = 0; r < sm->o->runs; r++) {
        uint64_t seed = hn_seed_mix(sm->o->seed, (uint64_t)sm->done * 1024 + (uint64_t)r + 1);
        double with = subtree(sm, a, d, 1, seed), without = subtree(sm, a, d, 0, seed);
        if (with == -HUGE_VAL || without == -HUGE_VAL)
            return hn_fail(HN_ERR_NOMEM, "out of memory for a probe");
        y += (with - without) / sm->o->runs;
    }
    int st = sm->row(sm->user, sm->state, sm->x, (float)y);
    if (st == HN_OK)
        sm->state++;
    return st;
}

/* The driving search's break hook: sample past min_depth at the rate; the
 * driving search itself always tries the breaks. */
static int on_break(scan_ctx *s, int d)
{
    sampler *sm = s->user;
    if (sm->stop || d < (int)(sm->o->min_depth * s->m) || hn_rng_uniform(sm->rng) >= sm->o->rate)
        return 1;
    sm->status = label_break(sm, d);
    sm->done++;
    if (sm->o->progress)
        sm->o->progress((uint64_t)sm->done, (uint64_t)sm->o->states, NULL, sm->o->user);
    sm->stop = sm->status != HN_OK || sm->done >= sm->o->states;
    return 1;
}

static int on_enter_break(scan_ctx *s, int d)
{
    (void)d;
    return ((sampler *)s->user)->stop;
}

static int check_opts(const srch_em_place_sample_opts *o)
{
    if (o->states < 1 || o->runs < 1 || o->probe_nodes < 1 || o->restart_nodes < 1 ||
        !(o->min_depth >= 0 && o->min_depth < 1) || !(o->rate > 0 && o->rate <= 1) ||
        !(o->break_from >= 0 && o->break_from <= 1) || o->breaks < 0 || o->probe_rows < 0)
        return hn_fail(HN_ERR_ARG, "invalid sampling options (states, runs, nodes >= 1; "
                                   "min depth 0..1; rate in (0, 1]; break_from 0..1)");
    return HN_OK;
}

/* Both contexts with the same budget; the driving one calls on_enter. */
static int sampler_init(sampler *sm, const srch_em_inst *in, const srch_em_place_sample_opts *o)
{
    sm->o = o;
    sm->so = SRCH_EM_SCAN_OPTS_DEFAULTS;
    sm->so.break_from = o->break_from, sm->so.breaks = o->breaks;
    sm->rng = hn_rng_new(o->seed);
    int st = HN_OK, status;
    sm->feat = srch_em_pfeat_new(in, &status);
    if (!sm->rng || !sm->feat)
        return HN_ERR_NOMEM;
    scan_ctx *ctx[2] = {&sm->main, &sm->probe};
    srch_em_scan_result *res[2] = {&sm->mres, &sm->pres};
    for (int k = 0; k < 2 && st == HN_OK; k++) {
        st = srch_em_scan_init(ctx[k], in, sm->rng);
        ctx[k]->o = &sm->so, ctx[k]->res = res[k];
        ctx[k]->deadline = HUGE_VAL;
        ctx[k]->from = (int)(o->break_from * ctx[k]->m);
        if (ctx[k]->from >= ctx[k]->m)
            ctx[k]->from = ctx[k]->m - 1;
        if (st == HN_OK && ctx[k]->m > 0)
            srch_em_scan_set_budget(ctx[k], ctx[k]->from, o->breaks);
    }
    sm->main.enter = on_enter, sm->main.user = sm;
    sm->probe.probe = 1;
    return st;
}

static void sampler_free(sampler *sm)
{
    srch_em_scan_free(&sm->main);
    srch_em_scan_free(&sm->probe);
    srch_em_pfeat_free(sm->feat);
    hn_rng_free(sm->rng);
}

/* Restarts of the driving search until enough states are labelled. */
static int drive(sampler *sm)
{
    int idle = 0;
    while (sm->done < sm->o->states && sm->status == HN_OK) {
        if (hn_stop_requested())
            return hn_fail(HN_ERR_INTERRUPTED, "sampling stopped");
        int before = sm->done;
        srch_em_scan_shuffle(&sm->main);
        sm->main.brk[0] = 0;
        srch_em_scan_dfs(&sm->main, 0, sm->mres.nodes + sm->o->restart_nodes);
        idle = sm->done > before ? 0 : idle + 1;
        if (idle >= 100)
            return hn_fail(HN_ERR_LIMIT, "no cells to sample in 100 restarts (tree too small, or "
                                         "min depth too deep)");
    }
    return sm->status;
}

/* Both samplers: `brk` selects the break data. */
static int sample(const srch_em_inst *inst, const srch_em_place_sample_opts *o,
                  srch_em_place_row_fn row, void *user, int *state_base, int brk)
{
    int st = check_opts(o);
    if (st != HN_OK)
        return st;
    sampler *sm = calloc(1, sizeof *sm);
    if (!sm)
        return hn_fail(HN_ERR_NOMEM, "out of memory for the sampler");
    sm->row = row, sm->user = user, sm->state = *state_base;
    st = sampler_init(sm, inst, o);
    if (brk) {
        sm->main.enter = on_enter_break, sm->main.allow_break = on_break;
        sm->probe.allow_break = probe_gate, sm->probe.user = sm;
    }
    if (st != HN_OK)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for the sampler");
    else if (sm->main.m < 2)
        st = hn_fail(HN_ERR_ARG, "instance has fewer than two free cells to sample");
    else
        st = drive(sm);
    *state_base = sm->state;
    sampler_free(sm);
    free(sm);
    return st;
}

int srch_em_place_sample(const srch_em_inst *inst, const srch_em_place_sample_opts *o,
                         srch_em_place_row_fn row, void *user, int *state_base)
{
    return sample(inst, o, row, user, state_base, 0);
}

int srch_em_break_sample(const srch_em_inst *inst, const srch_em_place_sample_opts *o,
                         srch_em_place_row_fn row, void *user, int *state_base)
{
    return sample(inst, o, row, user, state_base, 1);
}
