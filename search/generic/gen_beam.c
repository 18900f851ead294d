/* Beam search over any domain (CayleyPy's method): each depth keeps the
 * `width` children of the previous depth with the smallest heuristic
 * value, duplicates removed by state, until a child is a goal. All
 * children of a depth are evaluated with one heuristic call, their parents
 * being the previous depth's states, so a network builds each child's
 * first layer from its parent's (which the previous call left behind). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

typedef struct {
    uint32_t idx, gen;
} kid_slot;

typedef struct {
    const dom *d;
    const dom_def *def;
    const void *inst;
    srch_dom_heur *h;
    size_t sb, width, cmax;
    int nmoves;
    /* the kept states of this depth and their automaton states */
    uint8_t *cur, *cq;
    size_t ncur;
    /* this depth's children: states, parents, moves, automaton states,
     * values and hashes */
    uint8_t *kids, *kmove, *kq;
    int *parent_of, *hv;
    uint64_t *khash, *order;
    size_t nkids;
    /* a set of this depth's children: index and the depth that wrote the
     * slot, side by side (one cache line per probe) */
    kid_slot *set;
    size_t nslots;
    /* the path: per depth, each kept state's parent and move */
    uint32_t *tparent;
    uint8_t *tmove;
    size_t *toff, ntrace, tcap;
    srch_dom_result *res;
    /* the goal's ball (may be NULL) and the best path through it: `best`
     * moves (a bound until one is found), the kept state `hit_i` of depth
     * `hit_depth`, its move `hit_move` into the ball and the ball's path */
    const srch_dom_ball *ball;
    int best, hit, hit_move, tail_len;
    /* some depth had more children than the width: the run was not an
     * exhaustive search below its bound */
    int truncated;
    size_t hit_depth, hit_i;
    uint8_t tail[SRCH_DOM_BALL_MAX_RADIUS];
} beam;

static void beam_free(beam *b)
{
    free(b->cur);
    free(b->cq);
    free(b->kids);
    free(b->kmove);
    free(b->kq);
    free(b->parent_of);
    free(b->hv);
    free(b->khash);
    free(b->order);
    free(b->set);
    free(b->tparent);
    free(b->tmove);
    free(b->toff);
}

static int beam_alloc(beam *b)
{
    b->cmax = b->width * (size_t)b->nmoves;
    b->cur = malloc(b->width * b->sb);
    b->cq = malloc(b->width);
    b->kids = malloc(b->cmax * b->sb);
    b->kmove = malloc(b->cmax);
    b->kq = malloc(b->cmax);
    b->parent_of = malloc(b->cmax * sizeof *b->parent_of);
    b->hv = malloc(b->cmax * sizeof *b->hv);
    b->khash = malloc(b->cmax * sizeof *b->khash);
    b->order = malloc(b->cmax * sizeof *b->order);
    for (b->nslots = 1; b->nslots < 2 * b->cmax;)
        b->nslots *= 2;
    b->set = hn_alloc_huge(b->nslots * sizeof *b->set, 1);
    b->toff = malloc((SRCH_DOM_MAX_PATH + 2) * sizeof *b->toff);
    if (!b->cur || !b->cq || !b->kids || !b->kmove || !b->kq || !b->parent_of || !b->hv ||
        !b->khash || !b->order || !b->set || !b->toff)
        return hn_fail(HN_ERR_NOMEM, "beam search: out of memory for a width of %zu", b->width);
    return 0;
}

/* Where the set's probe for hash hv starts. */
static size_t kid_home(const beam *b, uint64_t hv)
{
    return (size_t)(hv >> 17) & (b->nslots - 1);
}

/* Add child c (hash hv) of this depth unless it is already there: 1 added,
 * 0 not. */
