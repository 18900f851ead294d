/* Private to the emp subcommands: shared instance options. */
#ifndef HN_CMD_EMP_H
#define HN_CMD_EMP_H

#include "cli/opt.h"
#include "search/emp/emp.h"

#define EMP_MAX_CLUE_ARGS 64

typedef struct {
    int format;
    int nclues;
    int clues[EMP_MAX_CLUE_ARGS][4];
} emp_inst_opts;

/* --format and --clue, the fields in an emp_inst_opts. */
extern const struct cli_opt emp_inst_table[];
/* Read the instance and add the clues; prints the reason and returns NULL on error. */
srch_em_inst *emp_load(const char *path, const emp_inst_opts *io);

int cmd_emp_solve(int argc, char **argv);
int cmd_emp_milp(int argc, char **argv);
int cmd_emp_clique(int argc, char **argv);
/* cmd_emp_learn.c: `emp gen-data` and the --scorer glue of `emp solve`. */
struct srch_em_scorer;
int cmd_emp_gendata(int argc, char **argv);
/* Load the scorer and set o->choose; CLI exit code (reason printed). */
int emp_scorer_attach(const char *path, const char *pick, const srch_em_inst *in, srch_em_opts *o,
                      struct srch_em_scorer **out);
void emp_scorer_report(const struct srch_em_scorer *s);
/* What every kind of gen-data takes besides its sampler's settings. */
typedef struct {
    int format, quiet, allow_shared;
    int decision; /* 0 move, 1 place, 2 break */
    const char *out;
} emp_data_args;
/* Those options, the fields in an emp_data_args. */
extern const struct cli_opt emp_data_table[];
/* Parse a gen-data command (its options at base, d among them) and check
 * that instances and -o are given: 0, -1 (help printed) or CLI_EXIT_USAGE. */
int emp_data_parse(const struct cli_opt_cmd *c, void *base, const emp_data_args *d, int argc,
                   char **argv, int *nargs);
/* A gen-data run: the training instances loaded (benchmark ones refused),
 * a progress bar over states per instance, gen called with them and their
 * paths, everything freed. CLI exit code (reason printed). */
typedef int (*emp_data_gen_fn)(void *user, const srch_em_inst *const *in, const char *const *paths,
                               int n, hn_progress *bar);
int emp_data_run(const emp_data_args *d, char **paths, int n, uint64_t states, emp_data_gen_fn gen,
                 void *user);
/* The samplers' progress callback onto that bar. */
void emp_data_progress(uint64_t done, uint64_t total, const char *extra, void *bar);
/* cmd_emp_place.c: `emp gen-data --decision place` and the place scorer's
 * glue in `emp solve`. */
int cmd_emp_gendata_place(int argc, char **argv);
int emp_place_attach(const char *path, double temp, const srch_em_inst *in, srch_em_opts *o,
                     srch_em_place_scorer **out);
void emp_place_report(const srch_em_place_scorer *s, double cpu_seconds);
/* A break model gates the backtracker's break phases (threshold NAN: the
 * model's; refuse >= 0: the random ablation instead of the network). */
int emp_break_attach(const char *path, double threshold, double refuse, const srch_em_inst *in,
                     srch_em_opts *o, srch_em_break_gate **out);
void emp_break_report(const srch_em_break_gate *g, double cpu_seconds);
/* cmd_emp_ab.c: `emp ab-stats`. */
int cmd_emp_ab_stats(int argc, char **argv);
/* cmd_emp_train.c: `emp train-place`. */
int cmd_emp_train_place(int argc, char **argv);

#endif
