/* heurnet emp solve: the multi-neighbourhood local search with a time limit;
 * progress on stderr, one key=value record on stdout, the best solution
 * written to -o (also when stopped with Ctrl-C). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "search/emp/srch_em_place.h"
#include "search/emp/srch_em_scorer.h"

static void solve_help(FILE *f)
{
    srch_em_opts d = SRCH_EM_OPTS_DEFAULTS;
    fprintf(
        f,
        "usage: heurnet emp solve [options] INSTANCE -o SOLUTION\n\n"
        "Local search after Salassa et al.: cycles of TA -> BO -> BW -> TSR -> RO until\n"
        "no neighbourhood improves, then a perturbation, until the time limit.\n\n"
        "  --time S              time limit in seconds [%g]\n"
        "  --cpu                 --time counts CPU time of this process, not wall time\n"
        "  --seed S              random seed [%llu]\n"
        "  --start M             random|greedy|backtrack [greedy]\n"
        "  --ta-k K              TA: cells per assignment [%d]\n"
        "  --ta-n N              TA: iterations per cycle [%d]\n"
        "  --region WxH          RO: region size [%dx%d]\n"
        "  --ro-n N              RO: regions per cycle [%d]\n"
        "  --nodes N             node limit of each RO/BO branch and bound [%ld]\n"
        "  --start-nodes N       node limit per row of the greedy/backtrack start [%ld]\n"
        "  --perturb P           moves per perturbation, 0 = 2 + cells/64 [%d]\n"
        "  --walk N              plateau-walk tries per cycle (sideways swaps) [%ld]\n"
        "  --walk-temp T         the walk keeps a move losing d joins with prob. exp(-d/T) [0]\n"
        "  --slack J             back to the best (of this descent) when J joins below it [%d]\n"
        "  --escalate C          every C kicks without a new best double the kick\n"
        "                        (up to cells/4) and widen the slack; 0 = off [%d]\n"
        "  --restart S           a new descent from the start board after S seconds\n"
        "                        without a better board in this one (the best is\n"
        "                        kept); 0 = never [0]\n"
        "  --reheat T            with --restart: a new descent starts from the best\n"
        "                        board walked --reheat-tries tries at temperature T\n"
        "                        instead of from the start board; 0 = off [0]\n"
        "  --reheat-tries N      walk tries of one reheat [%ld]\n"
        "  --backtrack-time S    seconds for --start backtrack, 0 = time/10 [0]\n"
        "  --break-from F        --start backtrack: fraction of the cells placed\n"
        "                        before a join may be left unmatched [%g]\n"
        "  --breaks B            --start backtrack: unmatched joins allowed by the\n"
        "                        last cell until a board is found [%d]\n"
        "  --scan-bound B        --start backtrack: prune when the breaks so far plus a\n"
        "                        lower bound on those to come exceed the budget:\n"
        "                        none | dead (unmeetable demands) | parity [none]\n"
        "  --format meta|e2pieces  instance format [meta]\n"
        "  --clue P,R,C,ROT      fixed piece, repeatable (Eternity II: 138,8,7,2)\n"
        "  --scorer MODEL.h5     learned scorer, plugged in where the model's decision\n"
        "                        attribute says: move (emp-move-v1) picks the perturbation\n"
        "                        moves; place (emp-place-v1) orders the backtracker's\n"
        "                        candidates and break (emp-break-v1) gates its break\n"
        "                        phases; both imply --start backtrack\n"
        "  --scorer-pick P       move scorer: best | softmax:T (sample by score / T) [best]\n"
        "  --walk-choose K       move scorer: pick among K sideways moves of the plateau\n"
        "                        walk instead of the perturbation moves; 0 = off [0]\n"
        "  --stage K             with --restart: a new descent starts from the best of K\n"
        "                        kicked copies of the best board by --stage-weights\n"
        "                        (STAGE); 0 = off [0]\n"
        "  --stage-kick M        moves of one kick, M/2..3M/2; 0 = cells/8 + 1 [0]\n"
        "  --stage-weights W     bias and one weight per board feature (%d numbers,\n"
        "                        comma-separated) [0,...: the first copy]\n"
        "  --stage-log FILE      TSV per STAGE descent: features, best before, reached\n"
        "  --scorer-temp T       place scorer: Gumbel noise on the scores, so restarts\n"
        "                        differ [the model's place_temperature]\n"
        "  --scorer-gate T       break gate: a cell's breaks are tried when the model's\n"
        "                        score is above T; off = always (the ungated search,\n"
        "                        the network still run); random:P = ablation, refuse a\n"
        "                        context with chance P [the model's break_threshold, 0]\n"
        "  -o, --output FILE     solution file (required)\n"
        "  -q, --quiet           no progress\n"
        "  -h, --help            this help\n",
        d.time_limit, (unsigned long long)d.seed, d.ta_k, d.ta_n, d.ro_w, d.ro_h, d.ro_n,
        d.ro_nodes, d.start_nodes, d.perturb, d.walk, d.slack, d.escalate, d.reheat_tries,
        d.break_from, d.breaks, SRCH_EM_STAGE_DIM + 1);
}

typedef struct {
    hn_progress *prog;
    double limit;
} solve_ui;

static void on_progress(int current, int best, long moves, double sec, void *user)
{
    solve_ui *ui = user;
    char extra[160];
    snprintf(extra, sizeof extra, "current=%d best=%d moves/s=%.0f", current, best,
             sec > 0 ? moves / sec : 0.0);
    hn_progress_update(ui->prog, (uint64_t)sec, extra);
}

static int parse_region(const char *s, int *w, int *h)
{
    long a, b;
    char buf[64];
    const char *x = strchr(s, 'x');
    if (!x || (size_t)(x - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(x - s));
    buf[x - s] = 0;
    if (cli_parse_long(buf, 1, 64, &a) < 0 || cli_parse_long(x + 1, 1, 64, &b) < 0)
        return -1;
    *w = (int)a;
    *h = (int)b;
    return 0;
}

static const char *stage_log_path; /* --stage-log */

