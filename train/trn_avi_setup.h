/* What a driver of trn_avi_run assembles around it (heurnet avi): the
 * states of instance files, the evaluation of a round's network on states
 * with known optima, the round log of a resumed run, and the checks that
 * keep --resume and --checkpoint from losing work. No printing; errors
 * through hn_fail. */
#ifndef HN_TRN_AVI_SETUP_H
#define HN_TRN_AVI_SETUP_H

#include <stddef.h>
#include <stdint.h>

#include "domains/dom.h"
#include "nn/nn.h"

/* The states of instance file path for domain d, back to back in *states
 * (malloc'd), and with len (may be NULL) their lengths (malloc'd): then a
 * line without one is refused, naming it. Each bad line goes to err.
 * A file without states, or with more than 2^32, is refused. 0 or a status. */
int trn_avi_states_read(const dom *d, const char *path, void (*err)(const char *msg, void *user),
                        void *user, uint8_t **states, int **len, size_t *n);

/* The mean absolute error and the share of exact estimates of model m
 * (rounded, plus residual when not NULL) on n states with optimal lengths
 * len. 0 or a status (NAN figures). */
int trn_avi_eval_states(const dom *d, const nn_model *m, const dom_heur *residual,
                        const uint8_t *states, const int *len, size_t n, double *mae,
                        double *exact);

/* A round log (a header line, then lines that begin with their round)
 * keeps only the lines of rounds before `round`: a run killed between a
 * round's line and its checkpoint redoes that round, and each round must
 * have one line. Rewritten through a temporary file; *dropped lines. 0 or
 * a status (the log is then as it was). */
int trn_avi_log_truncate(const char *path, int round, int *dropped);

/* --resume continues the checkpoint's network: HN_ERR_ARG naming both
 * networks when arch (may be NULL) or the hidden-layer options given
 * (arch_opts, as typed: "--act relu --no-bn"; their values in d) describe
 * another one. HN_OK when they agree or the checkpoint cannot be read
 * (trn_avi_run reports that). */
int trn_avi_resume_arch_check(const char *resume, const char *arch,
                              const struct nn_layer_defaults *d, const char *arch_opts);

/* A checkpoint written after the first round would replace an existing
 * file: HN_ERR_ARG unless it is the checkpoint resume (may be NULL)
 * continues, or the path does not exist. */
int trn_avi_checkpoint_check(const char *checkpoint, const char *resume);

#endif
