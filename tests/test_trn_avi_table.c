/* train, DAVI with a target table and uniform states (8-puzzle): table
 * targets equal the per-board network targets (1- to 3-move look-ahead,
 * rounded or not, with a floor); 1- to 4-move table targets of a constant
 * network equal min(BFS distance, L + c); uniform boards are solvable and
 * not walks; a short table run lowers the Bellman error and the error
 * against BFS; start states come from their list, in their share, walked
 * on; a resumed table run gives the same weights bit for bit and records
 * both sessions' settings; bad options are refused. All on the domain
 * npuzzle:3x3, the boards turned into its states. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avi_check.h"
#include "check.h"
#include "np_bfs.h"
#include "search/npuzzle/ann.h"
#include "search/srch.h"
#include "train/trn.h"

#define GOAL SRCH_NP_GOAL_BLANK_FIRST
#define SB 10 /* state bytes of npuzzle:3x3 */

static dom *D8;

/* n boards as states of D8 (malloc'd; NULL on failure). */
static uint8_t *states_of(const srch_np_board *b, size_t n)
{
    uint8_t *s = b ? malloc(SB * (n ? n : 1)) : NULL;
    for (size_t i = 0; s && i < n; i++)
        avi_tiles_state(D8, b[i].tile, 9, s + i * SB);
    return s;
}

/* n boards: half uniform, half random walks of 0..12 moves (seeded). */
static srch_np_board *some_boards(size_t n, uint64_t seed)
{
    srch_np_board *b = malloc(sizeof *b * n);
    hn_rng *r = hn_rng_new(seed);
    for (size_t i = 0; b && r && i < n; i++) {
        if (i % 2)
            srch_np_board_random(&b[i], 3, GOAL, r);
        else
            srch_np_board_random_walk(&b[i], 3, GOAL, (int)hn_rng_below(r, 13), r);
    }
    hn_rng_free(r);
    return b;
}

/* A random network (seeded) with outputs of a few moves around `mean`;
 * with zero weights it is the constant `mean`. */
static nn_model *net(double mean, int zero)
{
    struct nn_spec spec;
    int rc = nn_spec_parse("81-16:nobn-1", NULL, &spec);
    nn_model *m = rc ? NULL : nn_model_new(&spec, 11, &rc);
    if (!m)
        return NULL;
    size_t np;
    float *p = nn_model_params(m, &np);
    if (zero)
        memset(p, 0, sizeof(float) * np);
    nn_model_set_target(m, mean, 4.0);
    nn_model_set_encoder(m, "npuzzle-onehot n=3 goal=blank-first");
    return m;
}

static void test_table_equals_network(void)
{
    enum { N = 400 };
    srch_np_board *nb = some_boards(N, 3);
    uint8_t *b = states_of(nb, N);
    nn_model *m = net(9.0, 0);
    int rc = 0;
    dom_heur *md = dom_heur_open(D8, "manhattan", &rc);
    float *y0 = malloc(sizeof(float) * N), *y1 = malloc(sizeof(float) * N);
    CHECK(b && m && md && y0 && y1);
    if (!b || !m || !md || !y0 || !y1)
        goto out;
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    o.dom = D8;
    for (int l = 1; l <= TRN_AVI_MAX_LOOKAHEAD; l++)
        for (int k = 0; k < 4; k++) {
            o.lookahead = l;
            o.integer_targets = k & 1;
            o.floor = k & 2 ? md : NULL;
            o.table = 0;
            CHECK(trn_avi_targets(&o, m, b, NULL, N, y0) == 0);
            o.table = 1;
            o.threads = 2;
            CHECK(trn_avi_targets(&o, m, b, NULL, N, y1) == 0);
            int bad = 0;
            double spread = 0;
            for (int i = 0; i < N; i++) {
                bad += !(fabsf(y0[i] - y1[i]) <= (o.integer_targets ? 0.0f : 1e-4f));
                spread += fabsf(y0[i] - y0[0]);
            }
            CHECK_MSG(bad == 0, "lookahead %d integer %d floor %d: %d of %d targets differ", l,
                      o.integer_targets, k >> 1, bad, N);
            CHECK(spread > 0); /* the network is not constant: a real comparison */
        }
out:
    free(nb);
    free(b);
    free(y0);
    free(y1);
    nn_model_free(m);
    dom_heur_free(md);
}

