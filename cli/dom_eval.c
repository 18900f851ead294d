/* heurnet eval on any domain: search every state of an instance file with
 * a network (or any heuristic), replay each solution, and write the report
 * (solve/eval_dom.h) comparing the lengths with the file's optima or
 * references. One state at a time: a time budget shares the run's seconds. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "solve/eval_dom.h"
#include "solve/eval_report.h"

typedef struct {
    heurnet_dom_opts o;
    const char *instances, *out;
    int quiet, force, reference;
    long limit;
    double budget;
} eval_args;

static void usage(FILE *out)
{
    fprintf(out, "usage: heurnet eval --domain D --model M.h5 --instances FILE -o DIR [options]\n\n"
                 "Search every state of FILE on domain D (a square n-puzzle up to 5x5 runs the\n"
                 "n-puzzle command), replay every solution, and write DIR/instances.tsv,\n"
                 "DIR/summary.md (solved and replayed; against known optima: optimal share and\n"
                 "excess; against references: mean length, its ratio, and states shorter, equal\n"
                 "and longer; time and nodes) and PNG figures (gnuplot). The report is written\n"
                 "to DIR.part and renamed when complete.\n\n");
    cli_dom_search_help(out);
    fprintf(out, "  --instances FILE    states `[id [length]] STATE` [required]\n"
                 "  -o, --output DIR    report folder [required]\n"
                 "  --reference         the file's lengths are references (another solver's\n"
                 "                      solutions), not optima\n"
                 "  --limit N           only the first N states, 0 = all [0]\n"
                 "  --time-budget S     mean seconds per state over the run: each state may use\n"
                 "                      the time left divided by the states left (--time-limit,\n"
                 "                      if given, still caps each) [off]\n"
                 "  --force             replace DIR if it exists\n"
                 "  -q, --quiet         no progress\n");
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
    case 'l':
        return cli_parse_long(arg, 0, 100000000, &a->limit)
                   ? cli_usage("eval", "--limit '%s' is not a count", arg)
                   : 0;
    case 'B':
        return cli_parse_double(arg, &a->budget) || !(a->budget >= 0.01) || !isfinite(a->budget)
                   ? cli_usage("eval", "--time-budget must be seconds >= 0.01, not '%s'", arg)
                   : 0;
    case 'f':
        a->force = 1;
        return 0;
    case 'q':
        a->quiet = 1;
        return 0;
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
                                         {"limit", required_argument, 0, 'l'},
                                         {"time-budget", required_argument, 0, 'B'},
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
    return 0;
}

static int report(const eval_args *a, const heurnet_dom_search *s, const heurnet_dom_eval_row *rows,
                  size_t n, size_t in_file, double wall, const char *part)
{
    const heurnet_dom_opts *o = heurnet_dom_search_settings(s);
    char search[256], limits[256];
    heurnet_dom_search_describe(s, search, sizeof search);
    snprintf(limits, sizeof limits, "time %g s%s, expansions %llu, stored %llu (0 = none)",
             a->budget > 0 ? a->budget : o->lim.time_limit,
             a->budget > 0 ? " per state on average (budget)" : " per state",
             (unsigned long long)o->lim.max_expanded, (unsigned long long)o->lim.max_nodes);
    heurnet_dom_eval_info info = {.domain = dom_spec(heurnet_dom_search_domain(s)),
                                  .instances = a->instances,
                                  .model = o->model,
                                  .search = search,
                                  .heuristic = o->heuristic,
                                  .limits = limits,
                                  .reference = a->reference,
                                  .in_file = in_file,
                                  .interrupted = n < in_file && hn_stop_requested(),
                                  .wall = wall};
    heurnet_dom_eval_headline(stdout, &info, rows, n);
    int plots;
    if (heurnet_dom_eval_report_write(part, &info, rows, n, &plots))
        return cli_fail("eval");
    if (heurnet_eval_dir_commit(a->out, a->force, part, heurnet_dom_eval_report_files)) {
        fprintf(stderr, "heurnet eval: %s\n", hn_errmsg());
        return CLI_EXIT_FAIL;
    }
    if (!a->quiet)
        fprintf(stderr, "heurnet eval: report in %s%s\n", a->out, plots ? " (with figures)" : "");
    return 0;
}

/* The searches and the report, or the report's private folder removed. */
static int eval_all(const eval_args *a, heurnet_dom_search *s, const dom_instance_rec *inst,
                    size_t n, const char *part)
{
    size_t todo = a->limit > 0 && (size_t)a->limit < n ? (size_t)a->limit : n, done = 0;
    heurnet_dom_eval_row *rows = calloc(todo ? todo : 1, sizeof *rows);
    int rc = rows ? 0 : CLI_EXIT_FAIL;
    hn_stop_install();
    double t0 = hn_now();
    if (!rc && heurnet_dom_eval_run(s, inst, todo, a->budget, a->quiet, rows, &done))
        rc = cli_fail("eval");
    if (!rc)
        rc = report(a, s, rows, done, n, hn_now() - t0, part);
    if (rc) /* no report: its private folder goes */
        heurnet_eval_dir_remove(part, heurnet_dom_eval_report_files);
    if (!rc && done < todo)
        rc = CLI_EXIT_FAIL; /* interrupted: the report holds the states done */
    free(rows);
    return rc;
}

int cli_dom_eval(int argc, char **argv)
{
    eval_args a = {0};
    heurnet_dom_opts_default(&a.o);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    heurnet_dom_search *s = NULL;
    dom *d = NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    char part[4400];
    if (!(rc = cli_dom_setup("eval", &a.o, a.instances, &d, &s, &inst, &n)) &&
        !(rc = cli_eval_dir_prepare(a.out, a.force, heurnet_dom_eval_report_files, part,
                                    sizeof part)))
        rc = eval_all(&a, s, inst, n, part);
    free(inst);
    heurnet_dom_search_free(s);
    dom_free(d);
    return rc;
}
