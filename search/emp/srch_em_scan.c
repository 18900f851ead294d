/* The backtracking start: a scan-row backtracker that may leave joins
 * unmatched ("breaks") under a budget that grows towards the end of the
 * board, after the idea of Verhaard's eii solver for Eternity II. A perfect
 * placement is the strong constraint that keeps the tree narrow; breaks let
 * it finish the board, where a perfect-only search stalls. */
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_scan_int.h"

const srch_em_scan_opts SRCH_EM_SCAN_OPTS_DEFAULTS = {.seconds = 10,
                                                      .cpu_clock = 0,
                                                      .break_from = SRCH_EM_SCAN_BREAK_FROM,
                                                      .breaks = SRCH_EM_SCAN_BREAKS,
                                                      .restart_nodes = 100000000,
                                                      .fill_nodes = 1000000};

static int kind_key(const srch_em_inst *in, int cell)
{
    return in->cclass[cell] == SRCH_EM_INNER ? -1 : in->cclass[cell] * 4 + in->cout[cell];
}

/* Counting sort of the kind's items into buckets of key(item). */
static int bucket(const scan_item *all, int n, int nkeys, int (*key)(const scan_item *, int),
                  int ncol, scan_item **out, int **off)
{
    *out = malloc(sizeof **out * (size_t)(n ? n : 1));
    *off = calloc((size_t)nkeys + 1, sizeof **off);
    int *fill = calloc((size_t)nkeys, sizeof *fill);
    if (!*out || !*off || !fill) {
        free(fill);
        return HN_ERR_NOMEM;
    }
    for (int i = 0; i < n; i++)
        (*off)[key(&all[i], ncol) + 1]++;
    for (int k = 0; k < nkeys; k++)
        (*off)[k + 1] += (*off)[k];
    for (int i = 0; i < n; i++) {
        int k = key(&all[i], ncol);
        (*out)[(*off)[k] + fill[k]++] = all[i];
    }
    free(fill);
    return HN_OK;
}

static int key_wn(const scan_item *it, int ncol)
{
    return it->w * ncol + it->n;
}
static int key_w(const scan_item *it, int ncol)
{
    (void)ncol;
    return it->w;
}
static int key_n(const scan_item *it, int ncol)
{
    (void)ncol;
    return it->n;
}

/* The items of one kind: every free piece of the cell's class at each
 * rotation the frame rule allows on `cell`. */
static int kind_build(scan_ctx *s, scan_kind *k, int cell)
{
    const srch_em_inst *in = s->in;
    k->all = malloc(sizeof *k->all * (size_t)in->n * 4);
    if (!k->all)
        return HN_ERR_NOMEM;
    k->nall = 0;
    for (int p = 0; p < in->n; p++) {
        if (s->used[p] || in->pclass[p] != in->cclass[cell])
            continue;
        for (int r = 0; r < 4; r++) {
            if (in->cclass[cell] != SRCH_EM_INNER && r != srch_em_rot_for(in, p, cell))
                continue;
            const uint8_t *c = srch_em_pc(in, p, r);
            k->all[k->nall++] = (scan_item){(uint16_t)p,  (uint8_t)r,   c[SRCH_EM_E],
                                            c[SRCH_EM_S], c[SRCH_EM_W], c[SRCH_EM_N]};
        }
    }
    int st = bucket(k->all, k->nall, s->ncol * s->ncol, key_wn, s->ncol, &k->by_wn, &k->off_wn);
    if (st == HN_OK)
        st = bucket(k->all, k->nall, s->ncol, key_w, s->ncol, &k->by_w, &k->off_w);
    if (st == HN_OK)
        st = bucket(k->all, k->nall, s->ncol, key_n, s->ncol, &k->by_n, &k->off_n);
    return st;
}

void srch_em_scan_free(scan_ctx *s)
{
    for (int k = 0; k < s->nkinds; k++) {
        scan_kind *q = &s->kind[k];
        free(q->all), free(q->by_wn), free(q->by_w), free(q->by_n);
        free(q->off_wn), free(q->off_w), free(q->off_n);
    }
    free(s->step), free(s->allowed), free(s->brk), free(s->phase);
    free(s->idx), free(s->deep), free(s->best), free(s->chosen), free(s->east), free(s->south),
        free(s->used);
    free(s->fixed_cell), free(s->ord), free(s->nord), free(s->bal), free(s->bal0), free(s->resolve);
}

