/* The cube's symmetry-reduced quarter-turn pruning tables (the facts from
 * Korf 1997, Kociemba's optimal solver and Rokicki's notes at cube20.org;
 * the code is this project's own):
 *
 *   fst   twist x flip x slice positions: 64,430 classes x 2187 = 141 M
 *         entries, 70 MB (for tests and quick runs);
 *   fsst  twist x flip x slice positions and order: 1,523,864 classes x
 *         2187 = 3.33 G entries, 1.67 GB.
 *
 * An entry holds the coordinate's exact quarter-turn distance to solved in
 * 4 bits (15: not reached yet). Twice the memory of distances mod 3, but
 * every lookup is exact on its own: IDA* looks up the inverse cube too,
 * whose child is no coordinate neighbour of its parent, so a residue
 * could not be resolved from the parent's value.
 *
 * A cube's bound is the largest of three lookups: the cube as it is and
 * conjugated so its R-L and F-B axes become U-D. Tables are built once by
 * breadth-first layers (2 threads) into the host's cache folder, under the
 * cache's lock file, written to a temporary name and renamed. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/hn.h"
#include "domains/cube3/cube3_fast.h"
#include "domains/cube3/cube3_prune.h"

#define PRUNE_MAGIC "HNC3PRUN"
#define UNSEEN 15
#define MAX_DEPTH 14 /* the deepest entry of either table (4 bits hold up to 14) */

typedef struct c3p {
    int kind; /* C3_HEUR_PRUNE: first, as in cube3_pattern.c's handles */
    const c3 *c;
    char name[8];
    dom_c3_coords co;
    uint64_t entries;
    uint8_t *table;
    c3_fast fast; /* the same tables for code compiled for the cube */
} c3p;

static size_t table_bytes(const c3p *p)
{
    return (size_t)(p->entries + 1) / 2;
}

int dom_c3_prune_name(const char *name)
{
    return !strcmp(name, "fst") || !strcmp(name, "fsst");
}

/* ---- 4-bit entries, entry i in bits 4(i mod 2) of byte i / 2 ---- */

static inline int get4(const uint8_t *t, uint64_t i)
{
    return t[i >> 1] >> ((i & 1) * 4) & 15;
}

static inline int load4(const uint8_t *t, uint64_t i)
{
    return __atomic_load_n(&t[i >> 1], __ATOMIC_RELAXED) >> ((i & 1) * 4) & 15;
}

/* UNSEEN -> v; 1 when this call made the change. Every writer of one pass
 * writes the same v, so clearing bits is enough. */
static inline int set4(uint8_t *t, uint64_t i, int v)
{
    int sh = (int)(i & 1) * 4;
    uint8_t old = __atomic_fetch_and(&t[i >> 1], (uint8_t) ~((UNSEEN ^ v) << sh), __ATOMIC_RELAXED);
    return (old >> sh & 15) == UNSEEN;
}

static inline uint64_t entry_of(const dom_c3_coords *co, uint32_t edge, uint32_t twist)
{
    uint32_t cs = co->edge_class[edge];
    return (uint64_t)(cs / C3P_SYMS) * C3P_TWISTS + co->twist_conj[cs % C3P_SYMS][twist];
}

static inline int value_of(const c3p *p, dom_c3_coord x)
{
    return get4(p->table, entry_of(&p->co, x.flip * p->co.nslice + x.slice, x.twist));
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
    if (load4(p->table, row + twist) == UNSEEN)
        n += (uint64_t)set4(p->table, row + twist, v);
    uint16_t stab = co->class_stab[row / C3P_TWISTS];
    for (int k = 1; stab >> 1 && k < C3P_SYMS; k++) {
        uint64_t i = row + co->twist_conj[k][twist];
        if (stab >> k & 1 && load4(p->table, i) == UNSEEN)
            n += (uint64_t)set4(p->table, i, v);
    }
    return n;
}

/* The entries of word w (16 entries) in [lo, hi) holding v: bit 4k set for
 * entry k. */