static int add_kid(beam *b, const uint8_t *c, uint64_t hv, uint32_t gen)
{
    size_t mask = b->nslots - 1, i = kid_home(b, hv);
    for (; b->set[i].gen == gen; i = (i + 1) & mask) {
        uint32_t k = b->set[i].idx;
        if (b->khash[k] == hv && !memcmp(b->kids + k * b->sb, c, b->sb))
            return 0;
    }
    b->set[i] = (kid_slot){.idx = (uint32_t)b->nkids, .gen = gen};
    b->khash[b->nkids] = hv;
    memcpy(b->kids + b->nkids * b->sb, c, b->sb);
    return 1;
}

/* The moves to kept state i of depth `depth`, then `last`, into res. */
static void take_path(beam *b, size_t depth, size_t i, int last)
{
    b->res->moves[depth] = (uint8_t)last;
    for (size_t k = depth; k > 0; k--) {
        b->res->moves[k - 1] = b->tmove[b->toff[k] + i];
        i = b->tparent[b->toff[k] + i];
    }
    b->res->length = (int)depth + 1;
    b->res->cost = 0;
    for (int k = 0; k <= (int)depth; k++)
        b->res->cost += dom_move_cost(b->d, b->res->moves[k]);
}

/* Child c (hash hv; move m from kept state i of `depth`) is in the ball:
 * the best path when it beats the one so far. 1 in the ball, else 0. */
static int ball_child(beam *b, size_t depth, size_t i, int m, const uint8_t *c, uint64_t hv)
{
    int dd = srch_gen_ball_dist_hashed(b->ball, hv);
    if (dd < 0)
        return 0;
    if ((int)depth + 1 + dd < b->best) {
        int n = srch_dom_ball_path(b->ball, c, b->tail, SRCH_DOM_BALL_MAX_RADIUS);
        if (n < 0)
            return 0; /* a hash collision: c is not in the ball after all */
        b->best = (int)depth + 1 + n;
        b->hit = 1;
        b->hit_depth = depth;
        b->hit_i = i;
        b->hit_move = m;
        b->tail_len = n;
    }
    return 1;
}

/* The best path through the ball into res. */
static void take_ball_path(beam *b)
{
    take_path(b, b->hit_depth, b->hit_i, b->hit_move);
    memcpy(b->res->moves + b->res->length, b->tail, (size_t)b->tail_len);
    b->res->length += b->tail_len;
    b->res->cost += b->tail_len;
}

/* Expand every kept state: 1 when a child is a goal (path taken), else 0.
 * Children in the ball end their paths there and are not kept. */
static int expand_depth(beam *b, size_t depth)
{
    uint8_t cbuf[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], cm[DOM_MAX_MOVES];
    uint64_t hvs[DOM_MAX_MOVES];
    b->nkids = 0;
    for (size_t i = 0; i < b->ncur; i++) {
        int q = b->cq[i];
        int n = b->def->expand(b->inst, b->cur + i * b->sb, dom_allowed(b->d, q), cbuf, cm);
        b->res->expanded++;
        b->res->generated += (uint64_t)n;
        for (int j = 0; j < n; j++) { /* the slots load while the others hash */
            hvs[j] = dom_hash(b->d, cbuf + (size_t)j * b->sb);
            __builtin_prefetch(b->set + kid_home(b, hvs[j]));
            if (b->ball)
                srch_gen_ball_prefetch(b->ball, hvs[j]);
        }
        for (int j = 0; j < n; j++) {
            const uint8_t *c = cbuf + (size_t)j * b->sb;
            if (!b->ball && dom_is_goal(b->d, c)) {
                take_path(b, depth, i, cm[j]);
                return 1;
            }
            uint64_t hv = hvs[j];
            if ((b->ball && ball_child(b, depth, i, cm[j], c, hv)) ||
                !add_kid(b, c, hv, (uint32_t)depth + 1))
                continue;
            b->parent_of[b->nkids] = (int)i;
            b->kmove[b->nkids] = cm[j];
            b->kq[b->nkids++] = (uint8_t)dom_prune_next(b->d, q, cm[j]);
        }
    }
    return 0;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, c = *(const uint64_t *)y;
    return (a > c) - (a < c);
}

