/* emp gen-data: the file depends only on the seed, rollouts of horizon 0
 * gain exactly the move's delta, and the reader checks format, encoder,
 * shapes and values. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "datagen/emp_moves.h"
#include "search/emp/srch_em_scorer.h"
#include "common/hn_h5.h"

static srch_em_inst *inst[2];
static const char *names[2] = {"gen-6x6-s1", "gen-7x7-s2"};

static int gen(uint64_t seed, const char *out)
{
    dg_emp_moves_opts o = DG_EMP_MOVES_DEFAULTS;
    o.seed = seed;
    o.states = 20;
    o.moves_per_state = 5;
    o.horizon = 6;
    o.ta_n = 10;
    o.nodes = 200;
    return dg_emp_moves_gen((const srch_em_inst *const *)inst, names, 2, &o, out);
}

/* /state numbers the perturbation steps 0, 1, ... in order, at most m rows each. */
static void check_state_ids(const char *path, size_t rows, int states, int m)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t ds = f < 0 ? -1 : H5Dopen2(f, "state", H5P_DEFAULT);
    CHECK(ds >= 0);
    int32_t *s = malloc(sizeof *s * rows);
    if (ds >= 0 && s && H5Dread(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, s) >= 0) {
        int ok = s[0] == 0 && s[rows - 1] == states - 1, run = 1;
        for (size_t r = 1; r < rows; r++) {
            ok &= s[r] == s[r - 1] || s[r] == s[r - 1] + 1;
            run = s[r] == s[r - 1] ? run + 1 : 1;
            ok &= run <= m;
        }
        CHECK(ok);
    } else {
        CHECK(!"reading /state");
    }
    free(s);
    if (ds >= 0)
        H5Dclose(ds);
    if (f >= 0)
        H5Fclose(f);
}

static void test_reproducible(void)
{
    float *x1, *y1, *x2, *y2, *x3, *y3;
    dg_emp_moves_info i1, i2, i3;
    CHECK(gen(4, "t_dgem_a.h5") == HN_OK);
    CHECK(gen(4, "t_dgem_b.h5") == HN_OK);
    CHECK(gen(5, "t_dgem_c.h5") == HN_OK);
    CHECK(dg_emp_moves_read("t_dgem_a.h5", &x1, &y1, &i1) == HN_OK);
    CHECK(dg_emp_moves_read("t_dgem_b.h5", &x2, &y2, &i2) == HN_OK);
    CHECK(dg_emp_moves_read("t_dgem_c.h5", &x3, &y3, &i3) == HN_OK);
    if (!x1 || !x2 || !x3)
        return;
    CHECK(i1.dim == SRCH_EM_FEAT_DIM && i1.rows > 40 && i1.rows <= 200);
    CHECK(i1.moves_per_state == 5 && i1.horizon == 6 && i1.seed == 4);
    CHECK(i1.rows == i2.rows);
    CHECK(i1.rows == i2.rows && !memcmp(x1, x2, sizeof *x1 * i1.rows * SRCH_EM_FEAT_DIM) &&
          !memcmp(y1, y2, sizeof *y1 * i1.rows));
    CHECK(i1.rows != i3.rows || memcmp(x1, x3, sizeof *x1 * i1.rows * SRCH_EM_FEAT_DIM));
    /* the label is at least the immediate delta (the best score met includes
     * the state right after the move) */
    size_t below = 0;
    for (size_t r = 0; r < i1.rows; r++)
        below += y1[r] < x1[r * SRCH_EM_FEAT_DIM];
    CHECK(below == 0);
    check_state_ids("t_dgem_a.h5", i1.rows, 2 * 20, 5);
    free(x1), free(y1), free(x2), free(y2), free(x3), free(y3);
}

static void test_rollout(void)
{
    int st;
    srch_em_board *b = srch_em_board_new(inst[0], &st), *s = srch_em_board_new(inst[0], &st);
    hn_rng *rng = hn_rng_new(9);
    srch_em_move cand[40], roll[40];
    CHECK(b && s && rng);
    if (!b || !s || !rng)
        return;
    srch_em_board_random(b, rng);
    int nc = srch_em_moves_enum(b, 14, cand, 40), ok = 1, score = srch_em_board_score(b);
    for (int i = 0; i < nc; i++) {
        int g0, g8, g8b;
        ok &= dg_emp_rollout(b, &cand[i], 0, 3, s, roll, &g0) == HN_OK && g0 == cand[i].delta;
        ok &= dg_emp_rollout(b, &cand[i], 8, 3, s, roll, &g8) == HN_OK && g8 >= g0;
        ok &= dg_emp_rollout(b, &cand[i], 8, 3, s, roll, &g8b) == HN_OK && g8b == g8;
    }
    CHECK(nc > 0 && ok);
    CHECK(srch_em_board_score(b) == score);
    srch_em_board_free(b);
    srch_em_board_free(s);
    hn_rng_free(rng);
}

