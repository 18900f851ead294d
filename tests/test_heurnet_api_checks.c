/* The C facade (solve/api.h) checks its own arguments, so a C caller is
 * protected as the Python package is (issue 63, defects 1 and 10): boards
 * with tiles out of range are refused before the one-hot encoder (which
 * indexes by tile) writes anything, heuristic values refuse a board width
 * that is not the heuristic's, and every scalar of solve, gen, train, avi
 * and model creation outside the command line's range is HN_ERR_ARG naming
 * it, with nothing run and no file made. Runs under the sanitizer build:
 * an unchecked tile of 255 would write past the malloc'd inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "search/npuzzle/encode.h"
#include "solve/api.h"
#include "solve/pdb_cache.h"

static const uint8_t GOAL3[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
static const uint8_t ONE3[9] = {3, 1, 2, 0, 4, 5, 6, 7, 8};

static int all_equal(const float *x, size_t n, float v)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] != v)
            return 0;
    return 1;
}

static void test_encode(void)
{
    /* exactly the inputs of the boards: ASan sees any write past them */
    float *x = malloc(sizeof(float) * 625 * 2);
    uint8_t t[2][25];
    CHECK(x != NULL);
    for (int i = 0; i < 625 * 2; i++)
        x[i] = 7.0f;
    memset(t, 255, sizeof t);
    CHECK(heurnet_boards_encode(&t[0][0], 2, 5, 0, x) == HN_ERR_ARG);
    CHECK_MSG(strstr(hn_errmsg(), "board 0") && strstr(hn_errmsg(), "255"), "%s", hn_errmsg());
    CHECK(all_equal(x, 625 * 2, 7.0f));

    uint8_t b3[2][9];
    memcpy(b3[0], ONE3, 9);
    memcpy(b3[1], GOAL3, 9);
    b3[1][0] = 9; /* "9 1 2 3 4 5 6 7 8" */
    CHECK(heurnet_boards_encode(&b3[0][0], 2, 3, 0, x) == HN_ERR_ARG);
    CHECK_MSG(strstr(hn_errmsg(), "board 1") != NULL, "%s", hn_errmsg());
    memset(b3[1], 0, 9); /* all zero */
    CHECK(heurnet_boards_encode(&b3[0][0], 2, 3, 0, x) == HN_ERR_ARG);
    memcpy(b3[1], GOAL3, 9);
    b3[1][1] = 2, b3[1][2] = 1; /* a permutation of the other parity */
    CHECK(heurnet_boards_encode(&b3[0][0], 2, 3, 0, x) == HN_ERR_ARG);
    CHECK(all_equal(x, 625 * 2, 7.0f));
    CHECK(heurnet_boards_encode(NULL, 1, 3, 0, x) == HN_ERR_ARG);
    CHECK(heurnet_boards_encode(ONE3, 1, 3, 0, NULL) == HN_ERR_ARG);
    CHECK(heurnet_boards_encode(ONE3, 1, 6, 0, x) == HN_ERR_ARG);

    /* a good board: the encoder's own inputs */
    float want[81];
    srch_np_encode_onehot_tiles(ONE3, 9, want);
    CHECK(heurnet_boards_encode(ONE3, 1, 3, 0, x) == 0);
    CHECK(memcmp(x, want, sizeof want) == 0 && x[81] == 7.0f);
    free(x);
}

static void test_heur_values(void)
{
    srch_np_heur *h = NULL;
    int32_t out[2] = {-5, -5};
    uint8_t b4[16];
    CHECK(heurnet_heur_new("manhattan", 3, 0, 1, &h) == 0 && h);
    for (int i = 0; i < 16; i++)
        b4[i] = (uint8_t)i;
    CHECK(heurnet_heur_values(h, b4, 1, 4, out) == HN_ERR_ARG); /* width 4 for a 3x3 heuristic */
    CHECK_MSG(strstr(hn_errmsg(), "width 4") != NULL, "%s", hn_errmsg());
    uint8_t bad[9];
    memcpy(bad, ONE3, 9);
    bad[4] = 200;
    CHECK(heurnet_heur_values(h, bad, 1, 3, out) == HN_ERR_ARG);
    CHECK(heurnet_heur_values(h, ONE3, 1, 3, out) == 0 && out[0] == 1);
    srch_np_heur_free(h);
}