/* The kind of `cell` (its candidate table), built on first use. */
static const scan_kind *cell_kind(scan_ctx *s, int cell)
{
    int key = kind_key(s->in, cell), k = 0;
    while (k < s->nkinds && s->kind_of[k] != key)
        k++;
    if (k == s->nkinds) {
        s->kind_of[s->nkinds++] = key; /* counted first: scan_free frees a partial build */
        if (kind_build(s, &s->kind[k], cell) != HN_OK)
            return NULL;
    }
    return &s->kind[k];
}

/* The colour a clue on `cell` shows on `side`, or -1 if no clue is there. */
static int clue_side(const srch_em_inst *in, int cell, int side)
{
    for (int k = 0; k < in->nclues; k++)
        if (in->clue_cell[k] == cell)
            return srch_em_pc(in, in->clue_piece[k], in->clue_rot[k])[side];
    return -1;
}

/* Scan order, clue colours, cell kinds and their candidate tables. */
int srch_em_scan_init(scan_ctx *s, const srch_em_inst *in, hn_rng *rng)
{
    int n = in->n;
    *s = (scan_ctx){.in = in, .ncol = in->ncol, .rng = rng};
    s->step = malloc(sizeof *s->step * (size_t)n);
    s->allowed = malloc(sizeof(int) * ((size_t)n + 1));
    s->brk = malloc(sizeof(int) * ((size_t)n + 1));
    s->phase = malloc(sizeof(int) * ((size_t)n + 1));
    s->idx = malloc(sizeof(int) * ((size_t)n + 1));
    s->chosen = malloc(sizeof(scan_item) * ((size_t)n + 1));
    s->deep = malloc(sizeof(scan_item) * ((size_t)n + 1));
    s->best = malloc(sizeof(scan_item) * ((size_t)n + 1));
    s->east = calloc((size_t)n + 1, 1), s->south = calloc((size_t)n + 1, 1);
    s->used = calloc((size_t)n, 1), s->fixed_cell = calloc((size_t)n, 1);
    s->ord = malloc(((size_t)n + 1) * SCAN_ORD_MAX);
    s->nord = malloc(sizeof(int) * ((size_t)n + 1));
    if (!s->step || !s->allowed || !s->brk || !s->phase || !s->idx || !s->deep || !s->best ||
        !s->chosen || !s->east || !s->south || !s->used || !s->fixed_cell || !s->ord || !s->nord)
        return HN_ERR_NOMEM;
    for (int k = 0; k < in->nclues; k++) {
        const uint8_t *col = srch_em_pc(in, in->clue_piece[k], in->clue_rot[k]);
        int c = in->clue_cell[k];
        s->fixed_cell[c] = 1;
        s->east[c] = col[SRCH_EM_E];
        s->south[c] = col[SRCH_EM_S];
        s->used[in->clue_piece[k]] = 1;
    }
    for (int c = 0; c < n; c++) {
        if (s->fixed_cell[c])
            continue;
        const int *nb = in->nb + (size_t)c * 4;
        scan_step *st = &s->step[s->m++];
        *st = (scan_step){.cell = c,
                          .west = nb[SRCH_EM_W],
                          .north = nb[SRCH_EM_N],
                          .e_need = -1,
                          .s_need = -1,
                          .kind = cell_kind(s, c)};
        if (!st->kind)
            return HN_ERR_NOMEM;
        st->e_need = clue_side(in, nb[SRCH_EM_E], SRCH_EM_W);
        st->s_need = clue_side(in, nb[SRCH_EM_S], SRCH_EM_N);
    }
    return HN_OK;
}

/* resolve[d]: the deepest depth of an empty cell next to the path up to d
 * or to a clue (its demands are met or broken by then), at least d. */
