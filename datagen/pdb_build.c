/* Blank-aware additive PDB construction. For one pattern the abstract state
 * is (placement of the pattern tiles, region of empty cells holding the
 * blank): the blank moves through non-pattern cells for free, a pattern
 * tile moving into the blank's region costs 1. A layered breadth-first scan
 * by cost runs over flat arrays indexed by the placement's rank:
 *   table[p]    first layer that reached placement p (the stored value:
 *               the minimum over blank positions),
 *   visited[p]  bit mask of cells where the blank has been seen with p,
 *   cur / next  bitmaps of placements reached in this / the next layer.
 * Every state of the current layer is expanded by scanning `cur`; threads
 * share the scan through an atomic chunk counter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen/dg.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

#define CHUNK_WORDS 1024 /* 64K placements per work unit */
#define MAX_THREADS 64
#define UNREACHED 255

typedef struct {
    uint64_t p;
    uint32_t region;
} deferred;

typedef struct {
    deferred *items;
    size_t n, cap;
    int nomem;
} defer_list;

typedef struct {
    int width, ncells, k, wide;
    uint8_t goal_cells[SRCH_NP_MAX_CELLS];
    uint64_t entries, nwords;
    uint8_t *table;
    uint16_t *vis16; /* visited masks when ncells <= 16 */
    uint32_t *vis32; /* otherwise */
    _Atomic uint64_t *cur, *next;
    uint32_t nbmask[SRCH_NP_MAX_CELLS];
    uint32_t full, from_left, from_right;  /* cells a shift may land on */
    uint64_t radix_inv[SRCH_NP_MAX_CELLS]; /* 2^64 / radix + 1 */
    uint64_t place[SRCH_NP_MAX_CELLS];     /* place value of digit i in the rank */
    int layer;
    atomic_uint_fast64_t next_chunk;
    atomic_uint_fast64_t reached_in_layer;
} builder;

static inline uint32_t vis_get(const builder *b, uint64_t p)
{
    return b->wide ? atomic_load_explicit((_Atomic uint32_t *)&b->vis32[p], memory_order_relaxed)
                   : atomic_load_explicit((_Atomic uint16_t *)&b->vis16[p], memory_order_relaxed);
}

/* No old value is returned on purpose: that would need a compare-exchange
 * loop, while a plain `lock or` suffices. Two threads reaching the same new
 * state both mark it, which is harmless (same layer, same bits). */
static inline void vis_or(builder *b, uint64_t p, uint32_t m)
{
    if (b->wide)
        atomic_fetch_or_explicit((_Atomic uint32_t *)&b->vis32[p], m, memory_order_relaxed);
    else
        atomic_fetch_or_explicit((_Atomic uint16_t *)&b->vis16[p], (uint16_t)m,
                                 memory_order_relaxed);
}

/* Start loading what checking placement p needs: its mask (with write
 * intent, as a new state ORs into it) and its word of the layer bitmap. */
static inline void vis_prefetch(const builder *b, uint64_t p)
{
    if (b->wide)
        __builtin_prefetch(&b->vis32[p], 1);
    else
        __builtin_prefetch(&b->vis16[p], 1);
    __builtin_prefetch((const void *)&b->cur[p >> 6]);
}

/* The cells connected to `cell` through `empty` (4-neighbourhood). */
static inline uint32_t flood(const builder *b, int cell, uint32_t empty)
{
    uint32_t r = 1u << cell;
    for (;;) {
        uint32_t nr = r | ((r << 1) & b->from_left) | ((r >> 1) & b->from_right) | (r << b->width) |
                      (r >> b->width);
        nr &= empty;
        if (nr == r)
            return r;
        r = nr;
    }
}

/* Exact floor(x / r) for x < 2^40 via the precomputed reciprocal. */
static inline uint64_t div_radix(const builder *b, uint64_t x, int i)
{
    return (uint64_t)(((unsigned __int128)x * b->radix_inv[i]) >> 64);
}

