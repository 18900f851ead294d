/* Small HDF5 helpers: quiet errors, checked opening with a clear reason, and
 * scalar attributes. */
#include "common/hn.h"
#include "common/hn_h5.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

void hn_h5_quiet(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

/* ---- probing files without a checksum -------------------------------- */

/* libhdf5 (1.10) can crash on a damaged file instead of reporting an error,
 * and a file without heurnet's checksum trailer (an older heurnet's, one
 * written by h5py, an unfinished gen, or one whose trailer was damaged
 * itself) cannot be checked byte by byte. Such a file is first read in full
 * by a child process: every object, attribute and dataset. If the child dies
 * the file is refused, so the crash stays in the child. */

#define PROBE_MAX_BYTES ((size_t)1 << 28) /* datasets read in full up to 256 MB */

static herr_t probe_attr(hid_t loc, const char *name, const H5A_info_t *info, void *user)
{
    (void)info;
    (void)user;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0)
        return 0;
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    size_t sz = t >= 0 ? H5Tget_size(t) : 0;
    if (n >= 0 && sz > 0 && (size_t)n <= PROBE_MAX_BYTES / sz && H5Tget_class(t) != H5T_VLEN &&
        !(H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) > 0)) {
        void *buf = calloc((size_t)n + 1, sz);
        if (buf)
            H5Aread(a, t, buf);
        free(buf);
    }
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    H5Aclose(a);
    return 0;
}

static void probe_dataset(hid_t d)
{
    hid_t t = H5Dget_type(d), sp = H5Dget_space(d);
    hid_t nt = t >= 0 ? H5Tget_native_type(t, H5T_DIR_ASCEND) : -1;
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    size_t sz = nt >= 0 ? H5Tget_size(nt) : 0;
    if (n > 0 && sz > 0 && (size_t)n <= PROBE_MAX_BYTES / sz && H5Tget_class(nt) != H5T_VLEN &&
        !(H5Tget_class(nt) == H5T_STRING && H5Tis_variable_str(nt) > 0)) {
        void *buf = malloc((size_t)n * sz);
        if (buf)
            H5Dread(d, nt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
        free(buf);
    }
    if (nt >= 0)
        H5Tclose(nt);
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
}

static herr_t probe_object(hid_t root, const char *name, const H5O_info_t *info, void *user)
{
    (void)user;
    hid_t o = H5Oopen(root, name, H5P_DEFAULT);
    if (o < 0)
        return 0;
    H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, probe_attr, NULL);
    if (info->type == H5O_TYPE_DATASET)
        probe_dataset(o);
    H5Oclose(o);
    return 0;
}

/* Set by sanitizer runtimes only (NULL otherwise): a fuzzer's death callback
 * would report the child's expected crash as the fuzzer's own. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static void probe_child_setup(void)
{
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(NULL);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    signal(SIGABRT, SIG_DFL);
    signal(SIGFPE, SIG_DFL);
    hn_h5_quiet();
}

static void probe_read_all(void *arg)
{
    hid_t f = H5Fopen((const char *)arg, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f >= 0) {
        H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_NATIVE, probe_object, NULL, H5O_INFO_BASIC);
        H5Fclose(f);
    }
}

static _Thread_local int in_probe;          /* 1 in a probe's child */
static _Thread_local const char *probed_ok; /* the path a loader probe passed */

static hn_isolate_fn isolate;

void hn_isolate_set(hn_isolate_fn fn)
{
    isolate = fn;
}

struct probe_job {
    void (*fn)(void *);
    void *arg;
};

/* What runs isolated: marks the process as a probe, then the loader. */
static void probe_child(void *user)
{
    const struct probe_job *j = user;
    in_probe = 1;
    probe_child_setup();
    j->fn(j->arg);
}

/* Run fn(arg) through the isolation function; 0 if it returned (or there is
 * none), else HN_ERR_FORMAT naming path, or HN_ERR_IO when it could not run. */
static int probe_run(const char *path, void (*fn)(void *), void *arg)
{
    if (!isolate)
        return 0;
    struct probe_job j = {fn, arg};
    char why[128] = "";
    int rc = isolate(probe_child, &j, why, sizeof why);
    if (rc == HN_ERR_IO)
        return hn_fail(HN_ERR_IO, "%s: cannot check a file without a checksum: %s", path, why);
    if (rc)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: damaged: it has no checksum and the HDF5 library fails reading it (%s)",
                       path, why);
    return 0;
}

int hn_h5_probe_call(const char *path, void (*fn)(void *), void *arg)
{
    int sealed;
    if (in_probe || hn_file_verify(path, &sealed) || sealed)
        return 0; /* a verify error is reported by the loader's own open */
    int rc = probe_run(path, fn, arg);
    probed_ok = rc ? NULL : path;
    return rc;
}

