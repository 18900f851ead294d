/* heurnet eval: the experiment of Cahlik & Surynek (2019) in one command —
 * solve every board with the network heuristic and with an admissible
 * baseline (A* with the 7-8 PDB), check every solution, and write a report
 * folder (instances.tsv, summary.md, figures). */
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/search.h"
#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "solve/eval_report.h"
#include "cli/search_opts.h"
#include "nn/nn.h"

/* The least time a board is given under --time-budget: a search checks its
 * clock between node batches, so a smaller limit would not be kept. */
#define EVAL_MIN_SHARE 1e-3

typedef struct {
    const char *model, *instances, *out, *baseline;
    int goal, base_algo, base_algo_set, quiet, force; /* base_algo: -1 = none */
    long limit, blas_threads;
    cli_search_opts given; /* search options on the command line */
    cli_search_opts so;    /* the search run: the model's recorded one under `given` */
    srch_limits lim;
    double time_budget; /* > 0: mean seconds per board over the run */
} eval_args;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: heurnet eval --model M.h5 --instances FILE -o DIR [options]\n\n"
            "Solve every board of FILE with the network heuristic and with an admissible\n"
            "baseline, replay every solution, and write DIR/instances.tsv, DIR/summary.md\n"
            "(optimal share, excess moves, expansions and time, expansions by difficulty\n"
            "class) and PNG figures (gnuplot). The puzzle size comes from the model's encoder.\n"
            "Optimal lengths come from the file when it has them, else from the baseline.\n"
            "The report is written to DIR.part and renamed when complete.\n\n"
            "  --model M.h5         the network [required]\n"
            "  --instances FILE     boards `[id [optimal]] t0 .. tn` [required]\n"
            "  -o, --output DIR     report folder [required]\n"
            "  --goal G             goal layout of FILE: blank-first or blank-last (boards are\n"
            "                       converted for a model of the other layout) [blank-first]\n"
            "  The network search is the one recorded in the model (heurnet nn set-search)\n"
            "  when neither --algo nor --heuristic is given, else --algo astar --heuristic\n"
            "  ann:M.h5; the options below given here still win. SELF in --heuristic = M.h5.\n"
            "  --heuristic H        network heuristic spec [ann:M.h5]; e.g.\n"
            "                       ann:M.h5,pdb:7-8,delta:2 or ann:M.h5,scale:10,mirror\n"
            "  --algo A             astar, wastar, batch-astar, bwas, focal, anytime, idastar\n"
            "                       [astar]\n"
            "  --batch B            batch-astar, bwas: nodes per step [16]\n"
            "  --weight W           wastar, batch-astar: f = g + W*h [wastar 1.5, else 1];\n"
            "                       bwas: lambda in f = lambda*g + h, (0, 1] [0.8];\n"
            "                       anytime: W or a falling list W1,W2,.. of weighted\n"
            "                       phases before the deltas' (solve --help) [1: none]\n"
            "  --bound E            focal: suboptimality bound [1.05]\n"
            "  --admissible H       focal, anytime: admissible heuristic [the baseline heuristic]\n"
            "  --deltas LIST        anytime: rising deltas of its A* phases, inf last = prove\n"
            "                       (heurnet solve --help) [" CLI_DEFAULT_DELTAS "]\n"
            "  --shortcut W[:N]     re-solve windows of up to W moves of each solution\n"
            "                       (heurnet solve --help) [0: off]\n"
            "  --ida BANDS          anytime: depth-first passes below the best solution after\n"
            "                       the A* phases, 'plain' or LO-HI:D,.. (solve --help) [off]\n"
            "  --ida-at P           anytime: share of --time-limit before the passes [0.5]\n"
            "  --baseline H         admissible baseline heuristic [pdb:8 / pdb:7-8 / pdb:6-6-6-6]\n"
            "  --baseline-algo A    astar, idastar or none (use the file's optima)\n"
            "                       [astar; none for the 24-puzzle]\n"
            "  --limit N            only the first N boards, 0 = all [0]\n"
            "  --max-expanded N     per-search node limit, 0 = none [0]\n"
            "  --time-limit S       per-search seconds, 0 = none [0]\n"
            "  --time-budget S      mean seconds per board over the run: each board may use\n"
            "                       the time left divided by the boards left, so time that\n"
            "                       boards finished early leave goes to the later ones\n"
            "                       (--time-limit, if given, still caps each board); at\n"
            "                       least 0.001 s, which each board is given anyway [off]\n"
            "  --max-nodes N        per-search stored-node (memory) limit, A* family, 0 = none\n"
            "                       [0]; a board that hits a limit is reported unsolved\n"
            "  --blas-threads T     OpenBLAS threads for the network [1]\n"
            "  --force              replace DIR if it exists\n"
            "  -q, --quiet          no progress\n"
            "  -h, --help           this help\n\n"
            "Prints the headline numbers on stdout. Ctrl-C stops after the current board and\n"
            "writes the report of the boards finished. Exit status: 0 report written, 1 a bad\n"
            "file or model, an invalid solution, interrupted, or the report could not be\n"
            "written, 2 misuse.\n");
}

