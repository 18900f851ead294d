/* heurnet gen: label boards with their optimal distance into an HDF5 dataset
 * (random boards, random walks, an instance file, or all 8-puzzle states),
 * resumable, sharded, and under MPI one shard per rank plus a virtual file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef HEURNET_MPI
#include <mpi.h>
#endif

#include "cli/cli.h"
#include "cli/dom_cli.h"
#include "common/hn.h"
#include "datagen/dg.h"
#include "domains/dom.h"
#include "search/generic/srch_dom.h"
#include "search/srch.h"

struct gen_args {
    long puzzle;
    const char *goal, *label, *from, *out, *shard;
    uint64_t count, seed, stop_after, max_expanded;
    long threads, walk;
    int path_states, all, quiet, force, has_count;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: heurnet gen [options] -o FILE.h5\n"
               "Label boards with their optimal distance (IDA*) into an HDF5 dataset.\n"
               "Rerunning the same command continues an unfinished file.\n\n"
               "  --puzzle 8|15|24      board size [15]\n"
               "  --domain D            npuzzle:3x3, npuzzle:4x4:blank-last, ... (as --puzzle\n"
               "                        and --goal); other domains: heurnet gen --domain D --help\n"
               "  --goal LAYOUT         blank-first | blank-last [blank-first]\n"
               "  -n, --count N         boards over all shards [required; not with --from/--all]\n"
               "  --seed S              random seed [1]\n"
               "  --label H             solver heuristic (or --heuristic H): pdb:7-8, pdb:6-6-3,\n"
               "                        pdb:5-5-5, pdb:6-6-6-6, lc, manhattan, max:A,B\n"
               "                        [8: lc, 15: pdb:7-8, 24: pdb:6-6-6-6]\n"
               "  --threads T           labelling threads [online CPUs]\n"
               "  --path-states         also store each board on the optimal path with its\n"
               "                        remaining distance (/source = 1 marks them) [off]\n"
               "  --walk L              random walks of L moves instead of uniform boards [off]\n"
               "  --from FILE           label the boards of an instance file [none]\n"
               "  --all                 all 181,440 8-puzzle states, exact (BFS) [off]\n"
               "  --shard i/N           write shard i of N (contiguous blocks of boards) [0/1]\n"
               "  --max-expanded N      stop with an error when a board needs more [0 = none]\n"
               "  --force               start afresh even if FILE exists [continue it]\n"
               "  --stop-after N        (testing) stop as if interrupted after N boards [off]\n"
               "  --quiet               no progress on stderr\n"
               "  -o, --output FILE     the dataset to write (required)\n"
               "  -h, --help            this help\n"
#ifdef HEURNET_MPI
               "Under mpirun each rank writes FILE-stem.shardR-of-K.h5 and rank 0 writes FILE\n"
               "as a virtual dataset joining them.\n"
#endif
    );
}

static int parse_shard(const char *s, int *index, int *count)
{
    long i, n;
    char a[32], b[32];
    const char *slash = strchr(s, '/');
    if (!slash || (size_t)(slash - s) >= sizeof a || strlen(slash + 1) >= sizeof b)
        return -1;
    memcpy(a, s, (size_t)(slash - s));
    a[slash - s] = '\0';
    snprintf(b, sizeof b, "%s", slash + 1);
    if (cli_parse_long(a, 0, 1000000, &i) || cli_parse_long(b, 1, 1000000, &n) || i >= n)
        return -1;
    *index = (int)i;
    *count = (int)n;
    return 0;
}

/* getopt codes of the long options without a short form */
enum {
    O_PUZ = 256,
    O_GOAL,
    O_COUNT,
    O_SEED,
    O_LABEL,
    O_THR,
    O_PATH,
    O_WALK,
    O_FROM,
    O_ALL,
    O_SHARD,
    O_MAXEXP,
    O_FORCE,
    O_STOP,
    O_QUIET
};

