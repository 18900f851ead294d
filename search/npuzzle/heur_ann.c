/* The ANN-distance heuristic: a trained network (nn_infer) behind the
 * srch_np_heur interface. Boards of a batch go through the network in one
 * call; every thread gets its own inference context and a cache of boards it
 * has already evaluated, so one heuristic object can serve several solver
 * threads and IDA* revisits cost no network calls. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "nn/sparse.h"
#include "search/npuzzle/ann.h"
#include "search/npuzzle/encode.h"
#include "search/npuzzle/np_internal.h"

const srch_np_ann_opts SRCH_NP_ANN_DEFAULTS = {
    .scale = 1, .delta = 0.0, .mirror = 0, .max_batch = 1024, .cache_bits = 18};

/* One cached network output; key[0] == 0 marks a free entry: key[0] packs
 * the cells of tiles 1..12 (1..8 on the 8-puzzle), and two tiles never
 * share cell 0, so no board packs to 0. A free cache is all zero bytes,
 * which calloc gets from the kernel untouched: a cache:28 (6.4 GB) costs
 * memory only as boards fill it, not up front. */
typedef struct {
    uint64_t key[2];
    float y;
} cache_entry;

/* What one thread owns: inference workspace, input/output rows, the cache
 * and its counters. Linked so the heuristic can free all of them. The sparse
 * engines keep, per stream (0 the board, 1 its mirror), the active inputs of
 * the stream's last row and where its accumulator is in `acc`: the next row
 * of the stream starts from it (rows of a stream never overwrite another
 * stream's, since a batch always holds whole boards). */
typedef struct ann_tls {
    nn_infer *inf;
    nn_sparse *sp;
    int32_t *acc; /* [max_batch, acc stride] */
    int ref_row[2];
    int ref_idx[2][SRCH_NP_MAX_CELLS];
    float *x, *y, *est;
    int *basev;         /* residual base values when the floor shares them */
    size_t *miss;       /* board index of each row sent to the network */
    cache_entry *cache; /* 2^cache_bits entries, or NULL */
    srch_np_ann_stats st;
    struct ann_tls *next;
} ann_tls;

typedef struct {
    nn_infer *base;   /* DENSE */
    nn_sparse *sbase; /* SPARSE, Q8 */
    /* input index of tile t on cell p of a board in the run's layout, for
     * the board [0] and for its mirror [1], in the model's layout */
    int16_t map[2][SRCH_NP_MAX_CELLS][SRCH_NP_MAX_CELLS];
    pthread_key_t key;
    pthread_mutex_t mu;
    ann_tls *all;
    srch_np_heur *floor;         /* admissible part of max(ann - delta, floor), or NULL */
    srch_np_heur *resid;         /* residual models: estimate = resid + network, or NULL */
    const srch_np_heur *base_as; /* a heuristic resid's values stand for, or NULL */
    int floor_is_base;           /* the floor's values are resid's: one pass gives both */
    srch_np_ann_opts o;
    int width, goal, model_goal, inputs;
} ann_heur;

_Static_assert(sizeof(cache_entry) == 24, "heurnet solve --help states 24 bytes per cached board");

size_t srch_np_ann_cache_bytes(int bits)
{
    return bits > 0 && bits <= 28 ? ((size_t)1 << bits) * sizeof(cache_entry) : 0;
}

static void board_key(const srch_np_board *b, uint64_t *key)
{
    key[0] = key[1] = 0;
    for (int t = 1; t < b->ncells; t++)
        key[(t - 1) / 12] |= (uint64_t)b->pos[t] << (5 * ((t - 1) % 12));
}

static size_t cache_slot(const uint64_t *key, int bits)
{
    uint64_t x = (key[0] ^ (key[1] * 0x9e3779b97f4a7c15ull)) * 0xd6e8feb86659fd93ull;
    x ^= x >> 32;
    return (size_t)(x >> (64 - bits)) & (((size_t)1 << bits) - 1);
}

static void tls_free(ann_tls *t)
{
    if (!t)
        return;
    nn_infer_free(t->inf);
    nn_sparse_free(t->sp);
    free(t->acc);
    free(t->x);
    free(t->y);
    free(t->est);
    free(t->basev);
    free(t->miss);
    free(t->cache);
    free(t);
}

