/* Options shared by `heurnet train` and `heurnet ablate`: data files, loss,
 * optimiser, schedule, split, seed, threads; and the per-epoch CSV output. */
#ifndef HN_CLI_TRAIN_COMMON_H
#define HN_CLI_TRAIN_COMMON_H

#include "cli/opt.h"
#include <stdio.h>

#include "train/trn.h"

#define CLI_TRAIN_MAX_DATA 256

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
/* The options (cli/opt.h), the fields in a struct cli_train_cfg. */
extern const struct cli_opt cli_train_table[];
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
