/* solve, ablations: training several network variants with several seeds
 * on the same data and split, measuring each run (validation metrics, the
 * instance files, A* on boards with known optimal lengths), spreading the
 * runs over forked workers and MPI ranks, and the Markdown tables and
 * gnuplot PNGs of the results. The statistics and the CSV journal are
 * train/ablate.h. Nothing prints: lines about the runs go through
 * on_message, epoch lines through on_epoch. Private to the library and
 * the command line (not installed). */
#ifndef HEURNET_SOLVE_ABLATE_H
#define HEURNET_SOLVE_ABLATE_H

#include <stdio.h>

#include "domains/dom.h"
#include "train/ablate.h"
#include "train/trn.h"

#define HEURNET_ABL_MAX_VARIANTS 64
#define HEURNET_ABL_MAX_SEEDS 1000
#define HEURNET_ABL_MAX_INST 4
#define HEURNET_ABL_MAX_COLS (8 + 3 * HEURNET_ABL_MAX_INST + 5)

/* A CSV column and how the table shows it. */
struct heurnet_abl_col {
    char name[96];  /* CSV header */
    char label[96]; /* Markdown header */
    int pct;        /* shown as a percentage */
    int digits;     /* decimals in the table */
    int timing;     /* depends on the machine's load, not only on (variant, seed) */
    int compare;    /* part of the paired comparison */
};

/* Column indexes of the fixed part (instance and search columns follow). */
enum {
    HEURNET_ABL_PARAMS,
    HEURNET_ABL_EPOCHS,
    HEURNET_ABL_TRAIN_S,
    HEURNET_ABL_SPS,
    HEURNET_ABL_MSE,
    HEURNET_ABL_MAE,
    HEURNET_ABL_EXACT,
    HEURNET_ABL_OVER,
    HEURNET_ABL_NFIXED
};
/* Offsets of the search columns from col_search. */
enum {
    HEURNET_ABL_S_OPTIMAL,
    HEURNET_ABL_S_EXCESS,
    HEURNET_ABL_S_EXPANDED,
    HEURNET_ABL_S_SOLVED,
    HEURNET_ABL_S_TIME,
    HEURNET_ABL_NSEARCH
};

/* What on_message gets: a line about the ablation, the failure of a
 * library call (the text is its hn_errmsg), or a bad line of an instance
 * file (as the parser words it). */
enum { HEURNET_ABL_SAY = 0, HEURNET_ABL_FAIL = 1, HEURNET_ABL_BAD_LINE = 2 };

/* An ablation. The caller fills the settings; the library fills the rest
 * (heurnet_ablate_columns, heurnet_ablate_search_boards,
 * heurnet_ablate_journal_open, heurnet_ablate_mpi_init) and
 * heurnet_ablate_clear frees what the struct owns. */
struct heurnet_ablate {
    /* ---- settings --------------------------------------------------- */
    struct trn_opts o;       /* shared training options; o.seed is the first seed */
    const char *const *data; /* the dataset files, by base name in the config tag */
    int ndata;
    double val_fraction;
    unsigned sources;
    struct trn_abl_list var;    /* "SPEC[@LOSS]" per variant (owned) */
    int nseeds, baseline, jobs; /* baseline: 0-based, -1 none */
    char inst[HEURNET_ABL_MAX_INST][4096];
    int ninst, goal[HEURNET_ABL_MAX_INST];
    const char *csv, *save; /* save: model file prefix, may be NULL */
    /* A* with each model: the first search_n states with a known optimum
     * of `search` ("" none), an n-puzzle file in layout search_goal (-1: the
     * data's; goal[k] likewise for inst[k]), with the settings search_opts
     * of an ann: spec after "ann:SELF" (scale:10,pdb:7-8), search_limit
     * expanded states each */
    char search[4096];
    int search_goal, search_n;
    const char *search_opts;
    uint64_t search_limit;
    /* the data's domain (NULL: the library opens the n-puzzle of /boards
     * data, heurnet_ablate_domain): the files are read through it and
     * searched by the one search core */
    const dom *dom;
    /* where the library reports (each may be NULL); a worker's calls come
     * from its own process */
    void (*on_epoch)(const char *run, const struct trn_epoch *e, void *user);
    void (*on_message)(int kind, const char *msg, void *user);
    void *user;
    /* ---- set up by the library -------------------------------------- */
    struct heurnet_abl_col col[HEURNET_ABL_MAX_COLS];
    int ncol, col_search; /* col_search: first search column, -1 none */
    uint64_t seed[HEURNET_ABL_MAX_SEEDS];
    dom *own_dom;             /* the n-puzzle of /boards data, when dom was NULL */
    dom *search_dom;          /* the search file's domain (its layout), owned */
    dom_instance_rec *states; /* the search states, all with a known optimum */
    size_t nboards;
    int rank, size; /* under mpirun (heurnet_ablate_mpi_init); else 0, 1 */
    int ended;      /* rank 0: ranks that sent their end */
};

