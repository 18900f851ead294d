/* What an n-puzzle dataset of the old layout (/boards) says about itself:
 * one table maps dg_ds_info fields to root attributes, and one place says
 * the names, types and shapes of the per-row datasets. Read only: heurnet
 * gen writes domain datasets (dom_ds.c) since the n-puzzle became a domain. */
#include <stddef.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>

#include "datagen/dataset_priv.h"
#include "common/hn_h5.h"

const char *const dg_ds_names[DG_DS_COUNT] = {"boards", "cost", "expanded", "source"};

hid_t dg_ds_mem_type(int k)
{
    return k == DG_DS_COST       ? H5T_NATIVE_UINT16
           : k == DG_DS_EXPANDED ? H5T_NATIVE_UINT64
                                 : H5T_NATIVE_UINT8;
}

int dg_ds_rank(int k)
{
    return k == DG_DS_BOARDS ? 2 : 1;
}

int dg_ds_rows_read(hid_t d, int k, int cells, uint64_t start, uint64_t n, void *buf)
{
    hsize_t off[2] = {start, 0}, cnt[2] = {n, (hsize_t)cells};
    hid_t fs = d >= 0 ? H5Dget_space(d) : -1;
    hid_t ms = H5Screate_simple(dg_ds_rank(k), cnt, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
             H5Dread(d, dg_ds_mem_type(k), ms, fs, H5P_DEFAULT, buf) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? 0 : -1;
}

enum field_kind { F_STR, F_INT, F_U64, F_U32 };

static const struct field {
    const char *name;
    enum field_kind kind;
    size_t off, size;
} fields[] = {
#define S(n, f)                                                                                    \
    {                                                                                              \
        n, F_STR, offsetof(dg_ds_info, f), sizeof(((dg_ds_info *)0)->f)                            \
    }
#define I(n, f)                                                                                    \
    {                                                                                              \
        n, F_INT, offsetof(dg_ds_info, f), sizeof(int)                                             \
    }
#define U(n, f)                                                                                    \
    {                                                                                              \
        n, F_U64, offsetof(dg_ds_info, f), sizeof(uint64_t)                                        \
    }
    I("width", width),
    I("cells", cells),
    S("goal", goal),
    S("heuristic", heuristic),
    S("solver", solver),
    S("source", source),
    S("from", from),
    {"from_crc32", F_U32, offsetof(dg_ds_info, from_crc), sizeof(uint32_t)},
    I("walk_length", walk_length),
    I("path_states", path_states),
    U("seed", seed),
    I("shard_count", shard_count),
    I("shard_index", shard_index),
    U("first_index", first_index),
    U("count", count),
    U("total_count", total_count),
    U("done", done),
    U("committed", committed),
    I("complete", complete),
    I("merged", merged),
    I("virtual", is_virtual),
    S("version", version),
    S("revision", revision),
#undef S
#undef I
#undef U
};
#define NFIELDS (sizeof fields / sizeof fields[0])

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
