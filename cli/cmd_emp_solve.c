/* heurnet emp solve: the multi-neighbourhood local search with a time limit;
 * progress on stderr, one key=value record on stdout, the best solution
 * written to -o (also when stopped with Ctrl-C). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "search/emp/srch_em_place.h"
#include "search/emp/srch_em_scorer.h"

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

/* The settings of one emp solve run. */
struct solve_cli {
    srch_em_opts o;
    emp_inst_opts io;
    const char *out, *stage_log, *scorer, *pick; /* -o, --stage-log, --scorer, --scorer-pick */
    double scorer_temp;                          /* --scorer-temp (< 0: the model's) */
    double scorer_gate;                          /* --scorer-gate (NAN: the model's, -inf: off) */
    double gate_random;                          /* --scorer-gate random:P (< 0: off) */
    int quiet, start_given;
};

/* --start: remembered as given, since a place or break model picks the
 * backtracking start only when no other one was asked for. */
static int start_parse(void *field, const char *v)
{
    struct solve_cli *c = field;
    static const char *const names[] = {"random", "greedy", "backtrack"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(v, names[k])) {
            c->o.start = k; /* enum srch_em_start's order */
            c->start_given = 1;
            return 0;
        }
    return hn_fail(HN_ERR_ARG, "'%s' is not random, greedy or backtrack", v);
}

/* --region WxH */
static int region_parse(void *field, const char *v)
{
    srch_em_opts *o = field;
    long a, b;
    char buf[64];
    const char *x = strchr(v, 'x');
    if (!x || (size_t)(x - v) >= sizeof buf)
        return hn_fail(HN_ERR_ARG, "'%s' is not WxH (1..64)", v);
    memcpy(buf, v, (size_t)(x - v));
    buf[x - v] = 0;
    if (cli_parse_long(buf, 1, 64, &a) < 0 || cli_parse_long(x + 1, 1, 64, &b) < 0)
        return hn_fail(HN_ERR_ARG, "'%s' is not WxH (1..64)", v);
    o->ro_w = (int)a;
    o->ro_h = (int)b;
    return 0;
}

/* --stage-weights: exactly SRCH_EM_STAGE_DIM + 1 comma-separated numbers. */
static int weights_parse(void *field, const char *v)
{
    float *w = field;
    char buf[512];
    int k = 0;
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok && k >= 0;
         tok = strtok_r(NULL, ",", &save)) {
        double x;
        if (k > SRCH_EM_STAGE_DIM || cli_parse_double(tok, &x) < 0)
            k = -1;
        else
            w[k++] = (float)x;
    }
    if (k != SRCH_EM_STAGE_DIM + 1 || strlen(v) >= sizeof buf)
        return hn_fail(HN_ERR_ARG, "wants %d numbers w0,w1,..., got '%s'", SRCH_EM_STAGE_DIM + 1,
                       v);
    return 0;
}

/* --scorer-gate T | off | random:P */
static int gate_parse(void *field, const char *v)
{
    struct solve_cli *c = field;
    if (!strcmp(v, "off")) {
        c->scorer_gate = -INFINITY;
    } else if (!strncmp(v, "random:", 7)) {
        if (cli_parse_double(v + 7, &c->gate_random) < 0 ||
            !(c->gate_random >= 0 && c->gate_random <= 1))
            return hn_fail(HN_ERR_ARG, "random:P wants P in 0..1, not '%s'", v);
    } else if (cli_parse_double(v, &c->scorer_gate) < 0) {
        return hn_fail(HN_ERR_ARG, "'%s' is not a number, off or random:P", v);
    }
    return 0;
}

