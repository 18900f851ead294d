/* The report of heurnet eval on any domain: per state the search's result
 * against the optimum (the file's, or the baseline's) or the file's
 * reference length, the baseline's search, the heuristics' errors at the
 * start; instances.tsv, summary.md with the measures of Cahlik & Surynek
 * (2019): optimal share, excess, expansions by difficulty class (their
 * Table 1), and gnuplot figures like their Figures 3-6. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "solve/eval_dom.h"
#include "solve/eval_report.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    if (!n)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A search's status in one word (instances.tsv). */
static const char *status_name(int st)
{
    return st == 0                    ? "solved"
           : st == HN_ERR_LIMIT       ? "limit"
           : st == HN_ERR_INTERRUPTED ? "interrupted"
                                      : "error";
}

static int solved(const heurnet_dom_eval_row *r)
{
    return r->status == 0 && r->valid;
}

static int base_solved(const heurnet_dom_eval_row *r)
{
    return r->has_base && r->base_status == 0 && r->base_valid;
}

/* Length, optimum and reference figures of one solved state into s. */
static void add_solved(const heurnet_dom_eval_row *r, heurnet_dom_eval_sum *s)
{
    s->solved++;
    s->length += r->length;
    s->expanded += (double)r->expanded;
    s->rows += (double)r->rows;
    s->nn_seconds += r->nn_seconds;
    s->seconds_solved += r->seconds;
    s->proven += r->proven;
    if (r->optimal >= 0) {
        int d = r->length - r->optimal;
        s->with_opt++;
        s->optimal += d == 0;
        s->excess += d;
        s->excess_max = d > s->excess_max ? d : s->excess_max;
    }
    if (r->known >= 0) {
        int d = r->length - r->known;
        s->with_known++;
        s->known += r->known;
        s->length_known += r->length;
        s->shorter += d < 0;
        s->equal += d == 0;
        s->longer += d > 0;
    }
}

static void add_errors(const heurnet_dom_eval_row *r, heurnet_dom_eval_sum *s)
{
    if (r->optimal < 0)
        return;
    if (isfinite(r->h_start)) {
        double e = r->h_start - r->optimal;
        s->nerr++;
        s->h_err += e;
        s->h_abs_err += fabs(e);
        s->h_over += e > 0.5; /* rounds to an over-estimate */
    }
    if (r->has_base_h && isfinite(r->base_h)) {
        s->nbase_err++;
        s->base_err += r->base_h - r->optimal;
    }
}

