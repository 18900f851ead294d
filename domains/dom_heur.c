/* Admissible heuristics of any domain by name: the domain's own, pattern
 * databases over its patterns (built here by breadth-first search through
 * rank/unrank/apply and kept in the cache folder), max of several, zero. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "domains/builtin.h"
#include "domains/dom_private.h"
#include "domains/npuzzle/npuzzle_fast.h"
#include "domains/pdb_file.h"

#define MAX_PARTS 8

typedef int (*delta_fn)(const void *heur, const void *state, int move, int h);

enum kind { H_ZERO, H_DOMAIN, H_PDB, H_MAX };

struct dom_heur {
    enum kind kind;
    const dom *d;
    char name[256];
    void *dh;           /* H_DOMAIN: the domain's handle */
    dom_pattern pat;    /* H_PDB */
    uint8_t *table;     /* H_PDB: entries bytes */
    size_t table_bytes; /* allocation size */
    int nparts;         /* H_MAX */
    dom_heur *part[MAX_PARTS];
    /* H_DOMAIN: negative values the domain returned (each counted as 0),
     * and the first of them, for `domain check` and one warning */
    atomic_ulong negatives;
    atomic_int first_negative;
    /* H_DOMAIN: the domain's heur_delta when it updates this heuristic */
    delta_fn delta;
};

/* ---- the cache folder ---- */

static int make_dirs(char *buf)
{
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int bad = mkdir(buf, 0755) && errno != EEXIST;
        *s = '/';
        if (bad)
            return -1;
    }
    return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

int dom_cache_dir(char *buf, size_t cap)
{
    const char *env = getenv("HEURNET_DATA"), *home = getenv("HOME");
    int n;
    if (env && env[0])
        n = snprintf(buf, cap, "%s", env);
    else if (home && home[0])
        n = snprintf(buf, cap, "%s/.cache/heurnet", home);
    else
        return hn_fail(HN_ERR_ARG, "no cache folder: set HEURNET_DATA or HOME");
    if (n < 0 || (size_t)n >= cap)
        return hn_fail(HN_ERR_ARG, "cache folder path too long");
    if (make_dirs(buf))
        return hn_fail(HN_ERR_IO, "cannot create the cache folder %s: %s", buf, strerror(errno));
    return 0;
}

/* ---- table memory: anonymous, huge pages where the kernel gives them ---- */

static uint8_t *table_alloc(size_t bytes, size_t *got)
{
    size_t huge = (size_t)2 << 20;
    size_t len = (bytes + huge - 1) / huge * huge;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    *got = len;
    return p;
}

static void table_free(uint8_t *t, size_t len)
{
    if (t)
        munmap(t, len);
}

/* ---- building by breadth-first search ---- */

#define MAX_BUILD_THREADS 64

static atomic_int build_threads_set; /* 0: one per core, up to 8 */

void dom_set_build_threads(int n)
{
    atomic_store(&build_threads_set, n < 0 ? 0 : n > MAX_BUILD_THREADS ? MAX_BUILD_THREADS : n);
}

int dom_build_threads(void)
{
    int n = atomic_load(&build_threads_set);
    if (n > 0)
        return n;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores < 1 ? 1 : cores > 8 ? 8 : (int)cores;
}

struct bfs_job {
    const dom *d;
    const dom_pattern *pat;
    uint8_t *t;
    uint64_t lo, hi;
    int depth;
    uint64_t found;
    int stop;
};

/* Expand every entry of this slice at `depth`: children not yet reached
 * get depth + 1. Relaxed atomics: two threads may write the same entry,
 * always with the same value. */
