/* Where commands and embedders get pattern databases and heuristics by
 * name: PDB files are kept in a cache directory ($HEURNET_DATA, else
 * ~/.cache/heurnet) and built on first use, so `solve`, `gen` and a host
 * solver just name them ("pdb:7-8", "max:lc,pdb:6-6-3"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "solve/pdb_cache.h"
#include "solve/search.h"
#include "domains/dom.h"
#include "common/hn.h"
#include "datagen/dg.h"
#include "search/srch.h"

int heurnet_pdb_dir(char *buf, size_t cap)
{
    return dom_cache_dir(buf, cap); /* one cache folder for every domain's tables */
}

static void progress_cb(uint64_t done, uint64_t total, const char *extra, void *user)
{
    (void)total;
    hn_progress_update(user, done, extra);
}

static int build_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 8 ? 8 : (int)n;
}

int heurnet_pdb_build(const srch_np_partition *part, int threads, int quiet, srch_np_pdb **out)
{
    uint64_t total = 0;
    for (int i = 0; i < part->npatterns; i++)
        total += srch_np_pdb_entries(part->width * part->width, part->size[i]);
    char label[96];
    snprintf(label, sizeof label, "building PDB %s (%d-puzzle)", part->name,
             part->width * part->width - 1);
    hn_progress *pr = hn_progress_new(label, total, quiet);
    int st = dg_pdb_build(part, threads, pr ? progress_cb : NULL, pr, out);
    hn_progress_finish(pr);
    return st;
}

/* Large tables also get an uncompressed copy PATH.raw next to the cached
 * file: inflating the 237 MB of the 15-puzzle 7-8 file takes seconds of CPU
 * in every process that loads it (each rank of an mpirun), reading the raw
 * copy from the page cache a fraction of a second. */
#define RAW_MIN_BYTES ((uint64_t)64 << 20)

static int raw_name(const char *path, char *buf, size_t cap)
{
    return snprintf(buf, cap, "%s.raw", path) < (int)cap ? 0 : -1;
}

static int load_raw(const char *path, const srch_np_partition *part, srch_np_pdb **out)
{
    char raw[4400];
    int st = 0;
    if (raw_name(path, raw, sizeof raw) || access(raw, F_OK) != 0)
        return 0;
    if ((*out = srch_np_pdb_load(raw, part, &st)))
        return 1;
    hn_log(HN_LOG_WARN, "ignoring the uncompressed PDB copy: %s", hn_errmsg());
    return 0;
}

static int keep_raw(srch_np_pdb *p, const char *path)
{
    char raw[4400];
    uint64_t bytes = 0, n;
    for (int i = 0; srch_np_pdb_table(p, i, &n); i++)
        bytes += n;
    if (bytes < RAW_MIN_BYTES || raw_name(path, raw, sizeof raw))
        return 0;
    if (srch_np_pdb_save_raw(p, raw))
        hn_log(HN_LOG_WARN, "could not keep an uncompressed PDB copy: %s", hn_errmsg());
    else
        hn_log(HN_LOG_INFO, "kept an uncompressed copy for fast loading: %s", raw);
    return 0;
}

/* The table from the cache: 1 loaded, 0 not there (or damaged: warned). */
static int load_cached(const char *path, const srch_np_partition *part, srch_np_pdb **out)
{
    int st;
    if (load_raw(path, part, out))
        return 1;
    if (access(path, F_OK) != 0)
        return 0;
    if ((*out = srch_np_pdb_load(path, part, &st))) {
        keep_raw(*out, path);
        return 1;
    }
    hn_log(HN_LOG_WARN, "ignoring cached PDB: %s; rebuilding it", hn_errmsg());
    return 0;
}

/* Build the table into the cache while holding PATH.lock, so that a second
 * process needing it waits for this build and then loads the file instead
 * of building it again (and two builders never write one file). */
