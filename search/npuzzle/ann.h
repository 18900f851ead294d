/* search/npuzzle/ann.h: searching with a learned heuristic — the ANN-distance
 * heuristic behind the srch_np_heur interface (search/npuzzle/heur_ann.c),
 * batch / weighted A* (search/npuzzle/batch_astar.c) and focal search with a
 * provable suboptimality bound (search/npuzzle/focal.c). Kept next to srch.h so the
 * core n-puzzle header stays small; include this one for networks. */
#ifndef SRCH_ANN_H
#define SRCH_ANN_H

#include "search/srch.h"

HEURNET_API_BEGIN

struct nn_model;

/* ======================================================================
 * ANN heuristic
 *
 * Values are returned in units of 1/scale moves: scale 1 rounds the
 * network's estimate to the nearest whole move (what srch_np_astar and
 * srch_np_idastar expect); a larger scale keeps that many fixed-point
 * steps per move for the searches of this header, which read the scale with
 * srch_np_heur_scale. With an admissible `floor` heuristic the value is
 * max(ann - delta, floor). The goal board always gets 0.
 *
 * `mirror` evaluates every board twice, as itself and as its mirror image
 * across the main diagonal (srch_np_board_transpose: the same distance),
 * and uses the mean of the two outputs: test-time augmentation by a
 * symmetry of the puzzle, twice the network work for a lower-variance
 * estimate.
 * ==================================================================== */

/* How the network runs inside the heuristic. SPARSE and Q8 build each row's
 * first-layer accumulator from the previous row of the same kind (board or
 * mirror) by the few inputs that differ (a child and its parent or sibling
 * differ in 2-3 tiles), exactly (nn/sparse.h); Q8 also runs the later
 * layers with int8 weights on the best SIMD kernel of the CPU. DENSE sends
 * one-hot rows through nn_infer_run (the reference). SPARSE gives DENSE's
 * values up to float rounding (~1e-6 relative). */
enum srch_np_ann_engine { SRCH_NP_ANN_SPARSE = 0, SRCH_NP_ANN_Q8 = 1, SRCH_NP_ANN_DENSE = 2 };

typedef struct srch_np_ann_opts {
    int scale;      /* 1/scale-move units, 1..1000 [1] */
    double delta;   /* subtracted from the estimate before the max with floor [0] */
    int mirror;     /* 1: mean of the board's and its mirror's outputs [0] */
    int max_batch;  /* boards per network call, 1..65536 [1024] */
    int cache_bits; /* per-thread cache of 2^bits evaluated boards, 0 = off [18] */
    int engine;     /* enum srch_np_ann_engine [SPARSE] */
    int acc16;      /* Q8: 16-bit accumulators, exact for one-hot boards (one input
                       per tile on; nn_sparse_new_bounded), when the model allows [0] */
} srch_np_ann_opts;

extern const srch_np_ann_opts SRCH_NP_ANN_DEFAULTS;

/* Bytes one thread's cache of 2^bits boards takes (24 * 2^bits: 6 MB at
 * the default 18, 6.4 GB at 28); 0 for bits outside 0..28. */
size_t srch_np_ann_cache_bytes(int bits);

/* A heuristic from model `m` (`name` is used in messages, e.g. the file).
 * The model's encoder must be "npuzzle-onehot n=<width> goal=..."; boards of
 * the run's `goal` layout are converted to the model's layout when the two
 * differ (exact: distances are preserved). The network weights are copied
 * (batch norm folded), so `m` may be freed afterwards. Takes ownership of
 * `floor` (may be NULL), also on failure. Thread-safe: every calling thread
 * gets its own inference context and cache on first use. NULL on error
 * (*status, message names the model and what does not fit: another puzzle
 * size, not an n-puzzle encoder, wrong input width, bad options). */
srch_np_heur *srch_np_heur_ann_new(const struct nn_model *m, const char *name, int width, int goal,
                                   srch_np_heur *floor, const srch_np_ann_opts *opts, int *status);
