/* The search options of solve and eval on any domain, which domain a
 * command runs on (--puzzle N [--goal G] the short form of a square
 * n-puzzle's --domain). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "nn/nn.h"

/* ---- which domain ---- */

static const char *arg_of(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--"))
            return NULL;
        if (!strcmp(argv[i], name) && i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(argv[i], name, n) && argv[i][n] == '=')
            return argv[i] + n + 1;
    }
    return NULL;
}

int cli_dom_spec(const char *cmd, int argc, char **argv, char *spec, size_t cap)
{
    const char *d = arg_of(argc, argv, "--domain"), *m = arg_of(argc, argv, "--model");
    spec[0] = '\0';
    if (d) {
        if (strlen(d) >= cap)
            return cli_usage(cmd, "--domain is too long");
        snprintf(spec, cap, "%s", d);
        return 0;
    }
    if (m && heurnet_dom_model_domain(m, spec, cap))
        return cli_usage(cmd, "%s", hn_errmsg());
    return 0;
}

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"), *i
 * moved past it; NULL when argv[*i] is not that option. */
static const char *opt_at(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) || (argv[*i][n] && argv[*i][n] != '='))
        return NULL;
    if (argv[*i][n])
        return argv[*i] + n + 1;
    return *i + 1 < argc ? argv[++*i] : "";
}

/* The square n-puzzle of --puzzle N (else the model's domain) with the
 * goal of --goal G into spec. */
static int puzzle_spec(const char *cmd, const char *puzzle, const char *goal, const char *model,
                       char *spec, size_t cap)
{
    int w = 0, h = 0, n = 0;
    char *end;
    long tiles = puzzle ? strtol(puzzle, &end, 10) : 0;
    if (puzzle) {
        while (w < 20 && (w + 1) * (w + 1) - 1 <= tiles)
            w++;
        if (!puzzle[0] || *end || w < 3 || w * w - 1 != tiles)
            return cli_usage(cmd,
                             "--puzzle must be 8, 15, 24, 35, .. (W*W - 1 for W 3..20), not "
                             "'%s'",
                             puzzle);
    } else if (!model || heurnet_dom_model_domain(model, spec, cap) ||
               sscanf(spec, "npuzzle:%dx%d%n", &w, &h, &n) != 2 || w != h) {
        return cli_usage(cmd, "--goal needs --puzzle N (or a --model of a square n-puzzle)");
    }
    if (goal && strcmp(goal, "blank-first") && strcmp(goal, "blank-last"))
        return cli_usage(cmd, "--goal must be blank-first or blank-last, not '%s'", goal);
    char mine[512];
    int mw = 0, mh = 0;
    if (puzzle && model && !heurnet_dom_model_domain(model, mine, sizeof mine) && mine[0] &&
        (sscanf(mine, "npuzzle:%dx%d", &mw, &mh) != 2 || mw != w || mh != w))
        return cli_usage(cmd,
                         "--model %s is for domain %s and does not fit --puzzle %s (drop it, or "
                         "give a model of that puzzle)",
                         model, mine, puzzle);
    snprintf(spec, cap, "npuzzle:%dx%d%s", w, w,
             goal && !strcmp(goal, "blank-last") ? ":blank-last" : "");
    return 0;
}

int cli_dom_puzzle_args(const char *cmd, int argc, char **argv, char **out, int *argc_out,
                        char *spec, size_t cap)
{
    const char *puzzle = NULL, *goal = NULL, *v;
    int k = 0, end = 0;
    for (int i = 0; i < argc; i++) {
        end |= !strcmp(argv[i], "--");
        if (!end && i && (v = opt_at(argc, argv, &i, "--puzzle")))
            puzzle = v;
        else if (!end && i && (v = opt_at(argc, argv, &i, "--goal")))
            goal = v;
        else
            out[k++] = argv[i];
    }
    out[k] = NULL;
    *argc_out = k;
    if (!puzzle && !goal)
        return 0;
    if (arg_of(argc, argv, "--domain"))
        return cli_usage(cmd,
                         "--%s and --domain both name the domain: give one (--puzzle N "
                         "[--goal G] is short for --domain npuzzle:WxW[:blank-last])",
                         puzzle ? "puzzle" : "goal");
    int rc = puzzle_spec(cmd, puzzle, goal, arg_of(argc, argv, "--model"), spec, cap);
    if (rc)
        return rc;
    memmove(out + 3, out + 1, sizeof *out * (size_t)k); /* --domain SPEC after the command */
    out[1] = "--domain";
    out[2] = spec;
    *argc_out = k + 2;
    return 0;
}

