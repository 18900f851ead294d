/* heurnet avi: train a heuristic of any domain without optimal labels, by
 * DeepCubeA's approximate value iteration or by bootstrapping from solved
 * paths. One CSV line per round on stdout (and --log), progress on stderr,
 * checkpoints after every round and on Ctrl-C/SIGTERM. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "cli/cmd_nn.h"
#include "cli/opt.h"
#include "search/generic/srch_dom.h"
#include "train/trn.h"
#include "train/trn_avi_setup.h"
#include "train/trn_mpi.h"

struct avi_cli {
    struct trn_avi_opts o;
    int width, goal; /* --puzzle N as its width W, --goal (1: blank-last; -1 not given) */
    const char *out, *log, *floor, *eval, *residual, *start, *domain, *parity;
    dom *dom;                               /* --domain, or the --puzzle's */
    dom_heur *dfloor, *dresidual, *dparity; /* its --floor, --residual, --parity */
    uint8_t *dstates;                       /* its --eval states, back to back */
    int *dlen;                              /* and their optimal lengths */
    size_t ndstates;
    uint8_t *starts; /* --start-boards states, back to back */
    int eval_every, quiet, scale_set;
    int force;           /* --force: replace an existing --checkpoint file */
    int log_check;       /* a resumed log: drop lines of rounds this run writes */
    int rounds_run;      /* rounds this process finished */
    char arch_opts[160]; /* architecture options given besides --arch */
    hn_progress *bar;
    FILE *logf;
    const char *teacher; /* --targets q:FILE or distill:FILE */
    nn_model *teacher_m;
};

/* --target-scale M,S */
static int scale_parse(void *field, const char *v)
{
    struct avi_cli *c = field;
    char *end;
    c->o.target_mean = strtod(v, &end);
    if (end == v || *end != ',' || !isfinite(c->o.target_mean) ||
        cli_parse_double(end + 1, &c->o.target_std) || !(c->o.target_std > 0))
        return hn_fail(HN_ERR_ARG, "'%s' is not MEAN,STD with STD > 0", v);
    c->scale_set = 1;
    return 0;
}

/* --targets bellman | walk | q | q:FILE | distill:FILE */
static int targets_parse(void *field, const char *v)
{
    struct avi_cli *c = field;
    int q = !strncmp(v, "q:", 2);
    if ((q && v[2]) || (!strncmp(v, "distill:", 8) && v[8])) {
        c->teacher = v + (q ? 2 : 8);
        c->o.teacher_q = q;
        return 0;
    }
    if (strcmp(v, "bellman") && strcmp(v, "walk") && strcmp(v, "q"))
        return hn_fail(HN_ERR_ARG,
                       "'%s' is not bellman, walk, q, q:TEACHER.h5 or distill:TEACHER.h5", v);
    c->o.walk_targets = !strcmp(v, "walk");
    c->o.teacher_q = !strcmp(v, "q");
    c->teacher = NULL;
    return 0;
}

/* --states walk | uniform[:share] */
static int states_parse(void *field, const char *v)
{
    double share = 1;
    if (!strcmp(v, "walk"))
        share = 0;
    else if (strncmp(v, "uniform", 7) || (v[7] && (v[7] != ':' || cli_parse_double(v + 8, &share) ||
                                                   !(share >= 0 && share <= 1))))
        return hn_fail(HN_ERR_ARG, "'%s' is not walk or uniform[:SHARE] (0..1)", v);
    *(double *)field = share;
    return 0;
}