static ann_tls *tls_new(ann_heur *a)
{
    ann_tls *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    size_t mb = (size_t)a->o.max_batch;
    if (a->sbase) {
        t->sp = nn_sparse_clone(a->sbase, a->o.max_batch, NULL);
        t->acc = t->sp ? nn_sparse_acc_alloc(t->sp, a->o.max_batch) : NULL;
        t->ref_row[0] = t->ref_row[1] = -1;
        if (!t->acc) {
            tls_free(t);
            return NULL;
        }
    } else {
        t->inf = nn_infer_clone(a->base, a->o.max_batch, NULL);
        t->x = malloc(mb * (size_t)a->inputs * sizeof *t->x);
        if (!t->inf || !t->x) {
            tls_free(t);
            return NULL;
        }
    }
    t->y = malloc(mb * sizeof *t->y);
    t->est = malloc(mb * sizeof *t->est);
    t->basev = malloc(mb * sizeof *t->basev);
    t->miss = malloc(mb * sizeof *t->miss);
    if (a->o.cache_bits > 0) {
        size_t n = (size_t)1 << a->o.cache_bits;
        t->cache = calloc(n, sizeof *t->cache);
    }
    if (!t->y || !t->est || !t->basev || !t->miss || (a->o.cache_bits > 0 && !t->cache)) {
        tls_free(t);
        return NULL;
    }
    return t;
}

/* The calling thread's context, created on first use; NULL when out of
 * memory (message set). */
static ann_tls *tls_get(ann_heur *a)
{
    ann_tls *t = pthread_getspecific(a->key);
    if (t)
        return t;
    if (!(t = tls_new(a))) {
        hn_fail(HN_ERR_NOMEM, "ANN heuristic: out of memory for a thread's inference context");
        return NULL;
    }
    if (pthread_setspecific(a->key, t)) {
        tls_free(t);
        hn_fail(HN_ERR_NOMEM, "ANN heuristic: cannot register a thread context");
        return NULL;
    }
    pthread_mutex_lock(&a->mu);
    t->next = a->all;
    a->all = t;
    pthread_mutex_unlock(&a->mu);
    return t;
}

/* Network rows per board: the board, and its diagonal mirror with `mirror`. */
static int rows_per_board(const ann_heur *a)
{
    return a->o.mirror ? 2 : 1;
}

/* Network calls per timed one (a power of two; see srch_np_ann_stats). */
#define TIME_EVERY 16

/* Send rows 0..nrows-1 of t->x through the network and store for each board
 * the mean of the outputs of its rows (consecutive in t->miss). */
static int run_rows(ann_heur *a, ann_tls *t, const srch_np_board *b, int nrows, float *est)
{
    int timed = (t->st.calls & (TIME_EVERY - 1)) == 0;
    double t0 = timed ? hn_now() : 0.0;
    int st =
        t->sp ? nn_sparse_run(t->sp, t->acc, nrows, t->y) : nn_infer_run(t->inf, t->x, nrows, t->y);
    if (timed)
        t->st.seconds += TIME_EVERY * (hn_now() - t0);
    if (st)
        return st;
    t->st.rows += (uint64_t)nrows;
    t->st.calls++;
    float w = 1.0f / (float)rows_per_board(a);
    for (int r = 0; r < nrows; r++) {
        size_t i = t->miss[r];
        if (!isfinite(t->y[r]))
            return hn_fail(HN_ERR_NAN, "ANN heuristic: the network returned %g", (double)t->y[r]);
        int first = r == 0 || t->miss[r - 1] != i, last = r + 1 == nrows || t->miss[r + 1] != i;
        est[i] = (first ? 0.0f : est[i]) + w * t->y[r];
        if (last && t->cache) {
            uint64_t key[2];
            board_key(&b[i], key);
            cache_entry *e = &t->cache[cache_slot(key, a->o.cache_bits)];
            e->key[0] = key[0];
            e->key[1] = key[1];
            e->y = est[i];
        }
    }
    return 0;
}

/* Row `row` of t->acc for board b of stream s (0 the board, 1 its mirror):
 * from the stream's previous row when fewer than half the tiles moved (a
 * child or sibling: 2-3 tiles), else from scratch. Exact either way. */
