/* datagen datasets: HDF5 round trip, commit/resume semantics, merging shards
 * (copy and virtual), and clear failures on files that are not datasets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datagen/dg.h"
#include "tests/check.h"
#include "common/hn_h5.h"

/* n rows of boards of `cells` cells: row r is a rotation of 0..cells-1 by r,
 * cost r % 32. */
static void fill_cells(int cells, uint64_t first, size_t n, uint8_t *b, uint16_t *c, uint64_t *e,
                       uint8_t *s)
{
    for (size_t r = 0; r < n; r++) {
        for (int k = 0; k < cells; k++)
            b[r * (size_t)cells + (size_t)k] = (uint8_t)((k + first + r) % (uint64_t)cells);
        c[r] = (uint16_t)((first + r) % 32);
        e[r] = (first + r) * 1000003ULL;
        s[r] = (uint8_t)((first + r) % 2);
    }
}

static void fill(uint64_t first, size_t n, uint8_t *b, uint16_t *c, uint64_t *e, uint8_t *s)
{
    fill_cells(9, first, n, b, c, e, s);
}

static dg_ds_info base_info(void)
{
    dg_ds_info i;
    memset(&i, 0, sizeof i);
    i.width = 3;
    i.cells = 9;
    snprintf(i.goal, sizeof i.goal, "blank-first");
    snprintf(i.heuristic, sizeof i.heuristic, "manhattan");
    snprintf(i.solver, sizeof i.solver, "idastar");
    snprintf(i.source, sizeof i.source, "random+path");
    i.path_states = 1;
    i.seed = 0xfedcba9876543210ULL;
    i.shard_count = 1;
    i.count = i.total_count = 1000;
    return i;
}

static int write_range(const char *path, const dg_ds_info *info, uint64_t first, size_t n)
{
    uint8_t *b = malloc(n * (size_t)info->cells + 1), *s = malloc(n + 1);
    uint16_t *c = malloc(n * 2 + 2);
    uint64_t *e = malloc(n * 8 + 8);
    fill_cells(info->cells, first, n, b, c, e, s);
    int rc;
    dg_writer *w = dg_writer_create(path, info, &rc);
    if (w) {
        rc = dg_writer_append(w, b, c, e, s, n);
        if (!rc)
            rc = dg_writer_commit(w, info->count);
        int crc = dg_writer_close(w, 1);
        rc = rc ? rc : crc;
    }
    free(b), free(c), free(e), free(s);
    return rc;
}

static int same_rows(const dg_dataset *d, uint64_t first, size_t n)
{
    uint8_t *b = malloc(n * 9 + 1), *s = malloc(n + 1);
    uint16_t *c = malloc(n * 2 + 2);
    uint64_t *e = malloc(n * 8 + 8);
    fill(first, n, b, c, e, s);
    int ok = d->rows == n && !memcmp(b, d->boards, n * 9) && !memcmp(c, d->cost, n * 2) &&
             !memcmp(e, d->expanded, n * 8) && !memcmp(s, d->source, n);
    free(b), free(c), free(e), free(s);
    return ok;
}

static void test_round_trip(void)
{
    dg_ds_info in = base_info();
    CHECK(write_range("t_dg_rt.h5", &in, 0, 1000) == HN_OK);
    int rc;
    dg_dataset *d = dg_dataset_load("t_dg_rt.h5", &rc);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK(same_rows(d, 0, 1000));
    CHECK(d->info.seed == in.seed);
    CHECK(d->info.complete == 1 && d->info.committed == 1000 && d->info.done == 1000);
    CHECK(!strcmp(d->info.heuristic, "manhattan") && !strcmp(d->info.source, "random+path"));
    CHECK(!strcmp(d->info.version, hn_version()));
    dg_dataset_free(d);
    uint64_t hist[40], src[5];
    unsigned mx = 0;
    CHECK(dg_ds_histogram("t_dg_rt.h5", hist, 40, src, &mx) == HN_OK);
    CHECK(mx == 31 && hist[0] == 32 && hist[31] == 31 && src[0] == 500 && src[1] == 500);
}

/* A run stopped after 300 rows, continued to 1000, equals one written at once. */
static void test_resume(void)
{
    dg_ds_info in = base_info();
    uint8_t b[700 * 9], s[700];
    uint16_t c[700];
    uint64_t e[700];
    fill(0, 300, b, c, e, s);
    int rc;
    dg_writer *w = dg_writer_create("t_dg_res.h5", &in, &rc);
    CHECK(w && dg_writer_append(w, b, c, e, s, 300) == HN_OK);
    CHECK(dg_writer_commit(w, 300) == HN_OK);
    /* rows appended but never committed: a killed run */
    CHECK(dg_writer_append(w, b, c, e, s, 50) == HN_OK);
    /* close without completing; the uncommitted rows must not count */
    CHECK(dg_writer_close(w, 0) == HN_OK);
    dg_ds_info got;
    CHECK(dg_ds_info_read("t_dg_res.h5", &got) == HN_OK);
    CHECK(got.complete == 0 && got.committed == 300 && got.done == 300);

    dg_ds_info other = in;
    other.seed++;
    CHECK(dg_writer_resume("t_dg_res.h5", &other, &got, &rc) == NULL);
    CHECK(rc == HN_ERR_ARG && strstr(hn_errmsg(), "seed"));
    w = dg_writer_resume("t_dg_res.h5", &in, &got, &rc);
    CHECK(w != NULL && got.done == 300 && got.committed == 300);
    if (!w)
        return;
    fill(300, 700, b, c, e, s);
    CHECK(dg_writer_append(w, b, c, e, s, 700) == HN_OK);
    CHECK(dg_writer_commit(w, 1000) == HN_OK);
    CHECK(dg_writer_close(w, 1) == HN_OK);
    dg_dataset *d = dg_dataset_load("t_dg_res.h5", &rc);
    CHECK(d && same_rows(d, 0, 1000) && d->info.complete);
    dg_dataset_free(d);
}

