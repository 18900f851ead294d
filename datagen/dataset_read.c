/* Dataset reader: validates a file before trusting it (format attribute,
 * dtypes, shapes, committed rows, boards being permutations) so bad input
 * gets a message naming the file and dataset instead of garbage rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen/dataset_priv.h"
#include "datagen/dom_ds_priv.h"
#include "common/hn_h5.h"

static const struct {
    const char *name;
    size_t size;
    int rank;
    const char *what;
} expect[4] = {
    {"boards", 1, 2, "uint8 [rows, cells]"},
    {"cost", 2, 1, "uint16 [rows]"},
    {"expanded", 8, 1, "uint64 [rows]"},
    {"source", 1, 1, "uint8 [rows]"},
};

int dg_check_udset(hid_t f, const char *path, const char *name, const char *what, size_t size,
                   int want_rank, int cols, const char *cols_name, hsize_t *rows)
{
    if (H5Lexists(f, name, H5P_DEFAULT) <= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: dataset /%s is missing (expected %s)", path, name, what);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    if (d < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: /%s cannot be opened", path, name);
    hid_t t = H5Dget_type(d), s = H5Dget_space(d);
    hsize_t dims[3] = {0, 0, 0};
    int rank = s >= 0 ? H5Sget_simple_extent_ndims(s) : -1;
    if (rank >= 1 && rank <= 3)
        H5Sget_simple_extent_dims(s, dims, NULL);
    int rc = HN_OK;
    if (t < 0 || H5Tget_class(t) != H5T_INTEGER || H5Tget_size(t) != size ||
        H5Tget_sign(t) != H5T_SGN_NONE)
        rc = hn_fail(HN_ERR_FORMAT, "%s: /%s has the wrong type (expected %s)", path, name, what);
    else if ((rc = hn_h5_dset_check(d, path, name)))
        ;
    else if (rank != want_rank || (want_rank == 2 && dims[1] != (hsize_t)cols))
        rc = hn_fail(HN_ERR_FORMAT, "%s: /%s has the wrong shape (expected %s, %s=%d)", path, name,
                     what, cols_name, cols);
    else
        *rows = dims[0];
    if (t >= 0)
        H5Tclose(t);
    if (s >= 0)
        H5Sclose(s);
    H5Dclose(d);
    return rc;
}

static int check_one(hid_t f, const char *path, int k, int cells, hsize_t *rows)
{
    return dg_check_udset(f, path, expect[k].name, expect[k].what, expect[k].size, expect[k].rank,
                          cells, "cells", rows);
}

int dg_ds_check_shapes(hid_t f, const char *path, int cells, uint64_t *extent)
{
    hsize_t rows[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        int rc = check_one(f, path, k, cells, &rows[k]);
        if (rc)
            return rc;
        if (rows[k] != rows[0])
            return hn_fail(HN_ERR_SHAPE, "%s: /%s has %llu rows but /boards has %llu", path,
                           expect[k].name, (unsigned long long)rows[k],
                           (unsigned long long)rows[0]);
    }
    *extent = rows[0];
    return HN_OK;
}

static int info_from_open(hid_t f, const char *path, dg_ds_info *info)
{
    int rc = dg_info_read_attrs(f, path, info);
    uint64_t extent = 0;
    if (!rc)
        rc = dg_ds_check_shapes(f, path, info->cells, &extent);
    if (!rc && extent < info->committed)
        rc = hn_fail(HN_ERR_FORMAT, "%s: /boards has %llu rows, fewer than committed=%llu", path,
                     (unsigned long long)extent, (unsigned long long)info->committed);
    if (!rc && info->is_virtual)
        rc = dg_check_virtual_sources(f, path, "boards");
    return rc;
}

/* A file without a checksum is first read by each public reader in a child
 * (hn_h5_probe_call): libhdf5 can crash on a damaged file. */
static void probe_info(void *path)
{
    dg_ds_info info;
    dg_ds_info_read(path, &info);
}

static void probe_load(void *path)
{
    int st;
    dg_dataset_free(dg_dataset_load(path, &st));
}

int dg_ds_info_read(const char *path, dg_ds_info *info)
{
    int rc0 = hn_h5_probe_call(path, probe_info, (void *)path);
    if (rc0)
        return rc0;
    hid_t f = dg_h5_open_live(path);
    if (f < 0)
        return (int)f;
    int rc = info_from_open(f, path, info);
    H5Fclose(f);
    return rc;
}

