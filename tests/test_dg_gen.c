/* datagen generator: every 8-puzzle state by BFS (known depth counts), labels
 * equal to an independent computation, same content for any thread count,
 * resume after an interruption equals an uninterrupted run, shards merge to
 * the unsharded file, path states, Korf instances with known optima. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datagen/dg.h"
#include "tests/check.h"
#include "common/hn_h5.h"

/* Number of 8-puzzle states at each distance from a goal with the blank in
 * a corner (both layouts here): 181,440 in all, 2 at depth 31. */
static const uint64_t depth_counts[32] = {1,     2,     4,     8,     16,    20,    39,    62,
                                          116,   152,   286,   396,   748,   1024,  1893,  2512,
                                          4485,  5638,  9529,  10878, 16993, 17110, 23952, 20224,
                                          24047, 15578, 14560, 6274,  3910,  760,   221,   2};

static dg_dataset *all_states; /* --all for blank-first: the reference */

static dg_dataset *load(const char *path)
{
    int rc;
    dg_dataset *d = dg_dataset_load(path, &rc);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    return d;
}

/* Same rows and same per-row data (the attributes may differ in progress). */
static int same_content(const dg_dataset *a, const dg_dataset *b)
{
    if (!a || !b || a->rows != b->rows || a->info.cells != b->info.cells)
        return 0;
    size_t n = a->rows;
    return !memcmp(a->boards, b->boards, n * (size_t)a->info.cells) &&
           !memcmp(a->cost, b->cost, n * sizeof *a->cost) &&
           !memcmp(a->expanded, b->expanded, n * sizeof *a->expanded) &&
           !memcmp(a->source, b->source, n);
}

static void test_all(void)
{
    dg_gen_opts o = {.width = 3,
                     .goal = SRCH_NP_GOAL_BLANK_FIRST,
                     .threads = 1,
                     .shard_count = 1,
                     .overwrite = 1};
    dg_gen_stats st;
    CHECK_MSG(dg_gen_all("t_gen_all.h5", &o, &st) == HN_OK, "%s", hn_errmsg());
    all_states = load("t_gen_all.h5");
    if (!all_states)
        return;
    CHECK(all_states->rows == 181440 && st.complete);
    uint64_t hist[40];
    unsigned mx;
    CHECK(dg_ds_histogram("t_gen_all.h5", hist, 40, NULL, &mx) == HN_OK);
    CHECK(mx == 31);
    for (int c = 0; c < 32; c++)
        CHECK_MSG(hist[c] == depth_counts[c], "depth %d: %llu states", c,
                  (unsigned long long)hist[c]);
    /* the blank-last goal is a corner too: same histogram */
    o.goal = SRCH_NP_GOAL_BLANK_LAST;
    CHECK(dg_gen_all("t_gen_all_last.h5", &o, &st) == HN_OK);
    CHECK(dg_ds_histogram("t_gen_all_last.h5", hist, 40, NULL, &mx) == HN_OK);
    CHECK(mx == 31 && hist[31] == 2 && hist[30] == 221);
    /* interrupted --all continues to the same content */
    o.goal = SRCH_NP_GOAL_BLANK_FIRST;
    o.stop_after = 70000;
    CHECK(dg_gen_all("t_gen_all_r.h5", &o, &st) == HN_ERR_INTERRUPTED);
    o.stop_after = 0;
    o.overwrite = 0;
    CHECK(dg_gen_all("t_gen_all_r.h5", &o, &st) == HN_OK && st.resumed_from == 70000);
    dg_dataset *r = load("t_gen_all_r.h5");
    CHECK(same_content(r, all_states));
    dg_dataset_free(r);
}

