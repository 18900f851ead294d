/* The n-puzzle domain's pattern-database names mean search/npuzzle/'s
 * tables: "pdb:8" (3x3) and "pdb:5-5-5" (4x4) give the np path's values on
 * thousands of random boards of both goal layouts; "pdb:6-6-3", "pdb:7-8"
 * and "pdb:6-6-6-6" (too large to build here in seconds, compared in
 * test_dg_pdb_kf_slow.c) are checked by their tile groups; explicit tile
 * groups name the same tables; the cache keeps one file per group named by
 * its cells, so tables of other groups are never read for these. Named
 * test_dg_ to link datagen's builder (dg_pdb_build) beside the domains. */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "pdb_kf.h"

static dom *open_ok(const char *spec)
{
    int st;
    dom *d = dom_open(spec, &st);
    CHECK_MSG(d && st == 0, "%s: %s", spec, hn_errmsg());
    return d;
}

/* ---- tile groups of the large partitions, from the debug log ---- */

static char groups_logged[512];
static void keep_groups(int level, const char *msg, void *user)
{
    (void)user;
    const char *at = strstr(msg, "tile groups ");
    if (level == HN_LOG_DEBUG && at)
        snprintf(groups_logged, sizeof groups_logged, "%s", at + strlen("tile groups "));
}

/* The groups the np path uses for `partition` on this layout, in the
 * domain's log syntax: blank-last boards are looked up after the 180-degree
 * relabelling t -> N - t, so their groups hold tiles N - t; each group is
 * listed by goal cell (ascending tile numbers on both layouts). */
static void np_groups(const char *partition, int width, int goal, char *buf, size_t cap)
{
    srch_np_partition part;
    int n = width * width, used = 0;
    CHECK(srch_np_partition_get(partition, width, &part) == 0);
    buf[0] = '\0';
    for (int i = 0; i < part.npatterns; i++) {
        int tiles[SRCH_NP_MAX_CELLS], k = part.size[i];
        for (int j = 0; j < k; j++)
            tiles[j] = goal ? n - part.tiles[i][j] : part.tiles[i][j];
        for (int a = 1; a < k; a++)
            for (int b = a; b > 0 && tiles[b - 1] > tiles[b]; b--) {
                int x = tiles[b];
                tiles[b] = tiles[b - 1];
                tiles[b - 1] = x;
            }
        for (int j = 0; j < k; j++)
            used += snprintf(buf + used, cap - (size_t)used, "%s%d",
                             j   ? "."
                             : i ? "/"
                                 : "",
                             tiles[j]);
    }
}

/* Opening stops at the first build (the stop flag is set), after the
 * groups are logged. */
static void test_large_groups(void)
{
    static const struct {
        const char *name;
        int width;
    } large[] = {{"7-8", 4}, {"6-6-6-6", 5}, {"6-6-3", 4}, {"8", 3}};
    hn_log_set(keep_groups, NULL);
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++)
        for (int goal = 0; goal < 2; goal++) {
            char spec[64], name[64], want[512];
            snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", large[i].width, large[i].width,
                     goal ? ":blank-last" : "");
            snprintf(name, sizeof name, "pdb:%s", large[i].name);
            np_groups(large[i].name, large[i].width, goal, want, sizeof want);
            dom *d = open_ok(spec);
            groups_logged[0] = '\0';
            hn_stop_set(1);
            int st = 0;
            dom_heur *h = d ? dom_heur_open(d, name, &st) : NULL;
            hn_stop_set(0);
            CHECK_MSG(!h && strstr(hn_errmsg(), "stopped"), "%s %s: %s", spec, name, hn_errmsg());
            CHECK_MSG(!strcmp(groups_logged, want), "%s %s: groups %s, np %s", spec, name,
                      groups_logged, want);
            dom_heur_free(h);
            dom_free(d);
        }
    hn_log_set(NULL, NULL);
}

/* ---- explicit groups, sizes, errors ---- */

/* Heuristics a and b agree on `boards` random boards of spec; returns the
 * sum of a's values (0 when either does not open). */
static long agree(const char *spec, const char *a, const char *b, int boards, hn_rng *rng)
{
    int st;
    dom *d = open_ok(spec);
    dom_heur *ha = d ? dom_heur_open(d, a, &st) : NULL, *hb = d ? dom_heur_open(d, b, &st) : NULL;
    CHECK_MSG(ha && hb, "%s %s / %s: %s", spec, a, b, hn_errmsg());
    size_t off = 0;
    long sum = 0;
    for (int k = 0; ha && hb && k < boards; k++) {
        uint8_t s[DOM_MAX_STATE_BYTES];
        dom_random_state(d, s, rng);
        int va = dom_heur_eval(ha, s);
        off += va != dom_heur_eval(hb, s);
        sum += va;
    }
    CHECK_MSG(off == 0, "%s: %s and %s differ on %zu boards", spec, a, b, off);
    dom_heur_free(ha);
    dom_heur_free(hb);
    dom_free(d);
    return sum;
}

