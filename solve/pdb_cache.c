/* Where commands get pattern databases and heuristics: PDB files are kept
 * in a cache directory ($HEURNET_DATA, else ~/.cache/heurnet) and built on
 * first use, with progress, so `solve`, `gen` and others just name them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "solve/pdb_cache.h"
#include "common/hn.h"
#include "datagen/dg.h"
#include "search/srch.h"

/* mkdir -p */
static int make_dirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *s = buf + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(buf, 0755) && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

int cli_pdb_dir(char *buf, size_t cap)
{
    const char *env = getenv("HEURNET_DATA");
    const char *home = getenv("HOME");
    int n;
    if (env && env[0])
        n = snprintf(buf, cap, "%s", env);
    else if (home && home[0])
        n = snprintf(buf, cap, "%s/.cache/heurnet", home);
    else {
        fprintf(stderr, "heurnet: no PDB cache directory: set HEURNET_DATA or HOME\n");
        return -1;
    }
    if (n < 0 || (size_t)n >= cap) {
        fprintf(stderr, "heurnet: PDB cache path too long\n");
        return -1;
    }
    if (make_dirs(buf)) {
        fprintf(stderr, "heurnet: cannot create the PDB cache directory %s: %s\n", buf, strerror(errno));
        return -1;
    }
    return 0;
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

/* Build `part` with progress on stderr; 0 or CLI_EXIT_FAIL (printed). */
int cli_pdb_build(const srch_np_partition *part, int threads, int quiet, srch_np_pdb **out)
{
    uint64_t total = 0;
    for (int i = 0; i < part->npatterns; i++)
        total += srch_np_pdb_entries(part->width * part->width, part->size[i]);
    char label[96];
    snprintf(label, sizeof label, "building PDB %s (%d-puzzle)", part->name, part->width * part->width - 1);
    hn_progress *pr = hn_progress_new(label, total, quiet);
    int st = dg_pdb_build(part, threads, pr ? progress_cb : NULL, pr, out);
    hn_progress_finish(pr);
    return st ? cli_fail("pdb build") : 0;
}

int cli_pdb_get(int width, const char *partition, int goal, int quiet, struct srch_np_pdb **out)
{
    (void)goal; /* tables are for blank-first; heuristics convert blank-last boards */
    *out = NULL;
    srch_np_partition part;
    if (srch_np_partition_get(partition, width, &part)) {
        fprintf(stderr, "heurnet: %s\n", hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    char dir[4096], name[128], path[4300];
    if (cli_pdb_dir(dir, sizeof dir))
        return CLI_EXIT_FAIL;
    srch_np_pdb_file_name(&part, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (access(path, F_OK) == 0) {
        int st;
        *out = srch_np_pdb_load(path, &part, &st);
        if (*out)
            return 0;
        fprintf(stderr, "heurnet: warning: ignoring cached PDB: %s; rebuilding it\n", hn_errmsg());
    }
    if (!quiet)
        fprintf(stderr, "heurnet: PDB %s not in the cache (%s); building it once\n", partition, path);
    if (cli_pdb_build(&part, build_threads(), quiet, out))
        return CLI_EXIT_FAIL;
    if (srch_np_pdb_save(*out, path))
        fprintf(stderr, "heurnet: warning: could not cache the PDB: %s\n", hn_errmsg());
    return 0;
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
            if (strcmp(opt, "noreflect")) {
                fprintf(stderr, "heurnet: heuristic '%s': unknown option '%s' (only 'noreflect')\n", spec, opt);
                return CLI_EXIT_USAGE;
            }
            reflect = 0;
        }
        srch_np_pdb *pdb;
        int rc = cli_pdb_get(width, name, goal, quiet, &pdb);
        if (rc)
            return rc;
        *out = srch_np_heur_pdb_new(pdb, goal, reflect, 1, &st);
    } else {
        fprintf(stderr, "heurnet: unknown heuristic '%s' (manhattan, lc, pdb:PARTITION[:noreflect], "
                        "max:H1,H2,..)\n", spec);
        return CLI_EXIT_USAGE;
    }
    return *out ? 0 : cli_fail("heuristic");
}

int cli_heur_get(const char *spec, int width, int goal, int quiet, struct srch_np_heur **out)
{
    *out = NULL;
    if (strncmp(spec, "max:", 4))
        return heur_one(spec, width, goal, quiet, out);
    srch_np_heur *parts[SRCH_NP_MAX_PATTERNS];
    int n = 0, rc = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec + 4);
    char *save = NULL;
    for (char *s = strtok_r(buf, ",", &save); s && !rc; s = strtok_r(NULL, ",", &save)) {
        if (n == SRCH_NP_MAX_PATTERNS) {
            fprintf(stderr, "heurnet: heuristic '%s': more than %d parts\n", spec, n);
            rc = CLI_EXIT_USAGE;
            break;
        }
        rc = heur_one(s, width, goal, quiet, &parts[n]);
        if (!rc)
            n++;
    }
    if (!rc && n == 0) {
        fprintf(stderr, "heurnet: heuristic '%s': nothing after 'max:'\n", spec);
        rc = CLI_EXIT_USAGE;
    }
    if (rc) {
        for (int i = 0; i < n; i++)
            srch_np_heur_free(parts[i]);
        return rc;
    }
    int st;
    *out = srch_np_heur_max_new(parts, n, &st);
    return *out ? 0 : cli_fail("heuristic");
}
