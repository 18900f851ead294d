/* Private to cli/cmd_ablate.c, cli/ablate_run.c and cli/ablate_report.c:
 * the configuration of `heurnet ablate`, its CSV columns, the runs spread
 * over worker processes, and the tables and plots. */
#ifndef HN_CLI_ABLATE_H
#define HN_CLI_ABLATE_H

#include "cli/predict_instances.h"
#include "cli/train_common.h"
#include "search/npuzzle/ann.h"
#include "train/ablate.h"

#define ABL_MAX_VARIANTS 64
#define ABL_MAX_SEEDS 1000
#define ABL_MAX_INST 4
#define ABL_MAX_COLS (8 + 3 * ABL_MAX_INST + 5)

/* A CSV column and how the table shows it. */
struct abl_col {
    char name[96];  /* CSV header */
    char label[96]; /* Markdown header */
    int pct;        /* shown as a percentage */
    int digits;     /* decimals in the table */
    int timing;     /* depends on the machine's load, not only on (variant, seed) */
    int compare;    /* part of the paired comparison */
};

/* Column indexes of the fixed part (instance and search columns follow). */
enum {
    ABL_PARAMS,
    ABL_EPOCHS,
    ABL_TRAIN_S,
    ABL_SPS,
    ABL_MSE,
    ABL_MAE,
    ABL_EXACT,
    ABL_OVER,
    ABL_NFIXED
};
/* Offsets of the search columns from a->col_search. */
enum { ABL_S_OPTIMAL, ABL_S_EXCESS, ABL_S_EXPANDED, ABL_S_SOLVED, ABL_S_TIME, ABL_NSEARCH };

struct ablate {
    struct cli_train_cfg c;
    struct trn_abl_list var;
    int nseeds, baseline, jobs; /* baseline: 0-based, -1 none */
    char inst[ABL_MAX_INST][4096];
    int ninst, goal[ABL_MAX_INST];
    const char *csv, *save, *plot;
    /* --search FILE[@GOAL][:N], --search-opts, --search-limit */
    char search[4096];
    int search_goal, search_n;
    const char *search_opts;
    uint64_t search_limit;
    /* set up before the runs */
    struct abl_col col[ABL_MAX_COLS];
    int ncol, col_search; /* col_search: first search column, -1 none */
    uint64_t seed[ABL_MAX_SEEDS];
    srch_np_instance *boards; /* the search boards, all with a known optimum */
    size_t nboards;
    int width;
    srch_np_ann_opts ann;
    srch_np_heur *floor; /* admissible part of the search heuristic, may be NULL */
    int rank, size;      /* under mpirun (cli/ablate_mpi.c); else 0, 1 */
    int ended;           /* rank 0: ranks that sent their end */
};

/* Split "SPEC[@LOSS]" into the training options of a variant; prints the
 * reason and returns CLI_EXIT_USAGE when it is not valid. */
int abl_variant_opts(const char *arg, const struct trn_opts *base, char *spec, size_t cap,
                     struct trn_opts *o);

/* Train every run missing from j on `jobs` worker processes, saving the
 * journal to a->csv after each. Returns 0 when all runs are in j, else an
 * exit code (a failed or interrupted run; messages printed). */
int abl_run_missing(struct ablate *a, const trn_data *d, trn_abl_journal *j);

/* Under mpirun (cli/ablate_mpi.c): MPI_Init and a->rank, a->size (0 or an
 * exit code); a row of a rank other than 0 sent to rank 0 (0 or an exit
 * code); rank 0 adds the rows that arrived to j and saves it (0 or an exit
 * code); the end of a rank's runs with its exit code rc: rank 0 first takes
 * every row and end of the others (j may be NULL: rows dropped). Returns
 * the worst exit code of all ranks. abl_mpi_end: MPI_Finalize. */
int abl_mpi_init(struct ablate *a);
/* The worst exit code rc of all ranks (collective; also a barrier). */
int abl_mpi_agree(int rc);
int abl_mpi_send_row(const char *row);
int abl_mpi_poll(struct ablate *a, trn_abl_journal *j);
int abl_mpi_finish(struct ablate *a, trn_abl_journal *j, int rc);
void abl_mpi_end(void);

/* The Markdown tables of the runs in j (means +- standard errors; paired
 * differences with --baseline) on stdout. */
void abl_report(const struct ablate *a, const trn_abl_journal *j);
/* The PNGs of --plot through gnuplot. Returns 0 or CLI_EXIT_FAIL. */
int abl_plot(const struct ablate *a, const trn_abl_journal *j);

#endif
