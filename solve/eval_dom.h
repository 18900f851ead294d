/* solve/eval_dom.h: the report of heurnet eval on any domain (instances.tsv,
 * summary.md, gnuplot figures): per state, the search's result against the
 * length the instance file gives, which is a known optimum or a reference
 * (another solver's solution length, as DeepCubeA's for the 35-puzzle). */
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
    int known; /* the file's length, -1 when none */
    int status;
    int valid; /* the solution replays to the goal */
    int length;
    int h0;
    int proven;
    uint64_t expanded, generated, rows;
    double seconds;
    double time_limit; /* this state's limit (s), 0 = none */
    int phases;        /* anytime: passes run to their end */
    int saved;         /* moves the window shortcut removed */
} heurnet_dom_eval_row;

typedef struct heurnet_dom_eval_info {
    const char *domain, *instances, *model, *search, *heuristic, *limits;
    int reference; /* 1: the file's lengths are references, not optima */
    size_t in_file;
    int interrupted;
    double wall;
} heurnet_dom_eval_info;

typedef struct heurnet_dom_eval_sum {
    size_t n, solved, with_known, shorter, equal, longer, proven;
    double length, length_known, known, expanded, rows, seconds, seconds_max;
    int excess_max;
    double expanded_all, rows_all; /* over every state, solved or not */
} heurnet_dom_eval_sum;

/* Totals over the rows (solved = solved and replayed; expanded and rows
 * over those, expanded_all and rows_all over every state, an unsolved one
 * with what it spent before its limit). */
void heurnet_dom_eval_summarize(const heurnet_dom_eval_row *rows, size_t n,
                                heurnet_dom_eval_sum *s);
/* One line of the headline figures to out: "n/a" for a figure with no
 * basis (no state solved, no length in the file). */
void heurnet_dom_eval_headline(FILE *out, const heurnet_dom_eval_info *info,
                               const heurnet_dom_eval_row *rows, size_t n);
/* instances.tsv, summary.md, plots.gp and (with gnuplot) length.png,
 * diff.png, seconds.png into the existing folder dir. 0, or HN_ERR_IO with
 * hn_errmsg naming the file; *plots = 1 when the figures were drawn. */
int heurnet_dom_eval_report_write(const char *dir, const heurnet_dom_eval_info *info,
                                  const heurnet_dom_eval_row *rows, size_t n, int *plots);

/* The limits of state i of n: lim, with a time budget (mean seconds per
 * state over the run, 0 = none) the time left over the states left, used
 * being the seconds spent so far (lim's time limit still caps it). */
srch_limits heurnet_dom_budget_limits(const srch_limits *lim, double budget, size_t i, size_t n,
                                      double used);
/* One state searched with limits lim into *res (scratch; holds the moves)
 * and its report row *r, the solution replayed (r->valid). */
void heurnet_dom_eval_state(heurnet_dom_search *s, const dom_instance_rec *x,
                            const srch_limits *lim, srch_dom_result *res, heurnet_dom_eval_row *r);
/* Every state of inst[n] in turn, each with its share of `budget` (mean
 * seconds per state, 0 = the settings' limits alone), into rows[n], with a
 * progress line on stderr unless quiet; *done counts the states searched
 * (fewer after a stop request). 0, or a status with hn_errmsg() (the
 * goal's ball could not be built, out of memory). */
int heurnet_dom_eval_run(heurnet_dom_search *s, const dom_instance_rec *inst, size_t n,
                         double budget, int quiet, heurnet_dom_eval_row *rows, size_t *done);

HEURNET_API_END

#endif