static void test_explicit(hn_rng *rng)
{
    /* the named groups restated, in any order; on blank-last the named
     * ones are turned by 180 degrees, so the restatement names tiles N - t */
    static const char *const same[][3] = {
        {"npuzzle:4x4", "pdb:5-5-5", "pdb:15.14.13.11.10/3.2.1.7.6/12.9.8.5.4"},
        {"npuzzle:4x4:blank-last", "pdb:5-5-5", "pdb:15.14.13.10.9/12.11.8.7.4/6.5.3.2.1"},
        {"npuzzle:4x4", "pdb:5-5-5:noreflect", "pdb:1.2.3.6.7/4.5.8.9.12/10.11.13.14.15:noreflect"},
        {"npuzzle:3x3:blank-last", "pdb:8", "pdb:8.7.6.5.4.3.2.1"},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        CHECK(agree(same[i][0], same[i][1], same[i][2], 1000, rng) > 0);
    /* tile groups on a board without published ones: the order within a
     * group does not matter, and the sum is at least Manhattan distance */
    long groups = agree("npuzzle:3x4", "pdb:1.2.3.4.5.6/7.8.9.10.11", "pdb:3.4.5.1.2.6/11.7.8.9.10",
                        500, rng);
    long md = agree("npuzzle:3x4", "manhattan", "manhattan", 500, rng);
    CHECK_MSG(groups > md, "3x4 groups %ld, manhattan %ld", groups, md);
    dom *d = open_ok("npuzzle:5x5");
    static const char *const bad[][2] = {
        {"pdb:1.2.3/4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23.24", "at most 8"},
        {"pdb:1.2.3.4.5.6.7.8/9.10.11.12.13.14.15.16/17.18.19.20.21.22.23", "tile 24 is in no"},
        {"pdb:1.2.3.4.5.6.7.8/9.10.11.12.13.14.15.16/17.18.19.20.21.22.23.1", "in two groups"},
        {"pdb:1.2.3.4.5.6.7.8/9.10.11.12.13.14.15.16/17.18.19.20.21.22.23.25", "tiles 1..24"},
        {"pdb:1.2.3.4.5.6.7.8//9.10.11.12.13.14.15.16/17.18.19.20.21.22.23.24", "tiles 1..24"},
        {"pdb:1.2.3.4.5.6.7.8/9.10.11.12.13.14.15.16/17.18.19.20.21.22.23.24/", "tiles 1..24"},
        {"pdb:1.2.3.4.5.6.7.8/9.10.11.12.13.14.15.16/17.18.19.20.21.22.23+24", "'+'"},
        {"pdb:7-8", "hold 15 tiles"},
        {"pdb:0.1.2.3.4.5.6.7/9.10.11.12.13.14.15.16/17.18.19.20.21.22.23.24", "tiles 1..24"},
    };
    for (size_t i = 0; d && i < sizeof bad / sizeof bad[0]; i++) {
        int st = 0;
        dom_heur *h = dom_heur_open(d, bad[i][0], &st);
        CHECK_MSG(!h && st == HN_ERR_ARG && strstr(hn_errmsg(), bad[i][1]), "%s: %s", bad[i][0],
                  hn_errmsg());
        dom_heur_free(h);
    }
    dom_free(d);
}

/* ---- the cache: one file per group, named by its goal cells in the
 * blank-first layout, which blank-last boards read turned ---- */

static void test_cache_names(const char *dir)
{
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/names", dir);
    CHECK(mkdir(sub, 0755) == 0 && setenv("HEURNET_DATA", sub, 1) == 0);
    uint8_t s[DOM_MAX_STATE_BYTES];
    int st;
    dom *d = open_ok("npuzzle:4x4:blank-last");
    dom_heur *h = d ? dom_heur_open(d, "pdb:5-5-5", &st) : NULL;
    if (h) {
        dom_goal(d, s);
        CHECK(dom_heur_eval(h, s) == 0);
    }
    dom_heur_free(h);
    dom_free(d);
    /* tiles 15.14.13.10.9, 12.11.8.7.4 and 6.5.3.2.1 have goal cells that
     * the 180-degree turn takes to these, the blank-first 5-5-5's files */
    static const char *const want[] = {
        "npuzzle-4x4-blank0-cells-1.2.3.6.7.pdb",
        "npuzzle-4x4-blank0-cells-4.5.8.9.12.pdb",
        "npuzzle-4x4-blank0-cells-10.11.13.14.15.pdb",
    };
    int found[3] = {0}, files = 0;
    DIR *dp = opendir(sub);
    CHECK(dp);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        files += strstr(e->d_name, ".pdb") != NULL;
        for (int i = 0; i < 3; i++)
            found[i] += !strcmp(e->d_name, want[i]);
    }
    if (dp)
        closedir(dp);
    CHECK_MSG(files == 3 && found[0] && found[1] && found[2], "%d files", files);
    CHECK(setenv("HEURNET_DATA", dir, 1) == 0);
}

int main(void)
{
    char dir[] = "/tmp/hn-test-kf-XXXXXX";
    if (kf_cache_begin(dir))
        return 1;
    hn_rng *rng = hn_rng_new(62);
    test_large_groups();
    static const char *const named[][2] = {{"8", "3"}, {"5-5-5", "4"}};
    kf_compare_named(named, 2, 2000, NULL, rng);
    test_explicit(rng);
    test_cache_names(dir);
    hn_rng_free(rng);
    kf_cache_end(dir);
    return CHECK_DONE();
}