#define AV(f) offsetof(struct avi_cli, f)
#define MAXW TRN_AVI_MAX_WALK
static const struct cli_opt avi_opts[] = {
    CLI_ENUM("method", AV(o.method), "davi|bootstrap",
             "davi (value iteration, DeepCubeA) or bootstrap (Arfaee et al.)"),
    CLI_STR("domain", AV(domain), "D",
            "any domain: npuzzle:4x4, npuzzle:6x6:blank-last, cube3, ./libmine.so (heurnet "
            "domain list) [required, or --puzzle]"),
    CLI_FN("puzzle", AV(width), cli_puzzle_parse, "N",
           "the n-puzzle: N = 8, 15, 24, 35, ... (--domain npuzzle:WxW) [none]"),
    CLI_ENUM("goal", AV(goal), "blank-first|blank-last", "with --puzzle: the goal [blank-first]"),
    CLI_STR("arch", AV(o.arch), "SPEC",
            "network, e.g. 81-512-256-128-1 [required unless --init-from or --resume]"),
    CLI_STRL('o', "output", AV(out), "F", "model file to write at the end [required]"),
    CLI_INT("rounds", AV(o.rounds), 0, 100000000, "R", "rounds in total, resumed ones included"),
    CLI_INT("steps", AV(o.steps_per_round), 1, 10000000, "U",
            "Adam steps per round (DAVI: target update period)"),
    CLI_INT("batch", AV(o.batch), 2, 1000000, "B", "rows per Adam step"),
    CLI_REAL("lr", AV(o.lr), 0, 10, CLI_OPT_OPEN, "R", "Adam learning rate"),
    CLI_REAL("lr-decay", AV(o.lr_decay), 0, 1, CLI_OPT_OPEN, "D", "learning rate lr * D^step"),
    CLI_FN("target-scale", 0, scale_parse, "M,S",
           "output scaling of a fresh network, raw * S + M [0.9 T, 0.25 T for the domain's "
           "typical distance T (heurnet domain info; 8-puzzle 19.8,5.5, 15-puzzle 47.7,13.25); "
           "with --residual 0, T / 16]"),
    CLI_STR("floor", AV(floor), "H",
            "admissible floor: targets max(H, ...); one of the domain's heuristics, pdb:..., "
            "max:... (as heurnet solve) [none]"),
    CLI_STR("residual", AV(residual), "H",
            "the network learns the correction to admissible H (h = H + net; recorded as the "
            "model's residual attribute), starting from net = 0; also needed on "
            "--resume/--init-from of such a model; scale default 0,S/4 [none]"),
    CLI_INT("threads", AV(o.threads), 1, 256, "T", "threads making targets / solving boards"),
    CLI_INT("blas-threads", AV(o.blas_threads), 1, 256, "T",
            "BLAS threads of the Adam steps (more than one only pays on an idle machine)"),
    CLI_U64("seed", AV(o.seed), 0, "S", "weights and boards"),
    CLI_TEXT("DAVI:"),
    CLI_INT("walk-max", AV(o.walk_max), 0, MAXW, "K",
            "states are random walks of 0..K moves from the goal"),
    CLI_REAL("update-loss", AV(o.update_loss), 0, 1e12, 0, "L",
             "replace the target network only after a round whose loss (moves^2) is below L; "
             "0 = after every round"),
    CLI_FLAG("no-clamp", AV(o.clamp), 0, "do not cap a target at its board's walk length"),
    CLI_INT("lookahead", AV(o.lookahead), 1, TRN_AVI_MAX_TABLE_LOOKAHEAD, "L",
            "back up through L moves (1..3, with --table 1..4; no immediate undo): y = min "
            "over L-move paths of L + h(leaf)"),
    CLI_FN("states", AV(o.uniform_share), states_parse, "S",
           "walk: random walks of 0..K moves; uniform[:F]: a share F (default 1) drawn "
           "uniformly among all states (domains that draw them; no distance known, no "
           "clamp), the rest by walks [walk]"),
    CLI_FLAG("table", AV(o.table), 1,
             "a small domain (up to 4.2 M states, e.g. the 8-puzzle's 181,440): after each "
             "target update evaluate the target network on every state once; targets are then "
             "table lookups (still min over moves of 1 + target network)"),
    CLI_STR("start-boards", AV(start), "F",
            "DAVI: a share of each round's states is a state of instance file F (e.g. the "
            "solution paths of a search), walked 0..--start-walk moves on; no clamp [none]"),
    CLI_REAL("start-share", AV(o.start_share), 0, 1, 0, "S",
             "that share, with the uniform share at most 1 [0.5]"),
    CLI_INT("start-walk", AV(o.start_walk), 0, MAXW, "J", "[10]"),
    CLI_FLAG("lr-cosine", AV(o.lr_cosine), 1,
             "anneal the lr to 0 along a half cosine within every round (target period), "
             "restarting at lr * decay^step"),
    CLI_FLAG("integer-targets", AV(o.integer_targets), 1,
             "round each child's network value to the nearest integer (at least 0) before the "
             "min: the exact Bellman operator of a unit-cost puzzle, so errors under 0.5 do not "
             "compound"),
    CLI_FN("targets", 0, targets_parse, "T",
           "bellman (the backup above) or walk (the walk length itself, CayleyPy's diffusion "
           "distance: no backup, walks only, no residual), or q:TEACHER.h5: a network with one "
           "output per move, output m trained on the teacher's value of the state after move m "
           "(0 at the goal), so one row values all of a state's children; it starts as the "
           "teacher (--init-from TEACHER.h5, its output repeated), or distill:TEACHER.h5: the "
           "teacher's value of the state itself (a student of another shape; with --residual "
           "H both are corrections to H), or q: a network with one output per move trained on "
           "Bellman values of the children (each child's least 1 + output of the target "
           "network over its moves, 1 next to the goal, the floor, parity and clamp as above; "
           "--init-from a Q network, or a one-output one repeated) [bellman]"),
    CLI_STR("parity", AV(parity), "H",
            "distances have the parity of heuristic H (cube3: parity, npuzzle: manhattan); "
            "each leaf value is rounded to the nearest integer of that parity, so errors under "
            "1 do not compound [none]"),
    CLI_ENUM("target-engine", AV(o.target_q8), "float|q8",
             "float or q8 (int8 layers, docs/inference.md) for the target network's "
             "look-ahead values"),
    CLI_TEXT("BOOTSTRAP:"),
    CLI_INT("boards", AV(o.boards), 1, 10000000, "N", "states solved per round"),
    CLI_U64("budget", AV(o.budget), 1, "N",
            "expansions per state at the start (doubles when fewer than --solved-min are "
            "solved)"),
    CLI_REAL("weight", AV(o.weight), 1, 1e6, 0, "W", "weighted A* f = g + W h with the network"),
    CLI_INT("walk", AV(o.walk), 1, MAXW, "L", "walk length of the first states"),
    CLI_INT("walk-step", AV(o.walk_step), 0, MAXW, "S",
            "growth when at least --raise were solved (up to --walk-max)"),
    CLI_REAL("raise", AV(o.raise), 0, 1, CLI_OPT_OPEN, "F", ""),
    CLI_REAL("solved-min", AV(o.solved_min), 0, 1, 0, "F", ""),
    CLI_U64("buffer", AV(o.buffer_max), 1, "N", "labelled states kept, oldest dropped"),
    CLI_TEXT("Runs:"),
    CLI_STR("log", AV(log), "FILE.csv", "also write the round lines there (appended on --resume)"),
    CLI_STR("checkpoint", AV(o.checkpoint), "F",
            "written after every round and on Ctrl-C/SIGTERM; a complete model file that can "
            "be used meanwhile; an existing F is replaced only when it is --resume's file or "
            "with --force"),
    CLI_FLAG("force", AV(force), 1, "replace an existing --checkpoint file"),
    CLI_STR("resume", AV(o.resume), "F",
            "continue a checkpoint (same method, domain, batch; --rounds may be raised, other "
            "settings changed; also those of earlier versions' --puzzle runs)"),
    CLI_STR("init-from", AV(o.init), "M.h5", "start from this model's weights and scaling"),
    CLI_STR("eval", AV(eval), "FILE",
            "instances with optimal lengths: MAE and exact share of the rounded network after "
            "every --eval-every rounds (only reported, never trained on) [none]"),
    CLI_INT("eval-every", AV(eval_every), 1, 100000000, "N", ""),
    CLI_FLAG("quiet", AV(quiet), 1, "no progress on stderr"),
    CLI_TEXT("Network:"),
    CLI_TABLE(cli_arch_opts, AV(o.defaults)),
    CLI_END};

