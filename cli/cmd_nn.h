/* Options shared by the commands that build a network from a spec string
 * (nn init, nn demo, bench nn): --arch and the hidden-layer defaults. */
#ifndef HN_CLI_CMD_NN_H
#define HN_CLI_CMD_NN_H

#include <getopt.h>
#include <stdio.h>

#include "cli/opt.h"
#include "nn/nn.h"

enum { CLI_OPT_ACT = 1000, CLI_OPT_BN, CLI_OPT_NOBN, CLI_OPT_DROPOUT, CLI_OPT_INIT };

/* getopt_long entries for --act --bn --no-bn --dropout --init (no terminator). */
#define CLI_ARCH_LONGOPTS                                                                          \
    {"act", required_argument, NULL, CLI_OPT_ACT}, {"bn", no_argument, NULL, CLI_OPT_BN},          \
        {"no-bn", no_argument, NULL, CLI_OPT_NOBN},                                                \
        {"dropout", required_argument, NULL, CLI_OPT_DROPOUT},                                     \
    {                                                                                              \
        "init", required_argument, NULL, CLI_OPT_INIT                                              \
    }

/* Those options as a table (cli/opt.h), their fields in a struct
 * nn_layer_defaults. */
extern const struct cli_opt cli_arch_opts[];
/* Help lines for those options, with the defaults of `d`. */
void cli_arch_help(FILE *out, const struct nn_layer_defaults *d);
/* Apply one of the options above to d. Returns 1 if `opt` was one of them,
 * 0 if not, CLI_EXIT_USAGE (message printed) for a bad value. */
int cli_arch_option(const char *cmd, int opt, const char *arg, struct nn_layer_defaults *d);
/* Parse --arch with the defaults; prints the position of an error. Returns
 * 0 or CLI_EXIT_USAGE. */
int cli_arch_parse(const char *cmd, const char *arch, const struct nn_layer_defaults *d,
                   struct nn_spec *out);
/* A command with sub-commands ("nn init", "bench nn"): table and dispatch.
 * Prints the table for --help (exit 0) or no argument (exit 2). */
struct cli_subcmd {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *help;
};
int cli_subcmd_run(const char *cmd, const struct cli_subcmd *table, size_t n, int argc,
                   char **argv);

/* heurnet nn upgrade (cli/cmd_nn_upgrade.c). */
int cli_nn_upgrade(int argc, char **argv);

/* The defaults the command line starts from: docs/nn.md's elu, bn,
 * dropout 0.1, He. */
struct nn_layer_defaults cli_arch_defaults(void);

#endif
