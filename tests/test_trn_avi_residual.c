/* train, DAVI on a residual and with look-ahead: L-move backups equal
 * hand-checked values; a residual ANN heuristic's estimate is the
 * base heuristic plus the raw network output, on known boards and through
 * the search interface, also with the base values given by the caller
 * (and inside anytime A*, the same runs); a fresh residual run starts at
 * exactly the base heuristic; a short 8-puzzle run over Manhattan distance lowers the error
 * against BFS truth and stays self-consistent; bootstrapping runs on a
 * residual too; mismatched residuals and bad bases are refused. */
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

static dom *D8; /* npuzzle:3x3, the runs' domain */

static srch_np_heur *manhattan(int width)
{
    int rc = 0;
    return srch_np_heur_manhattan_new(width, GOAL, &rc);
}

/* n boards: random walks of 0..30 moves (seeded). */
static srch_np_board *walk_boards(size_t n, uint64_t seed)
{
    srch_np_board *b = malloc(sizeof *b * n);
    hn_rng *r = hn_rng_new(seed);
    for (size_t i = 0; b && r && i < n; i++)
        srch_np_board_random_walk(&b[i], 3, GOAL, (int)hn_rng_below(r, 31), r);
    hn_rng_free(r);
    return b;
}

static nn_model *random_model(void)
{
    struct nn_spec spec;
    int rc = nn_spec_parse("81-16-1", NULL, &spec);
    nn_model *m = rc ? NULL : nn_model_new(&spec, 9, &rc);
    if (m) {
        nn_model_set_target(m, 3.0, 2.0);
        nn_model_set_encoder(m, "npuzzle-onehot n=3 goal=blank-first");
    }
    return m;
}

/* estimate(residual) = estimate(plain) + Manhattan; the search value is
 * round(estimate - delta) floored by the admissible part; bad bases are
 * refused. */
