/* Ablation studies without the printing: statistics over repeated seeds
 * (mean, standard error, paired t-test, seeds needed for a difference),
 * variant lists from brace grids and files, and the CSV journal that makes
 * an interrupted ablation resumable (one row per run, rewritten in a
 * canonical order after every finished run). Errors: status codes of
 * common/hn.h with hn_errmsg() naming the file, line and what was wrong. */
#ifndef TRN_ABLATE_H
#define TRN_ABLATE_H

#include <stddef.h>
#include <stdint.h>

/* ---- statistics -------------------------------------------------------- */

/* Mean, sample standard deviation and standard error (sd / sqrt(n)) of n
 * values; sd and se are 0 for n < 2. */
struct trn_abl_stats {
    int n;
    double mean, sd, se;
};
void trn_abl_stats_of(const double *x, int n, struct trn_abl_stats *s);

/* A paired comparison of b against a (differences b[i] - a[i]): the mean
 * difference, its standard error, the (1 - alpha) confidence interval from
 * Student's t with n - 1 degrees of freedom, the two-sided p-value of the
 * paired t-test, and the seeds needed to detect the observed difference
 * (see trn_abl_seeds_needed). With sd = 0 the p-value is 0 for a nonzero
 * and 1 for a zero difference. Returns 0, or HN_ERR_ARG for n < 2. */
struct trn_abl_paired {
    int n;
    double diff, sd, se, t, lo, hi, p;
    int seeds_needed; /* 0: not computable (no difference) */
};
int trn_abl_paired_test(const double *a, const double *b, int n, double alpha,
                        struct trn_abl_paired *out);

/* The smallest number of paired seeds n >= 2 for which a two-sided paired
 * t-test at level alpha detects a true mean difference `diff` with power
 * `power` when the differences have standard deviation `sd`; computed by
 * the usual t approximation sqrt(n) |diff| / sd >= t(1 - alpha/2, n - 1) +
 * t(power, n - 1). Returns n, `max` + 1 when more than `max` are needed,
 * or 0 when diff is 0. */
int trn_abl_seeds_needed(double diff, double sd, double alpha, double power, int max);

/* Two-sided p-value of Welch's t-test of b against a (unequal variances;
 * both n >= 2). With no variance: 1 for equal means, else 0. */
double trn_abl_welch_p(const struct trn_abl_stats *a, const struct trn_abl_stats *b);

/* ---- A/B results ------------------------------------------------------- */

/* The lines `INSTANCE ARM SEED VALUE` of an A/B run over seeds ('#'
 * comments), e.g. of `emp solve` arms. NULL with *status: HN_ERR_IO when
 * the file cannot be opened, HN_ERR_FORMAT for a bad line, HN_ERR_LIMIT
 * for too many rows, HN_ERR_NOMEM; hn_errmsg names the file and line. */
typedef struct trn_abl_ab trn_abl_ab;
trn_abl_ab *trn_abl_ab_read(const char *path, int *status);
void trn_abl_ab_free(trn_abl_ab *ab);

/* One instance and arm: its runs, mean, sd and standard error, and when
 * compared with the base arm (not the base itself, 2 or more runs and
 * pairs by seed) the mean difference and the paired and Welch p-values. */
struct trn_abl_ab_line {
    const char *inst, *arm;
    struct trn_abl_stats s;
    int compared;
    double diff, paired_p, welch_p;
};

/* For each instance (in order of appearance) and each arm with rows on it,
 * a line to fn. HN_ERR_ARG when an instance has no rows of the base arm
 * (the lines of the instances before it were given). */
int trn_abl_ab_compare(const trn_abl_ab *ab, const char *base,
                       void (*fn)(const struct trn_abl_ab_line *l, void *user), void *user);

/* ---- variant lists ----------------------------------------------------- */

/* A growing list of strings (variants); the list owns them. */
struct trn_abl_list {
    char **s;
    int n, cap;
};
void trn_abl_list_free(struct trn_abl_list *l);
int trn_abl_list_add(struct trn_abl_list *l, const char *s);

/* Append the expansion of a brace grid: "81-{64,128}-1@{mse,amse:4}" gives
 * 81-64-1@mse, 81-64-1@amse:4, 81-128-1@mse, 81-128-1@amse:4 (the first
 * group varies slowest). Groups do not nest; alternatives are not empty.
 * At most `max` strings in all. Returns 0, or HN_ERR_ARG with a message. */
int trn_abl_grid_expand(const char *pattern, int max, struct trn_abl_list *out);

/* Append one entry per line of `path` (blank lines and '#' comments
 * skipped; each line may itself be a brace grid). Returns 0, or
 * HN_ERR_IO / HN_ERR_ARG with a message naming the file and line. */
int trn_abl_variants_read(const char *path, int max, struct trn_abl_list *out);

/* ---- the journal ------------------------------------------------------- */

/* One finished run: its metric values (one per column) and its learning
 * curve (one value per epoch). */
struct trn_abl_run {
    double *metric;
    double *curve;
    int ncurve;
};

/* The runs of an ablation: variants x seeds, each finished or missing.
 * The CSV header is "variant,seed,config,<columns>,curve"; a row holds the
 * variant, the seed, the configuration tag, the metrics and the curve as
 * "v1;v2;...". The tag (no ',') stands for every setting shared by the
 * runs, so rows trained with other settings are refused. */
typedef struct trn_abl_journal trn_abl_journal;

/* variants, seeds, column names and config are copied. NULL on allocation
 * failure. */
trn_abl_journal *trn_abl_journal_new(const char *const *variants, int nvar, const uint64_t *seeds,
                                     int nseed, const char *const *columns, int ncol,
                                     const char *config);
void trn_abl_journal_free(trn_abl_journal *j);

/* Read the rows of an existing CSV `path` (a missing file is an empty
 * journal). Fails (HN_ERR_FORMAT, message with file and line) when the
 * header differs from this ablation's, a row has another variant, seed or
 * config or is repeated, or a field is not a number. HN_ERR_IO when
 * unreadable. */
int trn_abl_journal_load(trn_abl_journal *j, const char *path);

/* Store one CSV row (without newline); `where` names its source in
 * messages. Returns 0 or HN_ERR_FORMAT. */
int trn_abl_journal_add_row(trn_abl_journal *j, const char *line, const char *where);

/* Format the row of a run into a malloc'd string (no newline; the caller
 * frees). NULL on allocation failure. */
char *trn_abl_row_format(const trn_abl_journal *j, int variant, int seed, const double *metric,
                         const double *curve, int ncurve);

/* The run of (variant, seed index), or NULL when it is missing. */
const struct trn_abl_run *trn_abl_journal_get(const trn_abl_journal *j, int variant, int seed);
int trn_abl_journal_count(const trn_abl_journal *j);

/* Write header and rows (variant-major, then seed, in the order given to
 * _new) to path through path.part and a rename, so a kill never leaves a
 * half-written journal. Returns 0 or HN_ERR_IO naming the file. */
int trn_abl_journal_save(const trn_abl_journal *j, const char *path);

/* Collect column `col` of variant v over the seeds in seed order: the
 * values go to x, their seed indexes to idx (each may be NULL); returns
 * how many runs are present. */
int trn_abl_journal_column(const trn_abl_journal *j, int v, int col, double *x, int *idx);

#endif
