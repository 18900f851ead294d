/* What describes a dataset file: one table maps dg_ds_info fields to root
 * attributes so writing, reading and comparing cannot drift apart, and one
 * place says the names, types and shapes of the per-row datasets. */
#include <stddef.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>

#include "datagen/dataset_priv.h"
#include "common/hn_h5.h"

const char *dg_source_name(int source)
{
    switch (source) {
    case DG_SOURCE_RANDOM:
        return "random";
    case DG_SOURCE_PATH:
        return "path";
    case DG_SOURCE_WALK:
        return "random-walk";
    case DG_SOURCE_FILE:
        return "file";
    case DG_SOURCE_ALL:
        return "all";
    default:
        return "?";
    }
}

const char *const dg_ds_names[DG_DS_COUNT] = {"boards", "cost", "expanded", "source"};

hid_t dg_ds_mem_type(int k)
{
    return k == DG_DS_COST       ? H5T_NATIVE_UINT16
           : k == DG_DS_EXPANDED ? H5T_NATIVE_UINT64
                                 : H5T_NATIVE_UINT8;
}

hid_t dg_ds_file_type(int k)
{
    return k == DG_DS_COST ? H5T_STD_U16LE : k == DG_DS_EXPANDED ? H5T_STD_U64LE : H5T_STD_U8LE;
}

int dg_ds_rank(int k)
{
    return k == DG_DS_BOARDS ? 2 : 1;
}

