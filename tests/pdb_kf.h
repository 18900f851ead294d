/* Shared by test_dg_pdb_kf.c and test_dg_pdb_kf_slow.c: a named n-puzzle
 * partition on the domain path ("pdb:6-6-3" of npuzzle:4x4) against the
 * same name on search/npuzzle/ (srch_np_partition_get, dg_pdb_build,
 * srch_np_heur_pdb_new), on random and near-goal boards of both goal
 * layouts, with and without the mirrored lookup. */
#ifndef HN_TEST_PDB_KF_H
#define HN_TEST_PDB_KF_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/hn.h"
#include "datagen/dg.h"
#include "domains/dom.h"
#include "search/srch.h"

/* Seconds of the last kf_compare: the np build, and the domain's first
 * open per layout (a build unless the cache holds the tables). */
static double kf_seconds_np, kf_seconds_dom[2];

/* Values of the domain heuristic `name` on npuzzle:WxW[:blank-last] equal
 * those of the np heuristic h on `boards` boards (every third one a short
 * walk from the goal, where tables are exact more often). */
static double kf_compare_goal(const char *name, int width, int goal, srch_np_heur *h, int boards,
                              hn_rng *rng)
{
    char spec[64];
    snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", width, width, goal ? ":blank-last" : "");
    int st;
    dom *d = dom_open(spec, &st);
    double t0 = hn_now();
    dom_heur *dh = d ? dom_heur_open(d, name, &st) : NULL;
    double opened = hn_now() - t0;
    CHECK_MSG(dh, "%s %s: %s", spec, name, hn_errmsg());
    size_t off = 0, positive = 0;
    for (int i = 0; dh && i < boards; i++) {
        uint8_t s[DOM_MAX_STATE_BYTES];
        if (i % 3) {
            dom_random_state(d, s, rng);
        } else {
            dom_goal(d, s);
            dom_walk(d, s, 1 + i % 50, rng);
        }
        srch_np_board b;
        CHECK(srch_np_board_set(&b, width, s) == 0);
        int got = dom_heur_eval(dh, s), want = srch_np_heur_eval(h, &b);
        if (got != want && off++ < 5)
            fprintf(stderr, "%s %s board %d: domain %d, np %d\n", spec, name, i, got, want);
        positive += want > 0;
    }
    CHECK_MSG(off == 0, "%s %s: %zu of %d boards differ", spec, name, off, boards);
    CHECK(!dh || positive > (size_t)boards / 2); /* the boards are not all goals */
    dom_heur_free(dh);
    dom_free(d);
    return opened;
}

/* Build the np tables of `partition` once, then compare both layouts,
 * with reflection ("pdb:P") and without ("pdb:P:noreflect"). */
static void kf_compare(const char *partition, int width, int boards, hn_rng *rng)
{
    srch_np_partition part;
    srch_np_pdb *pdb = NULL;
    CHECK(srch_np_partition_get(partition, width, &part) == 0);
    double t0 = hn_now();
    CHECK_MSG(dg_pdb_build(&part, 2, NULL, NULL, &pdb) == 0, "%s", hn_errmsg());
    kf_seconds_np = hn_now() - t0;
    for (int goal = 0; pdb && goal < 2; goal++)
        for (int reflect = 0; reflect < 2; reflect++) {
            int st;
            srch_np_heur *h = srch_np_heur_pdb_new(pdb, goal, reflect, 0, &st);
            CHECK(h);
            char name[64];
            snprintf(name, sizeof name, "pdb:%s%s", partition, reflect ? "" : ":noreflect");
            double t = h ? kf_compare_goal(name, width, goal, h, boards, rng) : 0;
            if (!reflect)
                kf_seconds_dom[goal] = t;
            srch_np_heur_free(h);
        }
    srch_np_pdb_free(pdb);
}

/* kf_compare over named[i] = {partition, width}, each with its build
 * times printed; only (NULL: every one) picks one partition by name. */
static void kf_compare_named(const char *const named[][2], int n, int boards, const char *only,
                             hn_rng *rng)
{
    for (int i = 0; i < n; i++) {
        if (only && strcmp(only, named[i][0]))
            continue;
        double t0 = hn_now();
        kf_compare(named[i][0], atoi(named[i][1]), boards, rng);
        printf("pdb:%s: np build %.2f s, domain build %.2f s (blank-last %.2f s), all %.2f s\n",
               named[i][0], kf_seconds_np, kf_seconds_dom[0], kf_seconds_dom[1], hn_now() - t0);
        fflush(stdout);
    }
}

/* A private cache folder for the tables (HEURNET_DATA), made from the
 * template dir ("/tmp/...-XXXXXX") and removed by kf_cache_end. */
static int kf_cache_begin(char *dir)
{
    return mkdtemp(dir) && setenv("HEURNET_DATA", dir, 1) == 0 ? 0 : -1;
}

static void kf_cache_end(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

#endif
