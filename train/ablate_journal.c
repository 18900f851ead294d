/* The CSV of an ablation doubles as its journal: it is rewritten after
 * every finished run, rows in a fixed order and numbers in a fixed format,
 * so a rerun after a kill knows which runs are left and ends with the file
 * an uninterrupted run writes. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "common/hn.h"
#include "train/ablate.h"

struct trn_abl_journal {
    char **variant, **column, *config;
    uint64_t *seed;
    int nvar, nseed, ncol, count;
    struct trn_abl_run *run; /* [variant * nseed + seed]; metric NULL: missing */
    char *header;
};

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int header_make(trn_abl_journal *j)
{
    size_t len = strlen("variant,seed,config,curve") + 1;
    for (int c = 0; c < j->ncol; c++)
        len += strlen(j->column[c]) + 1;
    if (!(j->header = malloc(len)))
        return -1;
    strcpy(j->header, "variant,seed,config");
    for (int c = 0; c < j->ncol; c++)
        strcat(strcat(j->header, ","), j->column[c]);
    strcat(j->header, ",curve");
    return 0;
}

trn_abl_journal *trn_abl_journal_new(const char *const *variants, int nvar, const uint64_t *seeds,
                                     int nseed, const char *const *columns, int ncol,
                                     const char *config)
{
    trn_abl_journal *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    *j = (trn_abl_journal){.nvar = nvar, .nseed = nseed, .ncol = ncol};
    j->variant = calloc((size_t)nvar, sizeof *j->variant);
    j->column = calloc((size_t)ncol + 1, sizeof *j->column);
    j->seed = malloc((size_t)nseed * sizeof *j->seed);
    j->run = calloc((size_t)nvar * (size_t)nseed, sizeof *j->run);
    int ok = j->variant && j->column && j->seed && j->run && (j->config = dup_str(config));
    for (int v = 0; ok && v < nvar; v++)
        ok = (j->variant[v] = dup_str(variants[v])) != NULL;
    for (int c = 0; ok && c < ncol; c++)
        ok = (j->column[c] = dup_str(columns[c])) != NULL;
    if (!ok || header_make(j)) {
        trn_abl_journal_free(j);
        return NULL;
    }
    memcpy(j->seed, seeds, (size_t)nseed * sizeof *seeds);
    return j;
}

void trn_abl_journal_free(trn_abl_journal *j)
{
    if (!j)
        return;
    for (int v = 0; j->variant && v < j->nvar; v++)
        free(j->variant[v]);
    for (int c = 0; j->column && c < j->ncol; c++)
        free(j->column[c]);
    for (int r = 0; j->run && r < j->nvar * j->nseed; r++) {
        free(j->run[r].metric);
        free(j->run[r].curve);
    }
    free(j->variant);
    free(j->column);
    free(j->seed);
    free(j->run);
    free(j->header);
    free(j->config);
    free(j);
}

/* One number of a row; "nan" stands for a metric that has no value. */
static int field_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return end == s || *end || errno == ERANGE ? -1 : 0;
}

static int find_variant(const trn_abl_journal *j, const char *s)
{
    for (int v = 0; v < j->nvar; v++)
        if (!strcmp(j->variant[v], s))
            return v;
    return -1;
}

static int find_seed(const trn_abl_journal *j, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long u = strtoull(s, &end, 10);
    if (end == s || *end || errno || *s == '-')
        return -1;
    for (int k = 0; k < j->nseed; k++)
        if (j->seed[k] == u)
            return k;
    return -1;
}

