/* Small HDF5 helpers: quiet errors, checked opening with a clear reason, and
 * scalar attributes; plus the write-to-.part-then-rename output discipline. */
#include "common/hn.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void hn_h5_quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

hid_t hn_h5_open_read(const char *path)
{
    hn_h5_quiet();
    if (access(path, R_OK) != 0)
        return hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    htri_t is = H5Fis_hdf5(path);
    if (is <= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: not an HDF5 file (or truncated)", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: HDF5 file cannot be opened (damaged or truncated)", path);
    return f;
}

static int attr_write(hid_t obj, const char *name, hid_t type, const void *val)
{
    if (H5Aexists(obj, name) > 0)
        H5Adelete(obj, name);
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(obj, name, type, sp, H5P_DEFAULT, H5P_DEFAULT);
    int rc = (a >= 0 && H5Awrite(a, type, val) >= 0) ? HN_OK : HN_ERR_HDF5;
    if (a >= 0)
        H5Aclose(a);
    H5Sclose(sp);
    if (rc)
        return hn_fail(rc, "cannot write attribute '%s'", name);
    return HN_OK;
}

int hn_h5_attr_set_str(hid_t obj, const char *name, const char *value)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(value) + 1);
    H5Tset_strpad(t, H5T_STR_NULLTERM);
    int rc = attr_write(obj, name, t, value);
    H5Tclose(t);
    return rc;
}

int hn_h5_attr_set_int(hid_t obj, const char *name, long long value)
{
    return attr_write(obj, name, H5T_NATIVE_LLONG, &value);
}

int hn_h5_attr_set_double(hid_t obj, const char *name, double value)
{
    return attr_write(obj, name, H5T_NATIVE_DOUBLE, &value);
}

int hn_h5_attr_exists(hid_t obj, const char *name) { return H5Aexists(obj, name) > 0; }

static hid_t attr_open(hid_t obj, const char *name)
{
    if (H5Aexists(obj, name) <= 0)
        return hn_fail(HN_ERR_FORMAT, "attribute '%s' is missing", name);
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return hn_fail(HN_ERR_HDF5, "attribute '%s' cannot be opened", name);
    return a;
}

int hn_h5_attr_get_str(hid_t obj, const char *name, char *buf, size_t cap)
{
    hid_t a = attr_open(obj, name);
    if (a < 0)
        return (int)a;
    int rc = HN_OK;
    hid_t ft = H5Aget_type(a);
    if (H5Tget_class(ft) != H5T_STRING) {
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is not a string", name);
    } else if (H5Tis_variable_str(ft) > 0) {
        char *s = NULL;
        hid_t mt = H5Tcopy(H5T_C_S1);
        H5Tset_size(mt, H5T_VARIABLE);
        H5Tset_cset(mt, H5Tget_cset(ft)); /* h5py writes UTF-8; HDF5 will not convert */
        if (H5Aread(a, mt, &s) < 0 || !s)
            rc = hn_fail(HN_ERR_HDF5, "attribute '%s' cannot be read", name);
        else
            snprintf(buf, cap, "%s", s);
        if (s)
            H5free_memory(s);
        H5Tclose(mt);
    } else {
        size_t n = H5Tget_size(ft);
        char tmp[4096];
        hid_t mt = H5Tcopy(H5T_C_S1);
        H5Tset_size(mt, n);
        H5Tset_cset(mt, H5Tget_cset(ft));
        if (n >= sizeof tmp || H5Aread(a, mt, tmp) < 0)
            rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' cannot be read", name);
        else {
            tmp[n] = '\0';
            snprintf(buf, cap, "%s", tmp);
        }
        H5Tclose(mt);
    }
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}

static int attr_read_num(hid_t obj, const char *name, hid_t mt, void *out)
{
    hid_t a = attr_open(obj, name);
    if (a < 0)
        return (int)a;
    hid_t ft = H5Aget_type(a);
    H5T_class_t c = H5Tget_class(ft);
    int rc = HN_OK;
    if (c != H5T_INTEGER && c != H5T_FLOAT)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is not a number", name);
    else if (H5Aread(a, mt, out) < 0)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' cannot be read", name);
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}

int hn_h5_attr_get_int(hid_t obj, const char *name, long long *value)
{
    return attr_read_num(obj, name, H5T_NATIVE_LLONG, value);
}

int hn_h5_attr_get_double(hid_t obj, const char *name, double *value)
{
    return attr_read_num(obj, name, H5T_NATIVE_DOUBLE, value);
}

int hn_part_path(const char *path, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s.part", path);
    if (n < 0 || (size_t)n >= cap)
        return hn_fail(HN_ERR_ARG, "%s: path too long", path);
    return HN_OK;
}

int hn_part_commit(const char *path)
{
    char part[4096];
    int rc = hn_part_path(path, part, sizeof part);
    if (rc)
        return rc;
    if (rename(part, path) != 0)
        return hn_fail(HN_ERR_IO, "%s: cannot rename %s into place: %s", path, part, strerror(errno));
    return HN_OK;
}

void hn_part_discard(const char *path)
{
    char part[4096];
    if (hn_part_path(path, part, sizeof part) == HN_OK)
        unlink(part);
}