/* The generic probe: every object, attribute and dataset of the file. */
static int probe_unverified(const char *path)
{
    if (in_probe || (probed_ok && !strcmp(probed_ok, path)))
        return 0;
    return probe_run(path, probe_read_all, (void *)path);
}

static hid_t open_read(const char *path, int warn)
{
    hn_h5_quiet();
    if (access(path, R_OK) != 0)
        return hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    /* verified before HDF5 parses anything: damaged metadata can crash libhdf5 */
    int sealed, rc = hn_file_verify(path, &sealed);
    if (rc)
        return rc;
    if (!sealed && (rc = probe_unverified(path)))
        return rc;
    htri_t is = H5Fis_hdf5(path);
    if (is <= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: not an HDF5 file (or truncated)", path);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: HDF5 file cannot be opened (damaged or truncated)",
                       path);
    char fmt[64];
    /* arrays made with h5py and the like never had a checksum: no warning */
    if (!sealed && warn && hn_h5_attr_get_str(f, "format", fmt, sizeof fmt) == HN_OK &&
        !strncmp(fmt, "heurnet-", 8))
        hn_log(HN_LOG_WARN,
               "%s: no checksum (written by an older heurnet); read unverified; "
               "'heurnet nn upgrade %s' adds one",
               path, path);
    hn_error_clear();
    return f;
}

hid_t hn_h5_open_read(const char *path)
{
    return open_read(path, 0);
}
hid_t hn_h5_open_verified(const char *path)
{
    return open_read(path, 1);
}

hid_t hn_h5_create(const char *path, hid_t fcpl)
{
    hn_h5_quiet();
    struct stat st;
    if (lstat(path, &st) == 0)
        return hn_fail(HN_ERR_IO, "%s: cannot create: %s", path, strerror(EEXIST));
    errno = 0;
    /* EXCL: O_CREAT|O_EXCL, so a symlink at the name is never followed */
    hid_t f = H5Fcreate(path, H5F_ACC_EXCL, fcpl < 0 ? H5P_DEFAULT : fcpl, H5P_DEFAULT);
    if (f >= 0)
        return f;
    int e = errno;
    /* the name was free a moment ago: what is there now is this call's
     * empty start (a full disk), which would only block the next run */
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        unlink(path);
    return hn_fail(HN_ERR_IO, "%s: cannot create: %s", path,
                   e ? strerror(e) : "HDF5 cannot write its header");
}

const char *hn_h5_why(void)
{
    return errno ? strerror(errno) : "disk full or I/O error";
}

/* Overwrite an attribute of the same type in place: deleting and creating it
 * again could lose it altogether when the disk fills up in between. */
static int attr_overwrite(hid_t obj, const char *name, hid_t type, const void *val)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return -1;
    hid_t ft = H5Aget_type(a), sp = H5Aget_space(a);
    int same =
        ft >= 0 && sp >= 0 && H5Tequal(ft, type) > 0 && H5Sget_simple_extent_type(sp) == H5S_SCALAR;
    int rc = same ? (H5Awrite(a, type, val) >= 0 ? 1 : -1) : 0;
    if (ft >= 0)
        H5Tclose(ft);
    if (sp >= 0)
        H5Sclose(sp);
    H5Aclose(a);
    return rc;
}

static int attr_write(hid_t obj, const char *name, hid_t type, const void *val)
{
    if (H5Aexists(obj, name) > 0) {
        int done = attr_overwrite(obj, name, type, val);
        if (done < 0)
            return hn_fail(HN_ERR_HDF5, "cannot write attribute '%s'", name);
        if (done)
            return HN_OK;
        if (H5Adelete(obj, name) < 0)
            return hn_fail(HN_ERR_HDF5, "cannot replace attribute '%s'", name);
    }
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

int hn_h5_attr_exists(hid_t obj, const char *name)
{
    return H5Aexists(obj, name) > 0;
}

/* Chunk dimensions against the dataset's and the byte cap; 1 when sane. */
static int chunks_sane(hid_t d, size_t esize)
{
    hid_t pl = H5Dget_create_plist(d), sp = H5Dget_space(d);
    int ok = pl >= 0 && sp >= 0;
    if (ok && H5Pget_layout(pl) == H5D_CHUNKED) {
        hsize_t dims[H5S_MAX_RANK], maxd[H5S_MAX_RANK], chunk[H5S_MAX_RANK];
        int r = H5Sget_simple_extent_dims(sp, dims, maxd);
        ok = r >= 0 && H5Pget_chunk(pl, H5S_MAX_RANK, chunk) == r;
        size_t bytes = esize;
        for (int i = 0; ok && i < r; i++) {
            /* an extendible dataset may have chunks beyond its current size */
            ok = chunk[i] >= 1 && (maxd[i] == H5S_UNLIMITED || chunk[i] <= maxd[i]) &&
                 chunk[i] <= HN_H5_CHUNK_MAX / bytes;
            bytes *= ok ? (size_t)chunk[i] : 1;
        }
    }
    if (pl >= 0)
        H5Pclose(pl);
    if (sp >= 0)
        H5Sclose(sp);
    return ok;
}

int hn_h5_dset_check(hid_t d, const char *path, const char *what)
{
    hid_t t = H5Dget_type(d);
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    size_t sz = t >= 0 ? H5Tget_size(t) : 0;
    if (t >= 0)
        H5Tclose(t);
    if ((c != H5T_INTEGER && c != H5T_FLOAT) || sz < 1 || sz > 8)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: %s has an unusable stored type (class %d, %zu bytes): the file is "
                       "damaged",
                       path, what, (int)c, sz);
    if (!chunks_sane(d, sz))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: %s has an unusable chunk layout (chunks beyond its maximum size or "
                       "%zu MB): the file is damaged",
                       path, what, HN_H5_CHUNK_MAX >> 20);
    return HN_OK;
}