static void test_heuristic(void)
{
    nn_model *m = random_model();
    srch_np_board *b = walk_boards(64, 5);
    CHECK(m && b);
    if (!m || !b)
        return;
    int rc = 0;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.delta = 0.5;
    srch_np_heur *plain = srch_np_heur_ann_new(m, "plain", 3, GOAL, NULL, &ao, &rc);
    srch_np_heur *res = srch_np_heur_ann_new(m, "res", 3, GOAL, manhattan(3), &ao, &rc);
    srch_np_heur *md = manhattan(3);
    CHECK(plain && res && md);
    CHECK(res && srch_np_heur_ann_set_base(res, manhattan(3)) == 0);
    float e0[64], e1[64];
    int v[64];
    CHECK(srch_np_heur_ann_estimate(plain, b, 64, e0) == 0);
    CHECK(srch_np_heur_ann_estimate(res, b, 64, e1) == 0);
    CHECK(srch_np_heur_eval_batch(res, b, 64, v) == 0);
    int bad = 0, differs = 0;
    for (int i = 0; i < 64; i++) {
        int h = srch_np_heur_eval(md, &b[i]);
        long want = lround(e0[i] + h - ao.delta);
        want = want < h ? h : want; /* the floor is Manhattan too */
        if (srch_np_board_is_goal(&b[i], GOAL))
            want = 0;
        bad += fabsf(e1[i] - (e0[i] + (float)h)) > 1e-4f || v[i] != want;
        differs += h > 0;
    }
    CHECK_MSG(bad == 0, "%d of 64 boards: residual estimate != network + Manhattan", bad);
    CHECK(differs > 0);
    /* the pair call: with the base shared, and without, both values as
       from two separate calls (the outputs poisoned before each call, so
       one that leaves them unwritten cannot pass on the previous values) */
    int hv[64], av[64], pv[64], sv[64];
    CHECK(srch_np_heur_ann_base(res) != NULL && srch_np_heur_ann_base(plain) == NULL);
    memset(hv, 0xff, sizeof hv);
    memset(av, 0xff, sizeof av);
    CHECK(srch_np_heur_eval_pair(res, md, b, 64, hv, av) == 0);
    CHECK(srch_np_heur_ann_share_base(res, md) == 0);
    memset(pv, 0xff, sizeof pv);
    memset(sv, 0xff, sizeof sv);
    CHECK(srch_np_heur_eval_pair(res, md, b, 64, pv, sv) == 0);
    int pair_bad = 0;
    for (int i = 0; i < 64; i++) {
        int mv = srch_np_heur_eval(md, &b[i]);
        pair_bad += hv[i] != v[i] || pv[i] != v[i] || av[i] != mv || sv[i] != mv;
    }
    CHECK_MSG(pair_bad == 0, "%d of 64 boards: eval_pair differs from two calls", pair_bad);
    memset(pv, 0xff, sizeof pv);
    memset(av, 0xff, sizeof av);
    CHECK(srch_np_heur_eval_pair(res, NULL, b, 64, pv, av) == 0);
    int no_adm_bad = 0;
    for (int i = 0; i < 64; i++)
        no_adm_bad += pv[i] != v[i] || av[i] != 0;
    CHECK_MSG(no_adm_bad == 0, "%d of 64 boards: eval_pair without adm", no_adm_bad);
    /* the base values given by the caller (the anytime search's children
       that pass its admissible cut): the same values; the base's tables
       are not needed, so values the caller shifts by one shift h by one */
    int given[64], gv[64], shifted = 0;
    for (int i = 0; i < 64; i++)
        given[i] = srch_np_heur_eval(md, &b[i]);
    memset(gv, 0xff, sizeof gv);
    CHECK(srch_np_heur_eval_given_adm(res, md, b, 64, given, gv) == 0);
    int given_bad = 0;
    for (int i = 0; i < 64; i++)
        given_bad += gv[i] != v[i];
    CHECK_MSG(given_bad == 0, "%d of 64 boards: eval_given_adm differs", given_bad);
    for (int i = 0; i < 64; i++)
        given[i] += 100;
    CHECK(srch_np_heur_eval_given_adm(res, md, b, 64, given, gv) == 0);
    for (int i = 0; i < 64; i++)
        shifted += srch_np_board_is_goal(&b[i], GOAL) ? gv[i] == 0 : gv[i] >= v[i] + 99;
    CHECK_MSG(shifted == 64, "%d of 64 boards follow the given base", shifted);
    /* no base declared adm's (another adm, no adm, not a network): the
       given values are not used, each heuristic reads its own */
    int own[64], unshared_bad = 0;
    srch_np_heur *others[] = {res, plain, md};
    const srch_np_heur *adms[] = {NULL, md, md};
    for (int k = 0; k < 3; k++) {
        CHECK(srch_np_heur_eval_batch(others[k], b, 64, own) == 0);
        memset(gv, 0xff, sizeof gv);
        CHECK(srch_np_heur_eval_given_adm(others[k], adms[k], b, 64, given, gv) == 0);
        for (int i = 0; i < 64; i++)
            unshared_bad += gv[i] != own[i];
    }
    CHECK_MSG(unshared_bad == 0, "%d boards: given values used without a shared base",
              unshared_bad);
    CHECK(srch_np_heur_ann_share_base(plain, md) == HN_ERR_ARG);
    CHECK(srch_np_heur_ann_share_base(md, md) == HN_ERR_ARG);
    /* a second base, a base of another size, a heuristic that is not an ANN */
    CHECK(srch_np_heur_ann_set_base(res, manhattan(3)) == HN_ERR_ARG);
    CHECK(srch_np_heur_ann_set_base(plain, manhattan(4)) == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "another board size") != NULL);
    CHECK(srch_np_heur_ann_set_base(md, manhattan(3)) == HN_ERR_ARG);
    srch_np_heur_free(plain);
    srch_np_heur_free(res);
    srch_np_heur_free(md);
    nn_model_free(m);
    free(b);
}

/* A Manhattan floor that counts the boards it is asked for. */
typedef struct {
    srch_np_heur *md;
    long calls;
} counting;

static int count_eval(void *self, const srch_np_board *b)
{
    counting *c = self;
    c->calls++;
    return srch_np_heur_eval(c->md, b);
}

static void count_free(void *self)
{
    srch_np_heur_free(((counting *)self)->md);
    free(self);
}

/* *calls is set only when the heuristic was made (a failed one frees c). */
static srch_np_heur *counting_manhattan(long **calls)
{
    counting *c = calloc(1, sizeof *c);
    srch_np_heur_ops ops = {.name = "manhattan", .eval = count_eval, .destroy = count_free};
    int rc = 0;
    if (!c)
        return NULL;
    c->md = manhattan(3);
    srch_np_heur *h = srch_np_heur_custom_new(&ops, c, 3, GOAL, &rc);
    if (h)
        *calls = &c->calls;
    return h;
}

/* A floor declared the base's (srch_np_heur_ann_share_floor) gives the
 * values of the floor read on its own, without being read; declaring it
 * needs a residual base and a floor. */
