/* The report of heurnet eval: a TSV row per board, a Markdown summary with
 * the paper's measures (optimal share, excess moves, expansions by
 * difficulty class as in Cahlik & Surynek's Table 1) and gnuplot figures
 * like their Figures 3-6. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "common/hn.h"
#include "solve/eval_report.h"

static const char *status_name(int st)
{
    return st == 0                    ? "solved"
           : st == HN_ERR_LIMIT       ? "limit"
           : st == HN_ERR_INTERRUPTED ? "interrupted"
                                      : "error";
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean and median of v[n] (sorted in place); zeros when n == 0. */
static void mean_median(double *v, size_t n, double *mean, double *median)
{
    *mean = *median = 0;
    if (!n)
        return;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    qsort(v, n, sizeof *v, cmp_double);
    *mean = s / (double)n;
    *median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Headline numbers over the boards both searches solved. */
typedef struct {
    size_t n, ann_solved, ann_valid, known, optimal, base_solved, both;
    double excess_mean, excess_max;
    double ann_exp_mean, ann_exp_median, base_exp_mean, base_exp_median;
    double ann_sec_mean, ann_sec_median, base_sec_mean, base_sec_median;
    double all_sec_mean; /* over every board, an unsolved one with the time it used */
    double all_exp_mean; /* over every board, an unsolved one with the nodes it expanded */
    size_t base_ran;     /* boards the baseline searched */
    double nn_sec_mean, hcalls_mean, batches_mean, rows_mean;
    double ann_err_mean, ann_abs_err, ann_over, base_err_mean;
    size_t nerr;
} stats;

static void collect(const heurnet_eval_row *r, size_t n, stats *s, double *buf)
{
    *s = (stats){.n = n};
    double excess = 0, nn = 0, hc = 0, bt = 0, rows = 0;
    for (size_t i = 0; i < n; i++) {
        const heurnet_eval_row *x = &r[i];
        if (x->has_base && x->base.status == 0)
            s->base_solved++;
        s->all_sec_mean += x->ann.seconds / (double)n;
        s->all_exp_mean += (double)x->ann.expanded / (double)n;
        s->base_ran += x->has_base != 0;
        if (x->optimal >= 0) {
            double e = (double)x->ann_h - x->optimal;
            s->nerr++;
            s->ann_err_mean += e;
            s->ann_abs_err += fabs(e);
            s->ann_over += e > 0.5; /* rounds to an over-estimate */
            s->base_err_mean += x->base_h - x->optimal;
        }
        if (x->ann.status)
            continue;
        s->ann_solved++;
        s->ann_valid += x->ann_valid;
        nn += x->nn.seconds;
        hc += (double)x->ann.heur_calls;
        bt += (double)x->ann.batches;
        rows += (double)x->nn.rows;
        if (x->optimal >= 0) {
            int d = x->ann.length - x->optimal;
            s->known++;
            s->optimal += d == 0;
            excess += d;
            if (d > s->excess_max)
                s->excess_max = d;
        }
    }
    double ns = s->ann_solved ? (double)s->ann_solved : 1, ne = s->nerr ? (double)s->nerr : 1;
    s->excess_mean = excess / (s->known ? (double)s->known : 1);
    s->nn_sec_mean = nn / ns;
    s->hcalls_mean = hc / ns;
    s->batches_mean = bt / ns;
    s->rows_mean = rows / ns;
    s->ann_err_mean /= ne;
    s->ann_abs_err /= ne;
    s->ann_over /= ne;
    s->base_err_mean /= ne;
    /* expansions and time: boards solved by the network search (and by the
     * baseline for its columns) */
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!r[i].ann.status)
            buf[k++] = (double)r[i].ann.expanded;
    mean_median(buf, k, &s->ann_exp_mean, &s->ann_exp_median);
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (!r[i].ann.status)
            buf[k++] = r[i].ann.seconds;
    mean_median(buf, k, &s->ann_sec_mean, &s->ann_sec_median);
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (r[i].has_base && !r[i].base.status)
            buf[k++] = (double)r[i].base.expanded;
    mean_median(buf, k, &s->base_exp_mean, &s->base_exp_median);
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (r[i].has_base && !r[i].base.status)
            buf[k++] = r[i].base.seconds;
    mean_median(buf, k, &s->base_sec_mean, &s->base_sec_median);
}

