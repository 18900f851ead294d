/* heurnet ablate: train several network variants, each with several seeds,
 * on the same data and split; compare them by means +- standard errors,
 * paired tests against a baseline, A* on boards with known optimal lengths
 * and plots. The CSV (one row per run) is the journal a rerun resumes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "cli/train_common.h"
#include "common/hn.h"
#include "domains/dom.h"
#include "search/generic/srch_dom.h"
#include "solve/ablate.h"
#include "train/trn_mpi.h"

/* The command's options: the training options, the ablation the library
 * runs, and where the plots go. */
struct ablate {
    struct cli_train_cfg c;
    struct heurnet_ablate r;
    const char *plot;
};

/* "FILE" or "FILE@blank-last" into buf and *goal (-1: not given). */
static int file_goal(const char *arg, char *buf, size_t cap, int *goal)
{
    snprintf(buf, cap, "%s", arg);
    char *at = strrchr(buf, '@');
    *goal = -1;
    if (at) {
        *at = '\0';
        if (strcmp(at + 1, "blank-first") && strcmp(at + 1, "blank-last"))
            return hn_fail(HN_ERR_ARG, "%s: '%s' is not blank-first or blank-last", arg, at + 1);
        *goal = !strcmp(at + 1, "blank-last");
    }
    return 0;
}

/* --instances FILE[@GOAL], repeatable */
static int inst_parse(void *field, const char *v)
{
    struct heurnet_ablate *r = field;
    if (r->ninst >= HEURNET_ABL_MAX_INST)
        return hn_fail(HN_ERR_ARG, "at most %d --instances files", HEURNET_ABL_MAX_INST);
    int rc = file_goal(v, r->inst[r->ninst], sizeof r->inst[0], &r->goal[r->ninst]);
    r->ninst += !rc;
    return rc;
}

/* --search FILE[@GOAL][:N]: a trailing ":digits" is the board count. */
static int search_parse(void *field, const char *v)
{
    struct heurnet_ablate *r = field;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", v);
    char *colon = strrchr(buf, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        long n;
        if (cli_parse_long(colon + 1, 1, 1000000, &n))
            return hn_fail(HN_ERR_ARG, "%s: N must be 1..1000000", v);
        r->search_n = (int)n;
        *colon = '\0';
    }
    return file_goal(buf, r->search, sizeof r->search, &r->search_goal);
}

/* --arch, --grid and --variants add variants; a file that cannot be read
 * is a failure (exit 1), a bad spec misuse. */
static int variants_check(struct heurnet_ablate *r, int rc)
{
    if (!rc && r->var.n > HEURNET_ABL_MAX_VARIANTS)
        return hn_fail(HN_ERR_ARG, "too many variants");
    return rc;
}
static int arch_parse(void *field, const char *v)
{
    return variants_check(field, trn_abl_list_add(&((struct heurnet_ablate *)field)->var, v));
}
static int grid_parse(void *field, const char *v)
{
    struct heurnet_ablate *r = field;
    return variants_check(r, trn_abl_grid_expand(v, HEURNET_ABL_MAX_VARIANTS, &r->var));
}
static int variants_parse(void *field, const char *v)
{
    struct heurnet_ablate *r = field;
    return variants_check(r, trn_abl_variants_read(v, HEURNET_ABL_MAX_VARIANTS, &r->var));
}

