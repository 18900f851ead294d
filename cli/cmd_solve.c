/* heurnet solve: optimal solutions for every board of an instance file,
 * one key=value record per instance and a '#' summary line. */
#include <getopt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/search.h"
#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "cli/search_opts.h"
#include "common/hn.h"
#include "nn/nn.h"
#include "search/srch.h"

typedef struct {
    long puzzle, threads;
    int goal, quiet, puzzle_set;
    const char *file, *model;
    cli_search_opts so;
    srch_limits lim;
} solve_args;

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: heurnet solve [options] FILE\n\n"
        "Solve every board of FILE (optimally with an admissible heuristic and idastar,\n"
        "astar or batch-astar at weight 1). FILE has one board per line:\n"
        "`[id [optimal]] t0 .. tn` (row-major, 0 = blank), '#' starts a comment.\n"
        "Prints per instance: id= status= length= expanded= generated= seconds= h0=\n"
        "h_calls= (boards evaluated) batches= (heuristic batch calls) nn_seconds= nn_rows=\n"
        "(time in and boards through the network) [optimal=] moves= (blank moves U D L R),\n"
        "then a '#' summary line.\n\n"
        "  --puzzle N          8, 15 or 24 [15; with --model the model's]\n"
        "  --goal G            blank-first (0 1 2 ..) or blank-last (1 2 .. 0) [blank-first]\n"
        "  --model M.h5        search with this network: the search recorded in the model\n"
        "                      (heurnet nn set-search) when neither --algo nor --heuristic\n"
        "                      is given, else --algo astar --heuristic ann:M.h5; other\n"
        "                      options given here still win. SELF in --heuristic = M.h5\n"
        "  --heuristic H       manhattan, lc, pdb:7-8, pdb:6-6-3, pdb:5-5-5, pdb:6-6-6-6, pdb:8,\n"
        "                      pdb:P:noreflect, max:H1,H2 [pdb:7-8 / pdb:6-6-6-6 / pdb:8]\n"
        "                      PDBs come from the cache ($HEURNET_DATA, else ~/.cache/heurnet)\n"
        "                      and are built there on first use.\n"
        "                      ann:MODEL.h5[,H][,delta:D][,scale:S][,mirror][,cache:BITS]: a\n"
        "                      network, optionally max(ann - D, H) with an admissible H; scale:S\n"
        "                      keeps 1/S-move fixed-point values (A* family only) [rounded];\n"
        "                      mirror averages each board with its diagonal mirror;\n"
        "                      cache:BITS keeps 2^BITS boards per thread, 24 * 2^BITS bytes\n"
        "                      (18: 6 MB, 24: 0.4 GB, 28: 6.4 GB), 0 = off; refused above\n"
        "                      half of physical memory over all threads [18]\n"
        "                      q8: int8 layers (docs/inference.md), dense: one-hot rows\n"
        "                      through the float reference [sparse: incremental float];\n"
        "                      acc16 (with q8): 16-bit first-layer accumulators where\n"
        "                      the model's weights allow them exactly [32-bit]\n"
        "  --algo A            idastar, astar, wastar, batch-astar, bwas, focal, anytime\n"
        "                      [idastar; astar with --model]\n"
        "  --batch B           batch-astar, bwas: nodes expanded per step [16]\n"
        "  --weight W          wastar, batch-astar: f = g + W*h [wastar 1.5, else 1];\n"
        "                      bwas (DeepCubeA's batch-weighted A*): lambda in\n"
        "                      f = lambda*g + h, 0 < lambda <= 1 [0.8]; anytime: W or\n"
        "                      a falling list W1,W2,..: phases on f = g + W*h before\n"
        "                      the deltas' (ARA*-like; the first finds a solution fast,\n"
        "                      the next improve it) [1: none]\n"
        "  --bound E           focal: solution <= E * optimal [1.05]\n"
        "  --admissible H      focal: heuristic proving the bound; anytime: the H of\n"
        "                      max(h - delta, H) [the H of an ann: spec, else the\n"
        "                      default PDB]\n"
        "  --deltas LIST       anytime: A* phases on max(h - delta, H), one per delta of\n"
        "                      the rising LIST, each bounded by the best solution so far;\n"
        "                      a last 'inf' (H alone) proves it optimal (proven=1); the\n"
        "                      time limit ends the schedule, the best solution stands\n"
        "                      (phases= says how far it got) [" CLI_DEFAULT_DELTAS "]\n"
        "  --shortcut W[:N]    re-solve every window of up to W moves of each solution\n"
        "                      (anytime: of each incumbent, which then bounds the next\n"
        "                      phases) by IDA* between its end boards, N nodes per\n"
        "                      window, keeping a shorter path found (saved= moves)\n"
        "                      [0: off; N 1000000]\n"
        "  --ida BANDS         anytime: after the A* phases, depth-first passes below the\n"
        "                      best solution (its length - 2, again after each find),\n"
        "                      pruned by H; 'plain': H alone, a pass that ends proves\n"
        "                      (proven=1); LO-HI:D,..: also by the network less D for\n"
        "                      boards LO..HI moves from the pass's bound (D inf: the\n"
        "                      network only orders them, the pass still proves) [off]\n"
        "  --ida-at P          anytime: the A* phases give way to --ida's passes after\n"
        "                      the share P of --time-limit (once they have a solution)\n"
        "                      [0.5]\n"
        "  --max-expanded N    per-instance node limit, 0 = none [0]\n"
        "  --time-limit S      per-instance seconds, 0 = none [0]\n"
        "  --max-nodes N       A* family: stored-node (memory) limit, 0 = none [0]\n"
        "  --threads T         solve instances in parallel [1]\n"
        "  -q, --quiet         no progress or PDB build messages\n"
        "  -h, --help          this help\n\n"
        "Exit status: 0 all solved, 1 a bad file (every bad line is listed), an\n"
        "instance stopped by a limit (status=limit) or a known optimum missed by a search\n"
        "that promises optimality, 2 misuse.\n");
}

