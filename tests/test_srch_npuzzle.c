/* n-puzzle domain and searches without pattern databases: board moves and
 * layouts, parsing, ranking, Manhattan / linear conflict, and IDA* / A*
 * checked against a breadth-first search over all 8-puzzle states. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "np_bfs.h"
#include "search/srch.h"

static void test_board(void)
{
    srch_np_board g, b;
    CHECK(srch_np_board_goal(&g, 4, SRCH_NP_GOAL_BLANK_FIRST) == 0);
    CHECK(g.blank == 0 && g.tile[15] == 15 && srch_np_board_is_goal(&g, SRCH_NP_GOAL_BLANK_FIRST));
    CHECK(!srch_np_board_can_move(&g, SRCH_NP_UP) && !srch_np_board_can_move(&g, SRCH_NP_LEFT));
    b = g;
    CHECK(srch_np_board_move(&b, SRCH_NP_RIGHT) == 1 && b.blank == 1 && b.tile[0] == 1);
    CHECK(srch_np_board_move(&b, SRCH_NP_LEFT) == 1 && srch_np_board_equal(&b, &g));
    CHECK(srch_np_board_apply(&b, "RDLU") == 0 && b.blank == 0 && b.tile[1] == 5 &&
          b.tile[4] == 1 && b.tile[5] == 4);
    CHECK(srch_np_board_apply(&b, "UU") != 0);
    /* the two 15-puzzle goals lie in different parity classes, 8 and 24 share one */
    CHECK(!srch_np_board_solvable(&g, SRCH_NP_GOAL_BLANK_LAST));
    srch_np_board_goal(&b, 3, SRCH_NP_GOAL_BLANK_LAST);
    CHECK(srch_np_board_solvable(&b, SRCH_NP_GOAL_BLANK_FIRST));
    /* conversion maps goal to goal and is its own inverse */
    srch_np_board c;
    srch_np_board_convert(&g, &c);
    CHECK(srch_np_board_is_goal(&c, SRCH_NP_GOAL_BLANK_LAST));
    hn_rng *rng = hn_rng_new(7);
    for (int i = 0; i < 200; i++) {
        int w = 3 + i % 3;
        srch_np_board_random(&b, w, i & 1, rng);
        CHECK(srch_np_board_solvable(&b, i & 1));
        srch_np_board_convert(&b, &c);
        CHECK(srch_np_board_solvable(&c, !(i & 1)));
        srch_np_board d;
        srch_np_board_convert(&c, &d);
        CHECK(srch_np_board_equal(&b, &d));
        if (w <= 4) {
            srch_np_board e;
            CHECK(srch_np_board_unrank(&e, w, srch_np_board_rank(&b)) == 0 &&
                  srch_np_board_equal(&b, &e));
        }
        srch_np_board_random_walk(&b, w, i & 1, 30, rng);
        CHECK(srch_np_board_solvable(&b, i & 1));
    }
    hn_rng_free(rng);
    char buf[128];
    srch_np_board_goal(&b, 3, SRCH_NP_GOAL_BLANK_LAST);
    srch_np_board_format(&b, buf, sizeof buf);
    CHECK(!strcmp(buf, "1 2 3 4 5 6 7 8 0"));
    uint8_t mv[3] = {SRCH_NP_UP, SRCH_NP_RIGHT, SRCH_NP_DOWN};
    srch_np_moves_format(mv, 3, buf, sizeof buf);
    CHECK(!strcmp(buf, "URD"));
}

