/* heurnet pdb: build a domain's pattern database into the cache folder
 * with its tables' statistics, and describe a table file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/hn.h"
#include "domains/dom.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: heurnet pdb build --domain D [--partition P] [options]\n"
            "       heurnet pdb info FILE\n\n"
            "build: the pattern database pdb:P of domain D, built by breadth-first search\n"
            "into the cache folder ($HEURNET_DATA, else ~/.cache/heurnet), or found there;\n"
            "one file per table (an n-puzzle partition: one per tile group, serving both\n"
            "goal layouts). Prints each table's statistics.\n"
            "  --domain D        npuzzle:4x4, npuzzle:6x6, cube3, a plug-in (heurnet domain info\n"
            "                    lists a domain's patterns)\n"
            "  --puzzle N        the same as --domain npuzzle:WxW for N = W*W-1 (8, 15, 24, ...)\n"
            "                    [npuzzle:4x4]\n"
            "  --partition P     n-puzzle: 7-8, 6-6-3, 5-5-5 (15), 6-6-6-6 (24), 8 (8), group\n"
            "                    sizes (5-5-5-5-5-5-5) or tile groups (1.2.3/4.5.6...); other\n"
            "                    domains: a pattern [the domain's default pdb: heuristic]\n"
            "  --threads T       threads for the layer scan, 1..64 [number of CPUs, at most 8]\n"
            "  -q, --quiet       no progress\n"
            "  -h, --help        this help\n\n"
            "info: a table file's domain, table, entries and value statistics, the CRC checked.\n");
}

/* The partition a build without --partition makes: the first pdb: the
 * domain lists among its heuristics (the n-puzzle's default partition). */
static int default_partition(const dom *d, char *buf, size_t cap)
{
    const char *list = dom_facts_of(d)->heuristics, *p = list ? strstr(list, "pdb:") : NULL;
    if (!p)
        return -1;
    size_t n = strcspn(p + 4, ",");
    snprintf(buf, cap, "%.*s", (int)(n < cap ? n : cap - 1), p + 4);
    return 0;
}

/* One line per table: where it is kept, what it covers, its values. */
static void print_tables(const dom_heur *h)
{
    dom_pdb_table t[64];
    char dir[4096] = "";
    dom_cache_dir(dir, sizeof dir);
    int n = dom_heur_pdb_tables(h, t, 64);
    for (int i = 0; i < n; i++) {
        uint64_t reached = 0, sum = 0;
        int maxv = 0;
        for (uint64_t j = 0; j < t[i].entries; j++)
            if (t[i].table[j] != 255) {
                reached++;
                sum += t[i].table[j];
                maxv = t[i].table[j] > maxv ? t[i].table[j] : maxv;
            }
        printf("table=%d %s entries=%llu reached=%llu max=%d mean=%.3f file=%s/%s\n", i + 1,
               t[i].what, (unsigned long long)t[i].entries, (unsigned long long)reached, maxv,
               reached ? (double)sum / (double)reached : 0.0, dir, t[i].file);
    }
}

typedef struct build_args {
    char domain[128];
    const char *partition;
    long threads;
    int quiet;
} build_args;

static int parse_build(int argc, char **argv, build_args *a)
{
    static const struct option opts[] = {{"domain", required_argument, 0, 'd'},
                                         {"puzzle", required_argument, 0, 'p'},
                                         {"partition", required_argument, 0, 'P'},
                                         {"threads", required_argument, 0, 't'},
                                         {"output", required_argument, 0, 'o'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'd':
            snprintf(a->domain, sizeof a->domain, "%s", optarg);
            break;
        case 'p': {
            long n = 0, side = 2;
            int bad = cli_parse_long(optarg, 3, 63, &n);
            while (!bad && side * side - 1 < n)
                side++;
            if (bad || side * side - 1 != n)
                return cli_usage("pdb build",
                                 "--puzzle must be W*W-1 (8, 15, 24, ..., 63), not '%s'", optarg);
            snprintf(a->domain, sizeof a->domain, "npuzzle:%ldx%ld", side, side);
            break;
        }
        case 'P':
            a->partition = optarg;
            break;
        case 't':
            if (cli_parse_long(optarg, 1, 64, &a->threads))
                return cli_usage("pdb build", "--threads must be 1..64, not '%s'", optarg);
            break;
        case 'o':
            return cli_usage("pdb build",
                             "-o is gone: tables are kept in the cache folder, one file per "
                             "table; set HEURNET_DATA=DIR to choose the folder");
        case 'q':
            a->quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return CLI_EXIT_OK;
        default:
            return cli_usage("pdb build", "bad option");
        }
    }
    if (optind < argc)
        return cli_usage("pdb build", "unexpected argument '%s'", argv[optind]);
    if (!a->domain[0])
        snprintf(a->domain, sizeof a->domain, "npuzzle:4x4");
    return -1;
}

static int pdb_build(int argc, char **argv)
{
    build_args a = {.threads = 0};
    int rc = parse_build(argc, argv, &a), st;
    if (rc >= 0)
        return rc;
    dom *d = dom_open(a.domain, &st);
    if (!d)
        return cli_usage("pdb build", "--domain: %s", hn_errmsg());
    char part[200], name[220];
    if (!a.partition && default_partition(d, part, sizeof part)) {
        dom_free(d);
        return cli_usage("pdb build",
                         "--domain %s lists no pdb: heuristic, so it needs --partition "
                         "(heurnet domain info lists its patterns)",
                         a.domain);
    }
    snprintf(name, sizeof name, "pdb:%s", a.partition ? a.partition : part);
    dom_set_build_threads((int)a.threads);
    cli_log_init(a.quiet);
    hn_stop_install();
    if (!a.quiet)
        fprintf(stderr, "heurnet %s: pdb build --domain %s --partition %s --threads %d\n",
                hn_version(), dom_spec(d), name + 4, dom_build_threads());
    double t0 = hn_now();
    dom_heur *h = dom_heur_open(d, name, &st);
    if (!h) {
        dom_free(d);
        return st == HN_ERR_ARG ? cli_usage("pdb build", "%s", hn_errmsg()) : cli_fail("pdb build");
    }
    double build_s = hn_now() - t0;
    printf("domain=%s heuristic=%s\n", dom_spec(d), name);
    print_tables(h);
    printf("# build_seconds=%.1f threads=%d peak_rss_mb=%.0f\n", build_s, dom_build_threads(),
           (double)hn_peak_rss_kb() / 1024.0);
    dom_heur_free(h);
    dom_free(d);
    return CLI_EXIT_OK;
}

static int pdb_info(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (argc != 2)
        return cli_usage("pdb info", "expected one PDB file");
    dom_pdb_file_info in;
    double t0 = hn_now();
    if (dom_pdb_file_read(argv[1], &in))
        return cli_fail(NULL);
    printf("file=%s format=%s domain=%s table=%s entries=%llu reached=%llu max=%d mean=%.3f\n",
           argv[1], in.format, in.domain, in.table, (unsigned long long)in.entries,
           (unsigned long long)in.reached, in.max,
           in.reached ? (double)in.sum / (double)in.reached : 0.0);
    printf("# load_seconds=%.2f\n", hn_now() - t0);
    return CLI_EXIT_OK;
}

int cmd_pdb(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (!strcmp(argv[1], "build"))
        return pdb_build(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info"))
        return pdb_info(argc - 1, argv + 1);
    return cli_usage("pdb", "unknown subcommand '%s' (build, info)", argv[1]);
}
