/* heurnet pdb: build a pattern database into a file or the cache, and
 * describe an existing one. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "domains/dom.h"
#include "solve/pdb_cache.h"
#include "common/hn.h"
#include "search/srch.h"

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: heurnet pdb build [options]\n"
        "       heurnet pdb info FILE\n\n"
        "build: blank-aware additive pattern database for the blank-first goal\n"
        "(blank-last boards are looked up through the 180-degree conversion).\n"
        "  --puzzle N        8, 15 or 24 [15]\n"
        "  --domain D        npuzzle:3x3..5x5 (as --puzzle), or any domain with patterns:\n"
        "                    builds its pdb:PARTITION into the cache (npuzzle:6x6 5-5-5-5-5-5-5,\n"
        "                    cube3 corners; heurnet domain info lists them)\n"
        "  --partition P     15: 7-8, 6-6-3, 5-5-5; 24: 6-6-6-6; 8: 8 (exact) [7-8 / 6-6-6-6 / 8]\n"
        "  -o, --output FILE output file [the cache: $HEURNET_DATA, else ~/.cache/heurnet]\n"
        "  --threads T       threads for the layer scan, 1..64 (with --domain too)\n"
        "                    [number of CPUs, at most 8]\n"
        "  -q, --quiet       no progress\n"
        "  -h, --help        this help\n\n"
        "info: puzzle, partition, entries and value statistics per pattern; for a table of\n"
        "the domain path's cache (one file per pattern or tile group, magic HNDOMPDB or\n"
        "HNNPPDB2) its domain, pattern, entries and value statistics, the CRC checked.\n");
}

static const char *default_partition(int width)
{
    return width == 3 ? "8" : width == 4 ? "7-8" : "6-6-6-6";
}

static void print_stats(const char *path, srch_np_pdb *p)
{
    const srch_np_partition *part = srch_np_pdb_partition(p);
    printf("file=%s puzzle=%d partition=%s goal=blank-first patterns=%d\n", path,
           part->width * part->width - 1, part->name, part->npatterns);
    for (int i = 0; i < part->npatterns; i++) {
        uint64_t n, reached = 0, sum = 0;
        const uint8_t *t = srch_np_pdb_table(p, i, &n);
        int maxv = 0;
        for (uint64_t j = 0; j < n; j++)
            if (t[j] != 255) {
                reached++;
                sum += t[j];
                if (t[j] > maxv)
                    maxv = t[j];
            }
        printf("pattern=%d tiles=", i + 1);
        for (int j = 0; j < part->size[i]; j++)
            printf("%s%d", j ? "," : "", part->tiles[i][j]);
        printf(" entries=%llu reached=%llu max=%d mean=%.3f\n", (unsigned long long)n,
               (unsigned long long)reached, maxv, reached ? (double)sum / (double)reached : 0.0);
    }
}

static int pdb_build(int argc, char **argv)
{
    static const struct option opts[] = {{"puzzle", required_argument, 0, 'p'},
                                         {"partition", required_argument, 0, 'P'},
                                         {"output", required_argument, 0, 'o'},
                                         {"threads", required_argument, 0, 't'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    long puzzle = 15, threads = sysconf(_SC_NPROCESSORS_ONLN);
    const char *partition = NULL, *out = NULL;
    int quiet = 0, c;
    if (threads < 1 || threads > 8)
        threads = threads < 1 ? 1 : 8;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (cli_parse_long(optarg, 8, 24, &puzzle) || !srch_np_puzzle_width(puzzle))
                return cli_usage("pdb build", "--puzzle must be 8, 15 or 24, not '%s'", optarg);
            break;
        case 'P':
            partition = optarg;
            break;
        case 'o':
            out = optarg;
            break;
        case 't':
            if (cli_parse_long(optarg, 1, 64, &threads))
                return cli_usage("pdb build", "--threads must be 1..64, not '%s'", optarg);
            break;
        case 'q':
            quiet = 1;
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
    int width = srch_np_puzzle_width(puzzle);
    if (!partition)
        partition = default_partition(width);
    srch_np_partition part;
    if (srch_np_partition_get(partition, width, &part))
        return cli_usage("pdb build", "%s", hn_errmsg());
    char path[4300];
    if (out) {
        snprintf(path, sizeof path, "%s", out);
    } else {
        char dir[4096], name[128];
        if (cli_pdb_dir(dir, sizeof dir))
            return CLI_EXIT_FAIL;
        srch_np_pdb_file_name(&part, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
    }
    cli_log_init(quiet);
    hn_stop_install();
    if (!quiet)
        fprintf(stderr, "heurnet %s: pdb build --puzzle %ld --partition %s --threads %ld -> %s\n",
                hn_version(), puzzle, partition, threads, path);
    double t0 = hn_now();
    srch_np_pdb *p;
    if (cli_pdb_build(&part, (int)threads, quiet, &p))
        return CLI_EXIT_FAIL;
    double build_s = hn_now() - t0;
    if (srch_np_pdb_save(p, path)) {
        srch_np_pdb_free(p);
        return cli_fail("pdb build");
    }
    double total_s = hn_now() - t0;
    print_stats(path, p);
    printf("# build_seconds=%.1f save_seconds=%.1f threads=%ld peak_rss_mb=%.0f\n", build_s,
           total_s - build_s, threads, (double)hn_peak_rss_kb() / 1024.0);
    srch_np_pdb_free(p);
    return CLI_EXIT_OK;
}

/* 1 when path starts with the n-puzzle path's magic (HNPDB001 or HNPDBRAW). */
static int np_format(const char *path)
{
    char magic[8] = "";
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return n == sizeof magic && (!memcmp(magic, "HNPDB001", 8) || !memcmp(magic, "HNPDBRAW", 8));
}

