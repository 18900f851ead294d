/* heurnet emp gen-data --decision place: labelled backtracker states for the
 * place scorer, and the glue that plugs a place model into `emp solve`. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "datagen/emp_place.h"
#include "search/emp/srch_em_place.h"

/* ---- --scorer for emp solve (a place model) ----------------------------- */

int emp_place_attach(const char *path, double temp, const srch_em_inst *in, srch_em_opts *o,
                     srch_em_place_scorer **out)
{
    int st;
    *out = srch_em_place_scorer_new(path, in, temp, 16, &st);
    if (!*out)
        return cli_fail("--scorer");
    o->order = *out;
    return CLI_EXIT_OK;
}

void emp_place_report(const srch_em_place_scorer *s, double cpu_seconds)
{
    srch_em_place_stats ps;
    srch_em_place_scorer_stats(s, &ps);
    printf("scorer_decision=place scorer_calls=%ld scorer_moves=%ld scorer_hits=%ld "
           "scorer_seconds=%.3f scorer_share=%.4f\n",
           ps.calls, ps.scored, ps.hits, ps.seconds,
           cpu_seconds > 0 ? ps.seconds / cpu_seconds : 0.0);
}

int emp_break_attach(const char *path, double threshold, double refuse, const srch_em_inst *in,
                     srch_em_opts *o, srch_em_break_gate **out)
{
    int st;
    *out = srch_em_break_gate_new(path, in, threshold, 16, &st);
    if (!*out)
        return cli_fail("--scorer");
    srch_em_break_gate_set_random(*out, refuse);
    o->gate = *out;
    return CLI_EXIT_OK;
}

void emp_break_report(const srch_em_break_gate *g, double cpu_seconds)
{
    srch_em_break_stats bs;
    srch_em_break_gate_stats(g, &bs);
    printf("scorer_decision=break scorer_threshold=%g scorer_calls=%ld scorer_hits=%ld "
           "scorer_allowed=%ld scorer_denied=%ld scorer_seconds=%.3f scorer_share=%.4f\n",
           bs.threshold, bs.calls, bs.hits, bs.allowed, bs.denied, bs.seconds,
           cpu_seconds > 0 ? bs.seconds / cpu_seconds : 0.0);
}

/* ---- gen-data --decision place ----------------------------------------- */

static void place_help(FILE *f)
{
    srch_em_place_sample_opts d = SRCH_EM_PLACE_SAMPLE_DEFAULTS;
    fprintf(f,
            "usage: heurnet emp gen-data --decision place [options] INSTANCE... -o PLACE.h5\n\n"
            "Place-scorer training data: drives the backtracker (start backtrack) on each\n"
            "instance and samples cells with two or more perfect-match candidates; each\n"
            "candidate is placed and the backtracker explores the subtree under it\n"
            "--runs times within --probe-nodes placements (the same shuffles for every\n"
            "candidate of a cell). The label is the mean number of cells reached beyond\n"
            "the sampled one (a complete board adds 1 + the breaks it leaves unused).\n"
            "Writes /x (%s features, float32 [n,%d]), /y and /group (the sampled\n"
            "cell, int32) for `heurnet emp train-place`. A state budget, no time limit:\n"
            "the file depends only on the seed. Benchmark instances (instances/) are\n"
            "refused: use `heurnet emp gen` instances.\n\n"
            "--decision break: the break gate's data instead. At a sampled cell where the\n"
            "driving search would begin its break phases, the search is continued from\n"
            "that moment for --probe-nodes placements with the cell's breaks tried and\n"
            "with them skipped (--runs times, the same shuffles in both arms); the label\n"
            "is the mean difference (tried - skipped) of the deepest cell reached (a\n"
            "complete board adds 1 + its unused breaks). One row of %s features per\n"
            "cell; train it with `heurnet train` (the model records decision=break).\n\n"
            "  --states N            sampled cells per instance [%d]\n"
            "  --runs R              probes per candidate [%d]\n"
            "  --probe-nodes N       placements per probe [%ld]\n"
            "  --probe-rows R        break: the probes' subtree begins R rows above the\n"
            "                        sampled cell [%d]\n"
            "  --min-depth F         sample cells past this fraction of the free cells [%g]\n"
            "  --rate Q              chance a qualifying cell entry is sampled [%g]\n"
            "  --restart-nodes N     placements per restart of the driving search [%ld]\n"
            "  --break-from F        budget: fraction of cells before the first break [%g]\n"
            "  --breaks B            budget at the last cell [%d]\n"
            "  --seed S              random seed [%llu]\n"
            "  --format meta|e2pieces  instance format [meta]\n"
            "  --allow-shared        accept the benchmark instances (instances/)\n"
            "  -o, --output FILE     dataset (required)\n"
            "  -q, --quiet           no progress\n"
            "  -h, --help            this help\n",
            SRCH_EM_PLACE_ENCODER, SRCH_EM_PLACE_DIM, SRCH_EM_BREAK_ENCODER, d.states, d.runs,
            d.probe_nodes, d.probe_rows, d.min_depth, d.rate, d.restart_nodes, d.break_from,
            d.breaks, (unsigned long long)d.seed);
}