static void swap_u64(uint64_t *a, uint64_t *c)
{
    uint64_t t = *a;
    *a = *c;
    *c = t;
}

/* Reorder the distinct keys a[0..n) so that a[0..k) are the k smallest
 * (in no order): quickselect, median-of-three pivots. */
static void select_smallest(uint64_t *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n; /* the boundary k lies in [lo, hi) */
    while (hi - lo > 16) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo])
            swap_u64(a + mid, a + lo);
        if (a[hi - 1] < a[lo])
            swap_u64(a + hi - 1, a + lo);
        if (a[hi - 1] < a[mid])
            swap_u64(a + hi - 1, a + mid);
        uint64_t pivot = a[mid];
        size_t i = lo, j = hi - 1;
        for (;;) { /* Hoare: a[lo..i) <= pivot <= a(j..hi) */
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i >= j)
                break;
            swap_u64(a + i++, a + j--);
        }
        if (k <= j)
            hi = j + 1;
        else
            lo = j + 1;
    }
    qsort(a + lo, hi - lo, sizeof *a, cmp_u64);
}

/* Keep the `width` children with the smallest values (ties: the earlier
 * child) as the next depth, their parents and moves in the trace. */
static int keep_best(beam *b, size_t depth)
{
    for (size_t i = 0; i < b->nkids; i++)
        b->order[i] = (uint64_t)(uint32_t)b->hv[i] << 32 | i;
    size_t keep = b->nkids < b->width ? b->nkids : b->width;
    if (b->nkids > b->width) { /* the kept ones in order, the rest left unsorted */
        b->truncated = 1;
        select_smallest(b->order, b->nkids, keep);
        qsort(b->order, keep, sizeof *b->order, cmp_u64);
    }
    if (b->ntrace + keep > b->tcap) {
        size_t cap = 2 * (b->ntrace + keep);
        uint32_t *p = realloc(b->tparent, cap * sizeof *p);
        if (p)
            b->tparent = p;
        uint8_t *m = p ? realloc(b->tmove, cap) : NULL;
        if (!m)
            return hn_fail(HN_ERR_NOMEM, "beam search: out of memory for the path");
        b->tmove = m;
        b->tcap = cap;
    }
    b->toff[depth + 1] = b->ntrace;
    for (size_t k = 0; k < keep; k++) {
        size_t i = (size_t)(uint32_t)b->order[k];
        b->tparent[b->ntrace + k] = (uint32_t)b->parent_of[i];
        b->tmove[b->ntrace + k] = b->kmove[i];
        b->cq[k] = b->kq[i];
    }
    /* the kept states last: cur is the evaluation's parent buffer until here */
    for (size_t k = 0; k < keep; k++)
        memcpy(b->cur + k * b->sb, b->kids + (size_t)(uint32_t)b->order[k] * b->sb, b->sb);
    b->ntrace += keep;
    b->ncur = keep;
    return 0;
}

/* beam_run's status when no path beat the bound. */
#define NO_SHORTER 1

/* A start in the ball: its path from the ball. */
static int start_in_ball(beam *b, const void *start)
{
    int n = srch_dom_ball_path(b->ball, start, b->res->moves, SRCH_DOM_BALL_MAX_RADIUS);
    if (n < 0 || n >= b->best)
        return n < 0 ? 0 : NO_SHORTER;
    b->res->length = n;
    b->res->cost = n;
    b->res->proven = 1;
    return 1;
}

/* 1 when no state outside the ball can end a path shorter than the best
 * through it: its children are at depth + 1, each over the radius away. */
static int ball_done(const beam *b, size_t depth)
{
    return b->hit && (int)depth + 2 + srch_dom_ball_radius(b->ball) >= b->best;
}

