/* Move-scorer data for edge-matching local search: a deterministic driver of
 * the local search (the neighbourhoods of srch_em_solve, with a state budget
 * instead of a time limit so that the file depends only on the seed) stops
 * at every perturbation step, labels a sample of that step's candidate moves
 * by a short greedy rollout, then perturbs like srch_em_solve does. */
#include <hdf5.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "datagen/emp_moves.h"
#include "search/emp/srch_em_scorer.h"
#include "common/hn_h5.h"
#include "datagen/emp_h5.h"

const dg_emp_moves_opts DG_EMP_MOVES_DEFAULTS = {
    .moves_per_state = 16, .horizon = 20, .seed = 1, .states = 200, .ta_n = 200, .nodes = 2000};

/* ---- rollout ------------------------------------------------------------ */

static int cell_degree(const srch_em_inst *in, int cell)
{
    int cls = srch_em_cell_class(in, cell);
    return cls == SRCH_EM_CORNER ? 2 : cls == SRCH_EM_EDGE ? 3 : 4;
}

/* A random non-fixed cell with a mismatched join (up to 64 draws), or -1. */
static int pick_bad_cell(const srch_em_board *b, int n, hn_rng *rng)
{
    const srch_em_inst *in = srch_em_board_inst(b);
    for (int t = 0; t < 64; t++) {
        int c = (int)hn_rng_below(rng, (uint32_t)n);
        if (!srch_em_board_fixed(b, c) && srch_em_board_cell_matches(b, c) < cell_degree(in, c))
            return c;
    }
    return -1;
}

int dg_emp_rollout(const srch_em_board *b, const srch_em_move *m, int horizon, uint64_t seed,
                   srch_em_board *s, srch_em_move *cand, int *gain)
{
    const srch_em_inst *in = srch_em_board_inst(b);
    int n = srch_em_inst_width(in) * srch_em_inst_height(in);
    int start = srch_em_board_score(b);
    srch_em_board_copy(s, b);
    srch_em_move_apply(s, m);
    int best = srch_em_board_score(s);
    hn_rng *rng = hn_rng_new(seed);
    if (!rng)
        return hn_fail(HN_ERR_NOMEM, "out of memory for a rollout");
    for (int t = 0; t < horizon; t++) {
        int c = pick_bad_cell(s, n, rng);
        if (c < 0)
            break;
        int nc = srch_em_moves_enum(s, c, cand, n + 4), k = -1, ties = 0;
        for (int i = 0; i < nc; i++) {
            if (k < 0 || cand[i].delta > cand[k].delta) {
                k = i;
                ties = 1;
            } else if (cand[i].delta == cand[k].delta && hn_rng_below(rng, (uint32_t)++ties) == 0) {
                k = i; /* reservoir pick among equal moves */
            }
        }
        if (k >= 0 && cand[k].delta >= 0)
            srch_em_move_apply(s, &cand[k]);
        int sc = srch_em_board_score(s);
        best = sc > best ? sc : best;
    }
    hn_rng_free(rng);
    *gain = best - start;
    return HN_OK;
}

/* ---- rows --------------------------------------------------------------- */

/* ---- driver ------------------------------------------------------------- */

typedef struct {
    const dg_emp_moves_opts *o;
    const srch_em_inst *in;
    int n, index;
    srch_em_board *cur, *best, *scratch;
    srch_em_feat *feat;
    srch_em_move *cand, *roll;
    int *order;
    hn_rng *rng;
    dg_emp_rows *rows;
    uint64_t states, total;
} drive;

/* One cycle of the neighbourhoods of srch_em_solve; returns the gain. */
static int drive_cycle(drive *d)
{
    int s0 = srch_em_board_score(d->cur);
    int w = srch_em_inst_width(d->in), h = srch_em_inst_height(d->in);
    int rw = w < 6 ? w : 6, rh = h < 6 ? h : 6;
    for (int i = 0; i < d->o->ta_n; i++)
        srch_em_ta(d->cur, 16, d->rng);
    srch_em_bo(d->cur, d->o->nodes, NULL);
    srch_em_bw(d->cur, d->rng);
    srch_em_tsr(d->cur);
    for (int i = 0; i < 4; i++) {
        int r0 = (int)hn_rng_below(d->rng, (uint32_t)(h - rh + 1));
        int c0 = (int)hn_rng_below(d->rng, (uint32_t)(w - rw + 1));
        srch_em_ro(d->cur, r0, c0, rh, rw, d->o->nodes, NULL);
    }
    if (srch_em_board_score(d->cur) > srch_em_board_score(d->best))
        srch_em_board_copy(d->best, d->cur);
    return srch_em_board_score(d->cur) - s0;
}

