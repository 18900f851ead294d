/* heurnet nn upgrade: give a model, dataset or checkpoint written by an older
 * heurnet its checksum, and optionally replace string attributes of its
 * training record (e.g. a path that pointed outside a repository). The file
 * is copied to FILE.part, changed there, sealed and renamed over FILE. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "common/hn.h"
#include "common/hn_h5.h"

#define MAX_SETS 16

static void upgrade_help(void)
{
    printf("usage: heurnet nn upgrade FILE [--set KEY=VALUE]...\n\n"
           "Add the checksum heurnet now writes at the end of every model, dataset and\n"
           "checkpoint to FILE (an older heurnet's file loads with a warning until then).\n"
           "A file that has one is verified and left as it is unless --set is given.\n\n"
           "  --set KEY=VALUE  replace (or add) the root string attribute KEY; the\n"
           "                   attributes that decide how a file is read (format, spec,\n"
           "                   encoder, target_mean, ...) cannot be set [none]\n"
           "  -h, --help       this help\n");
}

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

static int reserved_key(const char *key)
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
static int set_attrs(const char *part, char *const *sets, int n)
{
    int rc = hn_file_unseal(part);
    hid_t f = rc ? -1 : H5Fopen(part, H5F_ACC_RDWR, H5P_DEFAULT);
    if (!rc && f < 0)
        rc = hn_fail(HN_ERR_FORMAT, "%s: cannot be opened for writing as HDF5", part);
    for (int i = 0; !rc && i < n; i++) {
        char key[256];
        const char *eq = strchr(sets[i], '=');
        snprintf(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
        rc = hn_h5_attr_set_str(f, key, eq + 1);
    }
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot finish writing", part);
    return rc;
}

static int upgrade(const char *path, char *const *sets, int n)
{
    int sealed;
    hid_t f = hn_h5_open_read(path); /* verifies a checksum that is there */
    if (f < 0)
        return (int)f;
    H5Fclose(f);
    if (hn_file_verify(path, &sealed))
        return HN_ERR_FORMAT;
    if (sealed && n == 0) {
        printf("%s: checksum present and correct\n", path);
        return HN_OK;
    }
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
    printf("%s: %s%s\n", path, n > 0 ? "attributes replaced, " : "",
           sealed ? "checksum renewed" : "checksum added");
    return HN_OK;
}

int cli_nn_upgrade(int argc, char **argv)
{
    static const struct option opts[] = {{"set", required_argument, NULL, 's'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    char *sets[MAX_SETS];
    int n = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 's': {
            const char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || eq - optarg >= 256 || n >= MAX_SETS)
                return cli_usage("nn upgrade", "--set: expected KEY=VALUE (at most %d), got '%s'",
                                 MAX_SETS, optarg);
            char key[256];
            snprintf(key, sizeof key, "%.*s", (int)(eq - optarg), optarg);
            if (reserved_key(key))
                return cli_usage("nn upgrade",
                                 "--set: '%s' decides how the file is read and cannot be set", key);
            sets[n++] = optarg;
            break;
        }
        case 'h':
            upgrade_help();
            return CLI_EXIT_OK;
        default:
            return cli_usage("nn upgrade", "unknown option");
        }
    }
    if (argc - optind != 1)
        return cli_usage("nn upgrade", "expected one file");
    return upgrade(argv[optind], sets, n) ? cli_fail("nn upgrade") : CLI_EXIT_OK;
}
