/* `heurnet predict --instances`; the predictions themselves are
 * solve/inst_pred.h. */
#ifndef HN_CLI_PREDICT_INSTANCES_H
#define HN_CLI_PREDICT_INSTANCES_H

/* A bad line of an instance file on stderr (a srch_np_parse_err_fn). */
void cli_inst_parse_err(const char *msg, void *user);

/* `heurnet predict --model M --instances FILE [--goal G]`: prints
 * "id<TAB>prediction" per instance; returns an exit code. */
int cli_predict_instances(const char *model, const char *file, const char *goal, int batch);

#endif
