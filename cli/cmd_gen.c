/* heurnet gen: label states of any domain with their optimal cost into an
 * HDF5 dataset (random walks, uniform states, an instance file, or every
 * state of a small domain), resumable, sharded, and under MPI one shard per
 * rank plus a virtual file. --puzzle N is --domain npuzzle:WxW. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "datagen/dg.h"
#include "domains/dom.h"
#include "search/generic/srch_dom.h"
#include "train/trn_mpi.h"

struct dgen_args {
    const char *heur, *out, *from, *shard, *domain;
    int width, goal; /* --puzzle's board width (0: none), --goal (-1: none) */
    char spec[512];
    dg_dom_gen_opts o;
    int quiet, has_walk;
};

/* --shard i/N */
static int shard_parse(void *field, const char *v)
{
    struct dgen_args *a = field;
    long i, n;
    char buf[64], *slash;
    snprintf(buf, sizeof buf, "%s", v);
    if (!(slash = strchr(buf, '/')) || strlen(v) >= sizeof buf)
        return hn_fail(HN_ERR_ARG, "'%s' is not i/N with 0 <= i < N", v);
    *slash = '\0';
    if (cli_parse_long(buf, 0, 1000000, &i) || cli_parse_long(slash + 1, 1, 1000000, &n) || i >= n)
        return hn_fail(HN_ERR_ARG, "'%s' is not i/N with 0 <= i < N", v);
    a->o.shard_index = (int)i;
    a->o.shard_count = (int)n;
    a->shard = v;
    return 0;
}

/* --walk A-B | K */
static int walk_parse(void *field, const char *v)
{
    struct dgen_args *a = field;
    char lo[32], *dash;
    long x, y;
    snprintf(lo, sizeof lo, "%s", v);
    const char *hi = lo;
    if ((dash = strchr(lo, '-')))
        *dash = '\0', hi = dash + 1;
    if (strlen(v) >= sizeof lo || cli_parse_long(lo, 0, DG_DOM_MAX_WALK, &x) ||
        cli_parse_long(hi, 0, DG_DOM_MAX_WALK, &y) || y < x)
        return hn_fail(HN_ERR_ARG, "'%s' is not K or A-B with 0 <= A <= B <= %d", v,
                       DG_DOM_MAX_WALK);
    a->o.walk_min = (int)x;
    a->o.walk_max = (int)y;
    a->has_walk = 1;
    return 0;
}

#define GA(f) offsetof(struct dgen_args, f)
static const struct cli_opt gen_opts[] = {
    CLI_FN("puzzle", GA(width), cli_puzzle_parse, "N", "the N-puzzle: --domain npuzzle:WxW [15]"),
    CLI_ENUM("goal", GA(goal), "blank-first|blank-last", "with --puzzle: the goal [blank-first]"),
    CLI_STR("domain", GA(domain), "D",
            "npuzzle:4x4, npuzzle:3x4:blank-last, cube3, ./libpancake.so:12, ..."),
    CLI_STR("heuristic", GA(heur), "H",
            "admissible heuristic: lc, pdb:P, max:A,B, ... [8-puzzle lc, 15: pdb:7-8, 24: "
            "pdb:6-6-6-6, cube3 fsst (1.67 GB, built once into the cache), else the domain's "
            "first]"),
    CLI_STR("label", GA(heur), "H", "the same as --heuristic"),
    CLI_OPT_(CLI_OPT_U64, "count", GA(o.count), .letter = 'n', .lo = 1, .arg = "N",
             .help = "sampled states over all shards (required unless --from or --all)"),
    CLI_FN("walk", 0, walk_parse, "A-B|K",
           "random walks of A..B (or K) moves from the goal [n-puzzle up to 5x5: uniform "
           "states; else 1-30]"),
    CLI_FLAG("uniform", GA(o.uniform), 1, "uniformly random states instead of walks"),
    CLI_STR("from", GA(from), "FILE",
            "label the states of an instance file (recorded with its CRC-32) [none]"),
    CLI_FLAG("all", GA(o.all), 1,
             "every state reachable from the goal, exact distances by breadth-first search "
             "(small domains: the 8-puzzle's 181,440)"),
    CLI_FLAG("path-states", GA(o.path_states), 1,
             "also store every state on each optimal path (/source 1)"),
    CLI_U64("seed", GA(o.seed), 0, "S", "random seed"),
    CLI_FN("shard", 0, shard_parse, "i/N",
           "write shard i of N (contiguous blocks of states) [0/1]"),
    CLI_INT("threads", GA(o.threads), 1, 255, "T", "labelling threads [online CPUs]"),
    CLI_U64("max-expanded", GA(o.limits.max_expanded), 0, "N",
            "per state: stop with an error beyond N expansions [none]"),
    CLI_REAL("time-limit", GA(o.limits.time_limit), 0, 1e12, CLI_OPT_OPEN, "S",
             "per state: stop with an error beyond S seconds [none]"),
    CLI_FLAG("force", GA(o.overwrite), 1, "start afresh (drop FILE.part, replace FILE)"),
    CLI_U64("stop-after", GA(o.stop_after), 1, "N",
            "(testing) stop as if interrupted after N states [none]"),
    CLI_FLAG("quiet", GA(quiet), 1, "no progress on stderr"),
    CLI_STRL('o', "output", GA(out), "FILE", "the dataset to write [required]"),
    CLI_END};
