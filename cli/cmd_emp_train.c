/* heurnet emp train-place: a place scorer trained with the listwise softmax
 * cross-entropy on the candidate groups of `emp gen-data --decision place`;
 * batches hold whole groups, and the validation split is by group. The
 * model file records the decision it scores and the settings `emp solve
 * --scorer` uses. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "datagen/emp_place.h"
#include "nn/nn.h"
#include "search/emp/srch_em_place.h"

typedef struct {
    const char *data, *out, *arch;
    int epochs, batch, quiet;
    double lr, target_temp, val, temperature;
    uint64_t seed;
} train_args;

typedef struct {
    float *x, *y;
    int32_t *group;
    int *start, ngroups; /* group g is rows start[g] .. start[g + 1] - 1 */
    int *order, ntrain;  /* shuffled groups: the first ntrain train, the rest validate */
    int max_rows;        /* rows of the largest group */
} place_data;

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

/* Group boundaries and the shuffled train / validation split. */
static int index_groups(place_data *d, size_t rows, int ngroups, double val, uint64_t seed)
{
    d->start = malloc(sizeof(int) * ((size_t)ngroups + 1));
    d->order = malloc(sizeof(int) * (size_t)ngroups);
    hn_rng *rng = hn_rng_new(seed);
    if (!d->start || !d->order || !rng) {
        hn_rng_free(rng);
        return HN_ERR_NOMEM;
    }
    int g = 0;
    for (size_t i = 0; i < rows; i++)
        if (i == 0 || d->group[i] != d->group[i - 1])
            d->start[g++] = (int)i;
    d->start[g] = (int)rows;
    d->ngroups = g;
    d->max_rows = 0;
    for (g = 0; g < d->ngroups; g++) {
        int n = d->start[g + 1] - d->start[g];
        d->max_rows = n > d->max_rows ? n : d->max_rows;
        d->order[g] = g;
    }
    for (g = d->ngroups - 1; g > 0; g--) {
        int j = (int)hn_rng_below(rng, (uint32_t)g + 1), t = d->order[g];
        d->order[g] = d->order[j], d->order[j] = t;
    }
    d->ntrain = d->ngroups - (int)(val * d->ngroups);
    hn_rng_free(rng);
    return HN_OK;
}

/* Rows of groups order[a..b) into x, y, grp; returns the row count. */
static int gather(const place_data *d, int a, int b, float *x, float *y, int32_t *grp)
{
    int n = 0;
    for (int k = a; k < b; k++) {
        int g = d->order[k], lo = d->start[g], hi = d->start[g + 1];
        memcpy(x + (size_t)n * SRCH_EM_PLACE_DIM, d->x + (size_t)lo * SRCH_EM_PLACE_DIM,
               sizeof(float) * SRCH_EM_PLACE_DIM * (size_t)(hi - lo));
        memcpy(y + n, d->y + lo, sizeof(float) * (size_t)(hi - lo));
        for (int i = lo; i < hi; i++)
            grp[n++] = k;
    }
    return n;
}

typedef struct {
    double loss, top1, oracle, rule, hit;
} val_stats;

/* Index of the largest of v[0..n) (the first on ties). */
static int argmax(const float *v, int n, int stride)
{
    int k = 0;
    for (int i = 1; i < n; i++)
        if (v[(size_t)i * stride] > v[(size_t)k * stride])
            k = i;
    return k;
}

/* One group's share of the validation figures: the label gain over a
 * random pick of the model's first choice, of the best candidate, and of
 * the rule "most fillers for the east cell". */
static void score_group(const float *x, const float *y, const float *s, int n, val_stats *v)
{
    double mean = 0;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    int k = argmax(s, n, 1), best = argmax(y, n, 1), rule = argmax(x + 1, n, SRCH_EM_PLACE_DIM);
    v->top1 += y[k] - mean;
    v->oracle += y[best] - mean;
    v->rule += y[rule] - mean;
    v->hit += y[k] == y[best];
}

/* Loss and ranking figures over the validation groups (means per group). */
static int validate(const place_data *d, nn_train *t, float *x, float *y, int32_t *grp,
                    const train_args *a, val_stats *v)
{
    *v = (val_stats){0};
    int groups = d->ngroups - d->ntrain;
    for (int k = d->ntrain; k < d->ngroups; k++) {
        int n = gather(d, k, k + 1, x, y, grp);
        if (nn_train_forward(t, x, n, NN_MODE_EVAL) != HN_OK)
            return HN_ERR_ARG;
        v->loss += nn_train_loss_listwise(t, y, grp, (float)a->target_temp);
        score_group(x, y, nn_train_output(t), n, v);
    }
    if (groups > 0) {
        v->loss /= groups, v->top1 /= groups, v->oracle /= groups;
        v->rule /= groups, v->hit /= groups;
    }
    return HN_OK;
}

/* One epoch over the training groups in a fresh order; mean batch loss. */
static double epoch(place_data *d, nn_train *t, nn_adam *opt, float *params, hn_rng *rng, float *x,
                    float *y, int32_t *grp, const train_args *a)
{
    for (int g = d->ntrain - 1; g > 0; g--) {
        int j = (int)hn_rng_below(rng, (uint32_t)g + 1), tmp = d->order[g];
        d->order[g] = d->order[j], d->order[j] = tmp;
    }
    double sum = 0;
    int batches = 0;
    for (int k = 0; k < d->ntrain; k += a->batch) {
        int end = k + a->batch < d->ntrain ? k + a->batch : d->ntrain;
        int n = gather(d, k, end, x, y, grp);
        if (n < 2 || nn_train_forward(t, x, n, NN_MODE_TRAIN) != HN_OK)
            continue;
        sum += nn_train_loss_listwise(t, y, grp, (float)a->target_temp);
        if (nn_train_backward(t) != HN_OK)
            continue;
        nn_adam_step(opt, params, nn_train_grad(t));
        batches++;
    }
    return batches ? sum / batches : 0;
}

