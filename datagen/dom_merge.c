/* Joining the shards of one domain-dataset run: check that they agree and
 * cover the run exactly once, then copy their rows in state order into a
 * packed file or map them into HDF5 virtual datasets. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datagen/dom_ds_priv.h"

struct shard {
    const char *path;
    dg_dom_info info;
};

static int by_first(const void *a, const void *b)
{
    const struct shard *x = a, *y = b;
    return x->info.first_index < y->info.first_index ? -1
                                                     : x->info.first_index > y->info.first_index;
}

/* Shard i against shard 0: complete, same settings, same run size. */
static int check_one(const struct shard *s, int i)
{
    const dg_dom_info *a = &s[0].info, *b = &s[i].info;
    if (!b->complete)
        return hn_fail(HN_ERR_ARG, "%s: unfinished (%llu of %llu states); finish it first",
                       s[i].path, (unsigned long long)b->done, (unsigned long long)b->count);
    if (b->merged || b->is_virtual)
        return hn_fail(HN_ERR_ARG, "%s: is a merged file, not a shard", s[i].path);
    dg_dom_info same = *b; /* the shard's place may differ, nothing else */
    same.shard_index = a->shard_index;
    same.first_index = a->first_index;
    char why[700];
    if (i && dg_dom_info_diff(a, &same, why, sizeof why))
        return hn_fail(HN_ERR_ARG, "%s and %s come from different runs: %s", s[0].path, s[i].path,
                       why);
    if (i && b->total_count != a->total_count)
        return hn_fail(HN_ERR_ARG, "%s and %s come from runs of %llu and %llu states", s[0].path,
                       s[i].path, (unsigned long long)a->total_count,
                       (unsigned long long)b->total_count);
    return HN_OK;
}

/* Read and order the shards; fail unless they form one complete run. */
static int check_shards(struct shard *s, int n)
{
    for (int i = 0; i < n; i++) {
        int rc = dg_dom_info_read(s[i].path, &s[i].info);
        if (!rc)
            rc = check_one(s, i);
        if (rc)
            return rc;
    }
    qsort(s, (size_t)n, sizeof *s, by_first);
    uint64_t at = 0;
    for (int i = 0; i < n; i++) {
        if (s[i].info.first_index != at)
            return hn_fail(
                HN_ERR_ARG, "%s: starts at state %llu but the shards before end at %llu (%s)",
                s[i].path, (unsigned long long)s[i].info.first_index, (unsigned long long)at,
                s[i].info.first_index < at ? "overlap" : "a shard is missing");
        at += s[i].info.count;
    }
    if (at != s[0].info.total_count)
        return hn_fail(HN_ERR_ARG, "the shards hold states 0..%llu of %llu: a shard is missing",
                       (unsigned long long)at, (unsigned long long)s[0].info.total_count);
    return HN_OK;
}

void dg_vds_source_name(const char *out, const char *shard, char *buf, size_t cap)
{
    char a[PATH_MAX], b[PATH_MAX], oc[PATH_MAX], sc[PATH_MAX];
    snprintf(oc, sizeof oc, "%s", out);
    snprintf(sc, sizeof sc, "%s", shard);
    char *odir = realpath(dirname(oc), a), *sdir = realpath(dirname(sc), b);
    snprintf(sc, sizeof sc, "%s", shard);
    const char *base = basename(sc);
    if (odir && sdir && !strcmp(odir, sdir))
        snprintf(buf, cap, "%s", base);
    else if (sdir)
        snprintf(buf, cap, "%s/%s", sdir, base);
    else
        snprintf(buf, cap, "%s", shard);
}

/* The per-row datasets: name, file type, rank. */
static const struct {
    const char *name;
    int rank;
} vds[] = {{"states", 2}, {"cost", 1}, {"expanded", 1}, {"source", 1}, {"walk", 1}};

static hid_t vds_type(int k)
{
    static const size_t sz[] = {1, 2, 8, 1, 2};
    return sz[k] == 1 ? H5T_STD_U8LE : sz[k] == 2 ? H5T_STD_U16LE : H5T_STD_U64LE;
}