static void *bfs_slice(void *arg)
{
    struct bfs_job *j = arg;
    const dom *d = j->d;
    uint8_t s[DOM_MAX_STATE_BYTES], c[DOM_MAX_STATE_BYTES];
    size_t sb = d->facts.state_bytes;
    for (uint64_t r = j->lo; r < j->hi; r++) {
        if (__atomic_load_n(&j->t[r], __ATOMIC_RELAXED) != j->depth)
            continue;
        if ((r & 0xfffff) == 0 && hn_stop_requested()) {
            j->stop = 1;
            return NULL;
        }
        memset(s, 0, sb);
        j->pat->unrank(j->pat->self, r, s);
        for (uint32_t m = 0; m < d->facts.nmoves; m++) {
            memcpy(c, s, sb);
            if (!d->def->apply(d->inst, c, (int)m))
                continue;
            uint64_t k = j->pat->rank(j->pat->self, c);
            if (k < j->pat->entries && __atomic_load_n(&j->t[k], __ATOMIC_RELAXED) == 255) {
                __atomic_store_n(&j->t[k], (uint8_t)(j->depth + 1), __ATOMIC_RELAXED);
                j->found++;
            }
        }
    }
    return NULL;
}

static int bfs_build(const dom *d, const dom_pattern *pat, uint8_t *t, int threads,
                     const char *what)
{
    memset(t, 255, pat->entries);
    uint8_t g[DOM_MAX_STATE_BYTES];
    dom_goal(d, g);
    uint64_t root = pat->rank(pat->self, g);
    if (root >= pat->entries)
        return hn_fail(HN_ERR_FORMAT, "%s: the goal's rank %llu is past %llu entries", what,
                       (unsigned long long)root, (unsigned long long)pat->entries);
    t[root] = 0;
    uint64_t total = 1;
    for (int depth = 0; depth < 254; depth++) {
        struct bfs_job job[MAX_BUILD_THREADS];
        pthread_t tid[MAX_BUILD_THREADS];
        /* one thread for small tables, where starting threads costs more */
        int nt = pat->entries > 1000000 ? threads : 1;
        uint64_t found = 0;
        for (int i = 0; i < nt; i++) {
            job[i] = (struct bfs_job){d,
                                      pat,
                                      t,
                                      pat->entries * (uint64_t)i / (uint64_t)nt,
                                      pat->entries * (uint64_t)(i + 1) / (uint64_t)nt,
                                      depth,
                                      0,
                                      0};
            if (i > 0 && pthread_create(&tid[i], NULL, bfs_slice, &job[i]))
                return hn_fail(HN_ERR_NOMEM, "%s: cannot start a thread", what);
        }
        bfs_slice(&job[0]);
        for (int i = 1; i < nt; i++)
            pthread_join(tid[i], NULL);
        int stop = 0;
        for (int i = 0; i < nt; i++) {
            found += job[i].found;
            stop |= job[i].stop;
        }
        if (stop)
            return hn_fail(HN_ERR_INTERRUPTED, "%s: build stopped", what);
        total += found;
        hn_log(HN_LOG_INFO, "%s: depth %d, %llu entries", what, depth + 1,
               (unsigned long long)total);
        if (found == 0)
            return 0;
    }
    return hn_fail(HN_ERR_FORMAT, "%s: depth past 254", what);
}

/* ---- the cache file (pdb_file.h) ---- */

static void cache_name(const dom *d, const char *pattern, char *buf, size_t cap, int *st)
{
    char dir[4096];
    *st = dom_cache_dir(dir, sizeof dir);
    if (*st)
        return;
    char canon[128];
    snprintf(canon, sizeof canon, "%s", d->facts.canonical);
    for (char *s = canon; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '-' || *s == '_'))
            *s = '_';
    int n = snprintf(buf, cap, "%s/dom-%s-%s.pdb", dir, canon, pattern);
    if (n < 0 || (size_t)n >= cap)
        *st = hn_fail(HN_ERR_ARG, "cache path too long for pattern %s", pattern);
}

/* The breadth-first build of dom_pdb_cached (the cache's lock held). */
typedef struct {
    dom_heur *h;
    const char *pattern, *path;
} pdb_make_ctx;

