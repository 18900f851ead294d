/* heurnet emp ab-stats: the statistics of an A/B run of `emp solve` arms
 * over seeds (scripts/ab_emp_place.sh): per instance and arm the mean and
 * standard error, and against the base arm the paired t-test (pairs by
 * seed) and Welch's t-test, as one Markdown table. */
#include <getopt.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_emp.h"
#include "common/hn.h"
#include "train/ablate.h"

enum { AB_MAX = 4096, AB_NAME = 64 };

typedef struct {
    char inst[AB_NAME], arm[AB_NAME];
    long seed;
    double value;
} ab_row;

static int read_rows(FILE *f, const char *path, ab_row *rows, int *n)
{
    char line[512];
    int lineno = 0;
    *n = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        ab_row *r = &rows[*n];
        if (sscanf(line, "%63s %63s %ld %lf", r->inst, r->arm, &r->seed, &r->value) != 4)
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: want INSTANCE ARM SEED VALUE", path,
                           lineno);
        if (++*n == AB_MAX)
            return hn_fail(HN_ERR_LIMIT, "%s: more than %d rows", path, AB_MAX);
    }
    return HN_OK;
}

/* Values of (inst, arm) in seed order of `seeds` (NAN where missing). */
static int values_of(const ab_row *rows, int n, const char *inst, const char *arm,
                     const long *seeds, int nseeds, double *v)
{
    int found = 0;
    for (int s = 0; s < nseeds; s++) {
        v[s] = NAN;
        for (int i = 0; i < n; i++)
            if (rows[i].seed == seeds[s] && !strcmp(rows[i].inst, inst) &&
                !strcmp(rows[i].arm, arm)) {
                v[s] = rows[i].value;
                found++;
                break;
            }
    }
    return found;
}

/* Two-sided p-value of Welch's t-test of b against a. */
static double welch_p(const struct trn_abl_stats *a, const struct trn_abl_stats *b)
{
    double va = a->sd * a->sd / a->n, vb = b->sd * b->sd / b->n, diff = b->mean - a->mean;
    if (va + vb <= 0)
        return diff == 0 ? 1 : 0;
    double t = diff / sqrt(va + vb);
    double df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
    return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

/* Distinct values of one column, in order of appearance. */
static int distinct(const ab_row *rows, int n, int col, char (*out)[AB_NAME], long *seeds)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int j = 0;
        for (; j < k; j++)
            if (col == 2 ? seeds[j] == rows[i].seed
                         : !strcmp(out[j], col == 0 ? rows[i].inst : rows[i].arm))
                break;
        if (j < k)
            continue;
        if (col == 2)
            seeds[k++] = rows[i].seed;
        else
            memcpy(out[k++], col == 0 ? rows[i].inst : rows[i].arm, AB_NAME);
    }
    return k;
}

/* One table row: arm against base on one instance. */
static void print_arm(const char *inst, const char *arm, const double *base, const double *v,
                      int nseeds, int is_base)
{
    static double a[AB_MAX], b[AB_MAX], x[AB_MAX], bx[AB_MAX];
    int np = 0, nx = 0;
    for (int s = 0; s < nseeds; s++) {
        if (!isnan(v[s]))
            x[nx++] = v[s];
        if (!isnan(v[s]) && !isnan(base[s]))
            a[np] = base[s], b[np++] = v[s];
    }
    struct trn_abl_stats st, sb;
    trn_abl_stats_of(x, nx, &st);
    printf("| %s | %s | %d | %.2f | %.2f | %.2f |", inst, arm, nx, st.mean, st.sd, st.se);
    int nb = 0;
    for (int s = 0; s < nseeds; s++)
        if (!isnan(base[s]))
            bx[nb++] = base[s];
    trn_abl_stats_of(bx, nb, &sb);
    struct trn_abl_paired pt;
    if (is_base || np < 2 || nx < 2 || nb < 2 || trn_abl_paired_test(a, b, np, 0.05, &pt)) {
        printf(" | | |\n");
        return;
    }
    printf(" %+.2f | %.3g | %.3g |\n", st.mean - sb.mean, pt.p, welch_p(&sb, &st));
}

static int report(const ab_row *rows, int n, const char *base)
{
    static char insts[AB_MAX][AB_NAME], arms[AB_MAX][AB_NAME];
    static long seeds[AB_MAX];
    static double vb[AB_MAX], va[AB_MAX];
    int ni = distinct(rows, n, 0, insts, NULL), na = distinct(rows, n, 1, arms, NULL);
    int ns = distinct(rows, n, 2, NULL, seeds);
    printf("| instance | arm | runs | mean | sd | se | diff vs %s | paired p | Welch p |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
           base);
    for (int i = 0; i < ni; i++) {
        if (!values_of(rows, n, insts[i], base, seeds, ns, vb))
            return hn_fail(HN_ERR_ARG, "no rows of the base arm '%s' for %s", base, insts[i]);
        for (int k = 0; k < na; k++)
            if (values_of(rows, n, insts[i], arms[k], seeds, ns, va))
                print_arm(insts[i], arms[k], vb, va, ns, !strcmp(arms[k], base));
    }
    return HN_OK;
}

int cmd_emp_ab_stats(int argc, char **argv)
{
    static const struct option lo[] = {
        {"base", required_argument, 0, 'b'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *base = "off";
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (ch == 'h') {
            printf("usage: heurnet emp ab-stats [--base ARM] RESULTS\n\n"
                   "RESULTS: lines `INSTANCE ARM SEED VALUE` (# comments). Prints per instance\n"
                   "and arm the runs, mean, sd and standard error, and against the base arm\n"
                   "the mean difference, the paired t-test p-value (pairs by seed) and\n"
                   "Welch's t-test p-value (two-sided) as a Markdown table.\n\n"
                   "  --base ARM   the arm the others are compared with [off]\n");
            return CLI_EXIT_OK;
        }
        if (ch != 'b')
            return cli_usage("emp ab-stats", "unknown option");
        base = optarg;
    }
    if (argc - optind != 1)
        return cli_usage("emp ab-stats", "expected one RESULTS file");
    const char *path = argv[optind];
    FILE *f = fopen(path, "r");
    if (!f) {
        hn_fail(HN_ERR_IO, "%s: cannot open the results", path);
        return cli_fail(NULL);
    }
    static ab_row rows[AB_MAX];
    int n, st = read_rows(f, path, rows, &n);
    fclose(f);
    if (st == HN_OK)
        st = report(rows, n, base);
    return st == HN_OK ? CLI_EXIT_OK : cli_fail("emp ab-stats");
}
