/* train, learning without optimal labels: DAVI targets equal hand-checked
 * Bellman backups (h = 0, a constant network, a Manhattan floor, the walk
 * clamp); a tiny DAVI run on the 8-puzzle becomes exact on most states near
 * the goal against BFS truth; a run resumed from a checkpoint gives the same
 * weights bit for bit; bootstrapping solves boards and learns; bad options
 * are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "avi_check.h"
#include "check.h"
#include "common/hn_h5.h"
#include "np_bfs.h"
#include "search/npuzzle/ann.h"
#include "search/srch.h"
#include "train/trn.h"

static dom *D8; /* npuzzle:3x3 */
#define SB 10   /* its state bytes: 9 cells and the blank's cell */

/* The four test states: the goal; one move away (blank right of the goal);
 * two moves away; and a board whose neighbours are all far from the goal. */
static void four_states(uint8_t *st)
{
    const char *t[4] = {"012345678", "102345678", "120345678", "876543210"};
    for (int i = 0; i < 4; i++)
        avi_state(D8, t[i], st + i * SB);
}

/* A network whose output is `c` for every board: zero weights, scaling mean c. */
static nn_model *constant_model(double c)
{
    struct nn_spec spec;
    int rc = nn_spec_parse("81-8-1", NULL, &spec);
    nn_model *m = rc ? NULL : nn_model_new(&spec, 1, &rc);
    if (!m)
        return NULL;
    size_t n;
    float *p = nn_model_params(m, &n);
    memset(p, 0, sizeof(float) * n);
    nn_model_set_target(m, c, 1.0);
    nn_model_set_encoder(m, "npuzzle-onehot n=3 goal=blank-first");
    return m;
}

static void test_backups(void)
{
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    o.dom = D8;
    o.clamp = 0;
    CHECK(dom_state_bytes(D8) == SB);
    uint8_t b[4 * SB];
    four_states(b);
    float y[4];
    CHECK(trn_avi_targets(&o, NULL, b, NULL, 4, y) == 0);
    CHECK(y[0] == 0.0f && y[1] == 1.0f && y[2] == 1.0f && y[3] == 1.0f);

    nn_model *m = constant_model(7.25);
    CHECK(m != NULL);
    CHECK(trn_avi_targets(&o, m, b, NULL, 4, y) == 0);
    /* 1 + h(child) with h = 7.25 except at the goal child (0) */
    CHECK(y[0] == 0.0f);
    CHECK(y[1] == 1.0f);
    CHECK_CLOSE(y[2], 8.25, 1e-5);
    CHECK_CLOSE(y[3], 8.25, 1e-5);

    /* Manhattan floor: board 3's children have Manhattan 20 or 22 (computed
     * below independently, by the n-puzzle's own heuristic), so
     * max(7.25, md) + 1 = 1 + min md. */
    int rc = 0;
    srch_np_heur *npmd = srch_np_heur_manhattan_new(3, SRCH_NP_GOAL_BLANK_FIRST, &rc);
    dom_heur *md = dom_heur_open(D8, "manhattan", &rc);
    CHECK(md != NULL && npmd != NULL);
    int best = 1000;
    srch_np_board far;
    srch_np_board_set(&far, 3, (const uint8_t[9]){8, 7, 6, 5, 4, 3, 2, 1, 0});
    for (int d = 0; d < 4; d++) {
        srch_np_board c = far;
        if (srch_np_board_move(&c, d) >= 0 && srch_np_heur_eval(npmd, &c) < best)
            best = srch_np_heur_eval(npmd, &c);
    }
    CHECK(best > 8);
    o.floor = md;
    CHECK(trn_avi_targets(&o, m, b, NULL, 4, y) == 0);
    CHECK_CLOSE(y[3], 1.0 + best, 1e-6);
    CHECK_CLOSE(y[2], 8.25, 1e-5); /* children of board 2 have md <= 3 */

    /* the clamp: a target never exceeds the board's walk length */
    o.clamp = 1;
    int walk[4] = {0, 1, 2, 5};
    CHECK(trn_avi_targets(&o, m, b, walk, 4, y) == 0);
    CHECK(y[2] == 2.0f && y[3] == 5.0f && y[1] == 1.0f);
    dom_heur_free(md);
    srch_np_heur_free(npmd);
    nn_model_free(m);
}

/* Integer targets: each child's network value is rounded (and kept >= 0)
 * before the min, so a network off by less than 0.5 backs up exact values. */
static void test_integer_backups(void)
{
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    o.dom = D8;
    o.clamp = 0;
    o.integer_targets = 1;
    uint8_t b[4 * SB];
    four_states(b);
    const double h[] = {7.4, 7.6, -0.4, 0.45};
    const float want[] = {8.0f, 9.0f, 1.0f, 1.0f}; /* 1 + round(max(h, 0)) */
    float y[4];
    for (int k = 0; k < 4; k++) {
        nn_model *m = constant_model(h[k]);
        CHECK(m != NULL);
        CHECK(trn_avi_targets(&o, m, b, NULL, 4, y) == 0);
        CHECK(y[0] == 0.0f && y[1] == 1.0f); /* the goal and its neighbour */
        CHECK(y[2] == want[k] && y[3] == want[k]);
        o.integer_targets = 0; /* the same network without rounding */
        CHECK(trn_avi_targets(&o, m, b, NULL, 4, y) == 0);
        CHECK_CLOSE(y[3], 1.0 + (h[k] > 0 ? h[k] : 0.0), 1e-5);
        o.integer_targets = 1;
        nn_model_free(m);
    }
}