static int parse_num_opt(int c, const char *arg, eval_args *a)
{
    switch (c) {
    case 'n':
        return cli_parse_u64(arg, &a->lim.max_nodes)
                   ? cli_usage("eval", "--max-nodes must be a count, not '%s'", arg)
                   : 0;
    case 'l':
        return cli_parse_long(arg, 0, 1L << 40, &a->limit)
                   ? cli_usage("eval", "--limit must be a count, not '%s'", arg)
                   : 0;
    case 'e':
        return cli_parse_u64(arg, &a->lim.max_expanded)
                   ? cli_usage("eval", "--max-expanded must be a count, not '%s'", arg)
                   : 0;
    case 't':
        if (cli_parse_double(arg, &a->lim.time_limit) || a->lim.time_limit < 0)
            return cli_usage("eval", "--time-limit must be seconds >= 0, not '%s'", arg);
        return 0;
    case 'B':
        if (cli_parse_double(arg, &a->time_budget) || !(a->time_budget > 0) ||
            !isfinite(a->time_budget))
            return cli_usage("eval", "--time-budget must be seconds > 0, not '%s'", arg);
        if (a->time_budget < EVAL_MIN_SHARE)
            return cli_usage("eval",
                             "--time-budget %s is below %g s, the least time a board is given "
                             "(a search reads its clock between batches of nodes)",
                             arg, EVAL_MIN_SHARE);
        return 0;
    default:
        return cli_parse_long(arg, 1, 256, &a->blas_threads)
                   ? cli_usage("eval", "--blas-threads must be 1..256, not '%s'", arg)
                   : 0;
    }
}

