/* Domain datasets: one table maps dg_dom_info to root attributes (so writing,
 * reading and comparing cannot drift apart), the writer of FILE.part, and
 * the checking reader of the attributes and shapes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "common/hn_h5.h"
#include "datagen/dataset.h"
#include "datagen/dataset_priv.h"
#include "datagen/dom_ds_priv.h"

#define CHUNK_ROWS 8192
/* Room claimed for metadata (chunk index, attributes) around each write. */
#define META_SLACK (256u * 1024u)
/* Root attributes of FILE.part: the CRC-32 (zlib) of each dataset's
 * committed rows in memory order, "crc_" + dataset name. */
#define CRC_PREFIX "crc_"

/* ---- attributes ------------------------------------------------------------ */

enum kind { K_STR, K_INT, K_U64 };

/* compare: 1 = a setting (must match when a file is continued and between
 * the shards of one run), 2 = the shard's place (must match when continued),
 * 0 = progress. opt: absent in files made before sharding (read as 0, and
 * as an unsharded file by info_defaults). */
static const struct field {
    const char *name;
    enum kind kind;
    size_t off, size;
    int compare, opt;
} fields[] = {
#define S(n, f, c, o)                                                                              \
    {                                                                                              \
        n, K_STR, offsetof(dg_dom_info, f), sizeof(((dg_dom_info *)0)->f), c, o                    \
    }
#define I(n, f, c, o)                                                                              \
    {                                                                                              \
        n, K_INT, offsetof(dg_dom_info, f), sizeof(int), c, o                                      \
    }
#define U(n, f, c, o)                                                                              \
    {                                                                                              \
        n, K_U64, offsetof(dg_dom_info, f), sizeof(uint64_t), c, o                                 \
    }
    S("domain", domain, 1, 0),
    I("state_bytes", state_bytes, 1, 0),
    I("inputs", inputs, 1, 0),
    S("encoding", encoding, 1, 0),
    S("heuristic", heuristic, 1, 0),
    S("solver", solver, 1, 0),
    S("source", source, 1, 0),
    S("from", from, 1, 1),
    U("from_crc", from_crc, 1, 1),
    I("walk_min", walk_min, 1, 0),
    I("walk_max", walk_max, 1, 0),
    I("path_states", path_states, 1, 0),
    U("seed", seed, 1, 0),
    I("shard_count", shard_count, 1, 1),
    I("shard_index", shard_index, 2, 1),
    U("first_index", first_index, 2, 1),
    U("total_count", total_count, 0, 1),
    U("count", count, 0, 0),
    U("done", done, 0, 0),
    U("committed", committed, 0, 0),
    I("complete", complete, 0, 0),
    I("merged", merged, 0, 1),
    I("is_virtual", is_virtual, 0, 1),
    S("version", version, 0, 0),
    S("revision", revision, 0, 0),
#undef S
#undef I
#undef U
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static int field_write(hid_t f, const struct field *fd, const dg_dom_info *info)
{
    const char *p = (const char *)info + fd->off;
    if (fd->kind == K_STR)
        return hn_h5_attr_set_str(f, fd->name, p);
    if (fd->kind == K_INT)
        return hn_h5_attr_set_int(f, fd->name, *(const int *)p);
    /* counts stay far below 2^63 (uint32 rows in training) */
    return hn_h5_attr_set_int(f, fd->name, (long long)*(const uint64_t *)p);
}

static int info_write(hid_t f, const dg_dom_info *info, int progress_only)
{
    int rc = HN_OK;
    if (!progress_only) {
        rc = hn_h5_attr_set_str(f, "format", DG_DOM_FORMAT);
        if (!rc)
            rc = hn_h5_attr_set_int(f, "format_version", DG_DOM_FORMAT_VERSION);
        if (!rc)
            rc = hn_h5_attr_set_str(f, "generator", "heurnet gen --domain");
        if (!rc)
            rc = hn_h5_attr_set_int(f, "seed_block", DG_SEED_BLOCK);
    }
    for (size_t i = 0; i < NFIELDS && !rc; i++)
        if (!progress_only || !fields[i].compare)
            rc = field_write(f, &fields[i], info);
    return rc;
}

static int field_read(hid_t f, const char *path, const struct field *fd, dg_dom_info *info)
{
    char *p = (char *)info + fd->off;
    long long v = 0;
    if (fd->opt && !hn_h5_attr_exists(f, fd->name))
        return HN_OK;
    int rc = fd->kind == K_STR   ? hn_h5_attr_get_str(f, fd->name, p, fd->size)
             : fd->kind == K_U64 ? hn_h5_attr_get_u64(f, fd->name, (uint64_t *)p)
                                 : hn_h5_attr_get_int(f, fd->name, &v);
    if (rc)
        return hn_fail(HN_ERR_FORMAT, "%s: %s", path, hn_errmsg());
    if (fd->kind == K_INT && (v < INT_MIN || v > INT_MAX))
        return hn_fail(HN_ERR_FORMAT, "%s: attribute '%s' is %lld, out of range", path, fd->name,
                       v);
    if (fd->kind == K_INT)
        *(int *)p = (int)v;
    return HN_OK;
}

/* The numbers must describe a file a writer could have made. */
static int info_sane(const char *path, const dg_dom_info *in)
{
    if (in->state_bytes < 1 || in->state_bytes > DOM_MAX_STATE_BYTES || in->inputs < 1)
        return hn_fail(HN_ERR_FORMAT, "%s: attributes state_bytes=%d inputs=%d are out of range",
                       path, in->state_bytes, in->inputs);
    if (in->walk_min < 0 || in->walk_min > in->walk_max || in->walk_max > DG_DOM_MAX_WALK)
        return hn_fail(HN_ERR_FORMAT, "%s: attributes walk_min=%d walk_max=%d are out of range",
                       path, in->walk_min, in->walk_max);
    if (in->done > in->count || (in->committed > 0 && in->done == 0) ||
        (!in->path_states && in->committed != in->done))
        return hn_fail(HN_ERR_FORMAT, "%s: attributes done=%llu committed=%llu count=%llu disagree",
                       path, (unsigned long long)in->done, (unsigned long long)in->committed,
                       (unsigned long long)in->count);
    if (!in->domain[0])
        return hn_fail(HN_ERR_FORMAT, "%s: attribute 'domain' is empty", path);
    if (in->shard_count < 1 || in->shard_index < 0 || in->shard_index >= in->shard_count ||
        in->first_index > in->total_count || in->count > in->total_count - in->first_index)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: attributes shard_index=%d shard_count=%d first_index=%llu "
                       "count=%llu total_count=%llu disagree",
                       path, in->shard_index, in->shard_count, (unsigned long long)in->first_index,
                       (unsigned long long)in->count, (unsigned long long)in->total_count);
    return HN_OK;
}

