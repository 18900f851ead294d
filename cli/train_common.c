/* Options and CSV lines shared by heurnet train and heurnet ablate. */
#include "cli/train_common.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "common/hn.h"
#include "domains/dom.h"
#include "nn/nn.h"

void cli_train_cfg_init(struct cli_train_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->o = TRN_OPTS_DEFAULTS;
    c->o.defaults = cli_arch_defaults();
    c->val_fraction = 0.05;
}

void cli_train_help(FILE *out, const struct cli_train_cfg *c)
{
    const struct trn_opts *o = &c->o;
    fprintf(out,
            "  --data FILE.h5     dataset: /boards + /cost (n-puzzle, encoded npuzzle-onehot)\n"
            "                     or /x + /y float rows; repeat for more files [required]\n"
            "  --loss L           mse, or amse:F (over-estimates weigh F times) [mse]\n"
            "  --batch B          rows per step [%d]\n"
            "  --epochs E         passes over the training rows [%d]\n"
            "  --lr R             Adam learning rate [%g]\n"
            "  --lr-schedule S    constant | step | cosine [%s]\n"
            "  --lr-step N        step: epochs between decays [%d]\n"
            "  --lr-gamma G       step: factor per decay [%g]\n"
            "  --lr-min F         cosine: final rate as a share of --lr [%g]\n"
            "  --weight-decay W   decoupled weight decay (AdamW) [%g]\n"
            "  --val-fraction F   share of rows (by hash of the row) held out [%g]\n"
            "  --seed S           seed for weights, order and dropout [%llu]\n"
            "  --threads T        BLAS threads (bit-identical results need the same T) [%d]\n"
            "  --patience P       stop after P epochs without a better validation loss;\n"
            "                     0 = off (the best epoch's weights are kept anyway) [%d]\n"
            "  --sources LIST     keep only rows of these /source kinds, comma-separated:\n"
            "                     random, path, random-walk, file, all [every row]\n"
            "  --domain D         the domain of /states data (heurnet gen --domain); needed\n"
            "                     for a plug-in, else the data's or --init-from's domain\n"
            "  --allow-incomplete train on the committed rows of a dataset whose gen\n"
            "                     has not finished (attribute complete=0) [refuse]\n"
            "  --quiet            no progress on stderr\n",
            o->batch, o->epochs, o->lr, trn_schedule_name(o->schedule), o->lr_step, o->lr_gamma,
            o->lr_min, o->weight_decay, c->val_fraction, (unsigned long long)o->seed, o->threads,
            o->patience);
    cli_arch_help(out, &o->defaults);
}

static int parse_int(const char *cmd, const char *name, const char *arg, long lo, long hi, int *out)
{
    long v;
    if (cli_parse_long(arg, lo, hi, &v))
        return cli_usage(cmd, "--%s: expected %ld..%ld, got '%s'", name, lo, hi, arg);
    *out = (int)v;
    return 1;
}

static int parse_pos(const char *cmd, const char *name, const char *arg, double lo, double hi,
                     double *out)
{
    double v;
    if (cli_parse_double(arg, &v) || v < lo || v > hi)
        return cli_usage(cmd, "--%s: expected a number in [%g, %g], got '%s'", name, lo, hi, arg);
    *out = v;
    return 1;
}

/* "random,path" -> bits 0 and 1 (the /source values of heurnet gen). */
static int parse_sources(const char *cmd, const char *arg, unsigned *mask)
{
    static const char *const names[] = {"random", "path", "random-walk", "file", "all"};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    *mask = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = -1;
        for (int i = 0; i < 5; i++)
            if (!strcmp(t, names[i]))
                k = i;
        if (k < 0)
            return cli_usage(cmd, "--sources: '%s' is not random, path, random-walk, file or all",
                             t);
        *mask |= 1u << k;
    }
    if (!*mask)
        return cli_usage(cmd, "--sources: empty list");
    return 1;
}