static void sparse_row(const ann_heur *a, ann_tls *t, int s, const srch_np_board *b, int row)
{
    int cells = b->ncells, stride = nn_sparse_acc_stride(t->sp);
    int idx[SRCH_NP_MAX_CELLS], rem[SRCH_NP_MAX_CELLS], add[SRCH_NP_MAX_CELLS], k = 0;
    int *ref = t->ref_idx[s];
    for (int p = 0; p < cells; p++)
        idx[p] = a->map[s][b->tile[p]][p];
    int32_t *dst = t->acc + (size_t)row * stride;
    if (t->ref_row[s] >= 0)
        for (int p = 0; p < cells; p++) { /* no branch: which cells differ is unpredictable */
            rem[k] = ref[p];
            add[k] = idx[p];
            k += idx[p] != ref[p];
        }
    if (t->ref_row[s] >= 0 && 2 * k < cells) {
        nn_sparse_acc_update(t->sp, t->acc + (size_t)t->ref_row[s] * stride, rem, k, add, k, dst);
        t->st.acc_updates++;
    } else {
        nn_sparse_acc_init(t->sp, idx, cells, dst);
    }
    memcpy(ref, idx, sizeof(int) * cells);
    t->ref_row[s] = row;
}

/* Put b's rows (the board, and its mirror with `mirror`) at row nrows. Not
 * timed: two clock reads per board would cost a few % of a row. */
static void add_rows(const ann_heur *a, ann_tls *t, const srch_np_board *b, int nrows)
{
    size_t w = (size_t)a->inputs;
    if (t->sp) {
        sparse_row(a, t, 0, b, nrows);
        if (a->o.mirror)
            sparse_row(a, t, 1, b, nrows + 1);
        return;
    }
    srch_np_encode_onehot(b, a->goal, a->model_goal, t->x + (size_t)nrows * w);
    if (a->o.mirror) {
        srch_np_board m;
        srch_np_board_transpose(b, a->goal, &m);
        srch_np_encode_onehot(&m, a->goal, a->model_goal, t->x + (size_t)(nrows + 1) * w);
    }
}

static int estimate(ann_heur *a, const srch_np_board *b, size_t n, float *est)
{
    ann_tls *t = tls_get(a);
    if (!t)
        return HN_ERR_NOMEM;
    int nrows = 0, per = rows_per_board(a);
    for (size_t i = 0; i < n; i++) {
        if (t->cache) {
            uint64_t key[2];
            board_key(&b[i], key);
            const cache_entry *e = &t->cache[cache_slot(key, a->o.cache_bits)];
            if (e->key[0] == key[0] && e->key[1] == key[1]) {
                est[i] = e->y;
                t->st.hits++;
                continue;
            }
        }
        add_rows(a, t, &b[i], nrows);
        for (int k = 0; k < per; k++)
            t->miss[nrows++] = i;
        if (nrows + per > a->o.max_batch) {
            int st = run_rows(a, t, b, nrows, est);
            if (st)
                return st;
            nrows = 0;
        }
    }
    return nrows ? run_rows(a, t, b, nrows, est) : 0;
}

/* A residual model's network predicts the correction to its base heuristic:
 * the estimate is base(s) + net(s). The base is evaluated per call, not
 * cached, so the cache keeps the network's own outputs. */
static int estimate_full(ann_heur *a, const srch_np_board *b, size_t n, float *est)
{
    int st = estimate(a, b, n, est), h[256];
    for (size_t lo = 0; !st && a->resid && lo < n; lo += 256) {
        size_t k = n - lo < 256 ? n - lo : 256;
        st = srch_np_heur_eval_batch(a->resid, b + lo, k, h);
        for (size_t i = 0; !st && i < k; i++)
            est[lo + i] += (float)h[i];
    }
    return st;
}

/* The heuristic value in 1/scale moves from the estimate (the network's
 * float output plus the residual base, summed in double precision) and the
 * floor, rounded as the generic heuristic's root rounds (gen_heur.c). */
static int combine(const ann_heur *a, const srch_np_board *b, double est, int floor_h)
{
    if (srch_np_board_is_goal(b, a->goal))
        return 0;
    double v = (est - a->o.delta) * a->o.scale;
    long r = (long)floor(v + 0.5);
    if (a->floor && r < (long)floor_h * a->o.scale)
        r = (long)floor_h * a->o.scale;
    if (r < 0)
        r = 0;
    return r > 0xffff ? 0xffff : (int)r;
}

