/* train: a tiny end-to-end training on 8-puzzle states reaches a stated
 * validation error with a fixed seed; a run resumed from a checkpoint (after
 * an epoch, and after a stop request in the middle of an epoch) gives the
 * same weights bit for bit as an uninterrupted run; data errors name the
 * file and dataset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "search/npuzzle/encode.h"
#include "search/srch.h"
#include "train/trn.h"
#include "common/hn_h5.h"

#define NSTATES 362880 /* 9! ranks, half of them solvable */

/* BFS distances of all 8-puzzle states from the blank-first goal. */
static uint8_t *bfs8(void)
{
    uint8_t *dist = malloc(NSTATES);
    uint32_t *queue = malloc(sizeof(uint32_t) * NSTATES);
    if (!dist || !queue)
        return free(dist), free(queue), NULL;
    memset(dist, 255, NSTATES);
    srch_np_board b;
    srch_np_board_goal(&b, 3, SRCH_NP_GOAL_BLANK_FIRST);
    size_t head = 0, tail = 0;
    uint32_t g = (uint32_t)srch_np_board_rank(&b);
    dist[g] = 0;
    queue[tail++] = g;
    while (head < tail) {
        uint32_t r = queue[head++];
        srch_np_board_unrank(&b, 3, r);
        for (int d = 0; d < 4; d++) {
            if (srch_np_board_move(&b, d) < 0)
                continue;
            uint32_t c = (uint32_t)srch_np_board_rank(&b);
            if (dist[c] == 255) {
                dist[c] = (uint8_t)(dist[r] + 1);
                queue[tail++] = c;
            }
            srch_np_board_move(&b, srch_np_dir_opposite(d));
        }
    }
    free(queue);
    return dist;
}

static int write_ds(hid_t f, const char *name, hid_t type, int rank, const hsize_t *dims,
                    const void *p)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t ds = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = ds >= 0 && H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0;
    H5Dclose(ds);
    H5Sclose(sp);
    return ok ? 0 : -1;
}

/* Every `step`-th solvable state into an HDF5 dataset like heurnet gen's. */
static int make_dataset(const char *path, const uint8_t *dist, int step, size_t *rows)
{
    uint8_t *boards = malloc((size_t)NSTATES * 9);
    uint16_t *cost = malloc(sizeof(uint16_t) * NSTATES);
    size_t n = 0;
    int k = 0;
    srch_np_board b;
    for (uint32_t r = 0; r < NSTATES && boards && cost; r++) {
        if (dist[r] == 255 || k++ % step)
            continue;
        srch_np_board_unrank(&b, 3, r);
        memcpy(boards + n * 9, b.tile, 9);
        cost[n++] = dist[r];
    }
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[2] = {n, 9};
    int rc = boards && cost && f >= 0 ? 0 : -1;
    if (!rc)
        rc = write_ds(f, "boards", H5T_NATIVE_UINT8, 2, dims, boards);
    if (!rc)
        rc = write_ds(f, "cost", H5T_NATIVE_UINT16, 1, dims, cost);
    if (!rc)
        rc = hn_h5_attr_set_str(f, "goal", "blank-first");
    /* fewer committed rows than stored: the reader must stop there */
    if (!rc)
        rc = hn_h5_attr_set_int(f, "committed", (long long)(n - 7));
    if (f >= 0)
        H5Fclose(f);
    free(boards);
    free(cost);
    *rows = n - 7;
    return rc;
}

static void opts(struct trn_opts *o, int epochs)
{
    *o = TRN_OPTS_DEFAULTS;
    o->arch = "81-64-32-1";
    o->defaults.dropout = 0.1f; /* so the dropout RNG state matters for resume */
    o->batch = 64;
    o->epochs = epochs;
    o->lr = 3e-3;
    o->seed = 5;
}

static int same_params(nn_model *a, nn_model *b)
{
    size_t na, nb, sa, sb;
    float *pa = nn_model_params(a, &na), *pb = nn_model_params(b, &nb);
    float *qa = nn_model_state(a, &sa), *qb = nn_model_state(b, &sb);
    return na == nb && sa == sb && !memcmp(pa, pb, na * sizeof(float)) &&
           !memcmp(qa, qb, sa * sizeof(float));
}

/* Requests a stop halfway through the second epoch. */
static int stop_armed;
static void stop_cb(uint64_t done, uint64_t total, const char *extra, void *user)
{
    static uint64_t last;
    static int epoch;
    (void)extra, (void)user;
    if (done < last)
        epoch++;
    last = done;
    if (stop_armed && epoch == 1 && done >= total / 2)
        hn_stop_set(1); /* what SIGTERM does through hn_stop_install's handler */
}