/* Label up to M of the nc candidates (one rollout seed per state, so the
 * candidates of a state are compared on common random numbers). */
static int label_state(drive *d, int nc)
{
    int m = d->o->moves_per_state < nc ? d->o->moves_per_state : nc;
    uint64_t rseed = hn_seed_mix(d->o->seed, ((uint64_t)d->index << 32) | d->states);
    float x[SRCH_EM_FEAT_DIM];
    srch_em_feat_sync(d->feat, d->cur);
    for (int i = 0; i < nc; i++)
        d->order[i] = i;
    for (int i = 0; i < m; i++) {
        int j = i + (int)hn_rng_below(d->rng, (uint32_t)(nc - i)), t = d->order[i];
        d->order[i] = d->order[j];
        d->order[j] = t;
        const srch_em_move *mv = &d->cand[d->order[i]];
        int gain, st = dg_emp_rollout(d->cur, mv, d->o->horizon, rseed, d->scratch, d->roll, &gain);
        if (st != HN_OK)
            return st;
        srch_em_feat_move(d->feat, d->cur, mv, x);
        if ((st = dg_emp_rows_push(d->rows, x, (float)gain, (int32_t)d->states)) != HN_OK)
            return st;
    }
    return HN_OK;
}

/* One perturbation move as in srch_em_solve, after labelling its state. */
static int perturb_move(drive *d)
{
    int cell, picks = 0;
    do
        cell = (int)hn_rng_below(d->rng, (uint32_t)d->n);
    while (srch_em_board_fixed(d->cur, cell) && ++picks < 64);
    int nc = srch_em_moves_enum(d->cur, cell, d->cand, d->n + 4);
    if (nc == 0)
        return HN_OK;
    int st = label_state(d, nc);
    if (st != HN_OK)
        return st;
    d->states++;
    int k = (int)hn_rng_below(d->rng, (uint32_t)nc);
    for (int tries = 0; tries < 8 && d->cand[k].delta < -1; tries++)
        k = (int)hn_rng_below(d->rng, (uint32_t)nc);
    srch_em_move_apply(d->cur, &d->cand[k]);
    return HN_OK;
}

static int drive_instance(drive *d)
{
    const dg_emp_moves_opts *o = d->o;
    srch_em_board_random(d->cur, d->rng);
    srch_em_board_copy(d->best, d->cur);
    int strength = 2 + d->n / 64, st = HN_OK, stale = 0;
    uint64_t goal = d->states + (uint64_t)o->states;
    while (d->states < goal && st == HN_OK) {
        if (hn_stop_requested())
            return hn_fail(HN_ERR_INTERRUPTED, "stopped on request; no file written");
        if (drive_cycle(d) > 0)
            continue;
        if (srch_em_board_score(d->cur) == srch_em_inst_joins(d->in) || ++stale > 100000)
            break; /* solved (or a board with no movable cell) */
        if (srch_em_board_score(d->cur) < srch_em_board_score(d->best) - 2)
            srch_em_board_copy(d->cur, d->best);
        for (int i = 0; i < strength && d->states < goal && st == HN_OK; i++)
            st = perturb_move(d);
        if (o->progress)
            o->progress(d->states, d->total, NULL, o->user);
    }
    return st;
}

static void drive_free(drive *d)
{
    srch_em_board_free(d->cur);
    srch_em_board_free(d->best);
    srch_em_board_free(d->scratch);
    srch_em_feat_free(d->feat);
    free(d->cand);
    free(d->roll);
    free(d->order);
    hn_rng_free(d->rng);
}

