/* heurnet pdb: build a domain's pattern database into the cache folder
 * with its tables' statistics, and describe a table file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "domains/dom.h"

typedef struct build_args {
    const char *domain, *partition, *output;
    int width, threads, quiet;
} build_args;

#define BA(f) offsetof(build_args, f)
static const struct cli_opt build_opts[] = {
    CLI_STR("domain", BA(domain), "D",
            "npuzzle:4x4, npuzzle:6x6, cube3, a plug-in (heurnet domain info lists a domain's "
            "patterns)"),
    CLI_FN("puzzle", BA(width), cli_puzzle_parse, "N",
           "the same as --domain npuzzle:WxW for N = W*W-1 (8, 15, 24, ...) [npuzzle:4x4]"),
    CLI_STR("partition", BA(partition), "P",
            "n-puzzle: 7-8, 6-6-3, 5-5-5 (15), 6-6-6-6 (24), 8 (8), group sizes "
            "(5-5-5-5-5-5-5) or tile groups (1.2.3/4.5.6...); other domains: a pattern [the "
            "domain's default pdb: heuristic]"),
    CLI_INT("threads", BA(threads), 1, 64, "T",
            "threads for the layer scan [number of CPUs, at most 8]"),
    CLI_STRL('o', "output", BA(output), "F", "gone: tables are kept in the cache folder"),
    CLI_FLAGL('q', "quiet", BA(quiet), 1, "no progress"),
    CLI_END};
static const struct cli_opt_cmd build_cmd = {
    .cmd = "pdb build",
    .usage = "pdb build --domain D [--partition P] [options]\n"
             "       heurnet pdb info FILE\n\n"
             "build: the pattern database pdb:P of domain D, built by breadth-first search\n"
             "into the cache folder ($HEURNET_DATA, else ~/.cache/heurnet), or found there;\n"
             "one file per table (an n-puzzle partition: one per tile group, serving both\n"
             "goal layouts). Prints each table's statistics.\n",
    .opts = build_opts,
    .epilog = "info: a table file's domain, table, entries and value statistics, the CRC "
              "checked.\n"};

static void usage(FILE *out)
{
    build_args a = {0};
    cli_opt_help(out, &build_cmd, &a);
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

static int parse_build(int argc, char **argv, build_args *a, char *spec, size_t cap)
{
    int nargs, rc = cli_opt_parse(&build_cmd, a, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (a->output)
        return cli_usage("pdb build", "-o is gone: tables are kept in the cache folder, one file "
                                      "per table; set HEURNET_DATA=DIR to choose the folder");
    if (a->domain)
        snprintf(spec, cap, "%s", a->domain);
    else
        snprintf(spec, cap, "npuzzle:%dx%d", a->width ? a->width : 4, a->width ? a->width : 4);
    return -1;
}

static int pdb_build(int argc, char **argv)
{
    build_args a = {0};
    char spec[1100];
    int rc = parse_build(argc, argv, &a, spec, sizeof spec), st;
    if (rc >= 0)
        return rc;
    dom *d = dom_open(spec, &st);
    if (!d)
        return cli_usage("pdb build", "--domain: %s", hn_errmsg());
    char part[200], name[220];
    if (!a.partition && default_partition(d, part, sizeof part)) {
        dom_free(d);
        return cli_usage("pdb build",
                         "--domain %s lists no pdb: heuristic, so it needs --partition "
                         "(heurnet domain info lists its patterns)",
                         spec);
    }
    snprintf(name, sizeof name, "pdb:%s", a.partition ? a.partition : part);
    dom_set_build_threads(a.threads);
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