/* The same, loading the model from `path` first. */
srch_np_heur *srch_np_heur_ann_load(const char *path, int width, int goal, srch_np_heur *floor,
                                    const srch_np_ann_opts *opts, int *status);

/* Residual models (root attribute "residual", docs/formats.md): the network
 * learned the correction to an admissible base heuristic, so every estimate
 * becomes base(s) + net(s) before delta, scale and the floor. Takes
 * ownership of `base` (also on failure); call it before the first
 * evaluation. HN_ERR_ARG when h is not an ANN heuristic, already has a base,
 * or base is for another board size or goal layout. */
int srch_np_heur_ann_set_base(srch_np_heur *h, srch_np_heur *base);

/* h's residual base, or NULL (not an ANN heuristic, or no base). */
const srch_np_heur *srch_np_heur_ann_base(const srch_np_heur *h);
/* Declare that h's residual base gives exactly the values of `adm`, a
 * whole-move heuristic the caller built from the same spec (the searches
 * that need both for every board, anytime and focal, then read the tables
 * once through srch_np_heur_eval_pair). h does not own adm, which must
 * outlive h's use. HN_ERR_ARG when h is not an ANN heuristic with a
 * residual base or adm has a scale, board size or goal of its own. */
int srch_np_heur_ann_share_base(srch_np_heur *h, const srch_np_heur *adm);
/* Declare that h's floor gives exactly the values of its residual base (the
 * caller built both from one spec, as `ann:M,pdb:6-6-6-6` over a model with
 * residual = "pdb:6-6-6-6"): each board's tables are then read once, not
 * twice. HN_ERR_ARG when h is not an ANN heuristic with both a residual base
 * and a floor in whole moves. */
int srch_np_heur_ann_share_floor(srch_np_heur *h);
/* h's values into hv and adm's into adm_v (zeros when adm is NULL) for the
 * same n boards: one pass of the base when adm was declared h's base,
 * otherwise two calls. 0 or a negative status. */
int srch_np_heur_eval_pair(const srch_np_heur *h, const srch_np_heur *adm, const srch_np_board *b,
                           size_t n, int *hv, int *adm_v);
/* h's values for n boards whose adm values adm_v the caller already has
 * (the searches that read adm first, to skip the network on boards it
 * already cuts): when h's residual base was declared adm's, the network
 * runs on adm_v and the tables are not read again; otherwise h reads its
 * own. 0 or a negative status. */
int srch_np_heur_eval_given_adm(const srch_np_heur *h, const srch_np_heur *adm,
                                const srch_np_board *b, size_t n, const int *adm_v, int *hv);
/* 1 if h was made by srch_np_heur_ann_new. */
int srch_np_heur_is_ann(const srch_np_heur *h);
/* Units per move of h's values: the ANN scale, 1 for every other heuristic. */
int srch_np_heur_scale(const srch_np_heur *h);

/* Counters of the CALLING thread's context (zero if it never evaluated). */
typedef struct srch_np_ann_stats {
    uint64_t rows;        /* boards sent through the network */
    uint64_t calls;       /* network calls */
    uint64_t hits;        /* boards answered from the cache */
    double seconds;       /* time inside the network calls (SPARSE/Q8: not the accumulators),
                             estimated from every 16th call: two clock reads per call
                             would cost 2-3 % of A* with a small network */
    uint64_t acc_updates; /* SPARSE/Q8: rows derived from the previous row */
} srch_np_ann_stats;
void srch_np_heur_ann_thread_stats(const srch_np_heur *h, srch_np_ann_stats *out);

/* The network's raw estimates (moves, float; no rounding, delta or floor;
 * with `mirror` the mean over the board and its mirror; plus the base of a
 * residual model) for n boards into
 * out[n]. 0, HN_ERR_ARG (h is not an ANN heuristic),
 * HN_ERR_NOMEM or HN_ERR_NAN. */
int srch_np_heur_ann_estimate(const srch_np_heur *h, const srch_np_board *b, size_t n, float *out);