/* heurnet_solve_boards with one scalar changed by set: HN_ERR_ARG naming what. */
static void solve_refused(const char *what, void (*set)(heurnet_solve_args *))
{
    heurnet_solve_args a = {.algo = "idastar", .heuristic = "manhattan", .width = 3, .quiet = 1};
    heurnet_solve_row row = {.status = 99};
    static char moves[SRCH_NP_MAX_PATH + 1];
    set(&a);
    int st = heurnet_solve_boards(&a, ONE3, 1, &row, moves, sizeof moves);
    CHECK_MSG(st == HN_ERR_ARG, "%s: status %d", what, st);
    CHECK_MSG(strstr(hn_errmsg(), what) != NULL, "%s: %s", what, hn_errmsg());
    CHECK(row.status == 99);
}

static void threads_neg(heurnet_solve_args *a)
{
    a->threads = -1;
}
static void threads_big(heurnet_solve_args *a)
{
    a->threads = 10000;
}
static void threads_257(heurnet_solve_args *a)
{
    a->threads = HEURNET_MAX_THREADS + 1;
}
static void time_nan(heurnet_solve_args *a)
{
    a->lim.time_limit = NAN;
}
static void time_neg(heurnet_solve_args *a)
{
    a->lim.time_limit = -1;
}
static void time_inf(heurnet_solve_args *a)
{
    a->lim.time_limit = INFINITY;
}
static void weight_nan(heurnet_solve_args *a)
{
    a->weight = NAN;
}
static void weight_neg(heurnet_solve_args *a)
{
    a->weight = -2;
}
static void bound_half(heurnet_solve_args *a)
{
    a->bound = 0.5;
}
static void bound_nan(heurnet_solve_args *a)
{
    a->bound = NAN;
}
static void batch_neg(heurnet_solve_args *a)
{
    a->batch = -1;
}
static void batch_big(heurnet_solve_args *a)
{
    a->batch = 70000;
}

static void test_solve(void)
{
    solve_refused("threads", threads_neg);
    solve_refused("threads", threads_big);
    solve_refused("threads", threads_257);
    solve_refused("time_limit", time_nan);
    solve_refused("time_limit", time_neg);
    solve_refused("time_limit", time_inf);
    solve_refused("weight", weight_nan);
    solve_refused("weight", weight_neg);
    solve_refused("bound", bound_half);
    solve_refused("bound", bound_nan);
    solve_refused("batch", batch_neg);
    solve_refused("batch", batch_big);
    heurnet_solve_args a = {.algo = "astar",
                            .heuristic = "manhattan",
                            .width = 3,
                            .threads = HEURNET_MAX_THREADS,
                            .lim = {.time_limit = 5},
                            .quiet = 1};
    heurnet_solve_row row;
    static char moves[SRCH_NP_MAX_PATH + 1];
    CHECK(heurnet_solve_boards(&a, ONE3, 1, &row, moves, sizeof moves) == 0);
    CHECK(row.status == 0 && row.length == 1 && !strcmp(moves, "U"));
    CHECK(heurnet_solve_boards(NULL, ONE3, 1, &row, moves, sizeof moves) == HN_ERR_ARG);
}

static int exists(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

static void test_gen(void)
{
    const char *path = "t_api_checks_gen.h5";
    heurnet_gen_args ok = {.domain = "npuzzle:3x3",
                           .count = 3,
                           .seed = 1,
                           .threads = 1,
                           .walk_min = 4,
                           .walk_max = 4,
                           .quiet = 1};
    struct {
        const char *what;
        heurnet_gen_args a;
    } bad[] = {{"count", ok}, {"threads", ok}, {"threads", ok},     {"walks", ok}, {"walks", ok},
               {"walks", ok}, {"exclude", ok}, {"npuzzle:9x9", ok}, {"domain", ok}};
    bad[0].a.count = 0;
    bad[1].a.threads = -1;
    bad[2].a.threads = HEURNET_MAX_GEN_THREADS + 1;
    bad[3].a.walk_min = -1;
    bad[4].a.walk_max = DG_DOM_MAX_WALK + 1;
    bad[5].a.walk_min = 5;
    bad[6].a.uniform = 1;
    bad[7].a.domain = "npuzzle:9x9";
    bad[8].a.domain = NULL;
    remove(path);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = heurnet_gen(path, &bad[i].a, NULL);
        CHECK_MSG(st == HN_ERR_ARG && strstr(hn_errmsg(), bad[i].what), "case %zu (%s): %d %s", i,
                  bad[i].what, st, hn_errmsg());
        CHECK(!exists(path));
    }
}

