/* Additive disjoint pattern databases for any board (Korf & Felner 2002):
 * the tiles are split into groups, and a group's table holds, for every
 * placement of its tiles, the fewest moves of those tiles that bring them
 * home (the blank's moves through other cells are free; the cheapest over
 * blank positions is kept, npuzzle_pdb_build.c). A move moves one tile of
 * one group, so the sum over groups is admissible.
 *
 * Groups are named (the published partitions of the 8-, 15- and
 * 24-puzzle), listed tile by tile, or given by their sizes and cut from
 * the goal in compact regions; tables are kept in the host's cache folder,
 * one file per group, made for the blank-first goal (a blank-last board is
 * read through the 180-degree turn), named after the board, the blank's
 * goal cell and the group's goal cells (so goal layouts and partitions
 * that share a group share its file), in the one pattern-database format
 * (domains/pdb_file.h), checked by CRC-32 when loaded into anonymous memory. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "common/hn.h"
#include "domains/dom.h"
#include "domains/npuzzle/npuzzle.h"
#include "domains/pdb_file.h"

#define NP_MAX_ENTRIES (1ull << 32) /* 4 GB per table */

typedef struct np_group {
    int k;
    uint8_t tile[NP_MAX_K]; /* ordered by goal cell */
    uint8_t home[NP_MAX_K]; /* their goal cells */
    uint64_t entries;
    uint8_t *table;
    size_t bytes; /* mapping length */
} np_group;

struct np_pdb {
    const np_dom *in;
    int ngroups;
    np_group g[NP_MAX_GROUPS];
};

static uint64_t placements(int cells, int k)
{
    uint64_t e = 1;
    for (int i = 0; i < k; i++)
        e *= (uint64_t)(cells - i);
    return e;
}

/* ---- partitions: named, explicit tile groups, or group sizes ---- */

/* The named partitions of the 8-, 15- and 24-puzzle, tile groups for the
 * blank-first goal, copied from search/npuzzle/pdb.c so that a name means
 * one table on both paths: 7-8 (the top seven / bottom eight tiles) and the
 * 24-puzzle's 6-6-6-6 are the partitions of Korf & Felner, "Disjoint
 * pattern database heuristics" (AIJ 134, 2002); 6-6-3 and 5-5-5 are compact
 * groups of neighbouring tiles in the same spirit, as that file says; 8 is
 * the exact 8-puzzle table. Written in this file's own group syntax. */
static const struct {
    const char *name;
    int side;
    const char *groups;
} published[] = {
    {"8", 3, "1.2.3.4.5.6.7.8"},
    {"7-8", 4, "1.2.3.4.5.6.7/8.9.10.11.12.13.14.15"},
    {"6-6-3", 4, "1.2.3/4.5.8.9.12.13/6.7.10.11.14.15"},
    {"5-5-5", 4, "1.2.3.6.7/4.5.8.9.12/10.11.13.14.15"},
    {"6-6-6-6", 5, "1.2.5.6.7.12/3.4.8.9.13.14/10.11.15.16.20.21/17.18.19.22.23.24"},
};

/* The published groups of `name` for this board, or NULL. */
static const char *published_groups(const np_dom *in, const char *name)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++)
        if (in->w == in->h && in->w == published[i].side && !strcmp(name, published[i].name))
            return published[i].groups;
    return NULL;
}

/* Goal cells in an order whose runs are compact regions: bands of two rows
 * (the last band takes three when the height is odd), each read column by
 * column, snaking left to right and back, so a group of 4 is a 2x2 square
 * and one of 5 or 6 a 2x3 block. */
static int band_order(const np_dom *in, uint8_t *order)
{
    int n = 0, bands = in->h / 2;
    for (int b = 0; b < bands; b++) {
        int r0 = 2 * b, r1 = b == bands - 1 ? in->h - 1 : 2 * b + 1;
        for (int i = 0; i < in->w; i++) {
            int col = b % 2 ? in->w - 1 - i : i;
            for (int r = r0; r <= r1; r++)
                order[n++] = (uint8_t)(r * in->w + col);
        }
    }
    return n;
}