#define AB(f) offsetof(struct ablate, f)
static const struct cli_opt ablate_opts[] = {
    CLI_FN("arch", AB(r), arch_parse, "SPEC[@LOSS]",
           "a variant; @LOSS overrides --loss for it (e.g. 256-512-256-128-1@amse:2); "
           "repeatable"),
    CLI_FN("grid", AB(r), grid_parse, "G",
           "variants from a brace grid: '81-{64,128}-1@{mse,amse:4}' is four variants (the "
           "first group varies slowest); repeatable"),
    CLI_FN("variants", AB(r), variants_parse, "FILE",
           "one SPEC[@LOSS] (or grid) a line, '#' comments [" CLI_QUOTE(
               HEURNET_ABL_MAX_VARIANTS) " variants at most in all]"),
    CLI_INT("seeds", AB(r.nseeds), 1, HEURNET_ABL_MAX_SEEDS, "N",
            "seeds per variant: --seed, --seed+1, ... (weights, order and dropout; the split "
            "is the same for all)"),
    CLI_INT("baseline", AB(r.baseline), 1, HEURNET_ABL_MAX_VARIANTS, "K",
            "compare every variant with variant K (1-based) over the paired seeds: difference, "
            "95 % CI, paired t-test p, seeds for 80 % power [none]"),
    CLI_FN("instances", AB(r), inst_parse, "FILE[@GOAL]",
           "instance file with optimal lengths, GOAL its layout (blank-first | blank-last) "
           "[the model's]; repeatable, up to " CLI_QUOTE(HEURNET_ABL_MAX_INST)),
    CLI_FN("search", AB(r), search_parse, "FILE[@GOAL][:N]",
           "A* with each trained model on the first N boards of FILE that have a known optimal "
           "length [N = 50]: optimal share, mean excess, mean expanded nodes, solved share, "
           "seconds per board"),
    CLI_STR("search-opts", AB(r.search_opts), "OPTS",
            "the settings of solve's ann: spec after the model, e.g. "
            "'mirror,scale:100,delta:1,pdb:7-8' [none]"),
    CLI_U64("search-limit", AB(r.search_limit), 1, "N",
            "expanded nodes per board before A* gives up (counts as not solved)"),
    CLI_INT("jobs", AB(r.jobs), 1, 64, "J",
            "runs in parallel, each in its own process with --threads BLAS threads"),
    CLI_STR("csv", AB(r.csv), "FILE", "CSV output and journal"),
    CLI_STR("plot", AB(plot), "PREFIX",
            "gnuplot PNGs: PREFIX-curves.png (validation MAE per epoch, mean and +- standard "
            "error band), PREFIX-metrics.png (bars with error bars), PREFIX-search.png (with "
            "--search) [none]"),
    CLI_STR("save", AB(r.save), "PREFIX",
            "also save each model as PREFIX<variant>-<seed>.h5 (PREFIX<variant>.h5 with one "
            "seed) [none]"),
    CLI_TEXT("Training:"),
    CLI_TABLE(cli_train_table, AB(c)),
    CLI_END};
static const struct cli_opt_cmd ablate_cmd = {
    .cmd = "ablate",
    .usage =
        "ablate --data FILE.h5 (--arch SPEC | --grid G | --variants FILE)...\n"
        "                      [--seeds N] [--baseline K] [--search FILE] [--jobs J] [options]\n\n"
        "Train each variant with N seeds on the same data and split; print a Markdown table\n"
        "of means +- standard errors over the seeds (parameters, epochs, train time, samples/s,\n"
        "validation MSE, MAE, exact %, over-estimate %, the same on each --instances file, and\n"
        "A* metrics with --search) and write a CSV with one row per run. The CSV is a journal:\n"
        "the same command rerun after an interruption trains only the runs it lacks.\n\n",
    .opts = ablate_opts,
    .epilog =
        "Under mpirun -np N the runs the journal lacks are dealt round-robin over the ranks,\n"
        "each running --jobs workers; rank 0 alone writes the CSV and prints the tables.\n"};

static int check_args(struct ablate *a)
{
    if (!a->c.ndata)
        return cli_usage("ablate", "--data FILE.h5 is required");
    if (!a->r.var.n)
        return cli_usage("ablate", "at least one --arch, --grid or --variants is required");
    if (a->r.baseline > a->r.var.n)
        return cli_usage("ablate", "--baseline %d: there are only %d variants", a->r.baseline,
                         a->r.var.n);
    if (a->r.baseline && a->r.nseeds < 2)
        return cli_usage("ablate", "--baseline needs --seeds 2 or more (a paired test)");
    if (a->r.search_opts && !a->r.search[0])
        return cli_usage("ablate", "--search-opts needs --search FILE");
    a->r.baseline--; /* 0-based, -1: none */
    char spec[NN_SPEC_MAX];
    struct trn_opts o;
    for (int v = 0; v < a->r.var.n; v++) {
        for (int w = 0; w < v; w++)
            if (!strcmp(a->r.var.s[v], a->r.var.s[w]))
                return cli_usage("ablate", "variant %s is given twice", a->r.var.s[v]);
        if (heurnet_ablate_variant(a->r.var.s[v], &a->c.o, spec, sizeof spec, &o))
            return cli_usage("ablate", "%s", hn_errmsg());
    }
    return 0;
}

