/* Statistics over repeated seeds: what a reader of an ablation table needs
 * to tell an architecture's effect from the luck of one seed. */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "common/hn.h"
#include "train/ablate.h"

void trn_abl_stats_of(const double *x, int n, struct trn_abl_stats *s)
{
    *s = (struct trn_abl_stats){.n = n};
    if (n < 1)
        return;
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += x[i];
    s->mean = sum / n;
    if (n < 2)
        return;
    /* two passes: the deviations, not sum of squares minus square of sums */
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (x[i] - s->mean) * (x[i] - s->mean);
    s->sd = sqrt(ss / (n - 1));
    s->se = s->sd / sqrt(n);
}

int trn_abl_seeds_needed(double diff, double sd, double alpha, double power, int max)
{
    if (diff == 0 || !isfinite(diff))
        return 0;
    if (sd <= 0)
        return 2;
    double effect = fabs(diff) / sd;
    for (int n = 2; n <= max; n++) {
        double df = n - 1;
        if (sqrt(n) * effect >= gsl_cdf_tdist_Qinv(alpha / 2, df) + gsl_cdf_tdist_Pinv(power, df))
            return n;
    }
    return max + 1;
}

int trn_abl_paired_test(const double *a, const double *b, int n, double alpha,
                        struct trn_abl_paired *out)
{
    *out = (struct trn_abl_paired){.n = n};
    if (n < 2)
        return hn_fail(HN_ERR_ARG, "a paired test needs at least 2 pairs, got %d", n);
    /* the differences' statistics, in two passes like trn_abl_stats_of */
    struct trn_abl_stats s = {.n = n};
    for (int i = 0; i < n; i++)
        s.mean += (b[i] - a[i]) / n;
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += (b[i] - a[i] - s.mean) * (b[i] - a[i] - s.mean);
    s.sd = sqrt(ss / (n - 1));
    s.se = s.sd / sqrt(n);
    out->diff = s.mean;
    out->sd = s.sd;
    out->se = s.se;
    double df = n - 1;
    double half = gsl_cdf_tdist_Qinv(alpha / 2, df) * s.se;
    out->lo = s.mean - half;
    out->hi = s.mean + half;
    if (s.se > 0) {
        out->t = s.mean / s.se;
        out->p = 2 * gsl_cdf_tdist_Q(fabs(out->t), df);
    } else {
        out->t = s.mean == 0 ? 0 : copysign(INFINITY, s.mean);
        out->p = s.mean == 0 ? 1 : 0;
    }
    out->seeds_needed = trn_abl_seeds_needed(s.mean, s.sd, alpha, 0.8, 100000);
    return 0;
}

double trn_abl_welch_p(const struct trn_abl_stats *a, const struct trn_abl_stats *b)
{
    double va = a->sd * a->sd / a->n, vb = b->sd * b->sd / b->n, diff = b->mean - a->mean;
    if (va + vb <= 0)
        return diff == 0 ? 1 : 0;
    double t = diff / sqrt(va + vb);
    double df = (va + vb) * (va + vb) / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
    return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}