static int parse_args(int argc, char **argv, eval_args *a)
{
    static const struct option opts[] = {{"model", required_argument, 0, 'm'},
                                         {"instances", required_argument, 0, 'i'},
                                         {"output", required_argument, 0, 'o'},
                                         {"goal", required_argument, 0, 'g'},
                                         CLI_SEARCH_LONGOPTS,
                                         {"max-nodes", required_argument, 0, 'n'},
                                         {"baseline", required_argument, 0, 'b'},
                                         {"baseline-algo", required_argument, 0, 'L'},
                                         {"limit", required_argument, 0, 'l'},
                                         {"max-expanded", required_argument, 0, 'e'},
                                         {"time-limit", required_argument, 0, 't'},
                                         {"time-budget", required_argument, 0, 'B'},
                                         {"blas-threads", required_argument, 0, 'T'},
                                         {"force", no_argument, 0, 'f'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    *a = (eval_args){
        .base_algo = HEURNET_ALGO_ASTAR, .blas_threads = 1, .given = CLI_SEARCH_OPTS_INIT};
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        if ((rc = cli_search_opt("eval", c, optarg, &a->given)) >= 0) {
            if (rc)
                return rc;
            continue;
        }
        switch (c) {
        case 'm':
            a->model = optarg;
            break;
        case 'i':
            a->instances = optarg;
            break;
        case 'o':
            a->out = optarg;
            break;
        case 'b':
            a->baseline = optarg;
            break;
        case 'f':
            a->force = 1;
            break;
        case 'q':
            a->quiet = 1;
            break;
        case 'g':
            if (srch_np_goal_parse(optarg, &a->goal))
                return cli_usage("eval", "%s", hn_errmsg());
            break;
        case 'L':
            a->base_algo = -1;
            a->base_algo_set = 1;
            if (strcmp(optarg, "none") &&
                (heurnet_algo_parse(optarg, &a->base_algo) || a->base_algo > HEURNET_ALGO_ASTAR))
                return cli_usage("eval", "--baseline-algo must be astar, idastar or none, not '%s'",
                                 optarg);
            break;
        case 'h':
            usage(stdout);
            return -1;
        case 'n':
        case 'l':
        case 'e':
        case 't':
        case 'B':
        case 'T':
            if ((rc = parse_num_opt(c, optarg, a)))
                return rc;
            break;
        default:
            return cli_usage("eval", "bad option");
        }
    }
    if (optind != argc)
        return cli_usage("eval", "unexpected argument '%s'", argv[optind]);
    if (!a->model || !a->instances || !a->out)
        return cli_usage("eval", "--model, --instances and -o are required");
    return 0;
}

/* 1 if the moves of res lead from b to the goal in res->length moves. */
static int replays(const srch_np_board *b, const srch_np_result *res, int goal)
{
    if (res->status || res->nmoves != res->length)
        return 0;
    srch_np_board x = *b;
    for (int i = 0; i < res->nmoves; i++)
        if (srch_np_board_move(&x, res->moves[i]) < 0)
            return 0;
    return srch_np_board_is_goal(&x, goal);
}

typedef struct {
    const eval_args *a;
    heurnet_search s;
    srch_np_heur *base;
    int goal;
} evaluator;

static void eval_board(const evaluator *e, const srch_np_instance *x, const srch_limits *lim,
                       heurnet_eval_row *r)
{
    *r = (heurnet_eval_row){.x = x,
                            .optimal = x->optimal,
                            .opt_src = x->optimal >= 0 ? 'k' : '-',
                            .time_limit = lim->time_limit};
    float est = 0;
    srch_np_heur_ann_estimate(e->s.h, &x->board, 1, &est);
    r->ann_h = est;
    r->base_h = srch_np_heur_eval(e->base, &x->board);
    if (e->a->base_algo >= 0) {
        r->has_base = 1;
        if (e->a->base_algo == HEURNET_ALGO_ASTAR)
            srch_np_astar(&x->board, e->base, &e->a->lim, &r->base);
        else
            srch_np_idastar(&x->board, e->base, &e->a->lim, &r->base);
        r->base_valid = replays(&x->board, &r->base, e->goal);
        if (!r->base.status && r->optimal < 0) {
            r->optimal = r->base.length;
            r->opt_src = 'b';
        } else if (!r->base.status && r->base.length != r->optimal) {
            fprintf(stderr,
                    "heurnet eval: warning: board %s: the baseline found %d moves but the "
                    "file says %d are optimal\n",
                    x->id, r->base.length, r->optimal);
        }
    }
    heurnet_search_solve(&e->s, &x->board, lim, &r->ann, &r->nn);
    r->ann_valid = replays(&x->board, &r->ann, e->goal);
}

/* Board i's limits: with a time budget, an equal share of the time left
 * (the budget of all n boards less what the network searches before it
 * took), so the mean stays within the budget whatever the boards take;
 * never 0, which would mean no limit. */
static srch_limits board_limits(const eval_args *a, size_t i, size_t n, double used)
{
    srch_limits lim = a->lim;
    if (a->time_budget > 0) {
        double share = (a->time_budget * (double)n - used) / (double)(n - i);
        share = share > EVAL_MIN_SHARE ? share : EVAL_MIN_SHARE;
        lim.time_limit =
            a->lim.time_limit > 0 && a->lim.time_limit < share ? a->lim.time_limit : share;
    }
    return lim;
}

/* Solve the boards; returns how many were done (fewer after Ctrl-C). */
static size_t run_boards(const evaluator *e, const srch_np_instance *inst, size_t n,
                         heurnet_eval_row *rows)
{
    hn_progress *p = hn_progress_new("eval", n, e->a->quiet);
    size_t i = 0, opt = 0, known = 0;
    double used = 0;
    for (; i < n && !hn_stop_requested(); i++) {
        srch_limits lim = board_limits(e->a, i, n, used);
        eval_board(e, &inst[i], &lim, &rows[i]);
        used += rows[i].ann.seconds;
        if (hn_stop_requested())
            break; /* the board's searches were cut short: leave it out */
        if (rows[i].optimal >= 0 && !rows[i].ann.status) {
            known++;
            opt += rows[i].ann.length == rows[i].optimal;
        }
        char extra[64];
        snprintf(extra, sizeof extra, "optimal %zu/%zu", opt, known);
        hn_progress_update(p, i + 1, extra);
    }
    hn_progress_finish(p);
    return i;
}

/* The puzzle width from the model's encoder and the search to run: the
 * model's recorded search (or astar on the model) under the options given.
 * 0 or an exit code (message printed). */
static int resolve_model(eval_args *a, int *width)
{
    char rec[4096], where[1200];
    int rc = cli_model_search_get(a->model, width, rec, sizeof rec);
    if (rc)
        return rc;
    if (!*width) {
        fprintf(stderr, "heurnet eval: %s: encoder is not an n-puzzle encoder\n", a->model);
        return CLI_EXIT_FAIL;
    }
    a->so = (cli_search_opts){.algo = HEURNET_ALGO_ASTAR, .heuristic = "ann:SELF"};
    snprintf(where, sizeof where, "eval: %s: the search recorded in its attribute '%s'", a->model,
             CLI_SEARCH_ATTR);
    cli_search_opts rec_so; /* checked as set-search checks it; a bad record is a bad file */
    if (rec[0] && cli_search_record_check(where, rec, *width, &rec_so))
        return CLI_EXIT_FAIL;
    if (a->given.algo < 0 && !a->given.heuristic[0] && rec[0]) {
        a->so = rec_so;
        if (cli_search_opts_self(where, &a->so, a->model))
            return CLI_EXIT_FAIL;
        if (!a->quiet)
            fprintf(stderr, "heurnet eval: the search recorded in %s: %s\n", a->model, rec);
    }
    cli_search_opts_merge(&a->so, &a->given);
    if (!a->base_algo_set && *width == 5)
        a->base_algo = -1; /* optimal 24-puzzle search takes hours: use the file's optima */
    if ((rc = cli_search_opts_self("eval", &a->so, a->model)))
        return rc;
    return cli_search_opts_finish("eval", &a->so, HEURNET_ALGO_ASTAR);
}

static int setup(const eval_args *a, int width, evaluator *e)
{
    const char *base = a->baseline ? a->baseline : heurnet_default_heuristic(width);
    if (!strncmp(base, "ann:", 4))
        return cli_usage("eval", "--baseline must be an admissible heuristic, not a network");
    if (strncmp(a->so.heuristic, "ann:", 4))
        return cli_usage("eval", "--heuristic must be an ann: spec, not '%s'", a->so.heuristic);
    int rc = cli_search_setup(&e->s, a->so.heuristic, a->so.admissible[0] ? a->so.admissible : base,
                              width, a->goal, a->quiet);
    if (!rc && (rc = cli_heur_get(base, width, a->goal, a->quiet, &e->base)))
        heurnet_search_free(&e->s);
    return rc;
}

static int finish(const eval_args *a, const evaluator *e, const char *part, size_t in_file,
                  size_t total, heurnet_eval_row *rows, size_t done, double wall)
{
    heurnet_eval_info info = {
        .model = a->model,
        .instances = a->instances,
        .heuristic = a->so.heuristic,
        .algo = heurnet_algo_name(a->so.algo),
        .baseline =
            a->baseline ? a->baseline : heurnet_default_heuristic(srch_np_heur_width(e->base)),
        .baseline_algo = a->base_algo < 0 ? "none" : heurnet_algo_name(a->base_algo),
        .goal = srch_np_goal_name(a->goal),
        .puzzle = srch_np_heur_width(e->base) * srch_np_heur_width(e->base) - 1,
        .batch = a->so.batch,
        .weight = a->so.weight,
        .bound = a->so.bound,
        .deltas = a->so.deltas,
        .ndeltas = a->so.ndeltas,
        .weights = a->so.weights,
        .nweights = a->so.nweights,
        .shortcut = a->so.shortcut,
        .ida = a->so.ida,
        .lim = a->lim,
        .time_budget = a->time_budget,
        .in_file = in_file,
        .total = total,
        .interrupted = done < total,
        .wall = wall};
    int plots;
    if (cli_eval_report_write(part, &info, rows, done, a->quiet, &plots))
        return CLI_EXIT_FAIL;
    if (heurnet_eval_dir_commit(a->out, a->force, part, heurnet_eval_report_files)) {
        fprintf(stderr, "heurnet eval: %s\n", hn_errmsg());
        return CLI_EXIT_FAIL;
    }
    heurnet_eval_report_headline(stdout, rows, done);
    size_t bad = 0;
    for (size_t i = 0; i < done; i++)
        bad += !rows[i].ann.status && !rows[i].ann_valid;
    if (bad)
        fprintf(stderr, "heurnet eval: %zu solutions do not replay to the goal\n", bad);
    if (done < total)
        fprintf(stderr, "heurnet eval: interrupted after %zu of %zu boards (report covers them)\n",
                done, total);
    return bad || done < total ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

static void print_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet eval: %s\n", msg);
}

static int eval_npuzzle(int argc, char **argv)
{
    eval_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    cli_log_init(a.quiet);
    int width;
    if ((rc = resolve_model(&a, &width)))
        return rc;
    srch_np_instance *inst;
    size_t n;
    if (srch_np_parse_file(a.instances, width, a.goal, print_parse_error, NULL, &inst, &n))
        return cli_fail(NULL);
    size_t in_file = n;
    if (a.limit && (size_t)a.limit < n)
        n = (size_t)a.limit;
    nn_blas_threads((int)a.blas_threads);
    evaluator e = {.a = &a, .s = cli_search_opts_search(&a.so), .goal = a.goal};
    char part[4200];
    heurnet_eval_row *rows = NULL;
    if (!(rc = setup(&a, width, &e))) {
        rows = calloc(n ? n : 1, sizeof *rows);
        rc = !rows ? (fprintf(stderr, "heurnet eval: out of memory\n"), CLI_EXIT_FAIL)
                   : cli_eval_dir_prepare(a.out, a.force, heurnet_eval_report_files, part,
                                          sizeof part);
        if (!rc) {
            if (!a.quiet)
                fprintf(stderr, "heurnet eval: %zu boards, %s with %s, baseline %s, heurnet %s\n",
                        n, heurnet_algo_name(a.so.algo), a.so.heuristic,
                        a.base_algo < 0 ? "none" : heurnet_algo_name(a.base_algo), hn_version());
            hn_stop_install();
            double t0 = hn_now();
            size_t done = run_boards(&e, inst, n, rows);
            rc = finish(&a, &e, part, in_file, n, rows, done, hn_now() - t0);
            if (rc)
                cli_eval_dir_remove(part, heurnet_eval_report_files);
        }
        heurnet_search_free(&e.s);
        srch_np_heur_free(e.base);
    }
    free(rows);
    free(inst);
    return rc;
}

/* --domain (or a --model's domain) picks the path: a square n-puzzle up to
 * 5x5 runs the specialised command above, any other domain the generic one
 * (cli/dom_eval.c). */
int cmd_eval(int argc, char **argv)
{
    char spec[512];
    int rc = cli_dom_spec("eval", argc, argv, spec, sizeof spec);
    if (rc || !spec[0])
        return rc ? rc : eval_npuzzle(argc, argv);
    char **nv = malloc(sizeof *nv * ((size_t)argc + 6));
    int nc;
    if (!nv) {
        fprintf(stderr, "heurnet eval: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    rc = cli_dom_specialised(spec, argc, argv, nv, &nc) ? eval_npuzzle(nc, nv)
                                                        : cli_dom_eval(argc, argv);
    free(nv);
    return rc;
}