static int parse(int argc, char **argv, struct ablate *a)
{
    int nargs, rc = cli_opt_parse(&ablate_cmd, a, argc, argv, &nargs);
    return rc ? rc : check_args(a);
}

/* The domain the files are read through, and the search states: those
 * with a known optimum, the first N. */
static int search_setup(struct ablate *a, const trn_data *d)
{
    int rc = heurnet_ablate_domain(&a->r, d);
    if (rc == HN_ERR_ARG)
        return cli_usage("ablate", "%s", hn_errmsg());
    if (rc)
        return cli_fail("ablate");
    if (!a->r.search[0])
        return 0;
    rc = heurnet_ablate_search_boards(&a->r);
    if (rc == HN_ERR_ARG)
        return cli_usage("ablate", "%s", hn_errmsg());
    if (rc)
        return cli_fail("ablate");
    if (!a->r.nboards) {
        fprintf(stderr, "heurnet ablate: %s: no board with a known optimal length\n", a->r.search);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

static trn_abl_journal *journal_open(struct ablate *a, const trn_data *d)
{
    int st;
    trn_abl_journal *j = heurnet_ablate_journal_open(&a->r, d, &st);
    if (!j && st == HN_ERR_NOMEM)
        cli_fail("ablate");
    else if (!j)
        fprintf(stderr, "heurnet ablate: %s\n", hn_errmsg());
    return j;
}

/* The search settings checked and their admissible part built into the
 * table cache once, before the workers that read it start; only when runs
 * are left. */
static int search_floor(struct ablate *a)
{
    char spec[1024];
    const char *opts = a->r.search_opts;
    snprintf(spec, sizeof spec, "ann:SELF%s%s", opts ? "," : "", opts ? opts : "");
    int rc = srch_dom_heur_spec_prepare(a->r.search_dom ? a->r.search_dom : a->r.dom, spec);
    if (rc == HN_ERR_ARG)
        return cli_usage("ablate", "--search-opts: %s", hn_errmsg());
    return rc ? cli_fail("ablate") : 0;
}

static void banner(const struct ablate *a, const trn_abl_journal *j)
{
    int total = a->r.var.n * a->r.nseeds, done = trn_abl_journal_count(j);
    /* even with --quiet: a resumed ablation says what it kept */
    if (done)
        fprintf(stderr,
                "heurnet ablate: %d of %d runs are already in %s; training the %d missing\n", done,
                total, a->r.csv, total - done);
    if (a->c.quiet)
        return;
    fprintf(stderr,
            "heurnet ablate: %d variants x %d seeds (%llu..%llu) = %d runs; %d in %s, %d to "
            "train on %d rank(s) x %d jobs x %d BLAS threads; heurnet %s (%s)\n",
            a->r.var.n, a->r.nseeds, (unsigned long long)a->r.seed[0],
            (unsigned long long)a->r.seed[a->r.nseeds - 1], total, done, a->r.csv, total - done,
            a->r.size, a->r.jobs, a->c.o.threads, hn_version(), hn_revision());
    if (a->r.col_search >= 0)
        fprintf(stderr, "heurnet ablate: A* on %zu boards of %s (limit %llu expanded)%s%s\n",
                a->r.nboards, a->r.search, (unsigned long long)a->r.search_limit,
                a->r.search_opts ? ", ann settings " : "",
                a->r.search_opts ? a->r.search_opts : "");
}

/* One writer per journal: a second ablate on the same CSV waits for the
 * first, then reads what it wrote, instead of training every run again. */
static int journal_lock(const struct ablate *a, int *lock)
{
    *lock = hn_lock_take(a->r.csv, 0, NULL);
    if (*lock == HN_ERR_BUSY) {
        fprintf(stderr, "heurnet ablate: another ablate is writing %s; waiting for it\n", a->r.csv);
        *lock = hn_lock_take(a->r.csv, 1, NULL);
    }
    return *lock < 0 ? cli_fail("ablate") : 0;
}

static void on_epoch(const char *run, const struct trn_epoch *e, void *user)
{
    const struct ablate *a = user;
    if (!a->c.quiet) {
        fprintf(stderr, "  [%s] ", run);
        cli_train_csv_line(stderr, e);
    }
}

static void on_message(int kind, const char *msg, void *user)
{
    (void)user;
    if (kind == HEURNET_ABL_FAIL)
        fprintf(stderr, "heurnet: ablate: %s\n", msg); /* as cli_fail words it */
    else if (kind == HEURNET_ABL_BAD_LINE)
        fprintf(stderr, "heurnet: %s\n", msg); /* a bad line names its file */
    else
        fprintf(stderr, "heurnet ablate: %s\n", msg);
}

static int run(struct ablate *a)
{
    int rc, lock = -1;
    /* what the library takes from the training options */
    a->r.o = a->c.o;
    a->r.data = a->c.data;
    a->r.ndata = a->c.ndata;
    a->r.val_fraction = a->c.val_fraction;
    a->r.sources = a->c.sources;
    a->r.on_epoch = on_epoch;
    a->r.on_message = on_message;
    a->r.user = a;
    dom *dm = NULL;
    if ((rc = cli_train_open_domain("ablate", &a->c, &dm)))
        return rc;
    a->r.dom = dm;
    trn_data *d = cli_train_open_data("ablate", &a->c, dm, &rc);
    trn_abl_journal *j = NULL;
    rc = d ? 0 : rc;
    if (!rc) {
        heurnet_ablate_columns(&a->r);
        rc = cli_train_check_complete("ablate", &a->c, d);
    }
    if (!rc && a->r.rank == 0)
        rc = journal_lock(a, &lock);
    if (a->r.size > 1) /* the other ranks read the journal once rank 0 holds it */
        rc = heurnet_ablate_mpi_agree(rc);
    if (!rc && !(rc = search_setup(a, d)) && !(j = journal_open(a, d)))
        rc = CLI_EXIT_FAIL;
    if (!rc && trn_abl_journal_count(j) < a->r.var.n * a->r.nseeds && a->r.search[0])
        rc = search_floor(a);
    /* every rank has read the journal before rank 0 adds to it, and none
     * trains when one could not set up */
    if (a->r.size > 1)
        rc = heurnet_ablate_mpi_agree(rc);
    if (!rc) {
        if (a->r.rank == 0)
            banner(a, j);
        rc = heurnet_ablate_run_missing(&a->r, d, j) ? CLI_EXIT_FAIL : 0;
    }
    if (a->r.size > 1)
        rc = heurnet_ablate_mpi_finish(&a->r, a->r.rank == 0 ? j : NULL, rc, CLI_EXIT_FAIL);
    if (a->r.rank != 0)
        rc = rc ? CLI_EXIT_FAIL : 0;
    else if (rc && j)
        fprintf(stderr,
                "heurnet ablate: %d of %d runs are in %s; the same command trains the rest\n",
                trn_abl_journal_count(j), a->r.var.n * a->r.nseeds, a->r.csv);
    if (!rc && a->r.rank == 0) {
        heurnet_ablate_report(stdout, &a->r, j);
        if (a->plot)
            rc = heurnet_ablate_plot(&a->r, j, a->plot) ? CLI_EXIT_FAIL : 0;
    }
    trn_abl_journal_free(j);
    hn_lock_release(lock);
    trn_data_free(d);
    dom_free(dm);
    a->r.dom = NULL;
    return rc;
}

int cmd_ablate(int argc, char **argv)
{
    struct ablate a = {.r = {.csv = "ablate.csv",
                             .nseeds = 1,
                             .jobs = 1,
                             .search_n = 50,
                             .search_limit = 1000000,
                             .search_goal = -1,
                             .size = 1}};
    cli_train_cfg_init(&a.c);
    int rc = parse(argc, argv, &a);
    if (!rc && trn_mpi_launched())
        rc = heurnet_ablate_mpi_init(&a.r) ? cli_fail("ablate") : 0;
    if (!rc) {
        a.c.quiet |= a.r.rank != 0; /* rank 0 speaks for the run */
        cli_log_init(a.c.quiet);
        hn_stop_install();
        rc = run(&a);
    }
    if (a.r.size > 1)
        heurnet_ablate_mpi_end();
    heurnet_ablate_clear(&a.r);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