static int write_tsv(const char *path, const heurnet_eval_row *r, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    fprintf(
        f, "id\toptimal\toptimal_source\tann_h\tbase_h\tann_status\tann_length\tann_excess\t"
           "ann_valid\tann_expanded\tann_generated\tann_seconds\tnn_seconds\th_calls\tbatches\t"
           "nn_rows\tbase_status\tbase_length\tbase_expanded\tbase_seconds\tann_error\tbase_error\t"
           "ann_time_limit\n");
    for (size_t i = 0; i < n; i++) {
        const heurnet_eval_row *x = &r[i];
        int opt = x->optimal >= 0, solved = x->ann.status == 0, bs = x->has_base && !x->base.status;
        fprintf(f, "%s\t", x->x->id);
        opt ? fprintf(f, "%d\t", x->optimal) : fprintf(f, "NA\t");
        fprintf(f, "%c\t%.3f\t%d\t%s\t", x->opt_src, (double)x->ann_h, x->base_h,
                status_name(x->ann.status));
        solved ? fprintf(f, "%d\t", x->ann.length) : fprintf(f, "NA\t");
        solved &&opt ? fprintf(f, "%d\t", x->ann.length - x->optimal) : fprintf(f, "NA\t");
        fprintf(f, "%d\t%llu\t%llu\t%.6f\t%.6f\t%llu\t%llu\t%llu\t%s\t", x->ann_valid,
                (unsigned long long)x->ann.expanded, (unsigned long long)x->ann.generated,
                x->ann.seconds, x->nn.seconds, (unsigned long long)x->ann.heur_calls,
                (unsigned long long)x->ann.batches, (unsigned long long)x->nn.rows,
                x->has_base ? status_name(x->base.status) : "skipped");
        bs ? fprintf(f, "%d\t%llu\t%.6f\t", x->base.length, (unsigned long long)x->base.expanded,
                     x->base.seconds)
           : fprintf(f, "NA\tNA\tNA\t");
        opt ? fprintf(f, "%.3f\t%d\t", (double)x->ann_h - x->optimal, x->base_h - x->optimal)
            : fprintf(f, "NA\tNA\t");
        fprintf(f, "%.6f\n", x->time_limit);
    }
    if (ferror(f) | fclose(f)) {
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    }
    return 0;
}

/* A figure as text: "n/a" when it has no basis (no board solved, no
 * optimum known), so a failed search never reads as a result of zeros. */
typedef struct {
    char v[8][32];
    int k;
} figs;

static const char *fig(figs *f, int valid, const char *fmt, double x)
{
    char *b = f->v[f->k++ % 8];
    if (valid)
        snprintf(b, sizeof f->v[0], fmt, x);
    else
        snprintf(b, sizeof f->v[0], "n/a");
    return b;
}

/* 1 when the expansion ratio baseline / network has a basis. */
static int has_ratio(const stats *s)
{
    return s->ann_solved && s->base_solved && s->ann_exp_mean > 0;
}