static hid_t attr_open(hid_t obj, const char *name)
{
    if (H5Aexists(obj, name) <= 0)
        return hn_fail(HN_ERR_FORMAT, "attribute '%s' is missing", name);
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a < 0)
        return hn_fail(HN_ERR_HDF5, "attribute '%s' cannot be opened", name);
    return a;
}

/* An attribute read as one value must hold exactly one: a 1x64 array read
 * into a scalar would write past the caller's variable. */
static int attr_check_one(hid_t a, const char *name)
{
    hid_t sp = H5Aget_space(a);
    hssize_t n = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (n != 1)
        return hn_fail(HN_ERR_FORMAT, "attribute '%s' holds %lld values, expected one", name,
                       (long long)n);
    return HN_OK;
}

/* Fixed-length string of the file's own size and padding, read byte for
 * byte (reading it as NULLTERM of the same size drops a NULLPAD string's
 * last character). */
static int attr_read_fixed_str(hid_t a, hid_t ft, const char *name, char *buf, size_t cap)
{
    size_t n = H5Tget_size(ft);
    if (n == 0 || n > HN_H5_STR_MAX)
        return hn_fail(HN_ERR_FORMAT, "attribute '%s' has an implausible string size %zu", name, n);
    char *tmp = malloc(n + 1);
    if (!tmp)
        return hn_fail(HN_ERR_NOMEM, "attribute '%s': out of memory", name);
    hid_t mt = H5Tcopy(ft);
    int rc = mt >= 0 && H5Tset_order(mt, H5T_ORDER_NONE) >= 0 && H5Aread(a, mt, tmp) >= 0
                 ? HN_OK
                 : hn_fail(HN_ERR_FORMAT, "attribute '%s' cannot be read", name);
    if (mt >= 0)
        H5Tclose(mt);
    tmp[n] = '\0';
    size_t len = strlen(tmp);
    /* NUL padding ends a fixed string; anything after a NUL means the NUL
     * was inside the value, which would silently cut it */
    for (size_t i = len; !rc && i < n; i++)
        if (tmp[i] != '\0')
            rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' holds a NUL byte at offset %zu", name, len);
    if (H5Tget_strpad(ft) == H5T_STR_SPACEPAD)
        while (len > 0 && tmp[len - 1] == ' ')
            tmp[--len] = '\0';
    if (!rc && len >= cap)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is longer than %zu characters", name, cap - 1);
    if (!rc)
        memcpy(buf, tmp, len + 1);
    free(tmp);
    return rc;
}

static int attr_read_var_str(hid_t a, hid_t ft, const char *name, char *buf, size_t cap)
{
    char *s = NULL;
    hid_t mt = H5Tcopy(H5T_C_S1);
    H5Tset_size(mt, H5T_VARIABLE);
    H5Tset_cset(mt, H5Tget_cset(ft)); /* h5py writes UTF-8; HDF5 will not convert */
    int rc = HN_OK;
    if (H5Aread(a, mt, &s) < 0 || !s)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' cannot be read", name);
    else if (strlen(s) >= cap)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is longer than %zu characters", name, cap - 1);
    else
        memcpy(buf, s, strlen(s) + 1);
    if (s)
        H5free_memory(s);
    H5Tclose(mt);
    return rc;
}

