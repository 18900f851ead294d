/* A network heuristic's leaf: dom_encode's active inputs into nn_sparse
 * accumulators. A child's first layer comes from its parent's by the
 * inputs the move turns off and on (dom_encode_delta), the way NNUE
 * updates; a parent's accumulator is found among the rows of the previous
 * network call when it was evaluated there (beam search's next depth,
 * IDA*'s and a walk's next step), else built once for all its children.
 * Accumulator sums are exact, so every route gives the same values. A
 * model of another goal layout reads the states through an input map
 * (dom_encode_as), and a cache of estimates (cache:BITS) spares a state
 * seen before its network row. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "nn/sparse.h"
#include "search/generic/gen_internal.h"

/* Rows of one network call, and an index over their states for the next
 * call's parents: slots carry the generation that wrote them, so a new
 * call's index needs no clearing. */
typedef struct {
    int32_t *acc;
    uint8_t *states;
    uint64_t *hash;
    int n;
} rowset;

typedef struct {
    uint32_t row;
    uint32_t gen;
} slot;

/* A cache entry's head; the state's bytes follow it. used == 0: free. */
typedef struct {
    uint64_t hash;
    float y;
    uint32_t used;
} cache_head;

struct gen_net {
    const dom *d;
    nn_sparse *sp;
    int max_batch, stride;
    size_t sb;
    rowset set[2]; /* [cur] being filled, [cur ^ 1] the previous call's */
    int cur;
    slot *index; /* over set[cur ^ 1] */
    size_t nslots;
    uint32_t gen;
    int32_t *pacc; /* a parent's accumulator built from its inputs */
    long pacc_of;  /* the parent (index in the caller's parents) it is, or -1 */
    float *y;
    /* a Q network (one output per move, each the value of the child that
     * move leads to): outs outputs; qrow[k] is the row of pending child k */
    int outs;
    int *qrow;
    double *out; /* where the rows' estimates go: est + first state of the call */
    size_t first;
    size_t *rowof;  /* one-output rows: the state (index into out) of each row */
    int32_t *inmap; /* the model's input of each domain input, or NULL */
    int inputs;
    uint8_t *cache; /* 2^cache_bits entries of centry bytes, or NULL */
    int cache_bits;
    size_t centry;
    uint64_t rows, updates, hits;
    int timed;      /* 1: the network calls' seconds are summed */
    double seconds; /* in nn_sparse_run, while timed */
};

void srch_gen_net_free(gen_net *n)
{
    if (!n)
        return;
    nn_sparse_free(n->sp);
    for (int i = 0; i < 2; i++) {
        free(n->set[i].acc);
        free(n->set[i].states);
        free(n->set[i].hash);
    }
    free(n->index);
    free(n->pacc);
    free(n->y);
    free(n->qrow);
    free(n->rowof);
    free(n->inmap);
    free(n->cache);
    free(n);
}

static int alloc_rows(gen_net *n)
{
    size_t mb = (size_t)n->max_batch;
    for (int i = 0; i < 2; i++) {
        n->set[i].acc = nn_sparse_acc_alloc(n->sp, n->max_batch);
        n->set[i].states = malloc(mb * n->sb);
        n->set[i].hash = malloc(mb * sizeof(uint64_t));
        if (!n->set[i].acc || !n->set[i].states || !n->set[i].hash)
            return HN_ERR_NOMEM;
    }
    n->nslots = 1;
    while (n->nslots < 2 * mb)
        n->nslots *= 2;
    n->index = calloc(n->nslots, sizeof *n->index);
    n->pacc = nn_sparse_acc_alloc(n->sp, 1);
    n->y = malloc(mb * (size_t)n->outs * sizeof *n->y);
    n->qrow = n->outs > 1 ? malloc(mb * (size_t)n->outs * sizeof *n->qrow) : NULL;
    n->rowof = malloc(mb * sizeof *n->rowof);
    /* calloc: a cache costs memory only as states fill it */
    n->centry = srch_gen_net_cache_entry(n->sb);
    n->cache = n->cache_bits ? calloc((size_t)1 << n->cache_bits, n->centry) : NULL;
    return n->index && n->pacc && n->y && (n->outs < 2 || n->qrow) && n->rowof &&
                   (!n->cache_bits || n->cache)
               ? 0
               : HN_ERR_NOMEM;
}