int dg_vds_stack(hid_t f, const char *out, const char *name, hid_t type, int rank, int cols,
                 const char *const *paths, const uint64_t *rows, int n)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += rows[i];
    hsize_t dims[2] = {total, (hsize_t)cols};
    hid_t vs = H5Screate_simple(rank, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int ok = vs >= 0 && dcpl >= 0;
    uint64_t at = 0;
    for (int i = 0; i < n && ok; i++) {
        hsize_t cnt[2] = {rows[i], (hsize_t)cols}, off[2] = {at, 0};
        hid_t ss = H5Screate_simple(rank, cnt, NULL);
        char src[PATH_MAX + 64], dsname[64];
        dg_vds_source_name(out, paths[i], src, sizeof src);
        snprintf(dsname, sizeof dsname, "/%s", name);
        ok = ss >= 0 &&
             (cnt[0] == 0 || (H5Sselect_hyperslab(vs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
                              H5Pset_virtual(dcpl, vs, src, dsname, ss) >= 0));
        if (ss >= 0)
            H5Sclose(ss);
        at += rows[i];
    }
    hid_t d = -1;
    if (ok) {
        H5Sselect_all(vs);
        d = H5Dcreate2(f, name, type, vs, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    }
    if (d >= 0)
        H5Dclose(d);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (vs >= 0)
        H5Sclose(vs);
    return ok && d >= 0 ? HN_OK
                        : hn_fail(HN_ERR_HDF5, "%s: cannot create virtual dataset /%s", out, name);
}

/* The shards' paths and row counts, in state order, for dg_vds_stack. */
static int shard_lists(const struct shard *s, int n, const char ***paths, uint64_t **rows)
{
    *paths = malloc((size_t)n * sizeof **paths);
    *rows = malloc((size_t)n * sizeof **rows);
    if (!*paths || !*rows)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        (*paths)[i] = s[i].path;
        (*rows)[i] = s[i].info.committed;
    }
    return HN_OK;
}

static int write_virtual(const char *out, const struct shard *s, int n, const dg_dom_info *info)
{
    char part[4096];
    const char **paths = NULL;
    uint64_t *rows = NULL;
    int rc = shard_lists(s, n, &paths, &rows);
    if (!rc)
        rc = hn_part_path(out, part, sizeof part);
    hid_t f = rc ? -1 : hn_h5_create(part, -1); /* says why; leaves no empty file behind */
    if (!rc && f < 0)
        rc = (int)f;
    for (int k = 0; k < 5 && !rc; k++)
        rc = dg_vds_stack(f, out, vds[k].name, vds_type(k), vds[k].rank, info->state_bytes, paths,
                          rows, n);
    if (!rc && dg_dom_info_write(f, info))
        rc = hn_fail(HN_ERR_HDF5, "%s: %s", part, hn_errmsg());
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot close", part);
    if (!rc)
        rc = hn_part_commit_sealed(out);
    if (rc && f >= 0)
        hn_part_discard(out);
    free(paths);
    free(rows);
    return rc;
}

/* Rows copied into a temporary file, then packed into OUT as a finished
 * run is. */
static int write_copy(const char *out, const struct shard *s, int n, const dg_dom_info *info)
{
    char part[4096]; /* private to this process: never a name another writer uses */
    int rc = hn_part_path(out, part, sizeof part);
    dg_dom_writer *w = rc ? NULL : dg_dom_writer_create(part, info, &rc);
    for (int i = 0; w && i < n && !rc; i++)
        rc = dg_dom_writer_append_file(w, s[i].path, s[i].info.committed);
    if (w && !rc)
        rc = dg_dom_writer_commit(w, info->count);
    int crc = dg_dom_writer_close(w, rc ? NULL : out);
    rc = rc ? rc : crc;
    if (rc && w)
        unlink(part);
    return rc;
}

/* The merged file's attributes: one unsharded, complete run. */
static dg_dom_info merged_info(const struct shard *s, int n, int virtual_ds)
{
    dg_dom_info in = s[0].info;
    in.shard_index = 0;
    in.shard_count = 1;
    in.first_index = 0;
    in.count = in.done = in.total_count;
    in.committed = 0;
    for (int i = 0; i < n; i++)
        in.committed += s[i].info.committed;
    in.complete = 1;
    in.merged = n;
    in.is_virtual = !!virtual_ds;
    snprintf(in.version, sizeof in.version, "%s", hn_version());
    snprintf(in.revision, sizeof in.revision, "%s", hn_revision());
    return in;
}

int dg_dom_merge(const char *out, const char *const *shards, int n, int virtual_ds)
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
    if (!rc) {
        dg_dom_info in = merged_info(s, n, virtual_ds);
        rc = virtual_ds ? write_virtual(out, s, n, &in) : write_copy(out, s, n, &in);
    }
    free(s);
    return rc;
}

int dg_check_virtual_sources(hid_t f, const char *path, const char *name)
{
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t dcpl = d >= 0 ? H5Dget_create_plist(d) : -1;
    size_t n = 0;
    int rc = HN_OK;
    if (dcpl < 0 || H5Pget_layout(dcpl) != H5D_VIRTUAL || H5Pget_virtual_count(dcpl, &n) < 0)
        n = 0;
    char dir[4096], src[4096], full[8200];
    snprintf(dir, sizeof dir, "%s", path);
    const char *base = dirname(dir);
    for (size_t i = 0; i < n && !rc; i++) {
        if (H5Pget_virtual_filename(dcpl, i, src, sizeof src) < 0)
            continue;
        snprintf(full, sizeof full, "%s/%s", base, src);
        if (access(src[0] == '/' ? src : full, R_OK) != 0 && access(src, R_OK) != 0)
            rc = hn_fail(HN_ERR_IO, "%s: virtual dataset refers to shard %s, which is missing",
                         path, src);
    }
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (d >= 0)
        H5Dclose(d);
    return rc;
}