static const struct cli_opt_cmd gen_cmd = {
    .cmd = "gen",
    .usage = "gen [--puzzle N | --domain D] [options] -n N -o FILE.h5\n"
             "Label states with their optimal cost (IDA* with an admissible heuristic, or\n"
             "breadth-first search with --all) into a dataset (docs/formats.md). FILE.part\n"
             "holds the rows until every state is labelled; rerunning the same command\n"
             "continues it.\n\n",
    .opts = gen_opts,
#ifdef HEURNET_MPI
    .epilog = "Under mpirun each rank writes FILE-stem.shardR-of-K.h5 and rank 0 writes FILE\n"
              "as a virtual dataset joining them.\n",
#endif
};

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
    if (a->domain && (a->width || a->goal >= 0))
        return cli_usage("gen", "--domain excludes --puzzle and --goal (npuzzle:4x4:blank-last "
                                "names both)");
    if (a->domain) {
        snprintf(a->spec, sizeof a->spec, "%s", a->domain);
        return 0;
    }
    int w = a->width ? a->width : 4;
    snprintf(a->spec, sizeof a->spec, "npuzzle:%dx%d%s", w, w, a->goal == 1 ? ":blank-last" : "");
    return 0;
}

static int dgen_parse(int argc, char **argv, struct dgen_args *a)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    memset(a, 0, sizeof *a);
    a->goal = -1;
    a->o.seed = 1;
    a->o.walk_min = 1;
    a->o.walk_max = 30;
    a->o.shard_count = 1;
    a->o.threads = ncpu > 0 ? (ncpu < 255 ? (int)ncpu : 255) : 1;
    int nargs, rc = cli_opt_parse(&gen_cmd, a, argc, argv, &nargs);
    if (!rc)
        rc = dgen_check(a);
    return rc ? rc : dgen_spec(a);
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

/* One rank's shard under mpirun: only rank 0 shows progress. */
static int dgen_shard(void *ctx, const char *path, int index, int count)
{
    struct dgen_args *a = ctx;
    a->o.shard_index = index;
    a->o.shard_count = count;
    return dgen_run(a, path, a->quiet || index != 0);
}

static int dgen_start(struct dgen_args *a)
{
    cli_log_init(a->quiet);
    hn_stop_install();
    if (!trn_mpi_launched())
        return dgen_run(a, a->out, a->quiet);
    if (a->shard)
        return cli_usage("gen", "--shard is set by mpirun (one shard per rank)");
    int worst, rank, size, st = dg_dom_gen_ranks(a->out, dgen_shard, a, &worst, &rank, &size);
    if (rank || worst)
        return worst;
    if (st)
        return cli_fail("gen");
    printf("file=%s shards=%d virtual=1\n", a->out, size);
    return CLI_EXIT_OK;
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