static int pdb_make(void *arg, uint8_t *t, uint64_t entries)
{
    pdb_make_ctx *c = arg;
    const dom *d = c->h->d;
    hn_log(HN_LOG_INFO, "building pdb:%s of %s (%llu entries) into %s", c->pattern,
           d->facts.canonical, (unsigned long long)entries, c->path);
    char what[256];
    snprintf(what, sizeof what, "pdb:%s", c->pattern);
    return bfs_build(d, &c->h->pat, t, dom_build_threads(), what);
}

static int pdb_open(dom_heur *h, const char *pattern)
{
    const dom *d = h->d;
    if (!d->def->pattern_open)
        return hn_fail(HN_ERR_ARG, "domain %s has no patterns for pdb:%s", d->facts.canonical,
                       pattern);
    for (uint32_t m = 0; m < d->facts.nmoves; m++)
        if (dom_inverse(d, (int)m) < 0 || dom_move_cost(d, (int)m) != 1)
            return hn_fail(HN_ERR_UNSUPPORTED,
                           "pdb:%s needs unit-cost moves with inverses (move %s)", pattern,
                           d->facts.move_name[m]);
    hn_error_clear();
    unsigned long mark = dom_host_fail_mark();
    int st = d->def->pattern_open(d->inst, pattern, &h->pat);
    if (st)
        return hn_fail(st < 0 ? st : HN_ERR_FORMAT, "domain %s: pattern %s: %s", d->facts.canonical,
                       pattern, dom_no_reason_since(mark) ? "refused with no reason" : hn_errmsg());
    if (h->pat.entries == 0 || h->pat.entries > DOM_PDB_MAX_ENTRIES)
        return hn_fail(HN_ERR_FORMAT, "pattern %s: %llu entries", pattern,
                       (unsigned long long)h->pat.entries);
    h->table = table_alloc(h->pat.entries, &h->table_bytes);
    if (!h->table)
        return hn_fail(HN_ERR_NOMEM, "pdb:%s: cannot allocate %llu bytes", pattern,
                       (unsigned long long)h->pat.entries);
    char path[4200];
    cache_name(d, pattern, path, sizeof path, &st);
    if (st)
        return st;
    pdb_make_ctx c = {h, pattern, path};
    return dom_pdb_cached(path, d->facts.canonical, pattern, h->table, h->pat.entries, pdb_make, &c,
                          NULL);
}

/* ---- by name ---- */

static dom_heur *open_one(const dom *d, const char *name, int *st);

static int max_open(dom_heur *h, const char *list)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    /* "pdb:a,pdb:b" splits at commas; a part without a known prefix joins
     * the previous one's argument, so "pdb:a,b" is not supported: name each. */
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (h->nparts == MAX_PARTS)
            return hn_fail(HN_ERR_ARG, "max: more than %d heuristics", MAX_PARTS);
        int st;
        h->part[h->nparts] = open_one(h->d, tok, &st);
        if (!h->part[h->nparts])
            return st;
        h->nparts++;
    }
    return h->nparts ? 0 : hn_fail(HN_ERR_ARG, "max: names no heuristic");
}

static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; s && *s;) {
        size_t k = strcspn(s, ",");
        if (k == n && !strncmp(s, name, n))
            return 1;
        s += k + (s[k] == ',');
    }
    return 0;
}

/* A domain with heuristics of its own but no patterns for the core's
 * builder names its own pattern databases "pdb:..." (the n-puzzle's
 * additive ones, "pdb:5-5-5-5-5-5-5"): those names go to its heur_open. */
static int own_pdb(const dom *d)
{
    return d->def->heur_open && !d->def->pattern_open;
}

/* The domain's heur_delta when it updates the heuristic dh: it answers
 * DOM_HEUR_NO_DELTA for one it does not, asked once, from the goal by
 * move 0 (domain.h). */
