/* Private to cli/annsearch.c, cmd_solve.c and cmd_eval.c: choosing the
 * search algorithm and building heuristics that may contain a network
 * (`ann:M.h5[,pdb:7-8][,delta:D][,scale:S][,cache:BITS]`). */
#ifndef HN_CLI_ANNSEARCH_H
#define HN_CLI_ANNSEARCH_H

#include "search/ann.h"

enum cli_algo {
    CLI_ALGO_IDASTAR = 0,
    CLI_ALGO_ASTAR = 1,
    CLI_ALGO_WASTAR = 2,
    CLI_ALGO_BATCH = 3,
    CLI_ALGO_FOCAL = 4
};

/* A configured search: the algorithm, its settings and its heuristics. */
typedef struct cli_search {
    int algo;
    srch_np_bfs_opts bfs; /* batch and weight (wastar, batch-astar) */
    double bound;         /* focal */
    srch_np_heur *h;      /* the heuristic that guides the search */
    srch_np_heur *adm;    /* focal: the admissible heuristic that proves the bound */
} cli_search;

/* "idastar", "astar", "wastar", "batch-astar", "focal" -> *algo; 0 or -1. */
int cli_algo_parse(const char *s, int *algo);
const char *cli_algo_name(int algo);

/* Build s->h from `spec` (any name cli_heur_get knows, or an ann: spec) and,
 * for focal, s->adm from `adm_spec` (NULL: the admissible part of the ann:
 * spec, else the default PDB of the width). Refuses combinations that
 * cannot work (fixed-point values in IDA*). Returns 0, or CLI_EXIT_FAIL /
 * CLI_EXIT_USAGE after printing the reason. */
int cli_search_setup(cli_search *s, const char *spec, const char *adm_spec, int width, int goal,
                     int quiet);
void cli_search_free(cli_search *s);

/* Solve one board with the configured search; nn gets the network counters
 * of this call (zero without a network). Returns res->status. */
int cli_search_solve(const cli_search *s, const srch_np_board *b, const srch_limits *lim,
                     srch_np_result *res, srch_np_ann_stats *nn);

/* The default heuristic name for a board width (pdb:8, pdb:7-8, pdb:6-6-6-6). */
const char *cli_default_heuristic(int width);

#endif
