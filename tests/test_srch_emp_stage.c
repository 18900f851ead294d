/* The learned-scorer seams of the local search beyond the move scorer: the
 * plateau walk with its sideways moves picked by a chooser (only sideways
 * candidates offered, the chosen one played, the board's score kept), and
 * STAGE restart points (board features against a recount, a run logging
 * each descent it started, options checked). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"
#include "tests/check.h"

typedef struct {
    long calls, offered, not_sideways;
    int pick;
} chooser;

static int choose(void *user, srch_em_board *b, const srch_em_move *cand, int n, hn_rng *rng)
{
    chooser *c = user;
    (void)rng;
    c->calls++;
    c->offered += n;
    for (int i = 0; i < n; i++) {
        srch_em_move m = cand[i];
        srch_em_walk_score(b, &m); /* rescored on the board as it is now */
        c->not_sideways += cand[i].delta != 0 || m.delta != 0;
    }
    return c->pick % n;
}

static void test_guided_walk(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(8, 8, 3, 6, 21, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(4);
    CHECK(in && b && rng);
    if (!b || !rng)
        return;
    srch_em_board_random(b, rng);
    srch_em_move cand[8];
    chooser c = {.pick = 3};
    srch_em_walk_guide g = {.k = 8, .cand = cand, .choose = choose, .user = &c, .rng = rng};
    srch_em_metropolis acc;
    srch_em_metropolis_init(&acc, 0);
    srch_em_walk_rng wr;
    srch_em_walk_seed(&wr, 9);
    int before = b->score;
    long t = srch_em_walk_guided(b, 200000, &acc, &wr, srch_em_inst_joins(in), &g);
    CHECK(t == 200000);
    CHECK(c.calls > 10 && c.offered == 8 * c.calls);
    CHECK_MSG(c.not_sideways == 0, "%ld candidates offered were not sideways", c.not_sideways);
    CHECK(b->score >= before); /* no losing move at temperature 0 */
    CHECK(srch_em_board_recount(b) == b->score);
    printf("guided walk: %d -> %d joins, %ld choices\n", before, b->score, c.calls);
    srch_em_board_free(b);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

/* The features of a board against an independent count: the score, the
 * cells with one / two or more broken joins, the distance to a reference. */
static void test_features(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(7, 6, 3, 5, 22, NULL, &st);
    srch_em_board *b = in ? srch_em_board_new(in, &st) : NULL;
    srch_em_board *ref = in ? srch_em_board_new(in, &st) : NULL;
    hn_rng *rng = hn_rng_new(6);
    int n = 42, scratch[42];
    CHECK(in && b && ref && rng);
    if (!ref || !rng)
        return;
    for (int it = 0; it < 20; it++) {
        srch_em_board_random(b, rng);
        srch_em_board_copy(ref, b);
        srch_em_move cand[64];
        int moves = (int)hn_rng_below(rng, 6);
        for (int k = 0; k < moves; k++) {
            int nc = srch_em_moves_enum(b, (int)hn_rng_below(rng, (uint32_t)n), cand, 64);
            if (nc > 0)
                srch_em_move_apply(b, &cand[hn_rng_below(rng, (uint32_t)nc)]);
        }
        float f[SRCH_EM_STAGE_DIM];
        srch_em_stage_features(b, ref, scratch, f);
        int mm1 = 0, mm2 = 0, moved = 0;
        for (int c = 0; c < n; c++) {
            int broken = 0;
            for (int k = 0; k < 4; k++) {
                int q = in->nb[c * 4 + k];
                broken += q != n && srch_em_colour(in, b->piece[c], b->rot[c], k) !=
                                        srch_em_colour(in, b->piece[q], b->rot[q], (k + 2) & 3);
            }
            mm1 += broken == 1, mm2 += broken >= 2;
            moved += b->piece[c] != ref->piece[c] || b->rot[c] != ref->rot[c];
        }
        CHECK_CLOSE(f[0], (double)srch_em_board_recount(b) / srch_em_inst_joins(in), 1e-6);
        CHECK_CLOSE(f[1], (double)mm1 / n, 1e-6);
        CHECK_CLOSE(f[2], (double)mm2 / n, 1e-6);
        CHECK_CLOSE(f[6], (double)moved / n, 1e-6);
        for (int k = 0; k < SRCH_EM_STAGE_DIM; k++)
            CHECK(f[k] >= 0 && f[k] <= 1);
    }
    srch_em_board_free(b);
    srch_em_board_free(ref);
    srch_em_inst_free(in);
    hn_rng_free(rng);
}

typedef struct {
    int descents, bad;
} descent_log;

static void on_descent(const float *f, int before, int reached, void *user)
{
    descent_log *l = user;
    l->descents++;
    l->bad += !(f[0] > 0 && f[0] <= 1 && reached > 0 && before > 0);
}

/* A short run with STAGE restarts: descents logged, a legal best board. */
static void test_stage_run(void)
{
    int st;
    srch_em_inst *in = srch_em_inst_gen(8, 8, 3, 6, 23, NULL, &st);
    CHECK(in != NULL);
    if (!in)
        return;
    int piece[64], rot[64], v;
    descent_log log = {0};
    srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
    o.time_limit = 1.5, o.cpu_clock = 1, o.restart = 0.1, o.stage_k = 4, o.ta_n = 50;
    /* no region re-solves: under the sanitizers on a slow core one cycle
     * with them took most of the 1.5 s, leaving a single restart */
    o.ro_n = 0;
    o.walk = 100000;
    o.stage_w[1] = 1; /* value = score */
    o.on_descent = on_descent, o.descent_user = &log;
    srch_em_result res;
    CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_OK);
    /* each descent is logged when the next begins; the clock cuts the last */
    CHECK(res.restarts >= 2 && log.descents == res.restarts - 1 && log.bad == 0);
    CHECK(srch_em_sol_check(in, piece, rot, &v, NULL, 0) == res.best && v == 0);
    printf("stage run: %ld descents, best %d\n", res.restarts, res.best);
    o.restart = 0; /* STAGE picks restart points: it needs restarts */
    CHECK(srch_em_solve(in, &o, piece, rot, &res, NULL, NULL) == HN_ERR_ARG);
    srch_em_inst_free(in);
}

int main(void)
{
    test_guided_walk();
    test_features();
    test_stage_run();
    return CHECK_DONE();
}