static delta_fn offers_delta(const dom *d, const void *dh)
{
    if (!d->heur_delta)
        return NULL;
    int h0 = d->def->heur_eval(dh, d->goal);
    return d->heur_delta(dh, d->goal, 0, h0) == DOM_HEUR_NO_DELTA ? NULL : d->heur_delta;
}

dom_heur *dom_between_heur(const dom *d, const void *b, int *status)
{
    *status = 0;
    if (!d->between_open)
        return NULL;
    dom_heur *h = calloc(1, sizeof *h);
    if (!h) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory");
        return NULL;
    }
    h->kind = H_DOMAIN;
    h->d = d;
    snprintf(h->name, sizeof h->name, "between");
    hn_error_clear();
    unsigned long mark = dom_host_fail_mark();
    if (!(h->dh = d->between_open(d->inst, b))) {
        *status = hn_fail(HN_ERR_NOMEM, "domain %s: between_open: %s", d->facts.canonical,
                          dom_no_reason_since(mark) ? "no handle and no reason" : hn_errmsg());
        free(h);
        return NULL;
    }
    h->delta = offers_delta(d, h->dh);
    return h;
}

static dom_heur *open_one(const dom *d, const char *name, int *st)
{
    dom_heur *h = calloc(1, sizeof *h);
    if (!h) {
        *st = hn_fail(HN_ERR_NOMEM, "out of memory");
        return NULL;
    }
    h->d = d;
    snprintf(h->name, sizeof h->name, "%s", name);
    *st = 0;
    if (!strcmp(name, "zero"))
        h->kind = H_ZERO;
    else if (!strncmp(name, "max:", 4)) {
        h->kind = H_MAX;
        *st = max_open(h, name + 4);
    } else if (!strncmp(name, "pdb:", 4) && !own_pdb(d)) {
        h->kind = H_PDB;
        *st = pdb_open(h, name + 4);
    } else if (d->def->heur_open &&
               (listed(d->facts.heuristics, name) || !strncmp(name, "pdb:", 4))) {
        h->kind = H_DOMAIN;
        hn_error_clear();
        unsigned long mark = dom_host_fail_mark();
        h->dh = d->def->heur_open(d->inst, name);
        if (!h->dh)
            *st = hn_fail(HN_ERR_ARG, "domain %s: heuristic %s: %s", d->facts.canonical, name,
                          dom_no_reason_since(mark) ? "heur_open gave no heuristic and no reason"
                                                    : hn_errmsg());
        else
            h->delta = offers_delta(d, h->dh);
    } else
        *st = hn_fail(HN_ERR_ARG,
                      "unknown heuristic '%s' for %s (its own: %s; patterns for pdb:NAME: %s; "
                      "also max:A,B and zero)",
                      name, d->facts.canonical,
                      d->facts.heuristics && d->facts.heuristics[0] ? d->facts.heuristics : "none",
                      d->facts.patterns && d->facts.patterns[0] ? d->facts.patterns : "none");
    if (*st) {
        dom_heur_free(h);
        return NULL;
    }
    return h;
}

dom_heur *dom_heur_open(const dom *d, const char *name, int *status)
{
    int st, dummy;
    if (!status)
        status = &dummy;
    if (!name || !name[0] || strlen(name) >= 256) {
        *status = hn_fail(HN_ERR_ARG, "empty or over-long heuristic name");
        return NULL;
    }
    dom_heur *h = open_one(d, name, &st);
    *status = st;
    return h;
}

void dom_heur_free(dom_heur *h)
{
    if (!h)
        return;
    if (h->kind == H_DOMAIN && h->dh)
        h->d->def->heur_free(h->dh);
    if (h->kind == H_PDB && h->pat.free)
        h->pat.free(h->pat.self);
    table_free(h->table, h->table_bytes);
    for (int i = 0; i < h->nparts; i++)
        dom_heur_free(h->part[i]);
    free(h);
}

