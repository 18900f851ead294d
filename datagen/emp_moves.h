/* datagen: move-scorer data for edge-matching local search
 * (`heurnet emp gen-data`). Rows are emp-move-v1 features (/x, float32
 * [n, SRCH_EM_FEAT_DIM]) of candidate perturbation moves met in local-search
 * runs, labelled (/y, float32 [n]) with the gain after a short greedy
 * continuation; /state (int32 [n]) numbers the perturbation step each row's
 * move was a candidate of, so rankings within a state can be evaluated. */
#ifndef DG_EMP_MOVES_H
#define DG_EMP_MOVES_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "search/emp/emp.h"

HEURNET_API_BEGIN

#define DG_EMP_MOVES_FORMAT "heurnet-emp-moves"
#define DG_EMP_MOVES_VERSION 1

typedef struct {
    int moves_per_state; /* candidates labelled per state (M) */
    int horizon;         /* greedy continuation steps (H) */
    uint64_t seed;
    int states;              /* states (perturbation steps) per instance */
    int ta_n;                /* TA iterations per cycle of the driving search */
    long nodes;              /* BO/RO node limit of the driving search */
    hn_progress_fn progress; /* states done / total; may be NULL */
    void *user;
} dg_emp_moves_opts;

/* The defaults `heurnet emp gen-data` shows under --help; copy and change:
 * `dg_emp_moves_opts o = DG_EMP_MOVES_DEFAULTS;`. */
extern const dg_emp_moves_opts DG_EMP_MOVES_DEFAULTS;

/* The gain of playing move m on b then a greedy continuation of `horizon`
 * steps (each: a random cell with a mismatch, its best move from
 * srch_em_moves_enum played when it loses nothing), from an RNG seeded with
 * `seed`: *gain = best score met minus b's score. b is unchanged; `scratch`
 * is a board of the same instance, cand holds n + 4 moves. 0 or HN_ERR_NOMEM. */
int dg_emp_rollout(const srch_em_board *b, const srch_em_move *m, int horizon, uint64_t seed,
                   srch_em_board *scratch, srch_em_move *cand, int *gain);

/* Drive the local search on each instance (deterministic by seed: no time
 * limit, a state budget), label moves and write `out` (via out.part) with
 * /x, /y, /state and root attributes format, format_version, encoder, features,
 * moves_per_state, horizon, seed, states, instances. 0 or a status with a
 * message; HN_ERR_INTERRUPTED leaves no file. */
int dg_emp_moves_gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
                     const dg_emp_moves_opts *o, const char *out);

/* Read and check a file written by dg_emp_moves_gen: format and version,
 * encoder emp-move-v1, /x [n, SRCH_EM_FEAT_DIM] and /y [n] float32 of the
 * same n > 0, finite values. *x and *y are malloc'd (caller frees). */
typedef struct {
    size_t rows;
    int dim;
    int moves_per_state, horizon;
    uint64_t seed;
} dg_emp_moves_info;
int dg_emp_moves_read(const char *path, float **x, float **y, dg_emp_moves_info *info);

HEURNET_API_END

#endif
