/* heurnet gen: label states of any domain with their optimal cost into an
 * HDF5 dataset (random walks, uniform states, an instance file, or every
 * state of a small domain), resumable, sharded, and under MPI one shard per
 * rank plus a virtual file. --puzzle N is --domain npuzzle:WxW. */
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
#include "common/hn.h"
#include "datagen/dg.h"
#include "domains/dom.h"
#include "search/generic/srch_dom.h"

struct dgen_args {
    const char *heur, *out, *from, *shard, *domain, *goal;
    long puzzle;
    char spec[512];
    dg_dom_gen_opts o;
    int quiet, has_walk;
};

/* W for the (W*W - 1)-puzzle, else 0. */
static int square_side(long n)
{
    for (int w = 2; w <= 8; w++)
        if ((long)w * w - 1 == n)
            return w;
    return 0;
}

static void dgen_usage(FILE *f)
{
    fprintf(f, "usage: heurnet gen [--puzzle N | --domain D] [options] -n N -o FILE.h5\n"
               "Label states with their optimal cost (IDA* with an admissible heuristic, or\n"
               "breadth-first search with --all) into a dataset (docs/formats.md). FILE.part\n"
               "holds the rows until every state is labelled; rerunning the same command\n"
               "continues it.\n\n"
               "  --puzzle N            the N-puzzle: --domain npuzzle:WxW [15]\n"
               "  --goal LAYOUT         with --puzzle: blank-first | blank-last [blank-first]\n"
               "  --domain D            npuzzle:4x4, npuzzle:3x4:blank-last, cube3,\n"
               "                        ./libpancake.so:12, ...\n"
               "  --heuristic H         admissible heuristic (or --label H): lc, pdb:P, max:A,B,\n"
               "                        ... [8-puzzle lc, 15: pdb:7-8, 24: pdb:6-6-6-6, cube3\n"
               "                        fsst (1.67 GB, built once into the cache), else the\n"
               "                        domain's first]\n"
               "  -n, --count N         sampled states over all shards (required unless\n"
               "                        --from or --all)\n"
               "  --walk A-B | K        random walks of A..B (or K) moves from the goal\n"
               "                        [n-puzzle up to 5x5: uniform states; else 1-30]\n"
               "  --uniform             uniformly random states instead of walks\n"
               "  --from FILE           label the states of an instance file (recorded with\n"
               "                        its CRC-32)\n"
               "  --all                 every state reachable from the goal, exact distances by\n"
               "                        breadth-first search (small domains: the 8-puzzle's\n"
               "                        181,440) [off]\n"
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
#endif

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

/* getopt codes of the long options without a short form */
enum {
    D_DOMAIN = 300,
    D_PUZZLE,
    D_GOAL,
    D_HEUR,
    D_WALK,
    D_UNIFORM,
    D_FROM,
    D_ALL,
    D_PATH,
    D_SEED,
    D_SHARD,
    D_THR,
    D_MAXEXP,
    D_TIME,
    D_FORCE,
    D_STOP,
    D_QUIET
};

static int dgen_option(int c, const char *arg, struct dgen_args *a)
{
    dg_dom_gen_opts *o = &a->o;
    long v;
    switch (c) {
    case D_DOMAIN:
        a->domain = arg;
        return 0;
    case D_PUZZLE:
        return cli_parse_long(arg, 3, 63, &a->puzzle) || !square_side(a->puzzle)
                   ? cli_usage("gen",
                               "--puzzle must be 8, 15, 24, 35, ... (N + 1 a square), not "
                               "'%s'",
                               arg)
                   : 0;
    case D_GOAL:
        a->goal = arg;
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
    case D_FROM:
        a->from = arg;
        return 0;
    case D_ALL:
        o->all = 1;
        return 0;
    case D_SHARD:
        a->shard = arg;
        return parse_shard(arg, &o->shard_index, &o->shard_count)
                   ? cli_usage("gen", "--shard must be i/N with 0 <= i < N, not '%s'", arg)
                   : 0;
    case D_FORCE:
        o->overwrite = 1;
        return 0;
    case D_STOP:
        return cli_parse_u64(arg, &o->stop_after) || o->stop_after == 0
                   ? cli_usage("gen", "--stop-after must be a positive integer")
                   : 0;
    case D_QUIET:
        a->quiet = 1;
        return 0;
    case 'o':
        a->out = arg;
        return 0;
    case 'h':
        dgen_usage(stdout);
        return -1;
    default:
        return cli_usage("gen", "unknown option");
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

static int dgen_spec(struct dgen_args *a)
{
    if (a->domain && (a->puzzle || a->goal))
        return cli_usage("gen", "--domain excludes --puzzle and --goal (npuzzle:4x4:blank-last "
                                "names both)");
    if (a->domain) {
        snprintf(a->spec, sizeof a->spec, "%s", a->domain);
        return 0;
    }
    const char *goal = a->goal ? a->goal : "blank-first";
    if (strcmp(goal, "blank-first") && strcmp(goal, "blank-last"))
        return cli_usage("gen", "--goal must be blank-first or blank-last, not '%s'", goal);
    int w = square_side(a->puzzle ? a->puzzle : 15);
    snprintf(a->spec, sizeof a->spec, "npuzzle:%dx%d%s", w, w,
             strcmp(goal, "blank-last") ? "" : ":blank-last");
    return 0;
}

static int dgen_parse(int argc, char **argv, struct dgen_args *a)
{
    static const struct option opts[] = {{"domain", required_argument, 0, D_DOMAIN},
                                         {"puzzle", required_argument, 0, D_PUZZLE},
                                         {"goal", required_argument, 0, D_GOAL},
                                         {"heuristic", required_argument, 0, D_HEUR},
                                         {"label", required_argument, 0, D_HEUR},
                                         {"count", required_argument, 0, 'n'},
                                         {"walk", required_argument, 0, D_WALK},
                                         {"uniform", no_argument, 0, D_UNIFORM},
                                         {"from", required_argument, 0, D_FROM},
                                         {"all", no_argument, 0, D_ALL},
                                         {"path-states", no_argument, 0, D_PATH},
                                         {"seed", required_argument, 0, D_SEED},
                                         {"shard", required_argument, 0, D_SHARD},
                                         {"threads", required_argument, 0, D_THR},
                                         {"max-expanded", required_argument, 0, D_MAXEXP},
                                         {"time-limit", required_argument, 0, D_TIME},
                                         {"force", no_argument, 0, D_FORCE},
                                         {"stop-after", required_argument, 0, D_STOP},
                                         {"quiet", no_argument, 0, D_QUIET},
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
    int rc2 = dgen_check(a);
    return rc2 ? rc2 : dgen_spec(a);
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

/* The heuristic by name, opened once so a bad name is a usage error before
 * any file is touched. */
static int dgen_heur(struct dgen_args *a, srch_dom_heur **probe)
{
    static char first[128];
    a->o.heur_name = a->heur ? a->heur : dg_dom_gen_default_heur(a->o.d, first, sizeof first);
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

int cmd_gen(int argc, char **argv)
{
    struct dgen_args a;
    int rc = dgen_parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    int st;
    dom *d = dom_open(a.spec, &st);
    if (!d)
        return cli_usage("gen", "--domain %s: %s", a.spec, hn_errmsg());
    a.o.d = d;
    if (!a.has_walk && !a.o.all && !a.from && !a.o.uniform)
        a.o.uniform = dg_dom_gen_default_uniform(d);
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