/* Share of boards with BFS distance 1..dmax whose rounded estimate is exact. */
static double exact_near(const nn_model *m, const uint8_t *dist, int dmax)
{
    int rc = 0;
    srch_np_heur *h = srch_np_heur_ann_new(m, "test", 3, SRCH_NP_GOAL_BLANK_FIRST, NULL, NULL, &rc);
    srch_np_board *b = malloc(sizeof *b * 4096);
    float *est = malloc(sizeof *est * 4096);
    int *d = malloc(sizeof *d * 4096);
    size_t n = 0, ok = 0;
    for (uint32_t r = 0; h && b && est && d && r < N8 && n < 4096; r++)
        if (dist[r] >= 1 && dist[r] <= dmax) {
            srch_np_board_unrank(&b[n], 3, r);
            d[n++] = dist[r];
        }
    if (h && b && est && d && srch_np_heur_ann_estimate(h, b, n, est) == 0)
        for (size_t i = 0; i < n; i++)
            ok += lround(est[i]) == d[i];
    srch_np_heur_free(h);
    free(b);
    free(est);
    free(d);
    return n ? (double)ok / (double)n : 0.0;
}

static void small_opts(struct trn_avi_opts *o)
{
    trn_avi_opts_default(o);
    o->dom = D8;
    o->arch = "81-64-32-1";
    o->batch = 128;
    o->steps_per_round = 60;
    o->walk_max = 8;
    o->target_mean = 4;
    o->target_std = 2;
    o->lr = 3e-3;
}

static void test_learns(const uint8_t *dist)
{
    struct trn_avi_opts o;
    small_opts(&o);
    o.rounds = 40;
    o.threads = 2;
    nn_model *m = NULL;
    CHECK(trn_avi_run(&o, &m) == 0);
    CHECK(m != NULL);
    if (!m)
        return;
    /* 24 rounds x 7,680 walk boards, never a BFS label; the states within 6
     * moves are learned almost exactly (seen: about 0.97; bound generous) */
    double ex = exact_near(m, dist, 6);
    printf("davi: exact share %.3f on states 1..6 moves away\n", ex);
    CHECK_MSG(ex >= 0.8, "exact share %.3f on states 1..6 moves from the goal", ex);
    const char *meth = nn_model_get_meta_str(m, "avi_method");
    double updates = 0;
    CHECK(meth && !strncmp(meth, "davi", 4));
    CHECK(nn_model_get_meta_double(m, "avi_updates", &updates) == 0 && updates == 40);
    nn_model_free(m);
}

/* --init-from: the model started from is also the first target network, so
 * round 1 backs up its values (1 + 7.25 nearly everywhere), not zeros. */
static void test_init_target(void)
{
    const char *path = "test_trn_avi.init.h5";
    nn_model *c = constant_model(7.25);
    CHECK(c != NULL && nn_model_save(c, path) == 0);
    nn_model_free(c);
    struct trn_avi_opts o;
    small_opts(&o);
    o.arch = NULL;
    o.init = path;
    o.rounds = 1;
    o.walk_max = 30;
    o.clamp = 0;
    double mean = 0;
    o.on_round = avi_keep_mean;
    o.round_user = &mean;
    nn_model *m = NULL;
    CHECK(trn_avi_run(&o, &m) == 0);
    CHECK_MSG(mean > 7.0 && mean < 8.25, "round 1 target mean %.3f", mean);
    nn_model_free(m);
    remove(path);
}

static void test_resume(void)
{
    const char *ck = "test_trn_avi.ck.h5";
    struct trn_avi_opts o;
    small_opts(&o);
    nn_model *rest = avi_check_resume(&o, 4, ck);
    /* another method or batch is refused */
    nn_model *x = NULL;
    o.batch = 64;
    CHECK(trn_avi_run(&o, &x) == HN_ERR_ARG && x == NULL);
    CHECK(strstr(hn_errmsg(), "batch") != NULL);
    nn_model_free(rest);
    remove(ck);
}

struct boot_seen {
    int solved, rounds;
    int walk_last;
};

static void on_boot_round(const struct trn_avi_round *r, void *user)
{
    struct boot_seen *s = user;
    s->solved += r->solved;
    s->rounds++;
    s->walk_last = r->walk;
}

