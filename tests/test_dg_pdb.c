/* Pattern database construction and use: the exact 8-puzzle table equals a
 * BFS, partitions are admissible and additive, the reflected and the
 * incremental lookups agree with plain ones, searches with 5-5-5 / 6-6-3
 * reach Korf's known optimal lengths, a child's value from its parent's
 * kept state (move_batch) is its plain lookup and best-first searches that
 * keep those states run as without them, and PDB files round-trip while
 * corrupted or truncated ones are rejected. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "np_bfs.h"
#include "datagen/dg.h"
#include "search/npuzzle/ann.h"
#include "search/npuzzle/np_internal.h"

static srch_np_pdb *build(const char *name, int width, int threads)
{
    srch_np_partition part;
    CHECK(srch_np_partition_get(name, width, &part) == 0);
    srch_np_pdb *p = NULL;
    int st = dg_pdb_build(&part, threads, NULL, NULL, &p);
    CHECK_MSG(st == 0 && p, "build %s: %s", name, hn_errmsg());
    return p;
}

/* Exact table and a 4-4 partition against BFS on every 8-puzzle state. */
static void test_8puzzle(void)
{
    uint8_t *dist = bfs8(SRCH_NP_GOAL_BLANK_FIRST);
    CHECK(dist != NULL);
    srch_np_pdb *exact = build("8", 3, 2);
    if (!dist || !exact)
        return;
    srch_np_partition p44 = {.name = "4-4",
                             .width = 3,
                             .npatterns = 2,
                             .size = {4, 4},
                             .tiles = {{1, 2, 3, 4}, {5, 6, 7, 8}}};
    srch_np_pdb *half = NULL;
    CHECK(dg_pdb_build(&p44, 1, NULL, NULL, &half) == 0);
    srch_np_heur *hx = srch_np_heur_pdb_new(half, 0, 1, 0, NULL);
    int wrong = 0, over = 0, nonadd = 0, tight = 0;
    srch_np_board b;
    for (int r = 0; r < N8; r++) {
        if (dist[r] == 255)
            continue;
        srch_np_board_unrank(&b, 3, (uint64_t)r);
        wrong += srch_np_pdb_lookup(exact, &b) != dist[r];
        int plain = srch_np_pdb_lookup(half, &b), refl = srch_np_heur_eval(hx, &b);
        over += refl > dist[r];
        nonadd += plain > dist[r] || refl < plain;
        tight += refl > plain;
    }
    CHECK(wrong == 0);
    CHECK(over == 0 && nonadd == 0);
    CHECK(tight > 0); /* the reflected lookup adds information */
    /* IDA* and A* with the exact table: optimal, and IDA* expands only the path */
    srch_np_heur *h = srch_np_heur_pdb_new(exact, 0, 0, 0, NULL);
    hn_rng *rng = hn_rng_new(1);
    int bad = 0;
    for (int i = 0; i < 300; i++) {
        srch_np_board_random(&b, 3, 0, rng);
        int want = dist[srch_np_board_rank(&b)];
        srch_np_result res;
        bad += srch_np_idastar(&b, h, NULL, &res) != 0 || res.length != want ||
               res.expanded != (uint64_t)want;
        bad += srch_np_astar(&b, h, NULL, &res) != 0 || res.length != want;
        bad += srch_np_idastar(&b, hx, NULL, &res) != 0 || res.length != want;
    }
    CHECK(bad == 0);
    hn_rng_free(rng);
    srch_np_heur_free(h);
    srch_np_heur_free(hx);
    srch_np_pdb_free(exact);
    srch_np_pdb_free(half);
    free(dist);
}

/* Across every move of a random walk, the incremental update IDA* uses
 * (ops.inc_move from the parent's state) equals a fresh lookup. The value
 * may change by more than one per move: each table stores the minimum over
 * blank positions, which keeps it admissible but not always consistent. */
static void check_walk(const srch_np_heur *h, int width, int goal, hn_rng *rng)
{
    srch_np_board b;
    srch_np_board_random(&b, width, goal, rng);
    char state[2][256];
    CHECK(h->ops.state_size <= sizeof state[0]);
    h->ops.inc_init(h->self, &b, state[0]);
    int bad = 0, moves = 0;
    for (int i = 0; i < 3000; i++) {
        int from = b.blank, tile = srch_np_board_move(&b, (int)hn_rng_below(rng, 4));
        if (tile < 0)
            continue;
        int v = h->ops.inc_move(h->self, &b, tile, b.blank, from, state[moves & 1],
                                state[(moves + 1) & 1], 1 << 20);
        moves++;
        bad += v != srch_np_heur_eval(h, &b);
    }
    CHECK(bad == 0 && moves > 1000);
}