/* A copy of the input map (inputs entries), or NULL for none. */
static int copy_map(gen_net *n, const int32_t *inmap)
{
    if (!inmap)
        return 0;
    n->inmap = malloc((size_t)n->inputs * sizeof *n->inmap);
    if (!n->inmap)
        return HN_ERR_NOMEM;
    memcpy(n->inmap, inmap, (size_t)n->inputs * sizeof *n->inmap);
    return 0;
}

gen_net *srch_gen_net_new(const dom *d, const nn_model *m, int engine, const srch_dom_net_opts *o,
                          const int32_t *inmap, int *status)
{
    int st = 0, max_batch = o->max_batch;
    gen_net *n = calloc(1, sizeof *n);
    if (!n) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for a network heuristic");
        return NULL;
    }
    n->d = d;
    n->max_batch = max_batch;
    n->cache_bits = o->cache_bits;
    n->inputs = nn_model_inputs(m);
    n->outs = nn_model_outputs(m);
    n->sb = dom_state_bytes(d);
    n->pacc_of = -1;
    n->gen = 1; /* the index's zeroed slots are of generation 0: none */
    enum nn_sparse_kind kind = engine == SRCH_DOM_ENGINE_Q8 ? NN_SPARSE_Q8 : NN_SPARSE_FLOAT;
    /* the domain bounds the inputs on at once: Q8 may then keep int16 sums */
    int bound = kind == NN_SPARSE_Q8 && !o->acc32 ? (int)dom_facts_of(d)->max_active : 0;
    n->sp = nn_sparse_new_bounded(m, kind, max_batch, bound, &st);
    if (n->sp) {
        n->stride = nn_sparse_acc_stride(n->sp);
        if (alloc_rows(n) || copy_map(n, inmap))
            st = hn_fail(HN_ERR_NOMEM, "out of memory for a network heuristic's rows");
    }
    if (!n->sp || st) {
        srch_gen_net_free(n);
        *status = st ? st : HN_ERR_NOMEM;
        return NULL;
    }
    return n;
}

gen_net *srch_gen_net_clone(const gen_net *base, int *status)
{
    gen_net *n = calloc(1, sizeof *n);
    if (!n) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for a network heuristic");
        return NULL;
    }
    n->d = base->d;
    n->max_batch = base->max_batch;
    n->outs = base->outs;
    n->stride = base->stride;
    n->sb = base->sb;
    n->pacc_of = -1;
    n->gen = 1;
    n->cache_bits = base->cache_bits;
    n->inputs = base->inputs;
    n->timed = base->timed;
    n->sp = nn_sparse_clone(base->sp, base->max_batch, status);
    if (!n->sp || alloc_rows(n) || copy_map(n, base->inmap)) {
        srch_gen_net_free(n);
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for a network heuristic's rows");
        return NULL;
    }
    return n;
}

size_t srch_gen_net_cache_entry(size_t state_bytes)
{
    return (sizeof(cache_head) + state_bytes + 7) & ~(size_t)7;
}

uint64_t srch_gen_net_rows(const gen_net *n)
{
    return n->rows;
}

uint64_t srch_gen_net_updates(const gen_net *n)
{
    return n->updates;
}

uint64_t srch_gen_net_hits(const gen_net *n)
{
    return n->hits;
}

void srch_gen_net_time(gen_net *n, int on)
{
    n->timed = on != 0;
}

double srch_gen_net_seconds(const gen_net *n)
{
    return n->seconds;
}

/* The model's inputs of k domain inputs, in place. */
static void map_inputs(const gen_net *n, int32_t *act, int k)
{
    for (int i = 0; n->inmap && i < k; i++)
        act[i] = n->inmap[act[i]];
}

/* ---- the cache: one entry per slot, the newest state wins ---- */

static cache_head *cache_slot(const gen_net *n, uint64_t hv)
{
    uint64_t x = hv * 0xd6e8feb86659fd93ull;
    x ^= x >> 32;
    size_t i = (size_t)(x >> (64 - n->cache_bits));
    return (cache_head *)(n->cache + i * n->centry);
}