static void test_parse(void)
{
    srch_np_instance x;
    CHECK(srch_np_parse_line("# comment", 4, 0, &x) == 0);
    CHECK(srch_np_parse_line("   ", 4, 0, &x) == 0);
    CHECK(srch_np_parse_line("7 41 13 8 14 3 9 1 0 7 15 5 4 10 12 2 6 11", 4, 0, &x) == 1);
    CHECK(!strcmp(x.id, "7") && x.optimal == 41 && x.board.blank == 6);
    CHECK(srch_np_parse_line("1 2 3 4 5 6 7 8 0", 3, SRCH_NP_GOAL_BLANK_LAST, &x) == 1 &&
          x.optimal == -1);
    CHECK(srch_np_parse_line("1 2 3 4 5 6 7 8", 3, 0, &x) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "expected 9 tiles") != NULL);
    CHECK(srch_np_parse_line("1 2 3 4 5 6 7 8 9", 3, 0, &x) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "out of range") != NULL);
    CHECK(srch_np_parse_line("1 2 3 4 5 6 7 7 0", 3, 0, &x) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "twice") != NULL);
    CHECK(srch_np_parse_line("2 1 3 4 5 6 7 8 0", 3, SRCH_NP_GOAL_BLANK_LAST, &x) ==
          HN_ERR_UNSOLVABLE);
    CHECK(strstr(hn_errmsg(), "unsolvable") != NULL);
    CHECK(srch_np_parse_line("1 2 3 4 x 6 7 8 0", 3, 0, &x) == HN_ERR_FORMAT);
    srch_np_instance *all;
    size_t n;
    CHECK(srch_np_parse_file(HN_TEST_DATA "/npuzzle/korf100.txt", 4, 0, NULL, NULL, &all, &n) == 0);
    CHECK(n == 100);
    if (n == 100) {
        double mean = 0;
        for (size_t i = 0; i < n; i++)
            mean += all[i].optimal;
        CHECK_CLOSE(mean / 100, 53.05, 1e-9);
        CHECK(!strcmp(all[99].id, "100"));
        free(all);
    }
    /* the DeepCubeA file is blank-last: every board unsolvable for blank-first */
    CHECK(srch_np_parse_file(HN_TEST_DATA "/npuzzle/deepcubea_test_15puzzle.txt", 4, 0, NULL, NULL,
                             &all, &n) == HN_ERR_UNSOLVABLE);
    CHECK(all == NULL);
    CHECK(srch_np_parse_file("/nonexistent/file", 4, 0, NULL, NULL, &all, &n) == HN_ERR_IO);
}

static void test_rank(void)
{
    hn_rng *rng = hn_rng_new(3);
    for (int it = 0; it < 1000; it++) {
        int n = 9 + (it % 3) * 7 + (it % 3 == 2 ? 2 : 0); /* 9, 16, 25 */
        int k = 1 + (int)hn_rng_below(rng, 8);
        uint8_t cells[25], back[25];
        uint32_t used = 0;
        for (int i = 0; i < k; i++) {
            int c;
            do
                c = (int)hn_rng_below(rng, (uint32_t)n);
            while (used & (1u << c));
            used |= 1u << c;
            cells[i] = (uint8_t)c;
        }
        uint64_t r = srch_np_pdb_rank(cells, k, n);
        CHECK(r < srch_np_pdb_entries(n, k));
        srch_np_pdb_unrank(r, k, n, back);
        CHECK(!memcmp(cells, back, (size_t)k));
    }
    hn_rng_free(rng);
    CHECK(srch_np_pdb_entries(16, 8) == 518918400ull);
}

/* A consistent heuristic changes by at most one per move. */
static void check_consistent(srch_np_heur *h, int width, int goal, hn_rng *rng)
{
    CHECK(h && srch_np_heur_incremental(h));
    if (!h)
        return;
    srch_np_board b;
    srch_np_board_random(&b, width, goal, rng);
    int bad = 0;
    for (int step = 0; step < 300; step++) {
        int before = srch_np_heur_eval(h, &b);
        if (srch_np_board_move(&b, (int)hn_rng_below(rng, 4)) < 0)
            continue;
        bad += abs(srch_np_heur_eval(h, &b) - before) != 1;
    }
    CHECK(bad == 0);
    srch_np_heur_free(h);
}