/* Cells and digits of placement p; returns the occupied-cell mask. The
 * n-th free cell is found with pdep where the CPU has it. */
static inline uint32_t unrank_cells(const builder *b, uint64_t p, uint8_t *cells, int *digit)
{
    for (int i = b->k - 1; i >= 0; i--) {
        uint64_t q = div_radix(b, p, i);
        digit[i] = (int)(p - q * (uint64_t)(b->ncells - i));
        p = q;
    }
    uint32_t used = 0;
    for (int i = 0; i < b->k; i++) {
#if defined(__BMI2__)
        cells[i] = (uint8_t)__builtin_ctz(_pdep_u32(1u << digit[i], ~used));
#else
        uint32_t free_bits = ~used;
        for (int j = 0; j < digit[i]; j++)
            free_bits &= free_bits - 1;
        cells[i] = (uint8_t)__builtin_ctz(free_bits);
#endif
        used |= 1u << cells[i];
    }
    return used;
}

/* Rank after tile i moves from cell c to cell n, from the rank p before:
 * digit i is recounted, and each later tile on a cell strictly between c
 * and n gains or loses one smaller occupied cell. */
static inline uint64_t rank_after_move(const builder *b, uint64_t p, const uint8_t *cells,
                                       const int *digit, int i, int c, int n)
{
    uint32_t before = 0;
    for (int j = 0; j < i; j++)
        before |= 1u << cells[j];
    int64_t delta = (int64_t)(n - __builtin_popcount(before & ((1u << n) - 1)) - digit[i]) *
                    (int64_t)b->place[i];
    int lo = c < n ? c : n, hi = c < n ? n : c, sign = n < c ? -1 : 1;
    if (hi - lo > 1)
        for (int j = i + 1; j < b->k; j++)
            if (cells[j] > lo && cells[j] < hi)
                delta += sign * (int64_t)b->place[j];
    return (uint64_t)((int64_t)p + delta);
}

static void defer_push(defer_list *d, uint64_t p, uint32_t region)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 4096;
        deferred *x = realloc(d->items, cap * sizeof *x);
        if (!x) {
            d->nomem = 1;
            return;
        }
        d->items = x;
        d->cap = cap;
    }
    d->items[d->n++] = (deferred){p, region};
}

typedef struct {
    uint64_t p;
    uint32_t occ;
    int cell; /* where the blank ends up: the moved tile's old cell */
} candidate;

/* Expand placement p of the current layer from every blank region seen so
 * far (regions from older layers only regenerate visited states). */
static void expand(builder *b, uint64_t p, defer_list *d)
{
    uint8_t cells[SRCH_NP_MAX_CELLS];
    int digit[SRCH_NP_MAX_CELLS];
    uint32_t occ = unrank_cells(b, p, cells, digit);
    uint32_t blank_cells = vis_get(b, p);
    candidate cand[4 * SRCH_NP_MAX_CELLS];
    int nc = 0;
    for (int i = 0; i < b->k; i++) {
        int c = cells[i];
        for (uint32_t m = b->nbmask[c] & blank_cells; m; m &= m - 1) {
            int n = __builtin_ctz(m);
            uint64_t q = rank_after_move(b, p, cells, digit, i, c, n);
            cand[nc++] = (candidate){q, occ ^ (1u << c) ^ (1u << n), c};
            vis_prefetch(b, q);
        }
    }
    for (int j = 0; j < nc; j++) {
        const candidate *x = &cand[j];
        if (vis_get(b, x->p) >> x->cell & 1)
            continue;
        uint32_t region = flood(b, x->cell, b->full & ~x->occ);
        if (atomic_load_explicit(&b->cur[x->p >> 6], memory_order_relaxed) >> (x->p & 63) & 1) {
            /* p is being expanded in this layer: adding its new region now
             * would let it be expanded one layer too early. */
            defer_push(d, x->p, region);
            continue;
        }
        vis_or(b, x->p, region);
        atomic_fetch_or_explicit(&b->next[x->p >> 6], 1ull << (x->p & 63), memory_order_relaxed);
        _Atomic uint8_t *t = (_Atomic uint8_t *)&b->table[x->p];
        uint8_t expect = UNREACHED;
        if (atomic_load_explicit(t, memory_order_relaxed) == UNREACHED &&
            atomic_compare_exchange_strong_explicit(t, &expect, (uint8_t)(b->layer + 1),
                                                    memory_order_relaxed, memory_order_relaxed))
            atomic_fetch_add_explicit(&b->reached_in_layer, 1, memory_order_relaxed);
    }
}