/* Up to max_batch boards whose residual base values bv the caller has (NULL
 * without a base): the network, the base added, the floor, combined. A
 * floor that shares the base's values is not read again. */
static int eval_known_base(ann_heur *a, ann_tls *t, const srch_np_board *b, size_t k, const int *bv,
                           int *out)
{
    float *est = t->est;
    int st = estimate(a, b, k, est);
    if (!st && a->floor && !a->floor_is_base)
        st = srch_np_heur_eval_batch(a->floor, b, k, out);
    if (st)
        return st;
    const int *fl = a->floor_is_base ? bv : out;
    for (size_t i = 0; i < k; i++)
        out[i] = combine(a, &b[i], (double)est[i] + (bv ? bv[i] : 0), a->floor ? fl[i] : 0);
    return 0;
}

/* The heuristic values into out. The residual base's values: from `given`
 * when the caller has them, else read here (into base_out when not NULL). */
static int eval_with_base(ann_heur *a, const srch_np_board *b, size_t n, int *out, int *base_out,
                          const int *given)
{
    ann_tls *t = tls_get(a);
    if (!t)
        return HN_ERR_NOMEM;
    size_t mb = (size_t)a->o.max_batch;
    for (size_t done = 0; done < n; done += mb) {
        size_t k = n - done < mb ? n - done : mb;
        int *bv = a->resid && !given ? (base_out ? base_out + done : t->basev) : NULL;
        int st = bv ? srch_np_heur_eval_batch(a->resid, b + done, k, bv) : 0;
        if (!st)
            st = eval_known_base(a, t, b + done, k, given ? given + done : bv, out + done);
        if (st)
            return st;
    }
    return 0;
}

static int ann_eval_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    return eval_with_base(self, b, n, out, NULL, NULL);
}

/* eval cannot report an error; a failed network call (out of memory) falls
 * back to the floor (or 0), which keeps a search correct, only slower. */
static int ann_eval(void *self, const srch_np_board *b)
{
    int h;
    if (ann_eval_batch(self, b, 1, &h)) {
        ann_heur *a = self;
        h = a->floor ? srch_np_heur_eval(a->floor, b) * a->o.scale : 0;
    }
    return h;
}

static void ann_destroy(void *self)
{
    ann_heur *a = self;
    if (!a)
        return;
    for (ann_tls *t = a->all, *next; t; t = next) {
        next = t->next;
        tls_free(t);
    }
    pthread_key_delete(a->key);
    pthread_mutex_destroy(&a->mu);
    nn_infer_free(a->base);
    nn_sparse_free(a->sbase);
    srch_np_heur_free(a->floor);
    srch_np_heur_free(a->resid);
    free(a);
}

/* Check that the model reads boards of this size (any goal layout: boards
 * are converted exactly) and predicts one value. */
static int check_model(const nn_model *m, const char *name, int width, int *model_goal)
{
    const char *enc = nn_model_encoder(m);
    int mw;
    if (srch_np_encode_parse(enc, &mw, model_goal))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: encoder \"%s\" is not an n-puzzle encoder (expected \"npuzzle-onehot "
                       "n=%d goal=...\"); this model was not trained on n-puzzle boards",
                       name, enc, width);
    if (mw != width)
        return hn_fail(HN_ERR_ARG,
                       "%s: the model is for the %d-puzzle (encoder \"%s\") but the run is the "
                       "%d-puzzle",
                       name, mw * mw - 1, enc, width * width - 1);
    int cells = width * width;
    if (nn_model_inputs(m) != srch_np_encode_width(cells) || nn_model_outputs(m) != 1)
        return hn_fail(HN_ERR_SHAPE,
                       "%s: the network reads %d inputs and gives %d outputs; the "
                       "%d-puzzle one-hot encoder needs %d inputs and 1 output",
                       name, nn_model_inputs(m), nn_model_outputs(m), cells - 1,
                       srch_np_encode_width(cells));
    return 0;
}