/* Rewrite a copy of a valid file with one thing broken. */
static void write_bad(const char *path, int cols, int yrows_less, int nan, const char *encoder)
{
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dx[2] = {10, (hsize_t)cols}, dy[1] = {(hsize_t)(10 - yrows_less)};
    float xv[10 * 32] = {0}, yv[10] = {0};
    if (nan)
        yv[3] = NAN;
    hid_t sx = H5Screate_simple(2, dx, NULL), sy = H5Screate_simple(1, dy, NULL);
    hid_t x = H5Dcreate2(f, "x", H5T_IEEE_F32LE, sx, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t y = H5Dcreate2(f, "y", H5T_IEEE_F32LE, sy, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(x, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, xv);
    H5Dwrite(y, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, yv);
    hn_h5_attr_set_str(f, "format", DG_EMP_MOVES_FORMAT);
    hn_h5_attr_set_int(f, "format_version", DG_EMP_MOVES_VERSION);
    if (encoder)
        hn_h5_attr_set_str(f, "encoder", encoder);
    hn_h5_attr_set_int(f, "moves_per_state", 4);
    hn_h5_attr_set_int(f, "horizon", 4);
    hn_h5_attr_set_int(f, "seed", 1);
    H5Dclose(x), H5Dclose(y), H5Sclose(sx), H5Sclose(sy), H5Fclose(f);
}

static void test_read_checks(void)
{
    float *x, *y;
    dg_emp_moves_info info;
    hn_h5_quiet();
    write_bad("t_dgem_ok.h5", SRCH_EM_FEAT_DIM, 0, 0, SRCH_EM_FEAT_ENCODER);
    CHECK(dg_emp_moves_read("t_dgem_ok.h5", &x, &y, &info) == HN_OK && info.rows == 10);
    free(x), free(y);
    write_bad("t_dgem_w.h5", SRCH_EM_FEAT_DIM - 1, 0, 0, SRCH_EM_FEAT_ENCODER);
    CHECK(dg_emp_moves_read("t_dgem_w.h5", &x, &y, &info) == HN_ERR_SHAPE);
    CHECK(strstr(hn_errmsg(), "t_dgem_w.h5") && strstr(hn_errmsg(), "/x"));
    write_bad("t_dgem_y.h5", SRCH_EM_FEAT_DIM, 2, 0, SRCH_EM_FEAT_ENCODER);
    CHECK(dg_emp_moves_read("t_dgem_y.h5", &x, &y, &info) == HN_ERR_SHAPE);
    CHECK(strstr(hn_errmsg(), "/y") != NULL);
    write_bad("t_dgem_nan.h5", SRCH_EM_FEAT_DIM, 0, 1, SRCH_EM_FEAT_ENCODER);
    CHECK(dg_emp_moves_read("t_dgem_nan.h5", &x, &y, &info) == HN_ERR_NAN);
    write_bad("t_dgem_enc.h5", SRCH_EM_FEAT_DIM, 0, 0, "emp-move-v0");
    CHECK(dg_emp_moves_read("t_dgem_enc.h5", &x, &y, &info) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "emp-move-v0") != NULL);
    write_bad("t_dgem_noenc.h5", SRCH_EM_FEAT_DIM, 0, 0, NULL);
    CHECK(dg_emp_moves_read("t_dgem_noenc.h5", &x, &y, &info) == HN_ERR_FORMAT);
    CHECK(dg_emp_moves_read("t_dgem_missing.h5", &x, &y, &info) != HN_OK && !x && !y);
    const char *rm[] = {"t_dgem_ok.h5",  "t_dgem_w.h5",   "t_dgem_y.h5",
                        "t_dgem_nan.h5", "t_dgem_enc.h5", "t_dgem_noenc.h5",
                        "t_dgem_a.h5",   "t_dgem_b.h5",   "t_dgem_c.h5"};
    for (size_t i = 0; i < sizeof rm / sizeof *rm; i++)
        remove(rm[i]);
}

int main(void)
{
    int st;
    inst[0] = srch_em_inst_gen(6, 6, 3, 4, 1, NULL, &st);
    inst[1] = srch_em_inst_gen(7, 7, 3, 5, 2, NULL, &st);
    CHECK(inst[0] && inst[1]);
    if (inst[0] && inst[1]) {
        test_reproducible();
        test_rollout();
        test_read_checks();
    }
    srch_em_inst_free(inst[0]);
    srch_em_inst_free(inst[1]);
    return CHECK_DONE();
}