/* The batch path (every entry prefetched before any is read) gives each
 * board's single lookup, over a count that is not a whole number of the
 * batch's chunks. */
static void check_batch(const srch_np_heur *h, int width, int goal, hn_rng *rng)
{
    enum { NB = 37 };
    srch_np_board b[NB];
    int v[NB], bad = 0, spread = 0;
    for (int i = 0; i < NB; i++)
        srch_np_board_random(&b[i], width, goal, rng);
    CHECK(srch_np_heur_eval_batch(h, b, NB, v) == 0);
    for (int i = 0; i < NB; i++) {
        bad += v[i] != srch_np_heur_eval(h, &b[i]);
        spread += v[i] != v[0];
    }
    CHECK(bad == 0 && spread > 0);
}

/* move_batch, from the parent's state alone: each child's value is its
 * plain lookup and its state the one inc_move writes; the state is one byte
 * per pattern and view. */
static void check_move_batch(const srch_np_heur *h, int width, int goal, size_t want_ss,
                             hn_rng *rng)
{
    CHECK(h->move_batch != NULL && h->ops.state_size == want_ss);
    srch_np_board b;
    srch_np_board_random(&b, width, goal, rng);
    uint8_t parent[64], kids[4 * 64], one[64];
    size_t ss = h->ops.state_size;
    CHECK(ss <= sizeof parent);
    h->ops.inc_init(h->self, &b, parent);
    int bad = 0, total = 0;
    for (int step = 0; step < 400; step++) {
        srch_np_board c[4];
        int tile[4], v[4], n = 0;
        for (int d = 0; d < 4; d++) {
            c[n] = b;
            if ((tile[n] = srch_np_board_move(&c[n], d)) >= 0)
                n++;
        }
        CHECK(h->move_batch(h->self, c, tile, (size_t)n, parent, kids, v) == 0);
        for (int i = 0; i < n; i++) {
            int want = srch_np_heur_eval(h, &c[i]);
            h->ops.inc_move(h->self, &c[i], tile[i], c[i].blank, b.blank, parent, one, 1 << 20);
            bad += v[i] != want || memcmp(kids + (size_t)i * ss, one, ss) != 0;
            total++;
        }
        int k = (int)hn_rng_below(rng, (uint64_t)n); /* walk on, with the batch's state */
        b = c[k];
        memcpy(parent, kids + (size_t)k * ss, ss);
    }
    CHECK_MSG(bad == 0, "%d of %d children differ from the plain lookup", bad, total);
}

/* Anytime A* and focal search keep the PDB's state per stored node (the
 * store tracks it): the same runs as with the same PDB behind a heuristic
 * the store cannot track. */
static int opaque_eval(void *self, const srch_np_board *b)
{
    return srch_np_heur_eval(self, b);
}

static int opaque_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    return srch_np_heur_eval_batch(self, b, n, out);
}

static int same_run(const srch_np_result *a, const srch_np_result *b)
{
    return a->status == 0 && b->status == 0 && a->length == b->length &&
           a->expanded == b->expanded && a->stored == b->stored && a->heur_calls == b->heur_calls &&
           a->phases == b->phases && !memcmp(a->moves, b->moves, (size_t)a->nmoves);
}

static void check_tracked_searches(srch_np_heur *h, hn_rng *rng)
{
    int st;
    srch_np_heur_ops ops = {.name = "opaque", .eval = opaque_eval, .eval_batch = opaque_batch};
    srch_np_heur *plain = srch_np_heur_custom_new(&ops, h, 4, 0, &st);
    srch_np_heur *guide = srch_np_heur_lc_new(4, 0, &st);
    CHECK(plain && guide);
    static const double deltas[] = {0, 2, INFINITY}, w[] = {1.5};
    int differ = 0;
    for (int i = 0; plain && guide && i < 12; i++) {
        srch_np_board b;
        srch_np_board_random_walk(&b, 4, 0, 36 + (int)hn_rng_below(rng, 10), rng);
        srch_np_result r1, r2;
        srch_np_anytime(&b, guide, h, deltas, 3, w, 1, NULL, NULL, &r1);
        srch_np_anytime(&b, guide, plain, deltas, 3, w, 1, NULL, NULL, &r2);
        differ += !same_run(&r1, &r2) || !r1.proven;
        srch_np_focal(&b, h, guide, 1.2, NULL, &r1);
        srch_np_focal(&b, plain, guide, 1.2, NULL, &r2);
        differ += !same_run(&r1, &r2);
    }
    CHECK_MSG(differ == 0, "%d runs differ with the tracked PDB", differ);
    srch_np_heur_free(plain);
    srch_np_heur_free(guide);
}