/* A path of fewer than `bound` moves: 0 (path in b->res), NO_SHORTER when
 * the depth ran out first, or a status. A limit hit after a path through
 * the ball was found leaves that path. */
static int beam_run(beam *b, const void *start, const srch_limits *lim, double deadline, int bound)
{
    memcpy(b->cur, start, b->sb);
    b->cq[0] = DOM_PRUNE_ROOT;
    b->ncur = 1;
    b->toff[0] = 0;
    b->best = bound;
    int st = srch_dom_heur_eval(b->h, start, 1, NULL, NULL, NULL, &b->res->h0);
    if (st || dom_is_goal(b->d, start)) {
        b->res->length = st ? -1 : 0;
        b->res->cost = st ? -1 : 0;
        return st;
    }
    if (b->ball && (st = start_in_ball(b, start)))
        return st == 1 ? 0 : st;
    size_t depth = 0;
    for (; (int)depth + 1 < b->best; depth++) {
        if ((st = srch_gen_limits_hit("beam search", b->res, lim, deadline, b->ntrace))) {
            b->res->limited = 1;
            break;
        }
        if (expand_depth(b, depth)) {
            b->res->proven = !b->truncated; /* the first goal of a full breadth */
            return 0;
        }
        if (ball_done(b, depth) || !b->nkids)
            break;
        st = srch_dom_heur_eval(b->h, b->kids, b->nkids, b->cur, b->parent_of, b->kmove, b->hv);
        if (st || (st = keep_best(b, depth)))
            return st;
        b->res->stored = b->ntrace;
    }
    /* a run that kept every child searched all paths below its bound:
     * its path (or that none is shorter) is proven */
    int exhaustive = !st && !b->truncated;
    if (b->hit && (!st || st == HN_ERR_LIMIT || st == HN_ERR_INTERRUPTED)) {
        take_ball_path(b);
        b->res->proven = exhaustive;
        hn_error_clear(); /* the limit's message: the path found stands */
        return 0;
    }
    if (st)
        return st;
    b->res->proven = exhaustive && bound <= SRCH_DOM_MAX_PATH;
    if (!b->nkids && bound > SRCH_DOM_MAX_PATH)
        return hn_fail(HN_ERR_UNSOLVABLE, "beam search: no state left at depth %zu", depth + 1);
    if (bound <= SRCH_DOM_MAX_PATH)
        return NO_SHORTER;
    return hn_fail(HN_ERR_LIMIT, "beam search: no goal within %d moves", SRCH_DOM_MAX_PATH);
}

/* One beam of `width` into r: a path of fewer than `bound` moves. */
static int beam_once(const dom *d, const void *start, srch_dom_heur *h, size_t width,
                     const srch_dom_ball *ball, int bound, const srch_limits *lim, double deadline,
                     srch_dom_result *r)
{
    beam b = {.d = d,
              .def = dom_def_of(d),
              .inst = dom_instance(d),
              .h = h,
              .sb = dom_state_bytes(d),
              .width = width,
              .nmoves = dom_nmoves(d),
              .res = r,
              .ball = ball};
    int st = beam_alloc(&b);
    if (!st)
        st = beam_run(&b, start, lim, deadline, bound);
    beam_free(&b);
    if (!st && r->length >= 0 && !r->first_seconds)
        r->first_seconds = hn_now(); /* a clock reading until srch_dom_beam's end */
    return st;
}

/* The counts of run r into res (a path, limited and the first path's
 * clock reading too, when res has none). */
static void add_run(const srch_dom_result *r, srch_dom_result *res)
{
    res->expanded += r->expanded;
    res->generated += r->generated;
    res->stored = r->stored > res->stored ? r->stored : res->stored;
    res->limited |= r->limited;
    if (r->first_seconds && !res->first_seconds)
        res->first_seconds = r->first_seconds;
}