static int build_locked(const char *path, const srch_np_partition *part, int quiet,
                        srch_np_pdb **out)
{
    int st, lock = hn_lock_take(path, 0, NULL);
    if (lock == HN_ERR_BUSY) {
        hn_log(HN_LOG_INFO, "waiting for another process building %s", path);
        lock = hn_lock_take(path, 1, NULL);
        if (lock >= 0 && load_cached(path, part, out)) {
            hn_lock_release(lock);
            return 0;
        }
    }
    if (lock < 0) /* a cache we cannot lock still works: names are private */
        hn_log(HN_LOG_WARN, "building without a lock: %s", hn_errmsg());
    hn_log(HN_LOG_INFO, "PDB %s not in the cache (%s); building it once", part->name, path);
    if ((st = heurnet_pdb_build(part, build_threads(), quiet, out))) {
        hn_lock_release(lock);
        return st;
    }
    if (srch_np_pdb_save(*out, path))
        hn_log(HN_LOG_WARN, "could not cache the PDB: %s", hn_errmsg());
    keep_raw(*out, path);
    hn_lock_release(lock);
    return 0;
}

int heurnet_pdb_get(int width, const char *partition, int goal, int quiet, srch_np_pdb **out)
{
    (void)goal; /* tables are for blank-first; heuristics convert blank-last boards */
    *out = NULL;
    srch_np_partition part;
    int st = srch_np_partition_get(partition, width, &part);
    if (st)
        return st;
    char dir[4096], name[128], path[4300];
    if ((st = heurnet_pdb_dir(dir, sizeof dir)))
        return st;
    srch_np_pdb_file_name(&part, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (load_cached(path, &part, out))
        return 0;
    return build_locked(path, &part, quiet, out);
}

/* One heuristic name (no "max:"). */
static int heur_one(const char *spec, int width, int goal, int quiet, srch_np_heur **out)
{
    int st = 0;
    if (!strcmp(spec, "manhattan")) {
        *out = srch_np_heur_manhattan_new(width, goal, &st);
    } else if (!strcmp(spec, "lc")) {
        *out = srch_np_heur_lc_new(width, goal, &st);
    } else if (!strncmp(spec, "pdb:", 4)) {
        char name[64];
        snprintf(name, sizeof name, "%s", spec + 4);
        char *opt = strchr(name, ':');
        int reflect = 1;
        if (opt) {
            *opt++ = '\0';
            if (strcmp(opt, "noreflect"))
                return hn_fail(HN_ERR_ARG, "heuristic '%s': unknown option '%s' (only 'noreflect')",
                               spec, opt);
            reflect = 0;
        }
        srch_np_pdb *pdb;
        int rc = heurnet_pdb_get(width, name, goal, quiet, &pdb);
        if (rc)
            return rc;
        *out = srch_np_heur_pdb_new(pdb, goal, reflect, 1, &st);
    } else {
        return hn_fail(HN_ERR_ARG,
                       "unknown heuristic '%s' (manhattan, lc, pdb:PARTITION[:noreflect], "
                       "max:H1,H2,..)",
                       spec);
    }
    return *out ? 0 : st;
}

int heurnet_heur_new(const char *spec, int width, int goal, int quiet, srch_np_heur **out)
{
    *out = NULL;
    if (!strncmp(spec, "ann:", 4))
        return heurnet_heur_ann_new(spec, width, goal, quiet, out);
    if (strncmp(spec, "max:", 4))
        return heur_one(spec, width, goal, quiet, out);
    srch_np_heur *parts[SRCH_NP_MAX_PATTERNS];
    int n = 0, rc = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec + 4);
    char *save = NULL;
    for (char *s = strtok_r(buf, ",", &save); s && !rc; s = strtok_r(NULL, ",", &save)) {
        if (n == SRCH_NP_MAX_PATTERNS) {
            rc = hn_fail(HN_ERR_ARG, "heuristic '%s': more than %d parts", spec, n);
            break;
        }
        rc = heur_one(s, width, goal, quiet, &parts[n]);
        if (!rc)
            n++;
    }
    if (!rc && n == 0)
        rc = hn_fail(HN_ERR_ARG, "heuristic '%s': nothing after 'max:'", spec);
    if (rc) {
        for (int i = 0; i < n; i++)
            srch_np_heur_free(parts[i]);
        return rc;
    }
    int st;
    *out = srch_np_heur_max_new(parts, n, &st);
    return *out ? 0 : st;
}