/* A domain heuristic's value as every search reads it: an admissible
 * heuristic is >= 0, so a negative value (a defect of the domain) counts
 * as 0, still a lower bound, and is counted and warned about once; values
 * above DOM_HEUR_MAX (INT_MAX included) count as DOM_HEUR_MAX, so no search
 * overflows when it scales them (by at most 1000). */
static int domain_value(dom_heur *h, const void *state)
{
    int v = h->d->def->heur_eval(h->dh, state);
    if (v >= 0)
        return v > DOM_HEUR_MAX ? DOM_HEUR_MAX : v;
    if (atomic_fetch_add(&h->negatives, 1) == 0) {
        atomic_store(&h->first_negative, v);
        hn_log(HN_LOG_WARN,
               "domain %s: heuristic %s returned %d, a negative value (a defect of the domain; "
               "counted as 0)",
               h->d->facts.canonical, h->name, v);
    }
    return 0;
}

int dom_heur_has_delta(const dom_heur *h)
{
    return h->kind == H_DOMAIN && h->delta != NULL;
}

int dom_heur_delta_own(const dom_heur *h, const void *state, int m, int hv)
{
    return h->delta(h->dh, state, m, hv);
}

int dom_heur_delta(const dom_heur *h, const void *state, int m, int hv)
{
    /* a value at the cap may stand for a larger one the update would
     * start from: the child is evaluated whole then, as without the hook */
    if (dom_heur_has_delta(h) && hv >= 0 && hv < DOM_HEUR_MAX) {
        int v = h->delta(h->dh, state, m, hv);
        if (v >= 0)
            return v > DOM_HEUR_MAX ? DOM_HEUR_MAX : v;
        if (v == -1)
            return -1;
        /* DOM_HEUR_NO_DELTA after it offered one, or another negative: a
         * defect of the domain, answered by evaluating the child */
    }
    uint8_t c[DOM_MAX_STATE_BYTES];
    memcpy(c, state, h->d->facts.state_bytes);
    return h->d->def->apply(h->d->inst, c, m) ? dom_heur_eval(h, c) : -1;
}

const void *dom_heur_handle(const dom_heur *h)
{
    return h->kind == H_DOMAIN ? h->dh : NULL;
}

uint64_t dom_heur_negatives(const dom_heur *h, int *first)
{
    uint64_t n = h->kind == H_DOMAIN ? atomic_load(&h->negatives) : 0;
    if (n && first)
        *first = atomic_load(&h->first_negative);
    for (int i = 0; i < h->nparts; i++) {
        uint64_t k = dom_heur_negatives(h->part[i], n ? NULL : first);
        n += k;
    }
    return n;
}

int dom_heur_eval(const dom_heur *h, const void *state)
{
    switch (h->kind) {
    case H_DOMAIN: /* the counters are atomic: evaluation stays thread-safe */
        return domain_value((dom_heur *)h, state);
    case H_PDB: {
        uint64_t r = h->pat.rank(h->pat.self, state);
        return r < h->pat.entries && h->table[r] != 255 ? h->table[r] : 0;
    }
    case H_MAX: {
        int best = 0;
        for (int i = 0; i < h->nparts; i++) {
            int v = dom_heur_eval(h->part[i], state);
            best = v > best ? v : best;
        }
        return best;
    }
    default:
        return 0;
    }
}

/* Chunks of this many states: enough table reads in flight to hide most of
 * their latency, few enough that the prefetched lines stay in L1/L2. */
#define MANY_CHUNK 64

static void pdb_chunk(const dom_heur *h, const uint8_t *s, size_t n, size_t stride, int *out)
{
    uint64_t r[MANY_CHUNK];
    for (size_t i = 0; i < n; i++) {
        r[i] = h->pat.rank(h->pat.self, s + i * stride);
        if (r[i] < h->pat.entries)
            __builtin_prefetch(h->table + r[i]);
    }
    for (size_t i = 0; i < n; i++)
        out[i] = r[i] < h->pat.entries && h->table[r[i]] != 255 ? h->table[r[i]] : 0;
}