static void test_search8(void)
{
    uint8_t *dist = bfs8(SRCH_NP_GOAL_BLANK_FIRST);
    CHECK(dist != NULL);
    if (!dist)
        return;
    int reached = 0, maxd = 0;
    for (int r = 0; r < N8; r++)
        if (dist[r] != 255) {
            reached++;
            if (dist[r] > maxd)
                maxd = dist[r];
        }
    CHECK(reached == 181440 && maxd == 31);
    srch_np_heur *md = srch_np_heur_manhattan_new(3, 0, NULL);
    srch_np_heur *lc = srch_np_heur_lc_new(3, 0, NULL);
    CHECK(md && lc);
    /* admissible on every state, and LC dominates Manhattan */
    srch_np_board b;
    int bad = 0;
    for (int r = 0; r < N8; r++) {
        if (dist[r] == 255)
            continue;
        srch_np_board_unrank(&b, 3, (uint64_t)r);
        int hm = srch_np_heur_eval(md, &b), hl = srch_np_heur_eval(lc, &b);
        bad += hm > dist[r] || hl > dist[r] || hl < hm || (hl - hm) % 2;
    }
    CHECK(bad == 0);
    /* IDA* and A* lengths equal the BFS distance on a seeded sample */
    hn_rng *rng = hn_rng_new(11);
    int mismatch = 0, badpath = 0;
    for (int i = 0; i < 400; i++) {
        srch_np_board_random(&b, 3, 0, rng);
        int want = dist[srch_np_board_rank(&b)];
        srch_np_result res;
        const srch_np_heur *hs[2] = {md, lc};
        for (int k = 0; k < 2; k++) {
            CHECK(srch_np_idastar(&b, hs[k], NULL, &res) == 0);
            mismatch += res.length != want;
            srch_np_board e = b;
            for (int m = 0; m < res.nmoves; m++)
                badpath += srch_np_board_move(&e, res.moves[m]) < 0;
            badpath += !srch_np_board_is_goal(&e, 0);
            CHECK(srch_np_astar(&b, hs[k], NULL, &res) == 0);
            mismatch += res.length != want;
            e = b;
            for (int m = 0; m < res.nmoves; m++)
                badpath += srch_np_board_move(&e, res.moves[m]) < 0;
            badpath += !srch_np_board_is_goal(&e, 0);
        }
    }
    CHECK(mismatch == 0 && badpath == 0);
    /* limits and bad input */
    srch_np_board_random(&b, 3, 0, rng);
    while (dist[srch_np_board_rank(&b)] < 20)
        srch_np_board_random(&b, 3, 0, rng);
    srch_limits lim = {.max_expanded = 5};
    srch_np_result res;
    CHECK(srch_np_idastar(&b, md, &lim, &res) == HN_ERR_LIMIT && res.length == -1);
    CHECK(srch_np_astar(&b, md, &lim, &res) == HN_ERR_LIMIT && res.length == -1);
    srch_np_board u;
    uint8_t tiles[9] = {0, 2, 1, 3, 4, 5, 6, 7, 8};
    srch_np_board_set(&u, 3, tiles);
    CHECK(srch_np_idastar(&u, md, NULL, &res) == HN_ERR_UNSOLVABLE);
    CHECK(srch_np_astar(&u, md, NULL, &res) == HN_ERR_UNSOLVABLE);
    srch_np_board g4;
    srch_np_board_goal(&g4, 4, 0);
    CHECK(srch_np_idastar(&g4, md, NULL, &res) == HN_ERR_ARG);
    srch_np_heur_free(md);
    srch_np_heur_free(lc);
    check_consistent(srch_np_heur_manhattan_new(4, 1, NULL), 4, 1, rng);
    check_consistent(srch_np_heur_manhattan_new(5, 0, NULL), 5, 0, rng);
    hn_rng_free(rng);
    free(dist);
}

