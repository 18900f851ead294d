/* solve/eval_dom.h: heurnet eval on any domain, for programs that embed
 * heurnet: every state of an instance file searched (each given its share
 * of a time budget), each solution replayed, an optional admissible
 * baseline search of the same state (its optimum when the file has none,
 * its expansions for the difficulty classes of Cahlik & Surynek 2019,
 * Table 1), the heuristic's error at the start against the optimum, and
 * the report folder: instances.tsv (docs/formats.md), summary.md and
 * gnuplot figures. Nothing prints but the progress line. */
#ifndef HEURNET_SOLVE_EVAL_DOM_H
#define HEURNET_SOLVE_EVAL_DOM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/hn.h"
#include "solve/dom_search.h"

HEURNET_API_BEGIN

typedef struct heurnet_dom_eval_row {
    char id[32];
    int line;
    int known;    /* the file's length, -1 when none */
    int optimal;  /* the optimum: the file's (not a reference), else the baseline's; -1 none */
    char opt_src; /* 'k' the file, 'b' the baseline, '-' none */
    int status;
    int valid; /* the solution replays to the goal */
    int length;
    int h0;
    int proven;
    uint64_t expanded, generated, rows;
    double seconds;
    double nn_seconds; /* in the network (its calls timed) */
    double time_limit; /* this state's limit (s), 0 = none */
    int phases;        /* anytime: passes run to their end */
    int saved;         /* moves the window shortcut removed */
    double h_start;    /* the search heuristic's estimate of the start (cost units, before
                          offset, scale and floor) */
    /* the baseline: its heuristic's value of the start (has_base_h), and
     * its search (has_base) */
    int has_base_h, has_base;
    double base_h;
    int base_status, base_valid, base_length;
    uint64_t base_expanded;
    double base_seconds;
} heurnet_dom_eval_row;

typedef struct heurnet_dom_eval_info {
    const char *domain, *instances, *model, *search, *heuristic, *limits;
    const char *baseline, *baseline_algo; /* NULL: no baseline heuristic; "none": not searched */
    int reference;                        /* 1: the file's lengths are references, not optima */
    size_t in_file;
    int interrupted;
    double wall;
} heurnet_dom_eval_info;

/* Figures over the rows: "solved" = solved and replayed; sums over the
 * solved states unless said. */
typedef struct heurnet_dom_eval_sum {
    size_t n, solved, proven;
    size_t with_opt, optimal;      /* solved states with an optimum, and at it */
    size_t with_known;             /* solved states with a length in the file */
    size_t shorter, equal, longer; /* ... against it */
    double length, length_known;   /* all solved; those with a length in the file */
    double known, excess;          /* the file's lengths; length - optimum */
    int excess_max;                /* over the states with an optimum */
    double expanded, rows, nn_seconds, expanded_median;
    double seconds, seconds_max; /* over every state */
    double seconds_solved, seconds_median;
    double expanded_all, rows_all; /* over every state, an unsolved one until its limit */
    size_t base_ran, base_solved;  /* baseline searches, solved ones */
    double base_expanded, base_expanded_median, base_seconds; /* means over base_solved */
    size_t nerr;                     /* states with an optimum (the errors' basis) */
    double h_err, h_abs_err, h_over; /* mean, mean absolute, share over by > half a move */
    size_t nbase_err;
    double base_err; /* the baseline heuristic's mean error */
} heurnet_dom_eval_sum;

/* The figures of rows[n]: 0, or HN_ERR_NOMEM (the medians' buffer). */
int heurnet_dom_eval_summarize(const heurnet_dom_eval_row *rows, size_t n, heurnet_dom_eval_sum *s);
/* One line of the headline figures to out: "n/a" for a figure with no
 * basis (no state solved, no length in the file, no baseline). */
void heurnet_dom_eval_headline(FILE *out, const heurnet_dom_eval_info *info,
                               const heurnet_dom_eval_row *rows, size_t n);
/* instances.tsv, summary.md, plots.gp and (with gnuplot) the figures that
 * have data (heurnet_dom_eval_report_files) into the existing folder dir.
 * 0, or HN_ERR_IO / HN_ERR_NOMEM with hn_errmsg naming the file; *plots =
 * 1 when figures were drawn. Without gnuplot there are no figures (a
 * logged warning); a gnuplot that fails or leaves a figure cut short is an
 * error. */
int heurnet_dom_eval_report_write(const char *dir, const heurnet_dom_eval_info *info,
                                  const heurnet_dom_eval_row *rows, size_t n, int *plots);

/* The limits of state i of n: lim, with a time budget (mean seconds per
 * state over the run, 0 = none) the time left over the states left, used
 * being the seconds spent so far (lim's time limit still caps it), and
 * never below HEURNET_DOM_EVAL_MIN_SHARE. */
#define HEURNET_DOM_EVAL_MIN_SHARE 1e-3
srch_limits heurnet_dom_budget_limits(const srch_limits *lim, double budget, size_t i, size_t n,
                                      double used);

/* A run: the search s, the baseline search (NULL: none; an admissible
 * heuristic and an optimal algorithm, run with s's limits but no budget)
 * and whether the file's lengths are references. */
typedef struct heurnet_dom_eval_run_opts {
    heurnet_dom_search *s, *base;
    srch_dom_heur *base_h; /* the baseline heuristic for base_h (NULL: base's, or none) */
    int reference;
    double budget; /* mean seconds per state, 0 = the settings' limits alone */
    int quiet;     /* no progress line on stderr */
} heurnet_dom_eval_run_opts;

/* One state: the baseline first, then the search with limits lim; res is
 * scratch. */
void heurnet_dom_eval_state(const heurnet_dom_eval_run_opts *o, const dom_instance_rec *x,
                            const srch_limits *lim, srch_dom_result *res, heurnet_dom_eval_row *r);
/* Every state of inst[n] in turn into rows[n]; *done counts the states
 * searched (fewer after a stop request: the state it cut is left out). 0,
 * or a status with hn_errmsg() (a heuristic that does not load, out of
 * memory). */
int heurnet_dom_eval_run(const heurnet_dom_eval_run_opts *o, const dom_instance_rec *inst, size_t n,
                         heurnet_dom_eval_row *rows, size_t *done);

HEURNET_API_END

#endif