static int parse_sizes(const np_dom *in, const char *sizes, int *size)
{
    int n = 0, sum = 0;
    const char *s = sizes;
    for (;;) {
        int k = 0, digits = 0;
        for (; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
            k = k * 10 + (*s - '0');
        if (!digits || k < 1 || k > NP_MAX_K || n == NP_MAX_GROUPS)
            return dom_np_fail(in, DOM_ERR_ARG,
                               "pdb:%s: expected group sizes 1..%d joined by '-' (at most %d "
                               "groups), such as pdb:%s, or tile groups such as pdb:1.2.3/4.5",
                               sizes, NP_MAX_K, NP_MAX_GROUPS, in->default_pdb + 4);
        size[n++] = k;
        sum += k;
        if (!*s)
            break;
        if (*s++ != '-')
            return dom_np_fail(in, DOM_ERR_ARG, "pdb:%s: group sizes are joined by '-'", sizes);
    }
    if (sum != in->cells - 1)
        return dom_np_fail(in, DOM_ERR_ARG,
                           "pdb:%s: the groups hold %d tiles; a %dx%d board has %d", sizes, sum,
                           in->w, in->h, in->cells - 1);
    return n;
}

/* Tile groups "1.2.3/4.5.8.9.12.13/...": tiles joined by '.', groups by
 * '/' (commas would split max:A,B), every tile 1..cells-1 exactly once.
 * Fills tiles[g][0..size[g]) and returns the number of groups. */
static int parse_tile_groups(const np_dom *in, const char *spec, const char *text,
                             uint8_t tiles[][NP_MAX_K], int *size)
{
    uint64_t seen = 0;
    int n = 0;
    size[0] = 0;
    for (const char *s = text;;) {
        int t = 0, digits = 0;
        for (; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
            t = t * 10 + (*s - '0');
        if (!digits || t < 1 || t >= in->cells)
            return dom_np_fail(in, DOM_ERR_ARG,
                               "pdb:%s: expected tiles 1..%d joined by '.', groups joined by '/'",
                               spec, in->cells - 1);
        if (seen >> t & 1)
            return dom_np_fail(in, DOM_ERR_ARG, "pdb:%s: tile %d is in two groups", spec, t);
        if (size[n] == NP_MAX_K)
            return dom_np_fail(in, DOM_ERR_ARG, "pdb:%s: a group holds at most %d tiles", spec,
                               NP_MAX_K);
        seen |= 1ull << t;
        tiles[n][size[n]++] = (uint8_t)t;
        if (!*s)
            break;
        if (*s == '/') {
            if (++n == NP_MAX_GROUPS)
                return dom_np_fail(in, DOM_ERR_ARG, "pdb:%s: at most %d groups", spec,
                                   NP_MAX_GROUPS);
            size[n] = 0;
        } else if (*s != '.')
            return dom_np_fail(in, DOM_ERR_ARG,
                               "pdb:%s: '%c': tiles are joined by '.', groups by '/'", spec, *s);
        s++;
    }
    for (int t = 1; t < in->cells; t++)
        if (!(seen >> t & 1))
            return dom_np_fail(in, DOM_ERR_ARG, "pdb:%s: tile %d is in no group", spec, t);
    return n + 1;
}

/* Tables are made for the blank-first goal (the blank's goal cell 0)
 * only: a blank-last board is read through the 180-degree turn (cell c ->
 * cells - 1 - c), which takes its goal to the blank-first one and keeps
 * every distance, so both layouts share one file per group. */
static int turn(const np_dom *in, int cell)
{
    return in->blank_last ? in->cells - 1 - cell : cell;
}

/* The blank's goal cell in the tables' layout. */
static int table_blank(const np_dom *in)
{
    return turn(in, in->goal_cell[0]);
}

/* Group g holds tiles[0..k), the board's tiles: home[] are their goal
 * cells in the tables' layout, kept sorted, so that the same cells give
 * the same table and file whatever the order given; tile[i] is the board
 * tile whose home is home[i]. */
static int set_group(np_pdb *p, int g, const uint8_t *tiles, int k, const char *spec)
{
    const np_dom *in = p->in;
    np_group *gr = &p->g[g];
    uint8_t homes[NP_MAX_K];
    for (int i = 0; i < k; i++)
        homes[i] = turn(in, in->goal_cell[tiles[i]]);
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && homes[j - 1] > homes[j]; j--) {
            uint8_t x = homes[j];
            homes[j] = homes[j - 1];
            homes[j - 1] = x;
        }
    uint8_t tile_at[NP_MAX_CELLS];
    for (int t = 0; t < in->cells; t++)
        tile_at[in->goal_cell[t]] = (uint8_t)t;
    gr->k = k;
    for (int i = 0; i < k; i++) {
        gr->home[i] = homes[i];
        gr->tile[i] = tile_at[turn(in, homes[i])];
    }
    gr->entries = placements(in->cells, k);
    if (gr->entries > NP_MAX_ENTRIES)
        return dom_np_fail(in, DOM_ERR_ARG,
                           "pdb:%s: a group of %d tiles needs %llu entries (at most %llu)", spec, k,
                           (unsigned long long)gr->entries, (unsigned long long)NP_MAX_ENTRIES);
    return 0;
}

/* Tiles by sizes along band_order, skipping the blank's goal cell. */
static int band_groups(const np_dom *in, const char *sizes, uint8_t tiles[][NP_MAX_K], int *size)
{
    int n = parse_sizes(in, sizes, size);
    if (n < 0)
        return n;
    uint8_t order[NP_MAX_CELLS], tile_at[NP_MAX_CELLS];
    band_order(in, order);
    for (int t = 0; t < in->cells; t++)
        tile_at[in->goal_cell[t]] = (uint8_t)t;
    for (int g = 0, next = 0; g < n; g++)
        for (int i = 0; i < size[g]; i++) {
            while (tile_at[order[next]] == 0)
                next++;
            tiles[g][i] = tile_at[order[next++]];
        }
    return n;
}

/* The groups of a partition name: explicit tiles ("1.2.3/4.5..."), a
 * published name on its board ("6-6-3" on 4x4), else sizes along the band
 * order. Published groups are for the blank-first goal; on blank-last
 * boards they are turned by 180 degrees (tile t -> cells - t, the
 * conversion search/npuzzle/ applies to such boards), so both paths give
 * every board the same value. */
static int make_groups(np_pdb *p, const char *spec)
{
    const np_dom *in = p->in;
    uint8_t tiles[NP_MAX_GROUPS][NP_MAX_K];
    int size[NP_MAX_GROUPS], n;
    const char *named = published_groups(in, spec);
    if (strpbrk(spec, "./") || named) {
        n = parse_tile_groups(in, spec, named ? named : spec, tiles, size);
        for (int g = 0; named && in->blank_last && g < n; g++)
            for (int i = 0; i < size[g]; i++)
                tiles[g][i] = (uint8_t)(in->cells - tiles[g][i]);
    } else
        n = band_groups(in, spec, tiles, size);
    for (int g = 0; g < n; g++) {
        int st = set_group(p, g, tiles[g], size[g], spec);
        if (st)
            return st;
    }
    if (n > 0)
        p->ngroups = n;
    return n < 0 ? n : 0;
}

/* ---- the cache file (domains/pdb_file.h) ---- */

/* The header's names: the domain of the tables' layout (the blank-first
 * board) and the table's, the blank's goal cell and the group's. */
static void table_names(const np_dom *in, const np_group *g, char *domain, size_t dcap, char *table,
                        size_t tcap)
{
    snprintf(domain, dcap, "npuzzle:%dx%d", in->w, in->h);
    int n = snprintf(table, tcap, "blank%d-cells", table_blank(in));
    for (int i = 0; i < g->k && n > 0 && (size_t)n < tcap; i++)
        n += snprintf(table + n, tcap - (size_t)n, "%c%d", i ? '.' : '-', g->home[i]);
}

static void file_name(const np_dom *in, const np_group *g, const char *dir, char *buf, size_t cap)
{
    char domain[64], table[64];
    table_names(in, g, domain, sizeof domain, table, sizeof table);
    snprintf(buf, cap, "%s/npuzzle-%dx%d-%s.pdb", dir, in->w, in->h, table);
}

/* ---- one group: load, else build and keep ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int table_alloc(np_group *g)
{
    size_t huge = (size_t)2 << 20;
    size_t len = (g->entries + huge - 1) / huge * huge;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return -1;
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE); /* a lookup per group per node: fewer TLB misses */
#endif
    g->table = p;
    g->bytes = len;
    return 0;
}

