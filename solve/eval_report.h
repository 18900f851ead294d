/* Private to cli/cmd_eval.c and cli/eval_report.c: one evaluated board and
 * the report writer (instances.tsv, summary.md, gnuplot figures). */
#ifndef HN_CLI_EVAL_REPORT_H
#define HN_CLI_EVAL_REPORT_H

#include <stdio.h>

#include "search/ann.h"

typedef struct eval_row {
    const srch_np_instance *x;
    int optimal;        /* -1 unknown */
    char opt_src;       /* 'k' known from the file, 'b' computed by the baseline, '-' */
    float ann_h;        /* network estimate of the start board (moves) */
    int base_h;         /* baseline heuristic of the start board */
    srch_np_result ann; /* search with the network */
    srch_np_ann_stats nn;
    int ann_valid; /* solution replays to the goal */
    int has_base;  /* baseline search ran */
    srch_np_result base;
    int base_valid;
} eval_row;

/* What the report says about the run. */
typedef struct eval_info {
    const char *model, *instances, *heuristic, *algo, *baseline, *baseline_algo, *goal;
    int puzzle, batch;
    double weight, bound;
    size_t in_file; /* boards in the file */
    size_t total;   /* boards to evaluate (--limit); rows may be fewer if interrupted */
    int interrupted;
    double wall;
} eval_info;

/* Write instances.tsv, summary.md, plots.gp and (when gnuplot runs) the PNG
 * figures into directory `dir`. Returns 0, or -1 after printing the reason.
 * *plots is set to 1 when the figures were drawn. */
int eval_report_write(const char *dir, const eval_info *info, const eval_row *rows, size_t n,
                      int quiet, int *plots);
/* Print the headline numbers (the same as summary.md's first table) to `out`. */
void eval_report_headline(FILE *out, const eval_row *rows, size_t n);

#endif
