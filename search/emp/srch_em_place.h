/* search/emp: learned candidate ordering for the scan-row backtracker
 * (srch_em_scan). An encoder `emp-place-v1` turns a placement candidate
 * (cell, piece, rotation) in the context of a partial board into
 * SRCH_EM_PLACE_DIM floats (srch_em_pfeat.c, table in docs/edge-matching.md);
 * a sampler labels the candidates of backtracker states with what the
 * backtracker itself reaches under each of them (srch_em_scan_data.c); a
 * place scorer orders a cell's candidates in the backtracker by a network
 * trained on those rows (srch_em_scan_order.c). */
#ifndef SRCH_EM_PLACE_H
#define SRCH_EM_PLACE_H

#include "search/emp/emp.h"

HEURNET_API_BEGIN

#define SRCH_EM_PLACE_ENCODER "emp-place-v1"
#define SRCH_EM_PLACE_DIM 18
/* The decision a model scores (root attribute `decision` of the model file):
 * "place" orders the backtracker's candidates; a model without the attribute
 * is a perturbation-move scorer (emp-move-v1). */
#define SRCH_EM_DECISION_PLACE "place"
#define SRCH_EM_DECISION_MOVE "move"
/* "break" gates the backtracker's break phases (emp-break-v1). */
#define SRCH_EM_DECISION_BREAK "break"
#define SRCH_EM_BREAK_ENCODER "emp-break-v1"
#define SRCH_EM_BREAK_DIM 16

/* ---- encoder ------------------------------------------------------------ */

/* A partial board seen by the encoder: the pieces placed (clues included),
 * and counts kept incrementally as pieces are pushed and popped in stack
 * order: the sides of each colour among the unplaced pieces (supply), the
 * sides of each colour that placed pieces show to empty cells (open
 * demands), and per cell kind (inner, or frame with its outward side) the
 * unplaced (piece, rotation) items by their west and north colours. */
typedef struct srch_em_pfeat srch_em_pfeat;

/* A context for `inst` with only the clues placed; NULL on allocation
 * failure (status set). */
srch_em_pfeat *srch_em_pfeat_new(const srch_em_inst *inst, int *status);
void srch_em_pfeat_free(srch_em_pfeat *f);
/* Place piece p at rotation r on the empty cell `cell` (pushed on the
 * stack), or pop the last placement. */
void srch_em_pfeat_push(srch_em_pfeat *f, int cell, int p, int r);
void srch_em_pfeat_pop(srch_em_pfeat *f);
/* Placements on the stack, and the one at depth k. */
int srch_em_pfeat_depth(const srch_em_pfeat *f);
void srch_em_pfeat_at(const srch_em_pfeat *f, int k, int *cell, int *p, int *r);

/* What the backtracker knows about a decision beyond the board. */
typedef struct {
    int depth, depths; /* the cell's index in scan order, and the free cells */
    int breaks;        /* joins left unmatched on the path so far */
    int allowed;       /* breaks the budget allows once this cell is placed */
    int budget;        /* the budget at the last cell */
} srch_em_place_ctx;

/* Features of placing p at rotation r on the empty cell `cell`, written to
 * out[SRCH_EM_PLACE_DIM]. The placement is pushed and popped, so the
 * context is left as it was. */
void srch_em_pfeat_encode(srch_em_pfeat *f, int cell, int p, int r, const srch_em_place_ctx *c,
                          float *out);
/* The same with every count recounted from the placed pieces (no
 * incremental state): for tests of the incremental path. */
void srch_em_pfeat_encode_scratch(const srch_em_pfeat *f, int cell, int p, int r,
                                  const srch_em_place_ctx *c, float *out);
/* Name of feature i (documentation and dataset records). */
const char *srch_em_pfeat_name(int i);

/* emp-break-v1: the state of the empty cell `cell` where the backtracker
 * would begin its break phases (its perfect matches tried), from the same
 * counts (read only), into out[SRCH_EM_BREAK_DIM]; table in the docs. */
void srch_em_bfeat_encode(const srch_em_pfeat *f, int cell, const srch_em_place_ctx *c, float *out);
/* The same with every count recounted from the placed pieces (tests). */
void srch_em_bfeat_encode_scratch(const srch_em_pfeat *f, int cell, const srch_em_place_ctx *c,
                                  float *out);
const char *srch_em_bfeat_name(int i);

/* ---- labelled states from the backtracker's own search ----------------- */

typedef struct {
    int states;         /* states to label */
    int runs;           /* probes per candidate (common shuffles across candidates) */
    long probe_nodes;   /* placements per probe */
    double min_depth;   /* sample only cells past this fraction of the free cells */
    double rate;        /* chance that a qualifying cell entry is sampled */
    long restart_nodes; /* placements per restart of the driving search */
    double break_from;  /* budget of the driving search and the probes */
    int breaks;
    int probe_rows; /* break data: the probes' subtree begins this many rows above */
    uint64_t seed;
    hn_progress_fn progress; /* states done / total; may be NULL */
    void *user;
} srch_em_place_sample_opts;

