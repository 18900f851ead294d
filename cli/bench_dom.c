/* heurnet bench search on any domain: an admissible baseline finds each
 * state's optimal cost (IDA*, or A* where a move has no inverse), then
 * every --heuristic searches the same state in turn with the search
 * options of `solve --domain`, so all see the same machine load; one
 * key=value record per heuristic, with the rows per second inside the
 * network (its calls timed) beside those per second of the search. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"

#define MAX_HEURS 8
#define CMD "bench search"

typedef struct {
    heurnet_dom_opts o; /* the options given; each run gets a copy */
    const char *instances, *baseline, *goal;
    const char *heur[MAX_HEURS];
    int n_heur, quiet;
    int base_algo; /* -1: IDA* where every move has an inverse, else A* */
    long puzzle;   /* --puzzle N: npuzzle of N + 1 cells, 0 none */
    size_t limit;
} bench_args;

/* One search configuration: its settings, heuristic and totals. */
typedef struct {
    heurnet_dom_search *s;
    double wall, cpu, nn_wall;
    uint64_t expanded, rows, updates;
    double length;
    size_t solved, optimal;
} bench_run;

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One search of start; its times and counters into r. The cost or -1. */
static int64_t timed(bench_run *r, const void *start, srch_dom_result *res)
{
    const srch_dom_heur *h = heurnet_dom_search_heur(r->s);
    uint64_t rows0 = srch_dom_heur_rows(h), upd0 = srch_dom_heur_acc_updates(h);
    double nn0 = srch_dom_heur_net_seconds(h);
    double w0 = hn_now(), c0 = thread_cpu();
    int st = heurnet_dom_search_solve(r->s, start, NULL, res);
    r->cpu += thread_cpu() - c0;
    r->wall += hn_now() - w0;
    r->expanded += res->expanded;
    r->rows += srch_dom_heur_rows(h) - rows0;
    r->updates += srch_dom_heur_acc_updates(h) - upd0;
    r->nn_wall += srch_dom_heur_net_seconds(h) - nn0;
    r->solved += st == 0;
    r->length += st == 0 ? res->length : 0;
    hn_error_clear();
    return st == 0 ? res->cost : -1;
}

static void print_run(const bench_run *r, size_t n, int baseline)
{
    const heurnet_dom_opts *o = heurnet_dom_search_settings(r->s);
    double dn = n ? (double)n : 1;
    printf("heuristic=%s boards=%zu solved=%zu optimal=%zu optimal_share=%.3f mean_expanded=%.1f "
           "wall_s_per_board=%.5f cpu_s_per_board=%.5f",
           o->heuristic, n, r->solved, r->optimal, (double)r->optimal / dn,
           (double)r->expanded / dn, r->wall / dn, r->cpu / dn);
    if (!baseline)
        printf(" rows=%llu rows_per_cpu_s=%.0f nn_rows_per_s=%.0f derived_share=%.3f",
               (unsigned long long)r->rows, r->cpu > 0 ? (double)r->rows / r->cpu : 0.0,
               r->nn_wall > 0 ? (double)r->rows / r->nn_wall : 0.0,
               r->rows ? (double)r->updates / (double)r->rows : 0.0);
    printf(" mean_length=%.3f algo=%s", r->solved ? r->length / (double)r->solved : 0.0,
           heurnet_dom_algo_name(o->algo));
    if (o->algo == HEURNET_DOM_FOCAL)
        printf(" bound=%g admissible=%s", o->bound, o->admissible);
    printf("\n");
}

static int bench_states(const bench_args *a, bench_run *base, bench_run *runs,
                        const dom_instance_rec *inst, size_t n)
{
    srch_dom_result *res = malloc(sizeof *res);
    if (!res) {
        fprintf(stderr, "heurnet %s: out of memory\n", CMD);
        return CLI_EXIT_FAIL;
    }
    hn_progress *bar = hn_progress_new(CMD, n, a->quiet);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        int64_t opt = timed(base, inst[i].state, res);
        if (opt < 0) {
            fprintf(stderr, "heurnet %s: the baseline did not solve state %s\n", CMD, inst[i].id);
            rc = CLI_EXIT_FAIL;
            break;
        }
        base->optimal++;
        for (int k = 0; k < a->n_heur; k++)
            runs[k].optimal += timed(&runs[k], inst[i].state, res) == opt;
        hn_progress_update(bar, i + 1, NULL);
    }
    hn_progress_finish(bar);
    free(res);
    if (rc)
        return rc;
    print_run(base, n, 1);
    for (int k = 0; k < a->n_heur; k++)
        print_run(&runs[k], n, 0);
    return CLI_EXIT_OK;
}

/* IDA* where every move has an inverse (no memory), else A*. */
static int baseline_algo(const dom *d)
{
    return dom_reversible(d) ? HEURNET_DOM_IDASTAR : HEURNET_DOM_ASTAR;
}

