/* A flat facade over heurnet for foreign-function interfaces (the Python
 * package in python/ calls it through ctypes): plain arrays, C strings,
 * integer status codes and structs of scalars only, so a binding needs no
 * knowledge of the library's option structs, which may grow. Everything
 * else a binding needs (model load/save/inference, PDB lookup) is already
 * flat in nn/nn.h and search/srch.h. */
#ifndef HEURNET_SOLVE_API_H
#define HEURNET_SOLVE_API_H

#include <stddef.h>
#include <stdint.h>

#include "datagen/dg.h"
#include "nn/nn.h"
#include "search/srch.h"
#include "train/trn.h"

HEURNET_API_BEGIN

/* Copy the calling thread's last message (hn_errmsg) into buf, truncated
 * to cap - 1 bytes and NUL-terminated (cap >= 1). Returns its full length. */
size_t heurnet_errmsg_copy(char *buf, size_t cap);

/* A fresh model from a spec string such as "81-64-1": hidden layers take
 * NN_LAYER_DEFAULTS with dropout `dropout` (heurnet nn init: 0.1; in [0, 1)),
 * weights from `seed`. NULL on error with *status (may be NULL) and
 * hn_errmsg(). */
nn_model *heurnet_model_create(const char *arch, float dropout, uint64_t seed, int *status);

/* The model's spec string as a model file stores it (relative to
 * NN_LAYER_DEFAULTS). 0, or HN_ERR_ARG when cap is too small. */
int heurnet_model_spec_string(const nn_model *m, char *buf, size_t cap);

/* Check n boards of width*width tiles (row-major, 0 = blank) back to back:
 * each a permutation that can reach `goal`. 0, or HN_ERR_ARG naming the
 * first bad board by its 0-based index. */
int heurnet_boards_check(const uint8_t *tiles, size_t n, int width, int goal);

/* The npuzzle-onehot inputs (search/npuzzle/encode.h) of n boards, as
 * heurnet_boards_check takes them, into x[n, (width*width)^2]. Every board
 * is checked first (the encoder itself trusts its tiles: a tile out of range
 * would index past the board's rows): 0, or HN_ERR_ARG naming the first bad
 * board with x untouched. */
int heurnet_boards_encode(const uint8_t *tiles, size_t n, int width, int goal, float *x);

/* The most threads a facade call accepts (solve, train, avi; gen takes
 * HEURNET_MAX_GEN_THREADS as heurnet gen does): the command line's limits. */
#define HEURNET_MAX_THREADS 256
#define HEURNET_MAX_GEN_THREADS 1024

/* One search for every board, as heurnet solve runs it. */
typedef struct heurnet_solve_args {
    const char *algo;       /* heurnet_algo_parse names except "anytime" */
    const char *heuristic;  /* heurnet_heur_new names; NULL or "": the width's PDB */
    const char *admissible; /* focal: the bound's heuristic; NULL: the default */
    int width, goal;
    int batch;       /* batch-astar, bwas; 0: as heurnet solve (16; wastar 1) */
    double weight;   /* 0: as heurnet solve (wastar 1.5, bwas 0.8, else 1) */
    double bound;    /* focal; 0: 1.05 */
    srch_limits lim; /* per board */
    int threads;     /* boards solved in parallel, 0..HEURNET_MAX_THREADS; 0 counts as 1 */
    int quiet;       /* 1: no PDB build progress on stderr */
} heurnet_solve_args;

/* What one board's search gave (srch_np_result without its moves). */
typedef struct heurnet_solve_row {
    int32_t status, length, h0, nmoves;
    uint64_t expanded, generated;
    double seconds;
} heurnet_solve_row;

/* Solve n boards (as heurnet_boards_check takes them) into rows[n] and
 * their moves as "UDLR" strings in moves[n][stride] (stride >=
 * SRCH_NP_MAX_PATH + 1; "" when not solved). The scalars are checked first,
 * as heurnet solve checks its options: batch 0..65536, weight 0 or finite
 * > 0, bound 0 or 1..100, a finite time_limit >= 0 (0: none), threads
 * 0..HEURNET_MAX_THREADS; a bad one is HN_ERR_ARG naming it. A board not
 * reached because of a stop request gets status HN_ERR_INTERRUPTED.
 * Returns 0 when the search could be set up (each row has its own status;
 * HN_ERR_INTERRUPTED when a stop was requested), else a negative status
 * with hn_errmsg(). */
int heurnet_solve_boards(const heurnet_solve_args *a, const uint8_t *tiles, size_t n,
                         heurnet_solve_row *rows, char *moves, size_t stride);

/* heurnet gen: label states of any domain into the domain dataset `path`
 * (dg_dom_gen_run), continuing a matching file unless overwrite. */
