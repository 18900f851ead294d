/* The tables of an ablation: a Markdown table of means +- standard errors
 * over the seeds, the paired comparison with a baseline variant, and the
 * gnuplot PNGs (learning curves, final metrics, search trade-off). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "solve/ablate_int.h"

#define ALPHA 0.05
#define POWER 0.8

static void cell(FILE *f, const struct heurnet_abl_col *c, const struct trn_abl_stats *s)
{
    double k = c->pct ? 100.0 : 1.0;
    if (s->n == 0 || isnan(s->mean))
        fprintf(f, " | -");
    else if (s->n == 1 || s->sd == 0)
        fprintf(f, " | %.*f", c->digits, s->mean * k);
    else
        fprintf(f, " | %.*f ± %.*f", c->digits, s->mean * k, c->digits, s->se * k);
}

/* Statistics of column c of variant v over its runs (NaN values, e.g. the
 * excess when nothing was solved, are left out). */
static void column_stats(const struct heurnet_ablate *a, const trn_abl_journal *j, int v, int c,
                         struct trn_abl_stats *s)
{
    double x[HEURNET_ABL_MAX_SEEDS];
    int n = trn_abl_journal_column(j, v, c, x, NULL), m = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(x[i]))
            x[m++] = x[i];
    (void)a;
    trn_abl_stats_of(x, m, s);
}

/* Runs of variant v whose A* solved no board, and runs that left some
 * board at the node limit. */
static void unsolved_runs(const struct heurnet_ablate *a, const trn_abl_journal *j, int v,
                          int *none, int *some)
{
    double x[HEURNET_ABL_MAX_SEEDS];
    int n = a->col_search < 0
                ? 0
                : trn_abl_journal_column(j, v, a->col_search + HEURNET_ABL_S_SOLVED, x, NULL);
    *none = *some = 0;
    for (int i = 0; i < n; i++) {
        *none += !(x[i] > 0);
        *some += x[i] < 1;
    }
}

/* The A* expanded cell of a variant whose boards hit the limit: the mean
 * counts them with the limit's expansions, so it is a lower bound. */
static void expanded_cell(FILE *f, const struct heurnet_ablate *a, const trn_abl_journal *j, int v,
                          int c, const struct trn_abl_stats *s)
{
    int none, some;
    unsolved_runs(a, j, v, &none, &some);
    if (some && s->n > 0 && !isnan(s->mean))
        fprintf(f, " | ≥ %.*f", a->col[c].digits, s->mean);
    else
        cell(f, &a->col[c], s);
}

/* Below the table: which variants' A* stopped at the node limit. */
static void unsolved_note(FILE *f, const struct heurnet_ablate *a, const trn_abl_journal *j)
{
    int said = 0;
    for (int v = 0; v < a->var.n; v++) {
        int none, some;
        unsolved_runs(a, j, v, &none, &some);
        if (!some)
            continue;
        if (!said++)
            fprintf(f,
                    "\nA* stopped at the limit of %llu expanded nodes (--search-limit) on "
                    "some boards, which count as unsolved; their \"A* expanded\" is a lower "
                    "bound (≥), \"-\" where a run solved no board:",
                    (unsigned long long)a->search_limit);
        fprintf(f, "%s %s (%d run(s) with unsolved boards, %d solving none)", said > 1 ? ";" : "",
                a->var.s[v], some, none);
    }
    if (said)
        fprintf(f, ".\n");
}

static void table_means(FILE *f, const struct heurnet_ablate *a, const trn_abl_journal *j)
{
    fprintf(f, "| variant | runs");
    for (int c = 0; c < a->ncol; c++)
        fprintf(f, " | %s", a->col[c].label);
    fprintf(f, " |\n|---|---:");
    for (int c = 0; c < a->ncol; c++)
        fprintf(f, "|---:");
    fprintf(f, "|\n");
    for (int v = 0; v < a->var.n; v++) {
        fprintf(f, "| %s | %d", a->var.s[v], trn_abl_journal_column(j, v, 0, NULL, NULL));
        for (int c = 0; c < a->ncol; c++) {
            struct trn_abl_stats s;
            column_stats(a, j, v, c, &s);
            if (a->col_search >= 0 && c == a->col_search + HEURNET_ABL_S_EXPANDED)
                expanded_cell(f, a, j, v, c, &s);
            else
                cell(f, &a->col[c], &s);
        }
        fprintf(f, " |\n");
    }
    unsolved_note(f, a, j);
}

