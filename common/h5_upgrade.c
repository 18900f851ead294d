/* heurnet nn upgrade's work (common/hn_h5.h, hn_h5_upgrade): an older
 * file copied to FILE.part, its attributes set there, sealed with the
 * checksum and renamed over FILE. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/hn.h"
#include "common/hn_h5.h"

/* Copy `from` to a new temporary file of `path`, named in `to`. */
static int copy_file(const char *from, const char *path, char *to, size_t cap)
{
    int rc = HN_OK;
    FILE *in = fopen(from, "rb"), *out = in ? hn_part_fopen(path, to, cap, &rc) : NULL;
    char buf[1 << 16];
    size_t n;
    if (!in)
        rc = hn_fail(HN_ERR_IO, "%s: cannot open: %s", from, strerror(errno));
    while (!rc && (n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            rc = hn_fail(HN_ERR_IO, "%s: write error: %s", to, strerror(errno));
    if (!rc && ferror(in))
        rc = hn_fail(HN_ERR_IO, "%s: read error", from);
    if (in)
        fclose(in);
    if (out && fclose(out) != 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: write error: %s", to, strerror(errno));
    return rc;
}

int hn_h5_attr_reserved(const char *key)
{
    static const char *const keys[] = {"format",      "format_version", "spec",     "encoder",
                                       "target_mean", "target_std",     "complete", "committed",
                                       "done",        "count"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i]))
            return 1;
    return 0;
}

/* Write the KEY=VALUE pairs as root string attributes of part. */
static int set_attrs(const char *part, const char *const *sets, int n)
{
    int rc = hn_file_unseal(part);
    hid_t f = rc ? -1 : H5Fopen(part, H5F_ACC_RDWR, H5P_DEFAULT);
    if (!rc && f < 0)
        rc = hn_fail(HN_ERR_FORMAT, "%s: cannot be opened for writing as HDF5", part);
    for (int i = 0; !rc && i < n; i++) {
        char key[256];
        const char *eq = strchr(sets[i], '=');
        if (!eq || eq == sets[i] || eq - sets[i] >= (int)sizeof key)
            rc = hn_fail(HN_ERR_ARG, "'%s' is not KEY=VALUE", sets[i]);
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - sets[i]) : 0, sets[i]);
        if (!rc && hn_h5_attr_reserved(key))
            rc = hn_fail(HN_ERR_ARG, "'%s' decides how the file is read and cannot be set", key);
        if (!rc)
            rc = hn_h5_attr_set_str(f, key, eq + 1);
    }
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot finish writing", part);
    return rc;
}

int hn_h5_upgrade(const char *path, const char *const *sets, int n, int *done)
{
    int sealed;
    hid_t f = hn_h5_open_read(path); /* verifies a checksum that is there */
    *done = HN_UPGRADE_NONE;
    if (f < 0)
        return (int)f;
    H5Fclose(f);
    if (hn_file_verify(path, &sealed))
        return HN_ERR_FORMAT;
    if (sealed && n == 0)
        return HN_OK;
    char part[4096];
    int rc = copy_file(path, path, part, sizeof part);
    if (!rc && n > 0)
        rc = set_attrs(part, sets, n);
    if (!rc)
        rc = hn_part_commit_sealed(path);
    if (rc) {
        hn_part_discard(path);
        return rc;
    }
    *done = sealed ? HN_UPGRADE_RENEWED : HN_UPGRADE_ADDED;
    return HN_OK;
}