static void test_bootstrap(const uint8_t *dist)
{
    struct trn_avi_opts o;
    small_opts(&o);
    int rc = 0;
    dom_heur *md = dom_heur_open(D8, "manhattan", &rc);
    CHECK(md != NULL);
    struct boot_seen seen = {0};
    o.method = TRN_AVI_BOOT;
    o.rounds = 10;
    o.weight = 1.0;
    o.boards = 40;
    o.walk = 4;
    o.walk_step = 2;
    o.walk_max = 12;
    o.budget = 200;
    o.threads = 2;
    o.floor = md;
    o.buffer_max = 20000;
    o.on_round = on_boot_round;
    o.round_user = &seen;
    nn_model *m = NULL;
    CHECK(trn_avi_run(&o, &m) == 0);
    CHECK(seen.rounds == 10);
    CHECK(seen.solved >= 100); /* easy boards, Manhattan floor: nearly all solved */
    CHECK(seen.walk_last > 4); /* the boards got harder */
    double ex = m ? exact_near(m, dist, 4) : 0;
    printf("bootstrap: %d boards solved, exact share %.3f on states 1..4 moves away\n", seen.solved,
           ex);
    CHECK_MSG(ex >= 0.5, "bootstrap exact share %.3f on states 1..4 moves away", ex);
    nn_model_free(m);
    dom_heur_free(md);
}

static void test_refused(void)
{
    struct trn_avi_opts o;
    nn_model *m = NULL;
    small_opts(&o);
    o.batch = 1;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
    small_opts(&o);
    o.arch = "80-8-1";
    CHECK(trn_avi_run(&o, &m) == HN_ERR_SHAPE && !m);
    CHECK(strstr(hn_errmsg(), "81 inputs") != NULL);
    small_opts(&o);
    o.method = TRN_AVI_BOOT;
    o.walk = 20;
    o.walk_max = 10;
    CHECK(trn_avi_run(&o, &m) == HN_ERR_ARG && !m);
}

/* Damage one field of a sealed checkpoint and seal it again (what the
 * checksum cannot catch): the resume must refuse it, naming the field. */
static void damage_and_resume(const char *ck, const char *field, double value, int want)
{
    char copy[64];
    snprintf(copy, sizeof copy, "%s.bad", ck);
    FILE *in = fopen(ck, "rb"), *out = fopen(copy, "wb");
    char buf[4096];
    size_t n;
    while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    CHECK(hn_file_unseal(copy) == HN_OK);
    hid_t f = H5Fopen(copy, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = H5Gopen2(f, "avi", H5P_DEFAULT);
    if (!strcmp(field, "adam_v")) {
        hid_t d = H5Dopen2(g, field, H5P_DEFAULT);
        hid_t sp = H5Dget_space(d);
        size_t k = (size_t)H5Sget_simple_extent_npoints(sp);
        float *v = malloc(k * sizeof *v);
        H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        v[k / 2] = (float)value;
        H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
        free(v);
        H5Sclose(sp);
        H5Dclose(d);
    } else {
        CHECK(hn_h5_attr_set_double(g, field, value) == HN_OK);
    }
    H5Gclose(g);
    H5Fclose(f);
    CHECK(hn_file_seal(copy) == HN_OK);
    struct trn_avi_opts o;
    small_opts(&o);
    o.rounds = 2;
    o.arch = NULL;
    o.resume = copy;
    nn_model *m = NULL;
    CHECK(trn_avi_run(&o, &m) == want && m == NULL);
    CHECK_MSG(strstr(hn_errmsg(), field) != NULL, "%s: %s", field, hn_errmsg());
    remove(copy);
}

/* Counters were cast to int unchecked (NaN, 1e300: undefined; -1 wrapped)
 * and the Adam moments were not checked at all. */
static void test_damaged(void)
{
    const char *ck = "test_trn_avi.dmg.h5";
    struct trn_avi_opts o;
    small_opts(&o);
    o.rounds = 1;
    o.checkpoint = ck;
    nn_model *m = NULL;
    CHECK(trn_avi_run(&o, &m) == 0);
    nn_model_free(m);
    damage_and_resume(ck, "round", -1, HN_ERR_FORMAT);
    damage_and_resume(ck, "round", 1e300, HN_ERR_FORMAT);
    damage_and_resume(ck, "steps", NAN, HN_ERR_FORMAT);
    damage_and_resume(ck, "walk", 0.5, HN_ERR_FORMAT);
    damage_and_resume(ck, "adam_v", -1, HN_ERR_NAN);
    damage_and_resume(ck, "adam_v", NAN, HN_ERR_NAN);
    remove(ck);
}

int main(void)
{
    nn_blas_threads(1);
    hn_h5_quiet();
    int st = 0;
    D8 = dom_open("npuzzle:3x3", &st);
    CHECK(D8 != NULL);
    if (!D8)
        return CHECK_DONE();
    test_damaged();
    uint8_t *dist = bfs8(SRCH_NP_GOAL_BLANK_FIRST);
    CHECK(dist != NULL);
    test_backups();
    test_integer_backups();
    if (dist) {
        test_learns(dist);
        test_bootstrap(dist);
    }
    test_resume();
    test_init_target();
    test_refused();
    free(dist);
    dom_free(D8);
    return CHECK_DONE();
}