/* With h = c everywhere, the best L-move path ends at the goal when the
 * goal is within L moves, else anywhere: target = min(distance, L + c). */
static void test_table_constant(const uint8_t *dist)
{
    enum { N = 3000 };
    uint8_t *b = malloc(SB * N);
    float *y = malloc(sizeof *y * N);
    nn_model *m = net(6.6, 1);
    CHECK(b && y && m);
    if (!b || !y || !m)
        goto out;
    int d[N], n = 0;
    for (int r = 0; n < N && r < N8; r++) /* a spread of near and far boards */
        if (dist[r] != 255 && (dist[r] <= 6 || r % 61 == 0)) {
            srch_np_board nb;
            srch_np_board_unrank(&nb, 3, (uint64_t)r);
            avi_tiles_state(D8, nb.tile, 9, b + (size_t)n * SB);
            d[n++] = dist[r];
        }
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    o.dom = D8;
    o.table = 1;
    o.integer_targets = 1;
    for (int l = 1; l <= TRN_AVI_MAX_TABLE_LOOKAHEAD; l++) {
        o.lookahead = l;
        CHECK(trn_avi_targets(&o, m, b, NULL, (size_t)n, y) == 0);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += y[i] != (float)(d[i] <= l ? d[i] : l + 7);
        CHECK_MSG(bad == 0, "lookahead %d: %d of %d targets are not min(distance, L + 7)", l, bad,
                  n);
    }
out:
    free(b);
    free(y);
    nn_model_free(m);
}

static void small_opts(struct trn_avi_opts *o)
{
    trn_avi_opts_default(o);
    o->dom = D8;
    o->arch = "81-64:nobn-32:nobn-1";
    o->batch = 128;
    o->steps_per_round = 60;
    o->walk_max = 10;
    o->target_mean = 8;
    o->target_std = 4;
    o->lr = 3e-3;
    o->table = 1;
    o->integer_targets = 1;
}

/* One round from h = 0 with a 4-move look-ahead and walks of 0 moves. */
static void round1_opts(struct trn_avi_opts *o)
{
    small_opts(o);
    o->rounds = 1;
    o->walk_max = 0;
    o->lookahead = 4;
}

/* The run's model (checked to exist) and its round's mean target. */
static nn_model *round1(struct trn_avi_opts *o, double *mean)
{
    o->on_round = avi_keep_mean;
    o->round_user = mean;
    nn_model *m = NULL;
    CHECK(trn_avi_run(o, &m) == 0 && m);
    return m;
}

/* Round 1 (h = 0, look-ahead 4) with walks of 0 moves: every walk board is
 * the goal (target 0), nearly every uniform board gets 4. */
static void test_uniform(const uint8_t *dist)
{
    hn_rng *r = hn_rng_new(5);
    int bad = 0;
    for (int i = 0; r && i < 2000; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, GOAL, r);
        bad += !srch_np_board_solvable(&b, GOAL) || dist[srch_np_board_rank(&b)] == 255;
    }
    hn_rng_free(r);
    CHECK_MSG(bad == 0, "%d uniform boards unsolvable", bad);
    const double share[] = {0, 0.5, 1};
    for (int k = 0; k < 3; k++) {
        struct trn_avi_opts o;
        round1_opts(&o);
        o.uniform_share = share[k];
        double mean = -1;
        nn_model *m = round1(&o, &mean);
        CHECK_MSG(fabs(mean - 4 * share[k]) < 0.15, "share %g: target mean %g, want about %g",
                  share[k], mean, 4 * share[k]);
        nn_model_free(m);
    }
}

/* Round 1's mean target when a share of the boards comes from `list`,
 * walked 0..walk moves on (the other boards are the goal: target 0). */
static double start_mean(const uint8_t *list, size_t n, double share, int walk)
{
    struct trn_avi_opts o;
    round1_opts(&o);
    o.start_states = list;
    o.nstart = n;
    o.start_share = share;
    o.start_walk = walk;
    o.start_name = "the list";
    double mean = -1;
    nn_model *m = round1(&o, &mean);
    const char *from = m ? nn_model_get_meta_str(m, "avi_start_from") : NULL;
    CHECK_MSG(from && !strcmp(from, "the list"), "avi_start_from is '%s'", from ? from : "(none)");
    nn_model_free(m);
    return mean;
}