/* --stage-weights: exactly SRCH_EM_STAGE_DIM + 1 comma-separated numbers. */
static int parse_weights(const char *s, float *w)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return -1;
    strcpy(buf, s);
    int k = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        double v;
        if (k > SRCH_EM_STAGE_DIM || cli_parse_double(tok, &v) < 0 || !isfinite(v))
            return -1;
        w[k++] = (float)v;
    }
    return k == SRCH_EM_STAGE_DIM + 1 ? 0 : -1;
}

/* --stage-log: one TSV line per STAGE descent (features, run best before it,
 * best it reached). */
static void on_descent(const float *f, int before, int reached, void *user)
{
    FILE *fp = user;
    for (int k = 0; k < SRCH_EM_STAGE_DIM; k++)
        fprintf(fp, "%.6g\t", (double)f[k]);
    fprintf(fp, "%d\t%d\n", before, reached);
}

/* --scan-bound NAME into enum srch_em_scan_bound; -1 if unknown. */
static int parse_bound(const char *s, int *out)
{
    static const char *const names[] = {"none", "dead", "parity"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(s, names[k])) {
            *out = k;
            return 0;
        }
    return -1;
}

/* The backtracking start's figures for the record ("" for other starts). */
static const char *scan_record(const srch_em_opts *o, const srch_em_result *res)
{
    static char buf[256];
    const srch_em_scan_result *s = &res->scan;
    if (o->start != SRCH_EM_START_BACKTRACK)
        return "";
    snprintf(buf, sizeof buf,
             " scan_complete=%d scan_breaks=%d scan_boards=%ld scan_nodes=%ld "
             "scan_restarts=%ld scan_pruned=%ld scan_deepest=%d scan_time_best=%.2f "
             "scan_seconds=%.2f",
             s->complete, s->complete ? s->breaks : -1, s->boards, s->nodes, s->restarts, s->pruned,
             s->deepest, s->time_best, s->seconds);
    return buf;
}

static const char *scorer_path, *scorer_pick; /* --scorer, --scorer-pick */
static double scorer_temp = -1;               /* --scorer-temp (< 0: the model's) */
static double scorer_gate = NAN;              /* --scorer-gate (NAN: the model's) */
static double gate_random = -1;               /* --scorer-gate random:P (< 0: off) */
static int start_given;                       /* --start was on the command line */