static void many_chunk(const dom_heur *h, const uint8_t *s, size_t n, size_t stride, int *out)
{
    if (h->kind == H_PDB) {
        pdb_chunk(h, s, n, stride, out);
        return;
    }
    if (h->kind != H_MAX) {
        for (size_t i = 0; i < n; i++)
            out[i] = dom_heur_eval(h, s + i * stride);
        return;
    }
    int part[MANY_CHUNK];
    for (size_t i = 0; i < n; i++)
        out[i] = 0;
    for (int k = 0; k < h->nparts; k++) {
        many_chunk(h->part[k], s, n, stride, part);
        for (size_t i = 0; i < n; i++)
            out[i] = part[i] > out[i] ? part[i] : out[i];
    }
}

void dom_heur_eval_many(const dom_heur *h, const void *states, size_t n, size_t stride, int *out)
{
    const uint8_t *s = states;
    for (size_t i = 0; i < n; i += MANY_CHUNK)
        many_chunk(h, s + i * stride, n - i < MANY_CHUNK ? n - i : MANY_CHUNK, stride, out + i);
}

const char *dom_heur_name(const dom_heur *h)
{
    return h->name;
}

const uint8_t *dom_heur_pdb_table(const dom_heur *h, uint64_t *entries)
{
    if (h->kind != H_PDB)
        return NULL;
    *entries = h->pat.entries;
    return h->table;
}

/* The core table's names as its cache file and header give them. */
static void core_table(const dom_heur *h, dom_pdb_table *t)
{
    memset(t, 0, sizeof *t);
    t->table = h->table;
    t->entries = h->pat.entries;
    const char *pattern = h->name + 4; /* "pdb:" */
    snprintf(t->domain, sizeof t->domain, "%s", h->d->facts.canonical);
    snprintf(t->name, sizeof t->name, "%s", pattern);
    snprintf(t->what, sizeof t->what, "pattern=%s", pattern);
    char path[4300];
    int st;
    cache_name(h->d, pattern, path, sizeof path, &st);
    const char *base = strrchr(path, '/');
    snprintf(t->file, sizeof t->file, "%.*s", (int)sizeof t->file - 1,
             st     ? ""
             : base ? base + 1
                    : path);
}

int dom_heur_pdb_tables(const dom_heur *h, dom_pdb_table *out, int cap)
{
    if (cap <= 0)
        return 0;
    switch (h->kind) {
    case H_PDB:
        core_table(h, out);
        return 1;
    case H_DOMAIN:
        return h->d->def == &dom_npuzzle_def ? dom_np_pdb_tables_of(h->dh, out, cap) : 0;
    case H_MAX: {
        int n = 0;
        for (int i = 0; i < h->nparts && n < cap; i++)
            n += dom_heur_pdb_tables(h->part[i], out + n, cap - n);
        return n;
    }
    default:
        return 0;
    }
}

int dom_heur_pdb_save(const dom_heur *h, const char *dir)
{
    dom_pdb_table t[64];
    int n = dom_heur_pdb_tables(h, t, 64);
    if (n == 0)
        return hn_fail(HN_ERR_ARG, "%s has no pattern-database tables to save", h->name);
    char path[4400];
    snprintf(path, sizeof path, "%s/", dir);
    int st = make_dirs(path) ? hn_fail(HN_ERR_IO, "cannot create %s: %s", dir, strerror(errno)) : 0;
    for (int i = 0; i < n && !st; i++) {
        int len = snprintf(path, sizeof path, "%s/%s", dir, t[i].file);
        st = len < 0 || (size_t)len >= sizeof path
                 ? hn_fail(HN_ERR_ARG, "%s: path too long", dir)
                 : dom_pdb_save(path, t[i].domain, t[i].name, t[i].table, t[i].entries);
    }
    return st;
}