/* A file without the shard attributes is one unsharded run. */
static void info_defaults(dg_dom_info *in, int had_shards)
{
    if (!had_shards) {
        in->shard_count = 1;
        in->total_count = in->count;
    }
}

static int info_read(hid_t f, const char *path, dg_dom_info *info)
{
    memset(info, 0, sizeof *info);
    char fmt[64] = "";
    if (!hn_h5_attr_exists(f, "format") || hn_h5_attr_get_str(f, "format", fmt, sizeof fmt) ||
        strcmp(fmt, DG_DOM_FORMAT))
        return hn_fail(HN_ERR_FORMAT, "%s: not a domain dataset (root attribute format=\"%s\")",
                       path, DG_DOM_FORMAT);
    long long ver = 0;
    if (hn_h5_attr_get_int(f, "format_version", &ver) || ver != DG_DOM_FORMAT_VERSION)
        return hn_fail(HN_ERR_FORMAT, "%s: format_version %lld, this build reads %d", path, ver,
                       DG_DOM_FORMAT_VERSION);
    for (size_t i = 0; i < NFIELDS; i++) {
        int rc = field_read(f, path, &fields[i], info);
        if (rc)
            return rc;
    }
    info_defaults(info, hn_h5_attr_exists(f, "shard_count"));
    return info_sane(path, info);
}

const char *dg_dom_info_diff(const dg_dom_info *a, const dg_dom_info *b, char *buf, size_t cap)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        const struct field *fd = &fields[i];
        const char *pa = (const char *)a + fd->off, *pb = (const char *)b + fd->off;
        if (!fd->compare)
            continue;
        if (fd->kind == K_STR && strcmp(pa, pb))
            snprintf(buf, cap, "%s (\"%s\" vs \"%s\")", fd->name, pa, pb);
        else if (fd->kind == K_INT && *(const int *)pa != *(const int *)pb)
            snprintf(buf, cap, "%s (%d vs %d)", fd->name, *(const int *)pa, *(const int *)pb);
        else if (fd->kind == K_U64 && *(const uint64_t *)pa != *(const uint64_t *)pb)
            snprintf(buf, cap, "%s (%llu vs %llu)", fd->name,
                     (unsigned long long)*(const uint64_t *)pa,
                     (unsigned long long)*(const uint64_t *)pb);
        else
            continue;
        return buf;
    }
    return NULL;
}

/* ---- the per-row datasets --------------------------------------------------- */

