/* Dataset writer: appends labelled rows in blocks and commits them (row count
 * attribute + flush) so a stopped or killed run leaves a valid file that a
 * rerun can continue. All HDF5 work happens inside append/commit bursts. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datagen/dataset_priv.h"
#include "common/hn_h5.h"

/* Room claimed for metadata (B-tree nodes, attributes) around each write. */
#define DG_META_SLACK (256u * 1024u)

struct dg_writer {
    hid_t file;
    hid_t ds[4]; /* boards, cost, expanded, source */
    dg_ds_info info;
    uint64_t rows; /* rows appended (committed once dg_writer_commit ran) */
    int default_source;
    int err;
    char path[4096];
};

static int create_one(dg_writer *w, int k)
{
    int rank = dg_ds_rank(k);
    hsize_t dims[2] = {0, (hsize_t)w->info.cells};
    hsize_t maxd[2] = {H5S_UNLIMITED, (hsize_t)w->info.cells};
    hsize_t chunk[2] = {DG_CHUNK_ROWS, (hsize_t)w->info.cells};
    hid_t sp = H5Screate_simple(rank, dims, maxd);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int ok = sp >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, rank, chunk) >= 0 &&
             H5Pset_shuffle(dcpl) >= 0 && H5Pset_deflate(dcpl, 4) >= 0 &&
             /* no timestamps: the same run gives the same bytes */
             H5Pset_obj_track_times(dcpl, 0) >= 0;
    if (ok)
        w->ds[k] = H5Dcreate2(w->file, dg_ds_names[k], dg_ds_file_type(k), sp, H5P_DEFAULT, dcpl,
                              H5P_DEFAULT);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    if (!ok || w->ds[k] < 0)
        return hn_fail(HN_ERR_HDF5, "%s: cannot create dataset /%s", w->path, dg_ds_names[k]);
    return HN_OK;
}

/* ---- room on disk before HDF5 writes ----------------------------------- */

/* An HDF5 write that fails half-way (disk full, file size limit) can leave
 * the superblock pointing past the end of the file, and such a file can no
 * longer be opened, let alone continued. So the space the next writes may
 * take is claimed first (posix_fallocate up to the end of allocation plus
 * `bytes`); without it nothing is written and the committed rows stay valid. */
static int reserve(dg_writer *w, uint64_t bytes)
{
    return hn_h5_reserve(w->file, w->path, bytes, w->info.committed);
}

/* Give back the claimed space HDF5 did not use (a closed file's end of
 * allocation is where its data ends), so files stay as small as before. */
static int trim(const char *path)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    haddr_t eoa = 0;
    int ok = f >= 0 && H5Fget_eoa(f, &eoa) >= 0;
    if (f >= 0 && H5Fclose(f) < 0)
        ok = 0;
    struct stat st;
    if (ok && stat(path, &st) == 0 && (uint64_t)st.st_size > eoa && truncate(path, (off_t)eoa) != 0)
        ok = 0;
    return ok ? HN_OK : hn_fail(HN_ERR_IO, "%s: cannot trim the space claimed for writing", path);
}

/* Bytes that appending n rows may add: every chunk they touch rewritten
 * uncompressed (deflate can grow data slightly), plus metadata. */
static uint64_t append_bound(const dg_writer *w, uint64_t n)
{
    uint64_t row = (uint64_t)w->info.cells + 2 + 8 + 1;
    return (n + 2 * DG_CHUNK_ROWS) * row / 100 * 101 + DG_META_SLACK;
}

static dg_writer *writer_alloc(const char *path, int *status)
{
    dg_writer *w = calloc(1, sizeof *w);
    if (!w) {
        if (status)
            *status = hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
        return NULL;
    }
    w->file = -1;
    for (int k = 0; k < 4; k++)
        w->ds[k] = -1;
    snprintf(w->path, sizeof w->path, "%s", path);
    return w;
}

static void writer_release(dg_writer *w)
{
    for (int k = 0; k < 4; k++)
        if (w->ds[k] >= 0)
            H5Dclose(w->ds[k]);
    if (w->file >= 0)
        H5Fclose(w->file);
    free(w);
}

/* Flush a freshly set-up writer; on any error free it and return NULL. */
static dg_writer *writer_ready(dg_writer *w, int rc, int *status)
{
    if (!rc && H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0)
        rc = hn_fail(HN_ERR_IO, "%s: cannot flush", w->path);
    if (status)
        *status = rc;
    if (rc) {
        writer_release(w);
        return NULL;
    }
    return w;
}

