/* Searches configured by name, as heurnet solve and heurnet eval take them:
 * the algorithm ("astar", "focal", ...) and heuristics that may contain a
 * network (`ann:M.h5[,pdb:7-8][,delta:D][,scale:S][,mirror][,cache:BITS]`).
 * A program that embeds heurnet gets the same heuristics as the command line. */
#ifndef HEURNET_SOLVE_SEARCH_H
#define HEURNET_SOLVE_SEARCH_H

#include "search/npuzzle/ann.h"

HEURNET_API_BEGIN

enum heurnet_algo {
    HEURNET_ALGO_IDASTAR = 0,
    HEURNET_ALGO_ASTAR = 1,
    HEURNET_ALGO_WASTAR = 2,
    HEURNET_ALGO_BATCH = 3,
    HEURNET_ALGO_FOCAL = 4,
    HEURNET_ALGO_BWAS = 5,   /* batch-astar ordered by lambda*g + h; bfs.weight holds lambda */
    HEURNET_ALGO_ANYTIME = 6 /* A* phases over rising deltas (srch_np_anytime) */
};

/* A configured search: the algorithm, its settings and its heuristics. Set
 * algo, bfs and bound, then call heurnet_search_setup. */
typedef struct heurnet_search {
    int algo;                          /* enum heurnet_algo */
    srch_np_bfs_opts bfs;              /* batch and weight (wastar, batch-astar; bwas: lambda) */
    double bound;                      /* focal */
    double deltas[SRCH_NP_MAX_DELTAS]; /* anytime: the schedule */
    int ndeltas;
    double weights[SRCH_NP_MAX_WEIGHTS]; /* anytime: its weighted phases' weights, falling */
    int nweights;                        /* 0: no weighted phase */
    srch_np_heur *h;                     /* the heuristic that guides the search (owned) */
    srch_np_heur *adm; /* focal: the admissible heuristic that proves the bound; anytime:
                          the one under max(h - delta, adm) (owned) */
    int threads;       /* search threads sharing the heuristic (each has its own
                          ann: cache, checked against physical memory); 0 counts as 1 */
    srch_np_shortcut_opts shortcut; /* windows re-solved in every solution (anytime: in
                                       every incumbent); max_window 0 = off */
    srch_np_ida_opts ida;           /* anytime: its IDA* stage (on 0: none) */
} heurnet_search;

/* "idastar", "astar", "wastar", "batch-astar", "focal", "bwas", "anytime" -> *algo;
 * 0 or -1. */
int heurnet_algo_parse(const char *s, int *algo);
/* The name of an algorithm ("?" when out of range); a static string. */
const char *heurnet_algo_name(int algo);

/* Build s->h from `spec` (any name heurnet_heur_new knows, including ann:
 * specs) and, for focal and anytime, s->adm from `adm_spec` (NULL: the
 * admissible part of the ann: spec, else the default PDB of the width). Refuses combinations
 * that cannot work (fixed-point values in IDA*) with HN_ERR_ARG. Returns 0,
 * or a negative status with hn_errmsg(); on failure s holds no heuristic. */
int heurnet_search_setup(heurnet_search *s, const char *spec, const char *adm_spec, int width,
                         int goal, int quiet);
/* Free the heuristics of s (s itself belongs to the caller). */
void heurnet_search_free(heurnet_search *s);

/* Solve one board with the configured search, then shorten the solution
 * by windows when s->shortcut asks (anytime shortens each incumbent inside
 * the search instead); nn gets the network counters of this call (zero
 * without a network). Returns res->status. */
int heurnet_search_solve(const heurnet_search *s, const srch_np_board *b, const srch_limits *lim,
                         srch_np_result *res, srch_np_ann_stats *nn);

/* The default heuristic name for a board width (pdb:8, pdb:7-8, pdb:6-6-6-6). */
const char *heurnet_default_heuristic(int width);

/* Check the syntax of an ann: spec without loading anything: 0 with the
 * admissible part (or "") in floor[cap], or HN_ERR_ARG with hn_errmsg(). */
int heurnet_ann_spec_check(const char *spec, char *floor, size_t cap);

/* The settings of an ann: spec after the model ("mirror,delta:1,pdb:7-8"):
 * network options into *o, the admissible part into floor ("" = none).
 * Returns 0, or HN_ERR_ARG with hn_errmsg(). */
int heurnet_ann_settings_parse(const char *settings, srch_np_ann_opts *o, char *floor, size_t cap);

/* The residual base a model records in its root attribute "residual" (an
 * admissible heuristic name such as "pdb:6-6-6-6"; docs/formats.md), built
 * for width/goal: 0 with *out NULL when the model has none, 0 with *out, or
 * HN_ERR_ARG naming `name` when the attribute is not such a name. */
int heurnet_residual_base(const struct nn_model *m, const char *name, int width, int goal,
                          int quiet, srch_np_heur **out);

/* srch_np_heur_ann_new plus the residual base the model records (the
 * network's estimate is then base + net). Takes ownership of floor. */
int heurnet_ann_model_heur(const struct nn_model *m, const char *name, int width, int goal,
                           int quiet, srch_np_heur *floor, const srch_np_ann_opts *o,
                           srch_np_heur **out);

/* A heuristic from an ann: spec alone (see heurnet_heur_new). */
int heurnet_heur_ann_new(const char *spec, int width, int goal, int quiet, srch_np_heur **out);

HEURNET_API_END

#endif
