/* heurnet ablate: train several network variants on the same data, split
 * and seed, and compare them in a Markdown table (stdout) and a CSV file:
 * size, training time and speed, validation and instance-file errors. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "cli/predict_instances.h"
#include "cli/train_common.h"
#include "common/hn.h"

#define MAX_VARIANTS 32
#define MAX_INST 4

struct ablate {
    struct cli_train_cfg c;
    const char *arch[MAX_VARIANTS];
    int nvar;
    char inst[MAX_INST][4096];
    int ninst, goal[MAX_INST];
    const char *csv, *save;
};

struct row {
    char variant[NN_SPEC_MAX + 32];
    size_t params;
    int epochs;
    double seconds, sps, mse, mae, exact, over;
    struct cli_inst_err ie[MAX_INST];
};

static void help(const struct cli_train_cfg *c)
{
    printf("usage: heurnet ablate --data FILE.h5 --arch SPEC --arch SPEC ... [options]\n\n"
           "Train each variant with the same data, split and seed; print a Markdown table\n"
           "(parameters, train time, samples/s, validation MSE, MAE, exact %%, over-estimate %%,\n"
           "and the same on each --instances file with known optimal lengths) and a CSV file.\n\n"
           "  --arch SPEC[@LOSS] a variant; @LOSS overrides --loss for it (e.g.\n"
           "                     256-512-256-128-1@amse:2); repeat [at least one]\n"
           "  --instances FILE[@GOAL]  instance file with optimal lengths, GOAL its layout\n"
           "                     (blank-first | blank-last) [the model's]; repeatable, up to %d\n"
           "  --csv FILE         CSV output [ablate.csv]\n"
           "  --save PREFIX      also save each model as PREFIX<i>.h5 (i = 1, 2, ...)\n",
           MAX_INST);
    cli_train_help(stdout, c);
    printf("  -h, --help         this help\n");
}

enum { OPT_ARCH = 1300, OPT_INST, OPT_CSV, OPT_SAVE };

/* "FILE" or "FILE@blank-last": the goal layout of the file's boards. */
static int inst_arg(struct ablate *a, const char *arg)
{
    char *f = a->inst[a->ninst];
    snprintf(f, sizeof a->inst[0], "%s", arg);
    char *at = strrchr(f, '@');
    a->goal[a->ninst] = -1;
    if (at) {
        *at = '\0';
        if (srch_np_goal_parse(at + 1, &a->goal[a->ninst]))
            return cli_usage("ablate", "--instances %s: '%s' is not blank-first or blank-last", arg, at + 1);
    }
    a->ninst++;
    return 0;
}

static int parse(int argc, char **argv, struct ablate *a)
{
    static const struct option opts[] = {
        CLI_TRAIN_LONGOPTS, CLI_ARCH_LONGOPTS,
        {"arch", required_argument, NULL, OPT_ARCH}, {"instances", required_argument, NULL, OPT_INST},
        {"csv", required_argument, NULL, OPT_CSV},
        {"save", required_argument, NULL, OPT_SAVE}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        int r = cli_train_option("ablate", &a->c, opt, optarg);
        if (r == 1)
            continue;
        if (r)
            return r;
        switch (opt) {
        case OPT_ARCH:
            if (a->nvar >= MAX_VARIANTS)
                return cli_usage("ablate", "at most %d --arch variants", MAX_VARIANTS);
            a->arch[a->nvar++] = optarg;
            break;
        case OPT_INST:
            if (a->ninst >= MAX_INST)
                return cli_usage("ablate", "at most %d --instances files", MAX_INST);
            if (inst_arg(a, optarg))
                return CLI_EXIT_USAGE;
            break;
        case OPT_CSV: a->csv = optarg; break;
        case OPT_SAVE: a->save = optarg; break;
        case 'h': help(&a->c); return -1;
        default: return cli_usage("ablate", "unknown option");
        }
    }
    if (optind < argc)
        return cli_usage("ablate", "unexpected argument '%s'", argv[optind]);
    if (!a->c.ndata)
        return cli_usage("ablate", "--data FILE.h5 is required");
    if (!a->nvar)
        return cli_usage("ablate", "at least one --arch SPEC is required");
    return 0;
}

/* Split "SPEC@LOSS" and check both parts. */
static int variant(const char *cmd, const char *arg, const struct trn_opts *base, char *spec, size_t cap,
                   struct trn_opts *o)
{
    *o = *base;
    snprintf(spec, cap, "%s", arg);
    char *at = strchr(spec, '@');
    if (at) {
        *at = '\0';
        if (trn_loss_parse(at + 1, &o->loss, &o->over_weight))
            return cli_usage(cmd, "--arch %s: %s", arg, hn_errmsg());
    }
    struct nn_spec sp;
    if (cli_arch_parse(cmd, spec, &o->defaults, &sp))
        return CLI_EXIT_USAGE;
    o->arch = spec;
    return 0;
}

static void on_epoch(const struct trn_epoch *e, void *user)
{
    fprintf(stderr, "  [%s] ", (const char *)user);
    cli_train_csv_line(stderr, e);
}

