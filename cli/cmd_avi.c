/* heurnet avi: train a heuristic of any domain without optimal labels, by
 * DeepCubeA's approximate value iteration or by bootstrapping from solved
 * paths. One CSV line per round on stdout (and --log), progress on stderr,
 * checkpoints after every round and on Ctrl-C/SIGTERM. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "cli/cmd_nn.h"
#include "search/generic/srch_dom.h"
#include "train/trn.h"
#include "train/trn_mpi.h"

struct avi_cli {
    struct trn_avi_opts o;
    int puzzle, goal; /* --puzzle N and --goal (1: blank-last; -1 not given) */
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

static void help(const struct trn_avi_opts *o)
{
    printf("usage: heurnet avi --domain D | --puzzle N --arch SPEC -o MODEL.h5 [options]\n\n"
           "Train a network heuristic without optimal labels, on any domain (every option\n"
           "means the same on each). Prints one CSV line per round:\n"
           "  round,steps,samples,loss,target_mean,target_max,floor_share,updated,updates,\n"
           "  solved,boards,budget,walk,buffer,target_seconds,seconds,total_seconds,\n"
           "  eval_mae,eval_exact\n\n"
           "  --method M         davi (value iteration, DeepCubeA) | bootstrap (Arfaee et al.)\n"
           "                     [davi]\n"
           "  --domain D         any domain: npuzzle:4x4, npuzzle:6x6:blank-last, cube3,\n"
           "                     ./libmine.so (heurnet domain list) [required, or --puzzle]\n"
           "  --puzzle N         the n-puzzle: N = 8, 15, 24, 35, ... (--domain npuzzle:WxW)\n"
           "  --goal G           with --puzzle: blank-first | blank-last [blank-first]\n"
           "  --arch SPEC        network, e.g. 81-512-256-128-1 [required unless --init-from\n"
           "                     or --resume]\n"
           "  -o, --output F     model file to write at the end [required]\n"
           "  --rounds R         rounds in total, resumed ones included [%d]\n"
           "  --steps U          Adam steps per round (DAVI: target update period) [%d]\n"
           "  --batch B          rows per Adam step [%d]\n"
           "  --lr R             Adam learning rate [%g]\n"
           "  --lr-decay D       learning rate lr * D^step [%g]\n"
           "  --target-scale M,S output scaling of a fresh network, raw * S + M [0.9 T,\n"
           "                     0.25 T for the domain's typical distance T (heurnet domain\n"
           "                     info; 8-puzzle 19.8,5.5, 15-puzzle 47.7,13.25); with\n"
           "                     --residual 0, T / 16]\n"
           "  --floor H          admissible floor: targets max(H, ...); one of the domain's\n"
           "                     heuristics, pdb:..., max:... (as heurnet solve) [none]\n"
           "  --residual H       the network learns the correction to admissible H\n"
           "                     (h = H + net; recorded as the model's residual attribute),\n"
           "                     starting from net = 0; also needed on --resume/--init-from\n"
           "                     of such a model; scale default 0,S/4 [none]\n"
           "  --threads T        threads making targets / solving boards [%d]\n"
           "  --blas-threads T   BLAS threads of the Adam steps (more than one only pays\n"
           "                     on an idle machine) [%d]\n"
           "  --seed S           weights and boards [%llu]\n"
           "DAVI:\n"
           "  --walk-max K       states are random walks of 0..K moves from the goal [%d]\n"
           "                     (0..100000)\n"
           "  --update-loss L    replace the target network only after a round whose loss\n"
           "                     (moves^2) is below L; 0 = after every round [%g]\n"
           "  --no-clamp         do not cap a target at its board's walk length\n"
           "  --lookahead L      back up through L moves (1..3, with --table 1..4; no\n"
           "                     immediate undo): y = min over L-move paths of L + h(leaf) [1]\n"
           "  --states S         walk: random walks of 0..K moves; uniform[:F]: a share F\n"
           "                     (default 1) drawn uniformly among all states (domains that\n"
           "                     draw them; no distance known, no clamp), the rest by walks\n"
           "                     [walk]\n"
           "  --table            a small domain (up to 4.2 M states, e.g. the 8-puzzle's\n"
           "                     181,440): after each target update evaluate the target\n"
           "                     network on every state once; targets are then table\n"
           "                     lookups (still min over moves of 1 + target network)\n"
           "  --start-boards F   DAVI: a share of each round's states is a state of instance\n"
           "                     file F (e.g. the solution paths of a search), walked\n"
           "                     0..--start-walk moves on; no clamp [none]\n"
           "  --start-share S    that share, with the uniform share at most 1 [0.5]\n"
           "  --start-walk J     [10]\n"
           "  --lr-cosine        anneal the lr to 0 along a half cosine within every round\n"
           "                     (target period), restarting at lr * decay^step\n"
           "  --integer-targets  round each child's network value to the nearest integer\n"
           "                     (at least 0) before the min: the exact Bellman operator\n"
           "                     of a unit-cost puzzle, so errors under 0.5 do not compound\n"
           "  --targets T        bellman (the backup above) or walk (the walk\n"
           "                     length itself, CayleyPy's diffusion distance: no backup,\n"
           "                     walks only, no residual), or q:TEACHER.h5: a network with\n"
           "                     one output per move, output m trained on the teacher's\n"
           "                     value of the state after move m (0 at the goal), so one\n"
           "                     row values all of a state's children; it starts as the\n"
           "                     teacher (--init-from TEACHER.h5, its output repeated),\n"
           "                     or distill:TEACHER.h5: the teacher's value of the state\n"
           "                     itself (a student of another shape; with --residual H\n"
           "                     both are corrections to H), or q: a network\n"
           "                     with one output per move trained on Bellman values of\n"
           "                     the children (each child's least 1 + output of the\n"
           "                     target network over its moves, 1 next to the goal, the\n"
           "                     floor, parity and clamp as above; --init-from a Q\n"
           "                     network, or a one-output one repeated) [bellman]\n"
           "  --parity H         distances have the parity of heuristic H (cube3:\n"
           "                     parity, npuzzle: manhattan); each leaf value is rounded\n"
           "                     to the nearest integer of that parity, so errors under 1\n"
           "                     do not compound [none]\n"
           "  --target-engine E  float or q8 (int8 layers, docs/inference.md) for\n"
           "                     the target network's look-ahead values [float]\n"
           "BOOTSTRAP:\n"
           "  --boards N         states solved per round [%d]\n"
           "  --budget N         expansions per state at the start (doubles when fewer than\n"
           "                     --solved-min are solved) [%llu]\n"
           "  --weight W         weighted A* f = g + W h with the network [%g]\n"
           "  --walk L           walk length of the first states [%d]\n"
           "  --walk-step S      growth when at least --raise were solved (up to\n"
           "                     --walk-max) [%d]\n"
           "  --raise F          [%g]\n"
           "  --solved-min F     [%g]\n"
           "  --buffer N         labelled states kept, oldest dropped [%llu]\n"
           "Runs:\n"
           "  --log FILE.csv     also write the round lines there (appended on --resume)\n"
           "  --checkpoint F     written after every round and on Ctrl-C/SIGTERM; a\n"
           "                     complete model file that can be used meanwhile; an\n"
           "                     existing F is replaced only when it is --resume's file\n"
           "                     or with --force\n"
           "  --force            replace an existing --checkpoint file\n"
           "  --resume F         continue a checkpoint (same method, domain, batch; --rounds\n"
           "                     may be raised, other settings changed; also those of\n"
           "                     earlier versions' --puzzle runs)\n"
           "  --init-from M.h5   start from this model's weights and scaling\n"
           "  --eval FILE        instances with optimal lengths: MAE and exact share of the\n"
           "                     rounded network after every --eval-every rounds (only\n"
           "                     reported, never trained on) [none]\n"
           "  --eval-every N     [1]\n"
           "  --quiet            no progress on stderr\n",
           o->rounds, o->steps_per_round, o->batch, o->lr, o->lr_decay, o->threads, o->blas_threads,
           (unsigned long long)o->seed, o->walk_max, o->update_loss, o->boards,
           (unsigned long long)o->budget, o->weight, o->walk, o->walk_step, o->raise, o->solved_min,
           (unsigned long long)o->buffer_max);
    struct nn_layer_defaults d = o->defaults;
    cli_arch_help(stdout, &d);
    printf("  -h, --help         this help\n");
#ifdef HEURNET_MPI
    printf("Under mpirun -np N each rank makes 1/N of every round's targets (DAVI boards,\n"
           "bootstrap searches), the ranks share them and each trains on 1/N of every batch\n"
           "(--batch a multiple of N; --threads per rank); the result equals one process.\n"
           "Rank 0 alone prints, logs and writes the checkpoint and the model.\n");
#endif
}