static int parse_solve(int argc, char **argv, srch_em_opts *o, emp_inst_opts *io, const char **out,
                       int *quiet)
{
    static const struct option lo[] = {{"time", required_argument, 0, 't'},
                                       {"cpu", no_argument, 0, 'C'},
                                       {"seed", required_argument, 0, 's'},
                                       {"start", required_argument, 0, 'S'},
                                       {"ta-k", required_argument, 0, 'k'},
                                       {"ta-n", required_argument, 0, 'n'},
                                       {"region", required_argument, 0, 'r'},
                                       {"ro-n", required_argument, 0, 'R'},
                                       {"nodes", required_argument, 0, 'N'},
                                       {"perturb", required_argument, 0, 'p'},
                                       {"slack", required_argument, 0, 'J'},
                                       {"escalate", required_argument, 0, 'E'},
                                       {"walk-temp", required_argument, 0, 'T'},
                                       {"walk", required_argument, 0, 'w'},
                                       {"start-nodes", required_argument, 0, 'G'},
                                       {"backtrack-time", required_argument, 0, 'B'},
                                       {"restart", required_argument, 0, 'X'},
                                       {"reheat", required_argument, 0, 'H'},
                                       {"reheat-tries", required_argument, 0, 'Y'},
                                       {"break-from", required_argument, 0, 'F'},
                                       {"breaks", required_argument, 0, 'K'},
                                       {"scan-bound", required_argument, 0, 'b'},
                                       {"walk-choose", required_argument, 0, 'W'},
                                       {"stage", required_argument, 0, 'g'},
                                       {"stage-kick", required_argument, 0, 'j'},
                                       {"stage-weights", required_argument, 0, 'V'},
                                       {"stage-log", required_argument, 0, 'l'},
                                       {"format", required_argument, 0, 'f'},
                                       {"clue", required_argument, 0, 'c'},
                                       {"output", required_argument, 0, 'o'},
                                       {"quiet", no_argument, 0, 'q'},
                                       {"scorer", required_argument, 0, 'L'},
                                       {"scorer-pick", required_argument, 0, 'P'},
                                       {"scorer-temp", required_argument, 0, 'Z'},
                                       {"scorer-gate", required_argument, 0, 'Q'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    const char *cmd = "emp solve";
    long v;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "ho:q", lo, NULL)) != -1) {
        switch (ch) {
        case 'h':
            solve_help(stdout);
            return -1;
        case 't':
            if (cli_parse_double(optarg, &o->time_limit) < 0 || o->time_limit < 0)
                return cli_usage(cmd, "--time must be seconds >= 0, not '%s'", optarg);
            break;
        case 's':
            if (cli_parse_u64(optarg, &o->seed) < 0)
                return cli_usage(cmd, "--seed must be a non-negative integer");
            break;
        case 'S':
            start_given = 1;
            if (!strcmp(optarg, "random"))
                o->start = SRCH_EM_START_RANDOM;
            else if (!strcmp(optarg, "greedy"))
                o->start = SRCH_EM_START_GREEDY;
            else if (!strcmp(optarg, "backtrack"))
                o->start = SRCH_EM_START_BACKTRACK;
            else
                return cli_usage(cmd, "--start must be random, greedy or backtrack");
            break;
        case 'k':
            if (cli_parse_long(optarg, 2, 4096, &v) < 0)
                return cli_usage(cmd, "--ta-k must be 2..4096, not '%s'", optarg);
            o->ta_k = (int)v;
            break;
        case 'n':
            if (cli_parse_long(optarg, 0, 100000000, &v) < 0)
                return cli_usage(cmd, "--ta-n must be 0..1e8, not '%s'", optarg);
            o->ta_n = (int)v;
            break;
        case 'r':
            if (parse_region(optarg, &o->ro_w, &o->ro_h) < 0)
                return cli_usage(cmd, "--region must be WxH (1..64), not '%s'", optarg);
            break;
        case 'R':
            if (cli_parse_long(optarg, 0, 1000000, &v) < 0)
                return cli_usage(cmd, "--ro-n must be 0..1e6, not '%s'", optarg);
            o->ro_n = (int)v;
            break;
        case 'N':
            if (cli_parse_long(optarg, 1, 1L << 40, &o->ro_nodes) < 0)
                return cli_usage(cmd, "--nodes must be >= 1, not '%s'", optarg);
            break;
        case 'p':
            if (cli_parse_long(optarg, 0, 100000, &v) < 0)
                return cli_usage(cmd, "--perturb must be 0..1e5, not '%s'", optarg);
            o->perturb = (int)v;
            break;
        case 'C':
            o->cpu_clock = 1;
            break;
        case 'G':
            if (cli_parse_long(optarg, 1, 1L << 40, &o->start_nodes) < 0)
                return cli_usage(cmd, "--start-nodes must be >= 1, not '%s'", optarg);
            break;
        case 'w':
            if (cli_parse_long(optarg, 0, 1L << 40, &o->walk) < 0)
                return cli_usage(cmd, "--walk must be >= 0, not '%s'", optarg);
            break;
        case 'T':
            if (cli_parse_double(optarg, &o->walk_temp) < 0 ||
                !(o->walk_temp >= 0 && o->walk_temp <= 1e3))
                return cli_usage(cmd, "--walk-temp must be 0..1000, not '%s'", optarg);
            break;
        case 'J':
            if (cli_parse_long(optarg, 0, 100000, &v) < 0)
                return cli_usage(cmd, "--slack must be 0..1e5, not '%s'", optarg);
            o->slack = (int)v;
            break;
        case 'E':
            if (cli_parse_long(optarg, 0, 1000000, &v) < 0)
                return cli_usage(cmd, "--escalate must be 0..1e6, not '%s'", optarg);
            o->escalate = (int)v;
            break;
        case 'X':
            if (cli_parse_double(optarg, &o->restart) < 0 || !(o->restart >= 0))
                return cli_usage(cmd, "--restart must be seconds >= 0, not '%s'", optarg);
            break;
        case 'H':
            if (cli_parse_double(optarg, &o->reheat_temp) < 0 ||
                !(o->reheat_temp >= 0 && o->reheat_temp <= 1e3))
                return cli_usage(cmd, "--reheat must be a temperature 0..1000, not '%s'", optarg);
            break;
        case 'Y':
            if (cli_parse_long(optarg, 0, 1000000000000L, &v) < 0)
                return cli_usage(cmd, "--reheat-tries must be 0..1e12, not '%s'", optarg);
            o->reheat_tries = v;
            break;
        case 'B':
            if (cli_parse_double(optarg, &o->backtrack_time) < 0 || o->backtrack_time < 0)
                return cli_usage(cmd, "--backtrack-time must be seconds >= 0");
            break;
        case 'F':
            if (cli_parse_double(optarg, &o->break_from) < 0 ||
                !(o->break_from >= 0 && o->break_from <= 1))
                return cli_usage(cmd, "--break-from must be a fraction 0..1, not '%s'", optarg);
            break;
        case 'K':
            if (cli_parse_long(optarg, 0, 100000, &v) < 0)
                return cli_usage(cmd, "--breaks must be 0..1e5, not '%s'", optarg);
            o->breaks = (int)v;
            break;
        case 'g':
            if (cli_parse_long(optarg, 0, 1000, &v) < 0)
                return cli_usage(cmd, "--stage must be 0..1000, not '%s'", optarg);
            o->stage_k = (int)v;
            break;
        case 'j':
            if (cli_parse_long(optarg, 0, 100000, &v) < 0)
                return cli_usage(cmd, "--stage-kick must be 0..1e5, not '%s'", optarg);
            o->stage_kick = (int)v;
            break;
        case 'V':
            if (parse_weights(optarg, o->stage_w) < 0)
                return cli_usage(cmd, "--stage-weights wants %d numbers w0,w1,..., got '%s'",
                                 SRCH_EM_STAGE_DIM + 1, optarg);
            break;
        case 'l':
            stage_log_path = optarg;
            break;
        case 'W':
            if (cli_parse_long(optarg, 0, 4096, &v) < 0)
                return cli_usage(cmd, "--walk-choose must be 0..4096, not '%s'", optarg);
            o->walk_choose = (int)v;
            break;
        case 'b':
            if (parse_bound(optarg, &o->scan_bound) < 0)
                return cli_usage(cmd, "--scan-bound must be none, dead or parity, not '%s'",
                                 optarg);
            break;
        case 'f':
            if (emp_parse_format(optarg, &io->format) < 0)
                return cli_usage(cmd, "--format must be meta or e2pieces, not '%s'", optarg);
            break;
        case 'c':
            if (emp_add_clue_arg(io, optarg) < 0)
                return cli_usage(cmd, "--clue wants P,R,C,ROT, got '%s'", optarg);
            break;
        case 'o':
            *out = optarg;
            break;
        case 'q':
            *quiet = 1;
            break;
        case 'L':
            scorer_path = optarg;
            break;
        case 'P':
            scorer_pick = optarg;
            break;
        case 'Z':
            if (cli_parse_double(optarg, &scorer_temp) < 0 || !(scorer_temp >= 0))
                return cli_usage(cmd, "--scorer-temp must be >= 0, not '%s'", optarg);
            break;
        case 'Q':
            if (!strcmp(optarg, "off"))
                scorer_gate = -INFINITY;
            else if (!strncmp(optarg, "random:", 7)) {
                if (cli_parse_double(optarg + 7, &gate_random) < 0 ||
                    !(gate_random >= 0 && gate_random <= 1))
                    return cli_usage(cmd, "--scorer-gate random:P wants P in 0..1, not '%s'",
                                     optarg);
            } else if (cli_parse_double(optarg, &scorer_gate) < 0 || !isfinite(scorer_gate))
                return cli_usage(cmd, "--scorer-gate must be a number or off, not '%s'", optarg);
            break;
        default:
            return cli_usage(cmd, "unknown option");
        }
    }
    if (argc - optind != 1)
        return cli_usage(cmd, "expected one INSTANCE");
    if (!*out)
        return cli_usage(cmd, "-o SOLUTION is required");
    if (o->reheat_temp > 0 && !(o->restart > 0))
        return cli_usage(cmd, "--reheat needs --restart S (a reheat starts a new descent)");
    if ((o->stage_k > 0 || stage_log_path) && !(o->restart > 0))
        return cli_usage(cmd, "--stage and --stage-log need --restart S (STAGE picks where "
                              "a new descent starts)");
    if (stage_log_path && !o->stage_k)
        return cli_usage(cmd, "--stage-log needs --stage K");
    if (o->walk_choose > 0 && (!scorer_path || !o->walk))
        return cli_usage(cmd, "--walk-choose needs a move model (--scorer) and --walk N");
    return 0;
}

