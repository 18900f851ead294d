/* The built-in npuzzle domain on squares and rectangles: moves against
 * expand, inverses, encoding deltas, text round trips, uniform boards,
 * heuristics against breadth-first distances on boards small enough to
 * enumerate, agreement with the specialized search/npuzzle/ code on 3x3 to
 * 5x5, the pattern-database cache, and DeepCubeA's 35/48-puzzle files. */
#define _DEFAULT_SOURCE /* mkdtemp, setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "domains/dom.h"
#include "search/npuzzle/encode.h"
#include "search/srch.h"

static const char *const SIZES[] = {"2x2", "3x3", "4x4", "3x5", "6x6", "7x7", "8x8"};

static dom *open_ok(const char *spec)
{
    int st;
    dom *d = dom_open(spec, &st);
    CHECK_MSG(d && st == 0, "%s: %s", spec, hn_errmsg());
    return d;
}

static int cells_of(const dom *d)
{
    return (int)dom_state_bytes(d) - 1;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int sorted_encode(const dom *d, const uint8_t *s, int32_t *act)
{
    int n = dom_encode(d, s, act);
    qsort(act, (size_t)n, sizeof *act, cmp_i32);
    return n;
}

/* ---- parameters ---- */

static void test_open(void)
{
    static const char *const good[][3] = {
        {"npuzzle:4x4", "npuzzle:4x4", "npuzzle-onehot n=4 goal=blank-first"},
        {"npuzzle:4x4:blank-first", "npuzzle:4x4", "npuzzle-onehot n=4 goal=blank-first"},
        {"npuzzle:6x6:blank-last", "npuzzle:6x6:blank-last", "npuzzle-onehot n=6 goal=blank-last"},
        {"npuzzle:3x5", "npuzzle:3x5", "npuzzle-onehot n=3x5 goal=blank-first"},
        {"npuzzle:2x2", "npuzzle:2x2", "npuzzle-onehot n=2 goal=blank-first"},
        {"npuzzle:8x8", "npuzzle:8x8", "npuzzle-onehot n=8 goal=blank-first"},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        dom *d = open_ok(good[i][0]);
        if (!d)
            continue;
        CHECK_MSG(!strcmp(dom_canonical(d), good[i][1]), "%s", dom_canonical(d));
        CHECK_MSG(!strcmp(dom_facts_of(d)->encoding, good[i][2]), "%s", dom_facts_of(d)->encoding);
        dom_free(d);
    }
    /* the square boards' encoding name is the specialized encoder's */
    char name[64];
    for (int goal = 0; goal < 2; goal++) {
        srch_np_encode_name(4, goal, name, sizeof name);
        dom *d = open_ok(goal ? "npuzzle:4x4:blank-last" : "npuzzle:4x4");
        CHECK(d && !strcmp(dom_facts_of(d)->encoding, name));
        dom_free(d);
    }
    static const char *const bad[] = {
        "npuzzle:7x",       "npuzzle:9x9",        "npuzzle:1x5",        "npuzzle:junk",
        "npuzzle",          "npuzzle:4x4:middle", "npuzzle:4x4x",       "npuzzle:-3x3",
        "npuzzle:4x04junk", "npuzzle:x4",         "npuzzle:100000000x4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = 0;
        dom *d = dom_open(bad[i], &st);
        CHECK_MSG(!d && st == HN_ERR_ARG && strstr(hn_errmsg(), "npuzzle"), "%s: %d %s", bad[i], st,
                  hn_errmsg());
        dom_free(d);
    }
    dom *d = open_ok("npuzzle:6x6");
    const dom_facts *f = dom_facts_of(d);
    CHECK(f->state_bytes == 37 && f->inputs == 36 * 36 && f->max_active == 36);
    CHECK(f->nmoves == 4 && !strcmp(f->move_sep, "") && f->prune_states == 5);
    CHECK_MSG(!strcmp(f->heuristics, "lc,manhattan,pdb:5-5-5-5-5-5-5"), "%s", f->heuristics);
    CHECK(f->has_uniform && f->typical_depth > 100 && f->typical_depth < 250);
    dom_free(d);
    d = open_ok("npuzzle:7x7");
    CHECK_MSG(!strcmp(dom_facts_of(d)->heuristics, "lc,manhattan,pdb:4-4-4-4-4-4-4-4-4-4-4-4"),
              "%s", dom_facts_of(d)->heuristics);
    dom_free(d);
}

/* ---- moves, encoding and text on random boards ---- */

static void check_expand(const dom *d, const uint8_t *s)
{
    size_t sb = dom_state_bytes(d);
    uint8_t kids[4 * DOM_MAX_STATE_BYTES], moves[4], cq[4], c[DOM_MAX_STATE_BYTES];
    for (int q = 0; q < 5; q++) {
        int n = dom_expand(d, s, q, kids, moves, cq), k = 0;
        for (int m = 0; m < 4; m++) {
            memcpy(c, s, sb);
            if (!(dom_allowed(d, q) >> m & 1) || !dom_apply(d, c, m))
                continue;
            CHECK(k < n && moves[k] == m && !memcmp(kids + k * sb, c, sb));
            CHECK(k < n && cq[k] == dom_prune_next(d, q, m));
            k++;
        }
        CHECK(k == n);
    }
}

static void check_moves(const dom *d, const uint8_t *s)
{
    size_t sb = dom_state_bytes(d);
    int n = cells_of(d);
    uint8_t c[DOM_MAX_STATE_BYTES];
    int32_t a[DOM_MAX_ACTIVE], b[DOM_MAX_ACTIVE], off[DOM_MAX_ACTIVE], on[DOM_MAX_ACTIVE];
    for (int m = 0; m < 4; m++) {
        memcpy(c, s, sb);
        int legal = dom_apply(d, c, m);
        int noff = 0, non = 0, st = dom_encode_delta(d, s, m, off, &noff, on, &non);
        CHECK(legal ? st == 0 : st == HN_ERR_ARG);
        if (!legal) {
            CHECK(!memcmp(c, s, sb));
            continue;
        }
        CHECK(c[c[n]] == 0 && c[s[n]] == s[c[n]]); /* blank byte follows the blank */
        /* the delta is exactly the difference of the two encodings */
        int na = sorted_encode(d, s, a), nb = sorted_encode(d, c, b);
        CHECK(na == n && nb == n && noff == 2 && non == 2);
        for (int i = 0; i < noff; i++)
            CHECK(bsearch(&off[i], a, (size_t)na, sizeof *a, cmp_i32) &&
                  !bsearch(&off[i], b, (size_t)nb, sizeof *b, cmp_i32));
        for (int i = 0; i < non; i++)
            CHECK(bsearch(&on[i], b, (size_t)nb, sizeof *b, cmp_i32) &&
                  !bsearch(&on[i], a, (size_t)na, sizeof *a, cmp_i32));
        CHECK(dom_apply(d, c, dom_inverse(d, m)) && !memcmp(c, s, sb));
    }
}

static void check_text(const dom *d, const uint8_t *s)
{
    char line[512];
    uint8_t back[DOM_MAX_STATE_BYTES];
    int len = dom_format_state(d, s, line, sizeof line);
    CHECK(len > 0 && (size_t)len == strlen(line));
    CHECK_MSG(dom_parse_state(d, line, back) == 0, "%s: %s", line, hn_errmsg());
    CHECK(!memcmp(back, s, dom_state_bytes(d)));
    char small[8];
    CHECK(dom_format_state(d, s, small, sizeof small) == len && strlen(small) == 7);
}

static void test_random_boards(const char *spec, hn_rng *rng)
{
    dom *d = open_ok(spec);
    if (!d)
        return;
    int n = cells_of(d), draws = 300 * n, count[64] = {0};
    uint8_t s[DOM_MAX_STATE_BYTES];
    for (int i = 0; i < draws; i++) {
        CHECK(dom_random_state(d, s, rng) == 0);
        count[s[n]]++;
        CHECK(s[s[n]] == 0);
        if (i % 20 == 0) {
            check_text(d, s); /* parses: a permutation, solvable */
            check_expand(d, s);
            check_moves(d, s);
        }
    }
    /* every cell holds the blank about 300 times (a binomial: 5 sigma) */
    for (int c = 0; c < n; c++)
        CHECK_MSG(count[c] > 300 - 90 && count[c] < 300 + 90, "%s: blank on %d %d times", spec, c,
                  count[c]);
    /* a walk from the goal moves every step and stays parseable */
    dom_goal(d, s);
    CHECK(dom_walk(d, s, 500, rng) == 500);
    check_text(d, s);
    check_expand(d, s);
    dom_free(d);
}

/* ---- breadth-first distances on small boards ---- */

/* Lehmer rank of the tiles (a permutation of 0..n-1). */
static uint32_t perm_rank(const uint8_t *t, int n)
{
    uint32_t r = 0, used = 0;
    for (int i = 0; i < n; i++) {
        r = r * (uint32_t)(n - i) +
            (uint32_t)(t[i] - __builtin_popcount(used & ((1u << t[i]) - 1)));
        used |= 1u << t[i];
    }
    return r;
}

static uint32_t factorial(int n)
{
    return n <= 1 ? 1 : (uint32_t)n * factorial(n - 1);
}

/* Every board reachable from the goal (n!/2 of them) with its distance. */
static uint8_t *bfs_states(const dom *d, size_t *count, uint8_t **dist)
{
    int n = cells_of(d);
    size_t sb = dom_state_bytes(d), total = factorial(n) / 2, head = 0, tail = 0;
    uint8_t *q = malloc(total * sb), kids[4 * DOM_MAX_STATE_BYTES], moves[4];
    *dist = malloc(factorial(n));
    if (!q || !*dist)
        return q;
    memset(*dist, 255, factorial(n));
    dom_goal(d, q);
    (*dist)[perm_rank(q, n)] = 0;
    tail = 1;
    while (head < tail) {
        const uint8_t *s = q + head++ * sb;
        int k = dom_expand(d, s, DOM_PRUNE_ROOT, kids, moves, NULL), ds = (*dist)[perm_rank(s, n)];
        for (int i = 0; i < k; i++) {
            uint32_t r = perm_rank(kids + i * sb, n);
            if ((*dist)[r] != 255)
                continue;
            (*dist)[r] = (uint8_t)(ds + 1);
            memcpy(q + tail++ * sb, kids + i * sb, sb);
        }
    }
    *count = tail;
    return q;
}

static void test_admissible(const char *spec, const char *custom)
{
    dom *d = open_ok(spec);
    if (!d)
        return;
    size_t count = 0, sb = dom_state_bytes(d);
    uint8_t *dist = NULL, *q = bfs_states(d, &count, &dist);
    int n = cells_of(d);
    CHECK_MSG(q && dist && count == factorial(n) / 2, "%s: %zu states", spec, count);
    char pdb[64], both[128];
    snprintf(pdb, sizeof pdb, "%s", strrchr(dom_facts_of(d)->heuristics, ',') + 1);
    snprintf(both, sizeof both, "max:lc,%s", custom);
    const char *names[] = {"manhattan", "lc", pdb, custom, both};
    for (int i = 0; i < 5 && q && dist; i++) {
        int st;
        dom_heur *h = dom_heur_open(d, names[i], &st);
        CHECK_MSG(h, "%s %s: %s", spec, names[i], hn_errmsg());
        if (!h)
            continue;
        size_t over = 0, sum = 0;
        for (size_t k = 0; k < count; k++) {
            const uint8_t *s = q + k * sb;
            int v = dom_heur_eval(h, s), opt = dist[perm_rank(s, n)];
            over += v > opt;
            sum += (size_t)v;
        }
        CHECK_MSG(over == 0, "%s %s: above the distance on %zu boards", spec, names[i], over);
        CHECK(dom_heur_eval(h, q) == 0); /* the goal */
        CHECK(sum > 0);
        dom_heur_free(h);
    }
    /* a square board's mirror image: the same distance on every board */
    int w = 0, hgt = 0;
    sscanf(spec, "npuzzle:%dx%d", &w, &hgt);
    CHECK(dom_symmetries(d) == (w == hgt ? 2 : 1));
    size_t moved = 0, off = 0;
    for (size_t k = 0; k < count && q && dist && w == hgt; k++) {
        uint8_t m[DOM_MAX_STATE_BYTES];
        dom_symmetric(d, q + k * sb, 1, m);
        off += dist[perm_rank(m, n)] != dist[perm_rank(q + k * sb, n)];
        moved += memcmp(m, q + k * sb, sb) != 0;
    }
    CHECK_MSG(off == 0 && (w != hgt || moved > count / 2),
              "%s: mirror images at another distance on %zu boards", spec, off);
    free(q);
    free(dist);
    dom_free(d);
}

/* ---- the specialized code's values on 3x3, 4x4 and 5x5 ---- */

static void compare_board(const dom *d, const uint8_t *s, int width, int goal,
                          srch_np_heur *const *h)
{
    int n = width * width;
    srch_np_board b;
    CHECK(srch_np_board_set(&b, width, s) == 0 && b.blank == s[n]);
    int md = 0, lc = 0;
    dom_heur *dm = dom_heur_open(d, "manhattan", NULL), *dl = dom_heur_open(d, "lc", NULL);
    md = dom_heur_eval(dm, s);
    lc = dom_heur_eval(dl, s);
    CHECK_MSG(md == srch_np_heur_eval(h[0], &b), "manhattan %d vs %d", md,
              srch_np_heur_eval(h[0], &b));
    CHECK_MSG(lc == srch_np_heur_eval(h[1], &b), "lc %d vs %d", lc, srch_np_heur_eval(h[1], &b));
    dom_heur_free(dm);
    dom_heur_free(dl);
    /* the one-hot inputs: the same active entries */
    float x[SRCH_NP_MAX_CELLS * SRCH_NP_MAX_CELLS];
    srch_np_encode_onehot(&b, goal, goal, x);
    int32_t act[DOM_MAX_ACTIVE];
    int na = sorted_encode(d, s, act), k = 0;
    for (int i = 0; i < n * n; i++)
        if (x[i] != 0.0f) {
            CHECK(k < na && act[k] == i && x[i] == 1.0f);
            k++;
        }
    CHECK(k == na);
    /* each move letter moves the blank as the specialized board does */
    for (int m = 0; m < 4; m++) {
        uint8_t c[DOM_MAX_STATE_BYTES];
        srch_np_board bc = b;
        memcpy(c, s, (size_t)n + 1);
        int legal = dom_apply(d, c, m);
        CHECK(legal ==
              (srch_np_board_move(&bc, srch_np_dir_parse(*dom_facts_of(d)->move_name[m])) >= 0));
        CHECK(!legal || !memcmp(bc.tile, c, (size_t)n));
    }
}

static void test_specialized(hn_rng *rng)
{
    for (int width = 3; width <= 5; width++)
        for (int goal = 0; goal < 2; goal++) {
            char spec[64];
            snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", width, width, goal ? ":blank-last" : "");
            dom *d = open_ok(spec);
            srch_np_heur *h[2] = {srch_np_heur_manhattan_new(width, goal, NULL),
                                  srch_np_heur_lc_new(width, goal, NULL)};
            CHECK(h[0] && h[1]);
            uint8_t s[DOM_MAX_STATE_BYTES];
            for (int i = 0; d && h[0] && h[1] && i < 400; i++) {
                if (i % 2)
                    dom_random_state(d, s, rng);
                else {
                    dom_goal(d, s); /* near the goal, where conflicts are rarer */
                    dom_walk(d, s, 1 + i % 40, rng);
                }
                compare_board(d, s, width, goal, h);
            }
            /* solutions are written with the specialized code's letters */
            uint8_t moves[] = {3, 1, 2, 0, 3};
            char a[16], b[16];
            dom_format_moves(d, moves, 5, a, sizeof a);
            srch_np_moves_format(moves, 5, b, sizeof b);
            CHECK_MSG(!strcmp(a, b) && !strcmp(a, "RDLUR"), "%s vs %s", a, b);
            uint8_t back[8];
            CHECK(dom_parse_moves(d, "RDLUR", back, 8) == 5 && !memcmp(back, moves, 5));
            srch_np_heur_free(h[0]);
            srch_np_heur_free(h[1]);
            dom_free(d);
        }
}

/* ---- bad lines ---- */

static void expect_parse(const dom *d, const char *line, int want, const char *words)
{
    uint8_t s[DOM_MAX_STATE_BYTES];
    int st = dom_parse_state(d, line, s);
    CHECK_MSG(st == want && (!words || strstr(hn_errmsg(), words)), "'%s': %d %s", line, st,
              hn_errmsg());
}

static void test_bad_lines(void)
{
    dom *d = open_ok("npuzzle:4x4");
    if (!d)
        return;
    expect_parse(d, " 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 \t", 0, NULL);
    expect_parse(d, "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15", HN_ERR_UNSOLVABLE, "unsolvable");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14", HN_ERR_FORMAT, "15 numbers");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 3", HN_ERR_FORMAT, "17 numbers");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 14", HN_ERR_FORMAT, "twice");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16", HN_ERR_FORMAT, "out of range");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 99999999999999999999", HN_ERR_FORMAT,
                 "out of range");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 1x", HN_ERR_FORMAT, "not a tile");
    expect_parse(d, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 -15", HN_ERR_FORMAT, "not a tile");
    expect_parse(d, "", HN_ERR_FORMAT, "0 numbers");
    /* under blank-last the Korf layout's goal is unsolvable (even width) */
    dom *dl = open_ok("npuzzle:4x4:blank-last");
    expect_parse(dl, "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", HN_ERR_UNSOLVABLE, "blank-last");
    dom_free(dl);
    dom_instance_rec rec;
    CHECK(dom_parse_instance(d, "k7 52 1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &rec) == 1 &&
          !strcmp(rec.id, "k7") && rec.length == 52 && rec.state[16] == 1);
    CHECK(dom_parse_instance(d, "# a comment", &rec) == 0);
    dom_free(d);
    d = open_ok("npuzzle:3x5");
    expect_parse(d, "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14", 0, NULL);
    expect_parse(d, "2 1 0 3 4 5 6 7 8 9 10 11 12 13 14", HN_ERR_UNSOLVABLE, "parity");
    dom_free(d);
}

/* ---- pattern databases: consistency on the large boards, the cache ---- */

static int warnings;
static void count_warnings(int level, const char *msg, void *user)
{
    (void)msg;
    (void)user;
    warnings += level == HN_LOG_WARN;
}

/* On boards too large to enumerate: 0 at the goal, and a group's table
 * never below the Manhattan distances of its tiles (each tile makes at
 * least those moves), so the sum never falls below Manhattan distance. */
static void test_pdb_large(const char *spec, const char *name, const char *floor, hn_rng *rng)
{
    dom *d = open_ok(spec);
    int st;
    dom_heur *h = d ? dom_heur_open(d, name, &st) : NULL;
    dom_heur *lo = d ? dom_heur_open(d, floor, &st) : NULL;
    CHECK_MSG(h && lo, "%s %s: %s", spec, name, hn_errmsg());
    if (h && lo) {
        uint8_t s[DOM_MAX_STATE_BYTES];
        dom_goal(d, s);
        CHECK(dom_heur_eval(h, s) == 0);
        size_t above = 0;
        for (int i = 0; i < 400; i++) {
            if (i % 2)
                dom_walk(d, s, 3, rng);
            else
                dom_random_state(d, s, rng);
            int v = dom_heur_eval(h, s), f = dom_heur_eval(lo, s);
            CHECK_MSG(v >= f, "%s: %s %d below %s %d", spec, name, v, floor, f);
            above += v > f;
        }
        CHECK(above > 0); /* and it adds something */
    }
    dom_heur_free(h);
    dom_heur_free(lo);
    dom_free(d);
}

static void test_pdb_cache(const char *dir)
{
    dom *d = open_ok("npuzzle:3x3");
    int st;
    /* bad partitions name what is wrong */
    CHECK(!dom_heur_open(d, "pdb:3-3", &st) && st == HN_ERR_ARG && strstr(hn_errmsg(), "6 tiles"));
    CHECK(!dom_heur_open(d, "pdb:4x4", &st) && st == HN_ERR_ARG && strstr(hn_errmsg(), "'-'"));
    CHECK(!dom_heur_open(d, "pdb:", &st) && st == HN_ERR_ARG);
    CHECK(!dom_heur_open(d, "pdb:9-0", &st) && st == HN_ERR_ARG);
    CHECK(!dom_heur_open(d, "nonsense", &st) && st == HN_ERR_ARG);
    CHECK(!dom_heur_open(d, "pdb:4-4:mirror", &st) && st == HN_ERR_ARG &&
          strstr(hn_errmsg(), "noreflect"));
    dom_heur *h = dom_heur_open(d, "pdb:4-4", &st);
    CHECK_MSG(h, "%s", hn_errmsg());
    /* the first group: goal cells 3 6 1 4 (3x3 is one band, read by columns) */
    char path[4200];
    snprintf(path, sizeof path, "%s/npuzzle-3x3-blank0-cells-1.3.4.6.pdb", dir);
    FILE *f = fopen(path, "r+b");
    CHECK_MSG(f, "no %s", path);
    if (!h || !f) {
        if (f)
            fclose(f);
        dom_heur_free(h);
        dom_free(d);
        return;
    }
    uint8_t s[DOM_MAX_STATE_BYTES];
    int before[50];
    hn_rng *rng = hn_rng_new(5);
    for (int i = 0; i < 50; i++) {
        dom_random_state(d, s, rng);
        before[i] = dom_heur_eval(h, s);
    }
    dom_heur_free(h);
    /* a damaged byte: rebuilt with a warning, the same values */
    fseek(f, 300, SEEK_SET); /* in the table, past the 216-byte header */
    int byte = fgetc(f);
    fseek(f, 300, SEEK_SET);
    fputc(byte ^ 0x5a, f);
    fclose(f);
    hn_log_set(count_warnings, NULL);
    warnings = 0;
    h = dom_heur_open(d, "pdb:4-4", &st);
    CHECK(h && warnings == 1);
    hn_rng_free(rng);
    rng = hn_rng_new(5);
    for (int i = 0; h && i < 50; i++) {
        dom_random_state(d, s, rng);
        CHECK(dom_heur_eval(h, s) == before[i]);
    }
    dom_heur_free(h);
    /* a truncated file too, and then the rebuilt copy loads quietly */
    CHECK(truncate(path, 40) == 0);
    h = dom_heur_open(d, "pdb:4-4", &st);
    CHECK(h && warnings == 2);
    dom_heur_free(h);
    h = dom_heur_open(d, "pdb:4-4", &st);
    CHECK(h && warnings == 2);
    dom_heur_free(h);
    hn_log_set(NULL, NULL);
    hn_rng_free(rng);
    dom_free(d);
}

/* ---- DeepCubeA's test sets ---- */

static void test_instances(void)
{
    static const char *const files[][2] = {
        {"deepcubea_test_35puzzle.txt", "npuzzle:6x6:blank-last"},
        {"deepcubea_test_48puzzle.txt", "npuzzle:7x7:blank-last"},
    };
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/npuzzle/%s", HN_TEST_DATA, files[i][0]);
        dom *d = open_ok(files[i][1]);
        dom_instance_rec *rec = NULL;
        size_t n = 0;
        int st = d ? dom_read_instances(d, path, NULL, NULL, &rec, &n) : -1;
        CHECK_MSG(st == 0 && n == 400, "%s: %d, %zu boards: %s", path, st, n, hn_errmsg());
        CHECK(n == 0 || (rec[0].length > 0 && !strcmp(rec[0].id, "0")));
        free(rec);
        dom_free(d);
    }
    /* read for the other goal, the 6x6 boards are all unsolvable */
    char path[4096];
    snprintf(path, sizeof path, "%s/npuzzle/deepcubea_test_35puzzle.txt", HN_TEST_DATA);
    dom *d = open_ok("npuzzle:6x6");
    dom_instance_rec *rec = NULL;
    size_t n = 0;
    CHECK(dom_read_instances(d, path, NULL, NULL, &rec, &n) == HN_ERR_UNSOLVABLE && n == 0);
    dom_free(d);
}