static void test_train(void)
{
    const char *data[] = {"t_api_checks_none.h5"}; /* never opened */
    const char *nodata[] = {NULL};
    heurnet_train_args ok;
    heurnet_train_defaults(&ok);
    ok.arch = "81-4-1";
    struct {
        const char *what;
        heurnet_train_args a;
    } bad[] = {{"threads", ok}, {"threads", ok},     {"lr", ok},       {"lr", ok},
               {"dropout", ok}, {"dropout", ok},     {"patience", ok}, {"epochs", ok},
               {"batch", ok},   {"val_fraction", ok}};
    bad[0].a.threads = 0;
    bad[1].a.threads = 10000;
    bad[2].a.lr = NAN;
    bad[3].a.lr = 11;
    bad[4].a.dropout = 1.0;
    bad[5].a.dropout = NAN;
    bad[6].a.patience = -1;
    bad[7].a.epochs = 0;
    bad[8].a.batch = 1 << 20;
    bad[9].a.val_fraction = NAN;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nn_model *m = (nn_model *)&ok; /* must come back NULL */
        int st = heurnet_train(data, 1, &bad[i].a, &m, NULL);
        CHECK_MSG(st == HN_ERR_ARG && !m && strstr(hn_errmsg(), bad[i].what),
                  "case %zu (%s): %d %s", i, bad[i].what, st, hn_errmsg());
    }
    nn_model *m = NULL;
    CHECK(heurnet_train(nodata, 1, &ok, &m, NULL) == HN_ERR_ARG && !m);
}

static void test_avi(void)
{
    heurnet_avi_args ok;
    heurnet_avi_defaults(&ok);
    ok.domain = "npuzzle:3x3";
    ok.arch = "81-4-1";
    struct {
        const char *what;
        heurnet_avi_args a;
    } bad[] = {{"lookahead", ok}, {"threads", ok},        {"rounds", ok},   {"lr", ok},
               {"lr_decay", ok},  {"update_loss", ok},    {"walk_max", ok}, {"domain", ok},
               {"batch", ok},     {"steps_per_round", ok}};
    bad[0].a.lookahead = TRN_AVI_MAX_TABLE_LOOKAHEAD + 1;
    bad[1].a.threads = 0;
    bad[2].a.rounds = -1;
    bad[3].a.lr = NAN;
    bad[4].a.lr_decay = 0;
    bad[5].a.update_loss = -1;
    bad[6].a.walk_max = -1;
    bad[7].a.domain = NULL;
    bad[8].a.batch = 1;
    bad[9].a.steps_per_round = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nn_model *m = NULL;
        int st = heurnet_avi(&bad[i].a, &m);
        CHECK_MSG(st == HN_ERR_ARG && !m && strstr(hn_errmsg(), bad[i].what),
                  "case %zu (%s): %d %s", i, bad[i].what, st, hn_errmsg());
    }
}

static void test_model_create(void)
{
    int st = 0;
    CHECK(heurnet_model_create("4-2-1", NAN, 1, &st) == NULL && st == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "dropout") != NULL);
    CHECK(heurnet_model_create("4-2-1", 1.0f, 1, &st) == NULL && st == HN_ERR_ARG);
    nn_model *m = heurnet_model_create("4-2-1", 0.1f, 1, &st);
    CHECK(m && st == 0);
    nn_model_free(m);
}

int main(void)
{
    test_encode();
    test_heur_values();
    test_solve();
    test_gen();
    test_train();
    test_avi();
    test_model_create();
    return CHECK_DONE();
}
