/* heurnet emp ab-stats: the statistics of an A/B run of `emp solve` arms
 * over seeds (scripts/ab_emp_place.sh), computed by train/ablate_ab.c, as
 * one Markdown table. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "train/ablate.h"

/* One table row: the arm's runs and spread, and its comparison with the base. */
static void print_line(const struct trn_abl_ab_line *l, void *user)
{
    (void)user;
    printf("| %s | %s | %d | %.2f | %.2f | %.2f |", l->inst, l->arm, l->s.n, l->s.mean, l->s.sd,
           l->s.se);
    if (!l->compared)
        printf(" | | |\n");
    else
        printf(" %+.2f | %.3g | %.3g |\n", l->diff, l->paired_p, l->welch_p);
}

static const struct cli_opt ab_opts[] = {
    CLI_STR("base", 0, "ARM", "the arm the others are compared with"), CLI_END};
static const struct cli_opt_cmd ab_cmd = {
    .cmd = "emp ab-stats",
    .usage = "emp ab-stats [--base ARM] RESULTS\n\n"
             "RESULTS: lines `INSTANCE ARM SEED VALUE` (# comments). Prints per instance\n"
             "and arm the runs, mean, sd and standard error, and against the base arm\n"
             "the mean difference, the paired t-test p-value (pairs by seed) and\n"
             "Welch's t-test p-value (two-sided) as a Markdown table.\n\n",
    .opts = ab_opts,
    .max_args = 1};

int cmd_emp_ab_stats(int argc, char **argv)
{
    const char *base = "off";
    int st, nargs, rc = cli_opt_parse(&ab_cmd, &base, argc, argv, &nargs);
    if (rc)
        return rc < 0 ? CLI_EXIT_OK : rc;
    if (nargs != 1)
        return cli_usage("emp ab-stats", "expected one RESULTS file");
    trn_abl_ab *ab = trn_abl_ab_read(argv[1], &st);
    if (!ab)
        return cli_fail(st == HN_ERR_IO ? NULL : "emp ab-stats");
    printf("| instance | arm | runs | mean | sd | se | diff vs %s | paired p | Welch p |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
           base);
    st = trn_abl_ab_compare(ab, base, print_line, NULL);
    trn_abl_ab_free(ab);
    return st == HN_OK ? CLI_EXIT_OK : cli_fail("emp ab-stats");
}
