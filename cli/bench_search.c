/* heurnet bench search: A* with network heuristics next to A* with an
 * admissible baseline (the 7-8 PDB) on the same boards in the same run,
 * board by board in turn so both see the same machine load. Reports time
 * per board (wall and thread CPU), optimal share against the baseline, and
 * how many network rows per second the search sustains. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solve/search.h"
#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"

#define MAX_HEURS 8

struct bench_search_cfg {
    const char *instances, *baseline;
    const char *heur[MAX_HEURS];
    int n_heur, width, goal, quiet;
    size_t limit;
};

/* Totals of one heuristic over the boards. */
struct bench_tot {
    double wall, cpu, nn_wall;
    uint64_t expanded, rows, updates;
    size_t solved, optimal;
};

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One A* run; adds its times and counters to *t. Returns the length or -1. */
static int timed_solve(const heurnet_search *s, const srch_np_board *b, struct bench_tot *t)
{
    srch_np_result res;
    srch_np_ann_stats nn;
    srch_limits lim = {0};
    double w0 = hn_now(), c0 = thread_cpu();
    int st = heurnet_search_solve(s, b, &lim, &res, &nn);
    t->cpu += thread_cpu() - c0;
    t->wall += hn_now() - w0;
    t->expanded += res.expanded;
    t->rows += nn.rows;
    t->nn_wall += nn.seconds;
    t->updates += nn.acc_updates;
    t->solved += st == 0;
    return st == 0 ? res.length : -1;
}

static void print_tot(const char *name, const struct bench_tot *t, size_t n, int baseline)
{
    printf("heuristic=%s boards=%zu solved=%zu optimal=%zu optimal_share=%.3f mean_expanded=%.1f "
           "wall_s_per_board=%.5f cpu_s_per_board=%.5f",
           name, n, t->solved, t->optimal, n ? (double)t->optimal / n : 0.0,
           n ? (double)t->expanded / n : 0.0, n ? t->wall / n : 0.0, n ? t->cpu / n : 0.0);
    if (!baseline)
        printf(" rows=%llu rows_per_cpu_s=%.0f nn_rows_per_s=%.0f derived_share=%.3f",
               (unsigned long long)t->rows, t->cpu > 0 ? t->rows / t->cpu : 0.0,
               t->nn_wall > 0 ? t->rows / t->nn_wall : 0.0,
               t->rows ? (double)t->updates / t->rows : 0.0);
    printf("\n");
}

static int bench_boards(const struct bench_search_cfg *c, heurnet_search *base, heurnet_search *h,
                        const srch_np_instance *inst, size_t n)
{
    struct bench_tot tb = {0}, th[MAX_HEURS] = {{0}};
    for (size_t i = 0; i < n; i++) {
        int opt = timed_solve(base, &inst[i].board, &tb);
        if (opt < 0) {
            fprintf(stderr, "heurnet bench search: the baseline did not solve board %s\n",
                    inst[i].id);
            return CLI_EXIT_FAIL;
        }
        tb.optimal++;
        for (int k = 0; k < c->n_heur; k++)
            th[k].optimal += timed_solve(&h[k], &inst[i].board, &th[k]) == opt;
        if (!c->quiet && (i + 1) % 50 == 0)
            fprintf(stderr, "bench search: %zu/%zu boards\n", i + 1, n);
    }
    print_tot(c->baseline, &tb, n, 1);
    for (int k = 0; k < c->n_heur; k++)
        print_tot(c->heur[k], &th[k], n, 0);
    return CLI_EXIT_OK;
}

static void print_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet bench search: %s\n", msg);
}

static int bench_search_run(const struct bench_search_cfg *c)
{
    srch_np_instance *inst = NULL;
    size_t n = 0;
    if (srch_np_parse_file(c->instances, c->width, c->goal, print_parse_error, NULL, &inst, &n))
        return cli_fail("bench search");
    if (c->limit && n > c->limit)
        n = c->limit;
    heurnet_search base = {.algo = HEURNET_ALGO_ASTAR}, h[MAX_HEURS];
    int rc = cli_search_setup(&base, c->baseline, NULL, c->width, c->goal, c->quiet), k = 0;
    for (; !rc && k < c->n_heur; k++) {
        h[k] = (heurnet_search){.algo = HEURNET_ALGO_ASTAR};
        rc = cli_search_setup(&h[k], c->heur[k], NULL, c->width, c->goal, c->quiet);
    }
    if (rc)
        k--; /* h[k] failed and holds nothing */
    else {
        printf("# heurnet bench search: %s, %zu boards, goal %s, A* per board, baseline first\n",
               c->instances, n, srch_np_goal_name(c->goal));
        rc = bench_boards(c, &base, h, inst, n);
    }
    for (int i = 0; i < k; i++)
        heurnet_search_free(&h[i]);
    heurnet_search_free(&base);
    free(inst);
    return rc;
}