/* "v1;v2;..." -> a malloc'd array (NULL and 0 for an empty field). */
static int parse_curve(const char *s, double **out, int *n)
{
    *out = NULL;
    *n = 0;
    if (!*s)
        return 0;
    int cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ';';
    if (!(*out = malloc((size_t)cap * sizeof **out)))
        return HN_ERR_NOMEM;
    char buf[64];
    for (const char *p = s;;) {
        size_t len = strcspn(p, ";");
        if (len >= sizeof buf)
            return HN_ERR_FORMAT;
        memcpy(buf, p, len);
        buf[len] = '\0';
        if (field_number(buf, &(*out)[(*n)++]))
            return HN_ERR_FORMAT;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

static int store(trn_abl_journal *j, int v, int k, double *metric, double *curve, int ncurve)
{
    struct trn_abl_run *r = &j->run[v * j->nseed + k];
    if (r->metric) {
        free(metric);
        free(curve);
        return -1;
    }
    *r = (struct trn_abl_run){.metric = metric, .curve = curve, .ncurve = ncurve};
    j->count++;
    return 0;
}

/* Split the row into fields (in place); returns their number. */
static int split(char *s, char **f, int cap)
{
    int n = 0;
    for (char *p = s;; p++) {
        if (n == cap)
            return n + 1;
        f[n++] = p;
        p = strchr(p, ',');
        if (!p)
            return n;
        *p = '\0';
    }
}

int trn_abl_journal_add_row(trn_abl_journal *j, const char *line, const char *where)
{
    char *buf = dup_str(line);
    char **f = malloc(((size_t)j->ncol + 4) * sizeof *f);
    double *metric = malloc(((size_t)j->ncol + 1) * sizeof *metric), *curve = NULL;
    int ncurve = 0, rc = 0, v = -1, k = -1;
    if (!buf || !f || !metric) {
        rc = hn_fail(HN_ERR_NOMEM, "%s: out of memory", where);
        goto done;
    }
    if (split(buf, f, j->ncol + 4) != j->ncol + 4) {
        rc = hn_fail(HN_ERR_FORMAT, "%s: expected %d comma-separated fields", where, j->ncol + 4);
        goto done;
    }
    if ((v = find_variant(j, f[0])) < 0 || (k = find_seed(j, f[1])) < 0) {
        rc = hn_fail(HN_ERR_FORMAT,
                     "%s: variant '%s' seed '%s' is not a run of this ablation (another "
                     "command wrote the CSV? use another --csv)",
                     where, f[0], f[1]);
        goto done;
    }
    if (strcmp(f[2], j->config)) {
        rc = hn_fail(HN_ERR_FORMAT,
                     "%s: run %s seed %s was trained with other settings (config %s, this "
                     "command's %s: data, training or search options differ; use another --csv)",
                     where, f[0], f[1], f[2], j->config);
        goto done;
    }
    for (int c = 0; c < j->ncol; c++)
        if (field_number(f[c + 3], &metric[c])) {
            rc = hn_fail(HN_ERR_FORMAT, "%s: column %s: '%s' is not a number", where, j->column[c],
                         f[c + 3]);
            goto done;
        }
    if ((rc = parse_curve(f[j->ncol + 3], &curve, &ncurve))) {
        rc = hn_fail(rc, "%s: the curve '%.40s' is not numbers separated by ';'", where,
                     f[j->ncol + 3]);
        goto done;
    }
    if (store(j, v, k, metric, curve, ncurve))
        rc = hn_fail(HN_ERR_FORMAT, "%s: variant %s seed %s appears twice", where, f[0], f[1]);
    metric = curve = NULL; /* stored, or freed by store */
done:
    free(metric);
    free(curve);
    free(f);
    free(buf);
    return rc;
}

/* Read a whole line of any length into *buf: 1, 0 at the end of the file,
 * or a status. Every line the journal writer leaves ends in a newline and
 * holds no NUL, so a last line without one was cut short (a kill, a full
 * disk, a truncate) and a NUL is damage: both are refused, not parsed. */
static int read_line(FILE *f, char **buf, size_t *cap, const char *where)
{
    ssize_t n = getline(buf, cap, f);
    if (n < 0)
        return ferror(f) ? hn_fail(HN_ERR_IO, "%s: read error", where) : 0;
    if (memchr(*buf, '\0', (size_t)n))
        return hn_fail(HN_ERR_FORMAT, "%s: a NUL byte in the line (damaged file)", where);
    if ((*buf)[n - 1] != '\n')
        return hn_fail(HN_ERR_FORMAT,
                       "%s: the last line has no newline: the file was cut short (delete "
                       "that line and the same command trains that run again)",
                       where);
    (*buf)[--n] = '\0';
    if (n && (*buf)[n - 1] == '\r')
        (*buf)[--n] = '\0';
    return 1;
}

int trn_abl_journal_load(trn_abl_journal *j, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT
                   ? 0
                   : hn_fail(HN_ERR_IO, "%s: cannot read the CSV: %s", path, strerror(errno));
    char *line = NULL, where[1100];
    size_t cap = 0;
    int no = 1;
    snprintf(where, sizeof where, "%s:1", path);
    int got = read_line(f, &line, &cap, where), rc = got < 0 ? got : 0; /* empty: no runs */
    if (got == 1 && strcmp(line, j->header)) {
        rc = hn_fail(HN_ERR_FORMAT,
                     "%s:1: the header is not this ablation's (other --instances or --search? "
                     "use another --csv)\n  want: %.300s\n  have: %.300s",
                     path, j->header, line);
    }
    while (!rc && got == 1) {
        snprintf(where, sizeof where, "%s:%d", path, ++no);
        got = read_line(f, &line, &cap, where);
        if (got < 0)
            rc = got;
        else if (got == 1 && *line)
            rc = trn_abl_journal_add_row(j, line, where);
    }
    free(line);
    fclose(f);
    return rc;
}

static int put_number(FILE *f, const char *sep, double x)
{
    return isnan(x) ? fprintf(f, "%snan", sep) : fprintf(f, "%s%.7g", sep, x);
}

static void put_row(FILE *f, const trn_abl_journal *j, int v, int k, const double *metric,
                    const double *curve, int ncurve)
{
    fprintf(f, "%s,%llu,%s", j->variant[v], (unsigned long long)j->seed[k], j->config);
    for (int c = 0; c < j->ncol; c++)
        put_number(f, ",", metric[c]);
    fputc(',', f);
    for (int e = 0; e < ncurve; e++)
        put_number(f, e ? ";" : "", curve[e]);
}

char *trn_abl_row_format(const trn_abl_journal *j, int variant, int seed, const double *metric,
                         const double *curve, int ncurve)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f)
        return NULL;
    put_row(f, j, variant, seed, metric, curve, ncurve);
    if (fclose(f)) {
        free(s);
        return NULL;
    }
    return s;
}