/* One option of parse_args: 0, or what parse_args returns for it. */
static int gen_option(int c, const char *arg, struct gen_args *a)
{
    switch (c) {
    case O_PUZ:
        if (cli_parse_long(arg, 0, 100, &a->puzzle) || !srch_np_puzzle_width(a->puzzle))
            return cli_usage("gen", "--puzzle must be 8, 15 or 24, not '%s'", arg);
        break;
    case O_GOAL:
        a->goal = arg;
        break;
    case O_COUNT:
        if (cli_parse_u64(arg, &a->count) || a->count == 0)
            return cli_usage("gen", "--count must be a positive integer, not '%s'", arg);
        a->has_count = 1;
        break;
    case O_SEED:
        if (cli_parse_u64(arg, &a->seed))
            return cli_usage("gen", "--seed must be a non-negative integer, not '%s'", arg);
        break;
    case O_LABEL:
        a->label = arg;
        break;
    case O_THR:
        if (cli_parse_long(arg, 1, 1024, &a->threads))
            return cli_usage("gen", "--threads must be 1..1024, not '%s'", arg);
        break;
    case O_PATH:
        a->path_states = 1;
        break;
    case O_WALK:
        if (cli_parse_long(arg, 1, SRCH_NP_MAX_PATH, &a->walk))
            return cli_usage("gen", "--walk must be 1..%d moves, not '%s'", SRCH_NP_MAX_PATH, arg);
        break;
    case O_FROM:
        a->from = arg;
        break;
    case O_ALL:
        a->all = 1;
        break;
    case O_SHARD:
        a->shard = arg;
        break;
    case O_MAXEXP:
        if (cli_parse_u64(arg, &a->max_expanded))
            return cli_usage("gen", "--max-expanded must be an integer, not '%s'", arg);
        break;
    case O_FORCE:
        a->force = 1;
        break;
    case O_STOP:
        if (cli_parse_u64(arg, &a->stop_after) || a->stop_after == 0)
            return cli_usage("gen", "--stop-after must be a positive integer");
        break;
    case O_QUIET:
        a->quiet = 1;
        break;
    case 'o':
        a->out = arg;
        break;
    case 'h':
        usage(stdout);
        return -1;
    default:
        return cli_usage("gen", "unknown option");
    }
    return 0;
}

/* The options that exclude or need each other, once all are read. */
static int check_args(const struct gen_args *a)
{
    if (!a->out)
        return cli_usage("gen", "-o FILE is required");
    if (a->all + !!a->from + (a->walk > 0) > 1)
        return cli_usage("gen", "--all, --from and --walk exclude each other");
    if ((a->all || a->from) && a->has_count)
        return cli_usage("gen", "--count does not go with --%s (the boards are given)",
                         a->all ? "all" : "from");
    if (!a->all && !a->from && !a->has_count)
        return cli_usage("gen", "--count N is required");
    if (a->all && (a->label || a->path_states))
        return cli_usage("gen", "--all labels by breadth-first search: drop --label/--path-states");
    if (a->all && a->puzzle != 8)
        return cli_usage("gen", "--all is for the 8-puzzle (181,440 states) only");
    return 0;
}

