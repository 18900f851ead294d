/* heurnet emp train-place: the options of the place scorer's training
 * (train/emp_place.c), its epoch lines and summary. The model file records
 * the decision it scores and the settings `emp solve --scorer` uses. */
#include <getopt.h>
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
    const char *data, *out, *arch;
    int epochs, batch, quiet;
    double lr, target_temp, val, temperature;
    uint64_t seed;
} train_args;

static void train_help(FILE *f)
{
    fprintf(f,
            "usage: heurnet emp train-place --data PLACE.h5 [options] -o MODEL.h5\n\n"
            "Trains a place scorer (which perfect-match candidate the backtracker tries\n"
            "first) with a listwise softmax cross-entropy: within each sampled cell the\n"
            "target is softmax(label / --target-temp) over its candidates. Batches hold\n"
            "whole cells; --val of the cells are held out. The model records decision=place,\n"
            "encoder %s and place_temperature (the Gumbel noise `emp solve --scorer`\n"
            "adds to the scores, so restarts differ).\n\n"
            "  --data FILE           dataset of `emp gen-data --decision place` (required)\n"
            "  --arch SPEC           network [18-32-32-1], hidden layers elu without batch norm\n"
            "  --epochs E            [20]\n"
            "  --batch G             cells per batch [128]\n"
            "  --lr R                Adam learning rate [0.002]\n"
            "  --target-temp T       label temperature of the target distribution [1]\n"
            "  --val F               held-out fraction of the cells [0.1]\n"
            "  --temperature T       place_temperature recorded in the model [0.5]\n"
            "  --seed S              [1]\n"
            "  -o, --output FILE     model (required)\n"
            "  -q, --quiet           no per-epoch lines\n"
            "  -h, --help            this help\n",
            SRCH_EM_PLACE_ENCODER);
}

static int parse_train(int argc, char **argv, train_args *a)
{
    static const struct option lo[] = {{"data", required_argument, 0, 'd'},
                                       {"arch", required_argument, 0, 'a'},
                                       {"epochs", required_argument, 0, 'e'},
                                       {"batch", required_argument, 0, 'b'},
                                       {"lr", required_argument, 0, 'l'},
                                       {"target-temp", required_argument, 0, 'T'},
                                       {"val", required_argument, 0, 'v'},
                                       {"temperature", required_argument, 0, 't'},
                                       {"seed", required_argument, 0, 's'},
                                       {"output", required_argument, 0, 'o'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    const char *cmd = "emp train-place";
    long v;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:q", lo, NULL)) != -1) {
        int bad = 0;
        switch (ch) {
        case 'h':
            train_help(stdout);
            return -1;
        case 'd':
            a->data = optarg;
            break;
        case 'a':
            a->arch = optarg;
            break;
        case 'e':
            bad = cli_parse_long(optarg, 1, 100000, &v) < 0;
            a->epochs = (int)v;
            break;
        case 'b':
            bad = cli_parse_long(optarg, 1, 100000, &v) < 0;
            a->batch = (int)v;
            break;
        case 'l':
            bad = cli_parse_double(optarg, &a->lr) < 0 || !(a->lr > 0);
            break;
        case 'T':
            bad = cli_parse_double(optarg, &a->target_temp) < 0 || !(a->target_temp > 0);
            break;
        case 'v':
            bad = cli_parse_double(optarg, &a->val) < 0 || !(a->val >= 0 && a->val < 1);
            break;
        case 't':
            bad = cli_parse_double(optarg, &a->temperature) < 0 || !(a->temperature >= 0);
            break;
        case 's':
            bad = cli_parse_u64(optarg, &a->seed) < 0;
            break;
        case 'o':
            a->out = optarg;
            break;
        case 'q':
            a->quiet = 1;
            break;
        default:
            return cli_usage(cmd, "unknown option");
        }
        if (bad)
            return cli_usage(cmd, "bad value '%s' (see --help for the ranges)", optarg);
    }
    if (!a->data || !a->out)
        return cli_usage(cmd, "--data PLACE.h5 and -o MODEL.h5 are required");
    return 0;
}

static void on_epoch(int e, double loss, const struct trn_emp_place_val *v, void *user)
{
    const train_args *a = user;
    if (!a->quiet)
        fprintf(stderr,
                "epoch %d/%d loss %.4f val_loss %.4f val_top1_gain %.3f (rule %.3f, "
                "oracle %.3f) val_top1_hit %.3f\n",
                e, a->epochs, loss, v->loss, v->top1, v->rule, v->oracle, v->hit);
}

/* Train on the rows read, save the model and print its summary. */
static int train(const float *x, const float *y, const int32_t *grp, const dg_emp_place_info *info,
                 const train_args *a)
{
    struct trn_emp_place_opts o = {.arch = a->arch,
                                   .data = a->data,
                                   .epochs = a->epochs,
                                   .batch = a->batch,
                                   .lr = a->lr,
                                   .target_temp = a->target_temp,
                                   .val = a->val,
                                   .temperature = a->temperature,
                                   .seed = a->seed,
                                   .on_epoch = on_epoch,
                                   .user = (void *)a};
    struct trn_emp_place_result r;
    nn_model *m = NULL;
    int st = trn_emp_place_train(x, y, grp, info->rows, info->groups, &o, &m, &r);
    if (st == HN_OK)
        st = nn_model_save(m, a->out);
    const struct trn_emp_place_val *v = &r.val;
    if (st == HN_OK)
        printf("model=%s data=%s groups=%d train_groups=%d params=%zu val_loss=%.4f "
               "val_top1_gain=%.3f val_rule_gain=%.3f val_oracle_gain=%.3f val_top1_hit=%.3f\n",
               a->out, a->data, r.groups, r.train_groups, nn_model_param_count(m), v->loss, v->top1,
               v->rule, v->oracle, v->hit);
    nn_model_free(m);
    return st;
}

int cmd_emp_train_place(int argc, char **argv)
{
    train_args a = {.arch = "18-32-32-1",
                    .epochs = 20,
                    .batch = 128,
                    .lr = 0.002,
                    .target_temp = 1.0,
                    .val = 0.1,
                    .temperature = 0.5,
                    .seed = 1};
    int prc = parse_train(argc, argv, &a);
    if (prc)
        return prc < 0 ? CLI_EXIT_OK : prc;
    float *x = NULL, *y = NULL;
    int32_t *grp = NULL;
    dg_emp_place_info info;
    cli_log_init(a.quiet);
    hn_stop_install();
    int st = dg_emp_place_read(a.data, &x, &y, &grp, &info);
    if (st == HN_OK)
        st = train(x, y, grp, &info, &a);
    free(x), free(y), free(grp);
    return st == HN_OK ? CLI_EXIT_OK : cli_fail("emp train-place");
}