/* Wider beams after the first solution (opts->widen), each bounded by the
 * incumbent: a wider beam keeps more of the states a narrow one ranked
 * wrongly, so it tends to find shorter paths, and the time limit decides
 * how wide it gets. A run cut by the clock leaves the incumbent. */
static int widen(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *o,
                 size_t width, const srch_limits *lim, double deadline, srch_dom_result *res)
{
    srch_dom_result *r = malloc(sizeof *r);
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "beam search: out of memory");
    int st = 0;
    double prev = (double)width, last = res->seconds; /* the previous run's width and time */
    while (res->length > 1) {
        /* a run's time grows about as its width: with a time limit the next
         * one is only as wide as the time left allows (a run the clock cuts
         * finds nothing), and none when that is hardly wider. When no run
         * wider than it would fit after it, it is the last and takes all the
         * time left: the widest beam decides the length. */
        double t = hn_now(), w = prev * o->widen, nominal = w;
        if (deadline > 0) {
            double fit = 0.9 * (deadline - t) * prev / (last > 1e-6 ? last : 1e-6);
            w = fit < 2.0 * w ? fit : w;
        }
        if (w < 1.1 * prev || w >= 1e7) {
            res->limited |= w < nominal; /* no time left for a wider run */
            break;
        }
        memset(r, 0, offsetof(srch_dom_result, moves));
        r->length = -1;
        r->cost = -1;
        int k = beam_once(d, start, h, (size_t)w, o->ball, res->length, lim, deadline, r);
        last = hn_now() - t;
        prev = w;
        add_run(r, res);
        if (!k && r->length >= 0 && r->length < res->length) {
            memcpy(res->moves, r->moves, (size_t)r->length);
            res->length = r->length;
            res->cost = r->cost;
            res->improvements++;
        }
        if ((k == 0 || k == NO_SHORTER) && r->proven) {
            res->proven = 1; /* nothing shorter: no wider run can find it */
            break;
        }
        if (k == HN_ERR_LIMIT || k == HN_ERR_INTERRUPTED)
            break; /* the incumbent is the answer */
        if (k < 0) {
            st = k;
            break;
        }
    }
    free(r);
    return st;
}

/* One start: a first run of `width` bounded by `bound` (another variant's
 * best path; SRCH_DOM_MAX_PATH + 1: none), then wider ones (opts->widen, a
 * start in the ball excepted) bounded by the shorter of it and the start's
 * own path. r gets the start's shortest path below the bound (length -1:
 * none); *rate (may be NULL) the first run's seconds per unit of width
 * when the limits did not cut it. */
static int beam_variant(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *o,
                        size_t width, const srch_limits *lim, double deadline, int bound,
                        srch_dom_result *r, double *rate)
{
    double t0 = hn_now();
    int st = beam_once(d, start, h, width, o->ball, bound, lim, deadline, r);
    r->seconds = hn_now() - t0;
    if (rate && !r->limited)
        *rate = r->seconds / (double)width;
    int own = st == 0; /* a path of its own below the bound */
    if (st == NO_SHORTER) {
        st = 0; /* nothing below the bound yet: the wider runs look further */
        r->length = bound;
    }
    if (!st && o->widen > 1 && !r->proven)
        st = widen(d, start, h, o, width, lim, deadline, r);
    if (!own && !r->improvements)
        r->length = -1;
    return st;
}

/* A solution of the start, shorter than res's: taken (moves brought back
 * from symmetric map k). */
static void take_variant(const dom *d, int k, const srch_dom_result *r, srch_dom_result *res)
{
    if (r->proven && r->length < 0 && res->length >= 0)
        res->proven = 1; /* the map has no shorter path, nor has the start */
    if (r->length < 0 || (res->length >= 0 && r->length >= res->length))
        return;
    memcpy(res->moves, r->moves, (size_t)r->length);
    dom_symmetric_path(d, k, res->moves, r->length);
    res->length = r->length;
    res->cost = r->length;
    res->proven = r->proven;
    res->improvements++;
}

