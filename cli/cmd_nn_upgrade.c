/* heurnet nn upgrade: give a model, dataset or checkpoint written by an older
 * heurnet its checksum, and optionally replace string attributes of its
 * training record (e.g. a path that pointed outside a repository); the work
 * is hn_h5_upgrade's (common/h5_upgrade.c). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "common/hn.h"
#include "common/hn_h5.h"

#define MAX_SETS 16

struct upgrade_cli {
    const char *sets[MAX_SETS];
    int n;
};

/* --set KEY=VALUE, checked here so a bad one is misuse before any copy */
static int set_parse(void *field, const char *v)
{
    struct upgrade_cli *u = field;
    const char *eq = strchr(v, '=');
    char key[256];
    if (!eq || eq == v || eq - v >= 256 || u->n >= MAX_SETS)
        return hn_fail(HN_ERR_ARG, "expected KEY=VALUE (at most %d), got '%s'", MAX_SETS, v);
    snprintf(key, sizeof key, "%.*s", (int)(eq - v), v);
    if (hn_h5_attr_reserved(key))
        return hn_fail(HN_ERR_ARG, "'%s' decides how the file is read and cannot be set", key);
    u->sets[u->n++] = v;
    return 0;
}

static const struct cli_opt upgrade_opts[] = {
    CLI_FN("set", 0, set_parse, "KEY=VALUE",
           "replace (or add) the root string attribute KEY; the attributes that decide how a "
           "file is read (format, spec, encoder, target_mean, ...) cannot be set [none]"),
    CLI_END};
static const struct cli_opt_cmd upgrade_cmd = {
    .cmd = "nn upgrade",
    .usage = "nn upgrade FILE [--set KEY=VALUE]...\n\n"
             "Add the checksum heurnet now writes at the end of every model, dataset and\n"
             "checkpoint to FILE (an older heurnet's file loads with a warning until then).\n"
             "A file that has one is verified and left as it is unless --set is given.\n\n",
    .opts = upgrade_opts,
    .max_args = 1 << 20}; /* counted below */

int cli_nn_upgrade(int argc, char **argv)
{
    struct upgrade_cli u = {.n = 0};
    int nargs, done, rc = cli_opt_parse(&upgrade_cmd, &u, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (nargs != 1)
        return cli_usage("nn upgrade", "expected one file");
    if (hn_h5_upgrade(argv[1], u.sets, u.n, &done))
        return cli_fail("nn upgrade");
    if (done == HN_UPGRADE_NONE)
        printf("%s: checksum present and correct\n", argv[1]);
    else
        printf("%s: %s%s\n", argv[1], u.n > 0 ? "attributes replaced, " : "",
               done == HN_UPGRADE_RENEWED ? "checksum renewed" : "checksum added");
    return CLI_EXIT_OK;
}
