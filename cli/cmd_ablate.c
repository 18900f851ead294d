/* heurnet ablate: train several network variants, each with several seeds,
 * on the same data and split; compare them by means +- standard errors,
 * paired tests against a baseline, A* on boards with known optimal lengths
 * and plots. The CSV (one row per run) is the journal a rerun resumes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ablate.h"
#include "solve/search.h"
#include "cli/cli.h"
#include "cli/cmd_nn.h"
#include "common/hn.h"
#include "train/trn_mpi.h"

static void help(const struct cli_train_cfg *c)
{
    printf(
        "usage: heurnet ablate --data FILE.h5 (--arch SPEC | --grid G | --variants FILE)...\n"
        "                      [--seeds N] [--baseline K] [--search FILE] [--jobs J] [options]\n\n"
        "Train each variant with N seeds on the same data and split; print a Markdown table\n"
        "of means +- standard errors over the seeds (parameters, epochs, train time, samples/s,\n"
        "validation MSE, MAE, exact %%, over-estimate %%, the same on each --instances file, and\n"
        "A* metrics with --search) and write a CSV with one row per run. The CSV is a journal:\n"
        "the same command rerun after an interruption trains only the runs it lacks.\n\n"
        "  --arch SPEC[@LOSS] a variant; @LOSS overrides --loss for it (e.g.\n"
        "                     256-512-256-128-1@amse:2); repeatable\n"
        "  --grid G           variants from a brace grid: '81-{64,128}-1@{mse,amse:4}' is four\n"
        "                     variants (the first group varies slowest); repeatable\n"
        "  --variants FILE    one SPEC[@LOSS] (or grid) a line, '#' comments\n"
        "                     [%d variants at most in all]\n"
        "  --seeds N          seeds per variant: --seed, --seed+1, ... (weights, order and\n"
        "                     dropout; the split is the same for all) [1]\n"
        "  --baseline K       compare every variant with variant K (1-based) over the paired\n"
        "                     seeds: difference, 95 %% CI, paired t-test p, seeds for 80 %% power\n"
        "  --instances FILE[@GOAL]  instance file with optimal lengths, GOAL its layout\n"
        "                     (blank-first | blank-last) [the model's]; repeatable, up to %d\n"
        "  --search FILE[@GOAL][:N]  A* with each trained model on the first N boards of FILE\n"
        "                     that have a known optimal length [N = 50]: optimal share, mean\n"
        "                     excess, mean expanded nodes, solved share, seconds per board\n"
        "  --search-opts OPTS the settings of solve's ann: spec after the model, e.g.\n"
        "                     'mirror,scale:100,delta:1,pdb:7-8' [none]\n"
        "  --search-limit N   expanded nodes per board before A* gives up (counts as not\n"
        "                     solved) [%d]\n"
        "  --jobs J           runs in parallel, each in its own process with --threads BLAS\n"
        "                     threads [1]\n"
        "  --csv FILE         CSV output and journal [ablate.csv]\n"
        "  --plot PREFIX      gnuplot PNGs: PREFIX-curves.png (validation MAE per epoch, mean\n"
        "                     and +- standard error band), PREFIX-metrics.png (bars with\n"
        "                     error bars), PREFIX-search.png (with --search)\n"
        "  --save PREFIX      also save each model as PREFIX<variant>-<seed>.h5\n"
        "                     (PREFIX<variant>.h5 with one seed)\n"
        "Under mpirun -np N the runs the journal lacks are dealt round-robin over the ranks,\n"
        "each running --jobs workers; rank 0 alone writes the CSV and prints the tables.\n",
        ABL_MAX_VARIANTS, ABL_MAX_INST, 1000000);
    cli_train_help(stdout, c);
    printf("  -h, --help         this help\n");
}

enum {
    OPT_ARCH = 1300,
    OPT_INST,
    OPT_CSV,
    OPT_SAVE,
    OPT_GRID,
    OPT_VARIANTS,
    OPT_SEEDS,
    OPT_BASELINE,
    OPT_SEARCH,
    OPT_SEARCH_OPTS,
    OPT_SEARCH_LIMIT,
    OPT_JOBS,
    OPT_PLOT
};

/* "FILE" or "FILE@blank-last" into buf and *goal (-1: not given). */
static int file_goal(const char *opt, const char *arg, char *buf, size_t cap, int *goal)
{
    snprintf(buf, cap, "%s", arg);
    char *at = strrchr(buf, '@');
    *goal = -1;
    if (at) {
        *at = '\0';
        if (srch_np_goal_parse(at + 1, goal))
            return cli_usage("ablate", "%s %s: '%s' is not blank-first or blank-last", opt, arg,
                             at + 1);
    }
    return 0;
}