static int parse_limit(int c, const char *arg, solve_args *a)
{
    switch (c) {
    case 'e':
        return cli_parse_u64(arg, &a->lim.max_expanded)
                   ? cli_usage("solve", "--max-expanded must be a count, not '%s'", arg)
                   : 0;
    case 't':
        return cli_parse_double(arg, &a->lim.time_limit) || a->lim.time_limit < 0
                   ? cli_usage("solve", "--time-limit must be seconds >= 0, not '%s'", arg)
                   : 0;
    default:
        return cli_parse_u64(arg, &a->lim.max_nodes)
                   ? cli_usage("solve", "--max-nodes must be a count, not '%s'", arg)
                   : 0;
    }
}

/* With --model: the puzzle size from the model and the search it records
 * (used when neither --algo nor --heuristic is given), else A* on it. */
static int model_search(solve_args *a, const cli_search_opts *given, cli_search_opts *so)
{
    char rec[4096], where[1200];
    int width, rc = cli_model_search_get(a->model, &width, rec, sizeof rec);
    if (rc)
        return rc;
    if (!width)
        return cli_usage("solve", "--model %s is not an n-puzzle model", a->model);
    if (a->puzzle_set && srch_np_puzzle_width(a->puzzle) != width)
        return cli_usage("solve", "--model %s is for the %d-puzzle, not the %ld-puzzle", a->model,
                         width * width - 1, a->puzzle);
    a->puzzle = width * width - 1;
    *so = (cli_search_opts){.algo = HEURNET_ALGO_ASTAR, .heuristic = "ann:SELF"};
    if (!rec[0])
        return 0;
    /* checked as set-search checks it: a file must not pick another model
     * or drop the network; a bad record is a bad file (exit 1) */
    cli_search_opts rec_so;
    snprintf(where, sizeof where, "solve: %s: the search recorded in its attribute '%s'", a->model,
             CLI_SEARCH_ATTR);
    if (cli_search_record_check(where, rec, width, &rec_so))
        return CLI_EXIT_FAIL;
    if (given->algo >= 0 || given->heuristic[0])
        return 0;
    if (!a->quiet)
        fprintf(stderr, "heurnet solve: the search recorded in %s: %s\n", a->model, rec);
    *so = rec_so;
    return cli_search_opts_self(where, so, a->model) ? CLI_EXIT_FAIL : 0;
}