/* The heuristic toward a board b (dom_between_heur): its value of a is
 * dom_between(a, b), and its update per move gives every child's exactly,
 * on walks whose end b is a random board of the same size. */
static void test_between_heur(const char *spec, hn_rng *rng)
{
    dom *d = open_ok(spec);
    size_t sb = dom_state_bytes(d);
    uint8_t a[DOM_MAX_STATE_BYTES], b[DOM_MAX_STATE_BYTES], c[DOM_MAX_STATE_BYTES];
    int st, checked = 0;
    for (int r = 0; r < 20; r++) {
        CHECK(dom_random_state(d, b, rng) == 0);
        memcpy(a, b, sb);
        dom_walk(d, a, 1 + (int)hn_rng_below(rng, 60), rng);
        dom_heur *h = dom_between_heur(d, b, &st);
        CHECK_MSG(h && st == 0, "%s: %s", spec, hn_errmsg());
        if (!h)
            break;
        CHECK(dom_heur_has_delta(h));
        CHECK(dom_heur_eval(h, b) == 0 && dom_between(d, b, b) == 0);
        for (int step = 0; step < 50; step++) {
            int v = dom_heur_eval(h, a);
            CHECK(v == dom_between(d, a, b));
            for (int m = 0; m < dom_nmoves(d); m++) {
                memcpy(c, a, sb);
                int legal = dom_apply(d, c, m);
                int u = dom_heur_delta(h, a, m, v);
                CHECK_MSG(legal ? u == dom_between(d, c, b) : u == -1, "%s move %d: %d, %d", spec,
                          m, u, legal ? dom_between(d, c, b) : -1);
                checked += legal;
            }
            dom_walk(d, a, 1, rng);
        }
        dom_heur_free(h);
    }
    CHECK(checked > 1000);
    dom_free(d);
}