/* Pairs of column c for variant v and the baseline over the seeds both
 * have (NaN in either drops the pair). */
static int pairs(const struct heurnet_ablate *a, const trn_abl_journal *j, int v, int c,
                 double *base, double *x)
{
    int n = 0;
    for (int k = 0; k < a->nseeds; k++) {
        const struct trn_abl_run *r = trn_abl_journal_get(j, v, k);
        const struct trn_abl_run *b = trn_abl_journal_get(j, a->baseline, k);
        if (r && b && !isnan(r->metric[c]) && !isnan(b->metric[c])) {
            base[n] = b->metric[c];
            x[n++] = r->metric[c];
        }
    }
    return n;
}

static void paired_row(FILE *f, const struct heurnet_ablate *a, int v, int c,
                       const struct trn_abl_paired *p)
{
    const struct heurnet_abl_col *col = &a->col[c];
    double k = col->pct ? 100.0 : 1.0;
    int d = col->digits + 1;
    fprintf(f, "| %s | %s | %+.*f | [%+.*f, %+.*f] | %.3g | ", a->var.s[v], col->label, d,
            p->diff * k, d, p->lo * k, d, p->hi * k, p->p);
    if (!p->seeds_needed)
        fprintf(f, "- |\n");
    else if (p->seeds_needed > 100000)
        fprintf(f, "> 100000 |\n");
    else
        fprintf(f, "%d |\n", p->seeds_needed);
}

/* The smallest |difference| of the paired table, with what detecting it takes. */
struct smallest {
    int v, c;
    struct trn_abl_paired p;
};

static void table_paired(FILE *f, const struct heurnet_ablate *a, const trn_abl_journal *j)
{
    fprintf(f,
            "\nPaired differences against %s (variant - baseline, over the seeds both "
            "have; 95 %% CI and p from the paired t-test):\n\n"
            "| variant | metric | difference | 95 %% CI | p | seeds for 80 %% power |\n"
            "|---|---|---:|---|---:|---:|\n",
            a->var.s[a->baseline]);
    struct smallest sm = {.v = -1};
    for (int v = 0; v < a->var.n; v++)
        for (int c = 0; v != a->baseline && c < a->ncol; c++) {
            double base[HEURNET_ABL_MAX_SEEDS], x[HEURNET_ABL_MAX_SEEDS];
            struct trn_abl_paired p;
            int n = a->col[c].compare ? pairs(a, j, v, c, base, x) : 0;
            if (n < 2 || trn_abl_paired_test(base, x, n, ALPHA, &p))
                continue;
            paired_row(f, a, v, c, &p);
            /* the headline is the validation MAE: its units are comparable */
            if (c == HEURNET_ABL_MAE && p.seeds_needed &&
                (sm.v < 0 || fabs(p.diff) < fabs(sm.p.diff)))
                sm = (struct smallest){v, c, p};
        }
    if (sm.v < 0) {
        fprintf(f, "\nNo paired differences: the comparison needs at least 2 seeds per variant.\n");
        return;
    }
    fprintf(f,
            "\nThe smallest observed difference in %s is %s's %+.4g (sd of the differences "
            "%.3g over %d seeds); detecting it with 80 %% power in a two-sided paired t-test "
            "at 5 %% needs %d seeds (the smallest n with sqrt(n) |d| / sd >= "
            "t(0.975, n-1) + t(0.8, n-1)).\n\n",
            a->col[sm.c].label, a->var.s[sm.v], sm.p.diff, sm.p.sd, sm.p.n, sm.p.seeds_needed);
}

void heurnet_ablate_report(FILE *f, const struct heurnet_ablate *a, const trn_abl_journal *j)
{
    table_means(f, a, j);
    fprintf(f, "\nmean ± standard error over the seeds %llu..%llu; the CSV has one row per run.\n",
            (unsigned long long)a->seed[0], (unsigned long long)a->seed[a->nseeds - 1]);
    if (a->baseline >= 0)
        table_paired(f, a, j);
}