/* --scorer: a place model orders the backtracker's candidates and a break
 * model gates its break phases (both need the backtracking start, which
 * they select), any other is a move scorer. */
static int attach_scorer(const srch_em_inst *in, srch_em_opts *o, srch_em_scorer **move,
                         srch_em_place_scorer **place, srch_em_break_gate **gate)
{
    int st;
    const char *decision = srch_em_model_decision(scorer_path, &st);
    if (!decision)
        return cli_fail("--scorer");
    int brk = !strcmp(decision, SRCH_EM_DECISION_BREAK);
    if (strcmp(decision, SRCH_EM_DECISION_PLACE) && !brk)
        return emp_scorer_attach(scorer_path, scorer_pick, in, o, move);
    if (o->walk_choose > 0)
        return cli_usage("emp solve", "--walk-choose needs a move model; %s is a %s model",
                         scorer_path, decision);
    if (start_given && o->start != SRCH_EM_START_BACKTRACK)
        return cli_usage("emp solve",
                         "%s acts in the backtracker: it needs "
                         "--start backtrack",
                         scorer_path);
    o->start = SRCH_EM_START_BACKTRACK;
    if (brk)
        return emp_break_attach(scorer_path, scorer_gate, gate_random, in, o, gate);
    return emp_place_attach(scorer_path, scorer_temp, in, o, place);
}