/* Variant k's deadline (*dk) and width: an equal share of the time left,
 * in as many shares as runs of the configured width fit at `rate` (seconds
 * per unit of width measured so far; 0: unknown, every variant its share),
 * and when not even one fits, the width that does: a run the clock cuts
 * finds nothing. 0: no time for a run wider than the narrow beam's
 * `narrow` (which already ran). */
static size_t variant_share(const srch_dom_opts *o, int k, double deadline, double rate,
                            size_t narrow, double *dk)
{
    double now = hn_now(), left = deadline - now, need = rate * o->width;
    int n = (o->variants > 1 ? o->variants : 1) - k;
    if (deadline <= 0) {
        *dk = 0;
        return (size_t)o->width;
    }
    while (rate > 0 && n > 1 && left < n * need)
        n--;
    *dk = now + left / n;
    if (rate <= 0 || left / n >= need)
        return (size_t)o->width;
    double w = 0.9 * (left / n) / rate;
    return w > (double)narrow ? (size_t)w : 0;
}

/* opts->variants beams in turn over the start's symmetric maps, each in an
 * equal share of the time left: a beam's errors lie mostly where it starts,
 * far from the goal, and a map of the start (the cube's inverse) puts them
 * elsewhere. After a narrow beam of width `narrow` (0: none) on the start,
 * which gives the first `rate`, the shares are fitted to the time left
 * (variant_share). */
static int beam_variants(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *o,
                         const srch_limits *lim, double deadline, size_t narrow, double rate,
                         srch_dom_result *res)
{
    srch_dom_result *r = malloc(sizeof *r);
    uint8_t *state = malloc(dom_state_bytes(d));
    int st = r && state ? 0 : hn_fail(HN_ERR_NOMEM, "beam search: out of memory"), last = 0;
    for (int k = 0; !st && k < (o->variants > 1 ? o->variants : 1) && !res->proven; k++) {
        double dk;
        size_t width = variant_share(o, k, deadline, rate, narrow, &dk);
        res->limited |= width < (size_t)o->width; /* the time left decided the width */
        if (!width)
            break; /* too little time left for a run that could do better */
        dom_symmetric(d, start, k, state);
        memset(r, 0, offsetof(srch_dom_result, moves));
        r->length = -1;
        r->cost = -1;
        last = beam_variant(d, state, h, o, width, lim, dk,
                            res->length >= 0 ? res->length : SRCH_DOM_MAX_PATH + 1, r,
                            narrow ? &rate : NULL);
        add_run(r, res);
        if (k == 0)
            res->h0 = r->h0;
        take_variant(d, k, r, res);
        if (last == HN_ERR_INTERRUPTED || hn_stop_requested())
            break; /* the best path so far stands */
        if (last && last != HN_ERR_LIMIT)
            st = last;
        else
            hn_error_clear(); /* a variant cut by its share of the time */
    }
    free(r);
    free(state);
    if (!st && res->length < 0)
        st = last == HN_ERR_INTERRUPTED
                 ? hn_fail(HN_ERR_INTERRUPTED, "beam search: interrupted before a path")
                 : hn_fail(HN_ERR_LIMIT, "beam search: no path within the limits");
    return st;
}

/* The narrow first beam's width (0: none): only with a time limit, where
 * the configured beam may not finish and a beam the clock cuts finds
 * nothing; without one the searches are as they were. */
static size_t narrow_width(const srch_dom_opts *o, const srch_limits *lim)
{
    if (!lim || !(lim->time_limit > 0) || o->first_width < 0)
        return 0;
    size_t w = o->first_width ? (size_t)o->first_width : (size_t)o->width / 16;
    if (!o->first_width && w > SRCH_DOM_FIRST_WIDTH_MAX)
        w = SRCH_DOM_FIRST_WIDTH_MAX;
    return w < (size_t)o->width ? w : 0;
}