_Static_assert(SRCH_EM_STAGE_DIM == 8, "--stage-weights' help counts 9 numbers");
#define SO(f) offsetof(struct solve_cli, f)
#define BIG 1e12
static const struct cli_opt solve_opts[] = {
    CLI_REAL("time", SO(o.time_limit), 0, BIG, 0, "S", "time limit in seconds"),
    CLI_FLAG("cpu", SO(o.cpu_clock), 1, "--time counts CPU time of this process, not wall time"),
    CLI_U64("seed", SO(o.seed), 0, "S", "random seed"),
    CLI_FN("start", 0, start_parse, "M", "random|greedy|backtrack [greedy]"),
    CLI_INT("ta-k", SO(o.ta_k), 2, 4096, "K", "TA: cells per assignment"),
    CLI_INT("ta-n", SO(o.ta_n), 0, 100000000, "N", "TA: iterations per cycle"),
    CLI_FN("region", SO(o), region_parse, "WxH", "RO: region size [6x6]"),
    CLI_INT("ro-n", SO(o.ro_n), 0, 1000000, "N", "RO: regions per cycle"),
    CLI_LONG("nodes", SO(o.ro_nodes), 1, 1L << 40, "N",
             "node limit of each RO/BO branch and bound"),
    CLI_LONG("start-nodes", SO(o.start_nodes), 1, 1L << 40, "N",
             "node limit per row of the greedy/backtrack start"),
    CLI_INT("perturb", SO(o.perturb), 0, 100000, "P", "moves per perturbation, 0 = 2 + cells/64"),
    CLI_LONG("walk", SO(o.walk), 0, 1L << 40, "N", "plateau-walk tries per cycle (sideways swaps)"),
    CLI_REAL("walk-temp", SO(o.walk_temp), 0, 1000, 0, "T",
             "the walk keeps a move losing d joins with prob. exp(-d/T)"),
    CLI_INT("slack", SO(o.slack), 0, 100000, "J",
            "back to the best (of this descent) when J joins below it"),
    CLI_INT("escalate", SO(o.escalate), 0, 1000000, "C",
            "every C kicks without a new best double the kick (up to cells/4) and widen the "
            "slack; 0 = off"),
    CLI_REAL("restart", SO(o.restart), 0, BIG, 0, "S",
             "a new descent from the start board after S seconds without a better board in "
             "this one (the best is kept); 0 = never"),
    CLI_REAL("reheat", SO(o.reheat_temp), 0, 1000, 0, "T",
             "with --restart: a new descent starts from the best board walked --reheat-tries "
             "tries at temperature T instead of from the start board; 0 = off"),
    CLI_LONG("reheat-tries", SO(o.reheat_tries), 0, 1e12, "N", "walk tries of one reheat"),
    CLI_REAL("backtrack-time", SO(o.backtrack_time), 0, BIG, 0, "S",
             "seconds for --start backtrack, 0 = time/10"),
    CLI_REAL("break-from", SO(o.break_from), 0, 1, 0, "F",
             "--start backtrack: fraction of the cells placed before a join may be left "
             "unmatched"),
    CLI_INT("breaks", SO(o.breaks), 0, 100000, "B",
            "--start backtrack: unmatched joins allowed by the last cell until a board is "
            "found"),
    CLI_ENUM("scan-bound", SO(o.scan_bound), "none|dead|parity",
             "--start backtrack: prune when the breaks so far plus a lower bound on those to "
             "come exceed the budget: none, dead (unmeetable demands) or parity"),
    CLI_TABLE(emp_inst_table, SO(io)),
    CLI_STR("scorer", SO(scorer), "MODEL.h5",
            "learned scorer, plugged in where the model's decision attribute says: move "
            "(emp-move-v1) picks the perturbation moves; place (emp-place-v1) orders the "
            "backtracker's candidates and break (emp-break-v1) gates its break phases; both "
            "imply --start backtrack"),
    CLI_STR("scorer-pick", SO(pick), "P",
            "move scorer: best | softmax:T (sample by score / T) [best]"),
    CLI_INT("walk-choose", SO(o.walk_choose), 0, 4096, "K",
            "move scorer: pick among K sideways moves of the plateau walk instead of the "
            "perturbation moves; 0 = off"),
    CLI_INT("stage", SO(o.stage_k), 0, 1000, "K",
            "with --restart: a new descent starts from the best of K kicked copies of the best "
            "board by --stage-weights (STAGE); 0 = off"),
    CLI_INT("stage-kick", SO(o.stage_kick), 0, 100000, "M",
            "moves of one kick, M/2..3M/2; 0 = cells/8 + 1"),
    CLI_FN("stage-weights", SO(o.stage_w), weights_parse, "W",
           "bias and one weight per board feature (9 numbers, comma-separated) [0,...: the "
           "first copy]"),
    CLI_STR("stage-log", SO(stage_log), "FILE",
            "TSV per STAGE descent: features, best before, reached"),
    CLI_REAL("scorer-temp", SO(scorer_temp), 0, BIG, 0, "T",
             "place scorer: Gumbel noise on the scores, so restarts differ [the model's "
             "place_temperature]"),
    CLI_FN("scorer-gate", 0, gate_parse, "T",
           "break gate: a cell's breaks are tried when the model's score is above T; off = "
           "always (the ungated search, the network still run); random:P = ablation, refuse a "
           "context with chance P [the model's break_threshold, 0]"),
    CLI_STRL('o', "output", SO(out), "FILE", "solution file [required]"),
    CLI_FLAGL('q', "quiet", SO(quiet), 1, "no progress"),
    CLI_END};

