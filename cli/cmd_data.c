/* heurnet data: look at labelled datasets (info: settings, counts, cost
 * histogram; also of the old n-puzzle layout) and join shards (merge: copy
 * or HDF5 virtual dataset). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "common/hn.h"
#include "datagen/dg.h"

struct merge_cli {
    const char *out;
    int virt;
};

static const struct cli_opt merge_opts[] = {
    CLI_STRL('o', "output", offsetof(struct merge_cli, out), "FILE", "merged file [required]"),
    CLI_FLAG("virtual", offsetof(struct merge_cli, virt), 1,
             "write an HDF5 virtual dataset referring to the shards instead of copying their "
             "rows [copy]"),
    CLI_END};
static const struct cli_opt_cmd merge_cmd = {
    .cmd = "data merge",
    .usage = "data info FILE.h5\n"
             "       heurnet data merge -o OUT.h5 [--virtual] SHARD.h5...\n\n"
             "info    settings, row counts by source and the cost histogram (text)\n"
             "merge   join the shards of one run (any order) into OUT.h5; they must agree\n"
             "        on every setting, be complete and cover the run without gap (datasets\n"
             "        of the old n-puzzle layout, /boards, are read but not merged)\n",
    .opts = merge_opts,
    .max_args = 1 << 20};

static void usage(FILE *f)
{
    struct merge_cli m = {0};
    cli_opt_help(f, &merge_cmd, &m);
}

static void print_info(const char *path, const dg_ds_info *i)
{
    printf("file=%s\n", path);
    printf("puzzle=%d width=%d cells=%d goal=%s\n", i->cells - 1, i->width, i->cells, i->goal);
    printf("heuristic=%s solver=%s source=%s seed=%llu", i->heuristic, i->solver, i->source,
           (unsigned long long)i->seed);
    if (i->walk_length)
        printf(" walk_length=%d", i->walk_length);
    if (i->from[0])
        printf(" from=%s from_crc32=%08x", i->from, i->from_crc);
    printf("\nshard=%d/%d first_index=%llu total_count=%llu merged=%d virtual=%d\n", i->shard_index,
           i->shard_count, (unsigned long long)i->first_index, (unsigned long long)i->total_count,
           i->merged, i->is_virtual);
    printf("rows=%llu boards=%llu count=%llu complete=%d\n", (unsigned long long)i->committed,
           (unsigned long long)i->done, (unsigned long long)i->count, i->complete);
    printf("version=%s revision=%s\n", i->version, i->revision);
}

static void print_dom_info(const char *path, const dg_dom_info *i)
{
    printf("file=%s\n", path);
    printf("domain=%s state_bytes=%d inputs=%d encoding=%s\n", i->domain, i->state_bytes, i->inputs,
           i->encoding[0] ? i->encoding : "none");
    printf("heuristic=%s solver=%s source=%s seed=%llu walk=%d-%d path_states=%d", i->heuristic,
           i->solver, i->source, (unsigned long long)i->seed, i->walk_min, i->walk_max,
           i->path_states);
    if (i->from[0])
        printf(" from=%s from_crc32=%08llx", i->from, (unsigned long long)i->from_crc);
    printf("\nshard=%d/%d first_index=%llu total_count=%llu merged=%d virtual=%d\n", i->shard_index,
           i->shard_count, (unsigned long long)i->first_index, (unsigned long long)i->total_count,
           i->merged, i->is_virtual);
    printf("rows=%llu states=%llu count=%llu complete=%d\n", (unsigned long long)i->committed,
           (unsigned long long)i->done, (unsigned long long)i->count, i->complete);
    printf("version=%s revision=%s\n", i->version, i->revision);
}

/* The cost histogram of both dataset kinds. */
static void print_histogram(const uint64_t *hist, unsigned cap, unsigned mx, uint64_t n)
{
    double sum = 0;
    uint64_t peak = 0;
    unsigned lo = cap;
    for (unsigned c = 0; c < cap; c++) {
        sum += (double)c * (double)hist[c];
        peak = hist[c] > peak ? hist[c] : peak;
        if (hist[c] && c < lo)
            lo = c;
    }
    printf("cost_min=%u cost_max=%u cost_mean=%.3f\n", n ? lo : 0, mx, n ? sum / (double)n : 0.0);
    printf("# cost\trows\tpercent\n");
    for (unsigned c = n ? lo : 1; c <= mx && c < cap && n; c++) {
        int bar = peak ? (int)(40.0 * (double)hist[c] / (double)peak + 0.5) : 0;
        printf("%u\t%llu\t%.3f\t%.*s\n", c, (unsigned long long)hist[c],
               100.0 * (double)hist[c] / (double)n, bar,
               "########################################");
    }
}