enum { D_STATES, D_COST, D_EXPANDED, D_SOURCE, D_WALK, D_COUNT };
static const struct {
    const char *name, *what;
    size_t size; /* bytes per element */
} dsets[D_COUNT] = {
    {"states", "uint8 [rows, state_bytes]", 1},
    {"cost", "uint16 [rows]", 2},
    {"expanded", "uint64 [rows]", 8},
    {"source", "uint8 [rows]", 1},
    {"walk", "uint16 [rows]", 2},
};

static hid_t mem_type(int k)
{
    static const size_t sz[] = {1, 2, 8, 1, 2};
    return sz[k] == 1 ? H5T_NATIVE_UINT8 : sz[k] == 2 ? H5T_NATIVE_UINT16 : H5T_NATIVE_UINT64;
}

static hid_t file_type(int k)
{
    return dsets[k].size == 1 ? H5T_STD_U8LE : dsets[k].size == 2 ? H5T_STD_U16LE : H5T_STD_U64LE;
}

/* Type, rank and columns of dataset k; *rows gets its extent. */
static int check_dset(hid_t f, const char *path, int k, int cols, uint64_t *rows)
{
    hsize_t n = 0;
    int rc = dg_check_udset(f, path, dsets[k].name, dsets[k].what, dsets[k].size,
                            k == D_STATES ? 2 : 1, cols, "state_bytes", &n);
    *rows = n;
    return rc;
}

/* Every dataset present and shaped right, each with at least `committed`
 * rows; *extent gets the rows of /states. */
static int check_shapes(hid_t f, const char *path, const dg_dom_info *in, uint64_t *extent)
{
    for (int k = 0; k < D_COUNT; k++) {
        uint64_t rows = 0;
        int rc = check_dset(f, path, k, in->state_bytes, &rows);
        if (!rc && rows < in->committed)
            rc =
                hn_fail(HN_ERR_FORMAT, "%s: /%s has %llu rows, fewer than committed=%llu", path,
                        dsets[k].name, (unsigned long long)rows, (unsigned long long)in->committed);
        if (rc)
            return rc;
        if (k == D_STATES)
            *extent = rows;
    }
    return HN_OK;
}

int dg_dom_info_read(const char *path, dg_dom_info *info)
{
    hn_h5_quiet();
    hid_t f = hn_h5_open_verified(path);
    if (f < 0)
        return (int)f;
    uint64_t extent = 0;
    int rc = info_read(f, path, info);
    if (!rc)
        rc = check_shapes(f, path, info, &extent);
    if (!rc && info->is_virtual)
        rc = dg_check_virtual_sources(f, path, "states");
    H5Fclose(f);
    return rc;
}

hid_t dg_h5_open_live(const char *path)
{
    hid_t f = hn_h5_open_read(path);
    if (f >= 0)
        return f;
    int sealed, rc = hn_file_verify(path, &sealed);
    if (rc) /* damaged: no second try without the lock */
        return rc;
    if (H5Fis_hdf5(path) <= 0)
        return f;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_file_locking(fapl, 0, 1) >= 0)
        f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    if (fapl >= 0)
        H5Pclose(fapl);
    if (f < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: HDF5 file cannot be opened (damaged or truncated)",
                       path);
    return f;
}

int dg_dom_is_dataset(const char *path)
{
    hn_h5_quiet();
    /* a probe: no checksum pass, and no lock (gen may be writing it) */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t f = fapl >= 0 && H5Pset_file_locking(fapl, 0, 1) >= 0
                  ? H5Fopen(path, H5F_ACC_RDONLY, fapl)
                  : -1;
    if (fapl >= 0)
        H5Pclose(fapl);
    if (f < 0)
        return 0;
    char fmt[64] = "";
    int yes = hn_h5_attr_exists(f, "format") && !hn_h5_attr_get_str(f, "format", fmt, sizeof fmt) &&
              !strcmp(fmt, DG_DOM_FORMAT);
    H5Fclose(f);
    return yes;
}

/* Rows at..at+n-1 of dataset k (cols columns for /states) into buf. A
 * chunk that does not read (a write torn by a kill) makes the file damaged. */
static int read_block(hid_t f, const char *path, int k, int cols, uint64_t at, uint64_t n,
                      void *buf)
{
    int rank = k == D_STATES ? 2 : 1;
    hid_t d = H5Dopen2(f, dsets[k].name, H5P_DEFAULT);
    hid_t fs = d >= 0 ? H5Dget_space(d) : -1;
    hsize_t start[2] = {at, 0}, count[2] = {n, (hsize_t)cols};
    hid_t ms = H5Screate_simple(rank, count, NULL);
    int ok = d >= 0 && fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0 &&
             H5Dread(d, mem_type(k), ms, fs, H5P_DEFAULT, buf) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    if (d >= 0)
        H5Dclose(d);
    return ok ? HN_OK
              : hn_fail(HN_ERR_FORMAT, "%s: damaged: /%s rows %llu..%llu cannot be read", path,
                        dsets[k].name, (unsigned long long)at, (unsigned long long)(at + n - 1));
}