int trn_abl_journal_save(const trn_abl_journal *j, const char *path)
{
    char part[4096];
    int rc;
    FILE *f = hn_part_fopen(path, part, sizeof part, &rc);
    if (!f)
        return rc;
    fprintf(f, "%s\n", j->header);
    for (int r = 0; r < j->nvar * j->nseed; r++) {
        const struct trn_abl_run *run = &j->run[r];
        if (!run->metric)
            continue;
        put_row(f, j, r / j->nseed, r % j->nseed, run->metric, run->curve, run->ncurve);
        fputc('\n', f);
    }
    if (ferror(f) | fclose(f)) {
        hn_part_discard(path);
        return hn_fail(HN_ERR_IO, "%s: write error (disk full?)", part);
    }
    return hn_part_commit(path);
}

const struct trn_abl_run *trn_abl_journal_get(const trn_abl_journal *j, int variant, int seed)
{
    const struct trn_abl_run *r = &j->run[variant * j->nseed + seed];
    return r->metric ? r : NULL;
}

int trn_abl_journal_count(const trn_abl_journal *j)
{
    return j->count;
}

int trn_abl_journal_column(const trn_abl_journal *j, int v, int col, double *x, int *idx)
{
    int n = 0;
    for (int k = 0; k < j->nseed; k++) {
        const struct trn_abl_run *r = trn_abl_journal_get(j, v, k);
        if (!r)
            continue;
        if (x)
            x[n] = r->metric[col];
        if (idx)
            idx[n] = k;
        n++;
    }
    return n;
}
