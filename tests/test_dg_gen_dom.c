/* The generator on any domain: the same file for any thread count; shards
 * that merge (copied or virtual) to the unsharded file and continue after a
 * stop; merges refused for a missing, unfinished or foreign shard; --all
 * (every state of npuzzle:2x4 by breadth-first search, labels equal to
 * IDA*'s; the 8-puzzle's known count of states at each depth for both goal
 * layouts); --from (labels equal to IDA*'s, the file's CRC recorded; Korf's
 * 15-puzzle instances get their published optima); files written before
 * sharding read as unsharded; the cube's labels by IDA* on its small fst
 * table equal breadth-first distances on short scrambles. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hn_h5.h"
#include "datagen/dg.h"
#include "datagen/dom_ds_priv.h"
#include "search/generic/srch_dom.h"
#include "tests/check.h"
#include "tests/cube3_ball.h"

/* The rows of a domain dataset as read by plain HDF5 calls. */
struct rows {
    uint64_t n;
    size_t sb;
    uint8_t *states, *source;
    uint16_t *cost, *walk;
};

static int read_all(hid_t f, const char *name, hid_t type, void *buf)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    int ok = d >= 0 && H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
    if (d >= 0)
        H5Dclose(d);
    return ok;
}

static struct rows load(const char *path)
{
    struct rows r = {0};
    dg_dom_info in;
    if (dg_dom_info_read(path, &in) != HN_OK)
        return r;
    r.n = in.committed;
    r.sb = (size_t)in.state_bytes;
    r.states = malloc(r.n * r.sb + 1);
    r.source = malloc(r.n + 1);
    r.cost = malloc(r.n * 2 + 2);
    r.walk = malloc(r.n * 2 + 2);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    int ok = f >= 0 && read_all(f, "states", H5T_NATIVE_UINT8, r.states) &&
             read_all(f, "source", H5T_NATIVE_UINT8, r.source) &&
             read_all(f, "cost", H5T_NATIVE_UINT16, r.cost) &&
             read_all(f, "walk", H5T_NATIVE_UINT16, r.walk);
    if (f >= 0)
        H5Fclose(f);
    if (!ok)
        r.n = 0;
    return r;
}

static void rows_free(struct rows *r)
{
    free(r->states);
    free(r->source);
    free(r->cost);
    free(r->walk);
}

static int same(const struct rows *a, const struct rows *b)
{
    return a->n && a->n == b->n && a->sb == b->sb && !memcmp(a->states, b->states, a->n * a->sb) &&
           !memcmp(a->cost, b->cost, a->n * 2) && !memcmp(a->walk, b->walk, a->n * 2) &&
           !memcmp(a->source, b->source, a->n);
}

static dg_dom_gen_opts walks(const dom *d, int threads)
{
    return (dg_dom_gen_opts){.d = d,
                             .heur_name = "lc",
                             .count = 700,
                             .seed = 9,
                             .walk_min = 0,
                             .walk_max = 16,
                             .threads = threads,
                             .overwrite = 1};
}

/* IDA* with lc gives every row's cost. */
static void check_labels(const dom *d, const struct rows *r, uint64_t step)
{
    int st;
    srch_dom_heur *h = srch_dom_heur_adm(d, "lc", &st);
    srch_dom_result *res = malloc(sizeof *res);
    CHECK(h && res);
    for (uint64_t i = 0; h && res && i < r->n; i += step) {
        srch_limits lim = {0};
        CHECK(srch_dom_idastar(d, r->states + i * r->sb, h, &lim, res) == HN_OK);
        CHECK_MSG(res->cost == r->cost[i], "row %llu: IDA* %lld, file %u", (unsigned long long)i,
                  (long long)res->cost, r->cost[i]);
    }
    free(res);
    srch_dom_heur_free(h);
}

