/* Building one group's pattern database, blank-aware as in Korf & Felner
 * (2002) and datagen/pdb_build.c: the abstract state is the placement of
 * the group's tiles plus the region of free cells that holds the blank.
 * The blank wanders through its region for free; a group tile next to the
 * region moving into it costs 1 and leaves the blank on the tile's old
 * cell. The table keeps, per placement, the cheapest over blank regions.
 * Ignoring the blank instead (every free cell a blank) is simpler but
 * weak: on random 6x6 boards 5-tile tables then add 1.5 moves over
 * Manhattan distance and fall below linear conflicts.
 *
 * A breadth-first search by cost over flat arrays indexed by rank:
 *   table[p]  the first layer that reached placement p;
 *   seen[p]   the cells of every region the blank had with p so far, in
 *             16, 32 or 64 bits as the board needs (2 bytes a placement on
 *             4x4, as datagen/pdb_build.c; 8 on boards past 32 cells);
 *   cur/next  bitmaps of the placements reached in this / the next layer.
 * A region reached for a placement of cur is deferred to the end of the
 * layer (a layer never expands what it has just reached); any other goes
 * into seen at once. Regions are cell masks grown by shifts. Threads (the
 * host's build_threads: `heurnet pdb build --threads`, else one per core
 * up to 8) take chunks of the layer's bitmap from an atomic counter. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "domains/npuzzle/npuzzle.h"

#define NP_UNSEEN 255u
#define NP_ERR_INTERRUPTED (-9) /* hn_status's value; domain.h has no name for it */
#define NP_MAX_THREADS 64
#define NP_CHUNK_WORDS 1024 /* 64 K placements a work unit */

typedef struct np_build {
    const np_dom *in;
    int k, mask_bytes, threads;
    uint64_t radix_inv[NP_MAX_K];  /* 2^64 / (cells - i) + 1: digit i's divisor */
    uint64_t place[NP_MAX_K];      /* place value of digit i in a rank */
    uint64_t nbmask[NP_MAX_CELLS]; /* a cell's neighbours */
    uint8_t *table;
    uint64_t entries, words;
    void *seen; /* uint16_t, uint32_t or uint64_t per placement */
    uint64_t *cur, *next;
    uint64_t full, not_first_col, not_last_col;
    uint64_t next_chunk; /* atomic */
    int depth;
} np_build;

typedef struct np_deferred {
    uint64_t p, region;
} np_deferred;

typedef struct np_slice {
    np_build *b;
    np_deferred *defer;
    size_t ndefer, cap;
    int stop, nomem;
} np_slice;

static inline uint64_t seen_get(const np_build *b, uint64_t p)
{
    switch (b->mask_bytes) {
    case 2:
        return __atomic_load_n((uint16_t *)b->seen + p, __ATOMIC_RELAXED);
    case 4:
        return __atomic_load_n((uint32_t *)b->seen + p, __ATOMIC_RELAXED);
    default:
        return __atomic_load_n((uint64_t *)b->seen + p, __ATOMIC_RELAXED);
    }
}

static inline void seen_or(np_build *b, uint64_t p, uint64_t m)
{
    switch (b->mask_bytes) {
    case 2:
        __atomic_fetch_or((uint16_t *)b->seen + p, (uint16_t)m, __ATOMIC_RELAXED);
        break;
    case 4:
        __atomic_fetch_or((uint32_t *)b->seen + p, (uint32_t)m, __ATOMIC_RELAXED);
        break;
    default:
        __atomic_fetch_or((uint64_t *)b->seen + p, m, __ATOMIC_RELAXED);
    }
}

/* What checking placement p needs: its mask (with write intent, as a new
 * region ORs into it) and its word of the layer bitmap. */
static inline void seen_prefetch(const np_build *b, uint64_t p)
{
    __builtin_prefetch((const uint8_t *)b->seen + p * (uint64_t)b->mask_bytes, 1);
    __builtin_prefetch(&b->cur[p >> 6]);
}

/* floor(x / (cells - i)) for x < 2^32 by the reciprocal: a division by a
 * variable costs tens of cycles, and unranking takes k of them. */
static inline uint64_t div_digit(const np_build *b, uint64_t x, int i)
{
    return (uint64_t)(((unsigned __int128)x * b->radix_inv[i]) >> 64);
}

/* np_unrank with the reciprocals; digit[] is kept for rank_after_move. */
static inline uint64_t unrank(const np_build *b, uint64_t p, uint8_t *cell, int *digit)
{
    for (int i = b->k - 1; i >= 0; i--) {
        uint64_t q = div_digit(b, p, i);
        digit[i] = (int)(p - q * (uint64_t)(b->in->cells - i));
        p = q;
    }
    uint64_t used = 0;
    for (int i = 0; i < b->k; i++) {
        cell[i] = (uint8_t)np_nth_free(used, digit[i]);
        used |= 1ull << cell[i];
    }
    return used;
}

/* The rank after tile i moves from cell c to cell n, from the rank p
 * before (npf_rank's order): digit i is recounted, and each later tile on
 * a cell strictly between c and n gains or loses one smaller occupied cell. */