/* Read rows [start, start+n) of dataset k into buf. */
static int read_rows(hid_t f, const char *path, int k, int cells, uint64_t start, uint64_t n,
                     void *buf)
{
    hid_t d = H5Dopen2(f, dg_ds_names[k], H5P_DEFAULT);
    int bad = dg_ds_rows_read(d, k, cells, start, n, buf);
    if (d >= 0)
        H5Dclose(d);
    if (bad)
        return hn_fail(HN_ERR_HDF5, "%s: cannot read rows %llu..%llu of /%s", path,
                       (unsigned long long)start, (unsigned long long)(start + n), dg_ds_names[k]);
    return HN_OK;
}

/* A row is a board when it holds every tile 0..cells-1 exactly once. */
static int check_boards(const char *path, const uint8_t *b, uint64_t rows, int cells)
{
    for (uint64_t r = 0; r < rows; r++) {
        uint64_t seen = 0;
        for (int c = 0; c < cells; c++) {
            unsigned t = b[r * (uint64_t)cells + (uint64_t)c];
            if (t >= (unsigned)cells || (seen >> t & 1))
                return hn_fail(HN_ERR_FORMAT, "%s: /boards row %llu is not a board (tile %u)", path,
                               (unsigned long long)r, t);
            seen |= 1ULL << t;
        }
    }
    return HN_OK;
}

dg_dataset *dg_dataset_load(const char *path, int *status)
{
    int rc0 = hn_h5_probe_call(path, probe_load, (void *)path);
    if (rc0) {
        if (status)
            *status = rc0;
        return NULL;
    }
    int rc;
    dg_dataset *d = calloc(1, sizeof *d);
    hid_t f = dg_h5_open_live(path);
    if (!d)
        rc = hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
    else if (f < 0)
        rc = (int)f;
    else
        rc = info_from_open(f, path, &d->info);
    if (!rc) {
        uint64_t n = d->rows = d->info.committed, cells = (uint64_t)d->info.cells;
        d->boards = malloc(n * cells + 1);
        d->cost = malloc(n * sizeof *d->cost + 1);
        d->expanded = malloc(n * sizeof *d->expanded + 1);
        d->source = malloc(n + 1);
        void *bufs[4] = {d->boards, d->cost, d->expanded, d->source};
        if (!d->boards || !d->cost || !d->expanded || !d->source)
            rc = hn_fail(HN_ERR_NOMEM, "%s: out of memory for %llu rows", path,
                         (unsigned long long)n);
        for (int k = 0; k < 4 && !rc && n; k++)
            rc = read_rows(f, path, k, d->info.cells, 0, n, bufs[k]);
        if (!rc)
            rc = check_boards(path, d->boards, n, d->info.cells);
    }
    if (f >= 0)
        H5Fclose(f);
    if (status)
        *status = rc;
    if (rc) {
        dg_dataset_free(d);
        return NULL;
    }
    return d;
}

void dg_dataset_free(dg_dataset *d)
{
    if (!d)
        return;
    free(d->boards);
    free(d->cost);
    free(d->expanded);
    free(d->source);
    free(d);
}

struct hist_args {
    const char *path;
    uint64_t *hist, *by_source;
    size_t cap;
    unsigned *max_cost;
};

static void probe_hist(void *arg)
{
    const struct hist_args *a = arg;
    dg_ds_histogram(a->path, a->hist, a->cap, a->by_source, a->max_cost);
}

int dg_ds_histogram(const char *path, uint64_t *hist, size_t cap, uint64_t *by_source,
                    unsigned *max_cost)
{
    struct hist_args ha = {path, hist, by_source, cap, max_cost};
    int rc0 = hn_h5_probe_call(path, probe_hist, &ha);
    if (rc0)
        return rc0;
    dg_ds_info info;
    hid_t f = dg_h5_open_live(path);
    if (f < 0)
        return (int)f;
    int rc = info_from_open(f, path, &info);
    enum { BLOCK = 1 << 16 };
    uint16_t *cost = malloc(BLOCK * sizeof *cost);
    uint8_t *src = malloc(BLOCK);
    if (!rc && (!cost || !src))
        rc = hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
    memset(hist, 0, cap * sizeof *hist);
    if (by_source)
        memset(by_source, 0, 5 * sizeof *by_source);
    unsigned mx = 0;
    for (uint64_t at = 0; !rc && at < info.committed; at += BLOCK) {
        uint64_t n = info.committed - at < BLOCK ? info.committed - at : BLOCK;
        rc = read_rows(f, path, 1, info.cells, at, n, cost);
        if (!rc)
            rc = read_rows(f, path, 3, info.cells, at, n, src);
        for (uint64_t i = 0; !rc && i < n; i++) {
            hist[cost[i] < cap ? cost[i] : cap - 1]++;
            mx = cost[i] > mx ? cost[i] : mx;
            if (by_source && src[i] < 5)
                by_source[src[i]]++;
        }
    }
    if (max_cost)
        *max_cost = mx;
    free(cost);
    free(src);
    H5Fclose(f);
    return rc;
}
