/* heurnet eval on every domain: options and printing; the searches, the
 * baseline, the statistics and the report are the library's
 * (solve/eval_dom.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/nn.h"
#include "solve/eval_dom.h"
#include "solve/eval_report.h"

#define BASE_AUTO -2 /* --baseline-algo not given: heurnet_dom_baseline_default */
#define BASE_NONE -1

typedef struct {
    heurnet_dom_opts o;
    const char *instances, *out, *baseline, *goal;
    int quiet, force, reference, base_algo;
    long limit, puzzle, blas_threads;
    double budget;
    char spec[512];  /* the domain, with --puzzle and --goal */
    char bname[256]; /* the baseline heuristic's name */
} eval_args;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: heurnet eval --instances FILE -o DIR [--model M.h5] [--domain D] [options]\n\n"
            "Search every state of FILE (an admissible baseline search first where one runs),\n"
            "replay every solution, and write DIR/instances.tsv (one row per state, columns in\n"
            "docs/formats.md), DIR/summary.md (optimal share and excess against the file's\n"
            "optima or the baseline's, or lengths against references; expansions and time\n"
            "of both searches; the heuristics' errors at the start; expansions by difficulty\n"
            "class, baseline quartiles as in Cahlik & Surynek 2019) and PNG figures\n"
            "(gnuplot). The report is written to DIR.part and renamed when complete.\n"
            "The search is the one the model records (heurnet nn set-search) when neither\n"
            "--algo nor --heuristic is given, else A* (float network layers unless --engine)\n"
            "with --heuristic [ann:MODEL]; the options given still win: --algo [astar].\n\n");
    cli_dom_search_help(out);
    fprintf(out,
            "  --instances FILE    states `[id [length]] STATE` [required]\n"
            "  -o, --output DIR    report folder [required]\n"
            "  --puzzle N          the N-puzzle: --domain npuzzle:WxW, N = W*W - 1\n"
            "  --goal G            n-puzzle: goal layout of FILE, blank-first or blank-last\n"
            "                      (a model of the other layout reads the boards renamed)\n"
            "  --reference         the file's lengths are references (another solver's\n"
            "                      solutions), not optima\n"
            "  --baseline H        admissible baseline heuristic [the domain's first pdb:,\n"
            "                      else its first: pdb:8, pdb:7-8, pdb:6-6-6-6 on the 8-, 15-\n"
            "                      and 24-puzzle]\n"
            "  --baseline-algo A   astar, idastar or none [astar on domains of at most 4 moves\n"
            "                      and a typical depth of at most 60 (the 8- and 15-puzzle),\n"
            "                      else none]; it runs with the limits below, no budget\n"
            "  --limit N           only the first N states, 0 = all [0]\n"
            "  --time-budget S     mean seconds per state over the run: each state may use\n"
            "                      the time left divided by the states left (--time-limit,\n"
            "                      if given, still caps each); at least %g s, which each\n"
            "                      state is given anyway [off]\n"
            "  --blas-threads T    OpenBLAS threads for the network [1]\n"
            "  --force             replace DIR if it exists\n"
            "  -q, --quiet         no progress\n\n"
            "Prints the headline figures on stdout. Ctrl-C stops after the current state and\n"
            "writes the report of the states finished. Exit status: 0 report written, 1 a\n"
            "bad file or model, a solution that does not replay, interrupted, or the report\n"
            "could not be written, 2 misuse.\n",
            HEURNET_DOM_EVAL_MIN_SHARE);
}

