/* heurnet solve: optimal solutions for every board of an instance file,
 * one key=value record per instance and a '#' summary line. */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/hn.h"
#include "search/srch.h"

typedef struct {
    long puzzle, threads;
    int goal, algo_astar, quiet;
    const char *heuristic, *file;
    srch_limits lim;
} solve_args;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: heurnet solve [options] FILE\n\n"
            "Solve every board of FILE optimally. FILE has one board per line:\n"
            "`[id [optimal]] t0 .. tn` (row-major, 0 = blank), '#' starts a comment.\n"
            "Prints per instance: id= length= expanded= generated= seconds= h0= [optimal=]\n"
            "moves= (blank moves U D L R), then a '#' summary line.\n\n"
            "  --puzzle N          8, 15 or 24 [15]\n"
            "  --goal G            blank-first (0 1 2 ..) or blank-last (1 2 .. 0) [blank-first]\n"
            "  --heuristic H       manhattan, lc, pdb:7-8, pdb:6-6-3, pdb:5-5-5, pdb:6-6-6-6, pdb:8,\n"
            "                      pdb:P:noreflect, max:H1,H2 [pdb:7-8 / pdb:6-6-6-6 / pdb:8]\n"
            "                      PDBs come from the cache ($HEURNET_DATA, else ~/.cache/heurnet)\n"
            "                      and are built there on first use.\n"
            "  --algo A            idastar or astar [idastar]\n"
            "  --max-expanded N    per-instance node limit, 0 = none [0]\n"
            "  --time-limit S      per-instance seconds, 0 = none [0]\n"
            "  --max-nodes N       A*: stored-node limit, 0 = none [0]\n"
            "  --threads T         solve instances in parallel [1]\n"
            "  -q, --quiet         no progress or PDB build messages\n"
            "  -h, --help          this help\n\n"
            "Exit status: 0 all solved, 1 a bad file (every bad line is listed) or an\n"
            "instance stopped by a limit (status=limit), 2 misuse.\n");
}

static int parse_args(int argc, char **argv, solve_args *a)
{
    static const struct option opts[] = {
        {"puzzle", required_argument, 0, 'p'},  {"goal", required_argument, 0, 'g'},
        {"heuristic", required_argument, 0, 'H'}, {"algo", required_argument, 0, 'a'},
        {"max-expanded", required_argument, 0, 'e'}, {"time-limit", required_argument, 0, 't'},
        {"max-nodes", required_argument, 0, 'n'}, {"threads", required_argument, 0, 'T'},
        {"quiet", no_argument, 0, 'q'},           {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    *a = (solve_args){.puzzle = 15, .threads = 1};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_parse_long(optarg, 8, 24, &a->puzzle) || !srch_np_puzzle_width(a->puzzle))
                return cli_usage("solve", "--puzzle must be 8, 15 or 24, not '%s'", optarg);
            break;
        case 'g':
            if (srch_np_goal_parse(optarg, &a->goal))
                return cli_usage("solve", "%s", hn_errmsg());
            break;
        case 'H': a->heuristic = optarg; break;
        case 'a':
            if (strcmp(optarg, "idastar") && strcmp(optarg, "astar"))
                return cli_usage("solve", "--algo must be idastar or astar, not '%s'", optarg);
            a->algo_astar = !strcmp(optarg, "astar");
            break;
        case 'e':
            if (cli_parse_u64(optarg, &a->lim.max_expanded))
                return cli_usage("solve", "--max-expanded must be a count, not '%s'", optarg);
            break;
        case 't':
            if (cli_parse_double(optarg, &a->lim.time_limit) || a->lim.time_limit < 0)
                return cli_usage("solve", "--time-limit must be seconds >= 0, not '%s'", optarg);
            break;
        case 'n':
            if (cli_parse_u64(optarg, &a->lim.max_nodes))
                return cli_usage("solve", "--max-nodes must be a count, not '%s'", optarg);
            break;
        case 'T':
            if (cli_parse_long(optarg, 1, 256, &a->threads))
                return cli_usage("solve", "--threads must be 1..256, not '%s'", optarg);
            break;
        case 'q': a->quiet = 1; break;
        case 'h': usage(stdout); return -1;
        default: return cli_usage("solve", "bad option");
        }
    }
    if (optind != argc - 1)
        return cli_usage("solve", optind < argc ? "expected one instance file" : "missing the instance file");
    a->file = argv[optind];
    if (!a->heuristic) {
        int w = srch_np_puzzle_width(a->puzzle);
        a->heuristic = w == 3 ? "pdb:8" : w == 4 ? "pdb:7-8" : "pdb:6-6-6-6";
    }
    return 0;
}

static void print_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet solve: %s\n", msg);
}

typedef struct {
    const solve_args *a;
    const srch_np_heur *h;
    const srch_np_instance *inst;
    srch_np_result *res;
    size_t n;
    atomic_size_t next;
} job;