static int check_opts(const srch_np_ann_opts *o, const srch_np_heur *floor, int width, int goal)
{
    if (o->scale < 1 || o->scale > 1000 || o->max_batch < 1 || o->max_batch > 1 << 16 ||
        o->cache_bits < 0 || o->cache_bits > 28 || !isfinite(o->delta) || o->delta < 0 ||
        (o->mirror != 0 && o->mirror != 1) || (o->mirror && o->max_batch < 2) ||
        (o->acc16 != 0 && o->acc16 != 1) || o->engine < SRCH_NP_ANN_SPARSE ||
        o->engine > SRCH_NP_ANN_DENSE)
        return hn_fail(HN_ERR_ARG, "ANN heuristic: scale must be 1..1000, max_batch 1..65536 "
                                   "(2.. with mirror), cache_bits 0..28, delta >= 0 and "
                                   "mirror and acc16 0 or 1, engine sparse, q8 or dense");
    if (floor && (srch_np_heur_width(floor) != width || srch_np_heur_goal(floor) != goal))
        return hn_fail(HN_ERR_ARG, "ANN heuristic: the admissible part is for another board "
                                   "size or goal layout");
    return 0;
}

/* The one-hot input index of tile t on cell p: the cell and tile after the
 * diagonal mirror (as srch_np_board_transpose) for stream 1, then after the
 * conversion to the model's goal layout (as srch_np_board_convert). */
static void input_maps(ann_heur *a)
{
    int w = a->width, n = w * w;
    for (int s = 0; s < 2; s++)
        for (int t0 = 0; t0 < n; t0++)
            for (int p0 = 0; p0 < n; p0++) {
                int t = t0, p = p0;
                if (s) {
                    int gc = srch_np_goal_cell(n, a->goal, t);
                    t = srch_np_goal_tile(n, a->goal, (gc % w) * w + gc / w);
                    p = (p % w) * w + p / w;
                }
                if (a->goal != a->model_goal) {
                    t = t ? n - t : 0;
                    p = n - 1 - p;
                }
                a->map[s][t0][p0] = (int16_t)(t * n + p);
            }
}

srch_np_heur *srch_np_heur_ann_new(const nn_model *m, const char *name, int width, int goal,
                                   srch_np_heur *floor, const srch_np_ann_opts *opts, int *status)
{
    srch_np_ann_opts o = opts ? *opts : SRCH_NP_ANN_DEFAULTS;
    int model_goal = 0, st = check_model(m, name ? name : "model", width, &model_goal);
    if (!st)
        st = check_opts(&o, floor, width, goal);
    ann_heur *a = st ? NULL : calloc(1, sizeof *a);
    if (!st && !a)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for the ANN heuristic");
    if (st) {
        srch_np_heur_free(floor);
        if (status)
            *status = st;
        return NULL;
    }
    *a = (ann_heur){.floor = floor,
                    .o = o,
                    .width = width,
                    .goal = goal,
                    .model_goal = model_goal,
                    .inputs = nn_model_inputs(m)};
    input_maps(a);
    int ok;
    if (o.engine == SRCH_NP_ANN_DENSE)
        ok = (a->base = nn_infer_new(m, 1, &st)) != NULL;
    else
        ok = (a->sbase = nn_sparse_new_bounded(
                  m, o.engine == SRCH_NP_ANN_Q8 ? NN_SPARSE_Q8 : NN_SPARSE_FLOAT, 1,
                  o.acc16 ? width * width : 0, &st)) != NULL;
    if (ok && pthread_key_create(&a->key, NULL))
        st = hn_fail(HN_ERR_NOMEM, "ANN heuristic: no thread key left");
    if (!ok || st) {
        nn_infer_free(a->base);
        nn_sparse_free(a->sbase);
        srch_np_heur_free(floor);
        free(a);
        if (status)
            *status = st;
        return NULL;
    }
    pthread_mutex_init(&a->mu, NULL);
    srch_np_heur_ops ops = {.name = floor ? "ann+floor" : "ann",
                            .eval = ann_eval,
                            .eval_batch = ann_eval_batch,
                            .destroy = ann_destroy};
    return srch_np_heur_wrap(&ops, a, width, goal, status);
}

srch_np_heur *srch_np_heur_ann_load(const char *path, int width, int goal, srch_np_heur *floor,
                                    const srch_np_ann_opts *opts, int *status)
{
    nn_model *m = nn_model_load(path, status);
    if (!m) {
        srch_np_heur_free(floor);
        return NULL;
    }
    srch_np_heur *h = srch_np_heur_ann_new(m, path, width, goal, floor, opts, status);
    nn_model_free(m);
    return h;
}