dg_writer *dg_writer_create(const char *path, const dg_ds_info *info, int *status)
{
    hn_h5_quiet();
    dg_writer *w = writer_alloc(path, status);
    if (!w)
        return NULL;
    w->info = *info;
    w->info.done = w->info.committed = 0;
    w->info.complete = 0;
    snprintf(w->info.version, sizeof w->info.version, "%s", hn_version());
    snprintf(w->info.revision, sizeof w->info.revision, "%s", hn_revision());
    w->default_source = dg_info_default_source(info);
    /* made whole under FILE.new and renamed: a run killed while HDF5 wrote
     * the first header left a FILE that no longer opened, and every rerun
     * called it damaged; a FILE.new left so is replaced by the rerun */
    char tmp[sizeof w->path];
    int rc = snprintf(tmp, sizeof tmp, "%s.new", path) < (int)sizeof tmp
                 ? HN_OK
                 : hn_fail(HN_ERR_ARG, "%s: path too long", path);
    if (!rc && unlink(tmp) != 0 && errno != ENOENT)
        rc = hn_fail(HN_ERR_IO, "%s: cannot remove: %s", tmp, strerror(errno));
    if (rc) {
        writer_release(w);
        if (status)
            *status = rc;
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", tmp);
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    /* no timestamps on the root group either */
    if (fcpl >= 0)
        H5Pset_obj_track_times(fcpl, 0);
    w->file = hn_h5_create(tmp, fcpl); /* says why; leaves no empty file */
    if (fcpl >= 0)
        H5Pclose(fcpl);
    int created = w->file >= 0;
    if (!created)
        rc = (int)w->file;
    for (int k = 0; k < 4 && !rc; k++)
        rc = create_one(w, k);
    if (!rc && dg_info_write(w->file, &w->info))
        rc = hn_fail(HN_ERR_HDF5, "%s: %s", tmp, hn_errmsg());
    if (!rc)
        rc = reserve(w, DG_META_SLACK);
    errno = 0;
    if (!rc && H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0)
        rc = hn_fail(HN_ERR_IO, "%s: cannot write it: %s", tmp, hn_h5_why());
    if (!rc && rename(tmp, path) != 0)
        rc = hn_fail(HN_ERR_IO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
    if (!rc)
        snprintf(w->path, sizeof w->path, "%s", path);
    char made[sizeof w->path];
    memcpy(made, w->path, sizeof made);
    dg_writer *ready = writer_ready(w, rc, status);
    if (!ready && created)
        unlink(made); /* holds no rows; a half-written start only blocks a rerun */
    return ready;
}

static int set_rows(dg_writer *w, uint64_t rows)
{
    for (int k = 0; k < 4; k++) {
        hsize_t dims[2] = {rows, (hsize_t)w->info.cells};
        if (H5Dset_extent(w->ds[k], dims) < 0)
            return hn_fail(HN_ERR_HDF5, "%s: cannot resize /%s to %llu rows", w->path,
                           dg_ds_names[k], (unsigned long long)rows);
    }
    return HN_OK;
}

static int resume_open(dg_writer *w, const dg_ds_info *info, dg_ds_info *found)
{
    if (H5Fis_hdf5(w->path) <= 0) { /* missing, unreadable or not HDF5: say which */
        hid_t ro = hn_h5_open_read(w->path);
        if (ro < 0)
            return (int)ro;
        H5Fclose(ro);
    }
    int rc = hn_file_unseal(w->path); /* a finished file being extended */
    if (rc)
        return rc;
    w->file = H5Fopen(w->path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (w->file < 0)
        return hn_fail(HN_ERR_IO,
                       "%s: cannot open for writing: another heurnet gen is writing it, "
                       "or it is damaged",
                       w->path);
    rc = dg_info_read_attrs(w->file, w->path, found);
    if (rc)
        return rc;
    char why[700];
    if (dg_info_diff(found, info, why, sizeof why))
        return hn_fail(HN_ERR_ARG,
                       "%s: exists and was made with other settings: %s; "
                       "remove it or choose another output to start afresh",
                       w->path, why);
    if (found->shard_index != info->shard_index || found->first_index != info->first_index ||
        (info->shard_count > 1 && found->count != info->count))
        return hn_fail(HN_ERR_ARG, "%s: exists as shard %d/%d with boards %llu.., not this shard",
                       w->path, found->shard_index, found->shard_count,
                       (unsigned long long)found->first_index);
    if (info->count < found->done)
        return hn_fail(HN_ERR_ARG, "%s: already holds %llu boards, more than --count %llu", w->path,
                       (unsigned long long)found->done, (unsigned long long)info->count);
    if (found->merged || found->is_virtual)
        return hn_fail(HN_ERR_ARG, "%s: is a merged file and cannot be continued", w->path);
    uint64_t extent = 0;
    rc = dg_ds_check_shapes(w->file, w->path, found->cells, &extent);
    if (!rc && extent < found->committed)
        rc = hn_fail(HN_ERR_FORMAT, "%s: /boards has %llu rows, fewer than committed=%llu", w->path,
                     (unsigned long long)extent, (unsigned long long)found->committed);
    return rc;
}

dg_writer *dg_writer_resume(const char *path, const dg_ds_info *info, dg_ds_info *found,
                            int *status)
{
    hn_h5_quiet();
    struct stat st; /* an empty file is a start killed before its header: no rows to keep */
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
        memset(found, 0, sizeof *found);
        return dg_writer_create(path, info, status);
    }
    dg_writer *w = writer_alloc(path, status);
    if (!w)
        return NULL;
    int rc = resume_open(w, info, found);
    for (int k = 0; k < 4 && !rc; k++)
        if ((w->ds[k] = H5Dopen2(w->file, dg_ds_names[k], H5P_DEFAULT)) < 0)
            rc = hn_fail(HN_ERR_HDF5, "%s: cannot open /%s", path, dg_ds_names[k]);
    if (!rc) {
        w->info = *found;
        w->info.count = info->count;
        w->info.total_count = info->shard_count > 1 ? found->total_count : info->count;
        w->info.complete = found->done == info->count;
        snprintf(w->info.version, sizeof w->info.version, "%s", hn_version());
        snprintf(w->info.revision, sizeof w->info.revision, "%s", hn_revision());
        w->rows = found->committed;
        w->default_source = dg_info_default_source(found);
        /* drop rows a killed run wrote without committing them */
        rc = set_rows(w, w->rows);
    }
    if (!rc)
        rc = dg_info_write(w->file, &w->info);
    return writer_ready(w, rc, status);
}

static int write_rows(dg_writer *w, int k, const void *buf, size_t n)
{
    if (dg_ds_rows_io(w->ds[k], k, w->info.cells, w->rows, n, (void *)buf, 1))
        return hn_fail(HN_ERR_HDF5, "%s: cannot write %zu rows to /%s", w->path, n, dg_ds_names[k]);
    return HN_OK;
}

int dg_writer_append(dg_writer *w, const uint8_t *boards, const uint16_t *cost,
                     const uint64_t *expanded, const uint8_t *source, size_t n)
{
    if (w->err)
        return w->err;
    if (n == 0)
        return HN_OK;
    uint64_t *zeros = NULL;
    uint8_t *src = NULL;
    if (!expanded)
        expanded = zeros = calloc(n, sizeof *zeros);
    if (!source && (src = malloc(n)))
        memset(src, w->default_source, n), source = src;
    int rc = (!expanded || !source) ? hn_fail(HN_ERR_NOMEM, "%s: out of memory", w->path)
                                    : reserve(w, append_bound(w, n));
    if (!rc)
        rc = set_rows(w, w->rows + n);
    const void *bufs[4] = {boards, cost, expanded, source};
    for (int k = 0; k < 4 && !rc; k++)
        rc = write_rows(w, k, bufs[k], n);
    free(zeros);
    free(src);
    if (rc)
        return w->err = rc;
    w->rows += n;
    return HN_OK;
}

/* Rows first, then the count that claims them: if the disk fills up while
 * the rows are written, the file still says only what it holds. */
int dg_writer_commit(dg_writer *w, uint64_t done)
{
    if (w->err)
        return w->err;
    int rc = H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0
                 ? hn_fail(HN_ERR_IO, "%s: cannot write the rows to disk (disk full?)", w->path)
                 : HN_OK;
    dg_ds_info next = w->info;
    next.done = done;
    next.committed = w->rows;
    if (!rc)
        rc = reserve(w, DG_META_SLACK);
    if (!rc)
        rc = dg_info_write_progress(w->file, &next);
    if (!rc && H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0)
        rc = hn_fail(HN_ERR_IO, "%s: cannot write the row count to disk (disk full?)", w->path);
    if (!rc)
        w->info = next;
    return w->err = rc;
}

uint64_t dg_writer_rows(const dg_writer *w)
{
    return w->info.committed;
}

int dg_writer_close(dg_writer *w, int complete)
{
    if (!w)
        return HN_OK;
    int rc = w->err;
    if (!rc)
        rc = reserve(w, DG_META_SLACK);
    if (!rc && complete && H5Fflush(w->file, H5F_SCOPE_GLOBAL) < 0) /* rows before the count */
        rc = hn_fail(HN_ERR_IO, "%s: cannot write the rows to disk (disk full?)", w->path);
    if (!rc && complete) {
        w->info.complete = 1;
        w->info.committed = w->rows;
        rc = dg_info_write_progress(w->file, &w->info);
    }
    for (int k = 0; k < 4; k++)
        if (w->ds[k] >= 0 && H5Dclose(w->ds[k]) < 0 && !rc)
            rc = hn_fail(HN_ERR_HDF5, "%s: cannot close /%s", w->path, dg_ds_names[k]);
    w->ds[0] = w->ds[1] = w->ds[2] = w->ds[3] = -1;
    if (w->file >= 0 && H5Fclose(w->file) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot close (disk full?)", w->path);
    w->file = -1;
    if (!rc)
        rc = trim(w->path);
    if (!rc && complete)
        rc = hn_file_seal(w->path);
    free(w);
    return rc;
}