/* A table of the domain path's cache (HNNPPDB2, HNDOMPDB): checked whole. */
static int domain_info(const char *path)
{
    dom_pdb_file_info in;
    double t0 = hn_now();
    if (dom_pdb_file_read(path, &in))
        return cli_fail(NULL);
    printf("file=%s format=%s domain=%s table=%s entries=%llu reached=%llu max=%d mean=%.3f\n",
           path, in.format, in.domain, in.table, (unsigned long long)in.entries,
           (unsigned long long)in.reached, in.max,
           in.reached ? (double)in.sum / (double)in.reached : 0.0);
    printf("# load_seconds=%.2f\n", hn_now() - t0);
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
    if (!np_format(argv[1]))
        return domain_info(argv[1]);
    int st;
    double t0 = hn_now();
    srch_np_pdb *p = srch_np_pdb_load(argv[1], NULL, &st);
    if (!p)
        return cli_fail(NULL);
    double load_s = hn_now() - t0;
    print_stats(argv[1], p);
    printf("# load_seconds=%.2f\n", load_s);
    srch_np_pdb_free(p);
    return CLI_EXIT_OK;
}

/* pdb build --domain D --partition P on a domain past the specialised
 * n-puzzle: the domain's "pdb:P" (its own or the core's over its pattern),
 * built into the cache or found there. */
static int pdb_build_domain(const char *spec, const char *partition, const char *threads)
{
    int st;
    char name[300];
    long nt = 0;
    if (threads && cli_parse_long(threads, 1, 64, &nt))
        return cli_usage("pdb build", "--threads must be 1..64, not '%s'", threads);
    dom_set_build_threads((int)nt);
    if (!partition)
        return cli_usage("pdb",
                         "build --domain needs --partition (heurnet domain info lists them)");
    dom *d = dom_open(spec, &st);
    if (!d) {
        fprintf(stderr, "heurnet pdb: --domain: %s\n", hn_errmsg());
        return CLI_EXIT_USAGE;
    }
    cli_log_init(0);
    hn_stop_install();
    snprintf(name, sizeof name, "pdb:%s", partition);
    double t0 = hn_now();
    dom_heur *h = dom_heur_open(d, name, &st);
    if (h)
        printf("domain=%s heuristic=%s threads=%d seconds=%.1f\n", dom_spec(d), name,
               dom_build_threads(), hn_now() - t0);
    else
        fprintf(stderr, "heurnet pdb: %s\n", hn_errmsg());
    dom_heur_free(h);
    dom_free(d);
    return h ? CLI_EXIT_OK : st == HN_ERR_ARG ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
}

/* build: --domain names the puzzle (a square n-puzzle up to 5x5: the
 * n-puzzle builder, --puzzle N) or any other domain. */
static int pdb_build_any(int argc, char **argv)
{
    const char *spec = NULL, *partition = NULL, *threads = NULL;
    int at = -1;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--domain"))
            spec = argv[i + 1], at = i;
        else if (!strcmp(argv[i], "--partition"))
            partition = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            threads = argv[i + 1];
    }
    if (!spec)
        return pdb_build(argc, argv);
    int w = 0, h = 0;
    static char puzzle[16];
    if (sscanf(spec, "npuzzle:%dx%d", &w, &h) == 2 && w == h && w >= 3 && w <= 5) {
        snprintf(puzzle, sizeof puzzle, "%d", w * w - 1); /* tables serve both goals */
        argv[at] = "--puzzle";
        argv[at + 1] = puzzle;
        return pdb_build(argc, argv);
    }
    return pdb_build_domain(spec, partition, threads);
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
        return pdb_build_any(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info"))
        return pdb_info(argc - 1, argv + 1);
    return cli_usage("pdb", "unknown subcommand '%s' (build, info)", argv[1]);
}