typedef struct heurnet_gen_args {
    const char *domain; /* dom_open spec: "npuzzle:4x4", "cube3", "./libx.so:12" */
    const char *label;  /* solver heuristic; NULL: heurnet gen's (dg_dom_gen_default_heur) */
    uint64_t count, seed, max_expanded;
    /* walks of walk_min..walk_max moves from the goal, or uniform states;
     * all: every state by breadth-first search. Neither walks (both 0),
     * uniform nor all: heurnet gen's default (dg_dom_gen_default_uniform,
     * else walks of 1..30). */
    int threads, walk_min, walk_max, uniform, all, path_states, overwrite, quiet;
    hn_progress_fn progress; /* may be NULL */
    void *user;
} heurnet_gen_args;

/* Returns 0 or the status of dg_dom_gen_run (HN_ERR_INTERRUPTED on a stop,
 * the committed rows kept in FILE.part for a resume); st may be NULL.
 * HN_ERR_ARG before any file is touched for a domain that does not open or
 * a bad scalar: count 0 without all, walks outside 0 <= walk_min <=
 * walk_max <= DG_DOM_MAX_WALK, two of walks, uniform and all, threads
 * outside 0..HEURNET_MAX_GEN_THREADS (0: 1; more than 255 run as 255). */
int heurnet_gen(const char *path, const heurnet_gen_args *a, dg_dom_gen_stats *st);

/* heurnet train on dataset files: trn_data_open and trn_run with the
 * command line's defaults (TRN_OPTS_DEFAULTS, hidden dropout 0.1). */
typedef struct heurnet_train_args {
    const char *arch, *checkpoint, *resume, *init; /* as heurnet train's options */
    /* the data's domain (dom_open spec); NULL: the one its files record */
    const char *domain;
    int epochs, batch, threads, patience, allow_incomplete;
    double lr, val_fraction, dropout;
    uint64_t seed;
    trn_epoch_fn on_epoch; /* may be NULL */
    hn_progress_fn progress;
    void *user;
} heurnet_train_args;

/* heurnet_train_args with heurnet train's defaults into *a. */
void heurnet_train_defaults(heurnet_train_args *a);

/* Train; 0 with *out (free with nn_model_free) and *res (may be NULL), or
 * a negative status with hn_errmsg() and *out NULL (HN_ERR_INTERRUPTED on a
 * stop, the checkpoint written when one is configured). The scalars take
 * heurnet train's ranges (batch 2..65536, epochs 1..1000000, lr in (0, 10],
 * threads 1..HEURNET_MAX_THREADS, patience 0..1000000, val_fraction and
 * dropout in [0, 1)); outside them HN_ERR_ARG before any file is read. */
int heurnet_train(const char *const *data, int ndata, const heurnet_train_args *a, nn_model **out,
                  struct trn_result *res);

/* heurnet avi (DAVI): value iteration without labels, the command line's
 * defaults (trn_avi_opts_default, no dropout, its target scaling). */
typedef struct heurnet_avi_args {
    const char *domain; /* dom_open spec (required) */
    const char *arch, *checkpoint, *resume, *init;
    const char *floor; /* admissible floor heuristic name; NULL: none */
    int rounds, steps_per_round, batch, walk_max, threads, lookahead, quiet;
    double lr, lr_decay, update_loss;
    uint64_t seed;
    trn_avi_round_fn on_round; /* may be NULL */
    hn_progress_fn progress;
    void *user;
} heurnet_avi_args;

/* heurnet_avi_args with heurnet avi's defaults into *a (no domain). */
void heurnet_avi_defaults(heurnet_avi_args *a);

/* Run; 0 with *out (free with nn_model_free), or a negative status with
 * hn_errmsg() (HN_ERR_INTERRUPTED on a stop, the checkpoint written). The
 * scalars take heurnet avi's ranges (rounds 0..1e8, steps_per_round
 * 1..1e7, batch 2..1e6, walk_max 0..TRN_AVI_MAX_WALK, threads
 * 1..HEURNET_MAX_THREADS, lookahead 1..TRN_AVI_MAX_TABLE_LOOKAHEAD, lr in
 * (0, 10], lr_decay in (0, 1], update_loss in [0, 1e12]); outside them
 * HN_ERR_ARG before anything runs. */
int heurnet_avi(const heurnet_avi_args *a, nn_model **out);

/* Evaluate heuristic h on n boards (as heurnet_boards_check takes them)
 * into out[n]. 0, or a negative status with hn_errmsg(): HN_ERR_ARG when
 * width is not h's or a board is not a permutation of its tiles. */
int heurnet_heur_values(const srch_np_heur *h, const uint8_t *tiles, size_t n, int width,
                        int32_t *out);

HEURNET_API_END

#endif