static void test_share_floor(void)
{
    nn_model *m = random_model();
    srch_np_board *b = walk_boards(64, 6);
    long *calls_a = NULL, *calls_b = NULL;
    int rc = 0;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.delta = 1.5; /* so that the floor decides some boards */
    srch_np_heur *ha =
        m ? srch_np_heur_ann_new(m, "a", 3, GOAL, counting_manhattan(&calls_a), &ao, &rc) : NULL;
    srch_np_heur *hb =
        m ? srch_np_heur_ann_new(m, "b", 3, GOAL, counting_manhattan(&calls_b), &ao, &rc) : NULL;
    srch_np_heur *plain = m ? srch_np_heur_ann_new(m, "p", 3, GOAL, manhattan(3), &ao, &rc) : NULL;
    srch_np_heur *nofloor = m ? srch_np_heur_ann_new(m, "n", 3, GOAL, NULL, &ao, &rc) : NULL;
    CHECK(b && ha && hb && plain && nofloor && calls_a && calls_b);
    if (!b || !ha || !hb || !plain || !nofloor || !calls_a || !calls_b)
        goto out;
    CHECK(srch_np_heur_ann_set_base(ha, manhattan(3)) == 0);
    CHECK(srch_np_heur_ann_set_base(hb, manhattan(3)) == 0);
    CHECK(srch_np_heur_ann_set_base(nofloor, manhattan(3)) == 0);
    CHECK(srch_np_heur_ann_share_floor(plain) == HN_ERR_ARG); /* no residual base */
    CHECK(srch_np_heur_ann_share_floor(nofloor) == HN_ERR_ARG);
    srch_np_heur *md = manhattan(3);
    CHECK(md && srch_np_heur_ann_share_floor(md) == HN_ERR_ARG); /* not a network */
    srch_np_heur_free(md);
    CHECK(srch_np_heur_ann_share_floor(hb) == 0);
    int va[64], vb[64];
    float est[64];
    memset(va, 0xff, sizeof va);
    memset(vb, 0xff, sizeof vb);
    CHECK(srch_np_heur_eval_batch(ha, b, 64, va) == 0);
    CHECK(srch_np_heur_eval_batch(hb, b, 64, vb) == 0);
    CHECK(srch_np_heur_ann_estimate(ha, b, 64, est) == 0);
    int bad = 0, floored = 0;
    for (int i = 0; i < 64; i++) {
        int mv = srch_np_heur_eval(srch_np_heur_ann_base(ha), &b[i]);
        bad += va[i] != vb[i];
        floored += mv > 0 && lround(est[i] - ao.delta) < mv && va[i] == mv;
    }
    CHECK_MSG(bad == 0, "%d of 64 boards: a shared floor changes the value", bad);
    CHECK_MSG(floored > 0, "the floor decided no board: the test shows nothing");
    CHECK(*calls_a >= 64);
    CHECK_MSG(*calls_b == 0, "a shared floor was still read for %ld boards", *calls_b);
    /* base values given by the caller serve as the shared floor too */
    srch_np_heur *adm = manhattan(3);
    int given[64], vg[64];
    for (int i = 0; adm && i < 64; i++)
        given[i] = srch_np_heur_eval(adm, &b[i]);
    memset(vg, 0xff, sizeof vg);
    CHECK(adm && srch_np_heur_ann_share_base(hb, adm) == 0 &&
          srch_np_heur_eval_given_adm(hb, adm, b, 64, given, vg) == 0);
    int given_bad = 0;
    for (int i = 0; i < 64; i++)
        given_bad += vg[i] != va[i];
    CHECK_MSG(given_bad == 0, "%d of 64 boards: given base values as the floor differ", given_bad);
    CHECK(*calls_b == 0);
    srch_np_heur_free(adm);
out:
    srch_np_heur_free(ha);
    srch_np_heur_free(hb);
    srch_np_heur_free(plain);
    srch_np_heur_free(nofloor);
    nn_model_free(m);
    free(b);
}

/* Anytime A* on a residual network over Manhattan (the shipped 24-puzzle
 * setting in small): with the base declared adm's, the children that pass
 * the incumbent's cut get the network on the adm values already read
 * (srch_np_heur_eval_given_adm); without, the guide reads its base
 * itself. The same runs either way, and some children skip the network. */