/* Remember which architecture options were given: --resume refuses them
 * when they describe another network than the checkpoint's (--init sets
 * weights, not the shape). */
static void arch_opt_note(void *base, const struct cli_opt *o, const char *arg)
{
    struct avi_cli *c = base;
    size_t n = strlen(c->arch_opts);
    int arch = o >= cli_arch_opts && o < cli_arch_opts + 4;
    if (arch)
        snprintf(c->arch_opts + n, sizeof c->arch_opts - n, "%s--%s%s%s", n ? " " : "", o->name,
                 o->kind == CLI_OPT_FLAG ? "" : " ", o->kind == CLI_OPT_FLAG ? "" : arg);
}

static const struct cli_opt_cmd avi_cmd = {
    .cmd = "avi",
    .usage = "avi --domain D | --puzzle N --arch SPEC -o MODEL.h5 [options]\n\n"
             "Train a network heuristic without optimal labels, on any domain (every option\n"
             "means the same on each). Prints one CSV line per round:\n"
             "  round,steps,samples,loss,target_mean,target_max,floor_share,updated,updates,\n"
             "  solved,boards,budget,walk,buffer,target_seconds,seconds,total_seconds,\n"
             "  eval_mae,eval_exact\n\n",
    .opts = avi_opts,
#ifdef HEURNET_MPI
    .epilog = "Under mpirun -np N each rank makes 1/N of every round's targets (DAVI boards,\n"
              "bootstrap searches), the ranks share them and each trains on 1/N of every batch\n"
              "(--batch a multiple of N; --threads per rank); the result equals one process.\n"
              "Rank 0 alone prints, logs and writes the checkpoint and the model.\n",
#endif
    .seen = arch_opt_note};

