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

struct option;
/* A recorded search's word pair at tok[*i]: `--name=value` or `--name value`.
 * Returns the code (val) of the long option of opts[0..n) named so, -1 for
 * none (also without the dashes); *val gets the value, NULL when none
 * follows (then *i stays, else it steps past a separate value). */
int cli_setting_pair(const struct option *opts, size_t n, char **tok, int ntok, int *i,
                     const char **val);
int cli_parse_u64(const char *s, uint64_t *out);
int cli_parse_double(const char *s, double *out);
/* sum / n printed with fmt into buf, or "n/a" when n is 0: a search that
 * solved nothing is not a result of zeros. Returns buf. */
const char *cli_mean_or_na(char buf[32], const char *fmt, double sum, size_t n);

/* --puzzle N (a cli/opt.h CLI_FN): the width W of the (W*W - 1)-puzzle into an int. */
int cli_puzzle_parse(void *field, const char *v);

/* The log sink the command line installs: warnings to stderr, info unless --quiet. */
void cli_log_init(int quiet);

/* Subcommands (one file each in cli/). */
int cmd_nn(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_export(int argc, char **argv); /* cli/cmd_export.c */
int cmd_import(int argc, char **argv); /* cli/cmd_import.c */
int cmd_bench(int argc, char **argv);
int cmd_gen(int argc, char **argv);  /* cli/cmd_gen.c */
int cmd_data(int argc, char **argv); /* cli/cmd_data.c */
int cmd_emp(int argc, char **argv);
int cmd_pdb(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_eval(int argc, char **argv);   /* cli/dom_eval.c */
int cmd_train(int argc, char **argv);  /* cli/cmd_train.c */
int cmd_ablate(int argc, char **argv); /* cli/cmd_ablate.c */
int cmd_avi(int argc, char **argv);    /* cli/cmd_avi.c */
int cmd_domain(int argc, char **argv); /* cli/cmd_domain.c */

/* ---- solve/ with messages printed (cli/solve_glue.c) ----------------- */
/* Each calls the heurnet_ function of the same purpose (solve/pdb_cache.h,
 * solve/search.h) and on failure prints the reason and
 * returns CLI_EXIT_USAGE (bad name or spec) or CLI_EXIT_FAIL; cli_pdb_dir
 * returns -1. */
struct srch_np_pdb;
struct srch_np_heur;
struct srch_np_partition;
struct srch_np_ann_opts;
struct heurnet_search;
int cli_pdb_dir(char *buf, size_t cap);
int cli_pdb_get(int width, const char *partition, int goal, int quiet, struct srch_np_pdb **out);
int cli_pdb_build(const struct srch_np_partition *part, int threads, int quiet,
                  struct srch_np_pdb **out);
int cli_heur_get(const char *spec, int width, int goal, int quiet, struct srch_np_heur **out);
/* heurnet_ann_spec_check / heurnet_ann_settings_parse, printing the reason:
 * 0 or CLI_EXIT_USAGE. */
int cli_ann_spec_check(const char *spec, char *floor, size_t cap);
int cli_ann_settings_parse(const char *settings, struct srch_np_ann_opts *o, char *floor,
                           size_t cap);
int cli_search_setup(struct heurnet_search *s, const char *spec, const char *adm_spec, int width,
                     int goal, int quiet);

#endif