static size_t row_bytes(int k, int state_bytes)
{
    return k == D_STATES ? (size_t)state_bytes : dsets[k].size;
}

/* CRC-32 of the first `rows` rows of every dataset into crc[]; where the
 * file records them (FILE.part), they must match, so rows a kill left torn
 * are refused, never read as data. */
static int verify_rows(hid_t f, const char *path, const dg_dom_info *in, uint64_t rows,
                       uint32_t *crc)
{
    enum { BLOCK = 1 << 14 };
    unsigned char *buf =
        malloc((size_t)BLOCK * (size_t)(in->state_bytes > 8 ? in->state_bytes : 8));
    int rc = buf ? HN_OK : hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
    for (int k = 0; k < D_COUNT && !rc; k++) {
        uLong c = crc32(0L, Z_NULL, 0);
        for (uint64_t at = 0; !rc && at < rows; at += BLOCK) {
            uint64_t n = rows - at < BLOCK ? rows - at : BLOCK;
            rc = read_block(f, path, k, in->state_bytes, at, n, buf);
            if (!rc)
                c = crc32(c, buf, (uInt)(n * row_bytes(k, in->state_bytes)));
        }
        char name[32];
        snprintf(name, sizeof name, CRC_PREFIX "%s", dsets[k].name);
        long long want = 0;
        if (!rc && hn_h5_attr_exists(f, name) &&
            (hn_h5_attr_get_int(f, name, &want) || want != (long long)c))
            rc = hn_fail(HN_ERR_FORMAT,
                         "%s: damaged: the %llu committed rows of /%s do not match their "
                         "checksum (attribute %s)",
                         path, (unsigned long long)rows, dsets[k].name, name);
        if (crc)
            crc[k] = (uint32_t)c;
    }
    free(buf);
    return rc;
}

static int histogram_rows(hid_t f, const char *path, uint64_t rows, uint64_t *hist, size_t cap,
                          uint64_t *by_source, unsigned *max_cost)
{
    enum { BLOCK = 1 << 16 };
    uint16_t *cost = malloc(BLOCK * sizeof *cost);
    uint8_t *src = malloc(BLOCK);
    int rc = cost && src ? HN_OK : hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
    for (uint64_t at = 0; !rc && at < rows; at += BLOCK) {
        uint64_t n = rows - at < BLOCK ? rows - at : BLOCK;
        rc = read_block(f, path, D_COST, 1, at, n, cost);
        if (!rc)
            rc = read_block(f, path, D_SOURCE, 1, at, n, src);
        for (uint64_t i = 0; !rc && i < n; i++) {
            hist[cost[i] < cap ? cost[i] : cap - 1]++;
            *max_cost = cost[i] > *max_cost ? cost[i] : *max_cost;
            if (src[i] < DG_DOM_SOURCES)
                by_source[src[i]]++;
        }
    }
    free(cost);
    free(src);
    return rc;
}

static int is_part(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && !strcmp(path + n - 5, ".part");
}

int dg_dom_histogram(const char *path, dg_dom_info *info, uint64_t *hist, size_t cap,
                     uint64_t *by_source, unsigned *max_cost)
{
    if (cap < 1)
        return hn_fail(HN_ERR_ARG, "histogram: no bins");
    memset(hist, 0, cap * sizeof *hist);
    memset(by_source, 0, DG_DOM_SOURCES * sizeof *by_source);
    *max_cost = 0;
    hn_h5_quiet();
    /* one checksum pass for info and rows; FILE.part has no trailer (its
     * rows carry their own checksums), so no warning about an old file */
    hid_t f = is_part(path) ? dg_h5_open_live(path) : hn_h5_open_verified(path);
    if (f < 0)
        return (int)f;
    uint64_t extent = 0;
    int rc = info_read(f, path, info);
    if (!rc)
        rc = check_shapes(f, path, info, &extent);
    if (!rc && info->is_virtual)
        rc = dg_check_virtual_sources(f, path, "states");
    if (!rc) /* every column, so data info never calls a damaged file healthy */
        rc = verify_rows(f, path, info, info->committed, NULL);
    if (!rc)
        rc = histogram_rows(f, path, info->committed, hist, cap, by_source, max_cost);
    H5Fclose(f);
    return rc;
}

int dg_dom_info_write(hid_t f, const dg_dom_info *info)
{
    return info_write(f, info, 0);
}

/* ---- writer ----------------------------------------------------------------- */