/* "FILE[@GOAL][:N]": a trailing ":digits" is the board count. */
static int search_arg(struct ablate *a, const char *arg)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", arg);
    char *colon = strrchr(buf, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        long n;
        if (cli_parse_long(colon + 1, 1, 1000000, &n))
            return cli_usage("ablate", "--search %s: N must be 1..1000000", arg);
        a->search_n = (int)n;
        *colon = '\0';
    }
    return file_goal("--search", buf, a->search, sizeof a->search, &a->search_goal);
}

static int parse_long_opt(const char *name, const char *arg, long lo, long hi, int *out)
{
    long v;
    if (cli_parse_long(arg, lo, hi, &v))
        return cli_usage("ablate", "--%s: expected %ld..%ld, got '%s'", name, lo, hi, arg);
    *out = (int)v;
    return 0;
}

static int variants_add(struct ablate *a, int opt, const char *arg)
{
    int rc = opt == OPT_ARCH   ? trn_abl_list_add(&a->var, arg)
             : opt == OPT_GRID ? trn_abl_grid_expand(arg, ABL_MAX_VARIANTS, &a->var)
                               : trn_abl_variants_read(arg, ABL_MAX_VARIANTS, &a->var);
    if (rc == HN_ERR_IO || rc == HN_ERR_NOMEM)
        return cli_fail("ablate");
    if (rc || a->var.n > ABL_MAX_VARIANTS)
        return cli_usage("ablate", "%s", rc ? hn_errmsg() : "too many variants");
    return 0;
}

static int option(struct ablate *a, int opt, const char *arg)
{
    uint64_t u;
    switch (opt) {
    case OPT_ARCH:
    case OPT_GRID:
    case OPT_VARIANTS:
        return variants_add(a, opt, arg);
    case OPT_INST:
        if (a->ninst >= ABL_MAX_INST)
            return cli_usage("ablate", "at most %d --instances files", ABL_MAX_INST);
        if (file_goal("--instances", arg, a->inst[a->ninst], sizeof a->inst[0], &a->goal[a->ninst]))
            return CLI_EXIT_USAGE;
        a->ninst++;
        return 0;
    case OPT_SEEDS:
        return parse_long_opt("seeds", arg, 1, ABL_MAX_SEEDS, &a->nseeds);
    case OPT_BASELINE:
        return parse_long_opt("baseline", arg, 1, ABL_MAX_VARIANTS, &a->baseline);
    case OPT_JOBS:
        return parse_long_opt("jobs", arg, 1, 64, &a->jobs);
    case OPT_SEARCH:
        return search_arg(a, arg);
    case OPT_SEARCH_OPTS:
        a->search_opts = arg;
        return 0;
    case OPT_SEARCH_LIMIT:
        if (cli_parse_u64(arg, &u) || !u)
            return cli_usage("ablate", "--search-limit: expected a positive integer, got '%s'",
                             arg);
        a->search_limit = u;
        return 0;
    case OPT_CSV:
        a->csv = arg;
        return 0;
    case OPT_SAVE:
        a->save = arg;
        return 0;
    case OPT_PLOT:
        a->plot = arg;
        return 0;
    default:
        return cli_usage("ablate", "unknown option");
    }
}

static int check_args(struct ablate *a)
{
    if (!a->c.ndata)
        return cli_usage("ablate", "--data FILE.h5 is required");
    if (!a->var.n)
        return cli_usage("ablate", "at least one --arch, --grid or --variants is required");
    if (a->baseline > a->var.n)
        return cli_usage("ablate", "--baseline %d: there are only %d variants", a->baseline,
                         a->var.n);
    if (a->baseline && a->nseeds < 2)
        return cli_usage("ablate", "--baseline needs --seeds 2 or more (a paired test)");
    if (a->search_opts && !a->search[0])
        return cli_usage("ablate", "--search-opts needs --search FILE");
    a->baseline--; /* 0-based, -1: none */
    char spec[NN_SPEC_MAX];
    struct trn_opts o;
    for (int v = 0; v < a->var.n; v++) {
        for (int w = 0; w < v; w++)
            if (!strcmp(a->var.s[v], a->var.s[w]))
                return cli_usage("ablate", "variant %s is given twice", a->var.s[v]);
        if (abl_variant_opts(a->var.s[v], &a->c.o, spec, sizeof spec, &o))
            return CLI_EXIT_USAGE;
    }
    if (a->search_opts)
        return cli_ann_settings_parse(a->search_opts, &a->ann, spec, sizeof spec);
    return 0;
}