static uint64_t matches(const uint8_t *t, uint64_t w, uint64_t lo, uint64_t hi, int v)
{
    uint64_t x = __atomic_load_n((const uint64_t *)(const void *)(t + w * 8), __ATOMIC_RELAXED);
    x ^= 0x1111111111111111ull * (uint64_t)v; /* a field of v becomes 0000 */
    uint64_t m = ~(x | x >> 1 | x >> 2 | x >> 3) & 0x1111111111111111ull, first = w * 16;
    if (lo > first)
        m &= ~0ull << 4 * (lo - first);
    if (hi < first + 16)
        m &= (1ull << 4 * (hi - first)) - 1;
    return m;
}

/* Forward: expand the entries at depth - 1. Backward: an unseen entry with
 * a neighbour at depth - 1 is at depth (a neighbour is at most one move
 * away). Entries are scanned a word at
 * a time; a class's neighbours are found once. */
static void *run_pass(void *arg)
{
    struct pass *j = arg;
    c3p *p = j->p;
    const dom_c3_coords *co = &p->co;
    int want = j->depth - 1, now = j->depth;
    uint64_t row[C3_MOVES], lo = (uint64_t)j->lo * C3P_TWISTS, hi = (uint64_t)j->hi * C3P_TWISTS;
    uint64_t have = UINT64_MAX;
    uint8_t sym[C3_MOVES];
    for (uint64_t w = lo / 16; w * 16 < hi; w++) {
        if ((w & 0xffff) == 0 && p->c->host->stop_requested && p->c->host->stop_requested()) {
            j->stop = 1;
            return NULL;
        }
        for (uint64_t m = matches(p->table, w, lo, hi, j->forward ? want : UNSEEN); m; m &= m - 1) {
            uint64_t i = w * 16 + (uint64_t)__builtin_ctzll(m) / 4, c = i / C3P_TWISTS;
            uint32_t t = (uint32_t)(i - c * C3P_TWISTS);
            if (c != have)
                class_neighbours(co, (uint32_t)c, row, sym), have = c;
            for (int k = 0; k < C3_MOVES; k++) {
                uint32_t tw = co->twist_conj[sym[k]][co->twist_move[t][k]];
                if (j->forward)
                    j->found += mark(p, row[k], tw, now);
                else if (load4(p->table, row[k] + tw) == want) {
                    j->found += (uint64_t)set4(p->table, i, now);
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
    memset(p->table, 0xff, table_bytes(p));
    dom_c3_coord g = {0, p->co.goal_slice, 0};
    uint64_t root = entry_of(&p->co, g.slice, 0), seen = 1, layer[MAX_DEPTH + 1] = {1};
    set4(p->table, root, 0);
    double t0 = now_s();
    for (int d = 1; d <= MAX_DEPTH + 1; d++) {
        struct pass job[2];
        pthread_t tid;
        for (int i = 0; i < 2; i++)
            job[i] = (struct pass){p,
                                   (uint32_t)((uint64_t)p->co.nclass * (uint64_t)i / 2),
                                   (uint32_t)((uint64_t)p->co.nclass * (uint64_t)(i + 1) / 2),
                                   d,
                                   layer[d - 1] < (p->entries - seen) / 2,
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
    return host->fail(DOM_ERR_FORMAT, "cube3: table deeper than 14");
}

/* ---- the cache file: header, 4-bit table, CRC-32 ---- */

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
    h->version = 2;
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
    size_t bytes = table_bytes(p);
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

static int save(const c3p *p, const char *path)
{
    struct prune_header h;
    size_t bytes = table_bytes(p);
    header_of(p, &h);
    h.crc = hn_crc32(p->table, bytes);
    return hn_part_save(path, &h, sizeof h, p->table, bytes);
}

/* hn_cache_fill's calls on the table. */
static int cache_load(void *arg, const char *path)
{
    const char *why = NULL;
    int st = load(arg, path, &why);
    return st >= 0 ? st : hn_fail(HN_ERR_FORMAT, "cube3 %s: %s: %s", ((c3p *)arg)->name, path, why);
}

static int cache_make(void *arg)
{
    return build(arg);
}

static int cache_keep(void *arg, const char *path)
{
    return save(arg, path);
}

/* Load from the cache, else build it once under the cache's lock (a
 * second process waits and loads what the first kept) and keep it. */
static int table_open(c3p *p)
{
    const dom_host *host = p->c->host;
    const char *dir = host->cache_dir ? host->cache_dir() : NULL;
    char path[4096];
    if (!dir)
        return build(p);
    if (snprintf(path, sizeof path, "%s/dom-cube3-%s.prune4", dir, p->name) >= (int)sizeof path)
        return host->fail(DOM_ERR_ARG, "cube3: cache folder path too long");
    static const hn_cache_ops ops = {cache_load, cache_make, cache_keep};
    return hn_cache_fill(path, &ops, p, NULL);
}

/* ---- the heuristic ---- */

/* The inverse cube as c3f_node keeps it: each cubie's position and the
 * twist (flip) that undoes its own. */
static void inverse_entries(const uint8_t *s, uint8_t *inv)
{
    for (int i = 0; i < C3_CORNERS; i++)
        inv[s[C3_CP + i]] = (uint8_t)(i * 3 + (3 - s[C3_CO + i]) % 3);
    for (int i = 0; i < C3_EDGES; i++)
        inv[C3_CORNERS + s[C3_EP + i]] = (uint8_t)(i * 2 + s[C3_EO + i]);
}

/* A turn renames the inverse's cubies: the one at position csrc[k] goes to
 * cpos[k] and its twist (undone in the inverse) grows by ctwist[k]. */
static void fast_rename(const c3 *c, c3_fast *f)
{
    for (int m = 0; m < C3_MOVES; m++) {
        const dom_c3_turn *t = &c->turn[m];
        for (int v = 0; v < 24; v++)
            f->rename[m][0][v] = f->rename[m][1][v] = (uint8_t)v;
        for (int k = 0; k < 4; k++)
            for (int x = 0; x < 3; x++) {
                f->rename[m][0][t->csrc[k] * 3 + x] =
                    (uint8_t)(t->cpos[k] * 3 + (x + 3 - t->ctwist[k]) % 3);
                if (x < 2)
                    f->rename[m][1][t->esrc[k] * 2 + x] =
                        (uint8_t)(t->epos[k] * 2 + (x ^ t->eflip[k]));
            }
    }
}

/* Each conjugation along an axis, position by position (what
 * dom_c3_conjugate and dom_c3_coord_of compute, as sums of parts). */
static void fast_conjugates(const c3 *c, const dom_c3_coords *co, c3_fast *f)
{
    for (int a = 0; a < C3F_AXES; a++) {
        int j = co->axis_sym[a];
        for (int m = 0; m < C3_MOVES; m++)
            f->axis_move[a][m] = c->sym_move[j][m];
        for (int p = 0; p < C3_CORNERS; p++) {
            f->from[a][p] = c->sym_cfrom[j][p];
            for (int v = 0; v < 24 && p < C3_CORNERS - 1; v++) {
                uint32_t pow3 = 1;
                for (int i = p; i < C3_CORNERS - 2; i++)
                    pow3 *= 3;
                f->twist_part[a][p][v] = (uint16_t)(pow3 * (c->sym_corner[j][p][v] % 3u));
            }
        }
        for (int p = 0; p < C3_EDGES; p++) {
            f->from[a][C3_CORNERS + p] = (uint8_t)(C3_CORNERS + c->sym_efrom[j][p]);
            for (int v = 0; v < 24; v++) {
                int out = c->sym_edge[j][p][v], edge = out / 2;
                if (p < C3_EDGES - 1)
                    f->flip_part[a][p][v] = (uint16_t)((out & 1) << (C3_EDGES - 2 - p));
                f->slice_part[a][p][v] = (uint8_t)(edge >= 8 ? 1 + edge - 8 : 0);
            }
        }
    }
}

/* Binomials and the rank of each order of the 4 slice edges, as
 * dom_c3_coord_of ranks them. */
static void fast_ranks(c3_fast *f)
{
    for (int n = 0; n < 12; n++)
        for (int k = 0; k < 5; k++) {
            uint32_t r = k > n ? 0 : 1;
            for (int i = 0; i < k && r; i++)
                r = r * (uint32_t)(n - i) / (uint32_t)(i + 1);
            f->binom[n][k] = (uint16_t)r;
        }
    for (int code = 0; code < 256; code++) {
        int o[4], rank = 0;
        for (int i = 0; i < 4; i++)
            o[i] = code >> (6 - 2 * i) & 3;
        for (int i = 0; i < 4; i++) {
            int smaller = 0;
            for (int k = i + 1; k < 4; k++)
                smaller += o[k] < o[i];
            rank = rank * (4 - i) + smaller;
        }
        f->perm[code] = (uint8_t)rank;
    }
}

static void fast_init(c3p *p)
{
    c3_fast *f = &p->fast;
    const dom_c3_coords *co = &p->co;
    f->table = p->table;
    f->edge_class = co->edge_class;
    f->twist_conj = co->twist_conj;
    f->twist_move = co->twist_move;
    f->flip_move = co->flip_move;
    f->slice_move = co->slice_move;
    f->nslice = co->nslice;
    f->sorted = co->sorted;
    fast_rename(p->c, f);
    fast_conjugates(p->c, co, f);
    fast_ranks(f);
    uint8_t s[C3_STATE_BYTES];
    dom_c3_solved(s);
    inverse_entries(s, f->solved);
}

void *dom_c3_prune_open(const c3 *c, const char *name)
{
    c3p *p = calloc(1, sizeof *p);
    if (!p) {
        c->host->fail(DOM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    p->kind = C3_HEUR_PRUNE;
    p->c = c;
    snprintf(p->name, sizeof p->name, "%s", name);
    int st = dom_c3_coords_init(c, !strcmp(name, "fsst"), &p->co);
    if (st == 0) {
        p->entries = (uint64_t)p->co.nclass * C3P_TWISTS;
        /* read at random, once per lookup: in 2 MB pages a TLB miss less */
        p->table = hn_alloc_huge(table_bytes(p) + 8, 0);
        if (!p->table)
            st = c->host->fail(DOM_ERR_NOMEM, "cube3: cannot allocate the pruning table");
        else
            st = table_open(p);
    }
    if (st) {
        dom_c3_prune_free(p);
        return NULL;
    }
    fast_init(p);
    return p;
}

void dom_c3_prune_free(void *h)
{
    c3p *p = h;
    if (!p)
        return;
    free(p->table);
    dom_c3_coords_free(&p->co);
    free(p);
}

const dom_c3_coords *dom_c3_prune_coords(const void *h)
{
    return &((const c3p *)h)->co;
}

int dom_c3_prune_exact(const void *h, const dom_c3_coord *x)
{
    return value_of(h, *x);
}

const c3_fast *dom_c3_fast_of(const void *heur)
{
    const c3p *p = heur;
    return p && p->kind == C3_HEUR_PRUNE ? &p->fast : NULL;
}

void dom_c3_fast_node(const void *heur, const uint8_t *state, c3f_node *n)
{
    const c3p *p = heur;
    const dom_c3_coords *co = &p->co;
    memset(n, 0, sizeof *n);
    for (int a = 0; a < C3F_AXES; a++) {
        uint8_t t[C3_STATE_BYTES];
        dom_c3_coord x;
        dom_c3_conjugate(p->c, co->axis_sym[a], state, t);
        dom_c3_coord_of(co, t, &x);
        n->flip[a] = (uint16_t)x.flip;
        n->slice[a] = (uint16_t)x.slice;
        n->twist[a] = (uint16_t)x.twist;
    }
    n->parity = (uint8_t)dom_c3_parity(state + C3_CP, C3_CORNERS);
    inverse_entries(state, n->inv);
}

/* The cube's bound (no inverse: the domain's heuristic is the table's). */
int dom_c3_prune_eval(const void *h, const uint8_t *state)
{
    c3f_node n;
    dom_c3_fast_node(h, state, &n);
    return c3f_bound_cube(&((const c3p *)h)->fast, &n);
}