/* Exact distance of an 8-puzzle board (blank-first) from the --all file. */
static int srch_np_bfs_distance(const uint8_t *tiles)
{
    srch_np_board b;
    srch_np_board_set(&b, 3, tiles);
    uint64_t want = srch_np_board_rank(&b);
    /* rows are in rank order: binary search */
    size_t lo = 0, hi = all_states->rows;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        srch_np_board m;
        srch_np_board_set(&m, 3, all_states->boards + mid * 9);
        uint64_t r = srch_np_board_rank(&m);
        if (r == want)
            return all_states->cost[mid];
        if (r < want)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static dg_gen_opts opts8(const srch_np_heur *h, int threads)
{
    return (dg_gen_opts){.width = 3,
                         .goal = SRCH_NP_GOAL_BLANK_FIRST,
                         .heur = h,
                         .heur_name = "manhattan",
                         .count = 3000,
                         .seed = 77,
                         .threads = threads,
                         .path_states = 1,
                         .shard_count = 1,
                         .overwrite = 1};
}

static void test_threads_and_labels(const srch_np_heur *h)
{
    dg_gen_opts o = opts8(h, 1);
    dg_gen_stats st;
    CHECK_MSG(dg_gen_run("t_gen_t1.h5", &o, &st) == HN_OK, "%s", hn_errmsg());
    CHECK(st.complete && st.boards == 3000);
    o.threads = 2;
    CHECK(dg_gen_run("t_gen_t2.h5", &o, &st) == HN_OK);
    o.threads = 3;
    CHECK(dg_gen_run("t_gen_t3.h5", &o, &st) == HN_OK);
    dg_dataset *a = load("t_gen_t1.h5"), *b = load("t_gen_t2.h5"), *c = load("t_gen_t3.h5");
    CHECK(same_content(a, b) && same_content(a, c));
    if (a && all_states) {
        int bad = 0, paths = 0;
        uint64_t sampled = 0;
        for (size_t r = 0; r < a->rows; r++) {
            if (srch_np_bfs_distance(a->boards + r * 9) != a->cost[r])
                bad++;
            if (a->source[r] == DG_SOURCE_PATH) {
                paths++;
                CHECK(r > 0 && a->cost[r] + 1 == a->cost[r - 1]);
            } else {
                sampled++;
                CHECK(a->source[r] == DG_SOURCE_RANDOM);
            }
        }
        CHECK_MSG(bad == 0, "%d labels differ from BFS", bad);
        CHECK(sampled == 3000 && paths > 3000 * 15);
        CHECK(!strcmp(a->info.source, "random+path") && a->info.path_states == 1);
    }
    /* another seed gives other boards */
    o.seed = 78;
    o.path_states = 0;
    CHECK(dg_gen_run("t_gen_s78.h5", &o, &st) == HN_OK);
    dg_dataset *d = load("t_gen_s78.h5");
    CHECK(d && a && memcmp(d->boards, a->boards, 9 * 100) != 0);
    dg_dataset_free(a);
    dg_dataset_free(b);
    dg_dataset_free(c);
    dg_dataset_free(d);
}

static void test_resume(const srch_np_heur *h)
{
    dg_gen_opts o = opts8(h, 2);
    dg_gen_stats st;
    o.stop_after = 1100;
    CHECK(dg_gen_run("t_gen_r.h5", &o, &st) == HN_ERR_INTERRUPTED);
    dg_ds_info info;
    CHECK(dg_ds_info_read("t_gen_r.h5", &info) == HN_OK);
    CHECK(info.done == 1100 && !info.complete);
    /* other settings are refused, the file is kept */
    dg_gen_opts bad = o;
    bad.overwrite = 0;
    bad.seed = 5;
    CHECK(dg_gen_run("t_gen_r.h5", &bad, &st) == HN_ERR_ARG && strstr(hn_errmsg(), "seed"));
    /* a requested stop (Ctrl-C) before the first board keeps the rows */
    o.overwrite = 0;
    o.stop_after = 0;
    hn_stop_set(1);
    CHECK(dg_gen_run("t_gen_r.h5", &o, &st) == HN_ERR_INTERRUPTED);
    hn_stop_set(0);
    CHECK(dg_ds_info_read("t_gen_r.h5", &info) == HN_OK && info.done == 1100);
    o.stop_after = 900;
    CHECK(dg_gen_run("t_gen_r.h5", &o, &st) == HN_ERR_INTERRUPTED && st.resumed_from == 1100);
    o.stop_after = 0;
    o.threads = 1;
    CHECK(dg_gen_run("t_gen_r.h5", &o, &st) == HN_OK && st.resumed_from == 2000 && st.complete);
    dg_dataset *a = load("t_gen_t1.h5"), *r = load("t_gen_r.h5");
    CHECK(same_content(a, r));
    CHECK(r && r->info.complete && r->info.done == 3000);
    dg_dataset_free(r);
    /* a larger --count extends a finished file to what a longer run gives */
    o.count = 3500;
    CHECK(dg_gen_run("t_gen_r.h5", &o, &st) == HN_OK && st.boards == 500);
    o.overwrite = 1;
    CHECK(dg_gen_run("t_gen_long.h5", &o, &st) == HN_OK);
    dg_dataset *x = load("t_gen_r.h5"), *y = load("t_gen_long.h5");
    CHECK(same_content(x, y) && a && x && !memcmp(x->boards, a->boards, a->rows * 9));
    dg_dataset_free(a);
    dg_dataset_free(x);
    dg_dataset_free(y);
}

static void test_shards(const srch_np_heur *h)
{
    const char *names[3] = {"t_gen_sh1.h5", "t_gen_sh2.h5", "t_gen_sh0.h5"};
    dg_gen_stats st;
    for (int i = 0; i < 3; i++) {
        dg_gen_opts o = opts8(h, 2);
        o.shard_index = (i + 1) % 3; /* names[i] is shard (i+1)%3 */
        o.shard_count = 3;
        CHECK(dg_gen_run(names[i], &o, &st) == HN_OK);
    }
    CHECK_MSG(dg_merge("t_gen_merged.h5", names, 3, 0) == HN_OK, "%s", hn_errmsg());
    CHECK(dg_merge("t_gen_virtual.h5", names, 3, 1) == HN_OK);
    dg_dataset *a = load("t_gen_t1.h5"), *m = load("t_gen_merged.h5"),
               *v = load("t_gen_virtual.h5"), *s0 = load("t_gen_sh0.h5");
    CHECK(same_content(a, m) && same_content(a, v));
    CHECK(s0 && s0->info.first_index == 0 && s0->info.count == 1000 && s0->rows < a->rows);
    dg_dataset_free(a);
    dg_dataset_free(m);
    dg_dataset_free(v);
    dg_dataset_free(s0);
}

/* 15-puzzle random walks labelled by IDA* + Manhattan agree with A* + LC. */
static void test_15_walks(void)
{
    int rc;
    srch_np_heur *md = srch_np_heur_manhattan_new(4, SRCH_NP_GOAL_BLANK_LAST, &rc);
    srch_np_heur *lc = srch_np_heur_lc_new(4, SRCH_NP_GOAL_BLANK_LAST, &rc);
    CHECK(md && lc);
    if (!md || !lc)
        return;
    dg_gen_opts o = {.width = 4,
                     .goal = SRCH_NP_GOAL_BLANK_LAST,
                     .heur = md,
                     .heur_name = "manhattan",
                     .count = 40,
                     .seed = 3,
                     .threads = 2,
                     .walk_length = 40,
                     .shard_count = 1,
                     .overwrite = 1};
    CHECK(dg_gen_run("t_gen_w15.h5", &o, NULL) == HN_OK);
    dg_dataset *d = load("t_gen_w15.h5");
    for (size_t r = 0; d && r < d->rows; r++) {
        srch_np_board b;
        srch_np_board_set(&b, 4, d->boards + r * 16);
        srch_np_result res;
        srch_limits lim = {0};
        CHECK(srch_np_astar(&b, lc, &lim, &res) == HN_OK);
        CHECK_MSG(res.length == d->cost[r], "row %zu: A* %d, file %u", r, res.length, d->cost[r]);
        CHECK(d->cost[r] <= 40 && d->cost[r] % 2 == 0 && d->source[r] == DG_SOURCE_WALK);
    }
    CHECK(d && !strcmp(d->info.source, "random-walk") && d->info.walk_length == 40);
    dg_dataset_free(d);
    /* with path states the sampled rows still say random walk */
    o.path_states = 1;
    o.count = 5;
    CHECK(dg_gen_run("t_gen_w15p.h5", &o, NULL) == HN_OK);
    d = load("t_gen_w15p.h5");
    CHECK(d && d->source[0] == DG_SOURCE_WALK && d->rows > 5 && d->source[1] == DG_SOURCE_PATH);
    CHECK(d && !strcmp(d->info.source, "random-walk+path"));
    dg_dataset_free(d);
    srch_np_heur_free(md);
    srch_np_heur_free(lc);
}

/* Random 15-puzzle boards labelled by IDA* with the reflected 5-5-5 PDB
 * agree with A* using the plain (unreflected) lookup, on the easier half. */
static void check_random15(const srch_np_heur *h, const srch_np_heur *plain)
{
    dg_gen_opts o = {.width = 4,
                     .goal = SRCH_NP_GOAL_BLANK_FIRST,
                     .heur = h,
                     .heur_name = "pdb:5-5-5",
                     .count = 8,
                     .seed = 4,
                     .threads = 2,
                     .shard_count = 1,
                     .overwrite = 1};
    CHECK(dg_gen_run("t_gen_r15.h5", &o, NULL) == HN_OK);
    dg_dataset *d = load("t_gen_r15.h5");
    int checked = 0;
    for (size_t r = 0; d && r < d->rows; r++) {
        if (d->expanded[r] > 300000)
            continue;
        srch_np_board b;
        srch_np_board_set(&b, 4, d->boards + r * 16);
        CHECK(srch_np_board_solvable(&b, SRCH_NP_GOAL_BLANK_FIRST));
        srch_np_result res;
        srch_limits lim = {0};
        CHECK(srch_np_astar(&b, plain, &lim, &res) == HN_OK && res.length == d->cost[r]);
        checked++;
    }
    CHECK(checked >= 3);
    dg_dataset_free(d);
}

/* --from: Korf instances labelled with the reflected 5-5-5 PDB get their
 * published optimal lengths; a wrong "optimal" in the file is reported. */
static void check_korf(const srch_np_heur *h)
{
    srch_np_instance *all = NULL;
    size_t n = 0;
    CHECK(srch_np_parse_file(HN_TEST_DATA "/npuzzle/korf100.txt", 4, SRCH_NP_GOAL_BLANK_FIRST, NULL,
                             NULL, &all, &n) == HN_OK &&
          n == 100);
    if (!all)
        return;
    /* quick ones for 5-5-5: Korf #2, #5, #7 (0-based 1, 4, 6) */
    srch_np_instance some[3] = {all[1], all[4], all[6]};
    dg_gen_opts o = {.width = 4,
                     .goal = SRCH_NP_GOAL_BLANK_FIRST,
                     .heur = h,
                     .heur_name = "pdb:5-5-5",
                     .threads = 2,
                     .instances = some,
                     .ninstances = 3,
                     .from = "korf100.txt",
                     .shard_count = 1,
                     .overwrite = 1};
    CHECK_MSG(dg_gen_run("t_gen_korf.h5", &o, NULL) == HN_OK, "%s", hn_errmsg());
    dg_dataset *d = load("t_gen_korf.h5");
    for (int i = 0; d && i < 3; i++) {
        CHECK(d->cost[i] == some[i].optimal);
        CHECK(!memcmp(d->boards + 16 * i, some[i].board.tile, 16) &&
              d->source[i] == DG_SOURCE_FILE);
    }
    CHECK(d && d->rows == 3 && !strcmp(d->info.source, "file") && d->info.seed == 0);
    dg_dataset_free(d);
    some[2].optimal += 2;
    CHECK(dg_gen_run("t_gen_korf2.h5", &o, NULL) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "korf100.txt:") && strstr(hn_errmsg(), "optimal"));
    dg_ds_info info;
    CHECK(dg_ds_info_read("t_gen_korf2.h5", &info) == HN_OK && info.done == 2 && !info.complete);
    free(all);
}

