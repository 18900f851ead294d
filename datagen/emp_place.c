/* Place-scorer data: rows from srch_em_place_sample on each instance,
 * written as one HDF5 file with the group of each row, and read back with
 * every check the trainer relies on. */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hn_h5.h"
#include "datagen/emp_h5.h"
#include "datagen/emp_place.h"

static int add_row(void *user, int state, const float *x, float y)
{
    return dg_emp_rows_push(user, x, y, state);
}

typedef struct {
    const srch_em_place_sample_opts *o;
    const char *insts;
    int brk; /* break data */
} place_attrs;

/* The options as root attributes; nonzero if one failed. */
static int write_attrs(hid_t f, const void *ctx)
{
    const place_attrs *a = ctx;
    const srch_em_place_sample_opts *o = a->o;
    char feats[1024] = "";
    int dim = a->brk ? SRCH_EM_BREAK_DIM : SRCH_EM_PLACE_DIM;
    for (int i = 0; i < dim; i++)
        snprintf(feats + strlen(feats), sizeof feats - strlen(feats), "%s%s", i ? "," : "",
                 a->brk ? srch_em_bfeat_name(i) : srch_em_pfeat_name(i));
    return hn_h5_attr_set_str(f, "format", a->brk ? DG_EMP_BREAK_FORMAT : DG_EMP_PLACE_FORMAT) ||
           hn_h5_attr_set_int(f, "format_version", DG_EMP_PLACE_VERSION) ||
           hn_h5_attr_set_str(f, "encoder",
                              a->brk ? SRCH_EM_BREAK_ENCODER : SRCH_EM_PLACE_ENCODER) ||
           hn_h5_attr_set_str(f, "decision",
                              a->brk ? SRCH_EM_DECISION_BREAK : SRCH_EM_DECISION_PLACE) ||
           hn_h5_attr_set_str(f, "features", feats) ||
           hn_h5_attr_set_int(f, "seed", (long long)o->seed) ||
           hn_h5_attr_set_int(f, "states", o->states) || hn_h5_attr_set_int(f, "runs", o->runs) ||
           hn_h5_attr_set_int(f, "probe_nodes", o->probe_nodes) ||
           hn_h5_attr_set_double(f, "min_depth", o->min_depth) ||
           hn_h5_attr_set_double(f, "rate", o->rate) ||
           hn_h5_attr_set_double(f, "break_from", o->break_from) ||
           hn_h5_attr_set_int(f, "breaks", o->breaks) ||
           hn_h5_attr_set_int(f, "probe_rows", o->probe_rows) ||
           hn_h5_attr_set_str(f, "instances", ((const place_attrs *)ctx)->insts);
}

static int write_file(const char *out, const dg_emp_rows *r, const srch_em_place_sample_opts *o,
                      const char *const *names, int ninst, int brk)
{
    char insts[8192] = "";
    for (int i = 0; i < ninst; i++)
        snprintf(insts + strlen(insts), sizeof insts - strlen(insts), "%s%s", i ? " " : "",
                 names[i]);
    place_attrs a = {o, insts, brk};
    return dg_emp_rows_write(out, r, "group", write_attrs, &a);
}

/* Progress over all instances: states done before this one plus its own. */
typedef struct {
    const srch_em_place_sample_opts *o;
    uint64_t before, total;
} progress_ctx;

static void on_progress(uint64_t done, uint64_t total, const char *extra, void *user)
{
    (void)total;
    const progress_ctx *p = user;
    p->o->progress(p->before + done, p->total, extra, p->o->user);
}