/* FILE.part keeps its rows in chunks without filters: such a chunk has a
 * fixed size and place, so an append that fills it up rewrites the rows
 * committed before with the same bytes where they were, and a kill in the
 * middle cannot damage them. (A compressed chunk is rewritten whole at a
 * new size, and HDF5 puts it back where the old one lay when that was the
 * end of the file: a kill there tore the committed rows.) Only the finished
 * file is compressed, copied chunk by chunk, each written once. The CRC-32
 * of each dataset's committed rows is committed with the row count, so
 * rows torn otherwise are found, never returned. */
struct dg_dom_writer {
    hid_t file, ds[D_COUNT];
    dg_dom_info info;
    uint64_t rows;          /* appended (committed once dg_dom_writer_commit ran) */
    uint32_t crc[D_COUNT];  /* of the appended rows */
    uint32_t ccrc[D_COUNT]; /* of the committed rows */
    int err;
    char path[4096];
};

static dg_dom_writer *writer_alloc(const char *path, int *status)
{
    dg_dom_writer *w = calloc(1, sizeof *w);
    if (!w) {
        *status = hn_fail(HN_ERR_NOMEM, "%s: out of memory", path);
        return NULL;
    }
    w->file = -1;
    for (int k = 0; k < D_COUNT; k++) {
        w->ds[k] = -1;
        w->crc[k] = w->ccrc[k] = (uint32_t)crc32(0L, Z_NULL, 0);
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    return w;
}

static void writer_handles_close(dg_dom_writer *w)
{
    for (int k = 0; k < D_COUNT; k++)
        if (w->ds[k] >= 0)
            H5Dclose(w->ds[k]);
    if (w->file >= 0)
        H5Fclose(w->file);
    for (int k = 0; k < D_COUNT; k++)
        w->ds[k] = -1;
    w->file = -1;
}

static void writer_release(dg_dom_writer *w)
{
    writer_handles_close(w);
    free(w);
}

/* packed: the finished file's compressed layout, else FILE.part's. */
static int create_dset(dg_dom_writer *w, int k, int packed)
{
    int rank = k == D_STATES ? 2 : 1;
    hsize_t cols = (hsize_t)w->info.state_bytes;
    hsize_t dims[2] = {0, cols}, maxd[2] = {H5S_UNLIMITED, cols}, chunk[2] = {CHUNK_ROWS, cols};
    hid_t sp = H5Screate_simple(rank, dims, maxd), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    int ok = sp >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, rank, chunk) >= 0 &&
             (!packed || (H5Pset_shuffle(dcpl) >= 0 && H5Pset_deflate(dcpl, 4) >= 0)) &&
             H5Pset_obj_track_times(dcpl, 0) >= 0; /* the same run gives the same bytes */
    if (ok)
        w->ds[k] =
            H5Dcreate2(w->file, dsets[k].name, file_type(k), sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    if (sp >= 0)
        H5Sclose(sp);
    return ok && w->ds[k] >= 0
               ? HN_OK
               : hn_fail(HN_ERR_HDF5, "%s: cannot create dataset /%s", w->path, dsets[k].name);
}

static int flush(dg_dom_writer *w, const char *what)
{
    errno = 0;
    if (H5Fflush(w->file, H5F_SCOPE_GLOBAL) >= 0)
        return HN_OK;
    return hn_fail(HN_ERR_IO, "%s: cannot write %s to disk: %s", w->path, what, hn_h5_why());
}

static dg_dom_writer *writer_ready(dg_dom_writer *w, int rc, int *status)
{
    if (!rc)
        rc = flush(w, "the new file");
    *status = rc;
    if (!rc)
        return w;
    writer_release(w);
    return NULL;
}

static void stamp(dg_dom_info *in)
{
    snprintf(in->version, sizeof in->version, "%s", hn_version());
    snprintf(in->revision, sizeof in->revision, "%s", hn_revision());
}

static int crc_write(dg_dom_writer *w, const uint32_t *crc)
{
    int rc = HN_OK;
    for (int k = 0; k < D_COUNT && !rc; k++) {
        char name[32];
        snprintf(name, sizeof name, CRC_PREFIX "%s", dsets[k].name);
        rc = hn_h5_attr_set_int(w->file, name, (long long)crc[k]);
    }
    return rc;
}

/* A new file at w->path with the datasets empty and w->info's attributes. */
static int writer_make(dg_dom_writer *w, int packed)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (fcpl >= 0)
        H5Pset_obj_track_times(fcpl, 0);
    w->file = hn_h5_create(w->path, fcpl);
    if (fcpl >= 0)
        H5Pclose(fcpl);
    if (w->file < 0)
        return (int)w->file;
    int rc = HN_OK;
    for (int k = 0; k < D_COUNT && !rc; k++)
        rc = create_dset(w, k, packed);
    if (!rc && (info_write(w->file, &w->info, 0) || (!packed && crc_write(w, w->ccrc))))
        rc = hn_fail(HN_ERR_HDF5, "%s: %s", w->path, hn_errmsg());
    return rc;
}