/* ======================================================================
 * Best-first searches for inadmissible and batched heuristics
 *
 * Both keep every node (pool + hash table), re-open a node reached by a
 * shorter path, evaluate all children of a step with one eval_batch call per
 * heuristic, and report like srch_np_astar (res->batches = eval_batch calls
 * of the guiding heuristic). Heuristic values are divided by
 * srch_np_heur_scale(h).
 * ==================================================================== */

typedef struct srch_np_bfs_opts {
    int batch;     /* nodes expanded per step, 1..65536 (1 = A*) [1] */
    double weight; /* f = g + weight * h, >= 1 [1] */
} srch_np_bfs_opts;

/* Batch weighted A*: each step takes the `batch` best open nodes and
 * expands them together. A goal found is kept as the incumbent; the search
 * stops when no open node has a smaller f. With weight 1 and an admissible h
 * the result is optimal for every batch size; with weight w it is within w
 * of optimal. DeepCubeA's batch-weighted A* (BWAS) orders by lambda*g + h,
 * the same order as g + h/lambda: it is this search with weight = 1/lambda
 * (f is kept in 1/64 units, so such weights are not rounded away). Returns
 * res->status like srch_np_astar. */
int srch_np_batch_astar(const srch_np_board *start, const srch_np_heur *h,
                        const srch_np_bfs_opts *opts, const srch_limits *lim, srch_np_result *res);

/* Focal search: the open list is ordered by f = g + adm (admissible, e.g. a
 * PDB, scale 1); among open nodes with f <= bound * fmin it expands the one
 * with the smallest g + guide (the network). The solution is at most
 * bound * optimal when adm is admissible and consistent. bound >= 1. */
int srch_np_focal(const srch_np_board *start, const srch_np_heur *adm, const srch_np_heur *guide,
                  double bound, const srch_limits *lim, srch_np_result *res);

/* Shortening a solution by windows (search/npuzzle/shortcut.c): every
 * window b_i .. b_j of the path is searched by IDA* (Manhattan distance to
 * b_j) for a path at least 2 moves shorter, which replaces it. */
typedef struct srch_np_shortcut_opts {
    int max_window;  /* longest window in moves (windows of 8, 12, 18, ... up to it); 0: off */
    uint64_t budget; /* IDA* nodes per window: a window that needs more stays as it is */
} srch_np_shortcut_opts;

/* Largest window and node budget srch_np_shortcut_check accepts. */
#define SRCH_NP_SHORTCUT_MAX_WINDOW 200
#define SRCH_NP_SHORTCUT_MAX_BUDGET 1000000000ull

/* Shorten moves[0..*nmoves) from `start` in place; the result is never
 * longer and leads from start to the same board. Stops between windows
 * when the clock passes `deadline` (hn_now() seconds, 0 = none) or Ctrl-C
 * is pressed. *saved (may be NULL) gets the moves removed added to it.
 * Returns 0, HN_ERR_ARG (srch_np_shortcut_check) or HN_ERR_NOMEM. */
int srch_np_shortcut(const srch_np_board *start, uint8_t *moves, int *nmoves,
                     const srch_np_shortcut_opts *o, double deadline, int *saved);
/* 0, or HN_ERR_ARG with a message when the window is not 0 (off) or
 * 4..200, or, with a window, the budget is not 1..10^9 nodes. */
int srch_np_shortcut_check(const srch_np_shortcut_opts *o);