static int drive_init(drive *d, const srch_em_inst *in, int index)
{
    int st = HN_OK;
    d->in = in;
    d->index = index;
    d->n = srch_em_inst_width(in) * srch_em_inst_height(in);
    d->cur = srch_em_board_new(in, &st);
    d->best = d->cur ? srch_em_board_new(in, &st) : NULL;
    d->scratch = d->best ? srch_em_board_new(in, &st) : NULL;
    d->feat = d->scratch ? srch_em_feat_new(in, &st) : NULL;
    if (!d->feat)
        return st;
    d->cand = malloc(sizeof *d->cand * (size_t)(d->n + 4));
    d->roll = malloc(sizeof *d->roll * (size_t)(d->n + 4));
    d->order = malloc(sizeof *d->order * (size_t)(d->n + 4));
    d->rng = hn_rng_new(hn_seed_mix(d->o->seed, (uint64_t)index));
    if (!d->cand || !d->roll || !d->order || !d->rng)
        return hn_fail(HN_ERR_NOMEM, "out of memory for the data generator");
    return HN_OK;
}

int dg_emp_write_ds(hid_t f, const char *name, int rank, const hsize_t *dims, const void *v,
                    int is_int)
{
    hid_t sp = H5Screate_simple(rank, dims, NULL);
    hid_t ds = sp < 0 ? -1
                      : H5Dcreate2(f, name, is_int ? H5T_STD_I32LE : H5T_IEEE_F32LE, sp,
                                   H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t e = ds < 0 ? -1
                      : H5Dwrite(ds, is_int ? H5T_NATIVE_INT32 : H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL,
                                 H5P_DEFAULT, v);
    if (ds >= 0)
        H5Dclose(ds);
    if (sp >= 0)
        H5Sclose(sp);
    return e < 0 ? -1 : 0;
}

typedef struct {
    const dg_emp_moves_opts *o;
    const char *feats, *insts;
} moves_attrs;

static int write_attrs(hid_t f, const void *ctx)
{
    const moves_attrs *m = ctx;
    const dg_emp_moves_opts *o = m->o;
    return hn_h5_attr_set_str(f, "format", DG_EMP_MOVES_FORMAT) ||
           hn_h5_attr_set_int(f, "format_version", DG_EMP_MOVES_VERSION) ||
           hn_h5_attr_set_str(f, "encoder", SRCH_EM_FEAT_ENCODER) ||
           hn_h5_attr_set_str(f, "features", m->feats) ||
           hn_h5_attr_set_int(f, "moves_per_state", o->moves_per_state) ||
           hn_h5_attr_set_int(f, "horizon", o->horizon) ||
           hn_h5_attr_set_int(f, "seed", (long long)o->seed) ||
           hn_h5_attr_set_int(f, "states", o->states) ||
           hn_h5_attr_set_str(f, "instances", m->insts);
}

static int write_file(const char *out, const dg_emp_rows *r, const dg_emp_moves_opts *o,
                      const char *const *names, int ninst)
{
    char feats[1024] = "", insts[8192] = "";
    for (int i = 0; i < SRCH_EM_FEAT_DIM; i++)
        snprintf(feats + strlen(feats), sizeof feats - strlen(feats), "%s%s", i ? "," : "",
                 srch_em_feat_name(i));
    for (int i = 0; i < ninst; i++)
        snprintf(insts + strlen(insts), sizeof insts - strlen(insts), "%s%s", i ? " " : "",
                 names[i]);
    moves_attrs m = {o, feats, insts};
    return dg_emp_rows_write(out, r, "state", write_attrs, &m);
}

int dg_emp_moves_gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
                     const dg_emp_moves_opts *o, const char *out)
{
    if (ninst < 1 || o->moves_per_state < 1 || o->horizon < 0 || o->states < 1 || o->ta_n < 0 ||
        o->nodes < 1)
        return hn_fail(HN_ERR_ARG, "gen-data: need instances, moves per state >= 1, horizon >= 0, "
                                   "states >= 1");
    dg_emp_rows rows = {.dim = SRCH_EM_FEAT_DIM};
    int st = HN_OK;
    uint64_t states = 0;
    for (int i = 0; i < ninst && st == HN_OK; i++) {
        drive d = {.o = o,
                   .rows = &rows,
                   .states = states,
                   .total = (uint64_t)o->states * (uint64_t)ninst};
        st = drive_init(&d, inst[i], i);
        if (st == HN_OK)
            st = drive_instance(&d);
        states = d.states;
        drive_free(&d);
    }
    if (st == HN_OK && rows.n == 0)
        st = hn_fail(HN_ERR_ARG, "gen-data: no move was labelled (every cell fixed?)");
    if (st == HN_OK)
        st = write_file(out, &rows, o, names, ninst);
    dg_emp_rows_free(&rows);
    return st;
}