typedef struct {
    srch_em_place_sample_opts o;
    int format, quiet, allow_shared, brk; /* brk: --decision break */
    const char *out;
} place_args;

/* One option of gen-data --decision place into a; CLI exit code or 0. */
static int place_opt(int ch, const char *arg, place_args *a)
{
    const char *cmd = "emp gen-data";
    long v;
    switch (ch) {
    case 'n':
        if (cli_parse_long(arg, 1, 1000000, &v) < 0)
            return cli_usage(cmd, "--states must be 1..1e6, not '%s'", arg);
        a->o.states = (int)v;
        return 0;
    case 'R':
        if (cli_parse_long(arg, 1, 1000, &v) < 0)
            return cli_usage(cmd, "--runs must be 1..1000, not '%s'", arg);
        a->o.runs = (int)v;
        return 0;
    case 'P':
        return cli_parse_long(arg, 1, 1L << 40, &a->o.probe_nodes) < 0
                   ? cli_usage(cmd, "--probe-nodes must be >= 1, not '%s'", arg)
                   : 0;
    case 'W':
        if (cli_parse_long(arg, 0, 64, &v) < 0)
            return cli_usage(cmd, "--probe-rows must be 0..64, not '%s'", arg);
        a->o.probe_rows = (int)v;
        return 0;
    case 'X':
        return cli_parse_long(arg, 1, 1L << 40, &a->o.restart_nodes) < 0
                   ? cli_usage(cmd, "--restart-nodes must be >= 1, not '%s'", arg)
                   : 0;
    case 'm':
        return cli_parse_double(arg, &a->o.min_depth) < 0 ||
                       !(a->o.min_depth >= 0 && a->o.min_depth < 1)
                   ? cli_usage(cmd, "--min-depth must be a fraction 0..1, not '%s'", arg)
                   : 0;
    case 'r':
        return cli_parse_double(arg, &a->o.rate) < 0 || !(a->o.rate > 0 && a->o.rate <= 1)
                   ? cli_usage(cmd, "--rate must be in (0, 1], not '%s'", arg)
                   : 0;
    case 'F':
        return cli_parse_double(arg, &a->o.break_from) < 0 ||
                       !(a->o.break_from >= 0 && a->o.break_from <= 1)
                   ? cli_usage(cmd, "--break-from must be a fraction 0..1, not '%s'", arg)
                   : 0;
    case 'K':
        if (cli_parse_long(arg, 0, 100000, &v) < 0)
            return cli_usage(cmd, "--breaks must be 0..1e5, not '%s'", arg);
        a->o.breaks = (int)v;
        return 0;
    case 's':
        return cli_parse_u64(arg, &a->o.seed) < 0
                   ? cli_usage(cmd, "--seed must be a non-negative integer")
                   : 0;
    case 'f':
        return emp_parse_format(arg, &a->format) < 0
                   ? cli_usage(cmd, "--format must be meta or e2pieces, not '%s'", arg)
                   : 0;
    case 'D':
        a->brk = !strcmp(arg, "break");
        return strcmp(arg, "place") && !a->brk
                   ? cli_usage(cmd, "--decision must be move, place or break")
                   : 0;
    case 'A':
        a->allow_shared = 1;
        return 0;
    case 'o':
        a->out = arg;
        return 0;
    case 'q':
        a->quiet = 1;
        return 0;
    default:
        return cli_usage(cmd, "unknown option");
    }
}