/* ---- options ---- */

int cli_dom_search_opt(const char *cmd, int opt, const char *arg, heurnet_dom_opts *o, int *rc)
{
    *rc = 0;
    if (opt < 1000 || !heurnet_dom_opt_name(opt - 1000))
        return 0;
    if (heurnet_dom_opts_set(o, opt - 1000, arg))
        *rc = cli_usage(cmd, "%s", hn_errmsg());
    return 1;
}

int cli_dom_fail(const char *cmd, int status)
{
    if (status == HN_ERR_ARG)
        return cli_usage(cmd, "%s", hn_errmsg());
    fprintf(stderr, "heurnet %s: %s\n", cmd, hn_errmsg());
    return CLI_EXIT_FAIL;
}

void cli_dom_search_help(FILE *out)
{
    fprintf(out,
            "  --domain D          any domain: npuzzle:WxH[:blank-last], cube3, PATH.so[:ARGS]\n"
            "                      (heurnet domain list) [the model's]\n"
            "  --model M.h5        search with this network (its domain is the default; the\n"
            "                      search it records, heurnet nn set-search, runs when\n"
            "                      neither --algo nor --heuristic is given)\n"
            "  --heuristic H       the domain's own (heurnet domain info), pdb:PATTERN,\n"
            "                      max:A,B, zero, or ann:M.h5 (ann:SELF = --model) [ann:MODEL\n"
            "                      with --model, else the domain's first]\n"
            "                      ann:M.h5[,H][,delta:D][,scale:S][,sym:K|mirror][,q8|float]\n"
            "                      [,acc16|acc32][,cache:BITS]: max(net - D, admissible H),\n"
            "                      values in 1/S moves, the mean over K symmetric maps (a\n"
            "                      square board's mirror: mirror = sym:2), the engine [auto],\n"
            "                      q8's first-layer sums [acc16 where exact]; cache:BITS\n"
            "                      keeps 2^BITS estimates per search thread, (16 + state\n"
            "                      bytes, rounded up to 8) * 2^BITS bytes (15-puzzle: 40 *\n"
            "                      2^BITS, BITS 24: 0.67 GB), refused over half of physical\n"
            "                      memory for all threads [0: none]\n"
            "  --floor H           admissible H below which no value falls\n"
            "  --blend W:H         add W times admissible H to a network's value (ranks\n"
            "                      by both); repeatable, up to 4 terms summed\n"
            "  --offset D          subtract D moves from the estimate [0]\n"
            "  --scale S           values in 1/S moves [1]\n"
            "  --engine E          auto, float, q8 (network layers) [auto]\n"
            "  --algo A            astar, wastar, bwas, beam, idastar, anytime, focal [idastar\n"
            "                      for an admissible heuristic, bwas for a network]\n"
            "  --weight W          f = g + W*h (astar, wastar, bwas) [1; wastar 1.5]\n"
            "  --batch B           bwas, focal: states expanded per step [%d]\n"
            "  --width W           beam: states kept per depth [%d]; with --time-limit a\n"
            "                      narrow beam (W/16, at most 4096) runs first, so a path\n"
            "                      is held early (first_seconds=), then W, the shortest\n"
            "                      standing; limit=1: a limit cut a run, the best so far\n"
            "  --widen F           beam: after each solution search again F times wider\n"
            "                      (each run stopping at the incumbent's depth) while the\n"
            "                      time limit allows; the shortest stands [0: one run]\n"
            "  --ball R            beam: all states within R moves of the goal, found once\n"
            "                      before the first search (cube3: R=7 9.2 M states, 8\n"
            "                      86 M); a path entering it ends there by its shortest\n"
            "                      route [0: none]\n"
            "  --weights W1,W2,..  anytime: passes on f = g + W*h for the falling weights,\n"
            "                      before the deltas' phases ('none': no pass) [5,3,2,1.5,1]\n"
            "  --deltas LIST       anytime: A* phases on max(h - delta, H), one per delta of\n"
            "                      the rising LIST, each bounded by the best solution so far;\n"
            "                      a last 'inf' (H alone) proves it optimal (proven=1); the\n"
            "                      time limit ends the schedule, the best solution stands\n"
            "                      (phases= says how many passes ran to their end) [none]\n"
            "  --phases continue|restart  anytime: a phase continues the last one's search\n"
            "                      (its expanded states stay closed, its open ones are\n"
            "                      queued again), or starts at the start again keeping\n"
            "                      only the stored values [continue]\n"
            "  --bound E           focal: cost at most E times the optimum [%g]\n"
            "  --admissible H      focal: the admissible heuristic proving the bound [the\n"
            "                      domain's first]; anytime: the H of max(h - delta, H), also\n"
            "                      pruning every pass below the best solution [the heuristic's\n"
            "                      floor or residual base; the heuristic itself when\n"
            "                      admissible]; cube3 with --shortcut W:N:ida: the windows'\n"
            "                      lower bound\n"
            "  --ida off|plain     anytime: after the A* phases, IDA* pruned by H below the\n"
            "                      best solution; a stage that ends proves it (proven=1) [off]\n"
            "  --ida-at P          anytime with --ida: the A* phases give way to IDA* after\n"
            "                      the share P of --time-limit once they have a solution [0.5]\n"
            "  --shortcut W[:N]    re-solve every window of up to W moves of the solution (of\n"
            "                      each anytime incumbent, which then bounds the next phases)\n"
            "                      by a bidirectional breadth-first search between its end\n"
            "                      states, N states per window, rounds repeated while one\n"
            "                      improves; keeps the shorter path (saved= moves). Unit-cost\n"
            "                      domains with inverse moves [0: off; N 1000000]\n"
            "  --shortcut W[:N][:ida]:rR  at most R rounds, 1..100 [8]\n"
            "  --shortcut W[:N]:ida  windows over 16 moves by IDA* guided by the domain's\n"
            "                      estimate between two states (n-puzzle: Manhattan and\n"
            "                      linear conflicts), N expansions per window: windows far\n"
            "                      longer than breadth-first search reaches; on cube3\n"
            "                      every window, from the relative state to the goal under\n"
            "                      --admissible H (a beam leaves them 5%% of its time)\n"
            "  --variants K        beam: search the start and its first K-1 symmetric maps\n"
            "                      (cube3, 40 maps: the inverse, the L-R mirror image and\n"
            "                      the mirror of the inverse, ...; a square board: its\n"
            "                      mirror image) in turn, each in an equal share of the time\n"
            "                      left and bounded by the best path so far; the shortest\n"
            "                      stands [1]\n"
            "  --prove H           after the search (not idastar's or anytime's), IDA* on\n"
            "                      admissible H below its solution: it proves the solution\n"
            "                      optimal (proven=1) or finds a shorter one, in the time\n"
            "                      left (proof_from= the length it began from); on cube3\n"
            "                      with fsst every bound keeps the quarter-turn parity, so\n"
            "                      the last is the length less 2; off: none (to drop a\n"
            "                      recorded proof stage) [none]\n"
            "  --prove-at P        with --prove: the search ends at the share P of\n"
            "                      --time-limit, the proof gets the rest [%g]\n"
            "  --max-expanded N    per-instance expansions, 0 = none [0]\n"
            "  --time-limit S      per-instance seconds, 0 = none [0]\n"
            "  --max-nodes N       stored states, 0 = none [0]\n",
            SRCH_DOM_DEFAULTS.batch, SRCH_DOM_DEFAULTS.width, HEURNET_DOM_DEFAULT_BOUND,
            HEURNET_DOM_DEFAULT_PROVE_AT);
}