void heurnet_eval_report_headline(FILE *out, const heurnet_eval_row *rows, size_t n)
{
    double *buf = malloc((n ? n : 1) * sizeof *buf);
    if (!buf)
        return;
    stats s;
    collect(rows, n, &s, buf);
    free(buf);
    figs f = {.k = 0};
    int solved = s.ann_solved > 0, known = s.known > 0, base = s.base_solved > 0;
    fprintf(out, "boards=%zu solved=%zu valid=%zu optimal=%zu/%zu (%s%s) ", s.n, s.ann_solved,
            s.ann_valid, s.optimal, s.known,
            fig(&f, known, "%.1f", known ? 100.0 * (double)s.optimal / (double)s.known : 0),
            known ? "%" : "");
    fprintf(out, "mean_excess=%s max_excess=%s ", fig(&f, known, "%.3f", s.excess_mean),
            fig(&f, known, "%.0f", s.excess_max));
    fprintf(out, "mean_expanded=%s median_expanded=%s mean_seconds=%s ",
            fig(&f, solved, "%.1f", s.ann_exp_mean), fig(&f, solved, "%.1f", s.ann_exp_median),
            fig(&f, solved, "%.4f", s.ann_sec_mean));
    f.k = 0;
    fprintf(out, "mean_seconds_all=%.4f base_mean_expanded=%s base_mean_seconds=%s ",
            s.all_sec_mean, fig(&f, base, "%.1f", s.base_exp_mean),
            fig(&f, base, "%.4f", s.base_sec_mean));
    fprintf(out, "expansion_ratio=%s mean_expanded_all=%.1f\n",
            fig(&f, has_ratio(&s), "%.2f", has_ratio(&s) ? s.base_exp_mean / s.ann_exp_mean : 0),
            s.all_exp_mean);
}

/* Table 1 of the paper: boards split into quartiles of the baseline's
 * expansions; mean expansions of both searches per class. */
static void write_classes(FILE *f, const heurnet_eval_row *r, size_t n, double *buf)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (r[i].has_base && !r[i].base.status && !r[i].ann.status)
            buf[k++] = (double)r[i].base.expanded;
    if (k < 4) {
        fprintf(f, "Fewer than 4 boards were solved by both searches: no difficulty classes.\n\n");
        return;
    }
    qsort(buf, k, sizeof *buf, cmp_double);
    double cut[3] = {buf[k / 4], buf[k / 2], buf[3 * k / 4]};
    static const char *const name[4] = {"Easy", "Medium", "Hard", "Extreme"};
    fprintf(f, "| class | baseline expansions | boards | A*(ANN) mean expanded | baseline mean "
               "expanded | ratio | ANN optimal |\n|---|---|---:|---:|---:|---:|---:|\n");
    for (int c = 0; c < 4; c++) {
        double ea = 0, eb = 0;
        size_t cnt = 0, opt = 0, known = 0;
        for (size_t i = 0; i < n; i++) {
            if (!r[i].has_base || r[i].base.status || r[i].ann.status)
                continue;
            double e = (double)r[i].base.expanded;
            int cls = e < cut[0] ? 0 : e < cut[1] ? 1 : e < cut[2] ? 2 : 3;
            if (cls != c)
                continue;
            cnt++;
            ea += (double)r[i].ann.expanded;
            eb += e;
            if (r[i].optimal >= 0) {
                known++;
                opt += r[i].ann.length == r[i].optimal;
            }
        }
        figs v = {.k = 0}; /* a class of ties may hold no board: n/a, not 0 */
        fprintf(f, "| %s | %s%.0f | %zu | %s | %s | %s | %zu/%zu |\n", name[c],
                c == 0 ? "< " : ">= ", c == 0 ? cut[0] : cut[c - 1], cnt,
                fig(&v, cnt > 0, "%.1f", cnt ? ea / (double)cnt : 0),
                fig(&v, cnt > 0, "%.1f", cnt ? eb / (double)cnt : 0),
                fig(&v, ea > 0, "%.2f", ea > 0 ? eb / ea : 0), opt, known);
    }
    fprintf(f, "\n");
}