static inline uint64_t rank_after_move(const np_build *b, uint64_t p, const uint8_t *cell,
                                       const int *digit, uint64_t before, int i, int c, int n)
{
    int64_t delta = (int64_t)(n - __builtin_popcountll(before & ((1ull << n) - 1)) - digit[i]) *
                    (int64_t)b->place[i];
    int lo = c < n ? c : n, hi = c < n ? n : c, sign = n < c ? -1 : 1;
    if (hi - lo > 1)
        for (int j = i + 1; j < b->k; j++)
            if (cell[j] > lo && cell[j] < hi)
                delta += sign * (int64_t)b->place[j];
    return (uint64_t)((int64_t)p + delta);
}

/* The region of `empty` connected to the cells of m. */
static inline uint64_t flood(const np_build *b, uint64_t m, uint64_t empty)
{
    int w = b->in->w;
    for (;;) {
        uint64_t g =
            m | ((m << 1) & b->not_first_col) | ((m >> 1) & b->not_last_col) | (m << w) | (m >> w);
        g &= empty;
        if (g == m)
            return m;
        m = g;
    }
}

static void defer(np_slice *s, uint64_t p, uint64_t region)
{
    if (s->ndefer == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        np_deferred *x = realloc(s->defer, cap * sizeof *x);
        if (!x) {
            s->nomem = 1;
            return;
        }
        s->defer = x;
        s->cap = cap;
    }
    s->defer[s->ndefer++] = (np_deferred){p, region};
}

/* Placement `child`, blank region through `cell`: record it unless seen. */
static inline void reach(np_slice *s, uint64_t child, int cell, uint64_t occupied)
{
    np_build *b = s->b;
    if (seen_get(b, child) >> cell & 1)
        return;
    uint64_t region = flood(b, 1ull << cell, b->full & ~occupied);
    if (__atomic_load_n(&b->cur[child >> 6], __ATOMIC_RELAXED) >> (child & 63) & 1) {
        defer(s, child, region); /* being expanded in this layer */
        return;
    }
    seen_or(b, child, region);
    __atomic_fetch_or(&b->next[child >> 6], 1ull << (child & 63), __ATOMIC_RELAXED);
    if (__atomic_load_n(&b->table[child], __ATOMIC_RELAXED) == NP_UNSEEN)
        __atomic_store_n(&b->table[child], (uint8_t)(b->depth + 1), __ATOMIC_RELAXED);
}

typedef struct np_move_to {
    uint64_t child, occupied;
    int cell; /* where the blank ends up: the moved tile's old cell */
} np_move_to;

/* Every move of a group tile into one blank region of placement p: the
 * children are ranked from p and their masks prefetched before any is
 * read, so the cache misses overlap. */
static void expand(np_slice *s, uint64_t p)
{
    const np_build *b = s->b;
    uint8_t cell[NP_MAX_K];
    int digit[NP_MAX_K];
    uint64_t occupied = unrank(b, p, cell, digit);
    uint64_t blank = seen_get(b, p); /* whole regions: a tile may enter any */
    np_move_to to[4 * NP_MAX_K];
    int n = 0;
    uint64_t before = 0; /* cells of tiles 0..i-1 */
    for (int i = 0; i < b->k; i++) {
        int from = cell[i];
        for (uint64_t m = b->nbmask[from] & blank; m; m &= m - 1) {
            int c = __builtin_ctzll(m);
            uint64_t child = rank_after_move(b, p, cell, digit, before, i, from, c);
            to[n++] = (np_move_to){child, occupied ^ (1ull << from) ^ (1ull << c), from};
            seen_prefetch(b, child);
        }
        before |= 1ull << from;
    }
    for (int j = 0; j < n; j++)
        reach(s, to[j].child, to[j].cell, to[j].occupied);
}

static void *layer_work(void *arg)
{
    np_slice *s = arg;
    np_build *b = s->b;
    const dom_host *host = b->in->host;
    for (;;) {
        uint64_t w0 = __atomic_fetch_add(&b->next_chunk, 1, __ATOMIC_RELAXED) * NP_CHUNK_WORDS;
        if (w0 >= b->words)
            return NULL;
        if (host->stop_requested && host->stop_requested()) {
            s->stop = 1;
            return NULL;
        }
        uint64_t w1 = w0 + NP_CHUNK_WORDS < b->words ? w0 + NP_CHUNK_WORDS : b->words;
        for (uint64_t w = w0; w < w1; w++)
            for (uint64_t bits = b->cur[w]; bits; bits &= bits - 1)
                expand(s, w * 64 + (uint64_t)__builtin_ctzll(bits));
    }
}

/* One layer on b->threads threads, then the deferred regions: 1 when the
 * next layer holds a placement, 0 when it is empty, or a status. */
