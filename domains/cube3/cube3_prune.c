/* The cube's symmetry-reduced quarter-turn pruning tables (the facts from
 * Korf 1997, Kociemba's optimal solver and Rokicki's notes at cube20.org;
 * the code is this project's own):
 *
 *   fst   twist x flip x slice positions: 64,430 classes x 2187 = 141 M
 *         entries, 35 MB (for tests and quick runs);
 *   fsst  twist x flip x slice positions and order: 1,523,864 classes x
 *         2187 = 3.33 G entries, 833 MB.
 *
 * An entry holds the coordinate's quarter-turn distance to solved mod 3 in
 * 2 bits (3: not reached yet). Neighbours differ by at most 1, so a
 * coordinate's exact distance follows from a neighbour's exact one and the
 * two residues; a thread keeps the exact distances it computed in a small
 * cache, and IDA* evaluates the children of a node it evaluated before.
 * When no neighbour is cached the distance is found by walking down to
 * solved (a neighbour one residue lower is one move closer).
 *
 * A cube's bound is the largest of three lookups: the cube as it is and
 * conjugated so its R-L and F-B axes become U-D. Tables are built once by
 * breadth-first layers (2 threads) into the host's cache folder, under the
 * cache's lock file, written to a temporary name and renamed. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/hn.h"
#include "domains/cube3/cube3_prune.h"

#define PRUNE_MAGIC "HNC3PRUN"
#define UNSEEN 3
#define CACHE_BITS 12
#define MAX_DEPTH 40

typedef struct c3p {
    int kind; /* C3_HEUR_PRUNE: first, as in cube3_pattern.c's handles */
    const c3 *c;
    char name[8];
    uint64_t gen; /* tells this handle's cache entries from another's */
    dom_c3_coords co;
    uint64_t entries;
    uint8_t *table;
    size_t table_bytes;
} c3p;

static atomic_uint_fast64_t next_gen = 1;

int dom_c3_prune_name(const char *name)
{
    return !strcmp(name, "fst") || !strcmp(name, "fsst");
}

/* ---- 2-bit entries ---- */

static inline int get2(const uint8_t *t, uint64_t i)
{
    return t[i >> 2] >> ((i & 3) * 2) & 3;
}

static inline int load2(const uint8_t *t, uint64_t i)
{
    return __atomic_load_n(&t[i >> 2], __ATOMIC_RELAXED) >> ((i & 3) * 2) & 3;
}

/* UNSEEN -> v; 1 when this call made the change. Every writer of one pass
 * writes the same v, so clearing bits is enough. */
static inline int set2(uint8_t *t, uint64_t i, int v)
{
    int sh = (int)(i & 3) * 2;
    uint8_t old = __atomic_fetch_and(&t[i >> 2], (uint8_t) ~((UNSEEN ^ v) << sh), __ATOMIC_RELAXED);
    return (old >> sh & 3) == UNSEEN;
}

static inline uint64_t entry_of(const dom_c3_coords *co, uint32_t edge, uint32_t twist)
{
    uint32_t cs = co->edge_class[edge];
    return (uint64_t)(cs / C3P_SYMS) * C3P_TWISTS + co->twist_conj[cs % C3P_SYMS][twist];
}

static inline dom_c3_coord moved(const dom_c3_coords *co, dom_c3_coord x, int m)
{
    return (dom_c3_coord){co->flip_move[x.flip][m], co->slice_move[x.slice * C3_MOVES + m],
                          co->twist_move[x.twist][m]};
}

static inline int value_of(const c3p *p, dom_c3_coord x)
{
    return get2(p->table, entry_of(&p->co, x.flip * p->co.nslice + x.slice, x.twist));
}

/* ---- building ---- */

struct pass {
    c3p *p;
    uint32_t lo, hi; /* classes */
    int depth, forward, stop;
    uint64_t found;
};

/* The 12 neighbours of class c's representative: each one's class row and
 * the symmetry that took it there. */
static void class_neighbours(const dom_c3_coords *co, uint32_t c, uint64_t *row, uint8_t *sym)
{
    uint32_t e = co->class_rep[c], f = e / co->nslice, s = e % co->nslice;
    for (int m = 0; m < C3_MOVES; m++) {
        uint32_t cs = co->edge_class[co->flip_move[f][m] * co->nslice +
                                     co->slice_move[s * C3_MOVES + (uint32_t)m]];
        row[m] = (uint64_t)(cs / C3P_SYMS) * C3P_TWISTS;
        sym[m] = (uint8_t)(cs % C3P_SYMS);
    }
}