/* Start states, round 1 (h = 0, look-ahead 4, walks of 0 moves: every walk
 * state is the goal, target 0). Boards 2 moves out, not walked on, get 2
 * each: the mean is 2 x the share, where uniform boards would give about 4
 * each. The goal itself walked 0..1 moves on gets 0 or 1: a mean of half the
 * share, where no walk would give 0. The record names the list. A share
 * without states and shares above 1 together are refused. */
static void test_start(const uint8_t *dist)
{
    srch_np_board two[8];
    uint8_t st[8 * SB], goal[SB];
    size_t ntwo = 0;
    for (uint32_t r = 0; ntwo < 8 && r < N8; r++)
        if (dist[r] == 2)
            srch_np_board_unrank(&two[ntwo++], 3, r);
    CHECK(ntwo > 0);
    for (size_t i = 0; i < ntwo; i++)
        avi_tiles_state(D8, two[i].tile, 9, st + i * SB);
    dom_goal(D8, goal);
    double m2 = start_mean(st, ntwo, 0.3, 0), m1 = start_mean(goal, 1, 1, 1);
    CHECK_MSG(fabs(m2 - 0.6) < 0.05, "boards 2 moves out, share 0.3: mean target %g, want 0.6", m2);
    CHECK_MSG(fabs(m1 - 0.5) < 0.05, "the goal walked 0..1 moves: mean target %g, want 0.5", m1);
    struct trn_avi_opts o;
    small_opts(&o);
    o.rounds = 1;
    nn_model *m = NULL;
    o.start_share = 0.5; /* no states */
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    o.start_states = st;
    o.nstart = ntwo;
    o.uniform_share = 0.6; /* 1.1 in all */
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    o.uniform_share = 0;
    CHECK(trn_avi_run(&o, &m) == 0 && m); /* the same list is fine otherwise */
    nn_model_free(m);
}

/* Mean over all states of |round(h(s)) - BFS| and of the Bellman error
 * |round(h(s)) - min over neighbours (1 + round(h(c)))| (0 at the goal). */
static void errors(const nn_model *m, const uint8_t *dist, double *mae, double *bellman)
{
    int rc = 0;
    srch_np_heur *h = srch_np_heur_ann_new(m, "t", 3, GOAL, NULL, NULL, &rc);
    srch_np_board *b = malloc(sizeof *b * N8);
    float *est = malloc(sizeof *est * N8);
    uint32_t n = 0;
    *mae = *bellman = INFINITY;
    for (uint32_t r = 0; b && r < N8; r++)
        if (dist[r] != 255)
            srch_np_board_unrank(&b[n++], 3, r);
    if (h && b && est && srch_np_heur_ann_estimate(h, b, n, est) == 0) {
        float *byrank = malloc(sizeof *byrank * N8);
        double se = 0, sb = 0;
        for (uint32_t i = 0; byrank && i < n; i++)
            byrank[srch_np_board_rank(&b[i])] = dist[srch_np_board_rank(&b[i])] ? rintf(est[i]) : 0;
        for (uint32_t i = 0; byrank && i < n; i++) {
            uint64_t r = srch_np_board_rank(&b[i]);
            double best = INFINITY;
            for (int d = 0; d < 4; d++) {
                srch_np_board c = b[i];
                if (srch_np_board_move(&c, d) >= 0 && 1 + byrank[srch_np_board_rank(&c)] < best)
                    best = 1 + byrank[srch_np_board_rank(&c)];
            }
            se += fabs(byrank[r] - dist[r]);
            sb += dist[r] ? fabs(byrank[r] - best) : 0;
        }
        if (byrank)
            *mae = se / n, *bellman = sb / n;
        free(byrank);
    }
    srch_np_heur_free(h);
    free(b);
    free(est);
}