/* Build group g's table: dom_pdb_cached's make (the cache's lock held). */
typedef struct {
    const np_dom *in;
    const np_group *g;
} group_make_ctx;

static int group_make(void *arg, uint8_t *t, uint64_t entries)
{
    group_make_ctx *c = arg;
    const np_dom *in = c->in;
    double t0 = now_seconds();
    int st = dom_np_pdb_build(in, table_blank(in), c->g->home, c->g->k, t, entries);
    if (!st)
        dom_np_log(in, 1,
                   "npuzzle:%dx%d: pattern database of %d tiles (%llu entries) built in %.1f s",
                   in->w, in->h, c->g->k, (unsigned long long)entries, now_seconds() - t0);
    return st;
}

static int group_open(const np_dom *in, np_group *g)
{
    if (table_alloc(g))
        return dom_np_fail(in, DOM_ERR_NOMEM, "cannot allocate a pattern database of %llu bytes",
                           (unsigned long long)g->entries);
    const char *dir = in->host->cache_dir ? in->host->cache_dir() : NULL;
    char path[4096] = "", domain[64], table[64];
    table_names(in, g, domain, sizeof domain, table, sizeof table);
    group_make_ctx c = {in, g};
    if (!dir) /* no cache folder: built in memory only */
        return group_make(&c, g->table, g->entries);
    file_name(in, g, dir, path, sizeof path);
    return dom_pdb_cached(path, domain, table, g->table, g->entries, group_make, &c, NULL);
}