static void test_15_pdb(void)
{
    srch_np_partition part;
    srch_np_pdb *pdb = NULL;
    CHECK(srch_np_partition_get("5-5-5", 4, &part) == HN_OK);
    CHECK(dg_pdb_build(&part, 2, NULL, NULL, &pdb) == HN_OK);
    if (!pdb)
        return;
    srch_np_heur *h = srch_np_heur_pdb_new(pdb, SRCH_NP_GOAL_BLANK_FIRST, 1, 0, NULL);
    srch_np_heur *plain = srch_np_heur_pdb_new(pdb, SRCH_NP_GOAL_BLANK_FIRST, 0, 0, NULL);
    CHECK(h && plain);
    if (h && plain) {
        check_random15(h, plain);
        check_korf(h);
    }
    srch_np_heur_free(h);
    srch_np_heur_free(plain);
    srch_np_pdb_free(pdb);
}

int main(void)
{
    hn_h5_quiet();
    test_all();
    int rc;
    srch_np_heur *h = srch_np_heur_manhattan_new(3, SRCH_NP_GOAL_BLANK_FIRST, &rc);
    CHECK(h != NULL);
    if (h) {
        test_threads_and_labels(h);
        test_resume(h);
        test_shards(h);
    }
    srch_np_heur_free(h);
    test_15_walks();
    test_15_pdb();
    dg_dataset_free(all_states);
    return CHECK_DONE();
}