/* A run of heuristic `name` (NULL: the settings' default) with the options
 * given, never a model's recorded search; the baseline's algorithm fixed.
 * 0 or an exit code (printed). */
static int run_open(const bench_args *a, const dom *d, const char *name, int algo, bench_run *r)
{
    if (algo >= 0 && name && !strncmp(name, "ann:", 4))
        return cli_usage(CMD, "--baseline must be an admissible heuristic, not %s", name);
    heurnet_dom_opts o = a->o;
    o.heuristic = name;
    o.given |= 1ull << HEURNET_DOM_OPT_HEURISTIC; /* the run's own: no record */
    if (algo >= 0) { /* the baseline: admissible, never the model, no limits */
        o.algo = algo;
        o.model = NULL;
        o.ball_radius = 0;
        o.lim = (srch_limits){0};
        o.given &= ~(1ull << HEURNET_DOM_OPT_BOUND | 1ull << HEURNET_DOM_OPT_ADMISSIBLE);
    }
    int rc = cli_dom_open(CMD, d, &o, &r->s);
    if (!rc && algo < 0) /* the network's own seconds: nn_rows_per_s */
        srch_dom_heur_time_nets(heurnet_dom_search_heur(r->s), 1);
    return rc ? rc : cli_dom_prepare(CMD, r->s);
}

static void run_free(bench_run *r)
{
    heurnet_dom_search_free(r->s);
    r->s = NULL;
}

/* The domain a model file records (a path before the first comma of an
 * ann: spec), "" when none. */
static void model_domain(const char *path, size_t len, char *spec, size_t cap)
{
    char file[4096];
    spec[0] = '\0';
    if (len < sizeof file) {
        memcpy(file, path, len);
        file[len] = '\0';
        if (heurnet_dom_model_domain(file, spec, cap))
            spec[0] = '\0';
    }
    hn_error_clear();
}

/* --domain, else --puzzle's, else --model's, else the first -H network's,
 * in --goal's layout. */
static int domain_name(const bench_args *a, char *spec, size_t cap)
{
    spec[0] = '\0';
    if (a->o.domain)
        snprintf(spec, cap, "%s", a->o.domain);
    else if (a->puzzle && heurnet_dom_puzzle_spec((int)a->puzzle, spec, cap))
        return cli_usage(CMD, "--puzzle: %s", hn_errmsg());
    else if (a->o.model)
        model_domain(a->o.model, strlen(a->o.model), spec, cap);
    for (int k = 0; !spec[0] && k < a->n_heur; k++)
        if (a->heur[k] && !strncmp(a->heur[k], "ann:", 4))
            model_domain(a->heur[k] + 4, strcspn(a->heur[k] + 4, ","), spec, cap);
    if (!spec[0])
        return cli_usage(CMD, "--domain D or --puzzle N is required (or a model that records "
                              "its domain)");
    if (a->goal && heurnet_dom_goal_spec(spec, a->goal, spec, cap))
        return cli_usage(CMD, "--goal: %s", hn_errmsg());
    return 0;
}