/* A debug line naming the tiles of each group in pdb:GROUPS syntax, so a
 * name ("6-6-3") can be checked and restated tile by tile. */
static void log_groups(const np_pdb *p, const char *spec)
{
    char buf[400];
    int n = 0;
    for (int g = 0; g < p->ngroups && n >= 0 && (size_t)n < sizeof buf; g++)
        for (int i = 0; i < p->g[g].k && n >= 0 && (size_t)n < sizeof buf; i++) {
            /* by the board's goal cells: the turn reverses the tables' order */
            int j = p->in->blank_last ? p->g[g].k - 1 - i : i;
            n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%d",
                          i   ? "."
                          : g ? "/"
                              : "",
                          p->g[g].tile[j]);
        }
    dom_np_log(p->in, 0, "npuzzle:%dx%d%s pdb:%s: tile groups %s", p->in->w, p->in->h,
               p->in->blank_last ? ":blank-last" : "", spec, n > 0 ? buf : "");
}

np_pdb *dom_np_pdb_open(const np_dom *in, const char *spec)
{
    np_pdb *p = calloc(1, sizeof *p);
    if (!p) {
        dom_np_fail(in, DOM_ERR_NOMEM, "out of memory for pdb:%s", spec);
        return NULL;
    }
    p->in = in;
    int st = make_groups(p, spec);
    if (st == 0)
        log_groups(p, spec);
    for (int g = 0; st == 0 && g < p->ngroups; g++)
        st = group_open(in, &p->g[g]);
    if (st) {
        dom_np_pdb_free(p);
        return NULL;
    }
    return p;
}

void dom_np_pdb_free(np_pdb *p)
{
    if (!p)
        return;
    for (int g = 0; g < p->ngroups; g++)
        if (p->g[g].table)
            munmap(p->g[g].table, p->g[g].bytes);
    free(p);
}

int dom_np_pdb_tables(const np_pdb *p, dom_pdb_table *out, int cap)
{
    const np_dom *in = p->in;
    int n = 0;
    for (int g = 0; g < p->ngroups && n < cap; g++, n++) {
        const np_group *gr = &p->g[g];
        dom_pdb_table *t = &out[n];
        memset(t, 0, sizeof *t);
        t->table = gr->table;
        t->entries = gr->entries;
        table_names(in, gr, t->domain, sizeof t->domain, t->name, sizeof t->name);
        file_name(in, gr, "", t->file, sizeof t->file);
        memmove(t->file, t->file + 1, strlen(t->file)); /* no folder: drop the '/' */
        int k = snprintf(t->what, sizeof t->what, "tiles=");
        for (int i = 0; i < gr->k && k > 0 && (size_t)k < sizeof t->what; i++) {
            int j = in->blank_last ? gr->k - 1 - i : i; /* by the board's goal cells */
            k += snprintf(t->what + k, sizeof t->what - (size_t)k, "%s%d", i ? "," : "",
                          gr->tile[j]);
        }
    }
    return n;
}

_Static_assert(NP_MAX_GROUPS == NPF_MAX_GROUPS && NP_MAX_K == NPF_MAX_K,
               "npuzzle_fast.h's bounds are the domain's");

/* View 0 reads each group's tiles where they are; view 1 the mirrored
 * board, whose tile mirror_tile[t] stands on mirror_cell[cell of t]: so
 * group tile u is read from board tile mirror_tile[u] (an involution).
 * Both read cells through the turn of a blank-last board. */
void dom_np_pdb_fast(const np_pdb *p, int reflect, npf_pdb *out)
{
    const np_dom *in = p->in;
    memset(out, 0, sizeof *out);
    out->cells = in->cells;
    out->ngroups = p->ngroups;
    out->nviews = reflect ? 2 : 1;
    memcpy(out->next, in->next, sizeof out->next);
    for (int t = 0; t < in->cells; t++)
        out->goal[in->goal_cell[t]] = (uint8_t)t;
    out->goal[in->cells] = in->goal_cell[0];
    for (int k = 0; k < out->nviews; k++) {
        npf_pdb_view *v = &out->v[k];
        memset(v->group_of, -1, sizeof v->group_of);
        for (int c = 0; c < in->cells; c++)
            v->cell_map[c] = (uint8_t)turn(in, k ? in->mirror_cell[c] : c);
        for (int g = 0; g < p->ngroups; g++)
            for (int i = 0; i < p->g[g].k; i++) {
                int u = p->g[g].tile[i], t = k ? in->mirror_tile[u] : u;
                v->src[g][i] = (uint8_t)t;
                v->group_of[t] = (int8_t)g;
            }
    }
    for (int g = 0; g < p->ngroups; g++) {
        out->k[g] = p->g[g].k;
        out->table[g] = p->g[g].table;
    }
}