static int bound_resolve(scan_ctx *s)
{
    const srch_em_inst *in = s->in;
    int *depth = malloc(sizeof *depth * ((size_t)in->n + 1));
    s->resolve = malloc(sizeof *s->resolve * ((size_t)s->m + 1));
    if (!depth || !s->resolve) {
        free(depth);
        return HN_ERR_NOMEM;
    }
    for (int c = 0; c <= in->n; c++)
        depth[c] = -1; /* clues and the sentinel */
    for (int d = 0; d < s->m; d++)
        depth[s->step[d].cell] = d;
    int far = 0;
    for (int k = 0; k < in->nclues; k++)
        for (int side = 0; side < 4; side++) {
            int y = depth[in->nb[(size_t)in->clue_cell[k] * 4 + side]];
            far = y > far ? y : far;
        }
    for (int d = 0; d < s->m; d++) {
        for (int side = 0; side < 4; side++) {
            int y = depth[in->nb[(size_t)s->step[d].cell * 4 + side]];
            far = y > far ? y : far;
        }
        s->resolve[d] = far > d ? far : d;
    }
    free(depth);
    return HN_OK;
}

int srch_em_scan_bound_init(scan_ctx *s, int bound)
{
    const srch_em_inst *in = s->in;
    size_t nc = (size_t)s->ncol;
    s->bal = calloc(nc, sizeof *s->bal), s->bal0 = calloc(nc, sizeof *s->bal0);
    if (!s->bal || !s->bal0)
        return HN_ERR_NOMEM;
    for (int p = 0; p < in->n; p++)
        if (!s->used[p])
            for (int k = 0; k < 4; k++)
                s->bal0[srch_em_pc(in, p, 0)[k]]++;
    for (int k = 0; k < in->nclues; k++) {
        int c = in->clue_cell[k];
        const uint8_t *col = srch_em_pc(in, in->clue_piece[k], in->clue_rot[k]);
        for (int side = 0; side < 4; side++) {
            int y = in->nb[(size_t)c * 4 + side];
            if (y < in->n && !s->fixed_cell[y])
                s->bal0[col[side]]--;
        }
    }
    s->bound = bound;
    srch_em_scan_bound_recount(s, 0);
    return bound_resolve(s);
}

void srch_em_scan_bound_recount(scan_ctx *s, int upto)
{
    memcpy(s->bal, s->bal0, (size_t)s->ncol * sizeof *s->bal);
    s->dead = s->odd = 0;
    for (int c = 1; c < s->ncol; c++) {
        int v = s->bal[c];
        s->dead += v < 0 ? -v : 0;
        s->odd += v > 0 ? v & 1 : 0;
    }
    for (int d = 0; d < upto; d++)
        scan_bound_move(s, d, &s->chosen[d], 1);
}

static void shuffle_buckets(scan_ctx *s, scan_item *items, const int *off, int nkeys)
{
    for (int b = 0; b < nkeys; b++)
        for (int i = off[b + 1] - 1; i > off[b]; i--) {
            int j = off[b] + (int)hn_rng_below(s->rng, (uint32_t)(i - off[b] + 1));
            scan_item t = items[i];
            items[i] = items[j];
            items[j] = t;
        }
}

void srch_em_scan_shuffle(scan_ctx *s)
{
    for (int k = 0; k < s->nkinds; k++) {
        scan_kind *q = &s->kind[k];
        shuffle_buckets(s, q->by_wn, q->off_wn, s->ncol * s->ncol);
        shuffle_buckets(s, q->by_w, q->off_w, s->ncol);
        shuffle_buckets(s, q->by_n, q->off_n, s->ncol);
    }
}

void srch_em_scan_set_budget(scan_ctx *s, int from, int total)
{
    for (int d = 0; d <= s->m; d++)
        s->allowed[d] = d < from ? 0 : (int)((long)total * (d - from + 1) / (s->m - from));
}

/* Place `it` at depth d in phase ph if it is free, listed first by this
 * phase and within the budget; 1 if placed. */
static inline int try_item(scan_ctx *s, int d, const scan_item *it, int ph, int base, int budget,
                           int w, int nn)
{
    if (s->used[it->piece] || (ph & 1 && it->n == nn) || (ph >= 2 && it->w == w))
        return 0; /* taken, or listed by an earlier phase */
    int cost = base + scan_clue_cost(s, d, it);
    if (cost > budget)
        return 0;
    scan_place(s, d, it, cost);
    if (s->bound && d >= s->from - 1 && scan_bound_prunes(s, d)) {
        scan_unplace(s, d);
        s->res->pruned++;
        return 0; /* the empty cells cannot stay within the budget */
    }
    return 1;
}

