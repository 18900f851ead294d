/* The PNGs of an ablation, drawn by gnuplot from inline
 * data blocks (no temporary files): PREFIX-curves.png (validation MAE per
 * epoch, mean line and a band of +- one standard error over the seeds),
 * PREFIX-metrics.png (final metrics as bars with standard-error bars) and,
 * with --search, PREFIX-search.png (optimal share against mean expanded
 * nodes, one point per run). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/hn.h"
#include "solve/ablate_int.h"

#define TERM "set terminal pngcairo noenhanced size 900,560\n"

/* Mean and standard error of epoch e (0-based) over the runs of v that
 * reached it (early stopping makes curves of different lengths). */
static int epoch_stats(const struct heurnet_ablate *a, const trn_abl_journal *j, int v, int e,
                       struct trn_abl_stats *s)
{
    double x[HEURNET_ABL_MAX_SEEDS];
    int n = 0;
    for (int k = 0; k < a->nseeds; k++) {
        const struct trn_abl_run *r = trn_abl_journal_get(j, v, k);
        if (r && e < r->ncurve)
            x[n++] = r->curve[e];
    }
    trn_abl_stats_of(x, n, s);
    return n;
}

static void plot_curves(FILE *g, const struct heurnet_ablate *a, const trn_abl_journal *j,
                        const char *prefix)
{
    fprintf(g,
            TERM "set output '%s-curves.png'\nset xlabel 'epoch'\nset ylabel 'validation MAE "
                 "(moves)'\nset grid\nset key top right\nset style fill transparent solid 0.2 "
                 "noborder\n",
            prefix);
    int most = 0;
    for (int v = 0; v < a->var.n; v++) {
        fprintf(g, "$c%d << EOD\n", v);
        struct trn_abl_stats s;
        int e = 0;
        for (; epoch_stats(a, j, v, e, &s) > 0; e++)
            fprintf(g, "%d %.7g %.7g %.7g\n", e + 1, s.mean, s.mean - s.se, s.mean + s.se);
        fprintf(g, "EOD\n");
        most = e > most ? e : most;
    }
    if (most <= 20)
        fprintf(g, "set xtics 1\n");
    fprintf(g, "plot ");
    for (int v = 0; v < a->var.n; v++)
        fprintf(g,
                "%s$c%d using 1:3:4 with filledcurves lc %d notitle, $c%d using 1:2 with "
                "linespoints lc %d lw 2 pt 7 ps 0.6 title '%s'",
                v ? ", " : "", v, v + 1, v, v + 1, a->var.s[v]);
    fprintf(g, "\n");
}

/* One panel of the metrics plot: column c of every variant as a bar. */
static void bar_panel(FILE *g, const struct heurnet_ablate *a, const trn_abl_journal *j, int c,
                      int id)
{
    double k = a->col[c].pct ? 100.0 : 1.0;
    fprintf(g, "$m%d << EOD\n", id);
    for (int v = 0; v < a->var.n; v++) {
        double x[HEURNET_ABL_MAX_SEEDS];
        int n = trn_abl_journal_column(j, v, c, x, NULL), m = 0;
        for (int i = 0; i < n; i++)
            if (!isnan(x[i]))
                x[m++] = x[i];
        struct trn_abl_stats s;
        trn_abl_stats_of(x, m, &s);
        fprintf(g, "%d %.7g %.7g %s\n", v, m ? s.mean * k : 0.0, s.se * k, a->var.s[v]);
    }
    fprintf(g,
            "EOD\nset title '%s'\nplot $m%d using 1:2:3:xtic(4) with boxerrorbars lc %d "
            "notitle\n",
            a->col[c].label, id, id + 1);
}