static int parse_args(int argc, char **argv, struct gen_args *a)
{
    static const struct option opts[] = {{"puzzle", required_argument, 0, O_PUZ},
                                         {"goal", required_argument, 0, O_GOAL},
                                         {"count", required_argument, 0, O_COUNT},
                                         {"seed", required_argument, 0, O_SEED},
                                         {"label", required_argument, 0, O_LABEL},
                                         {"heuristic", required_argument, 0, O_LABEL},
                                         {"threads", required_argument, 0, O_THR},
                                         {"path-states", no_argument, 0, O_PATH},
                                         {"walk", required_argument, 0, O_WALK},
                                         {"from", required_argument, 0, O_FROM},
                                         {"all", no_argument, 0, O_ALL},
                                         {"shard", required_argument, 0, O_SHARD},
                                         {"max-expanded", required_argument, 0, O_MAXEXP},
                                         {"force", no_argument, 0, O_FORCE},
                                         {"stop-after", required_argument, 0, O_STOP},
                                         {"quiet", no_argument, 0, O_QUIET},
                                         {"output", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *a = (struct gen_args){
        .puzzle = 15, .goal = "blank-first", .seed = 1, .threads = ncpu > 0 ? ncpu : 1};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:o:h", opts, NULL)) != -1) {
        int st = gen_option(c == 'n' ? O_COUNT : c, optarg, a);
        if (st)
            return st;
    }
    if (optind < argc)
        return cli_usage("gen", "unexpected argument '%s'", argv[optind]);
    return check_args(a);
}

static const char *default_label(long puzzle)
{
    return puzzle == 8 ? "lc" : puzzle == 15 ? "pdb:7-8" : "pdb:6-6-6-6";
}

/* The reporter is made on the first report: only the library knows how many
 * boards remain after a resume. */
struct progress_ctx {
    hn_progress *p;
    int quiet;
};

static void on_progress(uint64_t done, uint64_t total, const char *extra, void *user)
{
    struct progress_ctx *c = user;
    if (!c->p)
        c->p = hn_progress_new("gen", total, c->quiet);
    hn_progress_update(c->p, done, extra);
}

static void on_parse_error(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "heurnet gen: %s\n", msg);
}

/* Instances of --from; prints every bad line. 0 or an exit code. */
static int load_from(const struct gen_args *a, dg_gen_opts *o, srch_np_instance **inst)
{
    size_t n = 0;
    int rc = srch_np_parse_file(a->from, o->width, o->goal, on_parse_error, NULL, inst, &n);
    if (rc)
        return cli_fail("gen");
    if (n == 0) {
        fprintf(stderr, "heurnet gen: %s: no boards in the file\n", a->from);
        return CLI_EXIT_FAIL;
    }
    if (dg_file_crc32(a->from, &o->from_crc))
        return cli_fail("gen");
    o->instances = *inst;
    o->ninstances = n;
    o->from = a->from;
    return 0;
}