/* Anytime A* over a schedule of deltas (search/npuzzle/anytime.c). Phase k
 * is A* on f = g + max(h - deltas[k], adm) (h in 1/scale units, adm an
 * admissible heuristic in whole moves, e.g. the PDB floor of an ann: spec),
 * limited to f below the incumbent's length: each phase either finds a
 * shorter solution or shows its order cannot. Weighted phases come first,
 * one per weight of weights[0..nweights) (falling, each > 1; nweights 0:
 * none), on f = g + weight * h (delta 0), as in ARA*: the first finds a
 * solution fast, so that a board on which the network under-estimates still
 * gets an answer in time, and the next ones improve it where the delta-0
 * phase would not end in time. Boards keep their values
 * across phases (one evaluation per board and run). Deltas rise from >= 0;
 * INFINITY as the last one is adm alone, and when that phase ends the length
 * is proven optimal (res->proven). A time or node limit ends the schedule:
 * the incumbent is returned with status 0 (res->phases says how far it got),
 * HN_ERR_LIMIT only when there is none. sc (NULL: none) shortens every
 * incumbent found (res->saved), so the next phase is bounded by the shorter
 * length. */
#define SRCH_NP_MAX_DELTAS 16
#define SRCH_NP_MAX_WEIGHTS 8
int srch_np_anytime(const srch_np_board *start, const srch_np_heur *h, const srch_np_heur *adm,
                    const double *deltas, int ndeltas, const double *weights, int nweights,
                    const srch_np_shortcut_opts *sc, const srch_limits *lim, srch_np_result *res);
/* The IDA* stage of anytime A* (search/npuzzle/anytime_ida.c). Once the A*
 * phases have an incumbent and `at` of the time limit has passed (or their
 * schedule ended), depth-first passes take over: each looks for a solution
 * of at most the incumbent's length - 2 moves, pruning by the admissible
 * heuristic everywhere and, for a child with L moves left under that bound
 * in a band lo <= L <= hi, also where the guide less the band's delta
 * exceeds L. A pass that finds one makes it the incumbent (shortened by
 * windows as any other) and the next pass starts below it; a pass that ends
 * without one ends the search, with the length proven optimal when no band
 * cuts (a band of delta INFINITY only orders the children by the guide). Such a pass costs the
 * admissible heuristic's incremental update per node and the network only in the bands, so it
 * reaches bounds the A* phases cannot within the time. */
#define SRCH_NP_MAX_BANDS 8
typedef struct srch_np_band {
    int lo, hi;   /* moves left under the pass's bound, 1 <= lo <= hi */
    double delta; /* moves the guide may over-estimate there, 0..1000; INFINITY: the
                     children are only ordered by the guide, never cut */
} srch_np_band;
typedef struct srch_np_ida_opts {
    int on;     /* 0: no IDA* stage (srch_np_anytime) */
    double at;  /* share of the time limit after which the stage may start, 0..1 */
    int nbands; /* 0, or only INFINITY deltas: no cut but adm's (the passes prove) */
    srch_np_band band[SRCH_NP_MAX_BANDS];
} srch_np_ida_opts;

/* srch_np_anytime with an IDA* stage after (or instead of the rest of) the
 * A* phases; `ida` NULL or off: the same as srch_np_anytime. */
int srch_np_anytime_ida(const srch_np_board *start, const srch_np_heur *h, const srch_np_heur *adm,
                        const double *deltas, int ndeltas, const double *weights, int nweights,
                        const srch_np_shortcut_opts *sc, const srch_np_ida_opts *ida,
                        const srch_limits *lim, srch_np_result *res);
/* 0, or HN_ERR_ARG with a message: bands not 0..8, a band outside
 * 1 <= lo <= hi < SRCH_NP_MAX_PATH or its delta outside 0..1000 (or
 * INFINITY), two bands overlapping, `at` outside 0..1. */
int srch_np_ida_bands_check(const srch_np_ida_opts *o);
/* 1 when a pass that ends without a solution proves the bound: no band
 * cuts by the guide (every delta INFINITY). */
int srch_np_ida_proves(const srch_np_ida_opts *o);

/* 0, or HN_ERR_ARG with a message when the schedule is not 1..16 rising
 * deltas in 0..1000 (inf allowed last) or the weights are not 0..8 falling
 * numbers in (1, 100]. */
int srch_np_anytime_check(const double *deltas, int ndeltas, const double *weights, int nweights);

HEURNET_API_END

#endif
