/* Shortening solutions by windows (srch_np_shortcut): an optimal 8-puzzle
 * path (BFS optima) with a detour walked out and back inserted comes back
 * optimal, and a loop that is one window is cut out; a path is never made
 * longer and always still reaches the goal; an optimal path keeps its
 * length; too small a budget changes nothing; anytime A* with the pass
 * finds solutions no longer than without it, and shorter on some boards;
 * bad settings are refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "np_bfs.h"
#include "np_replay.h"
#include "search/npuzzle/ann.h"

#define NBOARDS 200

/* r's path with a walk of k moves out from board i of it and back inserted. */
static void insert_detour(const srch_np_board *start, srch_np_result *r, int i, int k, hn_rng *rng)
{
    srch_np_board x = *start;
    for (int j = 0; j < i; j++)
        srch_np_board_move(&x, r->moves[j]);
    uint8_t out[32];
    int n = 0, prev = -1;
    while (n < k) {
        int d = (int)hn_rng_below(rng, 4);
        if (d == (prev ^ 1) || !srch_np_board_can_move(&x, d))
            continue;
        srch_np_board_move(&x, d);
        out[n++] = (uint8_t)d;
        prev = d;
    }
    memmove(r->moves + i + 2 * k, r->moves + i, (size_t)(r->nmoves - i));
    for (int j = 0; j < k; j++) {
        r->moves[i + j] = out[j];
        r->moves[i + 2 * k - 1 - j] = (uint8_t)(out[j] ^ 1); /* the opposite move */
    }
    r->nmoves += 2 * k;
    r->length = r->nmoves;
}

/* A random board at least 8 moves from the goal (Manhattan), its optimal
 * path (A*) in *r with a walk of k moves out and back inserted at its
 * start; returns the optimal length. */
static int detoured_board(srch_np_heur *md, int goal, int k, hn_rng *rng, srch_np_board *b,
                          srch_np_result *r)
{
    do
        srch_np_board_random(b, 3, goal, rng);
    while (srch_np_heur_eval(md, b) < 8);
    CHECK(srch_np_astar(b, md, NULL, r) == 0);
    int opt = r->length;
    insert_detour(b, r, 0, k, rng);
    return opt;
}

static void test_detours(const uint8_t *dist, srch_np_heur *md, int goal, hn_rng *rng)
{
    const srch_np_shortcut_opts o = {.max_window = 18, .budget = 1000000};
    int back = 0, lonely = 0, tried = 0;
    for (int t = 0; t < NBOARDS; t++) {
        srch_np_board b;
        srch_np_result r;
        srch_np_board_random(&b, 3, goal, rng);
        CHECK(srch_np_astar(&b, md, NULL, &r) == 0);
        int opt = dist[srch_np_board_rank(&b)];
        CHECK(r.length == opt);
        if (opt < 2)
            continue;
        tried++;
        int k = 1 + (int)hn_rng_below(rng, 4); /* 2k <= 8 <= 18 / 2: inside one window */
        insert_detour(&b, &r, (int)hn_rng_below(rng, (uint32_t)r.nmoves + 1), k, rng);
        CHECK(replays(&b, &r, goal));
        int before = r.nmoves, saved = 0;
        CHECK(srch_np_shortcut(&b, r.moves, &r.nmoves, &o, 0, &saved) == 0);
        r.length = r.nmoves;
        CHECK_MSG(replays(&b, &r, goal) && r.length <= before && saved == before - r.length,
                  "board %d: %d -> %d moves, saved %d", t, before, r.length, saved);
        back += r.length == opt;
        /* the same pass on the optimal path alone changes nothing */
        CHECK(srch_np_astar(&b, md, NULL, &r) == 0);
        saved = 0;
        CHECK(srch_np_shortcut(&b, r.moves, &r.nmoves, &o, 0, &saved) == 0);
        lonely += r.nmoves == opt && saved == 0;
    }
    printf("detours: %d of %d paths back to optimal; %d optimal paths kept\n", back, tried, lonely);
    CHECK_MSG(tried > NBOARDS / 2 && back == tried && lonely == tried,
              "%d of %d detoured paths came back optimal, %d optimal paths kept", back, tried,
              lonely);
}

/* A budget of one node per window finds nothing (the detour of 6 moves is
 * no window's loop: windows have 8, 12, ... moves); window 0 is off. */