static void write_settings(FILE *f, const heurnet_eval_info *in, size_t n)
{
    fprintf(f, "# heurnet eval\n\n");
    fprintf(f,
            "- model: `%s`\n- instances: `%s` (%zu boards in the file, the first %zu "
            "evaluated%s), goal layout %s, %d-puzzle\n",
            in->model, in->instances, in->in_file, n, in->interrupted ? ", INTERRUPTED" : "",
            in->goal, in->puzzle);
    fprintf(f, "- network search: `--algo %s --heuristic %s`", in->algo, in->heuristic);
    if (!strcmp(in->algo, "batch-astar") || !strcmp(in->algo, "wastar"))
        fprintf(f, " (batch %d, weight %g)", in->batch, in->weight);
    if (!strcmp(in->algo, "bwas"))
        fprintf(f, " (batch %d, f = %g*g + h)", in->batch, in->weight);
    if (!strcmp(in->algo, "focal"))
        fprintf(f, " (bound %g)", in->bound);
    for (int i = 0; i < in->nweights; i++)
        fprintf(f, "%s%g%s", i ? "," : " (weighted phases ", in->weights[i],
                i == in->nweights - 1 ? ")" : "");
    for (int i = 0; !strcmp(in->algo, "anytime") && i < in->ndeltas; i++)
        fprintf(f, "%s%g%s", i ? "," : " (deltas ", in->deltas[i], i == in->ndeltas - 1 ? ")" : "");
    if (in->shortcut.max_window)
        fprintf(f, " (shortcut: windows up to %d moves, %llu nodes each)", in->shortcut.max_window,
                (unsigned long long)in->shortcut.budget);
    if (!strcmp(in->algo, "anytime") && in->ida.on) {
        fprintf(f, " (IDA* passes after %g of the time:", in->ida.at);
        if (!in->ida.nbands)
            fprintf(f, " plain");
        for (int i = 0; i < in->ida.nbands; i++)
            fprintf(f, "%s%d-%d:%g", i ? "," : " ", in->ida.band[i].lo, in->ida.band[i].hi,
                    in->ida.band[i].delta);
        fprintf(f, ")");
    }
    fprintf(f, "\n- limits per board (0 = none): %.1f s, %llu expanded, %llu stored nodes\n",
            in->lim.time_limit, (unsigned long long)in->lim.max_expanded,
            (unsigned long long)in->lim.max_nodes);
    if (in->time_budget > 0)
        fprintf(f,
                "- time budget: %.1f s per board on average; each board's limit is the time the "
                "boards before it left, shared equally by the boards still to run "
                "(`ann_time_limit` in instances.tsv)\n",
                in->time_budget);
    fprintf(f, "- baseline: %s with `%s`\n", in->baseline_algo, in->baseline);
    fprintf(f, "- heurnet %s (%s), wall time %.1f s, one search thread\n\n", hn_version(),
            hn_revision(), in->wall);
}