/* Split "SPEC[@LOSS]" into the training options of a variant (o is base
 * with the variant's architecture in spec and its loss). HN_ERR_ARG with a
 * message when it is not valid. */
int heurnet_ablate_variant(const char *arg, const struct trn_opts *base, char *spec, size_t cap,
                           struct trn_opts *o);

/* The CSV columns: the fixed ones, three per instance file, five for A*. */
void heurnet_ablate_columns(struct heurnet_ablate *a);

/* The domain the files are read through: a->dom, or for n-puzzle /boards
 * data its n-puzzle in the data's layout. HN_ERR_ARG for data of no
 * domain (/x rows) when --search or --instances is given. */
int heurnet_ablate_domain(struct heurnet_ablate *a, const trn_data *d);

/* Read the search states: those with a known optimum, the first
 * search_n (nboards may be 0). Each bad line goes to on_message. The
 * status of reading the file. */
int heurnet_ablate_search_boards(struct heurnet_ablate *a);

/* The seeds and the journal of this ablation with the rows of a->csv. The
 * rows carry a tag of every setting the runs share, so a rerun with other
 * data, training or search options does not mix its runs with the old
 * ones. NULL with *status (HN_ERR_NOMEM, or what loading the CSV failed
 * with) and hn_errmsg. */
trn_abl_journal *heurnet_ablate_journal_open(struct heurnet_ablate *a, const trn_data *d,
                                             int *status);

/* Train every run missing from j on `jobs` forked worker processes (under
 * mpirun, this rank's share), saving the journal to a->csv after each.
 * Returns 0 when all runs are in j, else a status (a failed or interrupted
 * run; the reasons went to on_message). */
int heurnet_ablate_run_missing(struct heurnet_ablate *a, const trn_data *d, trn_abl_journal *j);

/* Under mpirun: MPI_Init and a->rank, a->size (0 or a status). */
int heurnet_ablate_mpi_init(struct heurnet_ablate *a);
/* The largest rc of all ranks (collective; also a barrier). */
int heurnet_ablate_mpi_agree(int rc);
/* The end of a rank's runs with its result rc: rank 0 first takes every
 * row and end of the others into j (may be NULL: rows dropped); `fail`
 * is its rc when another rank or row failed and its own rc was 0. Returns
 * heurnet_ablate_mpi_agree of the results. */
int heurnet_ablate_mpi_finish(struct heurnet_ablate *a, trn_abl_journal *j, int rc, int fail);
/* MPI_Finalize. */
void heurnet_ablate_mpi_end(void);

/* The Markdown tables of the runs in j (means +- standard errors; paired
 * differences with a baseline) to f. */
void heurnet_ablate_report(FILE *f, const struct heurnet_ablate *a, const trn_abl_journal *j);
/* PREFIX-curves.png, PREFIX-metrics.png and, with a search, PREFIX-search.png
 * through gnuplot; each file written or missing goes to on_message.
 * Returns 0 or a status (the reason went to on_message). */
int heurnet_ablate_plot(const struct heurnet_ablate *a, const trn_abl_journal *j,
                        const char *prefix);

/* Free what a owns (variants, states, domains). */
void heurnet_ablate_clear(struct heurnet_ablate *a);

#endif