/* The final search options: the model's (see model_search) under the
 * options given on the command line. */
static int resolve_search(solve_args *a, const cli_search_opts *given)
{
    cli_search_opts so = CLI_SEARCH_OPTS_INIT;
    int rc = a->model ? model_search(a, given, &so) : 0;
    cli_search_opts_merge(&so, given);
    if (!rc && a->model)
        rc = cli_search_opts_self("solve", &so, a->model);
    if (!rc)
        rc = cli_search_opts_finish("solve", &so, HEURNET_ALGO_IDASTAR);
    if (!rc && !so.heuristic[0])
        snprintf(so.heuristic, sizeof so.heuristic, "%s",
                 heurnet_default_heuristic(srch_np_puzzle_width(a->puzzle)));
    a->so = so;
    return rc;
}

static int parse_args(int argc, char **argv, solve_args *a)
{
    static const struct option opts[] = {{"puzzle", required_argument, 0, 'p'},
                                         {"goal", required_argument, 0, 'g'},
                                         {"model", required_argument, 0, 'm'},
                                         CLI_SEARCH_LONGOPTS,
                                         {"max-expanded", required_argument, 0, 'e'},
                                         {"time-limit", required_argument, 0, 't'},
                                         {"max-nodes", required_argument, 0, 'n'},
                                         {"threads", required_argument, 0, 'T'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    *a = (solve_args){.puzzle = 15, .threads = 1};
    cli_search_opts given = CLI_SEARCH_OPTS_INIT;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        if ((rc = cli_search_opt("solve", c, optarg, &given)) >= 0) {
            if (rc)
                return rc;
            continue;
        }
        switch (c) {
        case 'p':
            if (cli_parse_long(optarg, 8, 24, &a->puzzle) || !srch_np_puzzle_width(a->puzzle))
                return cli_usage("solve", "--puzzle must be 8, 15 or 24, not '%s'", optarg);
            a->puzzle_set = 1;
            break;
        case 'g':
            if (srch_np_goal_parse(optarg, &a->goal))
                return cli_usage("solve", "%s", hn_errmsg());
            break;
        case 'm':
            a->model = optarg;
            break;
        case 'e':
        case 't':
        case 'n':
            if ((rc = parse_limit(c, optarg, a)))
                return rc;
            break;
        case 'T':
            if (cli_parse_long(optarg, 1, 256, &a->threads))
                return cli_usage("solve", "--threads must be 1..256, not '%s'", optarg);
            break;
        case 'q':
            a->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return -1;
        default:
            return cli_usage("solve", "bad option");
        }
    }
    if (optind != argc - 1)
        return cli_usage("solve", optind < argc ? "expected one instance file"
                                                : "missing the instance file");
    a->file = argv[optind];
    return resolve_search(a, &given);
}

static void print_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet solve: %s\n", msg);
}

typedef struct {
    const solve_args *a;
    const heurnet_search *s;
    const srch_np_instance *inst;
    srch_np_result *res;
    srch_np_ann_stats *nn;
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
        heurnet_search_solve(j->s, &j->inst[i].board, &j->a->lim, &j->res[i], &j->nn[i]);
    }
    return NULL;
}

static const char *status_word(int st)
{
    switch (st) {
    case 0:
        return "solved";
    case HN_ERR_LIMIT:
        return "limit";
    case HN_ERR_INTERRUPTED:
        return "interrupted";
    case HN_ERR_NOMEM:
        return "nomem";
    default:
        return "error";
    }
}

static void print_record(const srch_np_instance *x, const srch_np_result *r,
                         const srch_np_ann_stats *nn, int algo)
{
    printf("id=%s status=%s length=%d expanded=%llu generated=%llu seconds=%.4f h0=%d h_calls=%llu "
           "batches=%llu nn_seconds=%.4f nn_rows=%llu",
           x->id, status_word(r->status), r->length, (unsigned long long)r->expanded,
           (unsigned long long)r->generated, r->seconds, r->h0, (unsigned long long)r->heur_calls,
           (unsigned long long)r->batches, nn->seconds, (unsigned long long)nn->rows);
    if (algo == HEURNET_ALGO_ANYTIME)
        printf(" phases=%d proven=%d", r->phases, r->proven);
    if (r->saved)
        printf(" saved=%d", r->saved);
    if (x->optimal >= 0)
        printf(" optimal=%d", x->optimal);
    char moves[SRCH_NP_MAX_PATH + 1];
    srch_np_moves_format(r->moves, r->nmoves, moves, sizeof moves);
    printf(" moves=%s\n", r->status == 0 ? moves : "-");
}