/* The domain of o: 0, or an exit code with the reason printed. */
static int domain_open(const char *cmd, const heurnet_dom_opts *o, dom **d)
{
    char spec[512];
    int st;
    if (!o->domain && o->model && !heurnet_dom_model_domain(o->model, spec, sizeof spec) &&
        !spec[0]) { /* a model that does not load is a bad file */
        int bad;
        nn_model *m = nn_model_load(o->model, &bad);
        nn_model_free(m);
        if (!m)
            return cli_fail(NULL);
    }
    if (!o->domain &&
        (!o->model || heurnet_dom_model_domain(o->model, spec, sizeof spec) || !spec[0]))
        return cli_usage(cmd, "--domain D is required (or --puzzle N, or a --model that records "
                              "one)");
    if (!(*d = heurnet_dom_opts_domain(o, &st))) {
        fprintf(stderr, "heurnet %s: %s\n", cmd, hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    return 0;
}

/* A name that did not open is the user's (exit 2), but not a misuse of
 * the options: no hint. */
static int load_fail(const char *cmd, int st)
{
    fprintf(stderr, "heurnet %s: %s\n", cmd, hn_errmsg());
    return st == HN_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
}

/* The search of o configured on d, its caches checked for `threads`. */
static int dom_open_n(const char *cmd, const dom *d, const heurnet_dom_opts *o, int threads,
                      heurnet_dom_search **s)
{
    int st;
    if (!(*s = heurnet_dom_search_config(d, o, &st)))
        return cli_dom_fail(cmd, st);
    if ((st = heurnet_dom_search_fits(*s, threads)))
        return cli_dom_fail(cmd, st);
    const char *rec = heurnet_dom_search_record(*s);
    if (rec[0])
        hn_log(HN_LOG_INFO, "%s: the search recorded in %s: %s", cmd, o->model, rec);
    return (st = heurnet_dom_search_load(*s)) ? load_fail(cmd, st) : 0;
}

int cli_dom_open(const char *cmd, const dom *d, const heurnet_dom_opts *o, heurnet_dom_search **s)
{
    return dom_open_n(cmd, d, o, 1, s);
}

int cli_dom_prepare(const char *cmd, heurnet_dom_search *s)
{
    int st = heurnet_dom_search_prepare(s);
    return st ? load_fail(cmd, st) : 0;
}

/* The domain (--domain, or the model's) and the search's heuristic are
 * opened before any file is read, so that a model of another domain is
 * refused first; then the instance file, then the goal's ball. */
int cli_dom_setup_n(const char *cmd, const heurnet_dom_opts *o, int threads, const char *file,
                    dom **d, heurnet_dom_search **s, dom_instance_rec **inst, size_t *n)
{
    int rc = domain_open(cmd, o, d);
    if (rc || (rc = dom_open_n(cmd, *d, o, threads, s)))
        return rc;
    if (dom_read_instances(*d, file, cli_dom_parse_error, (void *)cmd, inst, n))
        return cli_fail(NULL);
    return cli_dom_prepare(cmd, *s);
}

int cli_dom_setup(const char *cmd, const heurnet_dom_opts *o, const char *file, dom **d,
                  heurnet_dom_search **s, dom_instance_rec **inst, size_t *n)
{
    return cli_dom_setup_n(cmd, o, 1, file, d, s, inst, n);
}

void cli_dom_parse_error(const char *msg, void *cmd)
{
    fprintf(stderr, "heurnet %s: %s\n", (const char *)cmd, msg);
}