/* blank-last goal: distances equal those of the converted board. */
static void test_blank_last(void)
{
    uint8_t *first = bfs8(SRCH_NP_GOAL_BLANK_FIRST), *last = bfs8(SRCH_NP_GOAL_BLANK_LAST);
    CHECK(first && last);
    if (first && last) {
        int bad = 0;
        srch_np_board b, c;
        for (int r = 0; r < N8; r += 7) {
            srch_np_board_unrank(&b, 3, (uint64_t)r);
            srch_np_board_convert(&b, &c);
            bad += first[r] != last[srch_np_board_rank(&c)];
        }
        CHECK(bad == 0);
        /* the diagonal mirror keeps every distance, fixes the goal and is an
         * involution, for both layouts (all reachable 8-puzzle states) */
        int mirror_bad = 0, mirror_moved = 0;
        for (int r = 0; r < N8; r++) {
            srch_np_board_unrank(&b, 3, (uint64_t)r);
            for (int g = 0; g < 2; g++) {
                const uint8_t *dist = g ? last : first;
                if (dist[r] == 255)
                    continue;
                srch_np_board m, back;
                srch_np_board_transpose(&b, g, &m);
                srch_np_board_transpose(&m, g, &back);
                mirror_bad +=
                    dist[srch_np_board_rank(&m)] != dist[r] || !srch_np_board_equal(&back, &b);
                mirror_moved += !srch_np_board_equal(&m, &b);
            }
        }
        CHECK_MSG(mirror_bad == 0, "%d mirrored boards differ", mirror_bad);
        CHECK(mirror_moved > N8 / 2);
        for (int g = 0; g < 2; g++) {
            srch_np_board goal, m;
            srch_np_board_goal(&goal, 4, g);
            srch_np_board_transpose(&goal, g, &m);
            CHECK(srch_np_board_equal(&m, &goal));
        }
        srch_np_heur *lc = srch_np_heur_lc_new(3, SRCH_NP_GOAL_BLANK_LAST, NULL);
        hn_rng *rng = hn_rng_new(5);
        for (int i = 0; i < 100; i++) {
            srch_np_board_random(&b, 3, SRCH_NP_GOAL_BLANK_LAST, rng);
            srch_np_result res;
            CHECK(srch_np_idastar(&b, lc, NULL, &res) == 0 &&
                  res.length == last[srch_np_board_rank(&b)]);
        }
        hn_rng_free(rng);
        srch_np_heur_free(lc);
    }
    free(first);
    free(last);
}

/* A plugged-in heuristic with only a batch function path is used by A*. */
typedef struct {
    srch_np_heur *inner;
    int batches;
} wrap;

static int wrap_eval(void *self, const srch_np_board *b)
{
    return srch_np_heur_eval(((wrap *)self)->inner, b);
}

static int wrap_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    wrap *w = self;
    w->batches++;
    for (size_t i = 0; i < n; i++)
        out[i] = srch_np_heur_eval(w->inner, &b[i]);
    return 0;
}

static void test_custom(void)
{
    wrap w = {srch_np_heur_manhattan_new(4, 0, NULL), 0};
    srch_np_heur_ops ops = {.name = "wrapped", .eval = wrap_eval, .eval_batch = wrap_batch};
    srch_np_heur *h = srch_np_heur_custom_new(&ops, &w, 4, 0, NULL);
    CHECK(h && srch_np_heur_batched(h) && !srch_np_heur_incremental(h));
    srch_np_board b;
    srch_np_board_goal(&b, 4, 0);
    CHECK(srch_np_board_apply(&b, "RRDDLURDDRUULLDRDLURDR") == 0);
    srch_np_result r1, r2;
    CHECK(srch_np_astar(&b, h, NULL, &r1) == 0 && w.batches > 0 &&
          r1.batches == (uint64_t)w.batches);
    CHECK(srch_np_idastar(&b, h, NULL, &r2) == 0 && r1.length == r2.length);
    srch_np_heur_free(h);
    srch_np_heur_free(w.inner);
    /* max of Manhattan and LC equals LC */
    srch_np_heur *parts[2] = {srch_np_heur_manhattan_new(4, 0, NULL),
                              srch_np_heur_lc_new(4, 0, NULL)};
    srch_np_heur *mx = srch_np_heur_max_new(parts, 2, NULL);
    srch_np_heur *lc = srch_np_heur_lc_new(4, 0, NULL);
    CHECK(mx && srch_np_heur_incremental(mx));
    CHECK(srch_np_heur_eval(mx, &b) == srch_np_heur_eval(lc, &b));
    CHECK(srch_np_idastar(&b, mx, NULL, &r2) == 0 && r2.length == r1.length);
    srch_np_heur_free(mx);
    srch_np_heur_free(lc);
}

int main(void)
{
    test_board();
    test_parse();
    test_rank();
    test_search8();
    test_blank_last();
    test_custom();
    return CHECK_DONE();
}