extern const srch_em_place_sample_opts SRCH_EM_PLACE_SAMPLE_DEFAULTS;

/* One labelled candidate: its features, its label (mean over the runs of
 * the cells reached under it, see docs) and the state it belongs to. Return
 * 0 to go on, a negative status to stop. */
typedef int (*srch_em_place_row_fn)(void *user, int state, const float *x, float y);

/* Drive the backtracker on `inst` (no time limit: a state budget, so the
 * rows depend only on the seed) and label the candidates of sampled cells
 * with at least two perfect-match candidates. 0, HN_ERR_ARG, HN_ERR_NOMEM,
 * HN_ERR_INTERRUPTED, or what `row` returned. *state_base numbers the states
 * and is advanced by the states written. */
int srch_em_place_sample(const srch_em_inst *inst, const srch_em_place_sample_opts *o,
                         srch_em_place_row_fn row, void *user, int *state_base);

/* ---- the place scorer in the backtracker -------------------------------- */

/* Load a place model for boards of `inst`: encoder emp-place-v1, input width
 * SRCH_EM_PLACE_DIM, one output (HN_ERR_FORMAT / HN_ERR_SHAPE naming the
 * file otherwise). temperature >= 0 scales the Gumbel noise added to the
 * scores before sorting (0: pure order; < 0: the model's `place_temperature`
 * attribute, or 1). cache_bits sizes the order cache (2^bits entries). */
srch_em_place_scorer *srch_em_place_scorer_new(const char *path, const srch_em_inst *inst,
                                               double temperature, int cache_bits, int *status);
void srch_em_place_scorer_free(srch_em_place_scorer *s);

typedef struct {
    long calls;     /* network calls (cache misses) */
    long scored;    /* candidates scored */
    long hits;      /* orders served from the cache */
    double seconds; /* CPU seconds in encoding and the network */
} srch_em_place_stats;
void srch_em_place_scorer_stats(const srch_em_place_scorer *s, srch_em_place_stats *st);

/* ---- the break gate in the backtracker ---------------------------------- */

/* Labelled break decisions (srch_em_scan_bdata.c), with the sampling options
 * of the place data: the driving backtracker samples, at rate `rate`, cells
 * past min_depth where its break phases would begin; the subtree from
 * probe_rows rows above that cell (the path above it as the driving search
 * has it) is then searched for probe_nodes placements twice, once with the
 * cell's breaks allowed and once skipped wherever the search meets that
 * depth (the same shuffles in both arms of a run), and the label is the mean
 * over `runs` of the difference, allowed minus skipped, of the deepest cell
 * reached plus, for a complete board, 1 + the breaks it leaves unused. One
 * row per state; `row` as above. */
int srch_em_break_sample(const srch_em_inst *inst, const srch_em_place_sample_opts *o,
                         srch_em_place_row_fn row, void *user, int *state_base);

/* Load a break model (decision break, encoder emp-break-v1, width
 * SRCH_EM_BREAK_DIM, one output; HN_ERR_FORMAT / HN_ERR_SHAPE naming the
 * file otherwise). The gate allows a cell's breaks when the model's score is
 * above `threshold` (NAN: the model's `break_threshold` attribute, or 0;
 * -INFINITY: always, the network still run, so the search is the ungated
 * one). Verdicts are cached under the local context (depth, breaks so far,
 * the colours to match) in 2^cache_bits entries. */
srch_em_break_gate *srch_em_break_gate_new(const char *path, const srch_em_inst *inst,
                                           double threshold, int cache_bits, int *status);
void srch_em_break_gate_free(srch_em_break_gate *g);
/* Ablation: refuse each context with chance `refuse` (a hash of its cache
 * key, so a context keeps its verdict as with the network) instead of asking
 * the network; < 0: the network again. */
void srch_em_break_gate_set_random(srch_em_break_gate *g, double refuse);

typedef struct {
    long calls;       /* network calls (cache misses) */
    long hits;        /* verdicts served from the cache */
    long allowed;     /* cells whose breaks were allowed (calls and hits) */
    long denied;      /* cells whose breaks were skipped */
    double seconds;   /* CPU seconds in encoding and the network */
    double threshold; /* the threshold in use */
} srch_em_break_stats;
void srch_em_break_gate_stats(const srch_em_break_gate *g, srch_em_break_stats *st);

/* The model's decision attribute ("place", "break", "move"); for `emp solve
 * --scorer`. Reads only the attribute; "move" when absent, NULL (status
 * set) when the file cannot be read. The string is static. */
const char *srch_em_model_decision(const char *path, int *status);

HEURNET_API_END

#endif