static int parse_place(int argc, char **argv, place_args *a)
{
    static const struct option lo[] = {{"states", required_argument, 0, 'n'},
                                       {"runs", required_argument, 0, 'R'},
                                       {"probe-nodes", required_argument, 0, 'P'},
                                       {"probe-rows", required_argument, 0, 'W'},
                                       {"restart-nodes", required_argument, 0, 'X'},
                                       {"min-depth", required_argument, 0, 'm'},
                                       {"rate", required_argument, 0, 'r'},
                                       {"break-from", required_argument, 0, 'F'},
                                       {"breaks", required_argument, 0, 'K'},
                                       {"seed", required_argument, 0, 's'},
                                       {"format", required_argument, 0, 'f'},
                                       {"decision", required_argument, 0, 'D'},
                                       {"allow-shared", no_argument, 0, 'A'},
                                       {"output", required_argument, 0, 'o'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    int ch, rc;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:q", lo, NULL)) != -1) {
        if (ch == 'h') {
            place_help(stdout);
            return -1;
        }
        if ((rc = place_opt(ch, optarg, a)) != 0)
            return rc;
    }
    if (optind >= argc)
        return cli_usage("emp gen-data", "expected at least one INSTANCE");
    if (!a->out)
        return cli_usage("emp gen-data", "-o PLACE.h5 is required");
    return 0;
}

static void on_progress(uint64_t done, uint64_t total, const char *extra, void *user)
{
    (void)total;
    hn_progress_update(user, done, extra);
}

static void print_summary(const char *out)
{
    float *x, *y;
    int32_t *g;
    dg_emp_place_info info;
    if (dg_emp_place_read(out, &x, &y, &g, &info) != HN_OK) {
        cli_fail(out);
        return;
    }
    double sum = 0, sq = 0;
    for (size_t i = 0; i < info.rows; i++)
        sum += y[i], sq += (double)y[i] * y[i];
    double mean = sum / (double)info.rows;
    printf("output=%s rows=%zu groups=%d features=%d encoder=%s y_mean=%.3f y_std=%.3f\n", out,
           info.rows, info.groups, SRCH_EM_PLACE_DIM, SRCH_EM_PLACE_ENCODER, mean,
           sqrt(fmax(0, sq / (double)info.rows - mean * mean)));
    free(x), free(y), free(g);
}

int cmd_emp_gendata_place(int argc, char **argv)
{
    place_args a = {.o = SRCH_EM_PLACE_SAMPLE_DEFAULTS, .format = SRCH_EM_FORMAT_META};
    int prc = parse_place(argc, argv, &a);
    if (prc)
        return prc < 0 ? CLI_EXIT_OK : prc;
    int ninst = argc - optind;
    srch_em_inst **in = calloc((size_t)ninst, sizeof *in);
    if (!in)
        return cli_fail("out of memory");
    int rc = emp_load_training(argv + optind, ninst, a.format, a.allow_shared, in);
    if (rc == CLI_EXIT_OK) {
        cli_log_init(a.quiet);
        hn_stop_install();
        hn_progress *prog =
            hn_progress_new("emp gen-data place", (uint64_t)a.o.states * (uint64_t)ninst, a.quiet);
        a.o.progress = on_progress;
        a.o.user = prog;
        int st = (a.brk ? dg_emp_break_gen : dg_emp_place_gen)((const srch_em_inst *const *)in,
                                                               (const char *const *)(argv + optind),
                                                               ninst, &a.o, a.out);
        hn_progress_finish(prog);
        if (st != HN_OK)
            rc = cli_fail(a.out);
        else if (a.brk)
            printf("output=%s states=%d decision=%s features=%d encoder=%s\n", a.out,
                   a.o.states * ninst, SRCH_EM_DECISION_BREAK, SRCH_EM_BREAK_DIM,
                   SRCH_EM_BREAK_ENCODER);
        else
            print_summary(a.out);
    }
    for (int i = 0; i < ninst; i++)
        srch_em_inst_free(in[i]);
    free(in);
    return rc;
}
