/* Joining shards: check that they come from one run and cover its boards
 * exactly once, then copy their rows in board order or map them into HDF5
 * virtual datasets. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "datagen/dataset_priv.h"
#include "datagen/dom_ds_priv.h"
#include "common/hn_h5.h"

struct shard {
    const char *path;
    dg_ds_info info;
};

static int by_first(const void *a, const void *b)
{
    const struct shard *x = a, *y = b;
    return x->info.first_index < y->info.first_index ? -1
                                                     : x->info.first_index > y->info.first_index;
}

/* Read and order the shards; fail unless they form one complete run. */
static int check_shards(struct shard *s, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = dg_ds_info_read(s[i].path, &s[i].info);
        if (rc)
            return rc;
        if (!s[i].info.complete)
            return hn_fail(HN_ERR_ARG, "%s: unfinished (%llu of %llu boards); finish it first",
                           s[i].path, (unsigned long long)s[i].info.done,
                           (unsigned long long)s[i].info.count);
        char why[700];
        if (i && dg_info_diff(&s[0].info, &s[i].info, why, sizeof why))
            return hn_fail(HN_ERR_ARG, "%s and %s come from different runs: %s", s[0].path,
                           s[i].path, why);
        if (i && s[i].info.total_count != s[0].info.total_count)
            return hn_fail(HN_ERR_ARG, "%s and %s come from runs of different --count", s[0].path,
                           s[i].path);
    }
    qsort(s, (size_t)n, sizeof *s, by_first);
    uint64_t at = 0;
    for (int i = 0; i < n; i++) {
        if (s[i].info.first_index != at)
            return hn_fail(HN_ERR_ARG,
                           "%s: starts at board %llu but the shards before end at "
                           "%llu (%s)",
                           s[i].path, (unsigned long long)s[i].info.first_index,
                           (unsigned long long)at,
                           s[i].info.first_index < at ? "overlap" : "a shard is missing");
        at += s[i].info.count;
    }
    if (at != s[0].info.total_count)
        return hn_fail(HN_ERR_ARG, "the shards hold boards 0..%llu of %llu: a shard is missing",
                       (unsigned long long)at, (unsigned long long)s[0].info.total_count);
    return HN_OK;
}

static int copy_rows(dg_writer *w, const struct shard *s)
{
    dg_dataset *d;
    int rc;
    if (!(d = dg_dataset_load(s->path, &rc)))
        return rc;
    rc = dg_writer_append(w, d->boards, d->cost, d->expanded, d->source, d->rows);
    dg_dataset_free(d);
    return rc;
}

static int write_virtual(const char *out, const char *part, const struct shard *s, int n,
                         const dg_ds_info *info)
{
    hid_t f = hn_h5_create(part, -1); /* says why; leaves no empty file behind */
    if (f < 0)
        return (int)f;
    const char **paths = malloc((size_t)n * sizeof *paths);
    uint64_t *rows = malloc((size_t)n * sizeof *rows);
    int rc = paths && rows ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n && !rc; i++)
        paths[i] = s[i].path, rows[i] = s[i].info.committed;
    for (int k = 0; k < 4 && !rc; k++)
        rc = dg_vds_stack(f, out, dg_ds_names[k], dg_ds_file_type(k), dg_ds_rank(k), info->cells,
                          paths, rows, n);
    free(paths);
    free(rows);
    if (!rc)
        rc = dg_info_write(f, info);
    if (H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot close", part);
    return rc;
}

static int write_copy(const char *part, const struct shard *s, int n, const dg_ds_info *info)
{
    int rc;
    dg_writer *w = dg_writer_create(part, info, &rc);
    for (int i = 0; w && i < n && !rc; i++)
        rc = copy_rows(w, &s[i]);
    if (w && !rc)
        rc = dg_writer_commit(w, info->count);
    int crc = dg_writer_close(w, !rc);
    return rc ? rc : crc;
}

int dg_merge(const char *out, const char *const *shards, int n, int virtual_ds)
{
    hn_h5_quiet();
    if (n < 1)
        return hn_fail(HN_ERR_ARG, "no shard files to merge");
    struct shard *s = calloc((size_t)n, sizeof *s);
    if (!s)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        s[i].path = shards[i];
    int rc = check_shards(s, n);
    dg_ds_info info = s[0].info;
    info.shard_index = 0;
    info.shard_count = 1;
    info.first_index = 0;
    info.count = info.total_count = info.done = s[0].info.total_count;
    info.committed = 0;
    for (int i = 0; i < n; i++)
        info.committed += s[i].info.committed;
    info.complete = 1;
    info.merged = n;
    info.is_virtual = !!virtual_ds;
    snprintf(info.version, sizeof info.version, "%s", hn_version());
    snprintf(info.revision, sizeof info.revision, "%s", hn_revision());
    char part[4096];
    if (!rc)
        rc = hn_part_path(out, part, sizeof part);
    if (!rc)
        rc = virtual_ds ? write_virtual(out, part, s, n, &info) : write_copy(part, s, n, &info);
    if (!rc)
        rc = hn_part_commit_sealed(out);
    if (rc)
        hn_part_discard(out);
    free(s);
    return rc;
}
