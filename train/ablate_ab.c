/* A/B results over seeds (train/ablate.h): rows read once, then per
 * instance and arm the values in seed order, so the paired test pairs the
 * runs of one seed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "train/ablate.h"

enum { AB_MAX = 4096, AB_NAME = 64 };

typedef struct {
    char inst[AB_NAME], arm[AB_NAME];
    long seed;
    double value;
} ab_row;

struct trn_abl_ab {
    ab_row rows[AB_MAX];
    int n;
};

/* The room of one comparison (heap, not stack: about 1 MB). */
typedef struct {
    char insts[AB_MAX][AB_NAME], arms[AB_MAX][AB_NAME];
    long seeds[AB_MAX];
    double vb[AB_MAX], va[AB_MAX];
    double a[AB_MAX], b[AB_MAX], x[AB_MAX], bx[AB_MAX];
} ab_work;

static int read_rows(FILE *f, const char *path, trn_abl_ab *ab)
{
    char line[512];
    int lineno = 0;
    ab->n = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        ab_row *r = &ab->rows[ab->n];
        if (sscanf(line, "%63s %63s %ld %lf", r->inst, r->arm, &r->seed, &r->value) != 4)
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: want INSTANCE ARM SEED VALUE", path,
                           lineno);
        if (++ab->n == AB_MAX)
            return hn_fail(HN_ERR_LIMIT, "%s: more than %d rows", path, AB_MAX);
    }
    return HN_OK;
}

trn_abl_ab *trn_abl_ab_read(const char *path, int *status)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        *status = hn_fail(HN_ERR_IO, "%s: cannot open the results", path);
        return NULL;
    }
    trn_abl_ab *ab = malloc(sizeof *ab);
    *status = ab ? read_rows(f, path, ab) : hn_fail(HN_ERR_NOMEM, "out of memory");
    fclose(f);
    if (*status) {
        free(ab);
        return NULL;
    }
    return ab;
}

void trn_abl_ab_free(trn_abl_ab *ab)
{
    free(ab);
}

/* Values of (inst, arm) in seed order of `seeds` (NAN where missing). */
static int values_of(const trn_abl_ab *ab, const char *inst, const char *arm, const long *seeds,
                     int nseeds, double *v)
{
    int found = 0;
    for (int s = 0; s < nseeds; s++) {
        v[s] = NAN;
        for (int i = 0; i < ab->n; i++)
            if (ab->rows[i].seed == seeds[s] && !strcmp(ab->rows[i].inst, inst) &&
                !strcmp(ab->rows[i].arm, arm)) {
                v[s] = ab->rows[i].value;
                found++;
                break;
            }
    }
    return found;
}

/* Distinct values of one column, in order of appearance. */
static int distinct(const trn_abl_ab *ab, int col, char (*out)[AB_NAME], long *seeds)
{
    int k = 0;
    for (int i = 0; i < ab->n; i++) {
        const ab_row *r = &ab->rows[i];
        int j = 0;
        for (; j < k; j++)
            if (col == 2 ? seeds[j] == r->seed : !strcmp(out[j], col == 0 ? r->inst : r->arm))
                break;
        if (j < k)
            continue;
        if (col == 2)
            seeds[k++] = r->seed;
        else
            memcpy(out[k++], col == 0 ? r->inst : r->arm, AB_NAME);
    }
    return k;
}

/* The values present of v[0..n) into x; their count. */
static int present(const double *v, int n, double *x)
{
    int m = 0;
    for (int s = 0; s < n; s++)
        if (!isnan(v[s]))
            x[m++] = v[s];
    return m;
}

/* One line: arm (values v) against the base (values base) by seed. */
static void arm_line(ab_work *w, struct trn_abl_ab_line *l, int nseeds, int is_base)
{
    const double *base = w->vb, *v = w->va;
    double *a = w->a, *b = w->b, *x = w->x, *bx = w->bx;
    int np = 0;
    for (int s = 0; s < nseeds; s++)
        if (!isnan(v[s]) && !isnan(base[s]))
            a[np] = base[s], b[np++] = v[s];
    int nx = present(v, nseeds, x), nb = present(base, nseeds, bx);
    struct trn_abl_stats sb;
    trn_abl_stats_of(x, nx, &l->s);
    trn_abl_stats_of(bx, nb, &sb);
    struct trn_abl_paired pt;
    l->compared =
        !(is_base || np < 2 || nx < 2 || nb < 2 || trn_abl_paired_test(a, b, np, 0.05, &pt));
    if (!l->compared)
        return;
    l->diff = l->s.mean - sb.mean;
    l->paired_p = pt.p;
    l->welch_p = trn_abl_welch_p(&sb, &l->s);
}

int trn_abl_ab_compare(const trn_abl_ab *ab, const char *base,
                       void (*fn)(const struct trn_abl_ab_line *l, void *user), void *user)
{
    ab_work *w = malloc(sizeof *w);
    if (!w)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    int ni = distinct(ab, 0, w->insts, NULL), na = distinct(ab, 1, w->arms, NULL);
    int ns = distinct(ab, 2, NULL, w->seeds), st = HN_OK;
    for (int i = 0; i < ni && st == HN_OK; i++) {
        if (!values_of(ab, w->insts[i], base, w->seeds, ns, w->vb)) {
            st = hn_fail(HN_ERR_ARG, "no rows of the base arm '%s' for %s", base, w->insts[i]);
            break;
        }
        for (int k = 0; k < na; k++) {
            if (!values_of(ab, w->insts[i], w->arms[k], w->seeds, ns, w->va))
                continue;
            struct trn_abl_ab_line l = {.inst = w->insts[i], .arm = w->arms[k]};
            arm_line(w, &l, ns, !strcmp(w->arms[k], base));
            fn(&l, user);
        }
    }
    free(w);
    return st;
}