static int run_layer(np_build *b, np_slice *s)
{
    pthread_t tid[NP_MAX_THREADS];
    int started = 1, st = 0;
    b->next_chunk = 0;
    for (; started < b->threads; started++)
        if (pthread_create(&tid[started], NULL, layer_work, &s[started]))
            break; /* fewer threads: the others take more chunks */
    layer_work(&s[0]);
    for (int t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    for (int t = 0; t < b->threads; t++) {
        if (s[t].stop)
            st = NP_ERR_INTERRUPTED;
        else if (s[t].nomem && !st)
            st = DOM_ERR_NOMEM;
        for (size_t i = 0; i < s[t].ndefer; i++) {
            seen_or(b, s[t].defer[i].p, s[t].defer[i].region);
            b->next[s[t].defer[i].p >> 6] |= 1ull << (s[t].defer[i].p & 63);
        }
        s[t].ndefer = 0;
    }
    if (st)
        return st;
    int any = 0;
    for (uint64_t w = 0; w < b->words && !any; w++)
        any = b->next[w] != 0;
    uint64_t *t = b->cur;
    b->cur = b->next;
    b->next = t;
    memset(b->next, 0, b->words * 8);
    return any;
}

static void *zeroed(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static int search(np_build *b, int blank, const uint8_t *home)
{
    const np_dom *in = b->in;
    uint64_t occupied = 0;
    for (int i = 0; i < b->k; i++)
        occupied |= 1ull << home[i];
    uint64_t root = npf_rank(home, b->k, in->cells);
    memset(b->table, NP_UNSEEN, b->entries);
    b->table[root] = 0;
    seen_or(b, root, flood(b, 1ull << blank, b->full & ~occupied));
    b->cur[root >> 6] |= 1ull << (root & 63);
    np_slice s[NP_MAX_THREADS];
    for (int t = 0; t < b->threads; t++)
        s[t] = (np_slice){.b = b};
    int st = 1;
    for (b->depth = 0; b->depth < 254 && st == 1; b->depth++)
        st = run_layer(b, s);
    for (int t = 0; t < b->threads; t++)
        free(s[t].defer);
    if (st == NP_ERR_INTERRUPTED)
        return in->host->fail(NP_ERR_INTERRUPTED, "pattern database build stopped");
    if (st == DOM_ERR_NOMEM)
        return dom_np_fail(in, DOM_ERR_NOMEM, "out of memory for a pattern database build");
    if (st == 1)
        return dom_np_fail(in, DOM_ERR_FORMAT, "pattern database deeper than 254 moves");
    return 0;
}

/* The host's count (the user's --threads, else one per core up to 8; a
 * host from before it: one per core up to 8), at most NP_MAX_THREADS; one
 * for small tables, where starting threads costs more than the layer. */
static int build_threads(const np_dom *in, uint64_t entries)
{
    const dom_host *h = in->host;
    int has = h->struct_size >= offsetof(dom_host, build_threads) + sizeof h->build_threads &&
              h->build_threads;
    long n = has ? h->build_threads() : sysconf(_SC_NPROCESSORS_ONLN);
    if (!has && n > 8)
        n = 8;
    if (entries <= 1000000 || n < 1)
        return 1;
    return n > NP_MAX_THREADS ? NP_MAX_THREADS : (int)n;
}

int dom_np_pdb_build(const np_dom *in, int blank, const uint8_t *home, int k, uint8_t *table,
                     uint64_t entries)
{
    np_build b = {.in = in, .k = k, .table = table, .entries = entries};
    b.words = (entries + 63) / 64;
    b.threads = build_threads(in, entries);
    b.mask_bytes = in->cells <= 16 ? 2 : in->cells <= 32 ? 4 : 8;
    b.full = in->cells == 64 ? ~0ull : (1ull << in->cells) - 1;
    uint64_t first = 0, last = 0;
    for (int r = 0; r < in->h; r++) {
        first |= 1ull << (r * in->w);
        last |= 1ull << (r * in->w + in->w - 1);
    }
    b.not_first_col = b.full & ~first;
    b.not_last_col = b.full & ~last;
    for (int c = 0; c < in->cells; c++)
        for (int m = 0; m < 4; m++)
            if (in->next[m][c] >= 0)
                b.nbmask[c] |= 1ull << in->next[m][c];
    for (int i = 0; i < k; i++)
        b.radix_inv[i] = UINT64_MAX / (uint64_t)(in->cells - i) + 1;
    b.place[k - 1] = 1;
    for (int i = k - 2; i >= 0; i--)
        b.place[i] = b.place[i + 1] * (uint64_t)(in->cells - i - 1);
    size_t masks = entries * (size_t)b.mask_bytes, bits = b.words * 8;
    b.seen = zeroed(masks);
    b.cur = zeroed(bits);
    b.next = zeroed(bits);
    int st = b.seen && b.cur && b.next
                 ? search(&b, blank, home)
                 : dom_np_fail(in, DOM_ERR_NOMEM,
                               "cannot allocate %llu bytes to build a pattern database",
                               (unsigned long long)(masks + 2 * bits));
    if (b.seen)
        munmap(b.seen, masks);
    if (b.cur)
        munmap(b.cur, bits);
    if (b.next)
        munmap(b.next, bits);
    return st;
}
