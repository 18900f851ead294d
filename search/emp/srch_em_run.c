/* emp solve's run to a file (search/emp/emp.h, srch_em_solve_file): the
 * local search, the best board recounted before it is written, and the
 * optional STAGE log. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn.h"
#include "search/emp/emp.h"

/* One TSV line per STAGE descent: features, run best before it, best it reached. */
static void on_descent(const float *f, int before, int reached, void *user)
{
    FILE *fp = user;
    for (int k = 0; k < SRCH_EM_STAGE_DIM; k++)
        fprintf(fp, "%.6g\t", (double)f[k]);
    fprintf(fp, "%d\t%d\n", before, reached);
}

/* The search and the recount: a board that does not recount to its score
 * is never written. */
static int solve_checked(const srch_em_inst *in, const srch_em_opts *o, int *piece, int *rot,
                         srch_em_result *res, srch_em_progress_fn fn, void *user)
{
    int v, st = srch_em_solve(in, o, piece, rot, res, fn, user);
    if (st != HN_OK && st != HN_ERR_INTERRUPTED)
        return st;
    if (srch_em_sol_check(in, piece, rot, &v, NULL, 0) != res->best || v)
        return hn_fail(HN_ERR_FORMAT,
                       "internal error: the best board does not recount to its score");
    return HN_OK;
}

int srch_em_solve_file(const srch_em_inst *in, srch_em_opts *o, const char *out,
                       const char *stage_log, srch_em_result *res, srch_em_progress_fn fn,
                       void *user)
{
    size_t n = (size_t)srch_em_inst_width(in) * (size_t)srch_em_inst_height(in);
    int *piece = malloc(sizeof(int) * n), *rot = malloc(sizeof(int) * n), st = HN_OK;
    FILE *log = NULL;
    if (!piece || !rot)
        st = hn_fail(HN_ERR_NOMEM, "out of memory for a %zu-cell board", n);
    else if (stage_log && !(log = fopen(stage_log, "w")))
        st = hn_fail(HN_ERR_IO, "%s: cannot open for writing: %s", stage_log, strerror(errno));
    o->on_descent = log ? on_descent : NULL;
    o->descent_user = log;
    if (!st)
        st = solve_checked(in, o, piece, rot, res, fn, user);
    if (log && (fclose(log) != 0) && !st)
        st = hn_fail(HN_ERR_IO, "%s: write error", stage_log);
    o->on_descent = NULL;
    if (!st)
        st = srch_em_sol_write(in, out, piece, rot);
    free(piece);
    free(rot);
    return st;
}