static int num_opt(int c, const char *arg, eval_args *a)
{
    switch (c) {
    case 'l':
        return cli_parse_long(arg, 0, 100000000, &a->limit)
                   ? cli_usage("eval", "--limit '%s' is not a count", arg)
                   : 0;
    case 'P':
        return cli_parse_long(arg, 3, 100000, &a->puzzle)
                   ? cli_usage("eval", "--puzzle '%s' is not a puzzle size (8, 15, 24, ...)", arg)
                   : 0;
    case 'T':
        return cli_parse_long(arg, 1, 256, &a->blas_threads)
                   ? cli_usage("eval", "--blas-threads must be 1..256, not '%s'", arg)
                   : 0;
    default: /* 'B' */
        if (cli_parse_double(arg, &a->budget) || !(a->budget > 0) || !isfinite(a->budget))
            return cli_usage("eval", "--time-budget must be seconds > 0, not '%s'", arg);
        if (a->budget < HEURNET_DOM_EVAL_MIN_SHARE)
            return cli_usage("eval",
                             "--time-budget %s is below %g s, the least time a state is given "
                             "(a search reads its clock between batches of nodes)",
                             arg, HEURNET_DOM_EVAL_MIN_SHARE);
        return 0;
    }
}

static int own_opt(int c, const char *arg, eval_args *a)
{
    switch (c) {
    case 'i':
        a->instances = arg;
        return 0;
    case 'o':
        a->out = arg;
        return 0;
    case 'r':
        a->reference = 1;
        return 0;
    case 'b':
        a->baseline = arg;
        return 0;
    case 'g':
        a->goal = arg;
        return 0;
    case 'L':
        return heurnet_dom_baseline_algo_parse(arg, 1, &a->base_algo)
                   ? cli_usage("eval", "%s", hn_errmsg())
                   : 0;
    case 'f':
        a->force = 1;
        return 0;
    case 'q':
        a->quiet = 1;
        return 0;
    case 'l':
    case 'P':
    case 'T':
    case 'B':
        return num_opt(c, arg, a);
    default:
        return cli_usage("eval", "unknown option");
    }
}