static int report(const char *path, int rc, const dg_gen_stats *st)
{
    if (rc && rc != HN_ERR_INTERRUPTED)
        return cli_fail("gen");
    double rate = st->seconds > 0 ? (double)st->boards / st->seconds : 0.0;
    printf("file=%s boards=%llu rows=%llu resumed_from=%llu seconds=%.2f boards_per_s=%.1f "
           "expanded_mean=%.1f complete=%d\n",
           path, (unsigned long long)st->boards, (unsigned long long)st->rows,
           (unsigned long long)st->resumed_from, st->seconds, rate,
           st->boards ? (double)st->expanded / (double)st->boards : 0.0, st->complete);
    fflush(stdout);
    if (rc == HN_ERR_INTERRUPTED) {
        fprintf(stderr,
                "heurnet gen: %s\nheurnet gen: the file is valid; rerun the same command to "
                "continue\n",
                hn_errmsg());
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* Fill the library options from the arguments (heuristic excluded). */
static int setup_opts(const struct gen_args *a, dg_gen_opts *o)
{
    memset(o, 0, sizeof *o);
    o->width = srch_np_puzzle_width(a->puzzle);
    if (srch_np_goal_parse(a->goal, &o->goal))
        return cli_usage("gen", "--goal must be blank-first or blank-last, not '%s'", a->goal);
    o->count = a->count;
    o->seed = a->seed;
    o->threads = (int)a->threads;
    o->path_states = a->path_states;
    o->walk_length = (int)a->walk;
    o->shard_count = 1;
    if (a->shard && parse_shard(a->shard, &o->shard_index, &o->shard_count))
        return cli_usage("gen", "--shard must be i/N with 0 <= i < N, not '%s'", a->shard);
    o->limits.max_expanded = a->max_expanded;
    o->overwrite = a->force;
    o->stop_after = a->stop_after;
    o->heur_name = a->label ? a->label : default_label(a->puzzle);
    return 0;
}

static int run(const struct gen_args *a, dg_gen_opts *o, const char *path)
{
    srch_np_heur *h = NULL;
    srch_np_instance *inst = NULL;
    int rc = 0;
    if (a->from)
        rc = load_from(a, o, &inst);
    if (!rc && !a->all)
        rc = cli_heur_get(o->heur_name, o->width, o->goal, a->quiet, &h);
    if (rc) {
        free(inst);
        return rc;
    }
    o->heur = h;
    if (!a->quiet)
        fprintf(stderr,
                "heurnet gen: %ld-puzzle %s, label %s, %s%s, seed %llu, shard %d/%d, %d threads "
                "-> %s (heurnet %s, %s)\n",
                a->puzzle, a->goal, a->all ? "bfs" : o->heur_name,
                a->all    ? "all states"
                : a->from ? a->from
                : a->walk ? "random walks"
                          : "random boards",
                a->path_states ? " + path states" : "", (unsigned long long)a->seed, o->shard_index,
                o->shard_count, o->threads, path, hn_version(), hn_revision());
    struct progress_ctx pc = {NULL, a->quiet};
    o->progress = on_progress;
    o->user = &pc;
    dg_gen_stats st;
    int lib = a->all ? dg_gen_all(path, o, &st) : dg_gen_run(path, o, &st);
    hn_progress_finish(pc.p);
    rc = report(path, lib, &st);
    srch_np_heur_free(h);
    free(inst);
    return rc;
}

#ifdef HEURNET_MPI
static int under_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

/* Wait for the other ranks without spinning: a rank that finished its shard
 * first would otherwise busy-poll in MPI_Allreduce and take CPU from the
 * ranks still labelling (on a shared or oversubscribed machine). */
static void wait_for_ranks(void)
{
    MPI_Request rq;
    int done = 0;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &rq) != MPI_SUCCESS)
        return; /* the allreduce that follows still synchronises */
    while (!done && MPI_Test(&rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
}

/* One run of a shard: ctx, its file, shard index and count, quiet. */
typedef int (*shard_fn)(void *ctx, const char *path, int index, int count, int quiet);
typedef int (*merge_fn)(const char *out, const char *const *shards, int n, int virtual_ds);

/* Rank 0 joins FILE-stem.shardR-of-K.h5 in a virtual dataset at out. */
static int merge_shards(const char *out, const char *stem, int size, merge_fn merge)
{
    int rc = CLI_EXIT_OK;
    char **names = calloc((size_t)size, sizeof *names);
    for (int r = 0; names && r < size; r++)
        if ((names[r] = malloc(4096)))
            snprintf(names[r], 4096, "%s.shard%d-of-%d.h5", stem, r, size);
    if (!names || merge(out, (const char *const *)names, size, 1))
        rc = cli_fail("gen");
    else
        printf("file=%s shards=%d virtual=1\n", out, size);
    for (int r = 0; names && r < size; r++)
        free(names[r]);
    free(names);
    return rc;
}

/* One shard per rank; rank 0 joins them in a virtual dataset at out. */
static int run_mpi(const char *out, int quiet, shard_fn run_shard, merge_fn merge, void *ctx)
{
    int rank = 0, size = 1;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char stem[4000], path[4096];
    snprintf(stem, sizeof stem, "%s", out);
    size_t len = strlen(stem);
    if (len > 3 && !strcmp(stem + len - 3, ".h5"))
        stem[len - 3] = '\0';
    snprintf(path, sizeof path, "%s.shard%d-of-%d.h5", stem, rank, size);
    int rc = run_shard(ctx, path, rank, size, quiet || rank != 0), worst = 0;
    wait_for_ranks();
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && worst == 0)
        worst = merge_shards(out, stem, size, merge);
    MPI_Finalize();
    return rank == 0 ? worst : rc;
}

/* The n-puzzle run of one shard (run_mpi's shard_fn). */
struct np_ctx {
    const struct gen_args *a;
    dg_gen_opts *o;
};

static int np_shard(void *ctx, const char *path, int index, int count, int quiet)
{
    struct np_ctx *c = ctx;
    struct gen_args ar = *c->a;
    ar.quiet = quiet;
    c->o->shard_index = index;
    c->o->shard_count = count;
    return run(&ar, c->o, path);
}
#endif

static int gen_npuzzle(int argc, char **argv)
{
    struct gen_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    dg_gen_opts o;
    if ((rc = setup_opts(&a, &o)))
        return rc;
    cli_log_init(a.quiet);
    hn_stop_install();
#ifdef HEURNET_MPI
    if (under_mpirun()) {
        if (a.shard)
            return cli_usage("gen", "--shard is set by mpirun (one shard per rank)");
        struct np_ctx c = {&a, &o};
        return run_mpi(a.out, a.quiet, np_shard, dg_merge, &c);
    }
#endif
    return run(&a, &o, a.out);
}

/* ---- any domain: optimal labels by IDA* with an admissible heuristic ---- */

struct dgen_args {
    const char *heur, *out, *from, *shard;
    dg_dom_gen_opts o;
    int quiet, has_walk;
};

static void dgen_usage(FILE *f)
{
    fprintf(f, "usage: heurnet gen --domain D [options] -n N -o FILE.h5\n"
               "Label states of any domain with their optimal cost (IDA* with an admissible\n"
               "heuristic) into a domain dataset (docs/formats.md). Square n-puzzles of 3x3..5x5\n"
               "take the n-puzzle options instead (heurnet gen --help).\n"
               "FILE.part holds the rows until every state is labelled; rerunning the same\n"
               "command continues it.\n\n"
               "  --domain D            npuzzle:3x4, cube3, ./libpancake.so:12, ... (required)\n"
               "  --heuristic H         admissible heuristic (lc, pdb:P, max:A,B, ...)\n"
               "                        [the domain's first]\n"
               "  -n, --count N         sampled states over all shards (required unless\n"
               "                        --from or --all)\n"
               "  --walk A-B | K        random walks of A..B (or K) moves from the goal\n"
               "                        [n-puzzle up to 5x5: uniform states; else 1-30]\n"
               "  --uniform             uniformly random states instead of walks\n"
               "  --from FILE           label the states of an instance file (recorded with\n"
               "                        its CRC-32)\n"
               "  --all                 every state reachable from the goal, exact distances by\n"
               "                        breadth-first search (small domains) [off]\n"
               "  --path-states         also store every state on each optimal path (/source 1)\n"
               "  --seed S              random seed [1]\n"
               "  --shard i/N           write shard i of N (contiguous blocks of states) [0/1]\n"
               "  --threads T           labelling threads [online CPUs]\n"
               "  --max-expanded N      per state: stop with an error beyond N expansions [none]\n"
               "  --time-limit S        per state: stop with an error beyond S seconds [none]\n"
               "  --force               start afresh (drop FILE.part, replace FILE)\n"
               "  --stop-after N        (testing) stop as if interrupted after N states\n"
               "  --quiet               no progress on stderr\n"
               "  -o, --output FILE     the dataset to write (required)\n"
#ifdef HEURNET_MPI
               "Under mpirun each rank writes FILE-stem.shardR-of-K.h5 and rank 0 writes FILE\n"
               "as a virtual dataset joining them.\n"
#endif
    );
}

static int dgen_walk(const char *arg, dg_dom_gen_opts *o)
{
    char lo[32], *dash;
    long a, b;
    if (strlen(arg) >= sizeof lo)
        return -1;
    strcpy(lo, arg);
    const char *hi = lo;
    if ((dash = strchr(lo, '-')))
        *dash = '\0', hi = dash + 1;
    if (cli_parse_long(lo, 0, DG_DOM_MAX_WALK, &a) || cli_parse_long(hi, 0, DG_DOM_MAX_WALK, &b) ||
        b < a)
        return -1;
    o->walk_min = (int)a;
    o->walk_max = (int)b;
    return 0;
}

enum { D_DOMAIN = 300, D_HEUR, D_WALK, D_UNIFORM, D_PATH, D_SEED, D_THR, D_MAXEXP, D_TIME };

static int dgen_option(int c, const char *arg, struct dgen_args *a)
{
    dg_dom_gen_opts *o = &a->o;
    long v;
    switch (c) {
    case D_DOMAIN: /* opened by the caller */
        return 0;
    case D_HEUR:
        a->heur = arg;
        return 0;
    case 'n':
        return cli_parse_u64(arg, &o->count) || o->count == 0
                   ? cli_usage("gen", "-n must be a positive integer, not '%s'", arg)
                   : 0;
    case D_WALK:
        a->has_walk = 1;
        return dgen_walk(arg, o) ? cli_usage("gen",
                                             "--walk '%s' is not K or A-B with 0 <= A <= "
                                             "B <= %d",
                                             arg, DG_DOM_MAX_WALK)
                                 : 0;
    case D_UNIFORM:
        o->uniform = 1;
        return 0;
    case D_PATH:
        o->path_states = 1;
        return 0;
    case D_SEED:
        return cli_parse_u64(arg, &o->seed)
                   ? cli_usage("gen", "--seed must be a non-negative integer, not '%s'", arg)
                   : 0;
    case D_THR:
        if (cli_parse_long(arg, 1, 255, &v))
            return cli_usage("gen", "--threads must be 1..255, not '%s'", arg);
        o->threads = (int)v;
        return 0;
    case D_MAXEXP:
        return cli_parse_u64(arg, &o->limits.max_expanded)
                   ? cli_usage("gen", "--max-expanded must be an integer, not '%s'", arg)
                   : 0;
    case D_TIME:
        return cli_parse_double(arg, &o->limits.time_limit) || !(o->limits.time_limit > 0)
                   ? cli_usage("gen", "--time-limit must be a positive number, not '%s'", arg)
                   : 0;
    case O_FROM:
        a->from = arg;
        return 0;
    case O_ALL:
        o->all = 1;
        return 0;
    case O_SHARD:
        a->shard = arg;
        return parse_shard(arg, &o->shard_index, &o->shard_count)
                   ? cli_usage("gen", "--shard must be i/N with 0 <= i < N, not '%s'", arg)
                   : 0;
    case O_FORCE:
        o->overwrite = 1;
        return 0;
    case O_STOP:
        return cli_parse_u64(arg, &o->stop_after) || o->stop_after == 0
                   ? cli_usage("gen", "--stop-after must be a positive integer")
                   : 0;
    case O_QUIET:
        a->quiet = 1;
        return 0;
    case 'o':
        a->out = arg;
        return 0;
    case 'h':
        dgen_usage(stdout);
        return -1;
    default:
        return cli_usage("gen", "unknown option (on a domain: see heurnet gen --domain D --help)");
    }
}

/* The options that exclude or need each other, once all are read. */
static int dgen_check(const struct dgen_args *a)
{
    const dg_dom_gen_opts *o = &a->o;
    if (!a->out)
        return cli_usage("gen", "-o FILE is required");
    if (o->all + !!a->from + o->uniform + a->has_walk > 1)
        return cli_usage("gen", "--all, --from, --walk and --uniform exclude each other");
    if ((o->all || a->from) && o->count)
        return cli_usage("gen", "-n does not go with --%s (the states are given)",
                         o->all ? "all" : "from");
    if (!o->all && !a->from && !o->count)
        return cli_usage("gen", "-n N (states to label) is required");
    if (o->all && (a->heur || o->path_states))
        return cli_usage("gen", "--all labels by breadth-first search: drop --heuristic and "
                                "--path-states");
    return 0;
}

static int dgen_parse(int argc, char **argv, struct dgen_args *a)
{
    static const struct option opts[] = {{"domain", required_argument, 0, D_DOMAIN},
                                         {"heuristic", required_argument, 0, D_HEUR},
                                         {"label", required_argument, 0, D_HEUR},
                                         {"count", required_argument, 0, 'n'},
                                         {"walk", required_argument, 0, D_WALK},
                                         {"uniform", no_argument, 0, D_UNIFORM},
                                         {"from", required_argument, 0, O_FROM},
                                         {"all", no_argument, 0, O_ALL},
                                         {"path-states", no_argument, 0, D_PATH},
                                         {"seed", required_argument, 0, D_SEED},
                                         {"shard", required_argument, 0, O_SHARD},
                                         {"threads", required_argument, 0, D_THR},
                                         {"max-expanded", required_argument, 0, D_MAXEXP},
                                         {"time-limit", required_argument, 0, D_TIME},
                                         {"force", no_argument, 0, O_FORCE},
                                         {"stop-after", required_argument, 0, O_STOP},
                                         {"quiet", no_argument, 0, O_QUIET},
                                         {"output", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    memset(a, 0, sizeof *a);
    a->o.seed = 1;
    a->o.walk_min = 1;
    a->o.walk_max = 30;
    a->o.shard_count = 1;
    a->o.threads = ncpu > 0 ? (ncpu < 255 ? (int)ncpu : 255) : 1;
    int c, rc;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:o:h", opts, NULL)) != -1)
        if ((rc = dgen_option(c, optarg, a)))
            return rc;
    if (optind < argc)
        return cli_usage("gen", "unexpected argument '%s'", argv[optind]);
    return dgen_check(a);
}

static int dgen_report(const char *path, int rc, const dg_dom_gen_stats *st)
{
    if (rc && rc != HN_ERR_INTERRUPTED) {
        cli_fail("gen");
        fprintf(stderr, "heurnet gen: %s is not written%s\n", path,
                st->rows ? "; the committed rows stay in its .part file" : "");
        return rc == HN_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
    }
    printf("file=%s states=%llu rows=%llu resumed_from=%llu seconds=%.2f states_per_s=%.1f "
           "expanded_mean=%.1f complete=%d\n",
           path, (unsigned long long)st->states, (unsigned long long)st->rows,
           (unsigned long long)st->resumed_from, st->seconds,
           st->seconds > 0 ? (double)st->states / st->seconds : 0.0,
           st->states ? (double)st->expanded / (double)st->states : 0.0, st->complete);
    fflush(stdout);
    if (rc == HN_ERR_INTERRUPTED) {
        fprintf(stderr, "heurnet gen: %s\nheurnet gen: rerun the same command to continue\n",
                hn_errmsg());
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* --from: the file's states (every bad line printed) and its CRC-32. */
static int dgen_from(struct dgen_args *a, dom_instance_rec **recs)
{
    size_t n = 0;
    if (dom_read_instances(a->o.d, a->from, on_parse_error, NULL, recs, &n) ||
        dg_file_crc32(a->from, &a->o.from_crc))
        return cli_fail("gen");
    if (n == 0) {
        fprintf(stderr, "heurnet gen: %s: no states in the file\n", a->from);
        return CLI_EXIT_FAIL;
    }
    a->o.instances = *recs;
    a->o.ninstances = n;
    a->o.from = a->from;
    return 0;
}

/* The n-puzzle's boards up to 5x5 are labelled from uniform states (as the
 * published datasets are); other domains default to short walks, since a
 * uniform cube or 6x6 board is beyond IDA*. */
static int default_uniform(const dom *d)
{
    return !strncmp(dom_spec(d), "npuzzle:", 8) && dom_state_bytes(d) <= 26 &&
           dom_facts_of(d)->has_uniform;
}

/* The heuristic by name (the domain's first by default), opened once so a
 * bad name is a usage error before any file is touched. */
static int dgen_heur(struct dgen_args *a, srch_dom_heur **probe)
{
    const char *heurs = dom_facts_of(a->o.d)->heuristics;
    static char first[128];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(heurs ? heurs : "", ","),
             heurs ? heurs : "");
    a->o.heur_name = a->heur ? a->heur : first;
    if (a->o.all)
        return 0;
    if (!a->o.heur_name[0])
        return cli_usage("gen", "%s has no heuristic of its own: name one with --heuristic",
                         dom_spec(a->o.d));
    int st;
    if (!(*probe = srch_dom_heur_adm(a->o.d, a->o.heur_name, &st)))
        return cli_usage("gen", "--heuristic %s: %s", a->o.heur_name, hn_errmsg());
    a->o.heur = *probe;
    return 0;
}

static int dgen_run(struct dgen_args *a, const char *path, int quiet)
{
    const dg_dom_gen_opts *o = &a->o;
    if (!quiet)
        fprintf(stderr,
                "heurnet gen: %s, label %s, %s%s, seed %llu, shard %d/%d, %d threads -> %s "
                "(heurnet %s, %s)\n",
                dom_spec(o->d), o->all ? "bfs" : o->heur_name,
                o->all       ? "all states"
                : a->from    ? a->from
                : o->uniform ? "uniform states"
                             : "random walks",
                o->path_states ? " + path states" : "", (unsigned long long)o->seed, o->shard_index,
                o->shard_count, o->threads, path, hn_version(), hn_revision());
    struct progress_ctx pc = {NULL, quiet};
    a->o.progress = on_progress;
    a->o.user = &pc;
    dg_dom_gen_stats s;
    int rc = dg_dom_gen_run(path, &a->o, &s);
    hn_progress_finish(pc.p);
    return dgen_report(path, rc, &s);
}

#ifdef HEURNET_MPI
static int dgen_shard(void *ctx, const char *path, int index, int count, int quiet)
{
    struct dgen_args *a = ctx;
    a->o.shard_index = index;
    a->o.shard_count = count;
    return dgen_run(a, path, quiet);
}
#endif

static int dgen_start(struct dgen_args *a)
{
    cli_log_init(a->quiet);
    hn_stop_install();
#ifdef HEURNET_MPI
    if (under_mpirun()) {
        if (a->shard)
            return cli_usage("gen", "--shard is set by mpirun (one shard per rank)");
        return run_mpi(a->out, a->quiet, dgen_shard, dg_dom_merge, a);
    }
#endif
    return dgen_run(a, a->out, a->quiet);
}

static int gen_domain(const char *spec, int argc, char **argv)
{
    struct dgen_args a;
    int rc = dgen_parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    int st;
    dom *d = dom_open(spec, &st);
    if (!d)
        return cli_usage("gen", "--domain %s: %s", spec, hn_errmsg());
    a.o.d = d;
    if (!a.has_walk && !a.o.all && !a.from && !a.o.uniform)
        a.o.uniform = default_uniform(d);
    srch_dom_heur *probe = NULL;
    dom_instance_rec *recs = NULL;
    rc = dgen_heur(&a, &probe);
    if (!rc && a.from)
        rc = dgen_from(&a, &recs);
    if (!rc)
        rc = dgen_start(&a);
    srch_dom_heur_free(probe);
    free(recs);
    dom_free(d);
    return rc;
}

/* --domain: a square n-puzzle up to 5x5 is --puzzle N --goal G on the
 * specialised path; every other domain goes through gen_domain. */
int cmd_gen(int argc, char **argv)
{
    char spec[512];
    int rc = cli_dom_spec("gen", argc, argv, spec, sizeof spec), nc;
    if (rc || !spec[0])
        return rc ? rc : gen_npuzzle(argc, argv);
    char **nv = malloc(sizeof *nv * ((size_t)argc + 6));
    if (!nv)
        return CLI_EXIT_FAIL;
    if (cli_dom_specialised(spec, argc, argv, nv, &nc))
        rc = gen_npuzzle(nc, nv);
    else
        rc = gen_domain(spec, argc, argv);
    free(nv);
    return rc;
}