static void test_merge(void)
{
    const char *names[3] = {"t_dg_s2.h5", "t_dg_s0.h5", "t_dg_s1.h5"};
    uint64_t bounds[4] = {0, 333, 666, 1000};
    for (int i = 0; i < 3; i++) {
        dg_ds_info in = base_info();
        in.shard_index = i;
        in.shard_count = 3;
        in.first_index = bounds[i];
        in.count = bounds[i + 1] - bounds[i];
        CHECK(write_range(names[(i + 1) % 3], &in, bounds[i], (size_t)in.count) == HN_OK);
    }
    int rc;
    for (int v = 0; v < 2; v++) {
        const char *out = v ? "t_dg_mv.h5" : "t_dg_mc.h5";
        CHECK_MSG(dg_merge(out, names, 3, v) == HN_OK, "%s", hn_errmsg());
        dg_dataset *d = dg_dataset_load(out, &rc);
        CHECK_MSG(d && same_rows(d, 0, 1000), "%s", hn_errmsg());
        CHECK(d && d->info.merged == 3 && d->info.is_virtual == v && d->info.complete);
        dg_dataset_free(d);
    }
    /* a missing shard, and a shard of another run */
    CHECK(dg_merge("t_dg_bad.h5", names, 2, 0) == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "missing") != NULL);
    char part[256];
    CHECK(hn_part_path("t_dg_bad.h5", part, sizeof part) == 0);
    CHECK(access("t_dg_bad.h5", F_OK) != 0 && access(part, F_OK) != 0);
    dg_ds_info odd = base_info();
    odd.shard_index = 1;
    odd.shard_count = 3;
    odd.first_index = 333;
    odd.count = 333;
    snprintf(odd.heuristic, sizeof odd.heuristic, "lc");
    CHECK(write_range("t_dg_odd.h5", &odd, 333, 333) == HN_OK);
    const char *mixed[3] = {"t_dg_s1.h5", "t_dg_odd.h5", "t_dg_s0.h5"};
    CHECK(dg_merge("t_dg_bad.h5", mixed, 3, 0) == HN_ERR_ARG);
    CHECK(strstr(hn_errmsg(), "heuristic") != NULL);
}

static void test_bad_files(void)
{
    int rc;
    /* not HDF5 */
    FILE *f = fopen("t_dg_text.h5", "w");
    fputs("hello\n", f);
    fclose(f);
    CHECK(dg_dataset_load("t_dg_text.h5", &rc) == NULL && rc == HN_ERR_FORMAT);
    /* HDF5 but not ours */
    hid_t h = H5Fcreate("t_dg_foreign.h5", H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    H5Fclose(h);
    CHECK(dg_dataset_load("t_dg_foreign.h5", &rc) == NULL && rc == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "not a heurnet dataset") != NULL);
    /* ours, but /cost replaced by float32 */
    dg_ds_info in = base_info();
    CHECK(write_range("t_dg_dtype.h5", &in, 0, 10) == HN_OK);
    h = H5Fopen("t_dg_dtype.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    H5Ldelete(h, "cost", H5P_DEFAULT);
    hsize_t n = 10;
    hid_t sp = H5Screate_simple(1, &n, NULL);
    hid_t d = H5Dcreate2(h, "cost", H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dclose(d);
    H5Sclose(sp);
    H5Fclose(h);
    CHECK(dg_dataset_load("t_dg_dtype.h5", &rc) == NULL && rc == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "/cost has the wrong type") != NULL);
    /* /boards of the wrong width */
    in.width = 4;
    in.cells = 16;
    CHECK(write_range("t_dg_shape.h5", &in, 0, 10) == HN_OK);
    h = H5Fopen("t_dg_shape.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    hn_h5_attr_set_int(h, "width", 3);
    hn_h5_attr_set_int(h, "cells", 9);
    H5Fclose(h);
    CHECK(dg_dataset_load("t_dg_shape.h5", &rc) == NULL && rc == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "/boards has the wrong shape") != NULL);
    /* a 64-bit count stored as an array (read into one uint64_t, it
     * overflowed the stack), and an int field that does not fit an int */
    in = base_info();
    CHECK(write_range("t_dg_attr.h5", &in, 0, 10) == HN_OK);
    h = H5Fopen("t_dg_attr.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    H5Adelete(h, "count");
    hsize_t four = 4;
    uint64_t counts[4] = {10, 10, 10, 10};
    sp = H5Screate_simple(1, &four, NULL);
    hid_t a = H5Acreate2(h, "count", H5T_STD_U64LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_UINT64, counts);
    H5Aclose(a);
    H5Sclose(sp);
    H5Fclose(h);
    dg_ds_info got;
    CHECK(dg_ds_info_read("t_dg_attr.h5", &got) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "'count' holds 4 values") != NULL);
    CHECK(write_range("t_dg_attr.h5", &in, 0, 10) == HN_OK);
    h = H5Fopen("t_dg_attr.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    hn_h5_attr_set_int(h, "width", (1LL << 32) + 3); /* wrapped to 3 before */
    H5Fclose(h);
    CHECK(dg_ds_info_read("t_dg_attr.h5", &got) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "'width' is 4294967299, out of range") != NULL);
    /* resume refuses a foreign file rather than overwriting it */
    CHECK(dg_writer_resume("t_dg_foreign.h5", &in, &in, &rc) == NULL && rc == HN_ERR_FORMAT);
}

int main(void)
{
    hn_h5_quiet();
    test_round_trip();
    test_resume();
    test_merge();
    test_bad_files();
    return CHECK_DONE();
}