static const char *const START_NAMES[] = {"random", "greedy", "backtrack"};

/* The run's settings, on stderr before it starts. */
static void print_banner(const srch_em_inst *in, const srch_em_opts *o)
{
    fprintf(stderr,
            "heurnet emp solve %s (%s): %dx%d, %d joins, clues=%d, time=%gs%s "
            "seed=%llu start=%s ta=%dx%d region=%dx%d ro_n=%d nodes=%ld\n",
            hn_version(), hn_revision(), srch_em_inst_width(in), srch_em_inst_height(in),
            srch_em_inst_joins(in), srch_em_inst_nclues(in), o->time_limit,
            o->cpu_clock ? " (cpu)" : "", (unsigned long long)o->seed, START_NAMES[o->start],
            o->ta_n, o->ta_k, o->ro_w, o->ro_h, o->ro_n, o->ro_nodes);
}

/* The result record, one key=value line on stdout. */
static void print_result(const char *path, const srch_em_inst *in, const srch_em_opts *o,
                         const srch_em_result *res, const char *out)
{
    printf("instance=%s size=%dx%d score=%d joins=%d start_score=%d time_best=%.2f "
           "seconds=%.2f wall_seconds=%.2f cpu_seconds=%.2f cycles=%ld moves=%ld restarts=%ld "
           "reheat=%g seed=%llu start=%s%s solution=%s%s\n",
           path, srch_em_inst_width(in), srch_em_inst_height(in), res->best, srch_em_inst_joins(in),
           res->start_score, res->time_best, res->seconds, res->wall_seconds, res->cpu_seconds,
           res->cycles, res->moves, res->restarts, o->reheat_temp, (unsigned long long)o->seed,
           START_NAMES[o->start], scan_record(o, res), out, res->stopped ? " stopped=1" : "");
}

