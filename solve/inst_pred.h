/* A model's estimates over a puzzle instance file, converting between goal
 * layouts when the file's differs from the model's, and their errors
 * against the known optimal lengths: `heurnet predict --instances` and the
 * instance columns of `heurnet ablate`. Private to the library and the
 * command line (not installed). */
#ifndef HEURNET_SOLVE_INST_PRED_H
#define HEURNET_SOLVE_INST_PRED_H

#include <stddef.h>

#include "nn/nn.h"
#include "search/srch.h"

/* Every board of an instance file and the model's prediction for it. */
struct heurnet_inst_pred {
    srch_np_instance *inst;
    double *pred;
    size_t n;
};

/* Parse `file` (boards in layout `file_goal`; -1: the model's layout), encode
 * each board in the model's goal layout (npuzzle-onehot encoder required) and
 * evaluate. `name` names the model in messages; each bad line of the file
 * goes to `err` (may be NULL). Returns 0, or a status with hn_errmsg naming
 * the file. */
int heurnet_inst_predict(const nn_model *m, const char *name, const char *file, int file_goal,
                         int batch, srch_np_parse_err_fn err, void *user,
                         struct heurnet_inst_pred *out);
void heurnet_inst_pred_free(struct heurnet_inst_pred *p);

/* Errors against the known optimal lengths (instances without one are
 * skipped; n_known gets how many had one). over_weight weighs
 * over-estimates in the loss like amse. */
struct heurnet_inst_err {
    size_t n_known;
    double loss, mae, exact, over;
};
void heurnet_inst_errors(const struct heurnet_inst_pred *p, float over_weight,
                         struct heurnet_inst_err *e);

#endif