enum {
    O_METHOD = 1300,
    O_PUZZLE,
    O_GOAL,
    O_ARCH,
    O_ROUNDS,
    O_STEPS,
    O_BATCH,
    O_LR,
    O_LRD,
    O_SCALE,
    O_FLOOR,
    O_PARITY,
    O_THREADS,
    O_SEED,
    O_WALKMAX,
    O_UPLOSS,
    O_NOCLAMP,
    O_INTTGT,
    O_TGTENG,
    O_BOARDS,
    O_BUDGET,
    O_WEIGHT,
    O_WALK,
    O_WALKSTEP,
    O_RAISE,
    O_SOLVED,
    O_BUFFER,
    O_LOG,
    O_CKPT,
    O_FORCE,
    O_RESUME,
    O_INIT,
    O_EVAL,
    O_EVALN,
    O_QUIET,
    O_BLAS,
    O_RESIDUAL,
    O_LOOKAHEAD,
    O_STATES,
    O_TARGETS,
    O_TABLE,
    O_LRCOS,
    O_START,
    O_DOMAIN,
    O_STARTSH,
    O_STARTWALK
};

static const struct option longopts[] = {CLI_ARCH_LONGOPTS,
                                         {"method", required_argument, NULL, O_METHOD},
                                         {"puzzle", required_argument, NULL, O_PUZZLE},
                                         {"goal", required_argument, NULL, O_GOAL},
                                         {"arch", required_argument, NULL, O_ARCH},
                                         {"output", required_argument, NULL, 'o'},
                                         {"rounds", required_argument, NULL, O_ROUNDS},
                                         {"steps", required_argument, NULL, O_STEPS},
                                         {"batch", required_argument, NULL, O_BATCH},
                                         {"lr", required_argument, NULL, O_LR},
                                         {"lr-decay", required_argument, NULL, O_LRD},
                                         {"target-scale", required_argument, NULL, O_SCALE},
                                         {"floor", required_argument, NULL, O_FLOOR},
                                         {"parity", required_argument, NULL, O_PARITY},
                                         {"residual", required_argument, NULL, O_RESIDUAL},
                                         {"lookahead", required_argument, NULL, O_LOOKAHEAD},
                                         {"states", required_argument, NULL, O_STATES},
                                         {"targets", required_argument, NULL, O_TARGETS},
                                         {"start-boards", required_argument, NULL, O_START},
                                         {"domain", required_argument, NULL, O_DOMAIN},
                                         {"start-share", required_argument, NULL, O_STARTSH},
                                         {"start-walk", required_argument, NULL, O_STARTWALK},
                                         {"table", no_argument, NULL, O_TABLE},
                                         {"lr-cosine", no_argument, NULL, O_LRCOS},
                                         {"threads", required_argument, NULL, O_THREADS},
                                         {"blas-threads", required_argument, NULL, O_BLAS},
                                         {"seed", required_argument, NULL, O_SEED},
                                         {"walk-max", required_argument, NULL, O_WALKMAX},
                                         {"update-loss", required_argument, NULL, O_UPLOSS},
                                         {"no-clamp", no_argument, NULL, O_NOCLAMP},
                                         {"integer-targets", no_argument, NULL, O_INTTGT},
                                         {"target-engine", required_argument, NULL, O_TGTENG},
                                         {"boards", required_argument, NULL, O_BOARDS},
                                         {"budget", required_argument, NULL, O_BUDGET},
                                         {"weight", required_argument, NULL, O_WEIGHT},
                                         {"walk", required_argument, NULL, O_WALK},
                                         {"walk-step", required_argument, NULL, O_WALKSTEP},
                                         {"raise", required_argument, NULL, O_RAISE},
                                         {"solved-min", required_argument, NULL, O_SOLVED},
                                         {"buffer", required_argument, NULL, O_BUFFER},
                                         {"log", required_argument, NULL, O_LOG},
                                         {"checkpoint", required_argument, NULL, O_CKPT},
                                         {"force", no_argument, NULL, O_FORCE},
                                         {"resume", required_argument, NULL, O_RESUME},
                                         {"init-from", required_argument, NULL, O_INIT},
                                         {"eval", required_argument, NULL, O_EVAL},
                                         {"eval-every", required_argument, NULL, O_EVALN},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};