int dg_ds_rows_io(hid_t d, int k, int cells, uint64_t start, uint64_t n, void *buf, int write)
{
    hsize_t off[2] = {start, 0}, cnt[2] = {n, (hsize_t)cells};
    hid_t fs = d >= 0 ? H5Dget_space(d) : -1;
    hid_t ms = H5Screate_simple(dg_ds_rank(k), cnt, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
             (write ? H5Dwrite(d, dg_ds_mem_type(k), ms, fs, H5P_DEFAULT, buf)
                    : H5Dread(d, dg_ds_mem_type(k), ms, fs, H5P_DEFAULT, buf)) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? 0 : -1;
}

enum field_kind { F_STR, F_INT, F_U64, F_U32 };

/* compare: 1 = must match on resume and merge; 0 = progress or position. */
static const struct field {
    const char *name;
    enum field_kind kind;
    size_t off, size;
    int compare;
} fields[] = {
#define S(n, f, c)                                                                                 \
    {                                                                                              \
        n, F_STR, offsetof(dg_ds_info, f), sizeof(((dg_ds_info *)0)->f), c                         \
    }
#define I(n, f, c)                                                                                 \
    {                                                                                              \
        n, F_INT, offsetof(dg_ds_info, f), sizeof(int), c                                          \
    }
#define U(n, f, c)                                                                                 \
    {                                                                                              \
        n, F_U64, offsetof(dg_ds_info, f), sizeof(uint64_t), c                                     \
    }
    I("width", width, 1),
    I("cells", cells, 1),
    S("goal", goal, 1),
    S("heuristic", heuristic, 1),
    S("solver", solver, 1),
    S("source", source, 1),
    S("from", from, 0), /* the path may be spelled differently; the CRC decides */
    {"from_crc32", F_U32, offsetof(dg_ds_info, from_crc), sizeof(uint32_t), 1},
    I("walk_length", walk_length, 1),
    I("path_states", path_states, 1),
    U("seed", seed, 1),
    I("shard_count", shard_count, 1),
    I("shard_index", shard_index, 0),
    U("first_index", first_index, 0),
    U("count", count, 0),
    U("total_count", total_count, 0),
    U("done", done, 0),
    U("committed", committed, 0),
    I("complete", complete, 0),
    I("merged", merged, 0),
    I("virtual", is_virtual, 0),
    S("version", version, 0),
    S("revision", revision, 0),
#undef S
#undef I
#undef U
};
#define NFIELDS (sizeof fields / sizeof fields[0])

/* 64-bit unsigned attributes (seeds use all 64 bits; h5py shows them as
 * uint64 rather than negative numbers). */
static int attr_set_u64(hid_t f, const char *name, uint64_t v)
{
    if (H5Aexists(f, name) > 0 && H5Adelete(f, name) < 0)
        return hn_fail(HN_ERR_HDF5, "cannot replace attribute '%s'", name);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = sp >= 0 ? H5Acreate2(f, name, H5T_STD_U64LE, sp, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int ok = a >= 0 && H5Awrite(a, H5T_NATIVE_UINT64, &v) >= 0;
    if (a >= 0)
        H5Aclose(a);
    if (sp >= 0)
        H5Sclose(sp);
    return ok ? HN_OK : hn_fail(HN_ERR_HDF5, "cannot write attribute '%s'", name);
}

static int field_write(hid_t f, const struct field *fd, const dg_ds_info *info)
{
    const char *p = (const char *)info + fd->off;
    switch (fd->kind) {
    case F_STR:
        return hn_h5_attr_set_str(f, fd->name, p);
    case F_INT:
        return hn_h5_attr_set_int(f, fd->name, *(const int *)p);
    case F_U32:
        return hn_h5_attr_set_int(f, fd->name, *(const uint32_t *)p);
    case F_U64:
        return attr_set_u64(f, fd->name, *(const uint64_t *)p);
    }
    return HN_ERR_ARG;
}

int dg_info_write(hid_t f, const dg_ds_info *info)
{
    int rc = hn_h5_attr_set_str(f, "format", DG_FORMAT);
    if (!rc)
        rc = hn_h5_attr_set_int(f, "format_version", DG_FORMAT_VERSION);
    if (!rc)
        rc = hn_h5_attr_set_str(f, "generator", DG_GENERATOR);
    if (!rc)
        rc = hn_h5_attr_set_int(f, "puzzle", info->cells - 1);
    if (!rc)
        rc = hn_h5_attr_set_int(f, "seed_block", DG_SEED_BLOCK);
    char shard[64];
    snprintf(shard, sizeof shard, "%d/%d", info->shard_index, info->shard_count);
    if (!rc)
        rc = hn_h5_attr_set_str(f, "shard", shard);
    for (size_t i = 0; i < NFIELDS && !rc; i++)
        rc = field_write(f, &fields[i], info);
    return rc;
}

int dg_info_write_progress(hid_t f, const dg_ds_info *info)
{
    static const char *const names[] = {"done", "committed", "complete", "count", "total_count"};
    int rc = HN_OK;
    for (size_t i = 0; i < NFIELDS && !rc; i++)
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (!strcmp(fields[i].name, names[k]))
                rc = field_write(f, &fields[i], info);
    return rc;
}

static int field_read(hid_t f, const char *path, const struct field *fd, dg_ds_info *info)
{
    char *p = (char *)info + fd->off;
    long long v = 0;
    int rc = fd->kind == F_STR   ? hn_h5_attr_get_str(f, fd->name, p, fd->size)
             : fd->kind == F_U64 ? hn_h5_attr_get_u64(f, fd->name, (uint64_t *)p)
                                 : hn_h5_attr_get_int(f, fd->name, &v);
    if (rc)
        return hn_fail(HN_ERR_FORMAT, "%s: %s", path, hn_errmsg());
    /* a value that does not fit its field would wrap to another one */
    if ((fd->kind == F_INT && (v < INT_MIN || v > INT_MAX)) ||
        (fd->kind == F_U32 && (v < 0 || v > (long long)UINT32_MAX)))
        return hn_fail(HN_ERR_FORMAT, "%s: attribute '%s' is %lld, out of range", path, fd->name,
                       v);
    if (fd->kind == F_INT)
        *(int *)p = (int)v;
    else if (fd->kind == F_U32)
        *(uint32_t *)p = (uint32_t)v;
    return HN_OK;
}

int dg_info_read_attrs(hid_t f, const char *path, dg_ds_info *info)
{
    memset(info, 0, sizeof *info);
    char fmt[64] = "";
    if (!hn_h5_attr_exists(f, "format") || hn_h5_attr_get_str(f, "format", fmt, sizeof fmt) ||
        strcmp(fmt, DG_FORMAT))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: not a heurnet dataset (root attribute format=\"%s\" missing)", path,
                       DG_FORMAT);
    long long ver = 0;
    if (hn_h5_attr_get_int(f, "format_version", &ver) || ver != DG_FORMAT_VERSION)
        return hn_fail(HN_ERR_FORMAT, "%s: dataset format_version %lld, this build reads %d", path,
                       ver, DG_FORMAT_VERSION);
    for (size_t i = 0; i < NFIELDS; i++) {
        int rc = field_read(f, path, &fields[i], info);
        if (rc)
            return rc;
    }
    if (info->width < 2 || info->width > 8 || info->cells != info->width * info->width)
        return hn_fail(HN_ERR_FORMAT, "%s: attributes width=%d cells=%d do not describe a puzzle",
                       path, info->width, info->cells);
    if (info->committed > info->count * 256 + info->count || info->done > info->count)
        return hn_fail(HN_ERR_FORMAT, "%s: attributes done=%llu committed=%llu exceed count=%llu",
                       path, (unsigned long long)info->done, (unsigned long long)info->committed,
                       (unsigned long long)info->count);
    return HN_OK;
}

const char *dg_info_diff(const dg_ds_info *a, const dg_ds_info *b, char *buf, size_t cap)
{
    for (size_t i = 0; i < NFIELDS; i++) {
        const struct field *fd = &fields[i];
        if (!fd->compare)
            continue;
        const char *pa = (const char *)a + fd->off, *pb = (const char *)b + fd->off;
        if (fd->kind == F_STR) {
            if (strcmp(pa, pb)) {
                snprintf(buf, cap, "%s (\"%s\" vs \"%s\")", fd->name, pa, pb);
                return buf;
            }
        } else if (memcmp(pa, pb, fd->size)) {
            unsigned long long va = 0, vb = 0;
            if (fd->kind == F_INT)
                va = (unsigned long long)*(const int *)pa,
                vb = (unsigned long long)*(const int *)pb;
            else if (fd->kind == F_U32)
                va = *(const uint32_t *)pa, vb = *(const uint32_t *)pb;
            else
                va = *(const uint64_t *)pa, vb = *(const uint64_t *)pb;
            snprintf(buf, cap, "%s (%llu vs %llu)", fd->name, va, vb);
            return buf;
        }
    }
    return NULL;
}

int dg_info_default_source(const dg_ds_info *info)
{
    /* the attribute may carry "+path": compare the part before it */
    size_t n = strcspn(info->source, "+");
    static const int kinds[] = {DG_SOURCE_WALK, DG_SOURCE_FILE, DG_SOURCE_ALL};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        const char *name = dg_source_name(kinds[i]);
        if (strlen(name) == n && !strncmp(info->source, name, n))
            return kinds[i];
    }
    return DG_SOURCE_RANDOM;
}