static void test_learn_and_resume(const trn_data *d)
{
    struct trn_opts o;
    struct trn_result r;
    nn_model *full = NULL, *part = NULL, *resumed = NULL, *mid = NULL;
    const char *ck = "trn_train_test.ckpt";

    /* uninterrupted: 3 epochs */
    opts(&o, 3);
    CHECK(trn_run(d, &o, &full, &r) == HN_OK);
    CHECK(r.epochs_run == 3);
    /* stated figure: MAE below 1.75 moves on the held-out 8-puzzle states
     * (predicting the mean gives about 2.5) */
    CHECK_MSG(r.best.val_mae < 1.75, "val_mae %g", r.best.val_mae);
    CHECK_MSG(r.best.val_exact > 0.18, "val_exact %g", r.best.val_exact);
    printf("3 epochs: val_mae %.3f val_exact %.3f\n", r.best.val_mae, r.best.val_exact);
    double mean, std;
    nn_model_target(full, &mean, &std);
    CHECK(mean > 15 && mean < 25 && std > 2 && std < 5);
    CHECK(!strcmp(nn_model_encoder(full), "npuzzle-onehot n=3 goal=blank-first"));
    CHECK(nn_model_get_meta_str(full, "train_spec") != NULL);

    /* 1 epoch with a checkpoint, then resume to 3 */
    opts(&o, 1);
    o.checkpoint = ck;
    CHECK(trn_run(d, &o, &part, &r) == HN_OK);
    opts(&o, 3);
    o.resume = ck;
    CHECK(trn_run(d, &o, &resumed, &r) == HN_OK);
    CHECK(r.epochs_run == 3);
    CHECK(full && resumed && same_params(full, resumed));

    /* stop in the middle of epoch 2, resume */
    opts(&o, 3);
    o.checkpoint = ck;
    o.progress = stop_cb;
    stop_armed = 1;
    nn_model *none = NULL;
    CHECK(trn_run(d, &o, &none, &r) == HN_ERR_INTERRUPTED);
    CHECK(none == NULL);
    CHECK(r.epochs_run == 1);
    hn_stop_set(0);
    stop_armed = 0;
    opts(&o, 3);
    o.resume = ck;
    CHECK(trn_run(d, &o, &mid, &r) == HN_OK);
    CHECK(full && mid && same_params(full, mid));

    /* other settings than the checkpoint's are refused */
    opts(&o, 3);
    o.resume = ck;
    o.batch = 32;
    nn_model *bad = NULL;
    CHECK(trn_run(d, &o, &bad, &r) == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "batch") != NULL);

    /* the spec's input width must fit the boards */
    opts(&o, 1);
    o.arch = "256-32-1";
    CHECK(trn_run(d, &o, &bad, &r) == HN_ERR_SHAPE);
    CHECK(strstr(hn_errmsg(), "/boards") && strstr(hn_errmsg(), "8-puzzle"));
    remove(ck);
    nn_model_free(full);
    nn_model_free(part);
    nn_model_free(resumed);
    nn_model_free(mid);
}

static void test_bad_files(void)
{
    const char *p = "trn_train_bad.h5";
    hid_t f = H5Fcreate(p, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    uint8_t b[18] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0, 2, 3, 4, 5, 6, 7, 8};
    hsize_t dims[2] = {2, 9};
    write_ds(f, "boards", H5T_NATIVE_UINT8, 2, dims, b);
    H5Fclose(f);
    int rc = 0;
    const char *paths[1] = {p};
    CHECK(trn_data_open(paths, 1, 0.1, 0, &rc) == NULL);
    CHECK(rc == HN_ERR_FORMAT && strstr(hn_errmsg(), p) && strstr(hn_errmsg(), "/cost is missing"));
    f = H5Fopen(p, H5F_ACC_RDWR, H5P_DEFAULT);
    float c[2] = {0.0f, -1.0f};
    write_ds(f, "cost", H5T_NATIVE_FLOAT, 1, dims, c);
    H5Fclose(f);
    CHECK(trn_data_open(paths, 1, 0.1, 0, &rc) == NULL);
    CHECK(rc == HN_ERR_FORMAT && strstr(hn_errmsg(), "/cost row 1 is negative"));
    remove(p);
}

int main(void)
{
    hn_h5_quiet();
    nn_blas_threads(1);
    /* TRN_OPTS_DEFAULTS spells out the layer defaults; they must not drift */
    const struct nn_layer_defaults *ld = &TRN_OPTS_DEFAULTS.defaults;
    CHECK(ld->act == NN_LAYER_DEFAULTS.act && ld->elu_alpha == NN_LAYER_DEFAULTS.elu_alpha &&
          ld->bn == NN_LAYER_DEFAULTS.bn && ld->bn_eps == NN_LAYER_DEFAULTS.bn_eps &&
          ld->dropout == NN_LAYER_DEFAULTS.dropout && ld->init == NN_LAYER_DEFAULTS.init);
    uint8_t *dist = bfs8();
    CHECK(dist != NULL);
    if (!dist)
        return CHECK_DONE();
    const char *path = "trn_train_8.h5";
    size_t rows = 0;
    CHECK(make_dataset(path, dist, 9, &rows) == 0); /* 20,160 states */
    free(dist);
    int rc = 0;
    const char *paths[1] = {path};
    trn_data *d = trn_data_open(paths, 1, 0.1, 0, &rc);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    if (d) {
        CHECK(trn_data_rows(d, TRN_TRAIN) + trn_data_rows(d, TRN_VAL) == rows);
        CHECK(trn_data_rows(d, TRN_VAL) > rows / 20 && trn_data_rows(d, TRN_VAL) < rows / 7);
        CHECK(trn_data_inputs(d) == 81 && trn_data_width(d) == 3);
        test_learn_and_resume(d);
    }
    trn_data_free(d);
    test_bad_files();
    remove(path);
    return CHECK_DONE();
}
