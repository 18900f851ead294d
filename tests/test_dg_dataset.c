/* The reader of old n-puzzle datasets (/boards, written by heurnet gen
 * before the n-puzzle became a domain): rows and attributes of a file in
 * that layout read back, the histogram, and clear failures on files that
 * are not datasets or have wrong types, shapes or attributes. The files are
 * written here with plain HDF5 calls, as the old writer laid them out. */
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

static int put(hid_t f, const char *name, hid_t type, int rank, hsize_t rows, hsize_t cols,
               const void *buf, hid_t mem)
{
    hsize_t dims[2] = {rows, cols};
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t d = H5Dcreate2(f, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok = d >= 0 && H5Dwrite(d, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
    if (d >= 0)
        H5Dclose(d);
    H5Sclose(sp);
    return ok ? 0 : -1;
}

/* A complete unsharded file of n rows of `width` boards, attributes as the
 * old writer set them. */
static int write_old(const char *path, int width, size_t n)
{
    int cells = width * width;
    uint8_t *b = malloc(n * (size_t)cells + 1), *s = malloc(n + 1);
    uint16_t *c = malloc(n * 2 + 2);
    uint64_t *e = malloc(n * 8 + 8);
    fill_cells(cells, 0, n, b, c, e, s);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    int rc = f >= 0 ? 0 : -1;
    if (!rc)
        rc = put(f, "boards", H5T_STD_U8LE, 2, n, (hsize_t)cells, b, H5T_NATIVE_UINT8) ||
             put(f, "cost", H5T_STD_U16LE, 1, n, 1, c, H5T_NATIVE_UINT16) ||
             put(f, "expanded", H5T_STD_U64LE, 1, n, 1, e, H5T_NATIVE_UINT64) ||
             put(f, "source", H5T_STD_U8LE, 1, n, 1, s, H5T_NATIVE_UINT8);
    const char *strs[][2] = {{"format", "heurnet-dataset"}, {"goal", "blank-first"},
                             {"heuristic", "manhattan"},    {"solver", "idastar"},
                             {"source", "random+path"},     {"from", ""},
                             {"version", "0.1.0"},          {"revision", "old"}};
    for (size_t i = 0; !rc && i < sizeof strs / sizeof *strs; i++)
        rc = hn_h5_attr_set_str(f, strs[i][0], strs[i][1]);
    const struct {
        const char *name;
        long long v;
    } ints[] = {{"format_version", 1},
                {"width", width},
                {"cells", cells},
                {"from_crc32", 0},
                {"walk_length", 0},
                {"path_states", 1},
                {"seed", 77},
                {"shard_count", 1},
                {"shard_index", 0},
                {"first_index", 0},
                {"count", (long long)n},
                {"total_count", (long long)n},
                {"done", (long long)n},
                {"committed", (long long)n},
                {"complete", 1},
                {"merged", 0},
                {"virtual", 0}};
    for (size_t i = 0; !rc && i < sizeof ints / sizeof *ints; i++)
        rc = hn_h5_attr_set_int(f, ints[i].name, ints[i].v);
    if (f >= 0 && H5Fclose(f) < 0)
        rc = -1;
    free(b), free(c), free(e), free(s);
    return rc ? HN_ERR_HDF5 : HN_OK;
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

static void test_read(void)
{
    CHECK(write_old("t_dg_rt.h5", 3, 1000) == HN_OK);
    int rc;
    dg_dataset *d = dg_dataset_load("t_dg_rt.h5", &rc);
    CHECK_MSG(d != NULL, "%s", hn_errmsg());
    if (!d)
        return;
    CHECK(same_rows(d, 0, 1000));
    CHECK(d->info.seed == 77 && d->info.width == 3);
    CHECK(d->info.complete == 1 && d->info.committed == 1000 && d->info.done == 1000);
    CHECK(!strcmp(d->info.heuristic, "manhattan") && !strcmp(d->info.source, "random+path"));
    dg_dataset_free(d);
    uint64_t hist[40], src[5];
    unsigned mx = 0;
    CHECK(dg_ds_histogram("t_dg_rt.h5", hist, 40, src, &mx) == HN_OK);
    CHECK(mx == 31 && hist[0] == 32 && hist[31] == 31 && src[0] == 500 && src[1] == 500);
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
    CHECK(write_old("t_dg_dtype.h5", 3, 10) == HN_OK);
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
    CHECK(write_old("t_dg_shape.h5", 4, 10) == HN_OK);
    h = H5Fopen("t_dg_shape.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    hn_h5_attr_set_int(h, "width", 3);
    hn_h5_attr_set_int(h, "cells", 9);
    H5Fclose(h);
    CHECK(dg_dataset_load("t_dg_shape.h5", &rc) == NULL && rc == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "/boards has the wrong shape") != NULL);
    /* a 64-bit count stored as an array (read into one uint64_t, it
     * overflowed the stack), and an int field that does not fit an int */
    CHECK(write_old("t_dg_attr.h5", 3, 10) == HN_OK);
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
    CHECK(write_old("t_dg_attr.h5", 3, 10) == HN_OK);
    h = H5Fopen("t_dg_attr.h5", H5F_ACC_RDWR, H5P_DEFAULT);
    hn_h5_attr_set_int(h, "width", (1LL << 32) + 3); /* wrapped to 3 before */
    H5Fclose(h);
    CHECK(dg_ds_info_read("t_dg_attr.h5", &got) == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "'width' is 4294967299, out of range") != NULL);
}

int main(void)
{
    hn_h5_quiet();
    test_read();
    test_bad_files();
    return CHECK_DONE();
}