static int cache_get(gen_net *n, const uint8_t *s, uint64_t hv, double *y)
{
    const cache_head *e = cache_slot(n, hv);
    if (!e->used || e->hash != hv || memcmp(e + 1, s, n->sb))
        return 0;
    *y = e->y;
    n->hits++;
    return 1;
}

static void cache_put(gen_net *n, const uint8_t *s, uint64_t hv, float y)
{
    cache_head *e = cache_slot(n, hv);
    *e = (cache_head){.hash = hv, .y = y, .used = 1};
    memcpy(e + 1, s, n->sb);
}

/* The previous call's row holding `state`, or -1. */
static long prev_row(const gen_net *n, const uint8_t *state, uint64_t hv)
{
    const rowset *p = &n->set[n->cur ^ 1];
    size_t mask = n->nslots - 1;
    for (size_t i = hv & mask;; i = (i + 1) & mask) {
        slot s = n->index[i];
        if (s.gen != n->gen)
            return -1;
        if (p->hash[s.row] == hv && !memcmp(p->states + s.row * n->sb, state, n->sb))
            return s.row;
    }
}

static const int32_t *prev_acc(const gen_net *n, long row)
{
    return n->set[n->cur ^ 1].acc + (size_t)row * (size_t)n->stride;
}

static void acc_fresh(const gen_net *n, const uint8_t *state, int32_t *acc)
{
    int32_t act[DOM_MAX_ACTIVE];
    int k = dom_encode(n->d, state, act);
    map_inputs(n, act, k);
    nn_sparse_acc_init(n->sp, act, k, acc);
}

/* The accumulator of parent p (state ps): a previous row, or built. */
static const int32_t *parent_acc(gen_net *n, long p, const uint8_t *ps)
{
    if (n->pacc_of == p)
        return n->pacc;
    long r = prev_row(n, ps, dom_hash(n->d, ps));
    if (r >= 0)
        return prev_acc(n, r);
    acc_fresh(n, ps, n->pacc);
    n->pacc_of = p;
    return n->pacc;
}

/* Row `row` of the current set for state s (hash hv). */
static void fill_row(gen_net *n, int row, const uint8_t *s, uint64_t hv, const uint8_t *ps, long p,
                     int move)
{
    int32_t *dst = n->set[n->cur].acc + (size_t)row * (size_t)n->stride;
    long r = prev_row(n, s, hv);
    if (r >= 0) { /* evaluated in the previous call: its sums as they are */
        memcpy(dst, prev_acc(n, r), sizeof *dst * (size_t)n->stride);
        n->updates++;
        return;
    }
    if (ps) {
        int32_t off[DOM_MAX_ACTIVE], on[DOM_MAX_ACTIVE];
        int noff, non;
        const int32_t *src = parent_acc(n, p, ps);
        if (dom_encode_delta(n->d, ps, move, off, &noff, on, &non) == 0) {
            map_inputs(n, off, noff);
            map_inputs(n, on, non);
            nn_sparse_acc_update(n->sp, src, off, noff, on, non, dst);
            n->updates++;
            return;
        }
    }
    acc_fresh(n, s, dst);
}

/* The network over rows accumulators acc into n->y, its seconds summed
 * when timed (bench search's nn_rows_per_s; two clock reads a call). */
static int timed_run(gen_net *n, const int32_t *acc, int rows)
{
    if (!n->timed)
        return nn_sparse_run(n->sp, acc, rows, n->y);
    double t0 = hn_now();
    int st = nn_sparse_run(n->sp, acc, rows, n->y);
    n->seconds += hn_now() - t0;
    return st;
}

/* Run the current rows into n->out, then make them the previous call's
 * (indexed for the next call's parents). */
static int flush(gen_net *n)
{
    rowset *c = &n->set[n->cur];
    if (!c->n)
        return 0;
    int st = timed_run(n, c->acc, c->n);
    if (st)
        return st;
    for (int i = 0; i < c->n; i++) {
        if (!isfinite(n->y[i]))
            return hn_fail(HN_ERR_NAN, "network heuristic: the network returned %g",
                           (double)n->y[i]);
        n->out[n->rowof[i]] = n->y[i];
        if (n->cache)
            cache_put(n, c->states + (size_t)i * n->sb, c->hash[i], n->y[i]);
    }
    n->rows += (uint64_t)c->n;
    n->gen++;
    size_t mask = n->nslots - 1;
    for (int i = 0; i < c->n; i++) {
        size_t k = c->hash[i] & mask;
        while (n->index[k].gen == n->gen)
            k = (k + 1) & mask;
        n->index[k] = (slot){.row = (uint32_t)i, .gen = n->gen};
    }
    n->cur ^= 1;
    n->set[n->cur].n = 0;
    return 0;
}

