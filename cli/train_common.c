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

/* --loss mse | amse:F */
static int loss_parse(void *field, const char *v)
{
    struct trn_opts *o = field;
    return trn_loss_parse(v, &o->loss, &o->over_weight);
}

/* --sources random,path,... -> bits 0, 1, ... (the /source values of heurnet gen). */
static int sources_parse(void *field, const char *v)
{
    static const char *const names[] = {"random", "path", "random-walk", "file", "all"};
    unsigned *mask = field;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    *mask = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int k = -1;
        for (int i = 0; i < 5; i++)
            if (!strcmp(t, names[i]))
                k = i;
        if (k < 0)
            return hn_fail(HN_ERR_ARG, "'%s' is not random, path, random-walk, file or all", t);
        *mask |= 1u << k;
    }
    return *mask ? 0 : hn_fail(HN_ERR_ARG, "empty list");
}

#define TC(f) offsetof(struct cli_train_cfg, f)
/* The schedule's words are in enum trn_schedule's order. */
const struct cli_opt cli_train_table[] = {
    CLI_LIST("data", TC(data), CLI_TRAIN_MAX_DATA, TC(ndata), "FILE.h5",
             "dataset: /boards + /cost (n-puzzle, encoded npuzzle-onehot) or /x + /y float "
             "rows; repeat for more files [required]"),
    CLI_FN("loss", TC(o), loss_parse, "L", "mse, or amse:F (over-estimates weigh F times) [mse]"),
    CLI_INT("batch", TC(o.batch), 2, 1 << 16, "B", "rows per step"),
    CLI_INT("epochs", TC(o.epochs), 1, 1000000, "E", "passes over the training rows"),
    CLI_REAL("lr", TC(o.lr), 1e-9, 10, 0, "R", "Adam learning rate"),
    CLI_ENUM("lr-schedule", TC(o.schedule), "constant|step|cosine", "the learning rate's course"),
    CLI_INT("lr-step", TC(o.lr_step), 1, 1000000, "N", "step: epochs between decays"),
    CLI_REAL("lr-gamma", TC(o.lr_gamma), 1e-6, 1, 0, "G", "step: factor per decay"),
    CLI_REAL("lr-min", TC(o.lr_min), 0, 1, 0, "F", "cosine: final rate as a share of --lr"),
    CLI_REAL("weight-decay", TC(o.weight_decay), 0, 1, 0, "W", "decoupled weight decay (AdamW)"),
    CLI_REAL("val-fraction", TC(val_fraction), 0, 1, CLI_OPT_BELOW, "F",
             "share of rows (by hash of the row) held out"),
    CLI_U64("seed", TC(o.seed), 0, "S", "seed for weights, order and dropout"),
    CLI_INT("threads", TC(o.threads), 1, 256, "T",
            "BLAS threads (bit-identical results need the same T)"),
    CLI_INT("patience", TC(o.patience), 0, 1000000, "P",
            "stop after P epochs without a better validation loss; 0 = off (the best epoch's "
            "weights are kept anyway)"),
    CLI_FN("sources", TC(sources), sources_parse, "LIST",
           "keep only rows of these /source kinds, comma-separated: random, path, random-walk, "
           "file, all [every row]"),
    CLI_STR("domain", TC(domain), "D",
            "the domain of /states data (heurnet gen --domain); needed for a plug-in, else the "
            "data's or --init-from's domain"),
    CLI_FLAG("allow-incomplete", TC(allow_incomplete), 1,
             "train on the committed rows of a dataset whose gen has not finished (attribute "
             "complete=0) [refuse]"),
    CLI_FLAG("quiet", TC(quiet), 1, "no progress on stderr"),
    CLI_TEXT("Network:"),
    CLI_TABLE(cli_arch_opts, TC(o.defaults)),
    CLI_END};

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

int cli_train_open_domain(const char *cmd, const struct cli_train_cfg *c, struct dom **dm)
{
    return trn_data_domain_open(c->domain, c->data[0], c->o.init, dm)
               ? cli_usage(cmd, "%s", hn_errmsg())
               : 0;
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