static void plot_metrics(FILE *g, const struct heurnet_ablate *a, const trn_abl_journal *j,
                         const char *prefix)
{
    int cols[8] = {HEURNET_ABL_MAE, HEURNET_ABL_EXACT, HEURNET_ABL_OVER}, n = 3;
    if (a->col_search >= 0) {
        cols[n++] = a->col_search + HEURNET_ABL_S_OPTIMAL;
        cols[n++] = a->col_search + HEURNET_ABL_S_EXPANDED;
    }
    fprintf(g,
            "set terminal pngcairo noenhanced size %d,480\nset output '%s-metrics.png'\n"
            "set style fill solid 0.6 border -1\nset boxwidth 0.6\nset grid ytics\n"
            "set yrange [0:*]\nset xtics rotate by -30\nset bars 2\nset xrange [-0.6:%d.6]\n"
            "set multiplot layout 1,%d title 'final metrics, mean +- standard error over "
            "%d seeds'\n",
            300 * n + 100, prefix, a->var.n - 1, n, a->nseeds);
    for (int i = 0; i < n; i++)
        bar_panel(g, a, j, cols[i], i);
    fprintf(g, "unset multiplot\n");
}

static void plot_search(FILE *g, const struct heurnet_ablate *a, const trn_abl_journal *j,
                        const char *prefix)
{
    int opt = a->col_search + HEURNET_ABL_S_OPTIMAL, exp = a->col_search + HEURNET_ABL_S_EXPANDED;
    fprintf(g,
            "reset\n" TERM "set output '%s-search.png'\nset xlabel 'mean expanded nodes per "
            "board'\nset ylabel 'optimal solutions (%%)'\nset logscale x\nset grid\nset offsets "
            "graph 0.05, graph 0.05, graph 0.05, graph 0.05\nset key below "
            "\nset title 'A* on %zu boards, one point per run'\n",
            prefix, a->nboards);
    /* a run that solved no board has no expansions to show (NaN): it is
     * left out, and a plot with no point says so rather than failing */
    int points = 0;
    for (int v = 0; v < a->var.n; v++) {
        fprintf(g, "$s%d << EOD\n", v);
        for (int k = 0; k < a->nseeds; k++) {
            const struct trn_abl_run *r = trn_abl_journal_get(j, v, k);
            if (r && !isnan(r->metric[exp]) && (points += 1))
                fprintf(g, "%.7g %.7g\n", r->metric[exp], 100 * r->metric[opt]);
        }
        fprintf(g, "EOD\n");
    }
    if (!points) {
        fprintf(g,
                "unset logscale x\nset xrange [0:1]\nset yrange [0:1]\nset label 1 'A* solved "
                "no board within %llu expanded nodes' at graph 0.5, graph 0.5 center\n"
                "plot -1 notitle\n",
                (unsigned long long)a->search_limit);
        return;
    }
    fprintf(g, "plot ");
    for (int v = 0; v < a->var.n; v++)
        fprintf(g, "%s$s%d using 1:2 with points pt 7 ps 1.3 lc %d title '%s'", v ? ", " : "", v,
                v + 1, a->var.s[v]);
    fprintf(g, "\n");
}

/* A PNG gnuplot should have written: present and not empty. */
static int png_check(const struct heurnet_ablate *a, const char *prefix, const char *name)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s-%s.png", prefix, name);
    if (stat(path, &st) || st.st_size == 0) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "gnuplot did not write %s", path);
        return HN_ERR_IO;
    }
    heurnet_abl_say(a, HEURNET_ABL_SAY, "wrote %s", path);
    return 0;
}

int heurnet_ablate_plot(const struct heurnet_ablate *a, const trn_abl_journal *j,
                        const char *prefix)
{
    if (strchr(prefix, '\'')) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "--plot %s: no quotes in the prefix, please", prefix);
        return HN_ERR_ARG;
    }
    fflush(stdout); /* the tables before gnuplot's own messages */
    FILE *g = popen("gnuplot", "w");
    if (!g) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "--plot: cannot run gnuplot: %s", strerror(errno));
        return HN_ERR_IO;
    }
    plot_curves(g, a, j, prefix);
    fprintf(g, "reset\n");
    plot_metrics(g, a, j, prefix);
    if (a->col_search >= 0)
        plot_search(g, a, j, prefix);
    int st = pclose(g);
    if (st != 0) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "--plot: gnuplot failed (is gnuplot installed?)");
        return HN_ERR_IO;
    }
    /* every missing file is named, not only the first */
    int rc = png_check(a, prefix, "curves");
    int rc2 = png_check(a, prefix, "metrics");
    int rc3 = a->col_search >= 0 ? png_check(a, prefix, "search") : 0;
    return rc ? rc : rc2 ? rc2 : rc3;
}