/* Phase 0 in the learned order: 1 if a candidate was placed. */
static int next_ordered(scan_ctx *s, int d, const scan_item *list, int lo, int budget)
{
    const uint8_t *ord = s->ord + (size_t)d * SCAN_ORD_MAX;
    for (int j = s->idx[d] + 1; j < s->nord[d]; j++)
        if (try_item(s, d, &list[lo + ord[j]], 0, 0, budget, 0, 0)) {
            s->idx[d] = j;
            return 1;
        }
    return 0;
}

/* Next candidate for depth d within the budget, from where the depth's
 * iterator stands; places it and returns 1, or returns 0 when the cell has
 * no more. */
static int next_placement(scan_ctx *s, int d)
{
    const scan_step *st = &s->step[d];
    int w = s->east[st->west], nn = s->south[st->north];
    int budget = s->allowed[d] - s->brk[d];
    if (s->phase[d] == 0 && s->idx[d] < 0)
        s->nord[d] = s->order ? srch_em_scan_order(s, d) : -1;
    for (; s->phase[d] < 4; s->phase[d]++, s->idx[d] = -1) {
        int ph = s->phase[d], base = ph == 0 ? 0 : ph < 3 ? 1 : 2, lo, hi;
        if (base > budget)
            return 0; /* the later phases cost at least as much */
        if (ph == 1 && s->idx[d] < 0 && s->allow_break && !s->allow_break(s, d))
            return 0; /* the gate keeps this cell perfect */
        const scan_item *list = scan_phase_list(st->kind, ph, w, nn, s->ncol, &lo, &hi);
        if (ph == 0 && s->nord[d] >= 0) {
            if (next_ordered(s, d, list, lo, budget))
                return 1;
            continue;
        }
        for (int i = s->idx[d] < 0 ? lo : s->idx[d] + 1; i < hi; i++)
            if (try_item(s, d, &list[i], ph, base, budget, w, nn)) {
                s->idx[d] = i;
                return 1;
            }
    }
    return 0;
}

static double scan_clock(int cpu)
{
    return cpu ? srch_em_cpu_seconds() : hn_now();
}

/* A complete board better than the best: kept, and the budget drops to one
 * break less, rescaled over the same stretch of cells. */
static void new_best(scan_ctx *s)
{
    srch_em_scan_result *res = s->res;
    res->breaks = s->brk[s->m];
    res->complete = 1;
    res->time_best = scan_clock(s->o->cpu_clock) - s->t0;
    memcpy(s->best, s->chosen, sizeof *s->best * (size_t)s->m);
    srch_em_scan_set_budget(s, s->from, res->breaks - 1);
    if (s->o->on_board)
        s->o->on_board(res, s->o->user);
}

/* A complete board under the current path: the best so far lowers the
 * budget; a probe only keeps its fewest breaks. */
static void on_complete(scan_ctx *s)
{
    srch_em_scan_result *res = s->res;
    res->boards++;
    int b = s->brk[s->m];
    if (s->probe) {
        if (s->probe_best < 0 || b < s->probe_best)
            s->probe_best = b;
    } else if (!res->complete || b < res->breaks) {
        new_best(s);
    }
}

int srch_em_scan_dfs(scan_ctx *s, int floor, long limit)
{
    srch_em_scan_result *res = s->res;
    int cpu = s->o->cpu_clock;
    long steps = 0;
    int d = floor;
    s->phase[d] = 0, s->idx[d] = -1;
    while (d >= floor && res->nodes < limit) {
        if ((++steps & 0xffff) == 0 && (scan_clock(cpu) > s->deadline || hn_stop_requested()))
            break;
        if (!next_placement(s, d)) {
            if (--d >= floor)
                scan_unplace(s, d);
            continue;
        }
        res->nodes++;
        if (d + 1 > res->deepest) {
            res->deepest = d + 1;
            memcpy(s->deep, s->chosen, sizeof *s->deep * (size_t)(d + 1));
        }
        if (d + 1 < s->m) {
            d++;
            s->phase[d] = 0, s->idx[d] = -1;
            if (s->enter && s->enter(s, d))
                break;
            continue;
        }
        on_complete(s);
        scan_unplace(s, d); /* the next candidate of the last cell */
    }
    for (int k = d - 1; k >= floor; k--) /* the abandoned path (depth d is not placed here) */
        scan_unplace(s, k);
    return d < floor;
}