typedef struct {
    builder *b;
    defer_list d;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    builder *b = w->b;
    for (;;) {
        uint64_t chunk = atomic_fetch_add(&b->next_chunk, 1);
        uint64_t w0 = chunk * CHUNK_WORDS;
        if (w0 >= b->nwords)
            break;
        uint64_t w1 = w0 + CHUNK_WORDS < b->nwords ? w0 + CHUNK_WORDS : b->nwords;
        for (uint64_t i = w0; i < w1; i++)
            for (uint64_t bits = atomic_load_explicit(&b->cur[i], memory_order_relaxed); bits;
                 bits &= bits - 1)
                expand(b, i * 64 + (uint64_t)__builtin_ctzll(bits), &w->d);
    }
    return NULL;
}

/* One layer on `threads` threads; then the deferred regions. */
static int run_layer(builder *b, int threads, worker *ws)
{
    pthread_t tid[MAX_THREADS];
    int started = 0;
    atomic_store(&b->next_chunk, 0);
    for (int t = 1; t < threads; t++, started++)
        if (pthread_create(&tid[t], NULL, work, &ws[t]))
            break;
    work(&ws[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; t < threads; t++) {
        if (ws[t].d.nomem)
            return hn_fail(HN_ERR_NOMEM, "PDB build: out of memory for deferred states");
        for (size_t i = 0; i < ws[t].d.n; i++) {
            const deferred *x = &ws[t].d.items[i];
            vis_or(b, x->p, x->region);
            b->next[x->p >> 6] |= 1ull << (x->p & 63);
        }
        ws[t].d.n = 0;
    }
    return 0;
}

static int builder_init(builder *b, const srch_np_partition *part, int pattern, uint8_t *table,
                        uint64_t entries)
{
    memset(b, 0, sizeof *b);
    b->width = part->width;
    b->ncells = part->width * part->width;
    b->k = part->size[pattern];
    b->wide = b->ncells > 16;
    memcpy(b->goal_cells, part->tiles[pattern], (size_t)b->k); /* blank-first: cell = tile */
    b->entries = entries;
    b->nwords = (entries + 63) / 64;
    b->table = table;
    b->full = b->ncells == 32 ? ~0u : (1u << b->ncells) - 1;
    for (int c = 0; c < b->ncells; c++) {
        if (c % b->width != 0)
            b->from_left |= 1u << c;
        if (c % b->width != b->width - 1)
            b->from_right |= 1u << c;
        for (int d = 0; d < 4; d++) {
            int r = c / b->width, col = c % b->width;
            int nr = r + (d == 0   ? -1
                          : d == 1 ? 1
                                   : 0),
                ncol = col + (d == 2   ? -1
                              : d == 3 ? 1
                                       : 0);
            if (nr >= 0 && nr < b->width && ncol >= 0 && ncol < b->width)
                b->nbmask[c] |= 1u << (nr * b->width + ncol);
        }
    }
    for (int i = 0; i < b->k; i++)
        b->radix_inv[i] = UINT64_MAX / (uint64_t)(b->ncells - i) + 1;
    b->place[b->k - 1] = 1;
    for (int i = b->k - 2; i >= 0; i--)
        b->place[i] = b->place[i + 1] * (uint64_t)(b->ncells - i - 1);
    size_t vsize = b->wide ? 4 : 2;
    if (b->wide)
        b->vis32 = calloc(entries, vsize);
    else
        b->vis16 = calloc(entries, vsize);
    b->cur = calloc(b->nwords, sizeof *b->cur);
    b->next = calloc(b->nwords, sizeof *b->next);
    if ((!b->vis32 && !b->vis16) || !b->cur || !b->next)
        return hn_fail(HN_ERR_NOMEM,
                       "PDB build: out of memory (%.2f GB of work arrays for %llu placements)",
                       (double)entries * (double)vsize / 1e9, (unsigned long long)entries);
    return 0;
}

static void builder_free(builder *b)
{
    free(b->vis16);
    free(b->vis32);
    free((void *)b->cur);
    free((void *)b->next);
}

typedef struct {
    hn_progress_fn fn;
    void *user;
    uint64_t done, total;
} progress;

/* The layered scan for one pattern. */
static int build_pattern(builder *b, int threads, progress *pr)
{
    uint64_t goal = srch_np_pdb_rank(b->goal_cells, b->k, b->ncells);
    uint32_t occ = 0;
    for (int i = 0; i < b->k; i++)
        occ |= 1u << b->goal_cells[i];
    vis_or(b, goal, flood(b, 0, b->full & ~occ)); /* the blank's goal cell is 0 */
    b->table[goal] = 0;
    b->cur[goal >> 6] |= 1ull << (goal & 63);
    pr->done++;
    worker ws[MAX_THREADS];
    for (int t = 0; t < threads; t++)
        ws[t] = (worker){.b = b};
    int st = 0;
    for (b->layer = 0; !st; b->layer++) {
        atomic_store(&b->reached_in_layer, 0);
        st = run_layer(b, threads, ws);
        if (st)
            break;
        pr->done += atomic_load(&b->reached_in_layer);
        if (pr->fn) {
            char extra[64];
            snprintf(extra, sizeof extra, "layer %d", b->layer + 1);
            pr->fn(pr->done, pr->total, extra, pr->user);
        }
        if (hn_stop_requested()) {
            st = hn_fail(HN_ERR_INTERRUPTED, "PDB build interrupted");
            break;
        }
        int any = 0;
        for (uint64_t i = 0; i < b->nwords && !any; i++)
            any = b->next[i] != 0;
        if (!any)
            break;
        _Atomic uint64_t *t = b->cur;
        b->cur = b->next;
        b->next = t;
        memset((void *)b->next, 0, b->nwords * sizeof *b->next);
    }
    for (int t = 0; t < threads; t++)
        free(ws[t].d.items);
    return st;
}

int dg_pdb_build(const srch_np_partition *part, int threads, hn_progress_fn progress_fn, void *user,
                 srch_np_pdb **out)
{
    *out = NULL;
    if (threads < 1 || threads > MAX_THREADS)
        return hn_fail(HN_ERR_ARG, "PDB build: %d threads (1..%d)", threads, MAX_THREADS);
    int st;
    srch_np_pdb *pdb = srch_np_pdb_new(part, &st);
    if (!pdb)
        return st;
    progress pr = {progress_fn, user, 0, 0};
    for (int i = 0; i < part->npatterns; i++)
        pr.total += srch_np_pdb_entries(part->width * part->width, part->size[i]);
    for (int i = 0; i < part->npatterns && !st; i++) {
        uint64_t entries;
        uint8_t *table = srch_np_pdb_table(pdb, i, &entries);
        builder b;
        st = builder_init(&b, part, i, table, entries);
        if (!st)
            st = build_pattern(&b, threads, &pr);
        builder_free(&b);
    }
    if (st) {
        srch_np_pdb_free(pdb);
        return st;
    }
    *out = pdb;
    return 0;
}