int cli_train_option(const char *cmd, struct cli_train_cfg *c, int opt, const char *arg)
{
    struct trn_opts *o = &c->o;
    double v;
    int r;
    switch (opt) {
    case CLI_TRN_DATA:
        if (c->ndata >= CLI_TRAIN_MAX_DATA)
            return cli_usage(cmd, "at most %d --data files", CLI_TRAIN_MAX_DATA);
        c->data[c->ndata++] = arg;
        return 1;
    case CLI_TRN_LOSS:
        if (trn_loss_parse(arg, &o->loss, &o->over_weight))
            return cli_usage(cmd, "--loss: %s", hn_errmsg());
        return 1;
    case CLI_TRN_BATCH:
        return parse_int(cmd, "batch", arg, 2, 1 << 16, &o->batch);
    case CLI_TRN_EPOCHS:
        return parse_int(cmd, "epochs", arg, 1, 1000000, &o->epochs);
    case CLI_TRN_LR:
        return parse_pos(cmd, "lr", arg, 1e-9, 10, &o->lr);
    case CLI_TRN_SCHED:
        if (trn_schedule_parse(arg, &o->schedule))
            return cli_usage(cmd, "--lr-schedule: %s", hn_errmsg());
        return 1;
    case CLI_TRN_LRSTEP:
        return parse_int(cmd, "lr-step", arg, 1, 1000000, &o->lr_step);
    case CLI_TRN_LRGAMMA:
        return parse_pos(cmd, "lr-gamma", arg, 1e-6, 1, &o->lr_gamma);
    case CLI_TRN_LRMIN:
        return parse_pos(cmd, "lr-min", arg, 0, 1, &o->lr_min);
    case CLI_TRN_WD:
        return parse_pos(cmd, "weight-decay", arg, 0, 1, &o->weight_decay);
    case CLI_TRN_VAL:
        if (cli_parse_double(arg, &v) || v < 0 || v >= 1)
            return cli_usage(cmd, "--val-fraction: expected a number in [0, 1), got '%s'", arg);
        c->val_fraction = v;
        return 1;
    case CLI_TRN_SEED:
        if (cli_parse_u64(arg, &o->seed))
            return cli_usage(cmd, "--seed: expected an unsigned integer, got '%s'", arg);
        return 1;
    case CLI_TRN_THREADS:
        return parse_int(cmd, "threads", arg, 1, 256, &o->threads);
    case CLI_TRN_PATIENCE:
        return parse_int(cmd, "patience", arg, 0, 1000000, &o->patience);
    case CLI_TRN_QUIET:
        c->quiet = 1;
        return 1;
    case CLI_TRN_SOURCES:
        return parse_sources(cmd, arg, &c->sources);
    case CLI_TRN_DOMAIN:
        c->domain = arg;
        return 1;
    case CLI_TRN_INCOMPLETE:
        c->allow_incomplete = 1;
        return 1;
    default:
        r = cli_arch_option(cmd, opt, arg, &o->defaults);
        return r;
    }
}

int cli_train_check_complete(const char *cmd, const struct cli_train_cfg *c, const trn_data *d)
{
    const char *path = trn_data_incomplete(d);
    if (!path || c->allow_incomplete)
        return 0;
    hn_fail(HN_ERR_ARG,
            "%s: the gen that writes it has not finished (complete=0); rerun that gen to "
            "finish it, or pass --allow-incomplete to train on its committed rows",
            path);
    return cli_fail(cmd);
}

void cli_train_csv_header(FILE *f)
{
    fprintf(f, "epoch,train_loss,val_loss,val_mae,val_exact,val_over,samples_per_s,seconds\n");
}

void cli_train_csv_line(FILE *f, const struct trn_epoch *e)
{
    fprintf(f, "%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.1f,%.2f\n", e->epoch, e->train_loss, e->val_loss,
            e->val_mae, e->val_exact, e->val_over, e->samples_per_s, e->seconds);
}

/* The "domain" a model records into buf ("" when none or unreadable: the
 * training reports a bad model itself). */
static void model_domain(const char *path, char *buf, size_t cap)
{
    int st;
    nn_model *m = nn_model_load(path, &st);
    const char *md = m ? nn_model_get_meta_str(m, "domain") : NULL;
    snprintf(buf, cap, "%s", md ? md : "");
    nn_model_free(m);
    hn_error_clear();
}

int cli_train_open_domain(const char *cmd, const struct cli_train_cfg *c, struct dom **dm)
{
    char file[256] = "", init[256] = "";
    const char *given = c->domain;
    *dm = NULL;
    if (trn_data_file_domain(c->data[0], file, sizeof file))
        hn_error_clear(); /* the reader says what is wrong with the file */
    if (c->o.init)
        model_domain(c->o.init, init, sizeof init);
    const char *spec = given ? given : init[0] && file[0] ? init : file;
    if (!spec[0])
        return 0;
    int st;
    if (!(*dm = dom_open(spec, &st)))
        return given ? cli_usage(cmd, "--domain %s: %s", spec, hn_errmsg())
                     : cli_usage(cmd,
                                 "%s: cannot open its domain %s (%s); name it with --domain, "
                                 "e.g. --domain ./libplugin.so:ARGS",
                                 spec == init ? c->o.init : c->data[0], spec, hn_errmsg());
    if (init[0] && strcmp(init, dom_spec(*dm)) && strcmp(init, dom_canonical(*dm))) {
        int rc = cli_usage(cmd, "--init-from %s: a model of domain %s, not of %s", c->o.init, init,
                           dom_spec(*dm));
        dom_free(*dm);
        *dm = NULL;
        return rc;
    }
    return 0;
}

trn_data *cli_train_open_data(const char *cmd, const struct cli_train_cfg *c, const struct dom *dm,
                              int *code)
{
    int rc;
    trn_data *d = trn_data_open_dom(c->data, c->ndata, c->val_fraction, c->sources, dm, &rc);
    if (!d && rc == HN_ERR_ARG) {
        fprintf(stderr, "heurnet %s: %s\n", cmd, hn_errmsg());
        *code = CLI_EXIT_USAGE;
    } else if (!d) {
        *code = cli_fail(cmd);
    }
    return d;
}