static void test_15puzzle(void)
{
    srch_np_instance *inst;
    size_t n;
    CHECK(srch_np_parse_file(HN_TEST_DATA "/npuzzle/korf100.txt", 4, 0, NULL, NULL, &inst, &n) ==
          0);
    if (n != 100)
        return;
    const char *names[2] = {"5-5-5", "6-6-3"};
    hn_rng *rng = hn_rng_new(2);
    for (int k = 0; k < 2; k++) {
        srch_np_pdb *p = build(names[k], 4, 2);
        if (!p)
            continue;
        srch_np_heur *h = srch_np_heur_pdb_new(p, 0, 1, 0, NULL);
        srch_np_heur *hl = srch_np_heur_pdb_new(p, SRCH_NP_GOAL_BLANK_LAST, 1, 0, NULL);
        /* admissible on all 100 instances; reflection never lowers it */
        int over = 0, lower = 0;
        for (size_t i = 0; i < n; i++) {
            int plain = srch_np_pdb_lookup(p, &inst[i].board),
                v = srch_np_heur_eval(h, &inst[i].board);
            over += v > inst[i].optimal;
            lower += v < plain;
            srch_np_board c;
            srch_np_board_convert(&inst[i].board, &c);
            lower += srch_np_heur_eval(hl, &c) != v; /* the blank-last view is the same */
        }
        CHECK(over == 0 && lower == 0);
        /* random walks: h never above the walk length */
        for (int i = 0; i < 500; i++) {
            srch_np_board b;
            int len = (int)hn_rng_below(rng, 60);
            srch_np_board_random_walk(&b, 4, 0, len, rng);
            over += srch_np_heur_eval(h, &b) > len;
        }
        CHECK(over == 0);
        check_walk(h, 4, 0, rng);
        check_walk(hl, 4, 1, rng);
        check_batch(h, 4, 0, rng);
        check_batch(hl, 4, 1, rng);
        check_move_batch(h, 4, 0, 6, rng); /* 3 patterns, 2 views */
        check_move_batch(hl, 4, 1, 6, rng);
        if (k == 0)
            check_tracked_searches(h, rng);
        /* the easiest Korf instances solve to their known optimal lengths */
        const int easy[] = {55, 16, 42, 79};
        for (int j = 0; j < 4; j++) {
            const srch_np_instance *x = &inst[easy[j] - 1];
            srch_np_result res;
            CHECK(srch_np_idastar(&x->board, h, NULL, &res) == 0 && res.length == x->optimal);
            srch_np_board e = x->board;
            for (int m = 0; m < res.nmoves; m++)
                srch_np_board_move(&e, res.moves[m]);
            CHECK(srch_np_board_is_goal(&e, 0));
            if (k == 1 && j < 2) {
                CHECK(srch_np_astar(&x->board, h, NULL, &res) == 0 && res.length == x->optimal);
                srch_np_board c;
                srch_np_board_convert(&x->board, &c);
                CHECK(srch_np_idastar(&c, hl, NULL, &res) == 0 && res.length == x->optimal);
            }
        }
        srch_np_heur_free(h);
        srch_np_heur_free(hl);
        srch_np_pdb_free(p);
    }
    hn_rng_free(rng);
    free(inst);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* 1 when q holds p's three tables. */
static int same_tables(srch_np_pdb *p, srch_np_pdb *q)
{
    uint64_t e1 = 0, e2 = 1;
    int same = q != NULL;
    for (int i = 0; same && i < 3; i++)
        same &= !memcmp(srch_np_pdb_table(p, i, &e1), srch_np_pdb_table(q, i, &e2), e1) && e1 == e2;
    return same;
}

/* Flip the bits of one byte in the middle of a file of `size` bytes. */
static int flip_middle(const char *path, long size)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return 0;
    fseek(f, size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, size / 2, SEEK_SET);
    fputc(c ^ 0x5a, f);
    return fclose(f) == 0;
}

static void test_raw(srch_np_pdb *p);

