/* heurnet predict --instances: prints a model's estimate for each board of
 * a puzzle instance file (computed by solve/inst_pred.c). */
#include "cli/predict_instances.h"

#include <stdio.h>

#include "cli/cli.h"
#include "solve/inst_pred.h"

void cli_inst_parse_err(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet: %s\n", msg);
}

int cli_predict_instances(const char *model, const char *file, const char *goal, int batch)
{
    int file_goal = -1, rc = 0;
    if (goal && srch_np_goal_parse(goal, &file_goal))
        return cli_usage("predict", "--goal: expected blank-first or blank-last, got '%s'", goal);
    nn_model *m = nn_model_load(model, &rc);
    if (!m)
        return cli_fail("predict");
    struct heurnet_inst_pred p;
    rc = heurnet_inst_predict(m, model, file, file_goal, batch, cli_inst_parse_err, NULL, &p);
    for (size_t i = 0; !rc && i < p.n; i++)
        printf("%s\t%.6g\n", p.inst[i].id, p.pred[i]);
    heurnet_inst_pred_free(&p);
    nn_model_free(m);
    if (fflush(stdout) != 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "cannot write to standard output");
    return rc ? cli_fail("predict") : CLI_EXIT_OK;
}