/* ---- a Q network: a state's row values all its children ---- */

/* Run the current rows; child k of [n->first, upto) gets output moves[k]
 * of its parent's row, a state with no parent (moves NULL) the least cost +
 * output over its moves. */
static int q_flush(gen_net *n, const uint8_t *states, const uint8_t *moves, size_t upto)
{
    rowset *c = &n->set[n->cur];
    int st = c->n ? timed_run(n, c->acc, c->n) : 0;
    for (int i = 0; !st && i < c->n * n->outs; i++)
        if (!isfinite(n->y[i]))
            st = hn_fail(HN_ERR_NAN, "network heuristic: the network returned %g", (double)n->y[i]);
    uint8_t kids[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], mv[DOM_MAX_MOVES], q[DOM_MAX_MOVES];
    for (size_t k = n->first; !st && k < upto; k++) {
        const float *y = n->y + (size_t)n->qrow[k - n->first] * (size_t)n->outs;
        if (moves) {
            n->out[k] = y[moves[k]];
            continue;
        }
        int nk = dom_expand(n->d, states + k * n->sb, DOM_PRUNE_ROOT, kids, mv, q);
        double best = nk ? INFINITY : 0;
        for (int a = 0; a < nk; a++)
            best = fmin(best, dom_move_cost(n->d, mv[a]) + (double)y[mv[a]]);
        n->out[k] = best;
    }
    n->rows += (uint64_t)c->n;
    c->n = 0;
    n->first = upto;
    return st;
}

/* One row per parent (per run of children of one parent), or per state
 * when there are no parents. */
static int q_estimate(gen_net *n, const uint8_t *states, size_t count, const uint8_t *parents,
                      const int *parent_of, const uint8_t *moves, double *est)
{
    int by_parent = parents && parent_of && moves;
    size_t cap = (size_t)n->max_batch * (size_t)n->outs;
    long last = -1;
    n->out = est;
    n->first = 0;
    n->set[n->cur].n = 0;
    for (size_t i = 0; i < count; i++) {
        rowset *c = &n->set[n->cur];
        long p = by_parent ? parent_of[i] : (long)i;
        if (p != last || !by_parent || i - n->first == cap) {
            int st = c->n == n->max_batch || i - n->first == cap
                         ? q_flush(n, states, by_parent ? moves : NULL, i)
                         : 0;
            if (st)
                return st;
            const uint8_t *s = by_parent ? parents + (size_t)p * n->sb : states + i * n->sb;
            acc_fresh(n, s, c->acc + (size_t)c->n * (size_t)n->stride);
            c->n++;
            last = p;
        }
        n->qrow[i - n->first] = c->n - 1;
    }
    return q_flush(n, states, by_parent ? moves : NULL, count);
}

int srch_gen_net_estimate(gen_net *n, const uint8_t *states, size_t count, const uint8_t *parents,
                          const int *parent_of, const uint8_t *moves, double *est)
{
    if (n->outs > 1)
        return q_estimate(n, states, count, parents, parent_of, moves, est);
    n->pacc_of = -1;
    n->out = est;
    n->set[n->cur].n = 0;
    for (size_t i = 0; i < count; i++) {
        rowset *c = &n->set[n->cur];
        const uint8_t *s = states + i * n->sb;
        long p = parents && parent_of ? parent_of[i] : -1;
        uint64_t hv = dom_hash(n->d, s);
        if (n->cache && cache_get(n, s, hv, &est[i]))
            continue;
        int row = c->n++;
        memcpy(c->states + (size_t)row * n->sb, s, n->sb);
        c->hash[row] = hv;
        n->rowof[row] = i;
        fill_row(n, row, s, hv, p >= 0 ? parents + (size_t)p * n->sb : NULL, p,
                 moves ? moves[i] : 0);
        if (c->n == n->max_batch) {
            int st = flush(n);
            if (st)
                return st;
        }
    }
    return flush(n);
}
