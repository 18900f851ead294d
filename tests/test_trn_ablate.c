/* Ablation statistics, grids and the CSV journal (train/ablate.h): means and
 * standard errors of a fixed CSV computed by hand, p-values against the
 * closed-form t CDF for 2 degrees of freedom, a Simpson integration of the
 * t density and a textbook example, seeds needed against G*Power's table,
 * grid expansion and its errors, and a journal that keeps its rows, finds
 * the missing runs and writes them back in the canonical order; Welch's
 * test and the A/B comparison by seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/hn.h"
#include "train/ablate.h"

/* Two-sided p-value of t with df degrees of freedom by Simpson's rule on the
 * density: independent of GSL's incomplete beta function. */
static double p_simpson(double t, double df)
{
    double c = exp(lgamma((df + 1) / 2) - lgamma(df / 2)) / sqrt(df * acos(-1.0));
    int n = 20000;
    double h = fabs(t) / n, sum = 0;
    for (int i = 0; i <= n; i++) {
        double x = i * h, f = c * pow(1 + x * x / df, -(df + 1) / 2);
        sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
    }
    return 1 - 2 * sum * h / 3;
}

static void test_paired(void)
{
    /* df = 2: P(T <= t) = 1/2 + t / (2 sqrt(2 + t^2)), so p = 1 - t / sqrt(2 + t^2) */
    double a[] = {1, 2, 3}, b[] = {2, 4, 9};
    struct trn_abl_paired p;
    CHECK(trn_abl_paired_test(a, b, 3, 0.05, &p) == 0);
    double t = 3 / (sqrt(7) / sqrt(3));
    CHECK_CLOSE(p.diff, 3, 1e-12);
    CHECK_CLOSE(p.sd, sqrt(7), 1e-12);
    CHECK_CLOSE(p.t, t, 1e-12);
    CHECK_CLOSE(p.p, 1 - t / sqrt(2 + t * t), 1e-9);
    CHECK_CLOSE(p.p, p_simpson(t, 2), 1e-7);
    /* 95 % CI: t(0.975, 2) = 4.302653 (textbook table) */
    CHECK_CLOSE(p.hi - p.diff, 4.302653 * sqrt(7) / sqrt(3), 1e-5);
    CHECK_CLOSE(p.diff - p.lo, p.hi - p.diff, 1e-12);

    /* Student's sleep data (Cushny and Peebles), drug 2 against drug 1:
     * t = 4.0621, df = 9, p = 0.002833, 95 % CI 0.7001 .. 2.4599 */
    double d1[] = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
    double d2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
    CHECK(trn_abl_paired_test(d1, d2, 10, 0.05, &p) == 0);
    CHECK_CLOSE(p.t, 4.062128, 1e-6);
    CHECK_CLOSE(p.p, 0.002832890, 1e-7);
    CHECK_CLOSE(p.p, p_simpson(p.t, 9), 1e-7);
    CHECK_CLOSE(p.lo, 0.7001142, 1e-6);
    CHECK_CLOSE(p.hi, 2.4598858, 1e-6);
    CHECK(trn_abl_paired_test(d1, d2, 1, 0.05, &p) == HN_ERR_ARG);
    /* equal runs: no difference, p = 1, no seed count */
    CHECK(trn_abl_paired_test(a, a, 3, 0.05, &p) == 0 && p.p == 1 && p.seeds_needed == 0);
}

static void test_seeds_needed(void)
{
    /* G*Power, paired t-test, alpha 0.05 two-sided, power 0.8:
     * effect size dz = 1 needs 10 pairs, dz = 0.5 needs 34 */
    CHECK(trn_abl_seeds_needed(1.0, 1.0, 0.05, 0.8, 1000) == 10);
    CHECK(trn_abl_seeds_needed(-0.25, 0.5, 0.05, 0.8, 1000) == 34);
    CHECK(trn_abl_seeds_needed(0.0, 0.5, 0.05, 0.8, 1000) == 0);
    CHECK(trn_abl_seeds_needed(1e-6, 1.0, 0.05, 0.8, 1000) == 1001);
}

