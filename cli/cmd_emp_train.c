/* heurnet emp train-place: the options of the place scorer's training
 * (train/emp_place.c), its epoch lines and summary. The model file records
 * the decision it scores and the settings `emp solve --scorer` uses. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "datagen/emp_place.h"
#include "nn/nn.h"
#include "search/emp/srch_em_place.h"
#include "train/trn_emp.h"

typedef struct {
    struct trn_emp_place_opts o;
    const char *out;
    int quiet;
} train_args;

#define TA(f) offsetof(train_args, f)
static const struct cli_opt train_opts[] = {
    CLI_STR("data", TA(o.data), "FILE", "dataset of `emp gen-data --decision place` [required]"),
    CLI_STR("arch", TA(o.arch), "SPEC", "network; hidden layers elu without batch norm"),
    CLI_INT("epochs", TA(o.epochs), 1, 100000, "E", ""),
    CLI_INT("batch", TA(o.batch), 1, 100000, "G", "cells per batch"),
    CLI_REAL("lr", TA(o.lr), 0, 1e6, CLI_OPT_OPEN, "R", "Adam learning rate"),
    CLI_REAL("target-temp", TA(o.target_temp), 0, 1e6, CLI_OPT_OPEN, "T",
             "label temperature of the target distribution"),
    CLI_REAL("val", TA(o.val), 0, 1, CLI_OPT_BELOW, "F", "held-out fraction of the cells"),
    CLI_REAL("temperature", TA(o.temperature), 0, 1e6, 0, "T",
             "place_temperature recorded in the model"),
    CLI_U64("seed", TA(o.seed), 0, "S", ""),
    CLI_STRL('o', "output", TA(out), "FILE", "model [required]"),
    CLI_FLAGL('q', "quiet", TA(quiet), 1, "no per-epoch lines"),
    CLI_END};
static const struct cli_opt_cmd train_cmd = {
    .cmd = "emp train-place",
    .usage = "emp train-place --data PLACE.h5 [options] -o MODEL.h5\n\n"
             "Trains a place scorer (which perfect-match candidate the backtracker tries\n"
             "first) with a listwise softmax cross-entropy: within each sampled cell the\n"
             "target is softmax(label / --target-temp) over its candidates. Batches hold\n"
             "whole cells; --val of the cells are held out. The model records decision=place,\n"
             "encoder " SRCH_EM_PLACE_ENCODER " and place_temperature (the Gumbel noise `emp "
             "solve --scorer`\nadds to the scores, so restarts differ).\n\n",
    .opts = train_opts};

static void on_epoch(int e, double loss, const struct trn_emp_place_val *v, void *user)
{
    const train_args *a = user;
    if (!a->quiet)
        fprintf(stderr,
                "epoch %d/%d loss %.4f val_loss %.4f val_top1_gain %.3f (rule %.3f, "
                "oracle %.3f) val_top1_hit %.3f\n",
                e, a->o.epochs, loss, v->loss, v->top1, v->rule, v->oracle, v->hit);
}

/* Train on the rows read, save the model and print its summary. */
static int train(const float *x, const float *y, const int32_t *grp, const dg_emp_place_info *info,
                 train_args *a)
{
    struct trn_emp_place_result r;
    nn_model *m = NULL;
    a->o.on_epoch = on_epoch;
    a->o.user = a;
    int st = trn_emp_place_train(x, y, grp, info->rows, info->groups, &a->o, &m, &r);
    if (st == HN_OK)
        st = nn_model_save(m, a->out);
    const struct trn_emp_place_val *v = &r.val;
    if (st == HN_OK)
        printf("model=%s data=%s groups=%d train_groups=%d params=%zu val_loss=%.4f "
               "val_top1_gain=%.3f val_rule_gain=%.3f val_oracle_gain=%.3f val_top1_hit=%.3f\n",
               a->out, a->o.data, r.groups, r.train_groups, nn_model_param_count(m), v->loss,
               v->top1, v->rule, v->oracle, v->hit);
    nn_model_free(m);
    return st;
}

int cmd_emp_train_place(int argc, char **argv)
{
    train_args a = {.o = {.arch = "18-32-32-1",
                          .epochs = 20,
                          .batch = 128,
                          .lr = 0.002,
                          .target_temp = 1.0,
                          .val = 0.1,
                          .temperature = 0.5,
                          .seed = 1}};
    int nargs, prc = cli_opt_parse(&train_cmd, &a, argc, argv, &nargs);
    if (prc)
        return prc < 0 ? CLI_EXIT_OK : prc;
    if (!a.o.data || !a.out)
        return cli_usage(train_cmd.cmd, "--data PLACE.h5 and -o MODEL.h5 are required");
    float *x = NULL, *y = NULL;
    int32_t *grp = NULL;
    dg_emp_place_info info;
    cli_log_init(a.quiet);
    hn_stop_install();
    int st = dg_emp_place_read(a.o.data, &x, &y, &grp, &info);
    if (st == HN_OK)
        st = train(x, y, grp, &info, &a);
    free(x), free(y), free(grp);
    return st == HN_OK ? CLI_EXIT_OK : cli_fail("emp train-place");
}