/* The decision, encoder, settings for `emp solve` and the training record. */
static int record(nn_model *m, const train_args *a, const val_stats *v)
{
    return nn_model_set_encoder(m, SRCH_EM_PLACE_ENCODER) ||
           nn_model_set_meta_str(m, "decision", SRCH_EM_DECISION_PLACE) ||
           nn_model_set_meta_str(m, "search", "--start backtrack") ||
           nn_model_set_meta_double(m, "place_temperature", a->temperature) ||
           nn_model_set_meta_double(m, "target_temp", a->target_temp) ||
           nn_model_set_meta_str(m, "train_data", a->data) ||
           nn_model_set_meta_str(m, "train_loss", "listwise softmax cross-entropy") ||
           nn_model_set_meta_double(m, "train_epochs", a->epochs) ||
           nn_model_set_meta_double(m, "train_seed", (double)a->seed) ||
           nn_model_set_meta_double(m, "val_loss", v->loss) ||
           nn_model_set_meta_double(m, "val_top1_gain", v->top1) ||
           nn_model_set_meta_double(m, "val_oracle_gain", v->oracle);
}

typedef struct {
    nn_model *m;
    nn_train *t;
    nn_adam *opt;
    hn_rng *rng;
    float *x, *y;
    int32_t *grp;
} trainer;

static void trainer_free(trainer *w)
{
    nn_train_free(w->t), nn_adam_free(w->opt), nn_model_free(w->m), hn_rng_free(w->rng);
    free(w->x), free(w->y), free(w->grp);
}

static int trainer_init(trainer *w, const place_data *d, const train_args *a)
{
    struct nn_layer_defaults def = NN_LAYER_DEFAULTS;
    def.bn = 0;
    struct nn_spec spec;
    int st = nn_spec_parse(a->arch, &def, &spec);
    if (st != HN_OK)
        return st;
    if (spec.n_inputs != SRCH_EM_PLACE_DIM || spec.layer[spec.n_layers - 1].width != 1)
        return hn_fail(HN_ERR_SHAPE, "--arch must read %d inputs and give 1 output",
                       SRCH_EM_PLACE_DIM);
    size_t rows = (size_t)a->batch * (size_t)d->max_rows, np;
    struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
    ao.lr = (float)a->lr;
    w->m = nn_model_new(&spec, hn_seed_mix(a->seed, 1), &st);
    w->t = w->m ? nn_train_new(w->m, (int)rows, hn_seed_mix(a->seed, 2), &st) : NULL;
    float *params = w->t ? nn_model_params(w->m, &np) : NULL;
    w->opt = params ? nn_adam_new(np, &ao, &st) : NULL;
    w->rng = hn_rng_new(hn_seed_mix(a->seed, 3));
    w->x = malloc(sizeof(float) * rows * SRCH_EM_PLACE_DIM);
    w->y = malloc(sizeof(float) * rows);
    w->grp = malloc(sizeof(int32_t) * rows);
    if (!w->opt)
        return st;
    return w->rng && w->x && w->y && w->grp ? HN_OK : HN_ERR_NOMEM;
}

static int train(place_data *d, const train_args *a)
{
    trainer w = {0};
    int st = trainer_init(&w, d, a);
    val_stats v = {0};
    size_t np;
    float *params = st == HN_OK ? nn_model_params(w.m, &np) : NULL;
    for (int e = 0; e < a->epochs && st == HN_OK && !hn_stop_requested(); e++) {
        double loss = epoch(d, w.t, w.opt, params, w.rng, w.x, w.y, w.grp, a);
        st = validate(d, w.t, w.x, w.y, w.grp, a, &v);
        if (!a->quiet)
            fprintf(stderr,
                    "epoch %d/%d loss %.4f val_loss %.4f val_top1_gain %.3f (rule %.3f, "
                    "oracle %.3f) val_top1_hit %.3f\n",
                    e + 1, a->epochs, loss, v.loss, v.top1, v.rule, v.oracle, v.hit);
    }
    if (st == HN_OK && record(w.m, a, &v))
        st = hn_fail(HN_ERR_NOMEM, "cannot record the model's attributes");
    if (st == HN_OK)
        st = nn_model_save(w.m, a->out);
    if (st == HN_OK)
        printf("model=%s data=%s groups=%d train_groups=%d params=%zu val_loss=%.4f "
               "val_top1_gain=%.3f val_rule_gain=%.3f val_oracle_gain=%.3f val_top1_hit=%.3f\n",
               a->out, a->data, d->ngroups, d->ntrain, nn_model_param_count(w.m), v.loss, v.top1,
               v.rule, v.oracle, v.hit);
    trainer_free(&w);
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
    place_data d = {0};
    dg_emp_place_info info;
    cli_log_init(a.quiet);
    hn_stop_install();
    int st = dg_emp_place_read(a.data, &d.x, &d.y, &d.group, &info);
    if (st == HN_OK && index_groups(&d, info.rows, info.groups, a.val, a.seed) != HN_OK)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for %d groups", info.groups);
    if (st == HN_OK && d.ntrain < 1)
        st = hn_fail(HN_ERR_ARG, "%s: no cell left to train on", a.data);
    if (st == HN_OK)
        st = train(&d, &a);
    free(d.x), free(d.y), free(d.group), free(d.start), free(d.order);
    return st == HN_OK ? CLI_EXIT_OK : cli_fail("emp train-place");
}