static void test_anytime_shared_base(void)
{
    nn_model *m = random_model();
    srch_np_heur *adm = manhattan(3);
    int rc = 0;
    srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
    ao.scale = 10;
    srch_np_heur *h[2];
    for (int k = 0; k < 2; k++) {
        h[k] = m ? srch_np_heur_ann_new(m, "h", 3, GOAL, manhattan(3), &ao, &rc) : NULL;
        CHECK(h[k] && srch_np_heur_ann_set_base(h[k], manhattan(3)) == 0 &&
              srch_np_heur_ann_share_floor(h[k]) == 0);
    }
    CHECK(adm && h[1] && srch_np_heur_ann_share_base(h[1], adm) == 0);
    hn_rng *r = hn_rng_new(31);
    static const double deltas[] = {0, 1, INFINITY};
    int differ = 0, skipped = 0;
    for (int i = 0; adm && h[0] && h[1] && r && i < 20; i++) {
        srch_np_board b;
        srch_np_board_random(&b, 3, GOAL, r);
        srch_np_result r0, r1;
        CHECK(srch_np_anytime(&b, h[0], adm, deltas, 3, NULL, 0, NULL, NULL, &r0) == 0);
        CHECK(srch_np_anytime(&b, h[1], adm, deltas, 3, NULL, 0, NULL, NULL, &r1) == 0);
        CHECK(r1.proven && r1.length >= 0);
        differ += r0.length != r1.length || r0.expanded != r1.expanded || r0.stored != r1.stored ||
                  r0.heur_calls != r1.heur_calls;
        skipped += r1.heur_calls < r1.stored;
    }
    CHECK_MSG(differ == 0, "%d of 20 boards: the shared base changes the search", differ);
    CHECK_MSG(skipped > 0, "no board skipped the network: the cut was not exercised");
    hn_rng_free(r);
    srch_np_heur_free(h[0]);
    srch_np_heur_free(h[1]);
    srch_np_heur_free(adm);
    nn_model_free(m);
}

static void residual_opts(struct trn_avi_opts *o, const dom_heur *md)
{
    trn_avi_opts_default(o);
    o->dom = D8;
    o->arch = "81-64-32-1";
    o->defaults.bn = 0;
    o->batch = 128;
    o->steps_per_round = 60;
    o->walk_max = 14;
    o->target_std = 2;
    o->lr = 1e-3;
    o->residual = md;
    o->residual_spec = "manhattan";
}

/* Over the boards at BFS distance 1..dmax: mean |h - d| and the mean
 * Bellman error |h(s) - min_c (1 + h(c))|, h = Manhattan + network. */
static void errors(const nn_model *m, const dom_heur *md, const uint8_t *dist, int dmax,
                   double *mae, double *bellman)
{
    int rc = 0;
    size_t cap = 20000, n = 0, sb = dom_state_bytes(D8);
    srch_np_heur *h = srch_np_heur_ann_new(m, "m", 3, GOAL, NULL, NULL, &rc);
    srch_np_board *b = malloc(sizeof *b * cap);
    uint8_t *st = malloc(sb * cap);
    float *est = malloc(sizeof *est * cap), *y = malloc(sizeof *y * cap);
    int *d = malloc(sizeof *d * cap);
    struct trn_avi_opts o;
    residual_opts(&o, md);
    o.clamp = 0;
    *mae = *bellman = INFINITY;
    if (h && srch_np_heur_ann_set_base(h, manhattan(3))) {
        srch_np_heur_free(h);
        h = NULL;
    }
    for (uint32_t r = 0; h && b && st && est && y && d && r < N8 && n < cap; r += 3)
        if (dist[r] >= 1 && dist[r] <= dmax) {
            srch_np_board_unrank(&b[n], 3, r);
            avi_tiles_state(D8, b[n].tile, 9, st + n * sb);
            d[n++] = dist[r];
        }
    if (h && b && st && est && y && d && !srch_np_heur_ann_estimate(h, b, n, est) &&
        !trn_avi_targets(&o, m, st, NULL, n, y)) {
        double sa = 0, se = 0;
        for (size_t i = 0; i < n; i++) {
            sa += fabs(est[i] - d[i]);
            se += fabs(est[i] - y[i]);
        }
        *mae = sa / (double)n;
        *bellman = se / (double)n;
    }
    srch_np_heur_free(h);
    free(b);
    free(st);
    free(est);
    free(y);
    free(d);
}

/* A fresh residual run is the base heuristic at round 0; 30 rounds of DAVI
 * over Manhattan make it more self-consistent and closer to the truth. */
