/* solve/dom_batch.h: a domain's calls on arrays of states, for bindings
 * (the Python package's heurnet.Domain calls them through ctypes). A
 * domain opened with dom_open ("npuzzle:7x7:blank-last", "cube3",
 * "./libmine.so:12") gives its facts as scalars and strings, and each call
 * takes n states back to back (dom_state_bytes each) with plain output
 * arrays the caller allocates. Every call checks its states first (each
 * must come back unchanged through the domain's own text format, which
 * checks its contents: a permutation, a solvable board, a valid cube) and
 * its other arguments, and returns 0 or a negative status with hn_errmsg()
 * naming the 0-based index of the first bad state; outputs are then
 * unspecified. Calls on one domain may run on several threads at once; a
 * heuristic (heurnet_dom_heur) is one object per thread. Nothing prints. */
#ifndef HEURNET_SOLVE_DOM_BATCH_H
#define HEURNET_SOLVE_DOM_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "domains/dom.h"

HEURNET_API_BEGIN

/* The facts of an open domain as plain fields; the strings are owned by the
 * domain. */
typedef struct heurnet_dom_info {
    int32_t state_bytes, nmoves, inputs, max_active;
    int32_t has_uniform, typical_depth, unit_cost, reversible, symmetries;
    const char *spec;       /* what models and datasets record */
    const char *canonical;  /* the domain's own string */
    const char *encoding;   /* the network encoding's name */
    const char *heuristics; /* comma-separated, the first the default */
    const char *patterns;   /* pattern-database patterns, comma-separated */
    const char *move_sep;   /* between move names in move text */
} heurnet_dom_info;

/* 0 with *out, or HN_ERR_ARG without a domain. */
int heurnet_dom_info_get(const dom *d, heurnet_dom_info *out);
/* Move m's name, inverse (-1: none) and cost: 0, or HN_ERR_ARG for m out of
 * 0..nmoves-1. */
int heurnet_dom_move_info(const dom *d, int m, const char **name, int *inverse, int *cost);
/* The built-in domain i (0..): its name, summary and arguments' help, or 0
 * past the last. */
int heurnet_dom_builtin_info(int i, const char **name, const char **summary, const char **args);

/* 0 when every state of states[n * state_bytes] is one of d's (state_bytes
 * must be dom_state_bytes(d)), else HN_ERR_ARG naming the first bad one. */
int heurnet_dom_states_check(const dom *d, const uint8_t *states, size_t n, size_t state_bytes);

/* Every child of each state (every legal move, no pruning), in move order:
 * state i's children at children + (i * nmoves + j) * state_bytes, their
 * moves in moves[i * nmoves + j] and costs in costs[i * nmoves + j] for j <
 * count[i]; the slots past count[i] hold zero bytes, move 255 and cost -1.
 * costs and count may be NULL. */
int heurnet_dom_expand_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                              uint8_t *children, uint8_t *moves, int32_t *costs, int32_t *count);
/* out[i] = states[i] after move moves[i] (0..nmoves-1, else HN_ERR_ARG
 * naming i); legal[i] 1 when the move was legal there, 0 when not (the
 * state copied unchanged). out may be states (in place); legal may be NULL. */
int heurnet_dom_apply_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                             const int32_t *moves, uint8_t *out, uint8_t *legal);
/* goal[i] 1 when state i is a goal, else 0. */
int heurnet_dom_goal_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                            uint8_t *goal);
/* The network inputs: dense 0/1 rows x[n * inputs] (float32), or the
 * active inputs' indices active[n * max_active] (padded with -1) and their
 * count[i] (may be NULL). Either output may be NULL. */
int heurnet_dom_encode_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                              float *x, int32_t *active, int32_t *count);

/* n states as heurnet gen draws them, so a file of `heurnet gen --domain D
 * --seed S` holds these states in its first rows: state g is draw g mod
 * DG_SEED_BLOCK of an RNG seeded hn_seed_mix(seed, g / DG_SEED_BLOCK), a
 * walk from the goal of walk_min..walk_max moves (0 <= walk_min <=
 * walk_max <= 100000; its length into walked[g] when walked is not NULL),
 * or with uniform a uniformly random state (HN_ERR_UNSUPPORTED for a
 * domain that cannot draw one). */
int heurnet_dom_sample_states(const dom *d, size_t n, uint64_t seed, int uniform, int walk_min,
                              int walk_max, uint8_t *out, int32_t *walked);

/* Parse n state lines, text holding them separated by '\n', into out[n *
 * state_bytes]: HN_ERR_ARG naming the line for a bad one or for a count
 * other than n. */
int heurnet_dom_parse_states(const dom *d, const char *text, size_t n, uint8_t *out);
/* The n states as lines ('\n' after each) into buf (NUL-terminated,
 * snprintf-like): the length needed, or a negative status. */
long heurnet_dom_format_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                               char *buf, size_t cap);

/* An instance file (dom_read_instances): 0 with *out (free with
 * heurnet_dom_instances_free) and *n, or a status whose message names the
 * file, the count of bad lines and the first of them. */
int heurnet_dom_instances_read(const dom *d, const char *path, dom_instance_rec **out, size_t *n);
void heurnet_dom_instances_free(dom_instance_rec *recs);

/* A heuristic of d by the names of heurnet solve --heuristic ("manhattan",
 * "pdb:P", "max:A,B", "ann:M.h5" with the residual base the model
 * records): one object per thread. NULL on error (*status). */
typedef struct heurnet_dom_heur heurnet_dom_heur;
heurnet_dom_heur *heurnet_dom_heur_open(const dom *d, const char *name, int *status);
void heurnet_dom_heur_free(heurnet_dom_heur *h);
/* 1 when h never overestimates (admissible), else 0. */
int heurnet_dom_heur_admissible(const heurnet_dom_heur *h);
/* The estimates of n states (cost units, what heurnet predict prints) into
 * est[n]. */
int heurnet_dom_heur_values(heurnet_dom_heur *h, const uint8_t *states, size_t n,
                            size_t state_bytes, double *est);
/* The values the searches order by (srch_dom_heur_eval: integers in the
 * heuristic's scale, a network's estimate rounded and floored, the goal's
 * 0) of n states into out[n]. */
int heurnet_dom_heur_ints(heurnet_dom_heur *h, const uint8_t *states, size_t n, size_t state_bytes,
                          int32_t *out);

HEURNET_API_END

#endif