/* Either kind of data (brk: the break gate's). */
static int gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
               const srch_em_place_sample_opts *o, const char *out, int brk)
{
    if (ninst < 1)
        return hn_fail(HN_ERR_ARG, "gen-data: no instance");
    dg_emp_rows rows = {.dim = brk ? SRCH_EM_BREAK_DIM : SRCH_EM_PLACE_DIM};
    int st = HN_OK, state = 0;
    progress_ctx pc = {.o = o, .total = (uint64_t)o->states * (uint64_t)ninst};
    for (int i = 0; i < ninst && st == HN_OK; i++) {
        srch_em_place_sample_opts oi = *o;
        oi.seed = hn_seed_mix(o->seed, (uint64_t)i);
        oi.progress = o->progress ? on_progress : NULL;
        oi.user = &pc;
        pc.before = (uint64_t)o->states * (uint64_t)i;
        st = (brk ? srch_em_break_sample : srch_em_place_sample)(inst[i], &oi, add_row, &rows,
                                                                 &state);
    }
    if (st == HN_OK)
        st = write_file(out, &rows, o, names, ninst, brk);
    dg_emp_rows_free(&rows);
    return st;
}

int dg_emp_place_gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
                     const srch_em_place_sample_opts *o, const char *out)
{
    return gen(inst, names, ninst, o, out, 0);
}

int dg_emp_break_gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
                     const srch_em_place_sample_opts *o, const char *out)
{
    return gen(inst, names, ninst, o, out, 1);
}

/* ---- reading ------------------------------------------------------------ */

static int check_attrs(hid_t f, const char *path, dg_emp_place_info *info)
{
    long long seed = 0;
    int st = dg_emp_check_header(f, path, DG_EMP_PLACE_FORMAT, DG_EMP_PLACE_VERSION,
                                 SRCH_EM_PLACE_ENCODER);
    if (st != HN_OK)
        return st;
    if (hn_h5_attr_get_int(f, "seed", &seed))
        return hn_fail(HN_ERR_FORMAT, "%s: attribute seed missing", path);
    info->seed = (uint64_t)seed;
    return HN_OK;
}

/* Groups as integers, each group's rows contiguous. */
static int to_groups(const char *path, const float *g, size_t n, int32_t **group, int *groups)
{
    *group = malloc(sizeof **group * n);
    if (!*group)
        return hn_fail(HN_ERR_NOMEM, "%s: out of memory for /group", path);
    *groups = 0;
    for (size_t i = 0; i < n; i++) {
        /* stored as floats: whole numbers up to 2^24 are exact, and a cast of
         * anything else would be undefined or change the grouping silently */
        if (!(g[i] >= 0.0f && g[i] <= 16777216.0f && g[i] == floorf(g[i])))
            return hn_fail(HN_ERR_FORMAT, "%s: /group row %zu holds %g, expected a group number",
                           path, i, (double)g[i]);
        (*group)[i] = (int32_t)g[i];
        if (i == 0 || (*group)[i] != (*group)[i - 1]) {
            if (i > 0 && (*group)[i] < (*group)[i - 1])
                return hn_fail(HN_ERR_FORMAT, "%s: /group not ascending at row %zu", path, i);
            (*groups)++;
        }
    }
    return HN_OK;
}

int dg_emp_place_read(const char *path, float **x, float **y, int32_t **group,
                      dg_emp_place_info *info)
{
    *x = *y = NULL;
    *group = NULL;
    float *g = NULL;
    hn_h5_quiet();
    hid_t f = hn_h5_open_read(path);
    if (f < 0)
        return (int)f;
    int st = check_attrs(f, path, info);
    hsize_t dx[2] = {0, SRCH_EM_PLACE_DIM}, dy[1] = {0};
    if (st == HN_OK)
        st = dg_emp_read_xy(f, path, dx, x, y);
    dy[0] = dx[0];
    if (st == HN_OK)
        st = dg_emp_read_ds(f, path, "group", 1, dy, &g);
    H5Fclose(f);
    if (st == HN_OK)
        st = to_groups(path, g, (size_t)dx[0], group, &info->groups);
    free(g);
    if (st != HN_OK) {
        free(*x), free(*y), free(*group);
        *x = *y = NULL;
        *group = NULL;
        return st;
    }
    info->rows = (size_t)dx[0];
    return HN_OK;
}