static void test_shards(const dom *d)
{
    dg_dom_gen_opts o = walks(d, 1);
    CHECK_MSG(dg_dom_gen_run("t_gd_1.h5", &o, NULL) == HN_OK, "%s", hn_errmsg());
    o.threads = 2;
    CHECK(dg_dom_gen_run("t_gd_2.h5", &o, NULL) == HN_OK);
    struct rows one = load("t_gd_1.h5"), two = load("t_gd_2.h5");
    CHECK(one.n == 700 && same(&one, &two));
    check_labels(d, &one, 7);
    const char *names[3] = {"t_gd_s2.h5", "t_gd_s0.h5", "t_gd_s1.h5"};
    for (int i = 0; i < 3; i++) {
        o.shard_index = i == 0 ? 2 : i - 1;
        o.shard_count = 3;
        CHECK(dg_dom_gen_run(names[i], &o, NULL) == HN_OK);
    }
    dg_dom_info in;
    CHECK(dg_dom_info_read("t_gd_s1.h5", &in) == HN_OK && in.shard_index == 1 &&
          in.shard_count == 3 && in.first_index == 233 && in.count == 233 && in.total_count == 700);
    /* a stopped shard continues to the same file */
    o.shard_index = 1;
    o.stop_after = 50;
    CHECK(dg_dom_gen_run("t_gd_r1.h5", &o, NULL) == HN_ERR_INTERRUPTED);
    o.stop_after = 0;
    o.overwrite = 0;
    dg_dom_gen_stats st;
    CHECK(dg_dom_gen_run("t_gd_r1.h5", &o, &st) == HN_OK && st.resumed_from == 50);
    struct rows r1 = load("t_gd_r1.h5"), s1 = load("t_gd_s1.h5");
    CHECK(same(&r1, &s1));
    for (int v = 0; v < 2; v++) {
        const char *out = v ? "t_gd_v.h5" : "t_gd_m.h5";
        CHECK_MSG(dg_dom_merge(out, names, 3, v) == HN_OK, "%s", hn_errmsg());
        struct rows m = load(out);
        CHECK_MSG(same(&m, &one), "merge virtual=%d differs from the unsharded file", v);
        CHECK(dg_dom_info_read(out, &in) == HN_OK && in.merged == 3 && in.is_virtual == v &&
              in.shard_count == 1 && in.complete);
        rows_free(&m);
    }
    CHECK(dg_dom_merge("t_gd_bad.h5", names, 2, 0) == HN_ERR_ARG && strstr(hn_errmsg(), "missing"));
    o.seed = 10;
    o.shard_index = 0;
    o.overwrite = 1;
    CHECK(dg_dom_gen_run("t_gd_other.h5", &o, NULL) == HN_OK);
    const char *mixed[3] = {"t_gd_other.h5", "t_gd_s1.h5", "t_gd_s2.h5"};
    CHECK(dg_dom_merge("t_gd_bad.h5", mixed, 3, 0) == HN_ERR_ARG &&
          strstr(hn_errmsg(), "different runs"));
    o.stop_after = 5;
    CHECK(dg_dom_gen_run("t_gd_part.h5", &o, NULL) == HN_ERR_INTERRUPTED);
    const char *unfinished[3] = {"t_gd_part.h5.part", "t_gd_s1.h5", "t_gd_s2.h5"};
    CHECK(dg_dom_merge("t_gd_bad.h5", unfinished, 3, 0) == HN_ERR_ARG &&
          strstr(hn_errmsg(), "unfinished"));
    CHECK(access("t_gd_bad.h5", F_OK) != 0);
    rows_free(&one);
    rows_free(&two);
    rows_free(&r1);
    rows_free(&s1);
}

/* --all on npuzzle:2x4: 20,160 distinct states, the goal first, distances
 * up to 36 that IDA* confirms; two shards merge to the whole. */
static void test_all(const dom *d)
{
    dg_dom_gen_opts o = {.d = d, .all = 1, .threads = 2, .overwrite = 1};
    CHECK_MSG(dg_dom_gen_run("t_gd_all.h5", &o, NULL) == HN_OK, "%s", hn_errmsg());
    struct rows a = load("t_gd_all.h5");
    CHECK_MSG(a.n == 20160, "%llu states", (unsigned long long)a.n);
    unsigned mx = 0;
    for (uint64_t i = 0; i < a.n; i++) {
        mx = a.cost[i] > mx ? a.cost[i] : mx;
        CHECK(a.source[i] == DG_SOURCE_ALL && (i == 0 || a.cost[i] >= a.cost[i - 1]));
    }
    CHECK(mx == 36 && a.n && dom_is_goal(d, a.states) && a.cost[0] == 0);
    check_labels(d, &a, 97);
    dg_dom_info in;
    CHECK(dg_dom_info_read("t_gd_all.h5", &in) == HN_OK && !strcmp(in.source, "all") &&
          !strcmp(in.solver, "bfs") && in.count == 20160);
    const char *names[2] = {"t_gd_a0.h5", "t_gd_a1.h5"};
    for (int i = 0; i < 2; i++) {
        o.shard_index = i;
        o.shard_count = 2;
        CHECK(dg_dom_gen_run(names[i], &o, NULL) == HN_OK);
    }
    CHECK(dg_dom_merge("t_gd_am.h5", names, 2, 0) == HN_OK);
    struct rows m = load("t_gd_am.h5");
    CHECK(same(&m, &a));
    rows_free(&a);
    rows_free(&m);
    /* a domain with more states than the cap is refused, not swapped to death */
    uint8_t *states = NULL;
    uint16_t *cost = NULL;
    uint64_t n = 0;
    CHECK(dg_dom_enumerate(d, 20159, &states, &cost, &n) == HN_ERR_UNSUPPORTED && !states);
    CHECK(dg_dom_enumerate(d, 20160, &states, &cost, &n) == HN_OK && n == 20160);
    free(states);
    free(cost);
}

