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
    cli_dom_search s;
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
        if (cli_dom_search_opt("eval", c, optarg, &a->s, &rc)) {
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

static srch_limits state_limits(const eval_args *a, size_t i, size_t n, double used)
{
    srch_limits lim = a->s.lim;
    if (a->budget > 0) {
        double share = (a->budget * (double)n - used) / (double)(n - i);
        share = share > 1e-3 ? share : 1e-3;
        lim.time_limit =
            a->s.lim.time_limit > 0 && a->s.lim.time_limit < share ? a->s.lim.time_limit : share;
    }
    return lim;
}

static void eval_one(const dom *d, const eval_args *a, srch_dom_heur *h, const dom_instance_rec *x,
                     const srch_limits *lim, srch_dom_result *res, heurnet_dom_eval_row *r)
{
    cli_dom_run(&a->s, d, x->state, h, lim, res);
    *r = (heurnet_dom_eval_row){.line = x->line,
                                .known = x->length,
                                .status = res->status,
                                .length = res->length,
                                .h0 = res->h0,
                                .proven = res->proven,
                                .expanded = res->expanded,
                                .generated = res->generated,
                                .rows = res->rows,
                                .seconds = res->seconds,
                                .time_limit = lim->time_limit,
                                .phases = res->phases,
                                .saved = res->saved};
    snprintf(r->id, sizeof r->id, "%s", x->id);
    r->valid = res->status == 0 && dom_replay(d, x->state, res->moves, res->length) == 1;
    hn_error_clear();
}

static int run(const eval_args *a, const dom *d, srch_dom_heur *h, const dom_instance_rec *inst,
               size_t n, heurnet_dom_eval_row *rows, size_t *done)
{
    srch_dom_result *res = malloc(sizeof *res);
    if (!res) {
        fprintf(stderr, "heurnet eval: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    hn_progress *bar = hn_progress_new("eval", n, a->quiet);
    double used = 0;
    for (*done = 0; *done < n && !hn_stop_requested(); (*done)++) {
        srch_limits lim = state_limits(a, *done, n, used);
        eval_one(d, a, h, &inst[*done], &lim, res, &rows[*done]);
        used += rows[*done].seconds;
        hn_progress_update(bar, *done + 1, NULL);
    }
    hn_progress_finish(bar);
    free(res);
    return 0;
}

/* The anytime weights, the beam's widening and the window shortcut, after
 * the first k characters of buf. */
static void describe_more(const cli_dom_search *s, char *buf, size_t cap, int k)
{
    for (int i = 0; s->algo == CLI_DOM_ANYTIME && i < s->so.nweights && k > 0 && (size_t)k < cap;
         i++)
        k += snprintf(buf + k, cap - (size_t)k, "%s%g", i ? "," : ", weights ", s->so.weights[i]);
    if (s->so.widen > 0 && k > 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, ", widen %g", s->so.widen);
    if (s->so.variants > 1 && k > 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, ", %d variants", s->so.variants);
    if (s->ball && k > 0 && (size_t)k < cap)
        k += snprintf(buf + k, cap - (size_t)k, ", ball %d (%zu states, %.1f s to build)",
                      s->ball_radius, srch_dom_ball_states(s->ball), s->ball_seconds);
    if (s->so.shortcut.max_window && k > 0 && (size_t)k < cap)
        snprintf(buf + k, cap - (size_t)k, ", windows of up to %d moves%s",
                 s->so.shortcut.max_window, s->so.shortcut.ida ? " (IDA* over 16)" : "");
}

static int report(const eval_args *a, const dom *d, const heurnet_dom_eval_row *rows, size_t n,
                  size_t in_file, double wall, const char *part)
{
    char search[256], limits[256];
    int k = snprintf(search, sizeof search, "%s, weight %g, batch %d, width %d",
                     cli_dom_algo_name(a->s.algo), a->s.so.weight, a->s.so.batch, a->s.so.width);
    if (a->s.algo == CLI_DOM_FOCAL && k > 0 && (size_t)k < sizeof search)
        k += snprintf(search + k, sizeof search - (size_t)k, ", bound %g over %s", a->s.bound,
                      a->s.admissible);
    describe_more(&a->s, search, sizeof search, k);
    snprintf(limits, sizeof limits, "time %g s%s, expansions %llu, stored %llu (0 = none)",
             a->budget > 0 ? a->budget : a->s.lim.time_limit,
             a->budget > 0 ? " per state on average (budget)" : " per state",
             (unsigned long long)a->s.lim.max_expanded, (unsigned long long)a->s.lim.max_nodes);
    heurnet_dom_eval_info info = {.domain = dom_spec(d),
                                  .instances = a->instances,
                                  .model = a->s.model,
                                  .search = search,
                                  .heuristic = a->s.heuristic,
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

int cli_dom_eval(int argc, char **argv)
{
    eval_args a = {0};
    cli_dom_search_init(&a.s);
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    dom *d = NULL;
    srch_dom_heur *h = NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0, done = 0;
    char part[4400];
    heurnet_dom_eval_row *rows = NULL;
    if ((rc = cli_dom_setup("eval", &a.s, a.instances, &d, &h, &inst, &n)) ||
        (rc = cli_eval_dir_prepare(a.out, a.force, heurnet_dom_eval_report_files, part,
                                   sizeof part)))
        goto out;
    size_t todo = a.limit > 0 && (size_t)a.limit < n ? (size_t)a.limit : n;
    if (!(rows = calloc(todo ? todo : 1, sizeof *rows))) {
        rc = CLI_EXIT_FAIL;
        heurnet_eval_dir_remove(part, heurnet_dom_eval_report_files);
        goto out;
    }
    hn_stop_install();
    double t0 = hn_now();
    if (!(rc = run(&a, d, h, inst, todo, rows, &done)))
        rc = report(&a, d, rows, done, n, hn_now() - t0, part);
    if (rc) /* no report: its private folder goes */
        heurnet_eval_dir_remove(part, heurnet_dom_eval_report_files);
    if (!rc && done < todo)
        rc = CLI_EXIT_FAIL; /* interrupted: the report holds the states done */
out:
    free(rows);
    free(inst);
    srch_dom_heur_free(h);
    cli_dom_search_free(&a.s);
    dom_free(d);
    return rc;
}
