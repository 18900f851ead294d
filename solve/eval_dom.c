/* The report of heurnet eval on any domain: per state the search's result
 * against the file's length (a known optimum or a reference such as
 * DeepCubeA's own solution), instances.tsv, summary.md and gnuplot figures. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "solve/eval_dom.h"
#include "solve/eval_report.h"

static int write_tsv(const char *path, const heurnet_dom_eval_row *rows, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    int bad = fprintf(f, "id\tline\tknown\tstatus\tvalid\tlength\tdiff\texpanded\tgenerated\t"
                         "nn_rows\tseconds\tproven\th0\ttime_limit\tphases\tsaved\n") < 0;
    for (size_t i = 0; i < n && !bad; i++) {
        const heurnet_dom_eval_row *r = &rows[i];
        int ok = r->status == 0 && r->valid;
        bad |=
            fprintf(f, "%s\t%d\t%d\t%s\t%d\t%d\t%d\t%llu\t%llu\t%llu\t%.4f\t%d\t%d\t%.3f\t%d\t%d\n",
                    r->id, r->line, r->known, r->status == 0 ? "solved" : hn_strerror(r->status),
                    r->valid, ok ? r->length : -1, ok && r->known >= 0 ? r->length - r->known : 0,
                    (unsigned long long)r->expanded, (unsigned long long)r->generated,
                    (unsigned long long)r->rows, r->seconds, r->proven, r->h0, r->time_limit,
                    r->phases, r->saved) < 0;
    }
    if (bad | ferror(f) | fclose(f))
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    return 0;
}

void heurnet_dom_eval_summarize(const heurnet_dom_eval_row *rows, size_t n, heurnet_dom_eval_sum *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (size_t i = 0; i < n; i++) {
        const heurnet_dom_eval_row *r = &rows[i];
        s->seconds += r->seconds;
        s->seconds_max = r->seconds > s->seconds_max ? r->seconds : s->seconds_max;
        s->expanded_all += (double)r->expanded;
        s->rows_all += (double)r->rows;
        if (r->status != 0 || !r->valid)
            continue;
        s->solved++;
        s->length += r->length;
        s->expanded += (double)r->expanded;
        s->rows += (double)r->rows;
        s->proven += r->proven;
        if (r->known < 0)
            continue;
        s->with_known++;
        s->known += r->known;
        s->length_known += r->length;
        int dl = r->length - r->known;
        s->shorter += dl < 0;
        s->equal += dl == 0;
        s->longer += dl > 0;
        s->excess_max = dl > s->excess_max ? dl : s->excess_max;
    }
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

void heurnet_dom_eval_headline(FILE *out, const heurnet_dom_eval_info *info,
                               const heurnet_dom_eval_row *rows, size_t n)
{
    heurnet_dom_eval_sum s;
    heurnet_dom_eval_summarize(rows, n, &s);
    figs f = {.k = 0};
    double wk = (double)s.with_known, sv = (double)s.solved;
    fprintf(out, "states=%zu solved=%zu (replayed) ", s.n, s.solved);
    if (info->reference)
        fprintf(out, "mean_length=%s mean_reference=%s ratio=%s shorter=%zu equal=%zu longer=%zu ",
                ratio(&f, "%.3f", s.length_known, wk), ratio(&f, "%.3f", s.known, wk),
                ratio(&f, "%.4f", s.length_known, s.known), s.shorter, s.equal, s.longer);
    else
        fprintf(out, "optimal=%zu/%zu (%s%s) mean_excess=%s max_excess=%s ", s.equal, s.with_known,
                ratio(&f, "%.1f", 100.0 * (double)s.equal, wk), s.with_known ? "%" : "",
                ratio(&f, "%.3f", s.length_known - s.known, wk),
                ratio(&f, "%.0f", (double)s.excess_max, s.with_known ? 1 : 0));
    f.k = 0;
    fprintf(out,
            "proven=%zu mean_expanded=%s mean_nn_rows=%s mean_seconds=%s max_seconds=%.3f "
            "mean_expanded_all=%s\n",
            s.proven, ratio(&f, "%.1f", s.expanded, sv), ratio(&f, "%.1f", s.rows, sv),
            ratio(&f, "%.3f", s.seconds, (double)s.n), s.seconds_max,
            ratio(&f, "%.1f", s.expanded_all, (double)s.n));
}

static int write_summary(const char *path, const heurnet_dom_eval_info *info,
                         const heurnet_dom_eval_row *rows, size_t n)
{
    heurnet_dom_eval_sum s;
    heurnet_dom_eval_summarize(rows, n, &s);
    FILE *f = fopen(path, "w");
    if (!f)
        return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    int bad = fprintf(f,
                      "# heurnet eval: %s\n\n| | |\n|---|---|\n| domain | `%s` |\n"
                      "| instances | `%s` (%zu of %zu states%s) |\n| model | `%s` |\n"
                      "| search | `%s`, heuristic `%s` |\n| limits | %s |\n\n",
                      info->domain, info->domain, info->instances, n, info->in_file,
                      info->interrupted ? ", interrupted" : "", info->model ? info->model : "none",
                      info->search, info->heuristic, info->limits) < 0;
    figs v = {.k = 0};
    double wk = (double)s.with_known, sv = (double)s.solved;
    heurnet_eval_goal_note(f, info->model);
    bad |= fprintf(f, "| figure | value |\n|---|---|\n| solved and replayed | %zu / %zu |\n",
                   s.solved, s.n) < 0;
    if (info->reference)
        bad |= fprintf(f,
                       "| mean length (states with a reference) | %s |\n"
                       "| mean reference length | %s |\n| length / reference | %s (%s %%) |\n"
                       "| shorter / equal / longer than the reference | %zu / %zu / %zu |\n",
                       ratio(&v, "%.3f", s.length_known, wk), ratio(&v, "%.3f", s.known, wk),
                       ratio(&v, "%.4f", s.length_known, s.known),
                       ratio(&v, "%+.2f", 100.0 * (s.length_known - s.known), s.known), s.shorter,
                       s.equal, s.longer) < 0;
    else
        bad |= fprintf(f,
                       "| optimal (of states with a known optimum) | %zu / %zu (%s %%) |\n"
                       "| mean excess / max | %s / %s |\n",
                       s.equal, s.with_known, ratio(&v, "%.1f", 100.0 * (double)s.equal, wk),
                       ratio(&v, "%.3f", s.length_known - s.known, wk),
                       ratio(&v, "%.0f", (double)s.excess_max, s.with_known ? 1 : 0)) < 0;
    v.k = 0;
    bad |= fprintf(f,
                   "| proven optimal by the search | %zu |\n| mean length (all solved) | %s |\n"
                   "| mean expanded (solved states) | %s |\n"
                   "| mean expanded over all states (unsolved ones: until the limit) | %s |\n"
                   "| mean network rows (solved states) | %s |\n"
                   "| mean / max seconds per state | %s / %.3f |\n| wall seconds | %.1f |\n",
                   s.proven, ratio(&v, "%.3f", s.length, sv), ratio(&v, "%.1f", s.expanded, sv),
                   ratio(&v, "%.1f", s.expanded_all, (double)s.n), ratio(&v, "%.1f", s.rows, sv),
                   ratio(&v, "%.3f", s.seconds, (double)s.n), s.seconds_max, info->wall) < 0;
    if (!s.solved && s.n)
        bad |= fprintf(f, "\n**No state was solved**: every figure of solved states is n/a; the "
                          "nodes expanded before the limit are in the row over all states and "
                          "in `instances.tsv`.\n") < 0;
    if (bad | ferror(f) | fclose(f))
        return hn_fail(HN_ERR_IO, "error writing %s", path);
    return 0;
}

static const char PLOTS[] =
    "# Redraw the figures of heurnet eval: gnuplot plots.gp (in the report folder)\n"
    "set terminal pngcairo size 800,560\nset datafile separator '\\t'\nset key top left\n"
    "bin(x, w) = w * floor(x / w + 0.5)\n"
    "set output 'length.png'\nset title 'solution length against the file''s length'\n"
    "set xlabel 'length in the file'\nset ylabel 'length found'\n"
    "plot 'instances.tsv' every ::1 using ($3 >= 0 && $5 == 1 ? $3 : 1/0):6 with points pt 7 "
    "ps 0.5 title 'states', x with lines title 'equal'\n"
    "set output 'diff.png'\nset title 'length found minus the file''s length'\n"
    "set xlabel 'moves'\nset ylabel 'states'\nset boxwidth 0.8 absolute\nset style fill solid 0.6\n"
    "plot 'instances.tsv' every ::1 using ($3 >= 0 && $5 == 1 ? $7 : 1/0):(1) smooth frequency "
    "with boxes title 'states'\n"
    "set output 'seconds.png'\nset title 'seconds per state'\nset xlabel 'seconds'\n"
    "set boxwidth 0.4 absolute\n"
    "plot 'instances.tsv' every ::1 using (bin($11, 0.5)):(1) smooth frequency with boxes "
    "title 'states'\n";

static const char *const PNG[] = {"length.png", "diff.png", "seconds.png"};

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
static int draw(const char *dir, const heurnet_dom_eval_row *rows, size_t n)
{
    size_t usable = 0;
    for (size_t i = 0; i < n; i++)
        usable += rows[i].status == 0 && rows[i].valid && rows[i].known >= 0;
    if (!usable || strchr(dir, '\''))
        return 0; /* every figure needs a solved state with a length in the file */
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot plots.gp 2>plots.log", dir);
    int rc = system(cmd);
    if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 127) {
        hn_log(HN_LOG_WARN, "gnuplot is not installed; no figures (plots.gp is in the report)");
        return 0;
    }
    if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0)
        return hn_fail(HN_ERR_IO, "gnuplot failed (see %s/plots.log)", dir), -1;
    for (size_t i = 0; i < sizeof PNG / sizeof *PNG; i++) {
        snprintf(cmd, sizeof cmd, "%s/%s", dir, PNG[i]);
        if (!png_complete(cmd))
            return hn_fail(HN_ERR_IO, "%s is missing, empty or cut short (disk full?)", cmd), -1;
    }
    return 1;
}

int heurnet_dom_eval_report_write(const char *dir, const heurnet_dom_eval_info *info,
                                  const heurnet_dom_eval_row *rows, size_t n, int *plots)
{
    char path[4400];
    *plots = 0;
    snprintf(path, sizeof path, "%s/instances.tsv", dir);
    int rc = write_tsv(path, rows, n);
    snprintf(path, sizeof path, "%s/summary.md", dir);
    rc = rc ? rc : write_summary(path, info, rows, n);
    snprintf(path, sizeof path, "%s/plots.gp", dir);
    if (!rc) {
        FILE *f = fopen(path, "w");
        if (!f)
            return hn_fail(HN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
        int bad = fputs(PLOTS, f) < 0;
        if (bad | ferror(f) | fclose(f))
            return hn_fail(HN_ERR_IO, "error writing %s", path);
    }
    if (rc)
        return rc;
    int drawn = draw(dir, rows, n);
    *plots = drawn > 0;
    return drawn < 0 ? HN_ERR_IO : 0;
}