static void test_learns(const uint8_t *dist)
{
    int rc = 0;
    dom_heur *md = dom_heur_open(D8, "manhattan", &rc);
    CHECK(md != NULL);
    struct trn_avi_opts o;
    residual_opts(&o, md);
    o.rounds = 0;
    nn_model *m0 = NULL, *m = NULL;
    CHECK(trn_avi_run(&o, &m0) == 0 && m0);
    const char *spec = m0 ? nn_model_get_meta_str(m0, "residual") : NULL;
    CHECK(spec && !strcmp(spec, "manhattan"));
    double mae0, bell0, mae1, bell1;
    if (m0)
        errors(m0, md, dist, 14, &mae0, &bell0);
    o.rounds = 30;
    o.threads = 2;
    CHECK(trn_avi_run(&o, &m) == 0 && m);
    if (m0 && m) {
        errors(m, md, dist, 14, &mae1, &bell1);
        printf("residual davi: MAE %.3f -> %.3f, Bellman error %.3f -> %.3f (distances 1..14)\n",
               mae0, mae1, bell0, bell1);
        CHECK_MSG(mae1 < 0.7 * mae0, "MAE %.3f -> %.3f", mae0, mae1);
        /* Manhattan is nearly self-consistent already (its Bellman error is
         * small though its distance error is large), so the Bellman error
         * only has to stay small while the distance error falls */
        CHECK_MSG(bell1 < 0.6, "Bellman error %.3f -> %.3f", bell0, bell1);
    }
    nn_model_free(m0);
    nn_model_free(m);
    dom_heur_free(md);
}

/* Resuming or starting from a model with another residual is refused, and
 * so is a residual without its name; bootstrapping runs on a residual and
 * records it. */
static void test_refused(void)
{
    const char *ck = "test_trn_avi_residual.ck.h5";
    int rc = 0;
    dom_heur *md = dom_heur_open(D8, "manhattan", &rc);
    CHECK(md != NULL);
    struct trn_avi_opts o;
    residual_opts(&o, md);
    o.rounds = 1;
    o.checkpoint = ck;
    nn_model *m = NULL;
    CHECK(trn_avi_run(&o, &m) == 0);
    nn_model_free(m);
    m = NULL;
    o.resume = ck;
    o.arch = NULL;
    o.rounds = 2;
    o.residual = NULL;
    o.residual_spec = NULL;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    CHECK(strstr(hn_errmsg(), "residual over \"manhattan\"") != NULL);
    o.resume = NULL;
    o.init = ck;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    residual_opts(&o, md);
    o.residual_spec = NULL;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    residual_opts(&o, md);
    o.method = TRN_AVI_BOOT;
    o.walk = 4;
    o.rounds = 2;
    o.boards = 20;
    o.budget = 500;
    o.buffer_max = 5000;
    CHECK(trn_avi_run(&o, &m) == 0 && m);
    const char *spec = m ? nn_model_get_meta_str(m, "residual") : NULL;
    CHECK(spec && !strcmp(spec, "manhattan"));
    nn_model_free(m);
    remove(ck);
    dom_heur_free(md);
}

/* With a network that says 7.25 everywhere, an L-move backup is L + 7.25
 * unless a goal lies within L moves: the goal, boards one and two moves
 * away, and a board far from the goal. */
static void test_lookahead(void)
{
    nn_model *m = random_model();
    CHECK(m != NULL);
    if (!m)
        return;
    size_t n;
    float *p = nn_model_params(m, &n);
    memset(p, 0, sizeof(float) * n);
    nn_model_set_target(m, 7.25, 1.0);
    static const char *const tiles[4] = {"012345678", "102345678", "120345678", "876543210"};
    uint8_t b[4 * 10];
    for (int i = 0; i < 4; i++)
        avi_state(D8, tiles[i], b + i * 10);
    static const float want[3][4] = {{0, 1, 8.25f, 8.25f}, {0, 1, 2, 9.25f}, {0, 1, 2, 10.25f}};
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    o.dom = D8;
    o.clamp = 0;
    for (int l = 1; l <= 3; l++) {
        float y[4];
        o.lookahead = l;
        CHECK(trn_avi_targets(&o, m, b, NULL, 4, y) == 0);
        for (int i = 0; i < 4; i++)
            CHECK_MSG(fabsf(y[i] - want[l - 1][i]) < 1e-5f, "lookahead %d board %d: %g, want %g", l,
                      i, y[i], want[l - 1][i]);
    }
    nn_model *x = NULL;
    o.lookahead = 4;
    o.arch = "81-8-1";
    CHECK(trn_avi_run(&o, &x) == HN_ERR_ARG && !x);
    nn_model_free(m);
}

int main(void)
{
    int st = 0;
    D8 = dom_open("npuzzle:3x3", &st);
    CHECK(D8 != NULL && dom_state_bytes(D8) == 10);
    if (!D8)
        return CHECK_DONE();
    test_lookahead();
    nn_blas_threads(1);
    uint8_t *dist = bfs8(GOAL);
    CHECK(dist != NULL);
    test_heuristic();
    test_share_floor();
    test_anytime_shared_base();
    if (dist)
        test_learns(dist);
    test_refused();
    free(dist);
    dom_free(D8);
    return CHECK_DONE();
}
