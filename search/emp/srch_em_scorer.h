/* search/emp: the learned move scorer for edge-matching local search, all of
 * it in this header (srch_em_feat.c, srch_em_scorer.c; the training rows are
 * written by datagen/emp_moves.c). A move encoder `emp-move-v1` turns a
 * candidate move in its board context into SRCH_EM_FEAT_DIM floats (table in
 * srch_em_feat.c and docs/formats.md); a scorer loads a network trained on such rows and picks the
 * perturbation move of srch_em_solve (srch_em_opts.choose). */
#ifndef SRCH_EM_SCORER_H
#define SRCH_EM_SCORER_H

#include "search/emp/emp.h"

HEURNET_API_BEGIN

#define SRCH_EM_FEAT_ENCODER "emp-move-v1"
#define SRCH_EM_FEAT_DIM 18

/* Feature context of one board: per-cell mismatch counts kept up to date
 * incrementally, and per-cell ages (sync calls since the cell last changed). */
typedef struct srch_em_feat srch_em_feat;

/* A context for boards of `inst`; NULL on allocation failure (status set). */
srch_em_feat *srch_em_feat_new(const srch_em_inst *inst, int *status);
void srch_em_feat_free(srch_em_feat *f);
/* Bring the context up to date with board b: cells whose piece or rotation
 * changed since the last sync get age 0 (the others age by one) and the
 * mismatch counts of them and their neighbours are recomputed. The first
 * sync counts everything. */
void srch_em_feat_sync(srch_em_feat *f, const srch_em_board *b);
/* Features of move m on board b (synced), written to out[SRCH_EM_FEAT_DIM].
 * The board is used as scratch (the move is applied and undone) and left
 * as it was. */
void srch_em_feat_move(srch_em_feat *f, srch_em_board *b, const srch_em_move *m, float *out);
/* The same from the board alone (mismatches recounted, no cache); the ages
 * still come from the context. For tests of the incremental path. */
void srch_em_feat_move_scratch(const srch_em_feat *f, srch_em_board *b, const srch_em_move *m,
                               float *out);
/* Name of feature i (for the README table and `emp gen-data` records). */
const char *srch_em_feat_name(int i);

/* ---- scorer ------------------------------------------------------------- */

typedef struct srch_em_scorer srch_em_scorer;

enum srch_em_pick { SRCH_EM_PICK_BEST = 0, SRCH_EM_PICK_SOFTMAX = 1 };

/* Load a model for boards of `inst`. Refuses (HN_ERR_FORMAT / HN_ERR_SHAPE,
 * message naming the file) a model whose encoder is not emp-move-v1, whose
 * input width is not SRCH_EM_FEAT_DIM or with more than one output. pick is
 * enum srch_em_pick; temperature (> 0) is the softmax temperature in joins. */
srch_em_scorer *srch_em_scorer_new(const char *path, const srch_em_inst *inst, int pick,
                                   double temperature, int *status);
void srch_em_scorer_free(srch_em_scorer *s);
/* srch_em_opts.choose: encode the n candidates, score them in one network
 * call and return the best (or a softmax sample); -1 on error. */
int srch_em_scorer_choose(void *scorer, srch_em_board *b, const srch_em_move *cand, int n,
                          hn_rng *rng);
/* Calls and candidates scored so far, and CPU seconds spent in them. */
void srch_em_scorer_stats(const srch_em_scorer *s, long *calls, long *scored, double *seconds);

HEURNET_API_END

#endif