/* Run the instances (several threads when asked); results in res[]. */
static void run_all(const solve_args *a, const heurnet_search *s, const srch_np_instance *inst,
                    srch_np_result *res, srch_np_ann_stats *nn, size_t n)
{
    job j = {.a = a, .s = s, .inst = inst, .res = res, .nn = nn, .n = n};
    for (size_t i = 0; i < n; i++)
        res[i] = (srch_np_result){.status = HN_ERR_INTERRUPTED, .length = -1, .h0 = -1};
    if (a->threads <= 1) {
        for (size_t i = 0; i < n && !hn_stop_requested(); i++) {
            solve_worker(
                &(job){.a = a, .s = s, .inst = inst + i, .res = res + i, .nn = nn + i, .n = 1});
            print_record(&inst[i], &res[i], &nn[i], a->so.algo);
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
        print_record(&inst[i], &res[i], &nn[i], a->so.algo);
}

static int summarize(const solve_args *a, const srch_np_instance *inst, const srch_np_result *res,
                     size_t n, double wall)
{
    size_t solved = 0, known = 0, wrong = 0;
    double expanded = 0, generated = 0, h0 = 0, seconds = 0, all = 0;
    for (size_t i = 0; i < n; i++) {
        seconds += res[i].seconds;
        all += (double)res[i].expanded; /* an unsolved board: until its limit */
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
    char me[32], mg[32], mh[32];
    printf("# count=%zu solved=%zu optimal_checked=%zu all_optimal=%s mean_expanded=%s "
           "mean_generated=%s mean_h0=%s total_seconds=%.3f wall_seconds=%.3f threads=%ld "
           "algo=%s heuristic=%s batch=%d weight=%g peak_rss_mb=%.0f mean_expanded_all=%.1f\n",
           n, solved, known,
           wrong                      ? "no"
           : known && known == solved ? "yes"
                                      : "unchecked",
           cli_mean_or_na(me, "%.1f", expanded, solved),
           cli_mean_or_na(mg, "%.1f", generated, solved), cli_mean_or_na(mh, "%.2f", h0, solved),
           seconds, wall, a->threads, heurnet_algo_name(a->so.algo), a->so.heuristic, a->so.batch,
           a->so.weight, (double)hn_peak_rss_kb() / 1024.0, n ? all / (double)n : 0.0);
    /* a network heuristic, weights and focal bounds trade optimality for speed */
    int exact = strncmp(a->so.heuristic, "ann:", 4) && a->so.algo != HEURNET_ALGO_FOCAL &&
                a->so.algo != HEURNET_ALGO_WASTAR && a->so.weight == 1.0;
    if (wrong)
        fprintf(stderr, "heurnet solve: %zu solution%s differ from the known optimal length%s\n",
                wrong, wrong == 1 ? "" : "s",
                exact ? "" : " (this search does not promise optimality)");
    if (solved < n)
        fprintf(stderr, "heurnet solve: %zu of %zu instances not solved (limit or interrupted)\n",
                n - solved, n);
    return (wrong && exact) || solved < n ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static int solve_npuzzle(int argc, char **argv)
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
    heurnet_search s = cli_search_opts_search(&a.so);
    s.threads = (int)a.threads;
    rc = cli_search_setup(&s, a.so.heuristic, a.so.admissible[0] ? a.so.admissible : NULL, width,
                          a.goal, a.quiet);
    if (rc) {
        free(inst);
        return rc;
    }
    srch_np_result *res = malloc((n ? n : 1) * sizeof *res);
    srch_np_ann_stats *nn = calloc(n ? n : 1, sizeof *nn);
    if (!res || !nn) {
        free(res);
        free(nn);
        free(inst);
        heurnet_search_free(&s);
        fprintf(stderr, "heurnet solve: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    hn_stop_install();
    double t0 = hn_now();
    run_all(&a, &s, inst, res, nn, n);
    rc = summarize(&a, inst, res, n, hn_now() - t0);
    free(res);
    free(nn);
    free(inst);
    heurnet_search_free(&s);
    return rc;
}

/* The first of the n-puzzle command's own options (--puzzle, --goal) in
 * argv, with its value, or -1. */
static int npuzzle_opt(int argc, char **argv, const char **name, const char **value)
{
    static const char *const own[] = {"--puzzle", "--goal"};
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        for (int k = 0; k < 2; k++) {
            size_t n = strlen(own[k]);
            if (strncmp(argv[i], own[k], n) || (argv[i][n] && argv[i][n] != '='))
                continue;
            *name = own[k];
            *value = argv[i][n] ? argv[i] + n + 1 : i + 1 < argc ? argv[i + 1] : "";
            return i;
        }
    return -1;
}

/* The generic path has no --puzzle or --goal: say which domain the run is
 * on and why the option does not fit it, rather than "unknown option". */
static int refuse_npuzzle_opt(int argc, char **argv, const char *spec)
{
    const char *name, *value, *model = NULL, *dflag = NULL;
    if (npuzzle_opt(argc, argv, &name, &value) < 0)
        return 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strncmp(argv[i], "--domain", 8) && (!argv[i][8] || argv[i][8] == '='))
            dflag = argv[i];
        if (!strcmp(argv[i], "--model") && i + 1 < argc)
            model = argv[i + 1];
        else if (!strncmp(argv[i], "--model=", 8))
            model = argv[i] + 8;
    }
    if (!dflag && model && !strcmp(name, "--puzzle"))
        return cli_usage("solve",
                         "--model %s is for domain %s and does not fit %s %s (an n-puzzle option; "
                         "drop it, or give a model of that puzzle)",
                         model, spec, name, value);
    return cli_usage("solve",
                     "%s %s is an option of the square n-puzzle (3x3..5x5); domain %s%s runs "
                     "the generic search, which has no %s (its goal is the domain's: drop it)",
                     name, value, spec, dflag ? "" : " (the model's)", name);
}

/* The value of option `name` in argv (before "--"), or NULL. */
static const char *opt_value(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], name) && i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(argv[i], name, n) && argv[i][n] == '=')
            return argv[i] + n + 1;
    }
    return NULL;
}