/* --from: the states of a file in order, labelled by IDA*, the file named
 * with its CRC-32. */
static void test_from(const dom *d)
{
    dg_dom_gen_opts o = walks(d, 1);
    o.count = 6;
    o.walk_min = 10;
    CHECK(dg_dom_gen_run("t_gd_src.h5", &o, NULL) == HN_OK);
    struct rows src = load("t_gd_src.h5");
    FILE *f = fopen("t_gd_inst.txt", "w");
    for (uint64_t i = 0; f && i < src.n; i++) {
        char text[256];
        dom_format_state(d, src.states + i * src.sb, text, sizeof text);
        fprintf(f, "s%llu %s\n", (unsigned long long)i, text);
    }
    CHECK(f && fclose(f) == 0);
    dom_instance_rec *recs = NULL;
    size_t n = 0;
    CHECK(dom_read_instances(d, "t_gd_inst.txt", NULL, NULL, &recs, &n) == HN_OK && n == 6);
    o = (dg_dom_gen_opts){.d = d,
                          .heur_name = "lc",
                          .instances = recs,
                          .ninstances = n,
                          .from = "t_gd_inst.txt",
                          .threads = 2,
                          .overwrite = 1};
    CHECK(dg_file_crc32("t_gd_inst.txt", &o.from_crc) == HN_OK);
    CHECK_MSG(dg_dom_gen_run("t_gd_from.h5", &o, NULL) == HN_OK, "%s", hn_errmsg());
    struct rows r = load("t_gd_from.h5");
    CHECK(r.n == 6 && !memcmp(r.states, src.states, 6 * r.sb) && !memcmp(r.cost, src.cost, 12));
    CHECK(r.n && r.source[0] == DG_SOURCE_FILE);
    dg_dom_info in;
    CHECK(dg_dom_info_read("t_gd_from.h5", &in) == HN_OK && !strcmp(in.source, "file") &&
          !strcmp(in.from, "t_gd_inst.txt") && in.from_crc == o.from_crc && in.seed == 0);
    free(recs);
    rows_free(&src);
    rows_free(&r);
}

/* A .part without the shard attributes (written before sharding) reads as
 * one unsharded run. */
static void test_old_file(const dom *d)
{
    dg_dom_gen_opts o = walks(d, 1);
    o.stop_after = 20;
    CHECK(dg_dom_gen_run("t_gd_old.h5", &o, NULL) == HN_ERR_INTERRUPTED);
    hid_t f = H5Fopen("t_gd_old.h5.part", H5F_ACC_RDWR, H5P_DEFAULT);
    const char *attrs[] = {"shard_index", "shard_count", "first_index", "total_count",
                           "merged",      "is_virtual",  "from",        "from_crc"};
    for (size_t i = 0; f >= 0 && i < sizeof attrs / sizeof *attrs; i++)
        CHECK(H5Adelete(f, attrs[i]) >= 0);
    CHECK(f >= 0 && H5Fclose(f) >= 0);
    dg_dom_info in;
    uint64_t hist[64], src[DG_DOM_SOURCES];
    unsigned mx;
    CHECK(dg_dom_histogram("t_gd_old.h5.part", &in, hist, 64, src, &mx) == HN_OK &&
          in.shard_count == 1 && in.total_count == 700 && in.done == 20);
    o.stop_after = 0;
    o.overwrite = 0;
    dg_dom_gen_stats st;
    CHECK(dg_dom_gen_run("t_gd_old.h5", &o, &st) == HN_OK && st.resumed_from == 20);
    struct rows a = load("t_gd_old.h5"), b = load("t_gd_1.h5");
    CHECK(same(&a, &b));
    rows_free(&a);
    rows_free(&b);
}

/* Number of 8-puzzle states at each distance from a goal with the blank in
 * a corner (both layouts): 181,440 in all, 2 at depth 31. */
static const uint64_t depth_counts[32] = {1,     2,     4,     8,     16,    20,    39,    62,
                                          116,   152,   286,   396,   748,   1024,  1893,  2512,
                                          4485,  5638,  9529,  10878, 16993, 17110, 23952, 20224,
                                          24047, 15578, 14560, 6274,  3910,  760,   221,   2};

