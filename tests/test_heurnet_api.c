/* The flat facade for bindings (solve/api.h), run in C so the sanitizer
 * build covers it (the Python suite, tests/cli_python.sh, cannot load a
 * sanitizer build's library): known optimal lengths with an admissible
 * heuristic, equal results on one and two threads, moves that reach the
 * goal, refusals that name the board or setting, models from a spec, and
 * gen then train then avi on a small 8-puzzle run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "solve/api.h"
#include "solve/pdb_cache.h"

/* 8-puzzle boards with optimal lengths 22, 1 and 28 (blank-first goal). */
static const uint8_t BOARDS[3][9] = {
    {1, 2, 3, 4, 5, 6, 7, 8, 0}, {3, 1, 2, 0, 4, 5, 6, 7, 8}, {8, 7, 6, 5, 4, 3, 2, 1, 0}};
static const int OPTIMAL[3] = {22, 1, 28};

static void test_solve(int threads)
{
    heurnet_solve_args a = {
        .algo = "idastar", .heuristic = "manhattan", .width = 3, .threads = threads, .quiet = 1};
    heurnet_solve_row rows[3];
    static char moves[3][SRCH_NP_MAX_PATH + 1];
    CHECK(heurnet_solve_boards(&a, &BOARDS[0][0], 3, rows, &moves[0][0], sizeof moves[0]) == 0);
    for (int i = 0; i < 3; i++) {
        CHECK(rows[i].status == 0);
        CHECK_MSG(rows[i].length == OPTIMAL[i], "board %d: %d", i, rows[i].length);
        CHECK((int)strlen(moves[i]) == OPTIMAL[i] && rows[i].nmoves == OPTIMAL[i]);
        srch_np_board b;
        srch_np_board_set(&b, 3, BOARDS[i]);
        CHECK(srch_np_board_apply(&b, moves[i]) == 0 && srch_np_board_is_goal(&b, 0));
    }
    a.algo = "astar";
    a.lim.max_expanded = 3;
    CHECK(heurnet_solve_boards(&a, &BOARDS[0][0], 3, rows, &moves[0][0], sizeof moves[0]) == 0);
    CHECK(rows[0].status == HN_ERR_LIMIT && rows[0].length == -1 && moves[0][0] == 0);
    CHECK(rows[1].status == 0 && rows[1].length == 1);
}

static void test_refusals(void)
{
    heurnet_solve_args a = {.algo = "idastar", .heuristic = "manhattan", .width = 3, .quiet = 1};
    uint8_t bad[2][9] = {{1, 2, 3, 4, 5, 6, 7, 8, 0}, {2, 1, 3, 4, 5, 6, 7, 8, 0}};
    heurnet_solve_row rows[2];
    char moves[2][SRCH_NP_MAX_PATH + 1], buf[16];
    CHECK(heurnet_solve_boards(&a, &bad[0][0], 2, rows, &moves[0][0], sizeof moves[0]) ==
          HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "board 1") != NULL);
    bad[1][0] = 1; /* duplicate tile */
    CHECK(heurnet_boards_check(&bad[0][0], 2, 3, 0) == HN_ERR_ARG);
    CHECK(heurnet_errmsg_copy(buf, sizeof buf) > sizeof buf - 1 && strlen(buf) == sizeof buf - 1);
    a.algo = "anytime";
    CHECK(heurnet_solve_boards(&a, &BOARDS[0][0], 1, rows, &moves[0][0], sizeof moves[0]) ==
          HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "anytime") != NULL);
    a.algo = "bwas";
    a.weight = 2;
    CHECK(heurnet_solve_boards(&a, &BOARDS[0][0], 1, rows, &moves[0][0], sizeof moves[0]) ==
          HN_ERR_ARG);
    a.algo = "astar";
    a.weight = 0;
    CHECK(heurnet_solve_boards(&a, &BOARDS[0][0], 1, rows, &moves[0][0], 10) == HN_ERR_ARG);
}

static void test_models(void)
{
    int st;
    char spec[256];
    nn_model *m = heurnet_model_create("9-8:relu-1", 0.1f, 3, &st);
    CHECK(m && st == 0);
    CHECK(m && heurnet_model_spec_string(m, spec, sizeof spec) == 0);
    CHECK_MSG(!strcmp(spec, "9-8:relu,do=0.1-1"), "%s", spec);
    nn_model_free(m);
    CHECK(!heurnet_model_create("9-x-1", 0.1f, 3, &st) && st == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "9-x-1") != NULL);
    CHECK(!heurnet_model_create(NULL, 0.1f, 3, &st) && st == HN_ERR_ARG);
}

static void test_heur_values(void)
{
    srch_np_heur *h = NULL;
    int32_t v[3];
    CHECK(heurnet_heur_new("manhattan", 3, 0, 1, &h) == 0);
    CHECK(h && heurnet_heur_values(h, &BOARDS[0][0], 3, 3, v) == 0);
    CHECK(v[1] == 1 && v[0] <= OPTIMAL[0] && v[2] <= OPTIMAL[2]);
    srch_np_heur_free(h);
}

static void test_learn(void)
{
    const char *data = "t_api_data.h5", *ckpt = "t_api_ckpt.h5";
    heurnet_gen_args g = {
        .domain = "npuzzle:3x3", .count = 200, .seed = 2, .threads = 2, .quiet = 1};
    dg_dom_gen_stats st;
    CHECK(heurnet_gen(data, &g, &st) == 0 && st.rows == 200 && st.complete == 1);
    heurnet_train_args t;
    heurnet_train_defaults(&t);
    t.arch = "81-8-1";
    t.epochs = 2;
    t.batch = 32;
    t.checkpoint = ckpt;
    struct trn_result res;
    nn_model *m = NULL;
    CHECK(heurnet_train(&data, 1, &t, &m, &res) == 0 && m && res.epochs_run == 2);
    nn_model_free(m);
    t.arch = "80-8-1"; /* the data has 81 inputs */
    t.checkpoint = NULL;
    CHECK(heurnet_train(&data, 1, &t, &m, NULL) < 0 && !m);
    heurnet_avi_args a;
    heurnet_avi_defaults(&a);
    a.domain = "npuzzle:3x3";
    a.arch = "81-8-1";
    a.rounds = 2;
    a.steps_per_round = 3;
    a.batch = 20;
    CHECK(heurnet_avi(&a, &m) == 0 && m);
    nn_model_free(m);
    remove(data);
    remove(ckpt);
}

int main(void)
{
    test_solve(1);
    test_solve(2);
    test_refusals();
    test_models();
    test_heur_values();
    test_learn();
    return CHECK_DONE();
}