static int run_variant(struct ablate *a, const trn_data *d, int i, struct row *r)
{
    char spec[NN_SPEC_MAX];
    struct trn_opts o;
    int rc = variant("ablate", a->arch[i], &a->c.o, spec, sizeof spec, &o);
    if (rc)
        return rc;
    snprintf(r->variant, sizeof r->variant, "%s", a->arch[i]);
    o.on_epoch = a->c.quiet ? NULL : on_epoch;
    o.epoch_user = r->variant;
    nn_model *m = NULL;
    struct trn_result res;
    struct trn_epoch plain = {0};
    if ((rc = trn_run(d, &o, &m, &res)) ||
        (rc = trn_evaluate(d, trn_data_rows(d, TRN_VAL) ? TRN_VAL : TRN_TRAIN, m, o.batch, NN_LOSS_MSE, 1.0f,
                           &plain)))
        goto done;
    *r = (struct row){.params = res.params, .epochs = res.epochs_run, .seconds = res.seconds,
                      .sps = res.samples_per_s, .mse = plain.val_loss, .mae = plain.val_mae,
                      .exact = plain.val_exact, .over = plain.val_over};
    snprintf(r->variant, sizeof r->variant, "%s", a->arch[i]);
    for (int k = 0; !rc && k < a->ninst; k++) {
        struct cli_inst_pred p;
        rc = cli_instances_predict(m, r->variant, a->inst[k], a->goal[k], 256, &p);
        if (!rc)
            cli_instances_errors(&p, 1.0f, &r->ie[k]);
        cli_inst_pred_free(&p);
    }
    if (!rc && a->save) {
        char path[4096];
        snprintf(path, sizeof path, "%s%d.h5", a->save, i + 1);
        rc = nn_model_save(m, path);
    }
done:
    nn_model_free(m);
    return rc ? cli_fail("ablate") : 0;
}

static void table(FILE *f, const struct ablate *a, const struct row *r, int n, int md)
{
    const char *sep = md ? " | " : ",";
    if (md)
        fprintf(f, "| variant | params | epochs | train s | samples/s | val MSE | val MAE | exact %% | over %%");
    else
        fprintf(f, "variant,params,epochs,train_s,samples_per_s,val_mse,val_mae,val_exact,val_over");
    for (int k = 0; k < a->ninst; k++) {
        const char *b = strrchr(a->inst[k], '/');
        b = b ? b + 1 : a->inst[k];
        if (md)
            fprintf(f, " | %s MAE | %s exact %% | %s over %%", b, b, b);
        else
            fprintf(f, ",%s_mae,%s_exact,%s_over", b, b, b);
    }
    fprintf(f, md ? " |\n|---|---:|---:|---:|---:|---:|---:|---:|---:" : "\n");
    for (int k = 0; md && k < a->ninst; k++)
        fprintf(f, "|---:|---:|---:");
    if (md)
        fprintf(f, "|\n");
    for (int i = 0; i < n; i++) {
        double pct = md ? 100.0 : 1.0;
        /* percentages with 2 decimals in the table, shares with 4 in the CSV */
        const char *pf = md ? "%s%s%s%zu%s%d%s%.1f%s%.0f%s%.4f%s%.4f%s%.2f%s%.2f"
                            : "%s%s%s%zu%s%d%s%.1f%s%.0f%s%.4f%s%.4f%s%.4f%s%.4f";
        fprintf(f, pf, md ? "| " : "", r[i].variant, sep,
                r[i].params, sep, r[i].epochs, sep, r[i].seconds, sep, r[i].sps, sep, r[i].mse, sep,
                r[i].mae, sep, r[i].exact * pct, sep, r[i].over * pct);
        for (int k = 0; k < a->ninst; k++)
            fprintf(f, md ? "%s%.3f%s%.2f%s%.2f" : "%s%.4f%s%.4f%s%.4f", sep, r[i].ie[k].mae, sep, r[i].ie[k].exact * pct, sep,
                    r[i].ie[k].over * pct);
        fprintf(f, md ? " |\n" : "\n");
    }
}

int cmd_ablate(int argc, char **argv)
{
    struct ablate a = {.csv = "ablate.csv"};
    cli_train_cfg_init(&a.c);
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.c.quiet);
    nn_blas_threads(a.c.o.threads);
    hn_stop_install();
    trn_data *d = trn_data_open(a.c.data, a.c.ndata, a.c.val_fraction, a.c.sources, &rc);
    if (!d)
        return cli_fail("ablate");
    if ((rc = cli_train_check_complete("ablate", &a.c, d))) {
        trn_data_free(d);
        return rc;
    }
    struct row *rows = calloc((size_t)a.nvar, sizeof *rows);
    FILE *csv = NULL;
    if (!rows) {
        trn_data_free(d);
        hn_fail(HN_ERR_NOMEM, "out of memory");
        return cli_fail("ablate");
    }
    for (int i = 0; !rc && i < a.nvar; i++) {
        if (!a.c.quiet)
            fprintf(stderr, "heurnet ablate: variant %d/%d: %s\n", i + 1, a.nvar, a.arch[i]);
        rc = run_variant(&a, d, i, &rows[i]);
    }
    if (!rc) {
        table(stdout, &a, rows, a.nvar, 1);
        csv = fopen(a.csv, "w");
        if (!csv) {
            fprintf(stderr, "heurnet ablate: %s: cannot create the CSV file\n", a.csv);
            rc = CLI_EXIT_FAIL;
        } else {
            table(csv, &a, rows, a.nvar, 0);
            if (fclose(csv) != 0) {
                fprintf(stderr, "heurnet ablate: %s: cannot write the CSV file\n", a.csv);
                rc = CLI_EXIT_FAIL;
            }
        }
    }
    free(rows);
    trn_data_free(d);
    return rc;
}
