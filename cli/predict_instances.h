/* Models over puzzle instance files: `heurnet predict --instances` and the
 * instance columns of `heurnet ablate`. */
#ifndef HN_CLI_PREDICT_INSTANCES_H
#define HN_CLI_PREDICT_INSTANCES_H

#include <stddef.h>

#include "nn/nn.h"
#include "search/srch.h"

/* Every board of an instance file and the model's prediction for it. */
struct cli_inst_pred {
    srch_np_instance *inst;
    double *pred;
    size_t n;
};

/* Parse `file` (boards in layout `file_goal`; -1: the model's layout), encode
 * each board in the model's goal layout (npuzzle-onehot encoder required) and
 * evaluate. `name` names the model in messages. Returns 0, or a status with
 * hn_errmsg naming the file. */
int cli_instances_predict(const nn_model *m, const char *name, const char *file, int file_goal,
                          int batch, struct cli_inst_pred *out);
void cli_inst_pred_free(struct cli_inst_pred *p);

/* Errors against the known optimal lengths (instances without one are
 * skipped; *n_known gets how many had one). over_weight weighs
 * over-estimates in the loss like amse. */
struct cli_inst_err {
    size_t n_known;
    double loss, mae, exact, over;
};
void cli_instances_errors(const struct cli_inst_pred *p, float over_weight, struct cli_inst_err *e);

/* `heurnet predict --model M --instances FILE [--goal G]`: prints
 * "id<TAB>prediction" per instance; returns an exit code. */
int cli_predict_instances(const char *model, const char *file, const char *goal, int batch);

#endif
