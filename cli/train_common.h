/* Options shared by `heurnet train` and `heurnet ablate`: data files, loss,
 * optimiser, schedule, split, seed, threads; and the per-epoch CSV output. */
#ifndef HN_CLI_TRAIN_COMMON_H
#define HN_CLI_TRAIN_COMMON_H

#include <getopt.h>
#include <stdio.h>

#include "train/trn.h"

#define CLI_TRAIN_MAX_DATA 256

enum {
    CLI_TRN_DATA = 1100,
    CLI_TRN_LOSS,
    CLI_TRN_BATCH,
    CLI_TRN_EPOCHS,
    CLI_TRN_LR,
    CLI_TRN_SCHED,
    CLI_TRN_LRSTEP,
    CLI_TRN_LRGAMMA,
    CLI_TRN_LRMIN,
    CLI_TRN_WD,
    CLI_TRN_VAL,
    CLI_TRN_SEED,
    CLI_TRN_THREADS,
    CLI_TRN_PATIENCE,
    CLI_TRN_QUIET,
    CLI_TRN_SOURCES,
    CLI_TRN_INCOMPLETE,
    CLI_TRN_DOMAIN
};

#define CLI_TRAIN_LONGOPTS                                                                         \
    {"data", required_argument, NULL, CLI_TRN_DATA},                                               \
        {"loss", required_argument, NULL, CLI_TRN_LOSS},                                           \
        {"batch", required_argument, NULL, CLI_TRN_BATCH},                                         \
        {"epochs", required_argument, NULL, CLI_TRN_EPOCHS},                                       \
        {"lr", required_argument, NULL, CLI_TRN_LR},                                               \
        {"lr-schedule", required_argument, NULL, CLI_TRN_SCHED},                                   \
        {"lr-step", required_argument, NULL, CLI_TRN_LRSTEP},                                      \
        {"lr-gamma", required_argument, NULL, CLI_TRN_LRGAMMA},                                    \
        {"lr-min", required_argument, NULL, CLI_TRN_LRMIN},                                        \
        {"weight-decay", required_argument, NULL, CLI_TRN_WD},                                     \
        {"val-fraction", required_argument, NULL, CLI_TRN_VAL},                                    \
        {"seed", required_argument, NULL, CLI_TRN_SEED},                                           \
        {"threads", required_argument, NULL, CLI_TRN_THREADS},                                     \
        {"patience", required_argument, NULL, CLI_TRN_PATIENCE},                                   \
        {"quiet", no_argument, NULL, CLI_TRN_QUIET},                                               \
        {"sources", required_argument, NULL, CLI_TRN_SOURCES},                                     \
        {"domain", required_argument, NULL, CLI_TRN_DOMAIN},                                       \
    {                                                                                              \
        "allow-incomplete", no_argument, NULL, CLI_TRN_INCOMPLETE                                  \
    }

struct cli_train_cfg {
    struct trn_opts o;
    const char *data[CLI_TRAIN_MAX_DATA];
    int ndata;
    double val_fraction;
    unsigned sources; /* mask of /source values, 0: all rows */
    int quiet;
    int allow_incomplete; /* train on the committed rows of an unfinished gen */
    const char *domain;   /* --domain: the domain of /states data (NULL: the data's) */
};

void cli_train_cfg_init(struct cli_train_cfg *c);
void cli_train_help(FILE *out, const struct cli_train_cfg *c);
/* Apply one option: 1 handled, 0 not one of ours, CLI_EXIT_USAGE printed. */
int cli_train_option(const char *cmd, struct cli_train_cfg *c, int opt, const char *arg);
/* Refuse data from an unfinished heurnet gen unless --allow-incomplete:
 * 0, or CLI_EXIT_FAIL with the message printed. */
int cli_train_check_complete(const char *cmd, const struct cli_train_cfg *c, const trn_data *d);

/* The domain the data is encoded through: --domain, else the --init-from
 * model's, else the one a domain dataset records (NULL *dm for data that
 * needs none). 0, or an exit code with the reason printed. */
struct dom;
int cli_train_open_domain(const char *cmd, const struct cli_train_cfg *c, struct dom **dm);
/* The data through domain dm (may be NULL); NULL with *code set and the
 * reason printed (a domain that does not fit is a usage error, exit 2). */
trn_data *cli_train_open_data(const char *cmd, const struct cli_train_cfg *c, const struct dom *dm,
                              int *code);

/* The CSV header and one epoch line (no newline handling beyond '\n'). */
void cli_train_csv_header(FILE *f);
void cli_train_csv_line(FILE *f, const struct trn_epoch *e);

#endif