int hn_h5_attr_get_str(hid_t obj, const char *name, char *buf, size_t cap)
{
    if (cap == 0)
        return hn_fail(HN_ERR_ARG, "attribute '%s': no room for the value", name);
    hid_t a = attr_open(obj, name);
    if (a < 0)
        return (int)a;
    hid_t ft = H5Aget_type(a);
    int rc = attr_check_one(a, name);
    if (!rc && H5Tget_class(ft) != H5T_STRING)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is not a string", name);
    else if (!rc && H5Tis_variable_str(ft) > 0)
        rc = attr_read_var_str(a, ft, name, buf, cap);
    else if (!rc)
        rc = attr_read_fixed_str(a, ft, name, buf, cap);
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}

/* One integer attribute in its own signedness: *u when the stored type is
 * unsigned (*is_unsigned 1), else *v, so a 64-bit value cannot wrap. */
static int attr_read_integer(hid_t a, hid_t ft, const char *name, long long *v,
                             unsigned long long *u, int *is_unsigned)
{
    *v = 0;
    *u = 0;
    *is_unsigned = H5Tget_sign(ft) == H5T_SGN_NONE;
    if (H5Aread(a, *is_unsigned ? H5T_NATIVE_ULLONG : H5T_NATIVE_LLONG,
                *is_unsigned ? (void *)u : (void *)v) < 0)
        return hn_fail(HN_ERR_FORMAT, "attribute '%s' cannot be read", name);
    return HN_OK;
}

/* Read one number: a float must be finite and, when `ll` is wanted, an
 * integer in range; an unsigned 64-bit value is read as such so it cannot wrap. */
static int attr_read_num(hid_t obj, const char *name, double *d, long long *ll)
{
    hid_t a = attr_open(obj, name);
    if (a < 0)
        return (int)a;
    hid_t ft = H5Aget_type(a);
    H5T_class_t c = H5Tget_class(ft);
    int rc = attr_check_one(a, name);
    if (!rc && ((c != H5T_INTEGER && c != H5T_FLOAT) || H5Tget_size(ft) > 16))
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is not a number", name);
    if (!rc && c == H5T_FLOAT) {
        if (H5Aread(a, H5T_NATIVE_DOUBLE, d) < 0)
            rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' cannot be read", name);
        else if (!isfinite(*d))
            rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is %g, not a finite number", name, *d);
        else if (ll && !(*d == floor(*d) && fabs(*d) < 9.2e18))
            rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is %g, not an integer", name, *d);
        else if (ll)
            *ll = (long long)*d;
    } else if (!rc) {
        long long v;
        unsigned long long u;
        int is_unsigned;
        rc = attr_read_integer(a, ft, name, &v, &u, &is_unsigned);
        if (!rc && is_unsigned && u > (unsigned long long)LLONG_MAX)
            rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is %llu, out of range", name, u);
        if (!rc && is_unsigned)
            v = (long long)u;
        if (!rc && ll)
            *ll = v;
        if (!rc)
            *d = (double)v;
    }
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}

int hn_h5_attr_get_int(hid_t obj, const char *name, long long *value)
{
    double d;
    return attr_read_num(obj, name, &d, value);
}

int hn_h5_attr_get_u64(hid_t obj, const char *name, uint64_t *value)
{
    hid_t a = attr_open(obj, name);
    if (a < 0)
        return (int)a;
    hid_t ft = H5Aget_type(a);
    int rc = attr_check_one(a, name);
    if (!rc && (H5Tget_class(ft) != H5T_INTEGER || H5Tget_size(ft) > 8))
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is not an unsigned integer", name);
    long long v;
    unsigned long long u;
    int is_unsigned;
    if (!rc)
        rc = attr_read_integer(a, ft, name, &v, &u, &is_unsigned);
    if (!rc && !is_unsigned && v < 0)
        rc = hn_fail(HN_ERR_FORMAT, "attribute '%s' is %lld, expected >= 0", name, v);
    if (!rc)
        *value = is_unsigned ? u : (uint64_t)v;
    H5Tclose(ft);
    H5Aclose(a);
    return rc;
}

int hn_h5_attr_get_double(hid_t obj, const char *name, double *value)
{
    return attr_read_num(obj, name, value, NULL);
}

int hn_h5_reserve(hid_t file, const char *path, uint64_t bytes, uint64_t committed)
{
    haddr_t eoa = 0;
    if (H5Fget_eoa(file, &eoa) < 0)
        return hn_fail(HN_ERR_HDF5, "%s: cannot query the file's size", path);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    int e = posix_fallocate(fd, 0, (off_t)(eoa + bytes));
    close(fd);
    if (e == 0 || e == EOPNOTSUPP || e == EINVAL) /* no preallocation on this file system */
        return HN_OK;
    return hn_fail(HN_ERR_IO,
                   "%s: no room for %llu more bytes (%s); nothing was written past the %llu "
                   "committed rows",
                   path, (unsigned long long)bytes, strerror(e), (unsigned long long)committed);
}
