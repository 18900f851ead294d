/* heurnet: one executable, thin subcommands that parse options and call the
 * libraries. Each subcommand lives in its own cli/cmd_*.c file. */
#include <stdio.h>
#include <string.h>

#include "cli/isolate.h"
#include "cli/cli.h"
#include "common/hn.h"
#include "common/hn_h5.h"

static int cmd_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("heurnet %s (%s)\n", hn_version(), hn_revision());
    return CLI_EXIT_OK;
}

static const struct {
    const char *name;
    cli_cmd_fn fn;
    const char *help;
} commands[] = {
    /* in pipeline order: data, training, search, other domains, export, import */
    {"domain", cmd_domain, "domains: list, info, check (built-in or a plug-in .so)"},
    {"pdb", cmd_pdb, "pattern databases: build (cached), info"},
    {"gen", cmd_gen, "label boards with optimal distances into an HDF5 dataset"},
    {"data", cmd_data, "datasets: info (counts, cost histogram), merge shards"},
    {"train", cmd_train, "train a model on labelled datasets (checkpoints, early stopping)"},
    {"avi", cmd_avi, "train without optimal labels: value iteration (DAVI), bootstrapping"},
    {"ablate", cmd_ablate, "train network variants on the same data and compare them"},
    {"nn", cmd_nn, "neural networks: init, info, demo"},
    {"predict", cmd_predict, "run a model over an HDF5 dataset or an instance file"},
    {"solve", cmd_solve,
     "search any domain (--domain): IDA*, A*, BWAS, beam, anytime, focal; PDB or network"},
    {"eval", cmd_eval, "a network search over an instance file (any domain): report and figures"},
    {"emp", cmd_emp, "edge-matching puzzles: solve, score, gen, gen-data, milp, clique"},
    {"export", cmd_export, "write a model as ONNX, Keras weights, C source or npy arrays"},
    {"import", cmd_import, "read an ONNX multilayer perceptron (PyTorch, Keras) as a model"},
    {"bench", cmd_bench, "throughput benchmarks (bench nn)"},
    {"version", cmd_version, "print the version and source revision"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "heurnet %s — neural-network heuristics for search\n\n"
            "usage: heurnet <command> [options] [args]\n\ncommands:\n",
            hn_version());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    fprintf(out, "\n'heurnet <command> --help' prints each command's options and defaults.\n");
}

/* Results go to stdout: a full disk or a closed pipe there must not end
 * in exit 0 with the records lost (checked once, after the command). */
static int stdout_closed(int rc)
{
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc == CLI_EXIT_OK) {
        fprintf(stderr, "heurnet: cannot write the results to standard output\n");
        return CLI_EXIT_FAIL;
    }
    return rc;
}

int main(int argc, char **argv)
{
    hn_isolate_set(cli_isolate); /* unverifiable files are read in a child first */
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version"))
        return cmd_version(argc - 1, argv + 1);
    /* After an H5Fclose that failed on a full disk, HDF5's exit-time cleanup
     * closes that file again and crashes (exit 139); every file is closed
     * explicitly, so the cleanup has nothing else to do. */
    H5dont_atexit();
    hn_h5_quiet();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return stdout_closed(commands[i].fn(argc - 1, argv + 1));
    fprintf(stderr, "heurnet: unknown command '%s'\nTry 'heurnet --help'.\n", argv[1]);
    return CLI_EXIT_USAGE;
}