int main(void)
{
    char dir[] = "/tmp/hn-test-dnp-XXXXXX";
    if (!mkdtemp(dir) || setenv("HEURNET_DATA", dir, 1))
        return 1;
    hn_rng *rng = hn_rng_new(44);
    test_open();
    for (size_t i = 0; i < sizeof SIZES / sizeof SIZES[0]; i++) {
        char spec[64];
        snprintf(spec, sizeof spec, "npuzzle:%s", SIZES[i]);
        test_random_boards(spec, rng);
        snprintf(spec, sizeof spec, "npuzzle:%s:blank-last", SIZES[i]);
        test_random_boards(spec, rng);
    }
    test_admissible("npuzzle:2x2", "pdb:1-2");
    test_admissible("npuzzle:2x3", "pdb:3-2");
    test_admissible("npuzzle:3x2:blank-last", "pdb:1-1-1-1-1");
    test_admissible("npuzzle:4x2", "pdb:4-3");
    test_admissible("npuzzle:3x3", "pdb:4-4");
    test_admissible("npuzzle:3x3:blank-last", "pdb:2-3-3");
    test_admissible("npuzzle:2x5", "pdb:5-4");
    test_admissible("npuzzle:3x3", "pdb:3-3-2:noreflect");
    test_specialized(rng);
    test_between_heur("npuzzle:5x5", rng);
    test_between_heur("npuzzle:4x3:blank-last", rng);
    test_between_heur("npuzzle:6x6", rng);
    test_bad_lines();
    test_pdb_large("npuzzle:6x6", "pdb:3-3-3-3-3-3-3-3-3-3-3-2", "manhattan", rng);
    test_pdb_large("npuzzle:6x6", "pdb:3-3-3-3-3-3-3-3-3-3-3-2",
                   "pdb:3-3-3-3-3-3-3-3-3-3-3-2:noreflect", rng);
    test_pdb_large("npuzzle:7x7:blank-last", "max:lc,pdb:3-3-3-3-3-3-3-3-3-3-3-3-3-3-3-3", "lc",
                   rng);
    /* 64 cells: every cell mask uses all 64 bits */
    test_pdb_large("npuzzle:8x8",
                   "pdb:2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-2-1",
                   "manhattan", rng);
    test_pdb_cache(dir);
    test_instances();
    hn_rng_free(rng);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