/* ---- reading ------------------------------------------------------------ */

/* Open dataset `name`, check rank and extents against want (0 = any). */
int dg_emp_read_ds(hid_t f, const char *path, const char *name, int rank, hsize_t *dims, float **v)
{
    if (H5Lexists(f, name, H5P_DEFAULT) <= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: dataset /%s is missing", path, name);
    hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
    hid_t sp = ds < 0 ? -1 : H5Dget_space(ds);
    hsize_t got[2] = {0, 0};
    int st = HN_OK;
    if (ds >= 0 && (st = hn_h5_dset_check(ds, path, name)))
        ;
    else if (sp < 0 || H5Sget_simple_extent_ndims(sp) != rank) {
        st = hn_fail(HN_ERR_SHAPE, "%s: /%s must have rank %d", path, name, rank);
    } else {
        H5Sget_simple_extent_dims(sp, got, NULL);
        for (int k = 0; k < rank && st == HN_OK; k++)
            if (dims[k] && got[k] != dims[k])
                st =
                    hn_fail(HN_ERR_SHAPE, "%s: /%s has extent %llu in dimension %d, expected %llu",
                            path, name, (unsigned long long)got[k], k, (unsigned long long)dims[k]);
    }
    if (st == HN_OK && got[0] == 0)
        st = hn_fail(HN_ERR_SHAPE, "%s: /%s has no rows", path, name);
    size_t count = (size_t)got[0] * (rank == 2 ? (size_t)got[1] : 1);
    if (st == HN_OK && !(*v = malloc(sizeof **v * count)))
        st = hn_fail(HN_ERR_NOMEM, "%s: out of memory for /%s", path, name);
    if (st == HN_OK && H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, *v) < 0)
        st = hn_fail(HN_ERR_FORMAT, "%s: /%s cannot be read as float32", path, name);
    for (size_t i = 0; st == HN_OK && i < count; i++)
        if (!isfinite((*v)[i]))
            st = hn_fail(HN_ERR_NAN, "%s: /%s holds NaN or infinity (element %zu)", path, name, i);
    if (sp >= 0)
        H5Sclose(sp);
    if (ds >= 0)
        H5Dclose(ds);
    for (int k = 0; k < rank; k++)
        dims[k] = got[k];
    return st;
}

static int check_attrs(hid_t f, const char *path, dg_emp_moves_info *info)
{
    long long m = 0, h = 0, seed = 0;
    int st = dg_emp_check_header(f, path, DG_EMP_MOVES_FORMAT, DG_EMP_MOVES_VERSION,
                                 SRCH_EM_FEAT_ENCODER);
    if (st != HN_OK)
        return st;
    if (hn_h5_attr_get_int(f, "moves_per_state", &m) || hn_h5_attr_get_int(f, "horizon", &h) ||
        hn_h5_attr_get_int(f, "seed", &seed))
        return hn_fail(HN_ERR_FORMAT, "%s: attributes moves_per_state, horizon, seed missing",
                       path);
    info->moves_per_state = (int)m;
    info->horizon = (int)h;
    info->seed = (uint64_t)seed;
    return HN_OK;
}

int dg_emp_moves_read(const char *path, float **x, float **y, dg_emp_moves_info *info)
{
    *x = *y = NULL;
    hn_h5_quiet();
    hid_t f = hn_h5_open_read(path);
    if (f < 0)
        return (int)f;
    int st = check_attrs(f, path, info);
    hsize_t dx[2] = {0, SRCH_EM_FEAT_DIM};
    if (st == HN_OK)
        st = dg_emp_read_xy(f, path, dx, x, y);
    H5Fclose(f);
    if (st != HN_OK) {
        free(*x);
        free(*y);
        *x = *y = NULL;
        return st;
    }
    info->rows = (size_t)dx[0];
    info->dim = (int)dx[1];
    return HN_OK;
}