/* --domain D, or --puzzle N [--goal G] as the domain npuzzle:WxW[:blank-last]. */
static int open_domain(struct avi_cli *c)
{
    char spec[64];
    int st;
    if (c->width && c->domain)
        return cli_usage("avi", "--domain and --puzzle exclude each other");
    if (c->domain && c->goal >= 0)
        return cli_usage("avi", "--goal goes with --puzzle; a domain names its goal "
                                "(npuzzle:4x4:blank-last)");
    if (!c->width && !c->domain)
        return cli_usage("avi", "--domain D or --puzzle N is required");
    snprintf(spec, sizeof spec, "npuzzle:%dx%d%s", c->width, c->width,
             c->goal == 1 ? ":blank-last" : "");
    if (!(c->dom = dom_open(c->domain ? c->domain : spec, &st))) {
        fprintf(stderr, "heurnet avi: --%s: %s\n", c->domain ? "domain" : "puzzle", hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    c->o.dom = c->dom;
    return 0;
}

static int check_args(struct avi_cli *c)
{
    int rc = open_domain(c);
    if (rc)
        return rc;
    if (!c->out)
        return cli_usage("avi", "-o MODEL.h5 is required");
    if (c->o.init && c->o.resume)
        return cli_usage("avi", "--init-from and --resume exclude each other");
    if (!c->o.arch && !c->o.init && !c->o.resume)
        return cli_usage("avi", "--arch SPEC is required (e.g. 81-512-256-128-1)");
    struct nn_spec sp;
    if (c->o.arch && cli_arch_parse("avi", c->o.arch, &c->o.defaults, &sp))
        return CLI_EXIT_USAGE;
    if (c->o.method == TRN_AVI_BOOT && (c->o.walk > c->o.walk_max || c->o.solved_min > c->o.raise ||
                                        c->o.buffer_max < (uint64_t)c->o.batch))
        return cli_usage("avi", "bootstrap needs --walk <= --walk-max, --solved-min <= --raise "
                                "and --buffer >= --batch");
    if ((uint64_t)c->o.batch * (uint64_t)c->o.steps_per_round > 100000000)
        return cli_usage("avi", "--batch * --steps exceeds 10^8 rows per round");
    if (c->o.lookahead > TRN_AVI_MAX_LOOKAHEAD && !c->o.table)
        return cli_usage("avi", "--lookahead %d needs --table (without: 1..%d)", c->o.lookahead,
                         TRN_AVI_MAX_LOOKAHEAD);
    if (c->o.table && c->o.method != TRN_AVI_DAVI)
        return cli_usage("avi", "--table needs --method davi");
    if (c->residual && !strncmp(c->residual, "ann:", 4))
        return cli_usage("avi", "--residual '%s' must be an admissible heuristic, not a network",
                         c->residual);
    if (!c->start && (c->o.start_share >= 0 || c->o.start_walk >= 0))
        return cli_usage("avi", "--start-share and --start-walk need --start-boards");
    if (c->start && c->o.method != TRN_AVI_DAVI)
        return cli_usage("avi", "--start-boards works with --method davi only");
    /* unset: -1 (cmd_avi); with start states half the states, 10 moves on */
    c->o.start_share = c->o.start_share >= 0 ? c->o.start_share : c->start ? 0.5 : 0;
    c->o.start_walk = c->o.start_walk >= 0 ? c->o.start_walk : c->start ? 10 : 0;
    if (c->o.walk_targets && (c->o.uniform_share > 0 || c->residual || c->o.table))
        return cli_usage("avi", "--targets walk needs walks only (--states walk), no --residual "
                                "and no --table");
    if ((c->teacher || c->o.teacher_q) &&
        ((c->residual && c->o.teacher_q) || c->o.method != TRN_AVI_DAVI || c->start || c->o.table))
        return cli_usage("avi", "--targets q, q:FILE or distill:FILE needs --method davi, no "
                                "--start-boards and no --table; a Q network no --residual");
    if (c->o.teacher_q && !c->teacher && c->o.lookahead > 1)
        return cli_usage("avi", "--targets q backs up one move (--lookahead 1)");
    if (c->o.start_share + c->o.uniform_share > 1)
        return cli_usage("avi", "--start-share %g and the uniform share %g add up to more than 1",
                         c->o.start_share, c->o.uniform_share);
    if (!c->scale_set)
        trn_avi_default_scale(c->dom, c->residual != NULL, &c->o.target_mean, &c->o.target_std);
    return 0;
}

static int parse(int argc, char **argv, struct avi_cli *c)
{
    int nargs, rc = cli_opt_parse(&avi_cmd, c, argc, argv, &nargs);
    return rc ? rc : check_args(c);
}

/* ---- per-round output -------------------------------------------------- */

static void csv_header(FILE *f)
{
    fprintf(f,
            "round,steps,samples,loss,target_mean,target_max,floor_share,updated,updates,solved,"
            "boards,budget,walk,buffer,target_seconds,seconds,total_seconds,eval_mae,eval_exact\n");
}

/* MAE and exact share of the rounded network on the --eval states (the
 * run's residual already open, so a large table is not read every round). */
static void evaluate(struct avi_cli *c, const nn_model *m, double *mae, double *exact)
{
    if (trn_avi_eval_states(c->dom, m, c->o.residual, c->dstates, c->dlen, c->ndstates, mae, exact))
        fprintf(stderr, "heurnet avi: warning: --eval: %s\n", hn_errmsg());
}

static void csv_line(FILE *f, const struct trn_avi_round *r, double mae, double exact)
{
    fprintf(f,
            "%d,%llu,%llu,%.6g,%.4f,%.2f,%.4f,%d,%d,%d,%d,%llu,%d,%llu,%.2f,%.2f,%.1f,%.4f,%.4f\n",
            r->round, (unsigned long long)r->steps, (unsigned long long)r->samples, r->loss,
            r->target_mean, r->target_max, r->floor_share, r->updated, r->updates, r->solved,
            r->boards, (unsigned long long)r->budget, r->walk, (unsigned long long)r->buffer,
            r->target_seconds, r->seconds, r->total_seconds, mae, exact);
}

/* A resumed log: drop the lines of the rounds this run redoes (on failure
 * the log stays as it was, with a warning). */
static void log_drop_from(struct avi_cli *c, int round)
{
    int dropped;
    if (trn_avi_log_truncate(c->log, round, &dropped))
        fprintf(stderr, "heurnet avi: warning: %s: could not drop the lines of rounds >= %d: %s\n",
                c->log, round, hn_errmsg());
    else if (dropped)
        fprintf(stderr, "heurnet avi: %s: dropped %d line(s) of rounds this run redoes\n", c->log,
                dropped);
}

static void on_round(const struct trn_avi_round *r, void *user)
{
    struct avi_cli *c = user;
    double mae = NAN, exact = NAN;
    hn_progress_finish(c->bar);
    c->bar = NULL;
    c->rounds_run++;
    if (c->log_check) {
        c->log_check = 0;
        fclose(c->logf);
        log_drop_from(c, r->round);
        if (!(c->logf = fopen(c->log, "a")))
            fprintf(stderr, "heurnet avi: warning: %s: cannot reopen: %s\n", c->log,
                    strerror(errno));
    }
    if (c->ndstates && r->round % c->eval_every == 0)
        evaluate(c, r->model, &mae, &exact);
    csv_line(stdout, r, mae, exact);
    fflush(stdout);
    if (c->logf) {
        csv_line(c->logf, r, mae, exact);
        fflush(c->logf);
    }
}

static void on_progress(uint64_t done, uint64_t total, const char *extra, void *user)
{
    struct avi_cli *c = user;
    if (!c->bar)
        c->bar = hn_progress_new("avi", total, c->quiet);
    hn_progress_update(c->bar, done, extra);
}

/* ---- the command ------------------------------------------------------- */

/* --start-boards: an instance file of the domain (ids and lengths, if any,
 * are ignored). */
static int load_start(struct avi_cli *c)
{
    if (trn_avi_states_read(c->dom, c->start, cli_dom_parse_error, "avi", &c->starts, NULL,
                            &c->o.nstart))
        return cli_fail("avi --start-boards");
    c->o.start_states = c->starts;
    c->o.start_name = c->start;
    return 0;
}

/* A heuristic that cannot be opened: a bad name is misuse (exit 2, as in
 * solve and gen), a table that cannot be read a failure (1). */
static int heur_fail(const char *what, int st)
{
    cli_fail(what);
    return st == HN_ERR_ARG || st == HN_ERR_FORMAT || st == HN_ERR_UNSUPPORTED ? CLI_EXIT_USAGE
                                                                               : CLI_EXIT_FAIL;
}

/* --floor, --residual and --parity on the run's domain. */
static int open_dom_heurs(struct avi_cli *c)
{
    int st = HN_OK;
    if (c->floor && !(c->dfloor = dom_heur_open(c->dom, c->floor, &st)))
        return heur_fail("avi --floor", st);
    if (c->residual && !(c->dresidual = dom_heur_open(c->dom, c->residual, &st)))
        return heur_fail("avi --residual", st);
    if (c->parity && !(c->dparity = dom_heur_open(c->dom, c->parity, &st)))
        return heur_fail("avi --parity", st);
    c->o.parity = c->dparity;
    c->o.floor = c->dfloor;
    c->o.residual = c->dresidual;
    c->o.residual_spec = c->dresidual ? c->residual : NULL;
    return 0;
}

/* --eval: states with their optimal lengths. */
static int load_dom_eval(struct avi_cli *c)
{
    if (trn_avi_states_read(c->dom, c->eval, cli_dom_parse_error, "avi", &c->dstates, &c->dlen,
                            &c->ndstates))
        return cli_fail("avi --eval");
    return 0;
}

static int open_inputs(struct avi_cli *c)
{
    struct stat st;
    int rc;
    if ((rc = open_dom_heurs(c)))
        return rc;
    if (c->eval && load_dom_eval(c))
        return CLI_EXIT_FAIL;
    if (c->start && load_start(c))
        return CLI_EXIT_FAIL;
    if (c->teacher) {
        rc = 0;
        if (!(c->teacher_m = nn_model_load(c->teacher, &rc)))
            return cli_fail("avi --targets");
        c->o.teacher = c->teacher_m;
        c->o.teacher_name = c->teacher;
    }
    if (c->log) {
        int fresh = !c->o.resume || stat(c->log, &st) != 0 || st.st_size == 0;
        if (!(c->logf = fopen(c->log, fresh ? "w" : "a"))) {
            hn_fail(HN_ERR_IO, "%s: cannot open the log file: %s", c->log, strerror(errno));
            return cli_fail("avi");
        }
        if (fresh)
            csv_header(c->logf);
        c->log_check = !fresh;
    }
    return 0;
}

static void banner(const struct avi_cli *c)
{
    const struct trn_avi_opts *o = &c->o;
    const char *what = dom_spec(c->dom);
    fprintf(stderr,
            "heurnet avi %s (%s): %s, %s, %d rounds x %d steps x batch %d, lr %g decay %g, "
            "floor %s, residual %s, %d threads, %d BLAS threads, %d process(es), seed %llu%s%s\n",
            hn_version(), hn_revision(), o->method == TRN_AVI_BOOT ? "bootstrap" : "davi", what,
            o->rounds, o->steps_per_round, o->batch, o->lr, o->lr_decay,
            c->floor ? c->floor : "none", c->residual ? c->residual : "none", o->threads,
            o->blas_threads, o->comm ? o->comm->size : 1, (unsigned long long)o->seed,
            o->resume ? ", resuming " : "", o->resume ? o->resume : "");
}

/* --resume continues the checkpoint's network, and --checkpoint replaces
 * an existing file only when it is that checkpoint or with --force:
 * checked before any work. */
static int resume_checks(const struct avi_cli *c, int lead)
{
    if (lead && !c->force && trn_avi_checkpoint_check(c->o.checkpoint, c->o.resume))
        return cli_fail("avi");
    if (trn_avi_resume_arch_check(c->o.resume, c->o.arch, &c->o.defaults, c->arch_opts))
        return cli_fail("avi");
    return 0;
}

/* Under mpirun only rank 0 prints, logs, evaluates and writes files. */
static int run(struct avi_cli *c)
{
    int rc, lead = !c->o.comm || c->o.comm->rank == 0;
    if (!lead) {
        c->quiet = 1;
        c->log = c->eval = NULL;
    }
    cli_log_init(c->quiet);
    nn_blas_threads(c->o.blas_threads);
    if ((rc = resume_checks(c, lead)) || (rc = open_inputs(c)))
        goto done;
    hn_stop_install();
    c->o.on_round = lead ? on_round : NULL;
    c->o.round_user = c;
    c->o.progress = lead ? on_progress : NULL;
    c->o.progress_user = c;
    if (!c->quiet)
        banner(c);
    if (lead)
        csv_header(stdout);
    nn_model *m = NULL;
    int st = trn_avi_run(&c->o, &m);
    hn_progress_finish(c->bar);
    if (!st && lead && c->o.resume && c->rounds_run == 0) {
        double done = 0;
        nn_model_get_meta_double(m, "avi_rounds", &done);
        fprintf(stderr,
                "heurnet avi: %s is at round %.0f and --rounds is %d: nothing left to do; "
                "writing its network to %s\n",
                c->o.resume, done, c->o.rounds, c->out);
    }
    if (!st && lead)
        st = nn_model_save(m, c->out);
    nn_model_free(m);
    if (st == HN_ERR_INTERRUPTED && lead)
        fprintf(stderr, "heurnet avi: interrupted%s%s\n",
                c->o.checkpoint ? "; checkpoint written: " : "",
                c->o.checkpoint ? c->o.checkpoint : " (no checkpoint configured)");
    else if (!st && !c->quiet)
        fprintf(stderr, "heurnet avi: saved %s\n", c->out);
    rc = st == HN_ERR_INTERRUPTED ? CLI_EXIT_FAIL : st ? cli_fail("avi") : CLI_EXIT_OK;
done:
    dom_heur_free(c->dfloor);
    dom_heur_free(c->dresidual);
    dom_heur_free(c->dparity);
    free(c->dstates);
    free(c->dlen);
    free(c->starts);
    nn_model_free(c->teacher_m);
    if (c->logf)
        fclose(c->logf);
    return rc;
}

int cmd_avi(int argc, char **argv)
{
    struct avi_cli c = {.eval_every = 1, .goal = -1};
    trn_avi_opts_default(&c.o);
    c.o.defaults = cli_arch_defaults();
    c.o.defaults.dropout = 0.0f;
    c.o.start_share = -1; /* not given */
    c.o.start_walk = -1;
    int rc = parse(argc, argv, &c);
    if (rc) {
        dom_free(c.dom);
        return rc < 0 ? CLI_EXIT_OK : rc;
    }
    if (!trn_mpi_launched()) {
        rc = run(&c);
        dom_free(c.dom);
        return rc;
    }
#ifdef HEURNET_MPI
    struct trn_comm comm;
    if (trn_mpi_init(&comm))
        return cli_fail("avi");
    c.o.comm = &comm;
    rc = run(&c);
    trn_mpi_finalize();
    dom_free(c.dom);
    return rc;
#else
    hn_fail(HN_ERR_UNSUPPORTED, "started by mpirun, but this heurnet was built without MPI");
    return cli_fail("avi");
#endif
}