dg_dom_writer *dg_dom_writer_create(const char *path, const dg_dom_info *info, int *status)
{
    hn_h5_quiet();
    dg_dom_writer *w = writer_alloc(path, status);
    if (!w)
        return NULL;
    w->info = *info;
    w->info.done = w->info.committed = 0;
    w->info.complete = 0;
    stamp(&w->info);
    /* made whole under FILE.part.new and renamed: a run killed while HDF5
     * wrote the first header left a FILE.part that no longer opened, which
     * every rerun called damaged; a FILE.part.new left so is replaced */
    int rc = snprintf(w->path, sizeof w->path, "%s.new", path) < (int)sizeof w->path
                 ? HN_OK
                 : hn_fail(HN_ERR_ARG, "%s: path too long", path);
    if (!rc && unlink(w->path) != 0 && errno != ENOENT)
        rc = hn_fail(HN_ERR_IO, "%s: cannot remove: %s", w->path, strerror(errno));
    if (!rc)
        rc = writer_make(w, 0);
    int created = w->file >= 0;
    if (!rc) /* room first: a header torn by a full disk would not open */
        rc = hn_h5_reserve(w->file, w->path, META_SLACK, 0);
    if (!rc)
        rc = flush(w, "the new file");
    if (!rc && rename(w->path, path) != 0)
        rc = hn_fail(HN_ERR_IO, "cannot rename %s to %s: %s", w->path, path, strerror(errno));
    char made[sizeof w->path];
    memcpy(made, w->path, sizeof made);
    if (!rc)
        snprintf(w->path, sizeof w->path, "%s", path);
    dg_dom_writer *ready = writer_ready(w, rc, status);
    if (!ready && created)
        unlink(made); /* holds no rows; a half-made start only blocks a rerun */
    return ready;
}

static int set_rows(dg_dom_writer *w, uint64_t rows)
{
    for (int k = 0; k < D_COUNT; k++) {
        hsize_t dims[2] = {rows, (hsize_t)w->info.state_bytes};
        if (H5Dset_extent(w->ds[k], dims) < 0)
            return hn_fail(HN_ERR_HDF5, "%s: cannot resize /%s to %llu rows", w->path,
                           dsets[k].name, (unsigned long long)rows);
    }
    return HN_OK;
}

static int damaged(const char *path, int rc)
{
    char why[1200];
    snprintf(why, sizeof why, "%s", hn_errmsg());
    return hn_fail(rc, "%s; its rows cannot be trusted: remove %s or use --force to start afresh",
                   why, path);
}

