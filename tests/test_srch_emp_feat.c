/* The emp-move-v1 encoder and the move scorer: features kept incrementally
 * equal features recounted from the board, encoding leaves the board as it
 * was, and scorer models of another encoder, width or output count are
 * refused with a message naming the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nn/nn.h"
#include "search/emp/emp.h"
#include "search/emp/srch_em_scorer.h"

/* Random moves, sometimes several between syncs, sometimes a whole TSR
 * descent behind the context's back; after each sync every candidate of a
 * few cells must encode identically both ways. */
static void test_incremental(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(8, 7, 3, 5, 11, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    srch_em_feat *f = b ? srch_em_feat_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(5);
    srch_em_move cand[64];
    CHECK(in && b && f && rng);
    if (!f || !rng)
        return;
    srch_em_board_random(b, rng);
    long compared = 0, mismatched = 0, bad_delta = 0, moved_board = 0;
    for (int it = 0; it < 300; it++) {
        int steps = 1 + (int)hn_rng_below(rng, 3);
        for (int s = 0; s < steps; s++) {
            int nc = srch_em_moves_enum(b, (int)hn_rng_below(rng, 56), cand, 64);
            if (nc > 0)
                srch_em_move_apply(b, &cand[hn_rng_below(rng, (uint32_t)nc)]);
        }
        if (it % 50 == 49)
            srch_em_tsr(b);
        srch_em_feat_sync(f, b);
        for (int k = 0; k < 3; k++) {
            int nc = srch_em_moves_enum(b, (int)hn_rng_below(rng, 56), cand, 64);
            for (int i = 0; i < nc; i++) {
                float x1[SRCH_EM_FEAT_DIM], x2[SRCH_EM_FEAT_DIM];
                int score = srch_em_board_score(b);
                srch_em_feat_move(f, b, &cand[i], x1);
                srch_em_feat_move_scratch(f, b, &cand[i], x2);
                mismatched += memcmp(x1, x2, sizeof x1) != 0;
                bad_delta += (int)x1[0] != cand[i].delta;
                moved_board += srch_em_board_score(b) != score || srch_em_board_recount(b) != score;
                compared++;
            }
        }
    }
    CHECK(compared > 1000);
    CHECK(mismatched == 0);
    CHECK(bad_delta == 0);
    CHECK(moved_board == 0);
    /* a fresh context synced once sees the same board: all but the ages agree */
    srch_em_feat *g = srch_em_feat_new(in, &st);
    CHECK(g != NULL);
    if (g) {
        srch_em_feat_sync(g, b);
        int nc = srch_em_moves_enum(b, 20, cand, 64), diff = 0;
        for (int i = 0; i < nc; i++) {
            float x1[SRCH_EM_FEAT_DIM], x2[SRCH_EM_FEAT_DIM];
            srch_em_feat_move(f, b, &cand[i], x1);
            srch_em_feat_move(g, b, &cand[i], x2);
            for (int j = 0; j < SRCH_EM_FEAT_DIM; j++)
                diff += j != 14 && j != 15 && x1[j] != x2[j];
            diff += x2[14] != 0.0f; /* first sync: every cell just changed */
        }
        CHECK(nc > 0 && diff == 0);
        srch_em_feat_free(g);
    }
    CHECK(strcmp(srch_em_feat_name(0), "delta") == 0);
    CHECK(strcmp(srch_em_feat_name(SRCH_EM_FEAT_DIM - 1), "size") == 0);
    srch_em_feat_free(f);
    srch_em_board_free(b);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

/* Save a fresh model with this spec and encoder to `path`. */
static int save_model(const char *path, const char *spec, const char *enc)
{
    struct nn_spec s;
    int st;
    if (nn_spec_parse(spec, NULL, &s) != HN_OK)
        return -1;
    nn_model *m = nn_model_new(&s, 3, &st);
    if (!m || nn_model_set_encoder(m, enc) != HN_OK || nn_model_save(m, path) != HN_OK) {
        nn_model_free(m);
        return -1;
    }
    nn_model_free(m);
    return 0;
}

static void test_scorer_refuses(void)
{
    int st = 0;
    srch_em_inst *in = srch_em_inst_gen(6, 6, 3, 4, 2, NULL, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    CHECK(save_model("t_emfeat_enc.h5", "18-8-1", "npuzzle-onehot n=3 goal=blank-first") == 0);
    CHECK(save_model("t_emfeat_w.h5", "17-8-1", SRCH_EM_FEAT_ENCODER) == 0);
    CHECK(save_model("t_emfeat_out.h5", "18-8-2", SRCH_EM_FEAT_ENCODER) == 0);
    CHECK(save_model("t_emfeat_ok.h5", "18-8-1", SRCH_EM_FEAT_ENCODER) == 0);

    srch_em_scorer *s = srch_em_scorer_new("t_emfeat_enc.h5", in, SRCH_EM_PICK_BEST, 1, &st);
    CHECK(!s && st == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "t_emfeat_enc.h5") && strstr(hn_errmsg(), "emp-move-v1"));
    s = srch_em_scorer_new("t_emfeat_w.h5", in, SRCH_EM_PICK_BEST, 1, &st);
    CHECK(!s && st == HN_ERR_SHAPE);
    CHECK(strstr(hn_errmsg(), "17 inputs") != NULL);
    s = srch_em_scorer_new("t_emfeat_out.h5", in, SRCH_EM_PICK_BEST, 1, &st);
    CHECK(!s && st == HN_ERR_SHAPE);
    s = srch_em_scorer_new("t_emfeat_missing.h5", in, SRCH_EM_PICK_BEST, 1, &st);
    CHECK(!s && st != HN_OK);
    s = srch_em_scorer_new("t_emfeat_ok.h5", in, SRCH_EM_PICK_BEST, 0, &st);
    CHECK(!s && st == HN_ERR_ARG);

    /* a valid model scores a batch and returns an index in range */
    s = srch_em_scorer_new("t_emfeat_ok.h5", in, SRCH_EM_PICK_SOFTMAX, 0.5, &st);
    srch_em_board *b = srch_em_board_new(in, &st);
    hn_rng *rng = hn_rng_new(1);
    CHECK(s && b && rng);
    if (s && b && rng) {
        srch_em_board_random(b, rng);
        srch_em_move cand[64];
        int nc = srch_em_moves_enum(b, 14, cand, 64), score = srch_em_board_score(b);
        int k = srch_em_scorer_choose(s, b, cand, nc, rng);
        CHECK(nc > 0 && k >= 0 && k < nc);
        CHECK(srch_em_board_score(b) == score);
        long calls, scored;
        double sec;
        srch_em_scorer_stats(s, &calls, &scored, &sec);
        CHECK(calls == 1 && scored == nc);
        /* a whole solve with the scorer plugged in stays consistent */
        srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
        o.time_limit = 0.3;
        o.ta_n = 20;
        o.choose = srch_em_scorer_choose;
        o.choose_user = s;
        int piece[36], rot[36], v;
        srch_em_result res;
        CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_OK);
        CHECK(srch_em_sol_check(in, piece, rot, &v, NULL, 0) == res.best && v == 0);
    }
    srch_em_scorer_free(s);
    srch_em_board_free(b);
    hn_rng_free(rng);
    srch_em_inst_free(in);
    remove("t_emfeat_enc.h5");
    remove("t_emfeat_w.h5");
    remove("t_emfeat_out.h5");
    remove("t_emfeat_ok.h5");
}

int main(void)
{
    test_incremental();
    test_scorer_refuses();
    return CHECK_DONE();
}