static int parse(int argc, char **argv, struct ablate *a)
{
    static const struct option opts[] = {
        CLI_TRAIN_LONGOPTS,
        CLI_ARCH_LONGOPTS,
        {"arch", required_argument, NULL, OPT_ARCH},
        {"grid", required_argument, NULL, OPT_GRID},
        {"variants", required_argument, NULL, OPT_VARIANTS},
        {"seeds", required_argument, NULL, OPT_SEEDS},
        {"baseline", required_argument, NULL, OPT_BASELINE},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"instances", required_argument, NULL, OPT_INST},
        {"search", required_argument, NULL, OPT_SEARCH},
        {"search-opts", required_argument, NULL, OPT_SEARCH_OPTS},
        {"search-limit", required_argument, NULL, OPT_SEARCH_LIMIT},
        {"csv", required_argument, NULL, OPT_CSV},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"save", required_argument, NULL, OPT_SAVE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        int r = cli_train_option("ablate", &a->c, opt, optarg);
        if (r == 1)
            continue;
        if (r)
            return r;
        if (opt == 'h') {
            help(&a->c);
            return -1;
        }
        if ((r = option(a, opt, optarg)))
            return r;
    }
    if (optind < argc)
        return cli_usage("ablate", "unexpected argument '%s'", argv[optind]);
    return check_args(a);
}

static void col_set(struct ablate *a, const char *name, const char *label, int pct, int digits,
                    int timing, int compare)
{
    struct abl_col *c = &a->col[a->ncol++];
    *c = (struct abl_col){.pct = pct, .digits = digits, .timing = timing, .compare = compare};
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->label, sizeof c->label, "%s", label);
}

static void columns(struct ablate *a)
{
    col_set(a, "params", "params", 0, 0, 0, 0);
    col_set(a, "epochs", "epochs", 0, 1, 0, 0);
    col_set(a, "train_s", "train s", 0, 1, 1, 0);
    col_set(a, "samples_per_s", "samples/s", 0, 0, 1, 0);
    col_set(a, "val_mse", "val MSE", 0, 4, 0, 1);
    col_set(a, "val_mae", "val MAE", 0, 4, 0, 1);
    col_set(a, "val_exact", "exact %", 1, 2, 0, 1);
    col_set(a, "val_over", "over %", 1, 2, 0, 1);
    for (int k = 0; k < a->ninst; k++) {
        const char *b = strrchr(a->inst[k], '/');
        b = b ? b + 1 : a->inst[k];
        char n[96], l[96];
        snprintf(n, sizeof n, "%.60s_mae", b);
        snprintf(l, sizeof l, "%.60s MAE", b);
        col_set(a, n, l, 0, 3, 0, 1);
        snprintf(n, sizeof n, "%.60s_exact", b);
        snprintf(l, sizeof l, "%.60s exact %%", b);
        col_set(a, n, l, 1, 2, 0, 1);
        snprintf(n, sizeof n, "%.60s_over", b);
        snprintf(l, sizeof l, "%.60s over %%", b);
        col_set(a, n, l, 1, 2, 0, 1);
    }
    a->col_search = a->search[0] ? a->ncol : -1;
    if (a->search[0]) {
        col_set(a, "search_optimal", "A* optimal %", 1, 1, 0, 1);
        col_set(a, "search_excess", "A* excess", 0, 3, 0, 1);
        col_set(a, "search_expanded", "A* expanded", 0, 0, 0, 1);
        col_set(a, "search_solved", "A* solved %", 1, 1, 0, 0);
        col_set(a, "search_s_per_board", "A* s/board", 0, 4, 1, 0);
    }
}

/* The goal layout of the model trained on d ("npuzzle-onehot n=4 goal=..."). */
static int data_goal(const trn_data *d)
{
    const char *g = strstr(trn_data_encoder(d), "goal=");
    int goal = SRCH_NP_GOAL_BLANK_FIRST;
    if (g) {
        char buf[32];
        snprintf(buf, sizeof buf, "%s", g + 5);
        buf[strcspn(buf, " ")] = '\0';
        srch_np_goal_parse(buf, &goal);
    }
    return goal;
}

static void parse_err(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet ablate: %s\n", msg);
}