static int resume_open(dg_dom_writer *w, const dg_dom_info *info, dg_dom_info *found)
{
    hid_t ro = dg_h5_open_live(w->path); /* missing or damaged (a lock is not) */
    if (ro < 0)
        return damaged(w->path, (int)ro);
    H5Fclose(ro);
    int rc = hn_file_unseal(w->path);
    if (rc)
        return rc;
    w->file = H5Fopen(w->path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (w->file < 0)
        return hn_fail(HN_ERR_IO,
                       "%s: cannot open for writing: another heurnet gen is writing it, or it "
                       "is damaged (remove it to start afresh)",
                       w->path);
    if ((rc = info_read(w->file, w->path, found)))
        return rc;
    char why[700];
    if (dg_dom_info_diff(found, info, why, sizeof why))
        return hn_fail(HN_ERR_ARG,
                       "%s: was made with other settings: %s; remove it or use --force to "
                       "start afresh",
                       w->path, why);
    if (info->count < found->done)
        return hn_fail(HN_ERR_ARG, "%s: already holds %llu states, more than -n %llu", w->path,
                       (unsigned long long)found->done, (unsigned long long)info->count);
    if (info->shard_count > 1 && found->total_count != info->total_count)
        return hn_fail(HN_ERR_ARG, "%s: is a shard of a run of %llu states, not of %llu", w->path,
                       (unsigned long long)found->total_count,
                       (unsigned long long)info->total_count);
    if (found->merged || found->is_virtual)
        return hn_fail(HN_ERR_ARG, "%s: is a merged file and cannot be continued", w->path);
    uint64_t extent = 0;
    if ((rc = check_shapes(w->file, w->path, found, &extent)))
        return rc;
    if ((rc = verify_rows(w->file, w->path, found, found->committed, w->ccrc)))
        return damaged(w->path, rc);
    memcpy(w->crc, w->ccrc, sizeof w->crc);
    return HN_OK;
}

dg_dom_writer *dg_dom_writer_resume(const char *path, const dg_dom_info *info, dg_dom_info *found,
                                    int *status)
{
    hn_h5_quiet();
    dg_dom_writer *w = writer_alloc(path, status);
    if (!w)
        return NULL;
    int rc = resume_open(w, info, found);
    for (int k = 0; k < D_COUNT && !rc; k++)
        if ((w->ds[k] = H5Dopen2(w->file, dsets[k].name, H5P_DEFAULT)) < 0)
            rc = hn_fail(HN_ERR_HDF5, "%s: cannot open /%s", path, dsets[k].name);
    if (!rc) {
        w->info = *found;
        w->info.count = info->count;
        w->info.complete = 0;
        stamp(&w->info);
        w->rows = found->committed;
        rc = set_rows(w, w->rows); /* drop rows a killed run wrote but did not commit */
    }
    if (!rc)
        rc = info_write(w->file, &w->info, 0);
    if (!rc)
        rc = crc_write(w, w->ccrc);
    return writer_ready(w, rc, status);
}

static int write_col(dg_dom_writer *w, int k, const void *buf, size_t n)
{
    hsize_t off[2] = {w->rows, 0}, cnt[2] = {n, (hsize_t)w->info.state_bytes};
    hid_t fs = H5Dget_space(w->ds[k]), ms = H5Screate_simple(k == D_STATES ? 2 : 1, cnt, NULL);
    errno = 0;
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
             H5Dwrite(w->ds[k], mem_type(k), ms, fs, H5P_DEFAULT, buf) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? HN_OK
              : hn_fail(HN_ERR_HDF5, "%s: cannot write %zu rows to /%s: %s", w->path, n,
                        dsets[k].name, hn_h5_why());
}

/* An HDF5 write that fails half-way on a full disk can leave the superblock
 * pointing past the end of the file, which then no longer opens: so the
 * space the next writes may take is claimed first (posix_fallocate to the
 * end of allocation plus `bytes`), and without it nothing is written. */
static int reserve(dg_dom_writer *w, uint64_t bytes)
{
    return hn_h5_reserve(w->file, w->path, bytes, w->info.committed);
}

/* Bytes n more rows may take: their own, a fresh chunk of every dataset,
 * and metadata. */
static uint64_t append_bound(const dg_dom_writer *w, uint64_t n)
{
    uint64_t row = 0;
    for (int k = 0; k < D_COUNT; k++)
        row += row_bytes(k, w->info.state_bytes);
    return (n + CHUNK_ROWS) * row + META_SLACK;
}

int dg_dom_writer_append(dg_dom_writer *w, const struct dg_dom_rows *r)
{
    if (w->err || r->n == 0)
        return w->err;
    const void *cols[D_COUNT] = {r->states, r->cost, r->expanded, r->source, r->walk};
    int rc = reserve(w, append_bound(w, r->n));
    if (!rc)
        rc = set_rows(w, w->rows + r->n);
    for (int k = 0; k < D_COUNT && !rc; k++)
        rc = write_col(w, k, cols[k], r->n);
    if (rc)
        return w->err = rc;
    for (int k = 0; k < D_COUNT; k++)
        w->crc[k] =
            (uint32_t)crc32(w->crc[k], cols[k], (uInt)(r->n * row_bytes(k, w->info.state_bytes)));
    w->rows += r->n;
    return HN_OK;
}

/* Rows first, then the count and checksums that claim them. */
int dg_dom_writer_commit(dg_dom_writer *w, uint64_t done)
{
    if (w->err)
        return w->err;
    dg_dom_info next = w->info;
    next.done = done;
    next.committed = w->rows;
    int rc = flush(w, "the rows");
    if (!rc)
        rc = reserve(w, META_SLACK);
    if (!rc)
        rc = info_write(w->file, &next, 1);
    if (!rc)
        rc = crc_write(w, w->crc);
    if (!rc)
        rc = flush(w, "the row count");
    if (!rc) {
        w->info = next;
        memcpy(w->ccrc, w->crc, sizeof w->ccrc);
    }
    return w->err = rc;
}

uint64_t dg_dom_writer_rows(const dg_dom_writer *w)
{
    return w->info.committed;
}

/* Copy the committed rows of w into the new packed writer p, CHUNK_ROWS at a
 * time, so each compressed chunk is written once and whole. */
static int pack_rows(dg_dom_writer *w, dg_dom_writer *p)
{
    size_t sb = (size_t)w->info.state_bytes;
    unsigned char *buf = malloc((size_t)CHUNK_ROWS * (sb > 8 ? sb : 8));
    int rc = buf ? set_rows(p, w->rows) : hn_fail(HN_ERR_NOMEM, "%s: out of memory", p->path);
    for (int k = 0; k < D_COUNT && !rc; k++)
        for (uint64_t at = 0; !rc && at < w->rows; at += CHUNK_ROWS) {
            uint64_t n = w->rows - at < CHUNK_ROWS ? w->rows - at : CHUNK_ROWS;
            rc = read_block(w->file, w->path, k, (int)sb, at, n, buf);
            p->rows = at;
            if (!rc)
                rc = write_col(p, k, buf, (size_t)n);
        }
    free(buf);
    return rc;
}

/* The finished file under `tmp`: w's attributes (complete) and rows in the
 * compressed layout, closed and sealed. Removed again on failure. */
static int pack(dg_dom_writer *w, const char *tmp)
{
    int rc = HN_OK;
    dg_dom_writer *p = writer_alloc(tmp, &rc);
    if (!p)
        return rc;
    p->info = w->info;
    if (unlink(tmp) != 0 && errno != ENOENT) /* a killed run's: this run holds FILE.part */
        rc = hn_fail(HN_ERR_IO, "%s: cannot remove: %s", tmp, strerror(errno));
    int created = 0;
    if (!rc) {
        rc = writer_make(p, 1);
        created = p->file >= 0;
    }
    if (!rc)
        rc = pack_rows(w, p);
    errno = 0;
    for (int k = 0; k < D_COUNT; k++)
        if (p->ds[k] >= 0 && H5Dclose(p->ds[k]) < 0 && !rc)
            rc = hn_fail(HN_ERR_HDF5, "%s: cannot write /%s: %s", tmp, dsets[k].name, hn_h5_why());
    if (p->file >= 0 && H5Fclose(p->file) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot close: %s", tmp, hn_h5_why());
    free(p);
    if (!rc)
        rc = hn_file_seal(tmp);
    if (rc && created)
        unlink(tmp);
    return rc;
}

int dg_dom_writer_close(dg_dom_writer *w, const char *final)
{
    if (!w)
        return HN_OK;
    int rc = w->err;
    char tmp[4200];
    if (!rc && final && snprintf(tmp, sizeof tmp, "%s.pack", w->path) >= (int)sizeof tmp)
        rc = hn_fail(HN_ERR_ARG, "%s: the path is too long", w->path);
    if (!rc && final) {
        w->info.complete = 1;
        rc = info_write(w->file, &w->info, 1);
        if (!rc)
            rc = flush(w, "the row count");
        if (!rc) /* while FILE.part is open: a second gen cannot open it meanwhile */
            rc = pack(w, tmp);
    }
    for (int k = 0; k < D_COUNT; k++)
        if (w->ds[k] >= 0 && H5Dclose(w->ds[k]) < 0 && !rc)
            rc = hn_fail(HN_ERR_HDF5, "%s: cannot close /%s", w->path, dsets[k].name);
    errno = 0;
    if (H5Fclose(w->file) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot close: %s", w->path, hn_h5_why());
    if (!rc && final && rename(tmp, final) != 0) {
        rc = hn_fail(HN_ERR_IO, "cannot rename %s to %s: %s", tmp, final, strerror(errno));
        unlink(tmp);
    }
    if (!rc && final)
        unlink(w->path); /* FILE holds every row now */
    free(w);
    return rc;
}

int dg_dom_writer_append_file(dg_dom_writer *w, const char *src, uint64_t rows)
{
    hid_t f = hn_h5_open_verified(src);
    if (f < 0)
        return (int)f;
    size_t sb = (size_t)w->info.state_bytes;
    unsigned char *buf[D_COUNT] = {0};
    int rc = HN_OK;
    for (int k = 0; k < D_COUNT && !rc; k++)
        if (!(buf[k] = malloc((size_t)CHUNK_ROWS * row_bytes(k, (int)sb))))
            rc = hn_fail(HN_ERR_NOMEM, "%s: out of memory", src);
    for (uint64_t at = 0; !rc && at < rows; at += CHUNK_ROWS) {
        uint64_t n = rows - at < CHUNK_ROWS ? rows - at : CHUNK_ROWS;
        for (int k = 0; k < D_COUNT && !rc; k++)
            rc = read_block(f, src, k, (int)sb, at, n, buf[k]);
        struct dg_dom_rows r = {buf[D_STATES],
                                (const uint16_t *)buf[D_COST],
                                (const uint16_t *)buf[D_WALK],
                                (const uint64_t *)buf[D_EXPANDED],
                                buf[D_SOURCE],
                                (size_t)n};
        if (!rc)
            rc = dg_dom_writer_append(w, &r);
    }
    for (int k = 0; k < D_COUNT; k++)
        free(buf[k]);
    H5Fclose(f);
    return rc;
}
