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
 *   seen[p]   the cells of every region the blank had with p so far;
 *   added[p]  regions reached in this layer (merged into seen after it,
 *             so a layer never expands what it has just reached);
 *   cur/next  bitmaps of the placements reached in this / the next layer.
 * Regions are 64-bit cell masks grown by shifts. Two threads share each
 * layer by halves of the bitmap. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "domains/npuzzle/npuzzle.h"

#define NP_UNSEEN 255u
#define NP_ERR_INTERRUPTED (-9) /* hn_status's value; domain.h has no name for it */

typedef struct np_build {
    const np_dom *in;
    int k;
    uint8_t *table;
    uint64_t entries, words;
    uint64_t *seen, *added, *cur, *next;
    uint64_t full, not_first_col, not_last_col;
} np_build;

typedef struct np_slice {
    np_build *b;
    int depth;
    uint64_t lo, hi; /* words of cur */
    uint64_t found;
    int stop;
} np_slice;

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

/* Placement `child`, blank region through `cell`: record it unless seen. */
static inline void reach(np_slice *s, uint64_t child, int cell, uint64_t occupied)
{
    np_build *b = s->b;
    uint64_t bit = 1ull << cell;
    uint64_t known = __atomic_load_n(&b->seen[child], __ATOMIC_RELAXED) |
                     __atomic_load_n(&b->added[child], __ATOMIC_RELAXED);
    if (known & bit)
        return;
    uint64_t region = flood(b, bit, b->full & ~occupied);
    uint64_t old = __atomic_fetch_or(&b->added[child], region, __ATOMIC_RELAXED);
    if (old & bit)
        return; /* the other thread was first */
    __atomic_fetch_or(&b->next[child >> 6], 1ull << (child & 63), __ATOMIC_RELAXED);
    if (__atomic_load_n(&b->table[child], __ATOMIC_RELAXED) == NP_UNSEEN)
        __atomic_store_n(&b->table[child], (uint8_t)(s->depth + 1), __ATOMIC_RELAXED);
    s->found++;
}

/* Every move of a group tile into one blank region of placement p. */
static void expand(np_slice *s, uint64_t p)
{
    const np_build *b = s->b;
    const np_dom *in = b->in;
    uint8_t cell[NP_MAX_K];
    uint64_t occupied = np_unrank(p, b->k, in->cells, cell), empty = b->full & ~occupied;
    uint64_t regions = b->seen[p];
    while (regions) {
        uint64_t region = flood(b, regions & -regions, empty);
        regions &= ~region;
        for (int i = 0; i < b->k; i++) {
            int from = cell[i];
            for (int m = 0; m < 4; m++) {
                int to = in->next[m][from];
                if (to < 0 || !(region >> to & 1))
                    continue;
                cell[i] = (uint8_t)to;
                reach(s, np_rank(cell, b->k, in->cells), from,
                      occupied ^ (1ull << from) ^ (1ull << to));
            }
            cell[i] = (uint8_t)from;
        }
    }
}

static void *layer_slice(void *arg)
{
    np_slice *s = arg;
    const np_dom *in = s->b->in;
    for (uint64_t w = s->lo; w < s->hi; w++) {
        if ((w & 0x3fff) == 0 && in->host->stop_requested && in->host->stop_requested()) {
            s->stop = 1;
            return NULL;
        }
        for (uint64_t bits = s->b->cur[w]; bits; bits &= bits - 1)
            expand(s, w * 64 + (uint64_t)__builtin_ctzll(bits));
    }
    return NULL;
}

/* One layer on two threads (one for small tables): the count of new
 * (placement, region) pairs, or a status. */
static int64_t run_layer(np_build *b, int depth)
{
    np_slice s[2];
    int nt = b->entries > 1000000 ? 2 : 1, started = 0;
    pthread_t tid;
    for (int i = 0; i < nt; i++)
        s[i] = (np_slice){b,
                          depth,
                          b->words * (uint64_t)i / (uint64_t)nt,
                          b->words * (uint64_t)(i + 1) / (uint64_t)nt,
                          0,
                          0};
    if (nt == 2)
        started = pthread_create(&tid, NULL, layer_slice, &s[1]) == 0;
    if (nt == 2 && !started)
        layer_slice(&s[1]); /* no second thread: its half here */
    layer_slice(&s[0]);
    if (started)
        pthread_join(tid, NULL);
    if (s[0].stop || (nt == 2 && s[1].stop))
        return NP_ERR_INTERRUPTED;
    return (int64_t)(s[0].found + (nt == 2 ? s[1].found : 0));
}

/* After a layer: its regions join seen, and next becomes cur. */
static void end_layer(np_build *b)
{
    for (uint64_t w = 0; w < b->words; w++)
        for (uint64_t bits = b->next[w]; bits; bits &= bits - 1) {
            uint64_t p = w * 64 + (uint64_t)__builtin_ctzll(bits);
            b->seen[p] |= b->added[p];
            b->added[p] = 0;
        }
    uint64_t *t = b->cur;
    b->cur = b->next;
    b->next = t;
    memset(b->next, 0, b->words * 8);
}

static void *zeroed(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static int search(np_build *b, const uint8_t *home)
{
    const np_dom *in = b->in;
    uint64_t occupied = 0;
    for (int i = 0; i < b->k; i++)
        occupied |= 1ull << home[i];
    uint64_t root = np_rank(home, b->k, in->cells);
    memset(b->table, NP_UNSEEN, b->entries);
    b->table[root] = 0;
    b->seen[root] = flood(b, 1ull << in->goal_cell[0], b->full & ~occupied);
    b->cur[root >> 6] |= 1ull << (root & 63);
    for (int depth = 0; depth < 254; depth++) {
        int64_t found = run_layer(b, depth);
        if (found < 0)
            return in->host->fail(NP_ERR_INTERRUPTED, "pattern database build stopped");
        if (found == 0)
            return 0;
        end_layer(b);
    }
    return dom_np_fail(in, DOM_ERR_FORMAT, "pattern database deeper than 254 moves");
}

int dom_np_pdb_build(const np_dom *in, const uint8_t *home, int k, uint8_t *table, uint64_t entries)
{
    np_build b = {.in = in, .k = k, .table = table, .entries = entries};
    b.words = (entries + 63) / 64;
    b.full = in->cells == 64 ? ~0ull : (1ull << in->cells) - 1;
    uint64_t first = 0, last = 0;
    for (int r = 0; r < in->h; r++) {
        first |= 1ull << (r * in->w);
        last |= 1ull << (r * in->w + in->w - 1);
    }
    b.not_first_col = b.full & ~first;
    b.not_last_col = b.full & ~last;
    size_t masks = entries * 8, bits = b.words * 8;
    b.seen = zeroed(masks);
    b.added = zeroed(masks);
    b.cur = zeroed(bits);
    b.next = zeroed(bits);
    int st = b.seen && b.added && b.cur && b.next
                 ? search(&b, home)
                 : dom_np_fail(in, DOM_ERR_NOMEM,
                               "cannot allocate %llu bytes to build a pattern "
                               "database",
                               (unsigned long long)(2 * masks + 2 * bits));
    if (b.seen)
        munmap(b.seen, masks);
    if (b.added)
        munmap(b.added, masks);
    if (b.cur)
        munmap(b.cur, bits);
    if (b.next)
        munmap(b.next, bits);
    return st;
}
