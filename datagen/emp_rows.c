/* What the edge-matching data generators share (emp_h5.h): the row buffer,
 * the header check and the /x /y reader. */
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "common/hn_h5.h"
#include "datagen/emp_h5.h"

int dg_emp_rows_push(dg_emp_rows *r, const float *x, float y, int32_t group)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 4096;
        float *nx = realloc(r->x, sizeof *nx * cap * (size_t)r->dim);
        if (nx)
            r->x = nx;
        float *ny = nx ? realloc(r->y, sizeof *ny * cap) : NULL;
        if (ny)
            r->y = ny;
        int32_t *ng = ny ? realloc(r->group, sizeof *ng * cap) : NULL;
        if (!ng)
            return hn_fail(HN_ERR_NOMEM, "out of memory for %zu dataset rows", cap);
        r->group = ng;
        r->cap = cap;
    }
    memcpy(r->x + r->n * (size_t)r->dim, x, sizeof *x * (size_t)r->dim);
    r->group[r->n] = group;
    r->y[r->n++] = y;
    return HN_OK;
}

void dg_emp_rows_free(dg_emp_rows *r)
{
    free(r->x), free(r->y), free(r->group);
    r->x = r->y = NULL;
    r->group = NULL;
}

int dg_emp_check_header(hid_t f, const char *path, const char *format, int version,
                        const char *encoder)
{
    char fmt[64] = "", enc[64] = "";
    long long ver = 0;
    if (hn_h5_attr_get_str(f, "format", fmt, sizeof fmt) || strcmp(fmt, format))
        return hn_fail(HN_ERR_FORMAT, "%s: attribute format is \"%s\", expected \"%s\"", path, fmt,
                       format);
    if (hn_h5_attr_get_int(f, "format_version", &ver) || ver != version)
        return hn_fail(HN_ERR_FORMAT, "%s: format_version %lld, this build reads %d", path, ver,
                       version);
    if (hn_h5_attr_get_str(f, "encoder", enc, sizeof enc) || strcmp(enc, encoder))
        return hn_fail(HN_ERR_FORMAT, "%s: encoder \"%s\", expected \"%s\"", path, enc, encoder);
    return HN_OK;
}

int dg_emp_read_xy(hid_t f, const char *path, hsize_t *dims, float **x, float **y)
{
    int st = dg_emp_read_ds(f, path, "x", 2, dims, x);
    hsize_t dy[1] = {dims[0]};
    return st == HN_OK ? dg_emp_read_ds(f, path, "y", 1, dy, y) : st;
}

int dg_emp_rows_write(const char *out, const dg_emp_rows *r, const char *group_name,
                      int (*attrs)(hid_t f, const void *ctx), const void *ctx)
{
    char part[4200];
    if (hn_part_path(out, part, sizeof part) != HN_OK)
        return hn_fail(HN_ERR_ARG, "%s: output path too long", out);
    hn_h5_quiet();
    hid_t f = hn_h5_create(part, -1); /* EXCL; says why; leaves no empty file */
    if (f < 0)
        return (int)f;
    hsize_t dx[2] = {r->n, (hsize_t)r->dim}, dy[1] = {r->n};
    int bad = dg_emp_write_ds(f, "x", 2, dx, r->x, 0) || dg_emp_write_ds(f, "y", 1, dy, r->y, 0) ||
              dg_emp_write_ds(f, group_name, 1, dy, r->group, 1) || attrs(f, ctx);
    if (H5Fclose(f) < 0 || bad) {
        hn_part_discard(out);
        return hn_fail(HN_ERR_HDF5, "%s: writing the dataset failed", part);
    }
    if (hn_part_commit_sealed(out) != HN_OK) {
        hn_part_discard(out);
        return hn_fail(HN_ERR_IO, "%s: cannot rename %s into place", out, part);
    }
    return HN_OK;
}