/* Integer options: the field they set and their range. */
static int int_option(struct avi_cli *c, int opt, const char *arg)
{
    struct {
        int opt;
        int *p;
        long lo, hi;
        const char *name;
    } t[] = {{O_PUZZLE, &c->puzzle, 3, 1023, "--puzzle"},
             {O_ROUNDS, &c->o.rounds, 0, 100000000, "--rounds"},
             {O_STEPS, &c->o.steps_per_round, 1, 10000000, "--steps"},
             {O_BATCH, &c->o.batch, 2, 1000000, "--batch"},
             {O_THREADS, &c->o.threads, 1, 256, "--threads"},
             {O_BLAS, &c->o.blas_threads, 1, 256, "--blas-threads"},
             {O_WALKMAX, &c->o.walk_max, 0, TRN_AVI_MAX_WALK, "--walk-max"},
             {O_BOARDS, &c->o.boards, 1, 10000000, "--boards"},
             {O_WALK, &c->o.walk, 1, TRN_AVI_MAX_WALK, "--walk"},
             {O_WALKSTEP, &c->o.walk_step, 0, TRN_AVI_MAX_WALK, "--walk-step"},
             {O_EVALN, &c->eval_every, 1, 100000000, "--eval-every"},
             {O_STARTWALK, &c->o.start_walk, 0, TRN_AVI_MAX_WALK, "--start-walk"},
             {O_LOOKAHEAD, &c->o.lookahead, 1, TRN_AVI_MAX_TABLE_LOOKAHEAD, "--lookahead"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (t[i].opt != opt)
            continue;
        long v;
        if (cli_parse_long(arg, t[i].lo, t[i].hi, &v))
            return cli_usage("avi", "%s '%s' is not an integer in %ld..%ld", t[i].name, arg,
                             t[i].lo, t[i].hi);
        *t[i].p = (int)v;
        return 1;
    }
    return 0;
}

/* Real options, each with its allowed range (lo < v <= hi, or lo <= v with incl). */
static int real_option(struct avi_cli *c, int opt, const char *arg)
{
    struct {
        int opt;
        double *p;
        double lo, hi;
        int incl;
        const char *name;
    } t[] = {{O_LR, &c->o.lr, 0, 10, 0, "--lr"},
             {O_LRD, &c->o.lr_decay, 0, 1, 0, "--lr-decay"},
             {O_UPLOSS, &c->o.update_loss, 0, 1e12, 1, "--update-loss"},
             {O_WEIGHT, &c->o.weight, 1, 1e6, 1, "--weight"},
             {O_RAISE, &c->o.raise, 0, 1, 0, "--raise"},
             {O_SOLVED, &c->o.solved_min, 0, 1, 1, "--solved-min"},
             {O_STARTSH, &c->o.start_share, 0, 1, 1, "--start-share"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (t[i].opt != opt)
            continue;
        double v;
        if (cli_parse_double(arg, &v) || !(t[i].incl ? v >= t[i].lo : v > t[i].lo) ||
            !(v <= t[i].hi))
            return cli_usage("avi", "%s '%s' is out of range (%s%g..%g)", t[i].name, arg,
                             t[i].incl ? "" : "above ", t[i].lo, t[i].hi);
        *t[i].p = v;
        return 1;
    }
    return 0;
}

/* --targets bellman | walk | q | q:FILE | distill:FILE */
static int targets_option(struct avi_cli *c, const char *arg)
{
    int q = !strncmp(arg, "q:", 2);
    if ((q && arg[2]) || (!strncmp(arg, "distill:", 8) && arg[8])) {
        c->teacher = arg + (q ? 2 : 8);
        c->o.teacher_q = q;
        return 1;
    }
    if (strcmp(arg, "bellman") && strcmp(arg, "walk") && strcmp(arg, "q"))
        return cli_usage(
            "avi", "--targets '%s' is not bellman, walk, q, q:TEACHER.h5 or distill:TEACHER.h5",
            arg);
    c->o.walk_targets = !strcmp(arg, "walk");
    c->o.teacher_q = !strcmp(arg, "q");
    c->teacher = NULL;
    return 1;
}

/* --states walk | uniform[:share] */
static int states_option(struct avi_cli *c, const char *arg)
{
    double v = 1;
    if (!strcmp(arg, "walk"))
        v = 0;
    else if (strncmp(arg, "uniform", 7) ||
             (arg[7] && (arg[7] != ':' || cli_parse_double(arg + 8, &v) || !(v >= 0 && v <= 1))))
        return cli_usage("avi", "--states '%s' is not walk or uniform[:SHARE] (0..1)", arg);
    c->o.uniform_share = v;
    return 1;
}

static int other_option(struct avi_cli *c, int opt, const char *arg)
{
    uint64_t u;
    char *end;
    switch (opt) {
    case O_METHOD:
        if (strcmp(arg, "davi") && strcmp(arg, "bootstrap"))
            return cli_usage("avi", "--method '%s' is not davi or bootstrap", arg);
        c->o.method = strcmp(arg, "davi") ? TRN_AVI_BOOT : TRN_AVI_DAVI;
        return 1;
    case O_GOAL:
        if (strcmp(arg, "blank-first") && strcmp(arg, "blank-last"))
            return cli_usage("avi", "--goal '%s' is not blank-first or blank-last", arg);
        c->goal = !strcmp(arg, "blank-last");
        return 1;
    case O_SCALE:
        c->o.target_mean = strtod(arg, &end);
        if (end == arg || *end != ',' || !isfinite(c->o.target_mean) ||
            cli_parse_double(end + 1, &c->o.target_std) || !(c->o.target_std > 0))
            return cli_usage("avi", "--target-scale '%s' is not MEAN,STD with STD > 0", arg);
        c->scale_set = 1;
        return 1;
    case O_SEED:
    case O_BUDGET:
    case O_BUFFER:
        if (cli_parse_u64(arg, &u) || (opt != O_SEED && u == 0))
            return cli_usage("avi", "'%s' is not a%s integer", arg,
                             opt == O_SEED ? "n" : " positive");
        *(opt == O_SEED ? &c->o.seed : opt == O_BUDGET ? &c->o.budget : &c->o.buffer_max) = u;
        return 1;
    case O_NOCLAMP:
        c->o.clamp = 0;
        return 1;
    case O_INTTGT:
        c->o.integer_targets = 1;
        return 1;
    case O_TGTENG:
        if (strcmp(arg, "float") && strcmp(arg, "q8"))
            return cli_usage("avi", "--target-engine '%s' is not float or q8", arg);
        c->o.target_q8 = !strcmp(arg, "q8");
        return 1;
    case O_TABLE:
        c->o.table = 1;
        return 1;
    case O_LRCOS:
        c->o.lr_cosine = 1;
        return 1;
    case O_STATES:
        return states_option(c, arg);
    case O_TARGETS:
        return targets_option(c, arg);
    case O_QUIET:
        c->quiet = 1;
        return 1;
    case O_ARCH:
        c->o.arch = arg;
        return 1;
    case 'o':
        c->out = arg;
        return 1;
    case O_FLOOR:
        c->floor = arg;
        return 1;
    case O_PARITY:
        c->parity = arg;
        return 1;
    case O_RESIDUAL:
        c->residual = arg;
        return 1;
    case O_LOG:
        c->log = arg;
        return 1;
    case O_CKPT:
        c->o.checkpoint = arg;
        return 1;
    case O_FORCE:
        c->force = 1;
        return 1;
    case O_RESUME:
        c->o.resume = arg;
        return 1;
    case O_INIT:
        c->o.init = arg;
        return 1;
    case O_EVAL:
        c->eval = arg;
        return 1;
    case O_START:
        c->start = arg;
        return 1;
    case O_DOMAIN:
        c->domain = arg;
        return 1;
    default:
        return 0;
    }
}

/* --puzzle N is the n-puzzle domain of its width (N + 1 a square). */
static int puzzle_spec(const struct avi_cli *c, char *spec, size_t cap)
{
    int w = 2;
    while (w * w - 1 < c->puzzle)
        w++;
    if (w * w - 1 != c->puzzle)
        return cli_usage("avi", "--puzzle %d: N + 1 must be a square (8, 15, 24, 35, ...)",
                         c->puzzle);
    snprintf(spec, cap, "npuzzle:%dx%d%s", w, w, c->goal == 1 ? ":blank-last" : "");
    return 0;
}

/* --domain D, or --puzzle N [--goal G] as the domain npuzzle:WxW[:blank-last]. */
static int open_domain(struct avi_cli *c)
{
    char spec[64];
    int st, rc;
    if (c->puzzle && c->domain)
        return cli_usage("avi", "--domain and --puzzle exclude each other");
    if (c->domain && c->goal >= 0)
        return cli_usage("avi", "--goal goes with --puzzle; a domain names its goal "
                                "(npuzzle:4x4:blank-last)");
    if (!c->puzzle && !c->domain)
        return cli_usage("avi", "--domain D or --puzzle N is required");
    if (c->puzzle && (rc = puzzle_spec(c, spec, sizeof spec)))
        return rc;
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

/* Remember which architecture options were given: --resume refuses them
 * when they describe another network than the checkpoint's. */
static void arch_opt_note(struct avi_cli *c, int opt, const char *arg)
{
    const char *name = opt == CLI_OPT_ACT       ? "--act"
                       : opt == CLI_OPT_BN      ? "--bn"
                       : opt == CLI_OPT_NOBN    ? "--no-bn"
                       : opt == CLI_OPT_DROPOUT ? "--dropout"
                                                : NULL; /* --init: weights, not shape */
    size_t n = strlen(c->arch_opts);
    if (name)
        snprintf(c->arch_opts + n, sizeof c->arch_opts - n, "%s%s%s%s", n ? " " : "", name,
                 arg ? " " : "", arg ? arg : "");
}

static int parse(int argc, char **argv, struct avi_cli *c)
{
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        if (opt == 'h') {
            help(&c->o);
            return -1;
        }
        int r = cli_arch_option("avi", opt, optarg, &c->o.defaults);
        if (r == 1)
            arch_opt_note(c, opt, optarg);
        if (!r)
            r = int_option(c, opt, optarg);
        if (!r)
            r = real_option(c, opt, optarg);
        if (!r)
            r = other_option(c, opt, optarg);
        if (r != 1)
            return r ? r : cli_usage("avi", "unknown option");
    }
    if (optind < argc)
        return cli_usage("avi", "unexpected argument '%s'", argv[optind]);
    return check_args(c);
}

/* ---- per-round output -------------------------------------------------- */

static void csv_header(FILE *f)
{
    fprintf(f,
            "round,steps,samples,loss,target_mean,target_max,floor_share,updated,updates,solved,"
            "boards,budget,walk,buffer,target_seconds,seconds,total_seconds,eval_mae,eval_exact\n");
}

/* MAE and exact share of the rounded network on the --eval states: the
 * network's estimate plus the run's residual (already open, so a large
 * table is not read again every round). */
static void evaluate(struct avi_cli *c, const nn_model *m, double *mae, double *exact)
{
    int st;
    srch_dom_net_opts no = SRCH_DOM_NET_DEFAULTS;
    no.engine = SRCH_DOM_ENGINE_FLOAT;
    no.residual = 0;
    srch_dom_heur *h = srch_dom_heur_net(c->dom, m, "model", &no, &st);
    double *est = malloc(sizeof *est * c->ndstates);
    size_t sb = dom_state_bytes(c->dom);
    *mae = *exact = NAN;
    if (h && est && !srch_dom_heur_estimate(h, c->dstates, c->ndstates, NULL, NULL, NULL, est)) {
        double sa = 0, ex = 0;
        for (size_t i = 0; i < c->ndstates; i++) {
            if (c->o.residual)
                est[i] += dom_heur_eval(c->o.residual, c->dstates + i * sb);
            sa += fabs(est[i] - c->dlen[i]);
            ex += lround(est[i]) == c->dlen[i];
        }
        *mae = sa / (double)c->ndstates;
        *exact = ex / (double)c->ndstates;
    }
    srch_dom_heur_free(h);
    free(est);
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

/* A run killed after a round's line but before the checkpoint that claims
 * the round redoes it on resume: keep the log's lines of earlier rounds
 * only, so every round has exactly one line. Rewritten through a temporary
 * file; on failure the log is left as it was, with a warning. */
static void log_drop_from(struct avi_cli *c, int round)
{
    FILE *in = fopen(c->log, "r"), *out = NULL;
    char part[4200], *line = NULL;
    size_t cap = 0;
    int rc = in ? 0 : hn_fail(HN_ERR_IO, "cannot read it: %s", strerror(errno));
    int first = 1, dropped = 0;
    if (!rc)
        out = hn_part_fopen(c->log, part, sizeof part, &rc);
    while (!rc && getline(&line, &cap, in) > 0) {
        if (!first && atoi(line) >= round) {
            dropped++;
            continue;
        }
        first = 0;
        if (fputs(line, out) < 0)
            rc = hn_fail(HN_ERR_IO, "%s: write error", part);
    }
    free(line);
    if (in)
        fclose(in);
    if (out && (fclose(out) || rc))
        rc = rc ? rc : hn_fail(HN_ERR_IO, "%s: write error", part);
    if (!rc && dropped)
        rc = hn_part_commit(c->log);
    if (out && (rc || !dropped))
        hn_part_discard(c->log);
    if (rc)
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
    dom_instance_rec *in = NULL;
    size_t n = 0, sb = dom_state_bytes(c->dom);
    if (dom_read_instances(c->dom, c->start, cli_dom_parse_error, "avi", &in, &n))
        return cli_fail("avi --start-boards");
    if (!n || n > UINT32_MAX) {
        free(in);
        hn_fail(HN_ERR_FORMAT, "%s: %s", c->start, n ? "more than 2^32 states" : "no states");
        return cli_fail("avi --start-boards");
    }
    if (!(c->starts = malloc(sb * n))) {
        free(in);
        hn_fail(HN_ERR_NOMEM, "%s: out of memory for %zu states", c->start, n);
        return cli_fail("avi --start-boards");
    }
    for (size_t i = 0; i < n; i++)
        memcpy(c->starts + i * sb, in[i].state, sb);
    free(in);
    c->o.start_states = c->starts;
    c->o.nstart = n;
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
    dom_instance_rec *in = NULL;
    size_t n = 0, sb = dom_state_bytes(c->dom);
    if (dom_read_instances(c->dom, c->eval, cli_dom_parse_error, "avi", &in, &n))
        return cli_fail("avi --eval");
    c->dstates = malloc(sb * n);
    c->dlen = malloc(sizeof *c->dlen * n);
    for (size_t i = 0; c->dstates && c->dlen && i < n; i++) {
        if (in[i].length < 0) {
            hn_fail(HN_ERR_FORMAT, "%s:%d: no optimal length (lines must be: id length state)",
                    c->eval, in[i].line);
            free(in);
            return cli_fail("avi --eval");
        }
        memcpy(c->dstates + i * sb, in[i].state, sb);
        c->dlen[i] = in[i].length;
    }
    free(in);
    if (!c->dstates || !c->dlen) {
        hn_fail(HN_ERR_NOMEM, "%s: out of memory", c->eval);
        return cli_fail("avi --eval");
    }
    c->ndstates = n;
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

/* The network the options describe: --arch in full, or the checkpoint's
 * with the hidden-layer settings that --act, --bn/--no-bn, --dropout set. */
static void arch_wanted(const struct avi_cli *c, const struct nn_spec *have, struct nn_spec *want)
{
    const struct nn_layer_defaults *d = &c->o.defaults;
    *want = *have;
    if (c->o.arch) {
        if (nn_spec_parse(c->o.arch, d, want))
            *want = *have; /* check_args parsed it already */
        return;
    }
    for (int i = 0; i < want->n_layers - 1; i++) {
        if (strstr(c->arch_opts, "--act"))
            want->layer[i].act = d->act;
        if (strstr(c->arch_opts, "bn"))
            want->layer[i].bn = d->bn;
        if (strstr(c->arch_opts, "--dropout"))
            want->layer[i].dropout = d->dropout;
    }
}

/* --resume continues the checkpoint's network: architecture options that
 * describe another one are refused, naming both, instead of ignored. */
static int resume_arch_check(const struct avi_cli *c)
{
    if (!c->o.resume || (!c->o.arch && !c->arch_opts[0]))
        return 0;
    int st;
    nn_model *m = nn_model_load(c->o.resume, &st);
    if (!m)
        return 0; /* trn_avi_run reports the damaged or missing checkpoint */
    struct nn_spec want;
    char have_s[512], want_s[512];
    arch_wanted(c, nn_model_spec(m), &want);
    int differ = nn_spec_format(nn_model_spec(m), NULL, have_s, sizeof have_s) ||
                 nn_spec_format(&want, NULL, want_s, sizeof want_s) || strcmp(have_s, want_s);
    nn_model_free(m);
    if (!differ)
        return 0;
    hn_fail(HN_ERR_ARG,
            "%s: the checkpoint's network is %s, but '%s%s%s%s' describes %s; --resume "
            "continues the checkpoint's network (drop those options, or start a new run)",
            c->o.resume, have_s, c->o.arch ? "--arch " : "", c->o.arch ? c->o.arch : "",
            c->o.arch && c->arch_opts[0] ? " " : "", c->arch_opts, want_s);
    return cli_fail("avi");
}

/* --checkpoint F would replace F after the first round: like eval and
 * import, an existing file is replaced only when asked (--force), or when
 * it is the checkpoint this run continues. Checked before any work. */
static int checkpoint_check(const struct avi_cli *c)
{
    struct stat st, rs;
    const char *f = c->o.checkpoint;
    if (!f || c->force || lstat(f, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode)) {
        fprintf(stderr, "heurnet: avi: --checkpoint %s is a folder, not a file\n", f);
        return CLI_EXIT_FAIL;
    }
    if (c->o.resume && stat(c->o.resume, &rs) == 0 && stat(f, &st) == 0 && rs.st_dev == st.st_dev &&
        rs.st_ino == st.st_ino)
        return 0;
    fprintf(stderr,
            "heurnet: avi: --checkpoint %s exists (continue it with --resume %s, or use "
            "--force to replace it)\n",
            f, f);
    return CLI_EXIT_FAIL;
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
    if ((lead && (rc = checkpoint_check(c))) || (rc = resume_arch_check(c)) ||
        (rc = open_inputs(c)))
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