int heurnet_dom_eval_summarize(const heurnet_dom_eval_row *rows, size_t n, heurnet_dom_eval_sum *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    double *buf = malloc((n ? n : 1) * sizeof *buf);
    if (!buf)
        return hn_fail(HN_ERR_NOMEM, "eval: out of memory");
    for (size_t i = 0; i < n; i++) {
        const heurnet_dom_eval_row *r = &rows[i];
        s->seconds += r->seconds;
        s->seconds_max = r->seconds > s->seconds_max ? r->seconds : s->seconds_max;
        s->expanded_all += (double)r->expanded;
        s->rows_all += (double)r->rows;
        s->base_ran += r->has_base != 0;
        if (base_solved(r)) {
            s->base_solved++;
            s->base_expanded += (double)r->base_expanded;
            s->base_seconds += r->base_seconds;
        }
        add_errors(r, s);
        if (solved(r))
            add_solved(r, s);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (solved(&rows[i]))
            buf[k++] = (double)rows[i].expanded;
    s->expanded_median = median(buf, k);
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (solved(&rows[i]))
            buf[k++] = rows[i].seconds;
    s->seconds_median = median(buf, k);
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (base_solved(&rows[i]))
            buf[k++] = (double)rows[i].base_expanded;
    s->base_expanded_median = median(buf, k);
    free(buf);
    return 0;
}

/* a / b as text, "n/a" when b is 0 (no state to average over), so that a
 * failed search never reads as a result of zeros. */
typedef struct {
    char v[8][32];
    int k;
} figs;

static const char *ratio(figs *f, const char *fmt, double a, double b)
{
    char *out = f->v[f->k++ % 8];
    if (b > 0)
        snprintf(out, sizeof f->v[0], fmt, a / b);
    else
        snprintf(out, sizeof f->v[0], "n/a");
    return out;
}

/* 1 when the expansion ratio baseline / search has a basis. */
static int has_ratio(const heurnet_dom_eval_sum *s)
{
    return s->solved && s->base_solved && s->expanded > 0;
}

static double expansion_ratio(const heurnet_dom_eval_sum *s)
{
    return has_ratio(s)
               ? (s->base_expanded / (double)s->base_solved) / (s->expanded / (double)s->solved)
               : 0;
}

void heurnet_dom_eval_headline(FILE *out, const heurnet_dom_eval_info *info,
                               const heurnet_dom_eval_row *rows, size_t n)
{
    heurnet_dom_eval_sum s;
    if (heurnet_dom_eval_summarize(rows, n, &s))
        return;
    figs f = {.k = 0};
    double wo = (double)s.with_opt, wk = (double)s.with_known, sv = (double)s.solved;
    fprintf(out,
            "states=%zu solved=%zu (replayed) optimal=%zu/%zu (%s%s) mean_excess=%s "
            "max_excess=%s ",
            s.n, s.solved, s.optimal, s.with_opt, ratio(&f, "%.1f", 100.0 * (double)s.optimal, wo),
            s.with_opt ? "%" : "", ratio(&f, "%.3f", s.excess, wo),
            ratio(&f, "%.0f", (double)s.excess_max, s.with_opt ? 1 : 0));
    f.k = 0;
    if (info->reference)
        fprintf(out, "mean_length=%s mean_reference=%s ratio=%s shorter=%zu equal=%zu longer=%zu ",
                ratio(&f, "%.3f", s.length_known, wk), ratio(&f, "%.3f", s.known, wk),
                ratio(&f, "%.4f", s.length_known, s.known), s.shorter, s.equal, s.longer);
    f.k = 0;
    fprintf(out,
            "proven=%zu mean_expanded=%s median_expanded=%s mean_nn_rows=%s mean_seconds=%s "
            "mean_seconds_all=%s max_seconds=%.3f mean_expanded_all=%s ",
            s.proven, ratio(&f, "%.1f", s.expanded, sv),
            ratio(&f, "%.1f", s.expanded_median, s.solved ? 1 : 0), ratio(&f, "%.1f", s.rows, sv),
            ratio(&f, "%.4f", s.seconds_solved, sv), ratio(&f, "%.4f", s.seconds, (double)s.n),
            s.seconds_max, ratio(&f, "%.1f", s.expanded_all, (double)s.n));
    f.k = 0;
    fprintf(out, "base_mean_expanded=%s base_mean_seconds=%s expansion_ratio=%s\n",
            ratio(&f, "%.1f", s.base_expanded, (double)s.base_solved),
            ratio(&f, "%.4f", s.base_seconds, (double)s.base_solved),
            ratio(&f, "%.2f", expansion_ratio(&s), has_ratio(&s) ? 1 : 0));
}

/* ---- instances.tsv (docs/formats.md: NA where a value has no basis) ---- */

static int put_int(FILE *f, int ok, long long v, const char *end)
{
    return ok ? fprintf(f, "%lld%s", v, end) : fprintf(f, "NA%s", end);
}

static int put_real(FILE *f, int ok, const char *fmt, double v, const char *end)
{
    if (!ok || !isfinite(v))
        return fprintf(f, "NA%s", end);
    return fprintf(f, fmt, v) < 0 ? -1 : fprintf(f, "%s", end);
}

static const char TSV_HEAD[] =
    "id\tline\tknown\toptimal\toptimal_source\tstatus\tvalid\tlength\texcess\tdiff\texpanded\t"
    "generated\tnn_rows\tnn_seconds\tseconds\ttime_limit\tproven\tphases\tsaved\th0\th_start\t"
    "h_error\tbase_status\tbase_valid\tbase_length\tbase_expanded\tbase_seconds\tbase_h\t"
    "base_error\n";

static int tsv_row(FILE *f, const heurnet_dom_eval_row *r)
{
    int ok = solved(r), opt = r->optimal >= 0, bs = base_solved(r), bad = 0;
    bad |= fprintf(f, "%s\t%d\t", r->id, r->line) < 0;
    bad |= put_int(f, r->known >= 0, r->known, "\t") < 0;
    bad |= put_int(f, opt, r->optimal, "\t") < 0;
    bad |= fprintf(f, "%c\t%s\t%d\t", r->opt_src, status_name(r->status), r->valid) < 0;
    bad |= put_int(f, ok, r->length, "\t") < 0;
    bad |= put_int(f, ok && opt, r->length - r->optimal, "\t") < 0;
    bad |= put_int(f, ok && r->known >= 0, r->length - r->known, "\t") < 0;
    bad |= fprintf(f, "%llu\t%llu\t%llu\t%.6f\t%.6f\t%.6f\t%d\t%d\t%d\t%d\t",
                   (unsigned long long)r->expanded, (unsigned long long)r->generated,
                   (unsigned long long)r->rows, r->nn_seconds, r->seconds, r->time_limit, r->proven,
                   r->phases, r->saved, r->h0) < 0;
    bad |= put_real(f, 1, "%.3f", r->h_start, "\t") < 0;
    bad |= put_real(f, opt, "%.3f", r->h_start - r->optimal, "\t") < 0;
    bad |= fprintf(f, "%s\t%d\t", r->has_base ? status_name(r->base_status) : "skipped",
                   r->base_valid) < 0;
    bad |= put_int(f, bs, r->base_length, "\t") < 0;
    bad |= put_int(f, r->has_base, (long long)r->base_expanded, "\t") < 0;
    bad |= put_real(f, r->has_base, "%.6f", r->base_seconds, "\t") < 0;
    bad |= put_real(f, r->has_base_h, "%.3f", r->base_h, "\t") < 0;
    bad |= put_real(f, r->has_base_h && opt, "%.3f", r->base_h - r->optimal, "\n") < 0;
    return bad;
}

static int write_tsv(const char *path, const heurnet_dom_eval_row *rows, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    int bad = fputs(TSV_HEAD, f) < 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad |= tsv_row(f, &rows[i]);
    if (bad | ferror(f) | fclose(f))
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    return 0;
}

/* ---- summary.md ---- */

static void write_settings(FILE *f, const heurnet_dom_eval_info *in, size_t n)
{
    fprintf(f,
            "# heurnet eval: %s\n\n| | |\n|---|---|\n| domain | `%s` |\n"
            "| instances | `%s` (%zu of %zu states%s; lengths in the file are %s) |\n"
            "| model | `%s` |\n| search | `%s`, heuristic `%s` |\n",
            in->domain, in->domain, in->instances, n, in->in_file,
            in->interrupted ? ", interrupted" : "", in->reference ? "references" : "optima",
            in->model ? in->model : "none", in->search, in->heuristic);
    if (in->baseline)
        fprintf(f, "| baseline | %s with `%s` |\n",
                strcmp(in->baseline_algo, "none") ? in->baseline_algo : "not searched",
                in->baseline);
    else
        fprintf(f, "| baseline | none |\n");
    fprintf(f, "| limits | %s |\n| heurnet | %s (%s), wall time %.1f s, one search thread |\n\n",
            in->limits, hn_version(), hn_revision(), in->wall);
}

static void write_results(FILE *f, const heurnet_dom_eval_info *in, const heurnet_dom_eval_sum *s)
{
    figs v = {.k = 0};
    double wo = (double)s->with_opt, sv = (double)s->solved, bs = (double)s->base_solved;
    fprintf(f, "## Results\n\n| measure | search | baseline |\n|---|---:|---:|\n");
    fprintf(f, "| solved and replayed | %zu / %zu | %zu%s |\n", s->solved, s->n, s->base_solved,
            s->base_ran ? "" : " (not run)");
    fprintf(f, "| optimal (of states with a known optimum) | %zu / %zu (%s %%) | %s |\n",
            s->optimal, s->with_opt, ratio(&v, "%.1f", 100.0 * (double)s->optimal, wo),
            s->base_ran ? "all (admissible)" : "");
    fprintf(f, "| mean / max excess | %s / %s | |\n", ratio(&v, "%.3f", s->excess, wo),
            ratio(&v, "%.0f", (double)s->excess_max, s->with_opt ? 1 : 0));
    if (in->reference) {
        v.k = 0;
        fprintf(f,
                "| mean length (states with a reference) / mean reference | %s / %s | |\n"
                "| length / reference | %s (%s %%) | |\n"
                "| shorter / equal / longer than the reference | %zu / %zu / %zu | |\n",
                ratio(&v, "%.3f", s->length_known, (double)s->with_known),
                ratio(&v, "%.3f", s->known, (double)s->with_known),
                ratio(&v, "%.4f", s->length_known, s->known),
                ratio(&v, "%+.2f", 100.0 * (s->length_known - s->known), s->known), s->shorter,
                s->equal, s->longer);
    }
    v.k = 0;
    fprintf(f,
            "| proven optimal by the search | %zu | |\n| mean length (all solved) | %s | |\n"
            "| mean expanded (solved states) | %s | %s |\n"
            "| median expanded (solved states) | %s | %s |\n",
            s->proven, ratio(&v, "%.3f", s->length, sv), ratio(&v, "%.1f", s->expanded, sv),
            ratio(&v, "%.1f", s->base_expanded, bs),
            ratio(&v, "%.1f", s->expanded_median, s->solved ? 1 : 0),
            ratio(&v, "%.1f", s->base_expanded_median, s->base_solved ? 1 : 0));
    v.k = 0;
    fprintf(f,
            "| mean expanded over all states (unsolved ones: until the limit) | %s | |\n"
            "| mean / median seconds (solved states) | %s / %s | %s |\n"
            "| mean / max seconds over all states | %s / %.3f | |\n",
            ratio(&v, "%.1f", s->expanded_all, (double)s->n),
            ratio(&v, "%.4f", s->seconds_solved, sv),
            ratio(&v, "%.4f", s->seconds_median, s->solved ? 1 : 0),
            ratio(&v, "%.4f", s->base_seconds, bs), ratio(&v, "%.4f", s->seconds, (double)s->n),
            s->seconds_max);
    v.k = 0;
    fprintf(f,
            "| mean network rows / seconds in the network (solved states) | %s / %s | |\n"
            "| expansion ratio baseline / search (means) | %s | |\n\n",
            ratio(&v, "%.1f", s->rows, sv), ratio(&v, "%.4f", s->nn_seconds, sv),
            ratio(&v, "%.2f", expansion_ratio(s), has_ratio(s) ? 1 : 0));
    if (!s->solved && s->n)
        fprintf(f, "**No state was solved**: every figure of solved states is n/a; the nodes "
                   "expanded before the limit are in the row over all states and in "
                   "`instances.tsv`.\n\n");
}

static void write_errors(FILE *f, const heurnet_dom_eval_sum *s)
{
    figs v = {.k = 0};
    if (!s->nerr && !s->nbase_err) {
        fprintf(f, "No state has a known optimum: no heuristic errors.\n\n");
        return;
    }
    double ne = (double)s->nerr;
    fprintf(f,
            "Heuristic of the start states against the optimum (%zu states): search heuristic "
            "mean error %s, mean absolute error %s, over-estimates (by more than half a move) "
            "%s %%; baseline heuristic mean error %s.\n\n",
            s->nerr, ratio(&v, "%+.3f", s->h_err, ne), ratio(&v, "%.3f", s->h_abs_err, ne),
            ratio(&v, "%.1f", 100.0 * s->h_over, ne),
            ratio(&v, "%+.3f", s->base_err, (double)s->nbase_err));
}

/* Table 1 of the paper: states split into quartiles of the baseline's
 * expansions; mean expansions of both searches per class. */
static void write_classes(FILE *f, const heurnet_dom_eval_row *r, size_t n, double *buf)
{
    fprintf(f, "## Expanded nodes by difficulty (baseline expansion quartiles, as Table 1 of "
               "Cahlik & Surynek 2019)\n\n");
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (base_solved(&r[i]) && solved(&r[i]))
            buf[k++] = (double)r[i].base_expanded;
    if (k < 4) {
        fprintf(f, "Fewer than 4 states were solved by both searches: no difficulty classes.\n\n");
        return;
    }
    qsort(buf, k, sizeof *buf, cmp_double);
    double cut[3] = {buf[k / 4], buf[k / 2], buf[3 * k / 4]};
    static const char *const name[4] = {"Easy", "Medium", "Hard", "Extreme"};
    fprintf(f, "| class | baseline expansions | states | search mean expanded | baseline mean "
               "expanded | ratio | search optimal |\n|---|---|---:|---:|---:|---:|---:|\n");
    for (int c = 0; c < 4; c++) {
        double ea = 0, eb = 0;
        size_t cnt = 0, opt = 0, with = 0;
        for (size_t i = 0; i < n; i++) {
            if (!base_solved(&r[i]) || !solved(&r[i]))
                continue;
            double e = (double)r[i].base_expanded;
            if ((e < cut[0] ? 0 : e < cut[1] ? 1 : e < cut[2] ? 2 : 3) != c)
                continue;
            cnt++;
            ea += (double)r[i].expanded;
            eb += e;
            with += r[i].optimal >= 0;
            opt += r[i].optimal >= 0 && r[i].length == r[i].optimal;
        }
        figs v = {.k = 0}; /* a class of ties may hold no state: n/a, not 0 */
        fprintf(f, "| %s | %s%.0f | %zu | %s | %s | %s | %zu/%zu |\n", name[c],
                c == 0 ? "< " : ">= ", c == 0 ? cut[0] : cut[c - 1], cnt,
                ratio(&v, "%.1f", ea, (double)cnt), ratio(&v, "%.1f", eb, (double)cnt),
                ratio(&v, "%.2f", eb, ea), opt, with);
    }
    fprintf(f, "\n");
}

/* The figures: each drawn when it has data (gnuplot fails on a plot with
 * no point). Columns as TSV_HEAD: 3 known, 8 length, 9 excess, 10 diff,
 * 11 expanded, 15 seconds, 22 h_error, 26 base_expanded, 29 base_error. */
enum { FIG_LENGTH, FIG_DIFF, FIG_SECONDS, FIG_ERROR, FIG_EXCESS, FIG_EXPANSIONS, FIG_COUNT };

static const struct {
    const char *png, *what, *script;
} FIGURES[FIG_COUNT] = {
    {"length.png", "length found against the file's length",
     "set output 'length.png'\nset title 'length found against the file''s length'\n"
     "set xlabel 'length in the file'\nset ylabel 'length found'\n"
     "plot 'instances.tsv' every ::1 using 3:8 with points pt 7 ps 0.5 title 'states', "
     "x with lines title 'equal'\n"},
    {"diff.png", "length found minus the file's length",
     "set output 'diff.png'\nset title 'length found minus the file''s length'\n"
     "set xlabel 'moves'\nset ylabel 'states'\nset boxwidth 0.8 absolute\n"
     "plot 'instances.tsv' every ::1 using (bin($10, 1)):(1) smooth frequency with boxes "
     "title 'states'\n"},
    {"seconds.png", "seconds per state",
     "set output 'seconds.png'\nset title 'seconds per state'\nset xlabel 'seconds'\n"
     "set ylabel 'states'\nset boxwidth 0.4 absolute\n"
     "plot 'instances.tsv' every ::1 using (bin($15, 0.5)):(1) smooth frequency with boxes "
     "title 'states'\n"},
    {"heuristic_error.png",
     "heuristic minus optimum at the start states, search and baseline (paper Figures 3, 4)",
     "set output 'heuristic_error.png'\nset title 'heuristic - optimum at the start states'\n"
     "set xlabel 'heuristic error (moves)'\nset ylabel 'states'\nset boxwidth 0.45 absolute\n"
     "plot 'instances.tsv' every ::1 using (bin($22, 0.5)):(1) smooth frequency with boxes "
     "title 'search heuristic (0.5-move bins)', '' every ::1 using (bin($29, 0.5)):(1) smooth "
     "frequency with boxes fs transparent solid 0.4 lc rgb '#d95f02' title 'baseline'\n"},
    {"excess.png", "solution length minus optimum (Figure 5)",
     "set output 'excess.png'\nset title 'solution length - optimal length'\n"
     "set xlabel 'excess moves'\nset ylabel 'states'\nset xtics 1\nset boxwidth 0.8 absolute\n"
     "plot 'instances.tsv' every ::1 using (bin($9, 1)):(1) smooth frequency with boxes "
     "title 'states'\nset xtics autofreq\n"},
    {"expansions.png", "expanded nodes of both searches, log scale (Figure 6)",
     "set output 'expansions.png'\nset title 'expanded nodes per state'\n"
     "set xlabel 'log10(expanded nodes)'\nset ylabel 'states'\nset boxwidth 0.22 absolute\n"
     "plot 'instances.tsv' every ::1 using (bin(log10($11 + 1), 0.25)):(1) smooth frequency "
     "with boxes title 'search', '' every ::1 using (bin(log10($26 + 1), 0.25)):(1) smooth "
     "frequency with boxes fs transparent solid 0.4 lc rgb '#d95f02' title 'baseline'\n"}};

static void figures_with_data(const heurnet_dom_eval_row *r, size_t n, int *on)
{
    memset(on, 0, sizeof *on * FIG_COUNT);
    for (size_t i = 0; i < n; i++) {
        int ok = solved(&r[i]);
        on[FIG_LENGTH] |= ok && r[i].known >= 0;
        on[FIG_DIFF] |= ok && r[i].known >= 0;
        on[FIG_SECONDS] |= ok;
        on[FIG_ERROR] |= r[i].optimal >= 0 && isfinite(r[i].h_start);
        on[FIG_EXCESS] |= ok && r[i].optimal >= 0;
        on[FIG_EXPANSIONS] |= ok;
    }
}

static int write_summary(const char *path, const heurnet_dom_eval_info *info,
                         const heurnet_dom_eval_row *rows, size_t n, const int *on)
{
    heurnet_dom_eval_sum s;
    double *buf = malloc((n ? n : 1) * sizeof *buf);
    if (!buf || heurnet_dom_eval_summarize(rows, n, &s)) {
        free(buf);
        return hn_fail(HN_ERR_NOMEM, "eval report: out of memory");
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        free(buf);
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    write_settings(f, info, n);
    heurnet_eval_goal_note(f, info->model);
    write_results(f, info, &s);
    write_errors(f, &s);
    write_classes(f, rows, n, buf);
    free(buf);
    fprintf(f, "## Figures\n\n");
    for (int i = 0; i < FIG_COUNT; i++)
        if (on[i])
            fprintf(f, "- `%s`: %s\n", FIGURES[i].png, FIGURES[i].what);
    fprintf(f, "- `plots.gp` redraws them from `instances.tsv` (gnuplot plots.gp).\n");
    if (ferror(f) | fclose(f))
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    return 0;
}

/* ---- figures ---- */

static const char PLOTS_HEAD[] =
    "# Redraw the figures of heurnet eval: gnuplot plots.gp (in the report folder)\n"
    "set terminal pngcairo noenhanced size 900,600\nset datafile separator \"\\t\"\n"
    "set datafile missing \"NA\"\nset style fill solid 0.5 border -1\nset grid ytics\n"
    "set key top left\nbin(x, w) = w * floor(x / w + 0.5)\n";

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

/* A figure gnuplot wrote in full: a PNG ends with its IEND chunk (a full
 * disk leaves a 0-byte or cut file while gnuplot may still exit 0). */
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

/* 1 drawn, 0 no gnuplot or nothing to draw, -1 gnuplot failed. */
static int draw(const char *dir, const int *on)
{
    int any = 0;
    for (int i = 0; i < FIG_COUNT; i++)
        any |= on[i];
    if (!any)
        return 0;
    if (strchr(dir, '\'')) {
        hn_log(HN_LOG_WARN, "no figures (the folder name %s contains a quote)", dir);
        return 0;
    }
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot plots.gp 2>plots.log", dir);
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

int heurnet_dom_eval_report_write(const char *dir, const heurnet_dom_eval_info *info,
                                  const heurnet_dom_eval_row *rows, size_t n, int *plots)
{
    char path[4400];
    int on[FIG_COUNT];
    *plots = 0;
    figures_with_data(rows, n, on);
    snprintf(path, sizeof path, "%s/instances.tsv", dir);
    int rc = write_tsv(path, rows, n);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    rc = rc ? rc : write_summary(path, info, rows, n, on);
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    rc = rc ? rc : write_plots(path, on);
    if (rc)
        return rc;
    int drawn = draw(dir, on);
    *plots = drawn > 0;
    return drawn < 0 ? HN_ERR_IO : 0;
}