/* Read the search boards: those with a known optimum, the first N. */
static int search_setup(struct ablate *a, const trn_data *d)
{
    if (!(a->width = trn_data_width(d)))
        return cli_usage("ablate", "--search needs n-puzzle data (/boards + /cost)");
    if (a->search_goal < 0)
        a->search_goal = data_goal(d);
    srch_np_instance *all;
    size_t n;
    if (srch_np_parse_file(a->search, a->width, a->search_goal, parse_err, NULL, &all, &n))
        return cli_fail("ablate");
    a->boards = all;
    for (size_t i = 0; i < n && (int)a->nboards < a->search_n; i++)
        if (all[i].optimal >= 0)
            a->boards[a->nboards++] = all[i];
    if (!a->nboards) {
        fprintf(stderr, "heurnet ablate: %s: no board with a known optimal length\n", a->search);
        return CLI_EXIT_FAIL;
    }
    return 0;
}

/* The admissible part of the search heuristic (a PDB can take seconds to
 * load), once in the parent so the workers share it; only when runs are left. */
static int search_floor(struct ablate *a)
{
    char floor[256] = "";
    if (a->search_opts && cli_ann_settings_parse(a->search_opts, &a->ann, floor, sizeof floor))
        return CLI_EXIT_USAGE;
    return floor[0] ? cli_heur_get(floor, a->width, a->search_goal, a->c.quiet, &a->floor) : 0;
}

/* The settings every run shares, as a short tag in each CSV row, so a rerun
 * with other data, training or search options does not mix its runs with
 * the old ones (variants and seeds are checked by name). */
static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* (Files by base name and row counts: the same data reached by another
 * path is the same data.) */
static void config_tag(const struct ablate *a, const trn_data *d, char *tag, size_t cap)
{
    const struct trn_opts *o = &a->c.o;
    const struct nn_layer_defaults *l = &o->defaults;
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (f) {
        for (int i = 0; i < a->c.ndata; i++)
            fprintf(f, "data=%s;", base_name(a->c.data[i]));
        fprintf(f, "rows=%llu:%llu;", (unsigned long long)trn_data_rows(d, TRN_TRAIN),
                (unsigned long long)trn_data_rows(d, TRN_VAL));
        fprintf(f, "val=%.17g;src=%u;loss=%d:%.9g;b=%d;e=%d;lr=%.17g;sch=%d:%d:%.17g:%.17g;",
                a->c.val_fraction, a->c.sources, (int)o->loss, o->over_weight, o->batch, o->epochs,
                o->lr, (int)o->schedule, o->lr_step, o->lr_gamma, o->lr_min);
        fprintf(f, "wd=%.17g;t=%d;p=%d;act=%d:%.9g;bn=%d:%.9g;do=%.9g;init=%d;", o->weight_decay,
                o->threads, o->patience, (int)l->act, l->elu_alpha, l->bn, l->bn_eps, l->dropout,
                (int)l->init);
        for (int k = 0; k < a->ninst; k++)
            fprintf(f, "inst=%s@%d;", base_name(a->inst[k]), a->goal[k]);
        fprintf(f, "search=%s@%d:%d:%s:%llu", base_name(a->search), a->search_goal, a->search_n,
                a->search_opts ? a->search_opts : "", (unsigned long long)a->search_limit);
        fclose(f);
    }
    /* FNV-1a, 64 bits: a tag, not a security measure */
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; s && i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    free(s);
    snprintf(tag, cap, "%016llx", (unsigned long long)h);
}

static trn_abl_journal *journal_open(struct ablate *a, const trn_data *d)
{
    char tag[32];
    config_tag(a, d, tag, sizeof tag);
    const char *cols[ABL_MAX_COLS];
    for (int c = 0; c < a->ncol; c++)
        cols[c] = a->col[c].name;
    for (int k = 0; k < a->nseeds; k++)
        a->seed[k] = a->c.o.seed + (uint64_t)k;
    trn_abl_journal *j = trn_abl_journal_new((const char *const *)a->var.s, a->var.n, a->seed,
                                             a->nseeds, cols, a->ncol, tag);
    if (!j) {
        hn_fail(HN_ERR_NOMEM, "out of memory");
        cli_fail("ablate");
        return NULL;
    }
    if (trn_abl_journal_load(j, a->csv)) {
        fprintf(stderr, "heurnet ablate: %s\n", hn_errmsg());
        trn_abl_journal_free(j);
        return NULL;
    }
    return j;
}