/* Set entry (row, twist) and, when the class's representative is fixed by
 * symmetries, the entries of the same cubes seen through them (the same
 * distance; no other path would reach them). */
static uint64_t mark(c3p *p, uint64_t row, uint32_t twist, int v)
{
    const dom_c3_coords *co = &p->co;
    uint64_t n = 0;
    if (load2(p->table, row + twist) == UNSEEN)
        n += (uint64_t)set2(p->table, row + twist, v);
    uint16_t stab = co->class_stab[row / C3P_TWISTS];
    for (int k = 1; stab >> 1 && k < C3P_SYMS; k++) {
        uint64_t i = row + co->twist_conj[k][twist];
        if (stab >> k & 1 && load2(p->table, i) == UNSEEN)
            n += (uint64_t)set2(p->table, i, v);
    }
    return n;
}

/* The entries of word w (32 entries) in [lo, hi) holding v: bit 2k set for
 * entry k. */
static uint64_t matches(const uint8_t *t, uint64_t w, uint64_t lo, uint64_t hi, int v)
{
    uint64_t x = __atomic_load_n((const uint64_t *)(const void *)(t + w * 8), __ATOMIC_RELAXED);
    x ^= 0x5555555555555555ull * (uint64_t)v; /* a field of v becomes 00 */
    uint64_t m = ~x & ~x >> 1 & 0x5555555555555555ull, first = w * 32;
    if (lo > first)
        m &= ~0ull << 2 * (lo - first);
    if (hi < first + 32)
        m &= (1ull << 2 * (hi - first)) - 1;
    return m;
}

/* Forward: expand the entries of residue depth - 1 (older layers of that
 * residue add nothing). Backward: an unseen entry with a neighbour of
 * residue depth - 1 is at depth (a neighbour is at most one move away, and
 * no older layer can touch an unseen entry). Entries are scanned a word at
 * a time; a class's neighbours are found once. */
static void *run_pass(void *arg)
{
    struct pass *j = arg;
    c3p *p = j->p;
    const dom_c3_coords *co = &p->co;
    int want = (j->depth + 2) % 3, now = j->depth % 3;
    uint64_t row[C3_MOVES], lo = (uint64_t)j->lo * C3P_TWISTS, hi = (uint64_t)j->hi * C3P_TWISTS;
    uint64_t have = UINT64_MAX;
    uint8_t sym[C3_MOVES];
    for (uint64_t w = lo / 32; w * 32 < hi; w++) {
        if ((w & 0xffff) == 0 && p->c->host->stop_requested && p->c->host->stop_requested()) {
            j->stop = 1;
            return NULL;
        }
        for (uint64_t m = matches(p->table, w, lo, hi, j->forward ? want : UNSEEN); m; m &= m - 1) {
            uint64_t i = w * 32 + (uint64_t)__builtin_ctzll(m) / 2, c = i / C3P_TWISTS;
            uint32_t t = (uint32_t)(i - c * C3P_TWISTS);
            if (c != have)
                class_neighbours(co, (uint32_t)c, row, sym), have = c;
            for (int k = 0; k < C3_MOVES; k++) {
                uint32_t tw = co->twist_conj[sym[k]][co->twist_move[t][k]];
                if (j->forward)
                    j->found += mark(p, row[k], tw, now);
                else if (load2(p->table, row[k] + tw) == want) {
                    j->found += (uint64_t)set2(p->table, i, now);
                    break;
                }
            }
        }
    }
    return NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int build(c3p *p)
{
    const dom_host *host = p->c->host;
    memset(p->table, 0xff, (size_t)(p->entries + 3) / 4);
    dom_c3_coord g = {0, p->co.goal_slice, 0};
    uint64_t root = entry_of(&p->co, g.slice, 0), seen = 1, layer[MAX_DEPTH + 1] = {1};
    set2(p->table, root, 0);
    double t0 = now_s();
    for (int d = 1; d <= MAX_DEPTH; d++) {
        uint64_t residue = 0; /* entries a forward pass would expand */
        for (int k = d - 1; k >= 0; k -= 3)
            residue += layer[k];
        struct pass job[2];
        pthread_t tid;
        for (int i = 0; i < 2; i++)
            job[i] = (struct pass){p,
                                   (uint32_t)((uint64_t)p->co.nclass * (uint64_t)i / 2),
                                   (uint32_t)((uint64_t)p->co.nclass * (uint64_t)(i + 1) / 2),
                                   d,
                                   residue < (p->entries - seen) / 2,
                                   0,
                                   0};
        int threaded = pthread_create(&tid, NULL, run_pass, &job[1]) == 0;
        run_pass(&job[0]);
        if (threaded)
            pthread_join(tid, NULL);
        else
            run_pass(&job[1]);
        if (job[0].stop || job[1].stop)
            return host->fail(DOM_ERR_UNSUPPORTED, "cube3: table build stopped");
        layer[d] = job[0].found + job[1].found;
        seen += layer[d];
        char msg[160];
        snprintf(msg, sizeof msg, "cube3 %s: depth %d (%s), %llu entries, %llu in all, %.1f s",
                 p->name, d, job[0].forward ? "forward" : "backward", (unsigned long long)layer[d],
                 (unsigned long long)seen, now_s() - t0);
        if (host->log)
            host->log(1, msg);
        if (layer[d] == 0)
            return seen == p->entries ? 0
                                      : host->fail(DOM_ERR_FORMAT, "cube3: table left unreached");
    }
    return host->fail(DOM_ERR_FORMAT, "cube3: table deeper than 40");
}

/* ---- the cache file: header, 2-bit table, CRC-32 ---- */

struct prune_header {
    char magic[8];
    uint64_t entries;
    uint32_t crc, version;
    uint32_t classes, pad;
    char name[16];
};

static void header_of(const c3p *p, struct prune_header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, PRUNE_MAGIC, 8);
    h->entries = p->entries;
    h->version = 1;
    h->classes = p->co.nclass;
    snprintf(h->name, sizeof h->name, "%s", p->name);
}