static int open_domain(const bench_args *a, dom **d)
{
    char spec[512];
    int st, rc = domain_name(a, spec, sizeof spec);
    if (rc)
        return rc;
    if (!(*d = dom_open(spec, &st))) {
        fprintf(stderr, "heurnet %s: --domain %s: %s\n", CMD, spec, hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int bench_run_all(bench_args *a)
{
    dom *d = NULL;
    dom_instance_rec *inst = NULL;
    size_t n = 0;
    bench_run *runs = calloc(MAX_HEURS + 1, sizeof *runs), *base = runs + MAX_HEURS;
    char bname[256];
    int rc = runs ? open_domain(a, &d) : CLI_EXIT_FAIL, k = 0;
    if (!rc && !a->baseline && heurnet_dom_baseline_heuristic(d, bname, sizeof bname))
        rc = cli_usage(CMD, "%s", hn_errmsg());
    if (!rc)
        rc = run_open(a, d, a->baseline ? a->baseline : bname,
                      a->base_algo >= 0 ? a->base_algo : baseline_algo(d), base);
    for (; !rc && k < a->n_heur; k++)
        rc = run_open(a, d, a->heur[k], -1, &runs[k]);
    if (!rc && dom_read_instances(d, a->instances, cli_dom_parse_error, (void *)CMD, &inst, &n))
        rc = cli_fail(NULL);
    if (!rc) {
        n = a->limit && n > a->limit ? a->limit : n;
        printf("# heurnet bench search: %s, %zu states, domain %s, the baseline (%s by %s) "
               "first\n",
               a->instances, n, dom_spec(d), heurnet_dom_search_settings(base->s)->heuristic,
               heurnet_dom_algo_name(heurnet_dom_search_settings(base->s)->algo));
        hn_stop_install();
        rc = bench_states(a, base, runs, inst, n);
    }
    for (int i = 0; runs && i <= MAX_HEURS; i++)
        run_free(&runs[i]);
    free(runs);
    free(inst);
    dom_free(d);
    return rc;
}

static void help(void)
{
    printf("usage: heurnet bench search --domain D --instances FILE [-H H ...] [options]\n\n"
           "Every state of FILE is searched by the admissible baseline for its optimal\n"
           "cost, then by each -H heuristic in turn with the search options below, and\n"
           "one key=value record per heuristic is printed: optimal share (against the\n"
           "baseline's costs), mean expansions, wall and thread-CPU seconds per state, for\n"
           "the others rows (network evaluations), rows_per_cpu_s (rows per CPU second of\n"
           "the whole search), nn_rows_per_s (rows per second inside the network, wall)\n"
           "and derived_share (rows whose first layer came from a parent's), then\n"
           "mean_length and algo.\n\n"
           "  --instances FILE    states `[id [length]] STATE` [required]\n"
           "  --domain D          the domain [--puzzle's, else the model's (--model, else\n"
           "                      the first -H ann:M.h5)]\n"
           "  --puzzle N          the N-puzzle: --domain npuzzle:WxW, N = W*W - 1\n"
           "  --goal G            n-puzzle: goal layout of FILE, blank-first or blank-last\n"
           "                      (a model of the other layout reads the boards renamed)\n"
           "  -H, --heuristic H   a heuristic as in solve --domain (ann:M.h5[,...], pdb:P,\n"
           "                      the domain's own); up to %d, each on every state [ann:MODEL\n"
           "                      with --model, else the domain's first]\n"
           "  --baseline H        admissible baseline [the domain's first pdb: heuristic,\n"
           "                      else its first: pdb:7-8 on the 15-puzzle]\n"
           "  --baseline-algo A   astar or idastar [idastar where every move has an inverse,\n"
           "                      else astar]\n"
           "  --limit N           only the first N states, 0 = all [0]\n"
           "  -q, --quiet         no progress\n"
           "  -h, --help          this help\n\n"
           "The search options of solve --domain (the limits apply to the -H runs):\n",
           MAX_HEURS);
    cli_dom_search_help(stdout);
}

static int own_opt(int c, const char *arg, bench_args *a)
{
    long v;
    switch (c) {
    case 'i':
        a->instances = arg;
        return 0;
    case 'b':
        a->baseline = arg;
        return 0;
    case 'g':
        a->goal = arg;
        return 0;
    case 'P':
        return cli_parse_long(arg, 3, 100000, &a->puzzle)
                   ? cli_usage(CMD, "--puzzle '%s' is not a puzzle size (8, 15, 24, ...)", arg)
                   : 0;
    case 'L':
        return heurnet_dom_baseline_algo_parse(arg, 0, &a->base_algo)
                   ? cli_usage(CMD, "%s", hn_errmsg())
                   : 0;
    case 'l':
        if (cli_parse_long(arg, 0, 1L << 40, &v))
            return cli_usage(CMD, "--limit '%s' is not a count", arg);
        a->limit = (size_t)v;
        return 0;
    case 'q':
        a->quiet = 1;
        return 0;
    default:
        return cli_usage(CMD, "unknown option");
    }
}

static int parse_args(int argc, char **argv, bench_args *a)
{
    static const struct option opts[] = {CLI_DOM_SEARCH_LONGOPTS,
                                         {"instances", required_argument, 0, 'i'},
                                         {"baseline", required_argument, 0, 'b'},
                                         {"baseline-algo", required_argument, 0, 'L'},
                                         {"puzzle", required_argument, 0, 'P'},
                                         {"goal", required_argument, 0, 'g'},
                                         {"limit", required_argument, 0, 'l'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "H:qh", opts, NULL)) != -1) {
        if (c == 'H' || c == 1002) { /* --heuristic: one more run, not a replacement */
            if (a->n_heur == MAX_HEURS)
                return cli_usage(CMD, "at most %d --heuristic", MAX_HEURS);
            a->heur[a->n_heur++] = optarg;
        } else if (cli_dom_search_opt(CMD, c, optarg, &a->o, &rc)) {
            if (rc)
                return rc;
        } else if (c == 'h') {
            help();
            return -1;
        } else if ((rc = own_opt(c, optarg, a)))
            return rc;
    }
    if (optind < argc)
        return cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
    if (!a->instances)
        return cli_usage(CMD, "--instances FILE is required");
    if (!a->n_heur)
        a->heur[a->n_heur++] = NULL; /* the settings' default: ann:MODEL or the domain's */
    return 0;
}

int cli_bench_search_dom(int argc, char **argv)
{
    bench_args *a = calloc(1, sizeof *a);
    if (!a) {
        fprintf(stderr, "heurnet %s: out of memory\n", CMD);
        return CLI_EXIT_FAIL;
    }
    heurnet_dom_opts_default(&a->o);
    a->base_algo = -1;
    int rc = parse_args(argc, argv, a);
    if (!rc) {
        cli_log_init(a->quiet);
        rc = bench_run_all(a);
    }
    free(a);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