static void banner(const struct ablate *a, const trn_abl_journal *j)
{
    int total = a->var.n * a->nseeds, done = trn_abl_journal_count(j);
    /* even with --quiet: a resumed ablation says what it kept */
    if (done)
        fprintf(stderr,
                "heurnet ablate: %d of %d runs are already in %s; training the %d missing\n", done,
                total, a->csv, total - done);
    if (a->c.quiet)
        return;
    fprintf(stderr,
            "heurnet ablate: %d variants x %d seeds (%llu..%llu) = %d runs; %d in %s, %d to "
            "train on %d rank(s) x %d jobs x %d BLAS threads; heurnet %s (%s)\n",
            a->var.n, a->nseeds, (unsigned long long)a->seed[0],
            (unsigned long long)a->seed[a->nseeds - 1], total, done, a->csv, total - done, a->size,
            a->jobs, a->c.o.threads, hn_version(), hn_revision());
    if (a->col_search >= 0)
        fprintf(stderr, "heurnet ablate: A* on %zu boards of %s (limit %llu expanded)%s%s\n",
                a->nboards, a->search, (unsigned long long)a->search_limit,
                a->search_opts ? ", ann settings " : "", a->search_opts ? a->search_opts : "");
}

/* One writer per journal: a second ablate on the same CSV waits for the
 * first, then reads what it wrote, instead of training every run again. */
static int journal_lock(const struct ablate *a, int *lock)
{
    *lock = hn_lock_take(a->csv, 0, NULL);
    if (*lock == HN_ERR_BUSY) {
        fprintf(stderr, "heurnet ablate: another ablate is writing %s; waiting for it\n", a->csv);
        *lock = hn_lock_take(a->csv, 1, NULL);
    }
    return *lock < 0 ? cli_fail("ablate") : 0;
}

static int run(struct ablate *a)
{
    int rc, lock = -1;
    trn_data *d = trn_data_open(a->c.data, a->c.ndata, a->c.val_fraction, a->c.sources, &rc);
    trn_abl_journal *j = NULL;
    rc = d ? 0 : cli_fail("ablate");
    if (!rc) {
        columns(a);
        rc = cli_train_check_complete("ablate", &a->c, d);
    }
    if (!rc && a->rank == 0)
        rc = journal_lock(a, &lock);
    if (a->size > 1) /* the other ranks read the journal once rank 0 holds it */
        rc = abl_mpi_agree(rc);
    if (!rc && !(rc = a->search[0] ? search_setup(a, d) : 0) && !(j = journal_open(a, d)))
        rc = CLI_EXIT_FAIL;
    if (!rc && trn_abl_journal_count(j) < a->var.n * a->nseeds && a->search[0])
        rc = search_floor(a);
    /* every rank has read the journal before rank 0 adds to it, and none
     * trains when one could not set up */
    if (a->size > 1)
        rc = abl_mpi_agree(rc);
    if (!rc) {
        if (a->rank == 0)
            banner(a, j);
        rc = abl_run_missing(a, d, j);
    }
    if (a->size > 1)
        rc = abl_mpi_finish(a, a->rank == 0 ? j : NULL, rc);
    if (a->rank != 0)
        rc = rc ? CLI_EXIT_FAIL : 0;
    else if (rc && j)
        fprintf(stderr,
                "heurnet ablate: %d of %d runs are in %s; the same command trains the rest\n",
                trn_abl_journal_count(j), a->var.n * a->nseeds, a->csv);
    if (!rc && a->rank == 0) {
        abl_report(a, j);
        if (a->plot)
            rc = abl_plot(a, j);
    }
    trn_abl_journal_free(j);
    hn_lock_release(lock);
    srch_np_heur_free(a->floor);
    free(a->boards);
    trn_data_free(d);
    return rc;
}

int cmd_ablate(int argc, char **argv)
{
    struct ablate a = {.csv = "ablate.csv",
                       .nseeds = 1,
                       .jobs = 1,
                       .search_n = 50,
                       .search_limit = 1000000,
                       .search_goal = -1,
                       .size = 1,
                       .ann = SRCH_NP_ANN_DEFAULTS};
    cli_train_cfg_init(&a.c);
    int rc = parse(argc, argv, &a);
    if (!rc && trn_mpi_launched())
        rc = abl_mpi_init(&a);
    if (!rc) {
        a.c.quiet |= a.rank != 0; /* rank 0 speaks for the run */
        cli_log_init(a.c.quiet);
        hn_stop_install();
        rc = run(&a);
    }
    if (a.size > 1)
        abl_mpi_end();
    trn_abl_list_free(&a.var);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