/* 0 loaded, 1 absent, -1 damaged or another table (why says which). */
static int load(c3p *p, const char *path, const char **why)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    if (fd < 0) {
        *why = strerror(errno);
        return errno == ENOENT ? 1 : -1;
    }
    struct prune_header want, got;
    header_of(p, &want);
    size_t bytes = (size_t)(p->entries + 3) / 4;
    *why = NULL;
    if (hn_fd_read_full(fd, &got, sizeof got))
        *why = "truncated header";
    else if (memcmp(got.magic, want.magic, 8) || got.entries != want.entries ||
             got.classes != want.classes || got.version != want.version ||
             memcmp(got.name, want.name, sizeof got.name))
        *why = "made for another table";
    else if (hn_fd_read_full(fd, p->table, bytes))
        *why = "truncated table";
    else if (hn_crc32(p->table, bytes) != got.crc)
        *why = "checksum mismatch";
    close(fd);
    return *why ? -1 : 0;
}

static void save(const c3p *p, const char *path)
{
    struct prune_header h;
    size_t bytes = (size_t)(p->entries + 3) / 4;
    header_of(p, &h);
    h.crc = hn_crc32(p->table, bytes);
    if (hn_part_save(path, &h, sizeof h, p->table, bytes) && p->c->host->log) {
        char msg[4400];
        snprintf(msg, sizeof msg, "cube3 %s: table not kept: %s", p->name, hn_errmsg());
        p->c->host->log(2, msg);
    }
}

/* Load from the cache, else build under the lock (a second process waits
 * and loads what the first wrote) and keep it. */
static int table_open(c3p *p)
{
    const dom_host *host = p->c->host;
    const char *dir = host->cache_dir ? host->cache_dir() : NULL, *why = NULL;
    char path[4096], msg[4400];
    if (!dir)
        return build(p);
    if (snprintf(path, sizeof path, "%s/dom-cube3-%s.prune", dir, p->name) >= (int)sizeof path)
        return host->fail(DOM_ERR_ARG, "cube3: cache folder path too long");
    if (load(p, path, &why) == 0)
        return 0;
    int lock = hn_lock_take(path, 1, NULL);
    int st = load(p, path, &why);
    if (st == 0) {
        hn_lock_release(lock);
        return 0;
    }
    if (st < 0 && host->log) {
        snprintf(msg, sizeof msg, "cube3 %s: %s: %s; rebuilding it", p->name, path, why);
        host->log(2, msg);
    }
    st = build(p);
    if (st == 0)
        save(p, path);
    hn_lock_release(lock);
    return st;
}

/* ---- the heuristic ---- */