static void write_headline(FILE *f, const stats *s)
{
    figs v = {.k = 0};
    int solved = s->ann_solved > 0, known = s->known > 0, base = s->base_solved > 0;
    const char *none = s->base_ran ? "" : " (not run)";
    fprintf(f, "## Results\n\n| measure | network search | baseline |\n|---|---:|---:|\n");
    fprintf(f, "| boards solved | %zu / %zu | %zu%s |\n", s->ann_solved, s->n, s->base_solved,
            none);
    fprintf(f, "| solutions that replay to the goal | %zu / %zu | |\n", s->ann_valid,
            s->ann_solved);
    fprintf(f,
            "| optimal (of boards with a known optimum) | %zu / %zu (%s%s) | all (admissible) |\n",
            s->optimal, s->known,
            fig(&v, known, "%.1f", known ? 100.0 * (double)s->optimal / (double)s->known : 0),
            known ? "%" : "");
    fprintf(f, "| mean / max excess moves | %s / %s | 0 / 0 |\n",
            fig(&v, known, "%.3f", s->excess_mean), fig(&v, known, "%.0f", s->excess_max));
    v.k = 0;
    fprintf(f, "| mean expanded (solved boards) | %s | %s |\n",
            fig(&v, solved, "%.1f", s->ann_exp_mean), fig(&v, base, "%.1f", s->base_exp_mean));
    fprintf(f, "| median expanded (solved boards) | %s | %s |\n",
            fig(&v, solved, "%.1f", s->ann_exp_median), fig(&v, base, "%.1f", s->base_exp_median));
    fprintf(f, "| mean expanded over all boards (unsolved ones: until the limit) | %.1f | |\n",
            s->all_exp_mean);
    v.k = 0;
    fprintf(f, "| mean seconds per board | %s | %s |\n", fig(&v, solved, "%.4f", s->ann_sec_mean),
            fig(&v, base, "%.4f", s->base_sec_mean));
    fprintf(f, "| median seconds per board | %s | %s |\n",
            fig(&v, solved, "%.4f", s->ann_sec_median), fig(&v, base, "%.4f", s->base_sec_median));
    fprintf(f, "| mean seconds over all boards (unsolved ones: until the limit) | %.4f | |\n",
            s->all_sec_mean);
    v.k = 0;
    fprintf(f, "| mean seconds in the network | %s | |\n", fig(&v, solved, "%.4f", s->nn_sec_mean));
    fprintf(f, "| mean heuristic calls / batches / network rows | %s / %s / %s | |\n",
            fig(&v, solved, "%.0f", s->hcalls_mean), fig(&v, solved, "%.0f", s->batches_mean),
            fig(&v, solved, "%.0f", s->rows_mean));
    fprintf(f, "| expansion ratio baseline / network (means) | %s | |\n\n",
            fig(&v, has_ratio(s), "%.2f", has_ratio(s) ? s->base_exp_mean / s->ann_exp_mean : 0));
    if (!solved && s->n)
        fprintf(f, "**No board was solved by the network search**: every figure of solved boards "
                   "is n/a; the nodes expanded before the limit are in the row over all boards "
                   "and in `instances.tsv`.\n\n");
    fprintf(f,
            "Heuristic of the start boards against the optimum (%zu boards): network mean error "
            "%+.3f, mean absolute error %.3f, over-estimates (by more than half a move) %.1f%%; "
            "baseline heuristic mean error %+.3f.\n\n",
            s->nerr, s->ann_err_mean, s->ann_abs_err, 100.0 * s->ann_over, s->base_err_mean);
}

/* A network far off at the goal explains a search that solves nothing:
 * said in the report and as a warning. */
void heurnet_eval_goal_note(FILE *f, const char *model)
{
    char msg[1024];
    if (!heurnet_goal_fit_file(model, HEURNET_GOAL_TOL, msg, sizeof msg))
        return;
    hn_log(HN_LOG_WARN, "eval: %s", msg);
    fprintf(f, "**Warning**: %s.\n\n", msg);
}

/* Focal and weighted searches prove a bound; check it on the boards with
 * a known optimum. */
static void write_bound(FILE *f, const heurnet_eval_info *in, const heurnet_eval_row *r, size_t n)
{
    double bound = !strcmp(in->algo, "focal")  ? in->bound
                   : !strcmp(in->algo, "bwas") ? 1.0 / in->weight
                                               : in->weight;
    if (bound <= 1.0 && strcmp(in->algo, "focal"))
        return;
    size_t known = 0, within = 0;
    for (size_t i = 0; i < n; i++)
        if (!r[i].ann.status && r[i].optimal >= 0) {
            known++;
            within += r[i].ann.length <= bound * r[i].optimal + 1e-9;
        }
    fprintf(f, "Solutions within the bound %g x optimal: %zu / %zu%s.\n\n", bound, within, known,
            !strcmp(in->algo, "focal")
                ? " (proven for focal with a consistent admissible heuristic)"
                : " (proven for weighted A* only with an admissible h)");
}

/* Anytime A* proves a length when its admissible last phase ends. */
static void write_proven(FILE *f, const heurnet_eval_info *in, const heurnet_eval_row *r, size_t n)
{
    if (strcmp(in->algo, "anytime"))
        return;
    size_t solved = 0, proven = 0;
    for (size_t i = 0; i < n; i++)
        if (!r[i].ann.status) {
            solved++;
            proven += r[i].ann.proven != 0;
        }
    fprintf(f,
            "Lengths proven optimal by the search itself (its last phase, inf, ran to the "
            "end): %zu / %zu solved.\n\n",
            proven, solved);
}