/* One restart: a depth-first search from the first cell with freshly
 * shuffled candidate orders, until `nodes` placements, the clock or a
 * request to stop; returns 1 if it exhausted its tree (nothing better
 * exists under the budget). */
static int scan_restart(scan_ctx *s)
{
    srch_em_scan_shuffle(s);
    if (s->order)
        srch_em_scan_order_restart(s->order);
    s->brk[0] = 0;
    long limit = s->res->nodes + s->o->restart_nodes;
    if (s->o->max_nodes > 0 && limit > s->o->max_nodes)
        limit = s->o->max_nodes;
    return srch_em_scan_dfs(s, 0, limit);
}

/* 1 while the search may go on: time left, no stop request, nodes left. */
static int scan_more(const scan_ctx *s)
{
    const srch_em_scan_opts *o = s->o;
    return scan_clock(o->cpu_clock) < s->deadline && !hn_stop_requested() &&
           (o->max_nodes <= 0 || s->res->nodes < o->max_nodes);
}

/* The result onto the board: the best complete board, or else the deepest
 * partial one completed greedily. */
static void scan_write(scan_ctx *s, srch_em_board *b, const srch_em_scan_result *res,
                       long fill_nodes, hn_rng *rng)
{
    srch_em_board_clear(b);
    const scan_item *path = res->complete ? s->best : s->deep;
    int placed = res->complete ? s->m : res->deepest;
    for (int d = 0; d < placed; d++)
        srch_em_drop(b, s->step[d].cell, path[d].piece, path[d].rot);
    if (!res->complete) {
        srch_em_fill_empty(b, 1, fill_nodes);
        srch_em_place_leftovers(b, rng);
    }
}

int srch_em_scan(srch_em_board *b, const srch_em_scan_opts *o, hn_rng *rng,
                 srch_em_scan_result *res)
{
    srch_em_scan_result dummy;
    if (!res)
        res = &dummy;
    *res = (srch_em_scan_result){0};
    if (!(o->seconds >= 0) || !(o->break_from >= 0 && o->break_from <= 1) || o->breaks < 0 ||
        o->restart_nodes < 1 || o->max_nodes < 0 || o->fill_nodes < 1 ||
        o->bound < SRCH_EM_SCAN_BOUND_NONE || o->bound > SRCH_EM_SCAN_BOUND_PARITY)
        return hn_fail(HN_ERR_ARG, "invalid backtracking options (seconds >= 0, break_from "
                                   "0..1, breaks >= 0, restart and fill nodes >= 1, max nodes "
                                   ">= 0, bound 0..2)");
    scan_ctx s;
    int st = srch_em_scan_init(&s, b->inst, rng);
    s.from = (int)(o->break_from * s.m);
    if (s.from >= s.m)
        s.from = s.m - 1;
    if (st == HN_OK && o->bound)
        st = srch_em_scan_bound_init(&s, o->bound);
    if (st != HN_OK) {
        srch_em_scan_free(&s);
        return hn_fail(HN_ERR_NOMEM, "out of memory for the backtracking start");
    }
    s.o = o, s.res = res, s.order = o->order, s.gate = o->gate;
    s.allow_break = o->gate ? srch_em_scan_break_allow : NULL;
    s.t0 = scan_clock(o->cpu_clock), s.deadline = s.t0 + o->seconds;
    if (s.m > 0)
        srch_em_scan_set_budget(&s, s.from, o->breaks);
    while (s.m > 0 && scan_more(&s)) {
        res->restarts++;
        if (scan_restart(&s))
            break; /* exhausted: no board within the budget (or none better) */
    }
    res->seconds = scan_clock(o->cpu_clock) - s.t0;
    scan_write(&s, b, res, o->fill_nodes, rng);
    srch_em_scan_free(&s);
    return HN_OK;
}