int cmd_emp_solve(int argc, char **argv)
{
    srch_em_opts o = SRCH_EM_OPTS_DEFAULTS;
    emp_inst_opts io = {0};
    const char *out = NULL;
    int quiet = 0;
    int prc = parse_solve(argc, argv, &o, &io, &out, &quiet);
    if (prc < 0)
        return CLI_EXIT_OK;
    if (prc > 0)
        return prc;
    const char *path = argv[optind];
    srch_em_inst *in = emp_load(path, &io);
    if (!in)
        return CLI_EXIT_FAIL;
    srch_em_scorer *scorer = NULL;
    srch_em_place_scorer *place = NULL;
    srch_em_break_gate *gate = NULL;
    int arc = scorer_path ? attach_scorer(in, &o, &scorer, &place, &gate) : 0;
    if (arc != CLI_EXIT_OK) {
        srch_em_inst_free(in);
        return arc;
    }
    cli_log_init(quiet);
    hn_stop_install();
    if (!quiet)
        print_banner(in, &o);
    int n = srch_em_inst_width(in) * srch_em_inst_height(in), rc = CLI_EXIT_OK;
    int *piece = malloc(sizeof(int) * (size_t)n), *rot = malloc(sizeof(int) * (size_t)n);
    solve_ui ui = {.prog = hn_progress_new("emp solve", (uint64_t)o.time_limit, quiet),
                   .limit = o.time_limit};
    srch_em_result res;
    if (!piece || !rot) {
        hn_progress_finish(ui.prog);
        rc = cli_fail("out of memory");
        goto out;
    }
    FILE *log = stage_log_path ? fopen(stage_log_path, "w") : NULL;
    if (stage_log_path && !log) {
        hn_progress_finish(ui.prog);
        fprintf(stderr, "heurnet: cannot open the --stage-log file %s for writing\n",
                stage_log_path);
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    o.on_descent = log ? on_descent : NULL, o.descent_user = log;
    int st = srch_em_solve(in, &o, piece, rot, &res, on_progress, &ui);
    hn_progress_finish(ui.prog);
    if (log && fclose(log) != 0) {
        fprintf(stderr, "heurnet: error writing the --stage-log file %s\n", stage_log_path);
        rc = CLI_EXIT_FAIL;
        goto out;
    }
    if (st != HN_OK && st != HN_ERR_INTERRUPTED) {
        rc = cli_fail(path);
        goto out;
    }
    int v, check = srch_em_sol_check(in, piece, rot, &v, NULL, 0);
    if (v || check != res.best) {
        rc = cli_fail("internal error: the best board does not recount to its score");
        goto out;
    }
    if (srch_em_sol_write(in, out, piece, rot) != HN_OK) {
        rc = cli_fail(NULL); /* the message names the file */
        goto out;
    }
    print_result(path, in, &o, &res, out);
    if (scorer)
        emp_scorer_report(scorer);
    if (place)
        emp_place_report(place, res.cpu_seconds);
    if (gate)
        emp_break_report(gate, res.cpu_seconds);
out:
    srch_em_scorer_free(scorer);
    srch_em_place_scorer_free(place);
    srch_em_break_gate_free(gate);
    free(piece);
    free(rot);
    srch_em_inst_free(in);
    return rc;
}