static void test_grid(void)
{
    struct trn_abl_list l = {0};
    CHECK(trn_abl_grid_expand("81-{64,128}-1@{mse,amse:4}", 32, &l) == 0);
    const char *want[] = {"81-64-1@mse", "81-64-1@amse:4", "81-128-1@mse", "81-128-1@amse:4"};
    CHECK(l.n == 4);
    for (int i = 0; i < 4 && i < l.n; i++)
        CHECK_MSG(!strcmp(l.s[i], want[i]), "%s vs %s", l.s[i], want[i]);
    CHECK(trn_abl_grid_expand("81-8-1", 32, &l) == 0 && l.n == 5 && !strcmp(l.s[4], "81-8-1"));
    const char *bad[] = {"81-{64-1", "81-64}-1", "81-{}-1", "81-{64,}-1", "81-{6{4}}-1"};
    for (int i = 0; i < 5; i++)
        CHECK_MSG(trn_abl_grid_expand(bad[i], 32, &l) == HN_ERR_ARG, "%s accepted", bad[i]);
    CHECK(trn_abl_grid_expand("{1,2,3,4}-{1,2,3}-{1,2,3}", 32, &l) == HN_ERR_ARG); /* 36 > 32 - 5 */
    CHECK(l.n == 5);
    trn_abl_list_free(&l);

    FILE *f = fopen("ablate_variants.txt", "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "# variants\n\n81-16-1 # small\n  81-{8,4}-1@amse:2\n");
    fclose(f);
    CHECK(trn_abl_variants_read("ablate_variants.txt", 32, &l) == 0 && l.n == 3);
    CHECK(l.n == 3 && !strcmp(l.s[0], "81-16-1") && !strcmp(l.s[2], "81-4-1@amse:2"));
    trn_abl_list_free(&l);
    CHECK(trn_abl_variants_read("no-such-variants.txt", 32, &l) == HN_ERR_IO);
    CHECK(strstr(hn_errmsg(), "no-such-variants.txt") != NULL);
    remove("ablate_variants.txt");
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

static char *slurp(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

/* A journal: 2 variants x 3 seeds, columns a and b, one run missing, rows
 * out of order; means and standard errors computed by hand. */
static void test_journal(void)
{
    const char *var[] = {"81-8-1", "81-16-1@amse:2"}, *col[] = {"a", "b"};
    uint64_t seeds[] = {1, 2, 3};
    trn_abl_journal *j = trn_abl_journal_new(var, 2, seeds, 3, col, 2, "c1");
    CHECK(j != NULL);
    if (!j)
        return;
    CHECK(write_file("ablate_j.csv", "variant,seed,config,a,b,curve\n"
                                     "81-16-1@amse:2,3,c1,9,nan,3;2.5\n"
                                     "81-8-1,1,c1,1,10,4;3;2\n"
                                     "81-8-1,2,c1,2,20,\n"
                                     "81-8-1,3,c1,3,30,4\n"
                                     "81-16-1@amse:2,1,c1,2,0.5,3\n") == 0);
    CHECK(trn_abl_journal_load(j, "ablate_j.csv") == 0);
    CHECK(trn_abl_journal_count(j) == 5);
    CHECK(trn_abl_journal_get(j, 1, 1) == NULL && trn_abl_journal_get(j, 1, 2) != NULL);
    const struct trn_abl_run *r = trn_abl_journal_get(j, 0, 0);
    CHECK(r && r->ncurve == 3 && r->curve[2] == 2);
    CHECK(trn_abl_journal_get(j, 0, 1)->ncurve == 0);
    double x[3];
    int idx[3];
    struct trn_abl_stats s;
    int n = trn_abl_journal_column(j, 0, 0, x, idx);
    trn_abl_stats_of(x, n, &s);
    CHECK(n == 3 && s.mean == 2 && fabs(s.sd - 1) < 1e-12 && fabs(s.se - 1 / sqrt(3)) < 1e-12);
    n = trn_abl_journal_column(j, 0, 1, x, idx);
    trn_abl_stats_of(x, n, &s);
    CHECK(n == 3 && s.mean == 20 && fabs(s.se - 10 / sqrt(3)) < 1e-12);
    n = trn_abl_journal_column(j, 1, 0, x, idx);
    trn_abl_stats_of(x, n, &s);
    CHECK(n == 2 && idx[0] == 0 && idx[1] == 2);
    CHECK(s.mean == 5.5 && fabs(s.sd - sqrt(24.5)) < 1e-12 && fabs(s.se - 3.5) < 1e-12);
    n = trn_abl_journal_column(j, 1, 1, x, idx);
    CHECK(n == 2 && isnan(x[1]));

    /* the missing run comes back through the same row format */
    double m[] = {4, 0.25}, c[] = {5, 4.5};
    char *row = trn_abl_row_format(j, 1, 1, m, c, 2);
    CHECK(row && !strcmp(row, "81-16-1@amse:2,2,c1,4,0.25,5;4.5"));
    CHECK(row && trn_abl_journal_add_row(j, row, "test") == 0);
    CHECK(row && trn_abl_journal_add_row(j, row, "test") == HN_ERR_FORMAT);
    free(row);
    CHECK(trn_abl_journal_save(j, "ablate_j.csv") == 0);
    CHECK_MSG(!strcmp(slurp("ablate_j.csv"), "variant,seed,config,a,b,curve\n"
                                             "81-8-1,1,c1,1,10,4;3;2\n"
                                             "81-8-1,2,c1,2,20,\n"
                                             "81-8-1,3,c1,3,30,4\n"
                                             "81-16-1@amse:2,1,c1,2,0.5,3\n"
                                             "81-16-1@amse:2,2,c1,4,0.25,5;4.5\n"
                                             "81-16-1@amse:2,3,c1,9,nan,3;2.5\n"),
              "%s", slurp("ablate_j.csv"));
    trn_abl_journal_free(j);

    /* rows another command wrote are refused, naming file and line */
    const char *bad[] = {"variant,seed,config,a,curve\n",
                         "variant,seed,config,a,b,curve\n81-8-1,4,c1,1,1,\n",
                         "variant,seed,config,a,b,curve\n81-4-1,1,c1,1,1,\n",
                         "variant,seed,config,a,b,curve\n81-8-1,1,c1,x,1,\n",
                         "variant,seed,config,a,b,curve\n81-8-1,1,c1,1,1\n",
                         "variant,seed,config,a,b,curve\n81-8-1,1,c1,1,1,2;;3\n",
                         "variant,seed,config,a,b,curve\n81-8-1,1,c2,1,1,2\n"};
    for (int i = 0; i < 7; i++) {
        j = trn_abl_journal_new(var, 2, seeds, 3, col, 2, "c1");
        CHECK(j && write_file("ablate_j.csv", bad[i]) == 0);
        CHECK_MSG(j && trn_abl_journal_load(j, "ablate_j.csv") == HN_ERR_FORMAT, "case %d", i);
        CHECK(strstr(hn_errmsg(), "ablate_j.csv:") != NULL);
        CHECK(i < 6 || strstr(hn_errmsg(), "other settings") != NULL);
        trn_abl_journal_free(j);
    }
    j = trn_abl_journal_new(var, 2, seeds, 3, col, 2, "c1");
    CHECK(j && trn_abl_journal_load(j, "no-such-journal.csv") == 0 && !trn_abl_journal_count(j));
    trn_abl_journal_free(j);
    remove("ablate_j.csv");
}

static void test_welch(void)
{
    /* equal sd 1 and n 3: t = 3 / sqrt(2/3), Welch-Satterthwaite df = 4 */
    double a[] = {1, 2, 3}, b[] = {4, 5, 6};
    struct trn_abl_stats sa, sb;
    trn_abl_stats_of(a, 3, &sa);
    trn_abl_stats_of(b, 3, &sb);
    CHECK_CLOSE(trn_abl_welch_p(&sa, &sb), p_simpson(3 / sqrt(2.0 / 3), 4), 1e-6);
    CHECK_CLOSE(trn_abl_welch_p(&sb, &sa), trn_abl_welch_p(&sa, &sb), 1e-12);
    double c[] = {5, 5}, d[] = {7, 7};
    struct trn_abl_stats sc, sd;
    trn_abl_stats_of(c, 2, &sc);
    trn_abl_stats_of(d, 2, &sd);
    CHECK(trn_abl_welch_p(&sc, &sc) == 1 && trn_abl_welch_p(&sc, &sd) == 0);
}

/* What the A/B comparison gave, line by line. */
struct ab_seen {
    int n;
    struct trn_abl_ab_line l[8];
    char arm[8][16];
};

static void ab_collect(const struct trn_abl_ab_line *l, void *user)
{
    struct ab_seen *s = user;
    if (s->n < 8) {
        s->l[s->n] = *l;
        snprintf(s->arm[s->n], sizeof s->arm[0], "%s/%s", l->inst, l->arm);
        s->n++;
    }
}

static void test_ab(void)
{
    FILE *f = fopen("ablate_ab.txt", "w");
    CHECK(f != NULL);
    fprintf(f, "# inst arm seed value\ni1 off 1 10\ni1 on 1 13\ni1 off 2 12\ni1 on 2 15\n"
               "i1 off 3 11\ni1 on 3 12.5\ni1 x 1 3\ni2 on 1 4\n");
    fclose(f);
    int st;
    trn_abl_ab *ab = trn_abl_ab_read("ablate_ab.txt", &st);
    CHECK(ab != NULL && st == 0);
    struct ab_seen s = {0};
    /* i2 has no rows of the base arm: an error after the lines of i1 */
    CHECK(trn_abl_ab_compare(ab, "off", ab_collect, &s) == HN_ERR_ARG);
    CHECK(s.n == 3 && !strcmp(s.arm[0], "i1/off") && !strcmp(s.arm[1], "i1/on"));
    CHECK(!s.l[0].compared && s.l[1].compared && !s.l[2].compared);
    CHECK(s.l[1].s.n == 3);
    CHECK_CLOSE(s.l[1].diff, 2.5, 1e-12);
    double base[] = {10, 12, 11}, on[] = {13, 15, 12.5};
    struct trn_abl_paired p;
    CHECK(trn_abl_paired_test(base, on, 3, 0.05, &p) == 0);
    CHECK_CLOSE(s.l[1].paired_p, p.p, 1e-12);
    s.n = 0;
    CHECK(trn_abl_ab_compare(ab, "on", ab_collect, &s) == 0 && s.n == 4);
    CHECK(!strcmp(s.arm[3], "i2/on") && !s.l[3].compared);
    trn_abl_ab_free(ab);
    f = fopen("ablate_ab.txt", "w");
    CHECK(f != NULL);
    fprintf(f, "i1 off 1\n");
    fclose(f);
    CHECK(trn_abl_ab_read("ablate_ab.txt", &st) == NULL && st == HN_ERR_FORMAT);
    CHECK(strstr(hn_errmsg(), "line 1") != NULL);
    remove("ablate_ab.txt");
    CHECK(trn_abl_ab_read("ablate_ab.txt", &st) == NULL && st == HN_ERR_IO);
}

int main(void)
{
    test_paired();
    test_welch();
    test_ab();
    test_seeds_needed();
    test_grid();
    test_journal();
    return CHECK_DONE();
}
