/* Shared pieces of the heurnet command line: the subcommand signature, exit
 * codes, and helpers for reporting errors and parsing numbers. */
#ifndef HN_CLI_H
#define HN_CLI_H

#include <stddef.h>
#include <stdint.h>

enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* Every subcommand: argv[0] is the subcommand name. Returns an exit code. */
typedef int (*cli_cmd_fn)(int argc, char **argv);

/* Print "heurnet: <what>: <library message>" to stderr; returns CLI_EXIT_FAIL. */
int cli_fail(const char *what);
/* Print "heurnet <cmd>: <msg>" and a hint to run --help; returns CLI_EXIT_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict number parsing for every numeric option: the whole string must be
 * a plain decimal number in range (no blanks, no "+", "-" only for signed
 * ranges and reals, no hex, inf or nan, no overflow).
 * Return 0 on success, -1 otherwise (nothing printed). */
int cli_parse_long(const char *s, long lo, long hi, long *out);
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_double(const char *s, double *out);

/* The log sink the command line installs: warnings to stderr, info unless --quiet. */
void cli_log_init(int quiet);

/* Subcommands (one file each in cli/). */
int cmd_nn(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_export(int argc, char **argv); /* cli/cmd_export.c */
int cmd_bench(int argc, char **argv);
int cli_bench_search(int argc, char **argv); /* cli/bench_search.c: `bench search` */
int cmd_gen(int argc, char **argv);  /* cli/cmd_gen.c */
int cmd_data(int argc, char **argv); /* cli/cmd_data.c */
int cmd_emp(int argc, char **argv);
int cmd_pdb(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_eval(int argc, char **argv); /* cli/cmd_eval.c */
int cmd_train(int argc, char **argv);  /* cli/cmd_train.c */
int cmd_ablate(int argc, char **argv); /* cli/cmd_ablate.c */
int cmd_avi(int argc, char **argv);    /* cli/cmd_avi.c */

/* ---- pattern databases and heuristics (cli/pdbcache.c) ---------------- */
struct srch_np_pdb;
struct srch_np_heur;
/* Directory of cached PDB files: $HEURNET_DATA, else ~/.cache/heurnet
 * (created if missing). Returns 0 or -1 (message printed). */
int cli_pdb_dir(char *buf, size_t cap);
/* The PDB of `partition` ("7-8", "6-6-3", ...) for a `width` board: loaded
 * from the cache, or built on first use (progress on stderr unless quiet)
 * and saved there. `goal` is the goal layout the caller works in (one table
 * serves both). Returns 0 with *out (free with srch_np_pdb_free), or
 * CLI_EXIT_FAIL / CLI_EXIT_USAGE after printing the reason. */
int cli_pdb_get(int width, const char *partition, int goal, int quiet, struct srch_np_pdb **out);
/* A heuristic from its command-line name: "manhattan", "lc", "pdb:7-8"
 * (reflected lookup), "pdb:7-8:noreflect", "max:lc,pdb:6-6-3". PDBs come from
 * cli_pdb_get. Returns 0 with *out (free with srch_np_heur_free), or
 * CLI_EXIT_FAIL / CLI_EXIT_USAGE after printing the reason. */
int cli_heur_get(const char *spec, int width, int goal, int quiet, struct srch_np_heur **out);

#endif
