/* DeepCubeA's batch-weighted A* (BWAS: expand the B best nodes by
 * lambda*g + h) as srch_np_batch_astar with weight 1/lambda: with an
 * admissible heuristic every solution replays to the goal and is at most
 * optimal/lambda long, and exactly optimal at lambda 1, for every batch
 * size. Optima come from a BFS table (8-puzzle) and from IDA* (15-puzzle
 * random walks), both independent of the search under test. */
#include <stdlib.h>

#include "check.h"
#include "np_replay.h"
#include "np_bfs.h"
#include "search/npuzzle/ann.h"

#define N8BOARDS 40
#define N15BOARDS 6

/* Solve every board with BWAS(lambda, batch); count the solutions that
 * replay and stay within optimal/lambda (and those exactly optimal). */
static void check_bwas(const char *what, const srch_np_heur *h, const srch_np_board *boards,
                       const int *opt, int n, double lambda, int batch)
{
    srch_np_bfs_opts o = {.batch = batch, .weight = 1.0 / lambda};
    int ok = 0, within = 0, exact = 0;
    for (int i = 0; i < n; i++) {
        srch_np_result r;
        if (srch_np_batch_astar(&boards[i], h, &o, NULL, &r))
            continue;
        ok += replays(&boards[i], &r, srch_np_heur_goal(h));
        within += r.length >= opt[i] && r.length <= opt[i] / lambda + 1e-9;
        exact += r.length == opt[i];
    }
    CHECK_MSG(ok == n && within == n, "%s lambda %g batch %d: %d/%d replay, %d/%d within", what,
              lambda, batch, ok, n, within, n);
    if (lambda == 1.0)
        CHECK_MSG(exact == n, "%s lambda 1 batch %d: %d/%d optimal", what, batch, exact, n);
}

static void test_8puzzle(hn_rng *rng)
{
    uint8_t *dist = bfs8(SRCH_NP_GOAL_BLANK_LAST);
    int st;
    srch_np_heur *h = srch_np_heur_manhattan_new(3, SRCH_NP_GOAL_BLANK_LAST, &st);
    CHECK(dist && h);
    if (!dist || !h) {
        free(dist);
        srch_np_heur_free(h);
        return;
    }
    srch_np_board boards[N8BOARDS];
    int opt[N8BOARDS];
    for (int i = 0; i < N8BOARDS; i++) {
        srch_np_board_random(&boards[i], 3, SRCH_NP_GOAL_BLANK_LAST, rng);
        opt[i] = dist[srch_np_board_rank(&boards[i])];
    }
    const double lambdas[] = {1.0, 0.8, 0.6, 0.5};
    const int batches[] = {1, 16, 256};
    for (int l = 0; l < 4; l++)
        for (int b = 0; b < 3; b++)
            check_bwas("8-puzzle manhattan", h, boards, opt, N8BOARDS, lambdas[l], batches[b]);
    free(dist);
    srch_np_heur_free(h);
}

static void test_15puzzle(hn_rng *rng)
{
    int st;
    srch_np_heur *h = srch_np_heur_lc_new(4, SRCH_NP_GOAL_BLANK_FIRST, &st);
    CHECK(h != NULL);
    if (!h)
        return;
    srch_np_board boards[N15BOARDS];
    int opt[N15BOARDS], solved = 0;
    for (int i = 0; i < N15BOARDS; i++) {
        srch_np_result r;
        srch_np_board_random_walk(&boards[i], 4, SRCH_NP_GOAL_BLANK_FIRST, 40 + 4 * i, rng);
        solved += srch_np_idastar(&boards[i], h, NULL, &r) == 0;
        opt[i] = r.length;
    }
    CHECK(solved == N15BOARDS);
    const double lambdas[] = {1.0, 0.7};
    for (int l = 0; l < 2; l++)
        check_bwas("15-puzzle lc", h, boards, opt, N15BOARDS, lambdas[l], 100);
    srch_np_heur_free(h);
}

/* lambda above 1 (weight below 1) is refused; the goal needs 0 moves. */
static void test_refusals(void)
{
    int st;
    srch_np_heur *h = srch_np_heur_manhattan_new(3, SRCH_NP_GOAL_BLANK_FIRST, &st);
    CHECK(h != NULL);
    if (!h)
        return;
    srch_np_board b;
    srch_np_board_goal(&b, 3, SRCH_NP_GOAL_BLANK_FIRST);
    srch_np_result r;
    srch_np_bfs_opts bad = {.batch = 8, .weight = 1.0 / 1.25};
    CHECK(srch_np_batch_astar(&b, h, &bad, NULL, &r) == HN_ERR_ARG);
    srch_np_bfs_opts ok = {.batch = 8, .weight = 1.25};
    CHECK(srch_np_batch_astar(&b, h, &ok, NULL, &r) == 0 && r.length == 0);
    srch_np_heur_free(h);
}

int main(void)
{
    hn_rng *rng = hn_rng_new(19);
    CHECK(rng != NULL);
    if (!rng)
        return CHECK_DONE();
    test_8puzzle(rng);
    test_15puzzle(rng);
    test_refusals();
    hn_rng_free(rng);
    return CHECK_DONE();
}