/* The narrow beam of width w on the start itself, into res: its path (if
 * any) is the incumbent that bounds the configured beams, *rate its
 * seconds per unit of width (0 when the limits cut it). A narrow beam
 * that fails (cut by the clock, a depth empty or too long a path) leaves
 * them to try: 0, or a status that ends the search (an error,
 * HN_ERR_INTERRUPTED). */
static int beam_narrow(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *o,
                       size_t w, const srch_limits *lim, double deadline, srch_dom_result *res,
                       double *rate)
{
    srch_dom_result *r = malloc(sizeof *r);
    if (!r)
        return hn_fail(HN_ERR_NOMEM, "beam search: out of memory");
    memset(r, 0, offsetof(srch_dom_result, moves));
    r->length = -1;
    r->cost = -1;
    double t0 = hn_now();
    int st = beam_once(d, start, h, w, o->ball, SRCH_DOM_MAX_PATH + 1, lim, deadline, r);
    *rate = r->limited ? 0 : (hn_now() - t0) / (double)w;
    add_run(r, res);
    res->h0 = r->h0;
    if (!st && r->length >= 0) {
        memcpy(res->moves, r->moves, (size_t)r->length);
        res->length = r->length;
        res->cost = r->cost;
        res->proven = r->proven; /* a full breadth-first search: no wider run is shorter */
        res->improvements = 1;
    }
    free(r);
    if (st == HN_ERR_LIMIT || st == HN_ERR_UNSOLVABLE) {
        hn_error_clear(); /* the configured beams may still find a path */
        st = 0;
    }
    return st;
}

int srch_dom_beam(const dom *d, const void *start, srch_dom_heur *h, const srch_dom_opts *opts,
                  const srch_limits *lim, srch_dom_result *res)
{
    const srch_dom_opts *o = opts ? opts : &SRCH_DOM_DEFAULTS;
    if (srch_gen_begin(d, start, h, res))
        return res->status;
    if (o->width < 1 || o->width > 10000000)
        return res->status = hn_fail(HN_ERR_ARG, "beam search: width must be 1..10^7");
    if (o->widen != 0 && !(o->widen > 1 && o->widen <= 100))
        return res->status = hn_fail(HN_ERR_ARG, "beam search: widen must be 0 (off) or over 1");
    if (o->variants > 1 && (!dom_has_symmetric_path(d) || o->variants > dom_symmetries(d)))
        return res->status = hn_fail(HN_ERR_ARG,
                                     "beam search: %d variants, domain %s has %d symmetric map(s) "
                                     "with paths (the start counted)",
                                     o->variants, dom_spec(d),
                                     dom_has_symmetric_path(d) ? dom_symmetries(d) : 1);
    double t0 = hn_now(), deadline = srch_gen_deadline(lim, t0);
    uint64_t rows0 = srch_dom_heur_rows(h);
    if (o->ball && srch_dom_ball_domain(o->ball) != d)
        return res->status = hn_fail(HN_ERR_ARG, "beam search: the ball is of another domain");
    size_t narrow = narrow_width(o, lim);
    double rate = 0;
    int st = narrow ? beam_narrow(d, start, h, o, narrow, lim, deadline, res, &rate) : 0;
    if (!st && !res->proven)
        st = o->variants > 1 || narrow
                 ? beam_variants(d, start, h, o, lim, deadline, narrow, rate, res)
                 : beam_variant(d, start, h, o, (size_t)o->width, lim, deadline,
                                SRCH_DOM_MAX_PATH + 1, res, NULL);
    if (!st)
        st = srch_gen_check(d, start, "beam search", res);
    res->rows = srch_dom_heur_rows(h) - rows0;
    res->seconds = hn_now() - t0;
    /* the first path's clock reading as seconds from the start */
    res->first_seconds = res->first_seconds && !st ? res->first_seconds - t0 : -1;
    return res->status = st;
}