static ann_heur *as_ann(const srch_np_heur *h)
{
    return h && h->ops.destroy == ann_destroy ? h->self : NULL;
}

int srch_np_heur_is_ann(const srch_np_heur *h)
{
    return as_ann(h) != NULL;
}

int srch_np_heur_scale(const srch_np_heur *h)
{
    const ann_heur *a = as_ann(h);
    return a ? a->o.scale : 1;
}

void srch_np_heur_ann_thread_stats(const srch_np_heur *h, srch_np_ann_stats *out)
{
    *out = (srch_np_ann_stats){0};
    ann_heur *a = as_ann(h);
    ann_tls *t = a ? pthread_getspecific(a->key) : NULL;
    if (t)
        *out = t->st;
}

int srch_np_heur_ann_estimate(const srch_np_heur *h, const srch_np_board *b, size_t n, float *out)
{
    ann_heur *a = as_ann(h);
    if (!a)
        return hn_fail(HN_ERR_ARG, "heuristic '%s' is not an ANN heuristic", srch_np_heur_name(h));
    return estimate_full(a, b, n, out);
}

int srch_np_heur_ann_set_base(srch_np_heur *h, srch_np_heur *base)
{
    ann_heur *a = as_ann(h);
    int st = 0;
    if (!a)
        st = hn_fail(HN_ERR_ARG, "heuristic '%s' is not an ANN heuristic", srch_np_heur_name(h));
    else if (a->resid)
        st = hn_fail(HN_ERR_ARG, "ANN heuristic: the residual base is already set");
    else if (base && (srch_np_heur_width(base) != a->width || srch_np_heur_goal(base) != a->goal))
        st = hn_fail(HN_ERR_ARG,
                     "ANN heuristic: the residual base '%s' is for another board "
                     "size or goal layout",
                     srch_np_heur_name(base));
    if (st) {
        srch_np_heur_free(base);
        return st;
    }
    a->resid = base;
    return 0;
}

const srch_np_heur *srch_np_heur_ann_base(const srch_np_heur *h)
{
    const ann_heur *a = as_ann(h);
    return a ? a->resid : NULL;
}

int srch_np_heur_ann_share_base(srch_np_heur *h, const srch_np_heur *adm)
{
    ann_heur *a = as_ann(h);
    if (!a || !a->resid || !adm || srch_np_heur_scale(adm) != 1 ||
        srch_np_heur_width(adm) != a->width || srch_np_heur_goal(adm) != a->goal)
        return hn_fail(HN_ERR_ARG,
                       "heuristic '%s': only a residual ANN heuristic can share its base with "
                       "a whole-move heuristic for the same board size and goal",
                       h ? srch_np_heur_name(h) : "(none)");
    a->base_as = adm;
    return 0;
}

int srch_np_heur_ann_share_floor(srch_np_heur *h)
{
    ann_heur *a = as_ann(h);
    if (!a || !a->resid || !a->floor || srch_np_heur_scale(a->floor) != 1 ||
        srch_np_heur_scale(a->resid) != 1)
        return hn_fail(HN_ERR_ARG,
                       "heuristic '%s': only a residual ANN heuristic with a whole-move floor "
                       "can share the floor with its base",
                       h ? srch_np_heur_name(h) : "(none)");
    a->floor_is_base = 1;
    return 0;
}

int srch_np_heur_eval_given_adm(const srch_np_heur *h, const srch_np_heur *adm,
                                const srch_np_board *b, size_t n, const int *adm_v, int *hv)
{
    ann_heur *a = as_ann(h);
    if (a && adm && a->base_as == adm)
        return eval_with_base(a, b, n, hv, NULL, adm_v);
    return srch_np_heur_eval_batch(h, b, n, hv);
}

int srch_np_heur_eval_pair(const srch_np_heur *h, const srch_np_heur *adm, const srch_np_board *b,
                           size_t n, int *hv, int *adm_v)
{
    ann_heur *a = as_ann(h);
    if (a && adm && a->base_as == adm)
        return eval_with_base(a, b, n, hv, adm_v, NULL);
    int st = srch_np_heur_eval_batch(h, b, n, hv);
    if (!st && adm)
        return srch_np_heur_eval_batch(adm, b, n, adm_v);
    for (size_t i = 0; !st && i < n; i++)
        adm_v[i] = 0;
    return st;
}