static void test_budget_and_refusals(srch_np_heur *md, int goal, hn_rng *rng)
{
    srch_np_board b;
    srch_np_result r;
    detoured_board(md, goal, 3, rng, &b, &r);
    int n0 = r.nmoves, saved = 0;
    uint8_t copy[SRCH_NP_MAX_PATH];
    memcpy(copy, r.moves, (size_t)n0);
    srch_np_shortcut_opts tiny = {.max_window = 18, .budget = 1},
                          off = {.max_window = 0, .budget = 1};
    CHECK(srch_np_shortcut(&b, r.moves, &r.nmoves, &tiny, 0, &saved) == 0 && r.nmoves == n0 &&
          saved == 0 && !memcmp(copy, r.moves, (size_t)n0));
    CHECK(srch_np_shortcut(&b, r.moves, &r.nmoves, &off, 0, &saved) == 0 && r.nmoves == n0);
    const srch_np_shortcut_opts bad[] = {
        {3, 10}, {201, 10}, {-1, 10}, {18, 0}, {18, SRCH_NP_SHORTCUT_MAX_BUDGET + 1}};
    CHECK(srch_np_shortcut_check(&(srch_np_shortcut_opts){0, 0}) == 0); /* off */
    for (int i = 0; i < 5; i++) {
        CHECK_MSG(srch_np_shortcut_check(&bad[i]) == HN_ERR_ARG, "bad setting %d accepted", i);
        CHECK(srch_np_shortcut(&b, r.moves, &r.nmoves, &bad[i], 0, &saved) == HN_ERR_ARG &&
              r.nmoves == n0);
    }
}

/* A loop (a walk out and back) that is exactly one window: its end boards
 * are equal, and the pass cuts it out (a zero-move path) with windows of 8
 * alone, where no other window holds it. */
static void test_loop(srch_np_heur *md, int goal, hn_rng *rng)
{
    srch_np_board b;
    srch_np_result r;
    int opt = detoured_board(md, goal, 4, rng, &b, &r), saved = 0;
    const srch_np_shortcut_opts eight = {.max_window = 8, .budget = 1000};
    CHECK(srch_np_shortcut(&b, r.moves, &r.nmoves, &eight, 0, &saved) == 0);
    r.length = r.nmoves;
    CHECK_MSG(replays(&b, &r, goal) && r.length == opt && saved == 8,
              "loop of 8 moves: %d moves left (optimum %d), %d saved", r.length, opt, saved);
}

/* Three times Manhattan: a guide whose weighted A* solutions are often
 * not optimal. */
static int thrice_eval(void *self, const srch_np_board *b)
{
    return 3 * srch_np_heur_eval(self, b);
}

static int thrice_batch(void *self, const srch_np_board *b, size_t n, int *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = thrice_eval(self, &b[i]);
    return 0;
}

/* Anytime A* with a node limit that ends it in its first phases: the pass
 * never lengthens, shortens some boards, and every solution replays. */
static void test_anytime(const uint8_t *dist, srch_np_heur *md, int goal, hn_rng *rng)
{
    int st;
    srch_np_heur_ops ops = {.name = "thrice-md", .eval = thrice_eval, .eval_batch = thrice_batch};
    srch_np_heur *guide = srch_np_heur_custom_new(&ops, md, 3, goal, &st);
    CHECK(guide != NULL);
    if (!guide)
        return;
    const double sched[] = {0};
    const srch_np_shortcut_opts o = {.max_window = 12, .budget = 100000};
    int shorter = 0, optimal = 0, saved = 0;
    for (int t = 0; t < NBOARDS; t++) {
        srch_np_board b;
        srch_np_result r0, r1;
        srch_np_board_random(&b, 3, goal, rng);
        CHECK(srch_np_anytime(&b, guide, md, sched, 1, NULL, 0, NULL, NULL, &r0) == 0);
        CHECK(srch_np_anytime(&b, guide, md, sched, 1, NULL, 0, &o, NULL, &r1) == 0);
        CHECK_MSG(replays(&b, &r1, goal) && r1.length <= r0.length &&
                      r1.length >= dist[srch_np_board_rank(&b)],
                  "board %d: %d moves with the pass, %d without", t, r1.length, r0.length);
        shorter += r1.length < r0.length;
        optimal += r1.length == dist[srch_np_board_rank(&b)];
        CHECK(r0.saved == 0);
        saved += r1.saved;
    }
    /* saved counts what the pass removed from incumbents: some, somewhere */
    CHECK_MSG(saved > 0, "the pass removed %d moves over %d boards", saved, NBOARDS);
    printf("anytime: %d of %d solutions shorter with the pass, %d optimal\n", shorter, NBOARDS,
           optimal);
    CHECK_MSG(shorter > 0, "the pass shortened %d of %d anytime solutions", shorter, NBOARDS);
    srch_np_heur_free(guide);
}

int main(void)
{
    int goal = SRCH_NP_GOAL_BLANK_FIRST, st;
    uint8_t *dist = bfs8(goal);
    srch_np_heur *md = srch_np_heur_manhattan_new(3, goal, &st);
    hn_rng *rng = hn_rng_new(77);
    CHECK(dist && md && rng);
    if (dist && md && rng) {
        test_detours(dist, md, goal, rng);
        test_budget_and_refusals(md, goal, rng);
        test_loop(md, goal, rng);
        test_anytime(dist, md, goal, rng);
    }
    hn_rng_free(rng);
    srch_np_heur_free(md);
    free(dist);
    return CHECK_DONE();
}