static void test_8puzzle_all(void)
{
    const char *specs[2] = {"npuzzle:3x3", "npuzzle:3x3:blank-last"};
    for (int k = 0; k < 2; k++) {
        int st;
        dom *d = dom_open(specs[k], &st);
        dg_dom_gen_opts o = {.d = d, .all = 1, .threads = 1, .overwrite = 1};
        CHECK(d && dg_dom_gen_run("t_gd_8.h5", &o, NULL) == HN_OK);
        uint64_t hist[40], src[DG_DOM_SOURCES];
        unsigned mx = 0;
        dg_dom_info in;
        CHECK(dg_dom_histogram("t_gd_8.h5", &in, hist, 40, src, &mx) == HN_OK);
        CHECK_MSG(in.committed == 181440 && mx == 31, "%s: %llu states, max %u", specs[k],
                  (unsigned long long)in.committed, mx);
        for (int c = 0; c < 32; c++)
            CHECK_MSG(hist[c] == depth_counts[c], "%s depth %d: %llu", specs[k], c,
                      (unsigned long long)hist[c]);
        dom_free(d);
    }
}

/* Korf's instances #2, #5 and #7 (quick ones) labelled with a 5-5-5 PDB
 * get their published optimal lengths. */
static void test_korf(void)
{
    int st;
    dom *d = dom_open("npuzzle:4x4", &st);
    dom_instance_rec *all = NULL;
    size_t n = 0;
    CHECK(d &&
          dom_read_instances(d, HN_TEST_DATA "/npuzzle/korf100.txt", NULL, NULL, &all, &n) ==
              HN_OK &&
          n == 100);
    if (!all || n != 100) {
        free(all);
        dom_free(d);
        return;
    }
    dom_instance_rec some[3] = {all[1], all[4], all[6]};
    dg_dom_gen_opts o = {.d = d,
                         .heur_name = "pdb:5-5-5",
                         .instances = some,
                         .ninstances = 3,
                         .from = "korf100.txt",
                         .threads = 2,
                         .overwrite = 1};
    CHECK_MSG(dg_dom_gen_run("t_gd_korf.h5", &o, NULL) == HN_OK, "%s", hn_errmsg());
    struct rows r = load("t_gd_korf.h5");
    for (uint64_t i = 0; i < r.n && i < 3; i++)
        CHECK_MSG(r.cost[i] == some[i].length && !memcmp(r.states + i * r.sb, some[i].state, r.sb),
                  "Korf row %llu: %u, published %d", (unsigned long long)i, r.cost[i],
                  some[i].length);
    CHECK(r.n == 3);
    rows_free(&r);
    free(all);
    dom_free(d);
}

/* Cubes of up to 6 quarter turns labelled with the fst table (built into a
 * cache folder of its own) on two threads: every label is the cube's
 * breadth-first distance, and every distance 0..6 occurs. */
static void test_cube3_labels(void)
{
    int st;
    dom *d = dom_open("cube3", &st);
    char dir[] = "t_gd_cube_XXXXXX", table[64];
    CHECK(d && mkdtemp(dir) != NULL);
    setenv("HEURNET_DATA", dir, 1);
    snprintf(table, sizeof table, "%s/dom-cube3-fst.prune4", dir);
    dg_dom_gen_opts o = {.d = d,
                         .heur_name = "fst",
                         .count = 400,
                         .seed = 3,
                         .walk_min = 0,
                         .walk_max = 6,
                         .threads = 2,
                         .overwrite = 1};
    CHECK_MSG(d && dg_dom_gen_run("t_gd_cube.h5", &o, NULL) == HN_OK, "%s", hn_errmsg());
    uint8_t goal[BALL_SB];
    ball b;
    if (d) {
        dom_goal(d, goal);
        CHECK(ball_build(&b, d, goal, 6, 1100000) == 0);
    }
    struct rows r = load("t_gd_cube.h5");
    int seen[7] = {0};
    CHECK(r.n == 400 && r.sb == BALL_SB);
    for (uint64_t i = 0; d && i < r.n; i++) {
        int bfs = ball_depth(&b, d, r.states + i * r.sb);
        CHECK_MSG(bfs == r.cost[i], "row %llu: BFS %d, label %u", (unsigned long long)i, bfs,
                  r.cost[i]);
        seen[r.cost[i] <= 6 ? r.cost[i] : 0]++;
    }
    for (int k = 0; k <= 6; k++)
        CHECK_MSG(seen[k] > 0, "no label %d", k);
    rows_free(&r);
    if (d)
        ball_free(&b);
    remove(table); /* 70 MB */
    unsetenv("HEURNET_DATA");
    dom_free(d);
}

int main(void)
{
    hn_h5_quiet();
    int st;
    dom *d = dom_open("npuzzle:3x4", &st), *small = dom_open("npuzzle:2x4", &st);
    CHECK(d && small);
    if (d && small) {
        test_shards(d);
        test_all(small);
        test_from(d);
        test_old_file(d);
    }
    dom_free(d);
    dom_free(small);
    test_8puzzle_all();
    test_korf();
    test_cube3_labels();
    return CHECK_DONE();
}