static const struct cli_opt_cmd solve_cmd = {
    .cmd = "emp solve",
    .usage = "emp solve [options] INSTANCE -o SOLUTION\n\n"
             "Local search after Salassa et al.: cycles of TA -> BO -> BW -> TSR -> RO until\n"
             "no neighbourhood improves, then a perturbation, until the time limit.\n\n",
    .opts = solve_opts,
    .max_args = 1};

static int parse_solve(int argc, char **argv, struct solve_cli *c)
{
    const char *cmd = "emp solve";
    int nargs, rc = cli_opt_parse(&solve_cmd, c, argc, argv, &nargs);
    const srch_em_opts *o = &c->o;
    if (rc)
        return rc;
    if (nargs != 1)
        return cli_usage(cmd, "expected one INSTANCE");
    if (!c->out)
        return cli_usage(cmd, "-o SOLUTION is required");
    if (o->reheat_temp > 0 && !(o->restart > 0))
        return cli_usage(cmd, "--reheat needs --restart S (a reheat starts a new descent)");
    if ((o->stage_k > 0 || c->stage_log) && !(o->restart > 0))
        return cli_usage(cmd, "--stage and --stage-log need --restart S (STAGE picks where "
                              "a new descent starts)");
    if (c->stage_log && !o->stage_k)
        return cli_usage(cmd, "--stage-log needs --stage K");
    if (o->walk_choose > 0 && (!c->scorer || !o->walk))
        return cli_usage(cmd, "--walk-choose needs a move model (--scorer) and --walk N");
    return 0;
}

/* --scorer: a place model orders the backtracker's candidates and a break
 * model gates its break phases (both need the backtracking start, which
 * they select), any other is a move scorer. */
static int attach_scorer(struct solve_cli *c, const srch_em_inst *in, srch_em_scorer **move,
                         srch_em_place_scorer **place, srch_em_break_gate **gate)
{
    srch_em_opts *o = &c->o;
    int st;
    const char *decision = srch_em_model_decision(c->scorer, &st);
    if (!decision)
        return cli_fail("--scorer");
    int brk = !strcmp(decision, SRCH_EM_DECISION_BREAK);
    if (strcmp(decision, SRCH_EM_DECISION_PLACE) && !brk)
        return emp_scorer_attach(c->scorer, c->pick, in, o, move);
    if (o->walk_choose > 0)
        return cli_usage("emp solve", "--walk-choose needs a move model; %s is a %s model",
                         c->scorer, decision);
    if (c->start_given && o->start != SRCH_EM_START_BACKTRACK)
        return cli_usage("emp solve",
                         "%s acts in the backtracker: it needs "
                         "--start backtrack",
                         c->scorer);
    o->start = SRCH_EM_START_BACKTRACK;
    if (brk)
        return emp_break_attach(c->scorer, c->scorer_gate, c->gate_random, in, o, gate);
    return emp_place_attach(c->scorer, c->scorer_temp, in, o, place);
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
    struct solve_cli c = {
        .o = SRCH_EM_OPTS_DEFAULTS, .scorer_temp = -1, .scorer_gate = NAN, .gate_random = -1};
    srch_em_opts *o = &c.o;
    int prc = parse_solve(argc, argv, &c);
    if (prc < 0)
        return CLI_EXIT_OK;
    if (prc > 0)
        return prc;
    const char *path = argv[1], *out = c.out;
    int quiet = c.quiet;
    srch_em_inst *in = emp_load(path, &c.io);
    if (!in)
        return CLI_EXIT_FAIL;
    srch_em_scorer *scorer = NULL;
    srch_em_place_scorer *place = NULL;
    srch_em_break_gate *gate = NULL;
    int arc = c.scorer ? attach_scorer(&c, in, &scorer, &place, &gate) : 0;
    if (arc != CLI_EXIT_OK) {
        srch_em_inst_free(in);
        return arc;
    }
    cli_log_init(quiet);
    hn_stop_install();
    if (!quiet)
        print_banner(in, o);
    solve_ui ui = {.prog = hn_progress_new("emp solve", (uint64_t)o->time_limit, quiet),
                   .limit = o->time_limit};
    srch_em_result res;
    int rc = CLI_EXIT_OK, st = srch_em_solve_file(in, o, out, c.stage_log, &res, on_progress, &ui);
    hn_progress_finish(ui.prog);
    if (st)
        rc = cli_fail(path);
    else
        print_result(path, in, o, &res, out);
    if (!st && scorer)
        emp_scorer_report(scorer);
    if (!st && place)
        emp_place_report(place, res.cpu_seconds);
    if (!st && gate)
        emp_break_report(gate, res.cpu_seconds);
    srch_em_scorer_free(scorer);
    srch_em_place_scorer_free(place);
    srch_em_break_gate_free(gate);
    srch_em_inst_free(in);
    return rc;
}