/* Rows per /source value (enum dg_source). */
static void print_sources(const uint64_t *src)
{
    printf("rows_random=%llu rows_path=%llu rows_random_walk=%llu rows_file=%llu rows_all=%llu\n",
           (unsigned long long)src[0], (unsigned long long)src[1], (unsigned long long)src[2],
           (unsigned long long)src[3], (unsigned long long)src[4]);
}

/* A domain dataset (heurnet gen --domain): its settings and costs. */
static int data_info_dom(const char *path)
{
    enum { CAP = 65536 };
    dg_dom_info info;
    uint64_t *hist = calloc(CAP, sizeof *hist), src[DG_DOM_SOURCES];
    unsigned mx = 0;
    if (!hist)
        return cli_fail("data info");
    if (dg_dom_histogram(path, &info, hist, CAP, src, &mx)) {
        free(hist);
        return cli_fail("data info");
    }
    print_dom_info(path, &info);
    print_sources(src);
    print_histogram(hist, CAP, mx, info.committed);
    free(hist);
    return CLI_EXIT_OK;
}

static int data_info(const char *path)
{
    if (dg_dom_is_dataset(path))
        return data_info_dom(path);
    dg_ds_info info;
    if (dg_ds_info_read(path, &info))
        return cli_fail("data info");
    enum { CAP = 1024 };
    uint64_t *hist = calloc(CAP, sizeof *hist), src[5];
    unsigned mx = 0;
    if (!hist || dg_ds_histogram(path, hist, CAP, src, &mx)) {
        free(hist);
        return hist ? cli_fail("data info") : CLI_EXIT_FAIL;
    }
    print_info(path, &info);
    print_sources(src);
    print_histogram(hist, CAP, mx, info.committed);
    free(hist);
    return CLI_EXIT_OK;
}

/* Shards of one run (heurnet gen --shard, or one per rank under mpirun). */
static int merge_dom(const char *out, const char *const *shards, int n, int virt)
{
    dg_dom_info info;
    if (dg_dom_merge(out, shards, n, virt) || dg_dom_info_read(out, &info))
        return cli_fail("data merge");
    printf("file=%s shards=%d rows=%llu states=%llu virtual=%d\n", out, n,
           (unsigned long long)info.committed, (unsigned long long)info.done, virt);
    return CLI_EXIT_OK;
}

static int data_merge(int argc, char **argv)
{
    struct merge_cli m = {0};
    int n, rc = cli_opt_parse(&merge_cmd, &m, argc, argv, &n);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (!m.out)
        return cli_usage("data merge", "-o OUT.h5 is required");
    if (!n)
        return cli_usage("data merge", "no shard files given");
    for (int i = 1; i <= n; i++)
        if (!strcmp(argv[i], m.out))
            return cli_usage("data merge", "the output %s is also an input", m.out);
    return merge_dom(m.out, (const char *const *)(argv + 1), n, m.virt);
}

int cmd_data(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage("data", "expected a subcommand: info or merge");
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    cli_log_init(0);
    if (!strcmp(sub, "info")) {
        if (argc == 3 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
            usage(stdout);
            return CLI_EXIT_OK;
        }
        if (argc != 3)
            return cli_usage("data", "info takes exactly one FILE");
        return data_info(argv[2]);
    }
    if (!strcmp(sub, "merge"))
        return data_merge(argc - 1, argv + 1);
    return cli_usage("data", "unknown subcommand '%s' (info, merge)", sub);
}