void *dom_c3_prune_open(const c3 *c, const char *name)
{
    c3p *p = calloc(1, sizeof *p);
    if (!p) {
        c->host->fail(DOM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    p->kind = C3_HEUR_PRUNE;
    p->c = c;
    p->gen = atomic_fetch_add(&next_gen, 1);
    snprintf(p->name, sizeof p->name, "%s", name);
    int st = dom_c3_coords_init(c, !strcmp(name, "fsst"), &p->co);
    if (st == 0) {
        p->entries = (uint64_t)p->co.nclass * C3P_TWISTS;
        size_t huge = (size_t)2 << 20, bytes = (size_t)(p->entries + 3) / 4;
        p->table_bytes = (bytes + huge - 1) / huge * huge;
        void *t =
            mmap(NULL, p->table_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (t == MAP_FAILED)
            st = c->host->fail(DOM_ERR_NOMEM, "cube3: cannot allocate the pruning table");
        else {
#ifdef MADV_HUGEPAGE
            madvise(t, p->table_bytes, MADV_HUGEPAGE); /* a TLB miss less per lookup */
#endif
            p->table = t;
            st = table_open(p);
        }
    }
    if (st) {
        dom_c3_prune_free(p);
        return NULL;
    }
    return p;
}

void dom_c3_prune_free(void *h)
{
    c3p *p = h;
    if (!p)
        return;
    if (p->table)
        munmap(p->table, p->table_bytes);
    dom_c3_coords_free(&p->co);
    free(p);
}

const dom_c3_coords *dom_c3_prune_coords(const void *h)
{
    return &((const c3p *)h)->co;
}

/* Down to solved: a neighbour one residue lower is one move closer. */
static int descend(const c3p *p, dom_c3_coord x)
{
    const dom_c3_coords *co = &p->co;
    int v = value_of(p, x), d = 0;
    while (x.flip || x.twist || x.slice != co->goal_slice) {
        int m = 0, want = (v + 2) % 3;
        dom_c3_coord y;
        for (; m < C3_MOVES; m++) {
            y = moved(co, x, m);
            if (value_of(p, y) == want)
                break;
        }
        if (m == C3_MOVES || v == UNSEEN || d == MAX_DEPTH)
            return 0; /* a damaged table: 0 is still a bound */
        x = y;
        v = want;
        d++;
    }
    return d;
}

int dom_c3_prune_exact(const void *h, const dom_c3_coord *x)
{
    return descend(h, *x);
}

/* Exact distances this thread found, by raw coordinate. */
static _Thread_local struct {
    uint64_t gen;
    uint64_t key[1u << CACHE_BITS];
    uint8_t value[1u << CACHE_BITS];
} cache;

static inline uint64_t key_of(const dom_c3_coords *co, dom_c3_coord x)
{
    return ((uint64_t)(x.flip * co->nslice + x.slice) * C3P_TWISTS + x.twist) + 1;
}

static inline uint32_t slot_of(uint64_t key)
{
    return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - CACHE_BITS));
}

/* The exact distance of x, whose entry holds v. */
static int exact(const c3p *p, dom_c3_coord x, int v)
{
    const dom_c3_coords *co = &p->co;
    uint64_t key = key_of(co, x);
    uint32_t slot = slot_of(key);
    if (cache.key[slot] == key)
        return cache.value[slot];
    int d = -1;
    for (int m = 0; m < C3_MOVES && d < 0; m++) {
        uint64_t k = key_of(co, moved(co, x, m));
        uint32_t s = slot_of(k);
        if (cache.key[s] == k) {
            int e = cache.value[s], diff = (v - e % 3 + 3) % 3;
            d = e + (diff == 1) - (diff == 2);
        }
    }
    if (d < 0)
        d = descend(p, x);
    cache.key[slot] = key;
    cache.value[slot] = (uint8_t)d;
    return d;
}

/* Three lookups, the table reads of all three issued before any is used:
 * each is a miss in memory, and they overlap. */
int dom_c3_prune_eval(const void *h, const uint8_t *state)
{
    const c3p *p = h;
    const dom_c3_coords *co = &p->co;
    dom_c3_coord x[3];
    uint32_t edge[3];
    uint64_t entry[3];
    for (int a = 0; a < 3; a++) {
        uint8_t t[C3_STATE_BYTES];
        if (a)
            dom_c3_conjugate(p->c, co->axis_sym[a], state, t);
        dom_c3_coord_of(co, a ? t : state, &x[a]);
        edge[a] = x[a].flip * co->nslice + x[a].slice;
        __builtin_prefetch(&co->edge_class[edge[a]]);
    }
    for (int a = 0; a < 3; a++) {
        entry[a] = entry_of(co, edge[a], x[a].twist);
        __builtin_prefetch(&p->table[entry[a] >> 2]);
    }
    if (cache.gen != p->gen) {
        memset(cache.key, 0, sizeof cache.key);
        cache.gen = p->gen;
    }
    int best = 0;
    for (int a = 0; a < 3; a++) {
        int d = exact(p, x[a], get2(p->table, entry[a]));
        best = d > best ? d : best;
    }
    return best;
}