static int write_summary(const char *path, const heurnet_eval_info *in, const heurnet_eval_row *r,
                         size_t n, double *buf)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    stats s;
    collect(r, n, &s, buf);
    write_settings(f, in, n);
    write_headline(f, &s);
    heurnet_eval_goal_note(f, in->model);
    write_bound(f, in, r, n);
    write_proven(f, in, r, n);
    fprintf(f, "## Expanded nodes by difficulty (baseline expansion quartiles, as Table 1 of "
               "Cahlik & Surynek 2019)\n\n");
    write_classes(f, r, n, buf);
    fprintf(f,
            "## Figures\n\n- `heuristic_error.png`: heuristic minus optimal distance on the "
            "start boards, network and baseline (paper Figures 3, 4)\n- `excess.png`: solution "
            "length minus optimum of the network search (Figure 5)\n- `expansions.png`: expanded "
            "nodes of both searches, log scale (Figure 6)\n- `plots.gp` redraws them from "
            "`instances.tsv`.\n");
    if (ferror(f) | fclose(f)) {
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    }
    return 0;
}

static const char PLOTS_HEAD[] =
    "# Redraw the figures of heurnet eval: gnuplot plots.gp (in the report folder)\n"
    "set terminal pngcairo noenhanced size 900,600\n"
    "set datafile separator \"\\t\"\n"
    "set datafile missing \"NA\"\n"
    "set style fill solid 0.5 border -1\n"
    "set grid ytics\n"
    "bin(x, w) = w * floor(x / w + 0.5)\n";

/* The figures of boards with a known optimum (gnuplot fails on a plot
 * with no point, so they are left out when no board has one). */
static const char PLOTS_ERROR[] =
    "set output 'heuristic_error.png'\n"
    "set multiplot layout 2,1\n"
    "set title 'network: heuristic - optimal distance on the start boards'\n"
    "set xlabel 'heuristic prediction error (moves)'\n"
    "set ylabel 'boards'\n"
    "set offsets 0.5, 0.5, 0, 0\n"
    "set boxwidth 0.45 absolute\n"
    "plot 'instances.tsv' every ::1 using (bin($21, 0.5)):(1) smooth frequency with boxes "
    "title 'ANN (0.5-move bins)'\n"
    "set title 'baseline heuristic - optimal distance on the start boards'\n"
    "set boxwidth 0.9 absolute\n"
    "plot 'instances.tsv' every ::1 using (bin($22, 1)):(1) smooth frequency with boxes "
    "lc rgb '#d95f02' title 'baseline'\n"
    "unset multiplot\n";

static const char PLOTS_EXCESS[] =
    "set output 'excess.png'\n"
    "set title 'network search: solution length - optimal length'\n"
    "set xlabel 'excess moves'\n"
    "set xtics 1\n"
    "plot 'instances.tsv' every ::1 using (bin($8, 1)):(1) smooth frequency with boxes "
    "title 'boards'\n"
    "set xtics autofreq\n";

static const char PLOTS_EXPANSIONS[] =
    "set output 'expansions.png'\n"
    "set title 'expanded nodes per board'\n"
    "set xlabel 'log10(expanded nodes)'\n"
    "set offsets 0.25, 0.25, 0, 0\n"
    "set boxwidth 0.22 absolute\n"
    "plot 'instances.tsv' every ::1 using (bin(log10($10 + 1), 0.25)):(1) smooth frequency "
    "with boxes title 'network search', "
    "'' every ::1 using (bin(log10($19 + 1), 0.25)):(1) smooth frequency with boxes "
    "fs transparent solid 0.4 lc rgb '#d95f02' title 'baseline'\n";

/* Run gnuplot on plots.gp inside dir; 1 when the figures were drawn. */
/* A figure gnuplot wrote in full: a PNG ends with its IEND chunk. A full
 * disk or a file-size limit leaves a 0-byte or cut file while gnuplot may
 * still exit 0. */