static void bench_search_help(void)
{
    printf("usage: heurnet bench search --instances FILE --heuristic H [options]\n\n"
           "Solve every board with A* and the baseline heuristic, then with A* and each\n"
           "--heuristic, in turn, and print one key=value record per heuristic: optimal\n"
           "share (against the baseline's optimal lengths), mean expansions, wall and\n"
           "thread-CPU seconds per board, and for networks rows (network evaluations),\n"
           "rows_per_cpu_s (rows per CPU second of the whole search), nn_rows_per_s (rows\n"
           "per second inside the network, wall) and derived_share (rows whose\n"
           "accumulator came from the previous row).\n\n"
           "  --instances FILE   boards `[id [optimal]] t0 .. tn` [required]\n"
           "  -H, --heuristic H  a heuristic spec, e.g. ann:M.h5,scale:10,mirror,q8; up to\n"
           "                     %d, each run on every board [required]\n"
           "  --baseline H       admissible baseline [pdb:7-8]\n"
           "  --width W          board width [4]\n"
           "  --goal G           goal layout of FILE: blank-first or blank-last [blank-first]\n"
           "  --limit N          only the first N boards, 0 = all [0]\n"
           "  -q, --quiet        no progress\n"
           "  -h, --help         this help\n\n"
           "With --domain D (or --model M.h5): any domain through the generic core, the\n"
           "search options of solve --domain (heurnet bench search --domain D --help).\n",
           MAX_HEURS);
}

/* --domain D (or a --model): any domain through the generic core. */
static int on_domain(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--domain") || !strncmp(argv[i], "--domain=", 9) ||
            !strcmp(argv[i], "--model") || !strncmp(argv[i], "--model=", 8))
            return 1;
    return 0;
}

int cli_bench_search(int argc, char **argv)
{
    if (on_domain(argc, argv))
        return cli_bench_search_dom(argc, argv);
    static const struct option opts[] = {{"instances", required_argument, NULL, 'i'},
                                         {"heuristic", required_argument, NULL, 'H'},
                                         {"baseline", required_argument, NULL, 'b'},
                                         {"width", required_argument, NULL, 'w'},
                                         {"goal", required_argument, NULL, 'g'},
                                         {"limit", required_argument, NULL, 'l'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    struct bench_search_cfg c = {.baseline = "pdb:7-8", .width = 4};
    long v;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "H:qh", opts, NULL)) != -1) {
        switch (ch) {
        case 'i':
            c.instances = optarg;
            break;
        case 'H':
            if (c.n_heur == MAX_HEURS)
                return cli_usage("bench search", "at most %d --heuristic", MAX_HEURS);
            c.heur[c.n_heur++] = optarg;
            break;
        case 'b':
            c.baseline = optarg;
            break;
        case 'w':
        case 'l':
            if (cli_parse_long(optarg, ch == 'w' ? 3 : 0, ch == 'w' ? 5 : 1L << 40, &v))
                return cli_usage("bench search", "--%s: bad value '%s'",
                                 ch == 'w' ? "width" : "limit", optarg);
            if (ch == 'w')
                c.width = (int)v;
            else
                c.limit = (size_t)v;
            break;
        case 'g':
            if (srch_np_goal_parse(optarg, &c.goal))
                return cli_usage("bench search", "--goal: blank-first or blank-last, not '%s'",
                                 optarg);
            break;
        case 'q':
            c.quiet = 1;
            break;
        case 'h':
            bench_search_help();
            return CLI_EXIT_OK;
        default:
            return cli_usage("bench search", "unknown option");
        }
    }
    if (optind < argc)
        return cli_usage("bench search", "unexpected argument '%s'", argv[optind]);
    if (!c.instances || !c.n_heur)
        return cli_usage("bench search", "--instances and --heuristic are required");
    cli_log_init(c.quiet);
    return bench_search_run(&c);
}