static void *solve_worker(void *arg)
{
    job *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || hn_stop_requested())
            break;
        if (j->a->algo_astar)
            srch_np_astar(&j->inst[i].board, j->h, &j->a->lim, &j->res[i]);
        else
            srch_np_idastar(&j->inst[i].board, j->h, &j->a->lim, &j->res[i]);
    }
    return NULL;
}

static const char *status_word(int st)
{
    switch (st) {
    case 0: return "solved";
    case HN_ERR_LIMIT: return "limit";
    case HN_ERR_INTERRUPTED: return "interrupted";
    case HN_ERR_NOMEM: return "nomem";
    default: return "error";
    }
}

static void print_record(const srch_np_instance *x, const srch_np_result *r)
{
    printf("id=%s status=%s length=%d expanded=%llu generated=%llu seconds=%.4f h0=%d", x->id,
           status_word(r->status), r->length, (unsigned long long)r->expanded,
           (unsigned long long)r->generated, r->seconds, r->h0);
    if (x->optimal >= 0)
        printf(" optimal=%d", x->optimal);
    char moves[SRCH_NP_MAX_PATH + 1];
    srch_np_moves_format(r->moves, r->nmoves, moves, sizeof moves);
    printf(" moves=%s\n", r->status == 0 ? moves : "-");
}

/* Run the instances (several threads when asked); results in res[]. */
static void run_all(const solve_args *a, const srch_np_heur *h, const srch_np_instance *inst,
                    srch_np_result *res, size_t n)
{
    job j = {.a = a, .h = h, .inst = inst, .res = res, .n = n};
    for (size_t i = 0; i < n; i++)
        res[i] = (srch_np_result){.status = HN_ERR_INTERRUPTED, .length = -1, .h0 = -1};
    if (a->threads <= 1) {
        for (size_t i = 0; i < n && !hn_stop_requested(); i++) {
            solve_worker(&(job){.a = a, .h = h, .inst = inst + i, .res = res + i, .n = 1});
            print_record(&inst[i], &res[i]);
            fflush(stdout);
        }
        return;
    }
    pthread_t tid[256];
    long started = 0;
    for (; started < a->threads; started++)
        if (pthread_create(&tid[started], NULL, solve_worker, &j))
            break;
    if (!started)
        solve_worker(&j);
    for (long t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    for (size_t i = 0; i < n; i++)
        print_record(&inst[i], &res[i]);
}

static int summarize(const solve_args *a, const srch_np_instance *inst, const srch_np_result *res,
                     size_t n, double wall)
{
    size_t solved = 0, known = 0, wrong = 0;
    double expanded = 0, generated = 0, h0 = 0, seconds = 0;
    for (size_t i = 0; i < n; i++) {
        seconds += res[i].seconds;
        if (res[i].status)
            continue;
        solved++;
        expanded += (double)res[i].expanded;
        generated += (double)res[i].generated;
        h0 += res[i].h0;
        if (inst[i].optimal >= 0) {
            known++;
            wrong += res[i].length != inst[i].optimal;
        }
    }
    double d = solved ? (double)solved : 1;
    printf("# count=%zu solved=%zu optimal_checked=%zu all_optimal=%s mean_expanded=%.1f "
           "mean_generated=%.1f mean_h0=%.2f total_seconds=%.3f wall_seconds=%.3f threads=%ld "
           "algo=%s heuristic=%s peak_rss_mb=%.0f\n",
           n, solved, known, wrong ? "no" : known == solved ? "yes" : "unchecked", expanded / d,
           generated / d, h0 / d, seconds, wall, a->threads, a->algo_astar ? "astar" : "idastar",
           a->heuristic, (double)hn_peak_rss_kb() / 1024.0);
    if (wrong)
        fprintf(stderr, "heurnet solve: %zu solution%s differ from the known optimal length\n", wrong,
                wrong == 1 ? "" : "s");
    if (solved < n)
        fprintf(stderr, "heurnet solve: %zu of %zu instances not solved (limit or interrupted)\n",
                n - solved, n);
    return wrong || solved < n ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

int cmd_solve(int argc, char **argv)
{
    solve_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    int width = srch_np_puzzle_width(a.puzzle);
    srch_np_instance *inst;
    size_t n;
    int st = srch_np_parse_file(a.file, width, a.goal, print_parse_error, NULL, &inst, &n);
    if (st)
        return cli_fail(NULL);
    srch_np_heur *h;
    rc = cli_heur_get(a.heuristic, width, a.goal, a.quiet, &h);
    if (rc) {
        free(inst);
        return rc;
    }
    srch_np_result *res = malloc((n ? n : 1) * sizeof *res);
    if (!res) {
        free(inst);
        srch_np_heur_free(h);
        fprintf(stderr, "heurnet solve: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    hn_stop_install();
    double t0 = hn_now();
    run_all(&a, h, inst, res, n);
    rc = summarize(&a, inst, res, n, hn_now() - t0);
    free(res);
    free(inst);
    srch_np_heur_free(h);
    return rc;
}