static int png_complete(const char *path)
{
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    unsigned char tail[12];
    FILE *f = fopen(path, "rb");
    int ok = f && fseek(f, -12, SEEK_END) == 0 && fread(tail, 1, 12, f) == 12 &&
             memcmp(tail, iend, 12) == 0;
    if (f)
        fclose(f);
    return ok;
}

enum { FIG_ERROR, FIG_EXCESS, FIG_EXPANSIONS, FIG_COUNT };

static const struct {
    const char *png, *script;
} FIGURES[FIG_COUNT] = {{"heuristic_error.png", PLOTS_ERROR},
                        {"excess.png", PLOTS_EXCESS},
                        {"expansions.png", PLOTS_EXPANSIONS}};

/* Which figures have data: the error needs a known optimum, the excess a
 * board solved with one. */
static void figures_with_data(const heurnet_eval_row *rows, size_t n, int *on)
{
    on[FIG_ERROR] = on[FIG_EXCESS] = 0;
    on[FIG_EXPANSIONS] = n > 0;
    for (size_t i = 0; i < n; i++) {
        on[FIG_ERROR] |= rows[i].optimal >= 0;
        on[FIG_EXCESS] |= rows[i].optimal >= 0 && rows[i].ann.status == 0;
    }
}

static int write_plots(const char *path, const int *on)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    int bad = fputs(PLOTS_HEAD, f) < 0;
    for (int i = 0; i < FIG_COUNT; i++)
        if (on[i])
            bad |= fputs(FIGURES[i].script, f) < 0;
    if (bad | ferror(f) | fclose(f))
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    return 0;
}

/* 1 with figures, 0 without gnuplot (a warning), -1 when gnuplot ran but
 * failed or left a figure incomplete (an error: the report is not done). */
static int draw(const char *dir, const int *on)
{
    char cmd[4400];
    if (!on[FIG_EXPANSIONS])
        return 0; /* no board finished (the others need one too): nothing to draw */
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot plots.gp 2>plots.log", dir);
    if (strchr(dir, '\'')) {
        hn_log(HN_LOG_WARN, "no figures (the folder name %s contains a quote)", dir);
        return 0;
    }
    int rc = system(cmd);
    if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 127) {
        hn_log(HN_LOG_WARN, "gnuplot is not installed; no figures (plots.gp is in the report)");
        return 0;
    }
    if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
        return hn_fail(HN_ERR_IO, "gnuplot failed (see %s/plots.log)", dir), -1;
    for (int i = 0; i < FIG_COUNT; i++) {
        snprintf(cmd, sizeof cmd, "%s/%s", dir, FIGURES[i].png);
        if (on[i] && !png_complete(cmd))
            return hn_fail(HN_ERR_IO, "%s is missing, empty or cut short (disk full?)", cmd), -1;
    }
    return 1;
}

int heurnet_eval_report_write(const char *dir, const heurnet_eval_info *info,
                              const heurnet_eval_row *rows, size_t n, int quiet, int *plots)
{
    char path[4400];
    (void)quiet; /* figures are drawn silently; gnuplot's messages go to plots.log */
    double *buf = malloc((n ? n : 1) * sizeof *buf);
    if (!buf) {
        return hn_fail(HN_ERR_NOMEM, "eval report: out of memory");
    }
    int rc = 0;
    snprintf(path, sizeof path, "%s/instances.tsv", dir);
    rc = write_tsv(path, rows, n);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    if (!rc)
        rc = write_summary(path, info, rows, n, buf);
    free(buf);
    int on[FIG_COUNT];
    figures_with_data(rows, n, on);
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    if (!rc)
        rc = write_plots(path, on);
    int drawn = rc ? 0 : draw(dir, on);
    *plots = drawn > 0;
    return rc ? rc : drawn < 0 ? HN_ERR_IO : 0;
}