static int parse_args(int argc, char **argv, eval_args *a)
{
    static const struct option opts[] = {CLI_DOM_SEARCH_LONGOPTS,
                                         {"instances", required_argument, 0, 'i'},
                                         {"output", required_argument, 0, 'o'},
                                         {"reference", no_argument, 0, 'r'},
                                         {"puzzle", required_argument, 0, 'P'},
                                         {"goal", required_argument, 0, 'g'},
                                         {"baseline", required_argument, 0, 'b'},
                                         {"baseline-algo", required_argument, 0, 'L'},
                                         {"limit", required_argument, 0, 'l'},
                                         {"time-budget", required_argument, 0, 'B'},
                                         {"blas-threads", required_argument, 0, 'T'},
                                         {"force", no_argument, 0, 'f'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        if (cli_dom_search_opt("eval", c, optarg, &a->o, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        if (c == 'h') {
            usage(stdout);
            return -1;
        }
        if ((rc = own_opt(c, optarg, a)))
            return rc;
    }
    if (optind < argc)
        return cli_usage("eval", "unexpected argument '%s'", argv[optind]);
    if (!a->instances || !a->out)
        return cli_usage("eval", "--instances FILE and -o DIR are required");
    if (a->baseline && !strncmp(a->baseline, "ann:", 4))
        return cli_usage("eval", "--baseline must be an admissible heuristic, not a network");
    return 0;
}

/* --domain, --puzzle or the model's domain, in --goal's layout, into
 * a->spec and a->o.domain. */
static int resolve_domain(eval_args *a)
{
    if (a->o.domain)
        snprintf(a->spec, sizeof a->spec, "%s", a->o.domain);
    else if (a->puzzle && heurnet_dom_puzzle_spec((int)a->puzzle, a->spec, sizeof a->spec))
        return cli_usage("eval", "--puzzle: %s", hn_errmsg());
    else if (!a->puzzle && a->o.model &&
             heurnet_dom_model_domain(a->o.model, a->spec, sizeof a->spec))
        return cli_usage("eval", "%s", hn_errmsg());
    if (!a->spec[0] && a->o.model) { /* a model of no domain is a bad model, not misuse */
        fprintf(stderr,
                "heurnet eval: %s: the model names no domain (no domain attribute or n-puzzle "
                "encoder); give --domain D\n",
                a->o.model);
        return CLI_EXIT_FAIL;
    }
    if (a->goal && !a->spec[0])
        return cli_usage("eval", "--goal needs a domain: --domain, --puzzle or a --model");
    if (a->goal && heurnet_dom_goal_spec(a->spec, a->goal, a->spec, sizeof a->spec))
        return cli_usage("eval", "--goal: %s", hn_errmsg());
    if (a->spec[0])
        a->o.domain = a->spec;
    return 0;
}

/* Without a recorded search, eval runs A* with the float network layers
 * (the options given still win): the search c9431f0's n-puzzle eval ran. */
static int eval_defaults(eval_args *a, const dom *d)
{
    int st;
    heurnet_dom_search *probe = heurnet_dom_search_config(d, &a->o, &st);
    if (!probe)
        return cli_dom_fail("eval", st);
    int recorded = heurnet_dom_search_record(probe)[0] != '\0';
    heurnet_dom_search_free(probe);
    if (!recorded && !(a->o.given & 1ull << HEURNET_DOM_OPT_ALGO))
        a->o.algo = HEURNET_DOM_ASTAR;
    if (!recorded && !(a->o.given & 1ull << HEURNET_DOM_OPT_ENGINE))
        a->o.no.engine = SRCH_DOM_ENGINE_FLOAT;
    return 0;
}

/* The baseline search (algorithm a->base_algo resolved) or, with none run,
 * the heuristic alone when --baseline names one. */
static int open_baseline(eval_args *a, const dom *d, heurnet_dom_eval_run_opts *r)
{
    if (a->base_algo == BASE_AUTO)
        a->base_algo = heurnet_dom_baseline_default(d) ? HEURNET_DOM_ASTAR : BASE_NONE;
    if (!a->baseline && a->base_algo == BASE_NONE)
        return 0; /* nothing to open: no baseline column */
    if (!a->baseline && heurnet_dom_baseline_heuristic(d, a->bname, sizeof a->bname))
        return cli_usage("eval", "%s", hn_errmsg());
    if (!a->baseline)
        a->baseline = a->bname;
    if (a->base_algo == BASE_NONE) {
        int st;
        r->base_h = srch_dom_heur_adm(d, a->baseline, &st);
        return r->base_h ? 0 : cli_dom_fail("eval", st);
    }
    heurnet_dom_opts o;
    heurnet_dom_opts_default(&o);
    o.domain = a->o.domain;
    o.lim = a->o.lim;
    if (heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_HEURISTIC, a->baseline) ||
        heurnet_dom_opts_set(&o, HEURNET_DOM_OPT_ALGO, heurnet_dom_algo_name(a->base_algo)))
        return cli_usage("eval", "--baseline: %s", hn_errmsg());
    int rc = cli_dom_open("eval", d, &o, &r->base);
    return rc ? rc : cli_dom_prepare("eval", r->base);
}

static int report(const eval_args *a, const heurnet_dom_eval_run_opts *r,
                  const heurnet_dom_eval_row *rows, size_t n, size_t in_file, double wall,
                  const char *part)
{
    const heurnet_dom_opts *o = heurnet_dom_search_settings(r->s);
    char search[256], limits[256];
    heurnet_dom_search_describe(r->s, search, sizeof search);
    snprintf(limits, sizeof limits, "time %g s%s, expansions %llu, stored %llu (0 = none)",
             a->budget > 0 ? a->budget : o->lim.time_limit,
             a->budget > 0 ? " per state on average (budget; `time_limit` in instances.tsv)"
                           : " per state",
             (unsigned long long)o->lim.max_expanded, (unsigned long long)o->lim.max_nodes);
    heurnet_dom_eval_info info = {
        .domain = dom_spec(heurnet_dom_search_domain(r->s)),
        .instances = a->instances,
        .model = o->model,
        .search = search,
        .heuristic = o->heuristic,
        .limits = limits,
        .baseline = a->baseline,
        .baseline_algo = a->base_algo >= 0 ? heurnet_dom_algo_name(a->base_algo) : "none",
        .reference = a->reference,
        .in_file = in_file,
        .interrupted = n < in_file && hn_stop_requested(),
        .wall = wall};
    heurnet_dom_eval_headline(stdout, &info, rows, n);
    int plots;
    if (heurnet_dom_eval_report_write(part, &info, rows, n, &plots))
        return cli_fail("eval");
    if (heurnet_eval_dir_commit(a->out, a->force, part, heurnet_eval_report_files)) {
        fprintf(stderr, "heurnet eval: %s\n", hn_errmsg());
        return CLI_EXIT_FAIL;
    }
    if (!a->quiet)
        fprintf(stderr, "heurnet eval: report in %s%s\n", a->out, plots ? " (with figures)" : "");
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += rows[i].status == 0 && !rows[i].valid;
    if (bad)
        fprintf(stderr, "heurnet eval: %zu solutions do not replay to the goal\n", bad);
    return bad ? CLI_EXIT_FAIL : 0;
}

/* The searches and the report, or the report's private folder removed. */
static int eval_all(const eval_args *a, heurnet_dom_eval_run_opts *r, const dom_instance_rec *inst,
                    size_t n, const char *part)
{
    size_t todo = a->limit > 0 && (size_t)a->limit < n ? (size_t)a->limit : n, done = 0;
    heurnet_dom_eval_row *rows = calloc(todo ? todo : 1, sizeof *rows);
    int rc = rows ? 0 : (fprintf(stderr, "heurnet eval: out of memory\n"), CLI_EXIT_FAIL);
    hn_stop_install();
    double t0 = hn_now();
    if (!rc && heurnet_dom_eval_run(r, inst, todo, rows, &done))
        rc = cli_fail("eval");
    if (!rc)
        rc = report(a, r, rows, done, n, hn_now() - t0, part);
    if (rc) /* no report: its private folder goes */
        heurnet_eval_dir_remove(part, heurnet_eval_report_files);
    if (!rc && done < todo) {
        fprintf(stderr, "heurnet eval: interrupted after %zu of %zu states (report covers them)\n",
                done, todo);
        rc = CLI_EXIT_FAIL;
    }
    free(rows);
    return rc;
}

static int prepare_dir(const eval_args *a, char *part, size_t cap)
{
    if (!heurnet_eval_dir_prepare(a->out, a->force, heurnet_eval_report_files, part, cap))
        return 0;
    fprintf(stderr, "heurnet eval: %s\n", hn_errmsg());
    return CLI_EXIT_FAIL;
}

int cmd_eval(int argc, char **argv)
{
    eval_args a = {.base_algo = BASE_AUTO, .blas_threads = 1};
    heurnet_dom_opts_default(&a.o);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    if ((rc = resolve_domain(&a)))
        return rc;
    nn_blas_threads((int)a.blas_threads);
    heurnet_dom_eval_run_opts r = {.reference = a.reference, .budget = a.budget, .quiet = a.quiet};
    dom *d = NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    char part[4400];
    int st;
    if (!(d = heurnet_dom_opts_domain(&a.o, &st)))
        rc = cli_dom_fail("eval", st);
    if (!rc && !(rc = eval_defaults(&a, d)) && !(rc = cli_dom_open("eval", d, &a.o, &r.s)) &&
        !(rc = open_baseline(&a, d, &r)) &&
        !(rc = dom_read_instances(d, a.instances, cli_dom_parse_error, (void *)"eval", &inst, &n)
                   ? cli_fail(NULL)
                   : 0) &&
        !(rc = cli_dom_prepare("eval", r.s)) && !(rc = prepare_dir(&a, part, sizeof part))) {
        if (!a.quiet)
            fprintf(stderr, "heurnet eval: %zu states of %s, baseline %s%s%s, heurnet %s\n", n,
                    dom_spec(d), a.base_algo >= 0 ? heurnet_dom_algo_name(a.base_algo) : "none",
                    a.baseline ? " with " : "", a.baseline ? a.baseline : "", hn_version());
        rc = eval_all(&a, &r, inst, n, part);
    }
    free(inst);
    srch_dom_heur_free(r.base_h);
    heurnet_dom_search_free(r.base);
    heurnet_dom_search_free(r.s);
    dom_free(d);
    return rc;
}