static void test_file(void)
{
    srch_np_pdb *p = build("5-5-5", 4, 1);
    if (!p)
        return;
    /* the layer scan gives the same tables on any number of threads */
    srch_np_pdb *p3 = build("5-5-5", 4, 3);
    if (p3) {
        int same = 1;
        for (int i = 0; i < 3; i++) {
            uint64_t e;
            const uint8_t *a = srch_np_pdb_table(p, i, &e);
            same &= !memcmp(a, srch_np_pdb_table(p3, i, NULL), e);
        }
        CHECK(same);
        srch_np_pdb_free(p3);
    }
    char path[] = "test_dg_pdb_file.pdb";
    CHECK(srch_np_pdb_save(p, path) == 0);
    int st;
    srch_np_pdb *q = srch_np_pdb_load(path, srch_np_pdb_partition(p), &st);
    CHECK(q != NULL && st == 0);
    CHECK(same_tables(p, q));
    srch_np_pdb_free(q);
    srch_np_partition other;
    srch_np_partition_get("6-6-3", 4, &other);
    CHECK(srch_np_pdb_load(path, &other, &st) == NULL && st == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "expected '6-6-3'") != NULL);
    /* flip one byte of the compressed data */
    long size = file_size(path);
    CHECK(size > 1000 && flip_middle(path, size));
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && st == HN_ERR_FORMAT);
    CHECK_MSG(strstr(hn_errmsg(), "corrupted") || strstr(hn_errmsg(), "checksum"), "%s",
              hn_errmsg());
    /* truncated file */
    CHECK(srch_np_pdb_save(p, path) == 0);
    CHECK(truncate(path, size / 3) == 0);
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && st == HN_ERR_FORMAT);
    CHECK_MSG(strstr(hn_errmsg(), "truncated") != NULL, "%s", hn_errmsg());
    CHECK(truncate(path, 20) == 0);
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && strstr(hn_errmsg(), "header"));
    /* not a PDB at all */
    FILE *f = fopen(path, "wb");
    if (f) {
        for (int i = 0; i < 1000; i++)
            fputc('x', f);
        fclose(f);
    }
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && strstr(hn_errmsg(), "magic"));
    remove(path);
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && st == HN_ERR_IO);
    test_raw(p);
    srch_np_pdb_free(p);
}

/* The uncompressed variant: the same lookups; a changed or truncated file
 * is refused; writing into a loaded copy leaves the file; a file truncated
 * under a loaded table leaves the table (issue 48, defect 3: it was mapped,
 * and the next lookup died of SIGBUS). */
static void test_raw(srch_np_pdb *p)
{
    char path[] = "test_dg_pdb_raw.pdb";
    int st;
    CHECK(srch_np_pdb_save_raw(p, path) == 0);
    srch_np_pdb *q = srch_np_pdb_load(path, srch_np_pdb_partition(p), &st);
    CHECK(q != NULL && st == 0);
    CHECK(same_tables(p, q));
    if (q) {
        int same = 1;
        srch_np_board b;
        hn_rng *r = hn_rng_new(3);
        for (int k = 0; r && k < 200; k++) {
            srch_np_board_random_walk(&b, 4, SRCH_NP_GOAL_BLANK_FIRST, 60, r);
            same &= srch_np_pdb_lookup(p, &b) == srch_np_pdb_lookup(q, &b);
        }
        hn_rng_free(r);
        CHECK(same);
        srch_np_pdb_table(q, 0, NULL)[0] ^= 1; /* private memory */
        srch_np_pdb_table(q, 0, NULL)[0] ^= 1;
        CHECK(truncate(path, 0) == 0);
        CHECK(same_tables(p, q));
        srch_np_pdb_free(q);
        CHECK(srch_np_pdb_save_raw(p, path) == 0);
        q = srch_np_pdb_load(path, NULL, &st);
        if (q)
            srch_np_pdb_table(q, 0, NULL)[0] ^= 1;
        srch_np_pdb_free(q);
    }
    q = srch_np_pdb_load(path, NULL, &st);
    CHECK_MSG(q != NULL, "a write into a loaded copy reached the file: %s", hn_errmsg());
    srch_np_pdb_free(q);
    long size = file_size(path);
    CHECK(size > 1000 && flip_middle(path, size));
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && strstr(hn_errmsg(), "checksum"));
    CHECK(srch_np_pdb_save_raw(p, path) == 0);
    CHECK(truncate(path, size - 1) == 0);
    CHECK(srch_np_pdb_load(path, NULL, &st) == NULL && st == HN_ERR_FORMAT);
    CHECK_MSG(strstr(hn_errmsg(), "the header says") != NULL, "%s", hn_errmsg());
    remove(path);
}

int main(void)
{
    test_8puzzle();
    test_15puzzle();
    test_file();
    return CHECK_DONE();
}