static void test_learns(const uint8_t *dist)
{
    struct trn_avi_opts o;
    small_opts(&o);
    o.uniform_share = 0.8;
    o.lookahead = 3;
    o.lr_cosine = 1;
    o.threads = 2;
    nn_model *early = NULL, *late = NULL;
    o.rounds = 2;
    CHECK(trn_avi_run(&o, &early) == 0);
    o.rounds = 30;
    CHECK(trn_avi_run(&o, &late) == 0);
    if (!early || !late)
        goto out;
    double mae0, bell0, mae1, bell1;
    errors(early, dist, &mae0, &bell0);
    errors(late, dist, &mae1, &bell1);
    printf("table run: MAE vs BFS %.3f -> %.3f, Bellman error %.3f -> %.3f\n", mae0, mae1, bell0,
           bell1);
    CHECK_MSG(mae1 < 0.7 * mae0, "MAE %.3f after 30 rounds, %.3f after 2", mae1, mae0);
    CHECK_MSG(bell1 < 0.9 * bell0, "Bellman error %.3f after 30 rounds, %.3f after 2", bell1,
              bell0);
    double table = 0, share = 0;
    CHECK(nn_model_get_meta_double(late, "avi_table", &table) == 0 && table == 1);
    CHECK(nn_model_get_meta_double(late, "avi_uniform_share", &share) == 0 && share == 0.8);
out:
    nn_model_free(early);
    nn_model_free(late);
}

/* The table is rebuilt from the checkpoint's target network on resume. */
static void test_resume(void)
{
    const char *ck = "test_trn_avi_table.ck.h5";
    struct trn_avi_opts o;
    small_opts(&o);
    o.uniform_share = 0.5;
    o.lookahead = 2;
    o.lr_cosine = 1;
    nn_model *rest = avi_check_resume(&o, 4, ck);
    /* the record keeps each session's rounds and settings */
    const char *h = rest ? nn_model_get_meta_str(rest, "avi_history") : NULL;
    CHECK_MSG(h && !strncmp(h, "rounds 1-2: steps 60 ", 21) &&
                  strstr(h, "; rounds 3-4: steps 60 ") &&
                  strstr(h, "lookahead 2 integer 1 table 1 uniform 0.5"),
              "avi_history: %s", h ? h : "(none)");
    /* a run from that model (--init-from) opens with its record */
    const char *parent = "test_trn_avi_table.parent.h5";
    nn_model *child = NULL;
    if (rest && nn_model_save(rest, parent) == 0) {
        o.init = parent;
        o.resume = NULL;
        o.checkpoint = NULL;
        o.rounds = 1;
        CHECK(trn_avi_run(&o, &child) == 0);
    }
    const char *hc = child ? nn_model_get_meta_str(child, "avi_history") : NULL;
    CHECK_MSG(hc && !strncmp(hc, "--init-from a model of 4 rounds, ", 33) &&
                  strstr(hc, ": [rounds 1-2: steps 60 ") && strstr(hc, "; rounds 3-4: ") &&
                  strstr(hc, "]; rounds 1-1: steps 60 "),
              "avi_history after --init-from: %s", hc ? hc : "(none)");
    nn_model_free(child);
    nn_model_free(rest);
    remove(parent);
    remove(ck);
}

static void test_refused(void)
{
    struct trn_avi_opts o;
    nn_model *m = NULL;
    small_opts(&o);
    o.table = 0;
    o.lookahead = TRN_AVI_MAX_TABLE_LOOKAHEAD; /* deeper than 3 needs the table */
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    CHECK(strstr(hn_errmsg(), "lookahead") != NULL);
    small_opts(&o);
    o.lookahead = TRN_AVI_MAX_TABLE_LOOKAHEAD + 1;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    small_opts(&o);
    o.method = TRN_AVI_BOOT; /* a table is for DAVI's Bellman targets */
    o.walk = 4;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    CHECK(strstr(hn_errmsg(), "table") != NULL);
    small_opts(&o);
    o.walk_targets = 1;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    small_opts(&o);
    o.uniform_share = 1.5;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
}

int main(void)
{
    nn_blas_threads(1);
    int st = 0;
    D8 = dom_open("npuzzle:3x3", &st);
    CHECK(D8 != NULL && dom_state_bytes(D8) == SB);
    if (!D8)
        return CHECK_DONE();
    uint8_t *dist = bfs8(GOAL);
    CHECK(dist != NULL);
    test_table_equals_network();
    if (dist) {
        test_table_constant(dist);
        test_uniform(dist);
        test_start(dist);
        test_learns(dist);
    }
    test_resume();
    test_refused();
    free(dist);
    dom_free(D8);
    return CHECK_DONE();
}