/* 1 when the run is an anytime search: --algo anytime, or a model whose
 * recorded search is one when neither --algo nor --heuristic is given. */
static int anytime_run(int argc, char **argv)
{
    const char *algo = opt_value(argc, argv, "--algo"), *model = opt_value(argc, argv, "--model");
    if (algo || opt_value(argc, argv, "--heuristic") || !model)
        return algo && !strcmp(algo, "anytime");
    int st;
    nn_model *m = nn_model_load(model, &st);
    const char *rec = m ? nn_model_get_meta_str(m, CLI_SEARCH_ATTR) : NULL;
    int any = rec && strstr(rec, "--algo anytime") != NULL;
    nn_model_free(m);
    hn_error_clear(); /* a model that does not load is reported by the run */
    return any;
}

/* --domain (or a --model's domain) picks the path: the generic one
 * (cli/dom_solve.c) for every domain named by --domain, except the anytime
 * search of a square n-puzzle up to 5x5, which (like --puzzle and a
 * model's own domain, until they move) runs the specialised command above. */
int cmd_solve(int argc, char **argv)
{
    char spec[512];
    int rc = cli_dom_spec("solve", argc, argv, spec, sizeof spec);
    if (rc || !spec[0])
        return rc ? rc : solve_npuzzle(argc, argv);
    char **nv = malloc(sizeof *nv * ((size_t)argc + 6));
    int nc;
    if (!nv) {
        fprintf(stderr, "heurnet solve: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    int named = opt_value(argc, argv, "--domain") != NULL;
    if (cli_dom_specialised(spec, argc, argv, nv, &nc) && (!named || anytime_run(argc, argv)))
        rc = solve_npuzzle(nc, nv);
    else
        rc = (rc = refuse_npuzzle_opt(argc, argv, spec)) ? rc : cli_dom_solve(argc, argv);
    free(nv);
    return rc;
}
