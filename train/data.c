/* Dataset reader: n-puzzle /boards + /cost or generic /x + /y, read in
 * blocks of rows into compact arrays, split by hash, encoded per batch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/encode.h"
#include "train/trn_private.h"
#include "common/hn_h5.h"

#define BLOCK_ROWS 65536

/* ---- one HDF5 dataset -------------------------------------------------- */

/* Open `name` in f and check its class and rank; *rows and *cols (rank 2)
 * get its extent. want_class H5T_INTEGER also accepts float for targets when
 * allow_float is set. */
static int open_ds(hid_t f, const char *path, const char *name, int rank, int allow_int,
                   int allow_float, hid_t *ds, hsize_t *rows, hsize_t *cols)
{
    if (H5Lexists(f, name, H5P_DEFAULT) <= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: dataset %s is missing", path, name);
    *ds = H5Dopen2(f, name, H5P_DEFAULT);
    if (*ds < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: dataset %s cannot be opened", path, name);
    hid_t t = H5Dget_type(*ds), sp = H5Dget_space(*ds);
    H5T_class_t c = t >= 0 ? H5Tget_class(t) : H5T_NO_CLASS;
    int r = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    hsize_t dims[2] = {0, 0};
    if (r >= 1 && r <= 2)
        H5Sget_simple_extent_dims(sp, dims, NULL);
    if (t >= 0)
        H5Tclose(t);
    if (sp >= 0)
        H5Sclose(sp);
    const char *kinds = allow_int && allow_float ? "integer or float"
                        : allow_int              ? "integer"
                                                 : "float";
    if (!((c == H5T_INTEGER && allow_int) || (c == H5T_FLOAT && allow_float)))
        return hn_fail(HN_ERR_FORMAT, "%s: dataset %s has the wrong dtype (expected %s numbers)",
                       path, name, kinds);
    if (r != rank)
        return hn_fail(HN_ERR_SHAPE, "%s: dataset %s has rank %d, expected %d (%s)", path, name, r,
                       rank, rank == 2 ? "[rows, columns]" : "[rows]");
    int bad = hn_h5_dset_check(*ds, path, name);
    if (bad)
        return bad;
    *rows = dims[0];
    if (cols)
        *cols = dims[1];
    return HN_OK;
}

/* Read rows [start, start+k) of a rank-1 or rank-2 dataset as `mem` type. */
static int read_rows(hid_t ds, hid_t mem, hsize_t start, hsize_t k, hsize_t cols, void *buf)
{
    int rank = cols ? 2 : 1;
    hsize_t off[2] = {start, 0}, cnt[2] = {k, cols};
    hid_t fs = H5Dget_space(ds), ms = H5Screate_simple(rank, cnt, NULL);
    int ok = fs >= 0 && ms >= 0 &&
             H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL) >= 0 &&
             H5Dread(ds, mem, ms, fs, H5P_DEFAULT, buf) >= 0;
    if (ms >= 0)
        H5Sclose(ms);
    if (fs >= 0)
        H5Sclose(fs);
    return ok ? HN_OK : HN_ERR_HDF5;
}

/* ---- root attributes for the training record --------------------------- */

/* A string attribute for the training record; a long one (an instance list)
 * is kept shortened, as it is only informative. 1 if kept. */
static int record_str(hid_t loc, const char *name, char *out, size_t cap)
{
    char *s = malloc(HN_H5_STR_MAX + 1);
    int ok = s && hn_h5_attr_get_str(loc, name, s, HN_H5_STR_MAX + 1) == HN_OK;
    if (ok)
        snprintf(out, cap, "%s", s);
    free(s);
    return ok;
}

static herr_t attr_cb(hid_t loc, const char *name, const H5A_info_t *ainfo, void *op)
{
    (void)ainfo;
    struct trn_file *f = op;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0)
        return 0;
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    H5T_class_t c = H5Tget_class(t);
    int scalar = H5Sget_simple_extent_npoints(sp) == 1;
    struct trn_attr at = {0};
    snprintf(at.name, sizeof at.name, "%s", name);
    int keep = 0;
    if (scalar && c == H5T_INTEGER) {
        int is_unsigned = H5Tget_sign(t) == H5T_SGN_NONE;
        unsigned long long u = 0;
        long long v = 0;
        keep = is_unsigned ? H5Aread(a, H5T_NATIVE_ULLONG, &u) >= 0
                           : H5Aread(a, H5T_NATIVE_LLONG, &v) >= 0;
        if (is_unsigned && u > (1ull << 53)) {
            snprintf(at.str, sizeof at.str, "%llu", u); /* a double would round it */
        } else {
            at.is_num = 1;
            at.num = is_unsigned ? (double)u : (double)v;
        }
    } else if (scalar && c == H5T_FLOAT) {
        keep = H5Aread(a, H5T_NATIVE_DOUBLE, &at.num) >= 0;
        at.is_num = 1;
    } else if (scalar && c == H5T_STRING) {
        keep = record_str(loc, name, at.str, sizeof at.str);
    }
    H5Tclose(t);
    H5Sclose(sp);
    H5Aclose(a);
    if (!keep)
        return 0;
    struct trn_attr *na = realloc(f->attr, sizeof *na * (size_t)(f->nattr + 1));
    if (!na)
        return -1;
    f->attr = na;
    f->attr[f->nattr++] = at;
    return 0;
}

static const struct trn_attr *find_attr(const struct trn_file *f, const char *name)
{
    for (int i = 0; i < f->nattr; i++)
        if (!strcmp(f->attr[i].name, name))
            return &f->attr[i];
    return NULL;
}

/* ---- appending one file's rows ----------------------------------------- */

static int grow(trn_data *d, uint64_t add)
{
    uint64_t n = d->n + add;
    if (n > UINT32_MAX)
        return hn_fail(HN_ERR_LIMIT, "more than %u rows in all", UINT32_MAX);
    float *y = realloc(d->y, sizeof(float) * (n ? n : 1));
    if (!y)
        return hn_fail(HN_ERR_NOMEM, "out of memory for %llu rows", (unsigned long long)n);
    d->y = y;
    if (d->boards) {
        uint8_t *b = realloc(d->b, (size_t)n * d->cells + 1);
        if (!b)
            return hn_fail(HN_ERR_NOMEM, "out of memory for %llu boards", (unsigned long long)n);
        d->b = b;
    } else {
        float *x = realloc(d->x, sizeof(float) * ((size_t)n * d->d + 1));
        if (!x)
            return hn_fail(HN_ERR_NOMEM, "out of memory for %llu rows", (unsigned long long)n);
        d->x = x;
    }
    return HN_OK;
}

static int check_board(const uint8_t *b, int cells, const char *path, uint64_t row)
{
    uint32_t seen = 0;
    for (int i = 0; i < cells; i++) {
        if (b[i] >= cells || (seen >> b[i] & 1u))
            return hn_fail(HN_ERR_FORMAT, "%s: /boards row %llu is not a permutation of 0..%d",
                           path, (unsigned long long)row, cells - 1);
        seen |= 1u << b[i];
    }
    return HN_OK;
}

/* A state of the domain: it must format and parse back to the same bytes
 * (a damaged row would not) and encode into range, as training writes
 * x[active] without further checks. */
static int check_state(const trn_data *d, const uint8_t *s, const char *path, uint64_t row)
{
    size_t sb = (size_t)d->cells;
    char buf[4096], *text = buf;
    uint8_t back[DOM_MAX_STATE_BYTES];
    int32_t act[DOM_MAX_ACTIVE];
    int len = dom_format_state(d->dom, s, buf, sizeof buf);
    if (len >= (int)sizeof buf && (text = malloc((size_t)len + 1)))
        dom_format_state(d->dom, s, text, (size_t)len + 1);
    int ok = len >= 0 && text && dom_parse_state(d->dom, text, back) == 0 && !memcmp(back, s, sb);
    if (text != buf)
        free(text);
    int na = ok ? dom_encode(d->dom, s, act) : -1;
    for (int i = 0; ok && i < na; i++)
        ok = act[i] >= 0 && act[i] < d->d;
    hn_error_clear();
    if (!ok || na < 0 || na > DOM_MAX_ACTIVE)
        return hn_fail(HN_ERR_FORMAT, "%s: /states row %llu is not a state of %s", path,
                       (unsigned long long)row, dom_spec(d->dom));
    return HN_OK;
}

/* Costs (/cost) are distances, so negative ones are errors; /y may be any number. */
static int check_target(double v, const char *path, const char *name, uint64_t row)
{
    if (!isfinite(v))
        return hn_fail(HN_ERR_NAN, "%s: %s row %llu is NaN or infinite", path, name,
                       (unsigned long long)row);
    if (v < 0 && !strcmp(name, "/cost"))
        return hn_fail(HN_ERR_FORMAT, "%s: %s row %llu is negative (%g)", path, name,
                       (unsigned long long)row, v);
    return HN_OK;
}

/* Check row i of a block (file row `row`) read at index r of d. */
static int check_row(trn_data *d, uint64_t r, double target, const char *path, const char *xname,
                     const char *yname, uint64_t row)
{
    int rc = check_target(target, path, yname, row);
    if (!rc && d->boards == TRN_STATES)
        rc = check_state(d, d->b + r * d->cells, path, row);
    else if (!rc && d->boards)
        rc = check_board(d->b + r * d->cells, d->cells, path, row);
    for (int j = 0; !rc && !d->boards && j < d->d; j++)
        if (!isfinite(d->x[r * d->d + j]))
            rc = hn_fail(HN_ERR_NAN, "%s: %s row %llu holds NaN or infinity", path, xname,
                         (unsigned long long)row);
    return rc;
}

/* Move row `from` of d to `to` (to <= from), dropping what was at `to`. */
static void move_row(trn_data *d, uint64_t to, uint64_t from)
{
    if (to == from)
        return;
    if (d->boards)
        memmove(d->b + to * d->cells, d->b + from * d->cells, (size_t)d->cells);
    else
        memmove(d->x + to * d->d, d->x + from * d->d, sizeof(float) * (size_t)d->d);
    d->y[to] = d->y[from];
}

/* Read `rows` rows of the input dataset xs and target dataset ys in blocks;
 * with a source mask only rows whose /source value (ss) is in the mask are
 * kept. *kept gets how many. */
static int read_file_rows(trn_data *d, const char *path, hid_t xs, hid_t ys, hid_t ss,
                          unsigned mask, const char *xname, const char *yname, uint64_t rows,
                          uint64_t *kept)
{
    int rc = grow(d, rows);
    double *tb = rc ? NULL : malloc(sizeof(double) * BLOCK_ROWS);
    uint8_t *sb = rc ? NULL : malloc(BLOCK_ROWS);
    uint64_t w = d->n; /* next row to fill */
    if (!rc && (!tb || !sb))
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    for (uint64_t s = 0; !rc && s < rows; s += BLOCK_ROWS) {
        uint64_t k = rows - s < BLOCK_ROWS ? rows - s : BLOCK_ROWS;
        int e = d->boards ? read_rows(xs, H5T_NATIVE_UINT8, s, k, d->cells, d->b + w * d->cells)
                          : read_rows(xs, H5T_NATIVE_FLOAT, s, k, d->d, d->x + w * d->d);
        const char *bad = e                                                      ? xname
                          : read_rows(ys, H5T_NATIVE_DOUBLE, s, k, 0, tb)        ? yname
                          : mask && read_rows(ss, H5T_NATIVE_UINT8, s, k, 0, sb) ? "/source"
                                                                                 : NULL;
        if (bad) {
            rc = hn_fail(HN_ERR_FORMAT, "%s: %s rows %llu..%llu cannot be read (damaged file?)",
                         path, bad, (unsigned long long)s, (unsigned long long)(s + k - 1));
            break;
        }
        uint64_t base = w;
        for (uint64_t i = 0; !rc && i < k; i++) {
            d->y[base + i] = (float)tb[i];
            rc = check_row(d, base + i, tb[i], path, xname, yname, s + i);
            if (!rc && (!mask || (sb[i] < 32 && (mask >> sb[i] & 1u))))
                move_row(d, w++, base + i);
        }
    }
    free(tb);
    free(sb);
    *kept = w - d->n;
    if (!rc)
        d->n = w;
    return rc;
}

/* Set or check the kind and shape of the data from one file. */
static int agree(trn_data *d, int first, int boards, int cells, int goal, int dim, const char *enc,
                 const char *path)
{
    if (first) {
        d->boards = boards, d->cells = cells, d->goal = goal, d->d = dim;
        snprintf(d->encoder, sizeof d->encoder, "%s", enc);
        return HN_OK;
    }
    static const char *const kind[] = {"/x", "/boards", "/states"};
    if (boards != d->boards)
        return hn_fail(HN_ERR_FORMAT, "%s: holds %s but the first data file holds %s", path,
                       kind[boards], kind[d->boards]);
    if (dim != d->d || cells != d->cells)
        return hn_fail(HN_ERR_SHAPE, "%s: rows of %d %s but the first data file has %d", path,
                       boards ? cells : dim, boards ? "cells" : "features",
                       boards ? d->cells : d->d);
    if (goal != d->goal || strcmp(enc, d->encoder))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: encoder \"%s\" differs from the first data file's \"%s\"", path, enc,
                       d->encoder);
    return HN_OK;
}

static int board_width(int cells)
{
    for (int w = SRCH_NP_MIN_WIDTH; w <= SRCH_NP_MAX_WIDTH; w++)
        if (w * w == cells)
            return w;
    return 0;
}

/* Read the rows (when rc is 0) and close the datasets. */
static int read_rows_close(trn_data *d, struct trn_file *tf, hid_t xs, hid_t ys, hid_t ss,
                           uint64_t rows, int rc)
{
    static const char *const kind[] = {"/x", "/boards", "/states"};
    uint64_t kept = 0;
    if (!rc)
        rc = read_file_rows(d, tf->path, xs, ys, ss, d->sources, kind[d->boards],
                            d->boards ? "/cost" : "/y", rows, &kept);
    if (!rc && kept == 0)
        rc = hn_fail(HN_ERR_FORMAT, "%s: no rows of the selected sources", tf->path);
    tf->rows = kept;
    if (ss >= 0)
        H5Dclose(ss);
    if (xs >= 0)
        H5Dclose(xs);
    if (ys >= 0)
        H5Dclose(ys);
    return rc;
}

/* n-puzzle boards trained for a named domain must be of that domain. */
static int board_domain(trn_data *d, const char *enc, const char *path)
{
    char name[256];
    if (srch_np_encode_domain(enc, name, sizeof name)) {
        hn_error_clear();
        return HN_OK;
    }
    snprintf(d->domain, sizeof d->domain, "%s", name);
    if (d->dom && strcmp(name, dom_spec(d->dom)) && strcmp(name, dom_canonical(d->dom)))
        return hn_fail(HN_ERR_ARG, "%s: a dataset of domain %s, not of %s", path, name,
                       dom_spec(d->dom));
    return HN_OK;
}

/* A domain dataset's domain must be the one training is for. */
static int states_domain(trn_data *d, hid_t f, const char *path, uint64_t cols)
{
    char name[256];
    if (hn_h5_attr_get_str(f, "domain", name, sizeof name))
        return hn_fail(HN_ERR_FORMAT, "%s: /states without a readable root attribute 'domain'",
                       path);
    int st;
    if (!d->dom && !(d->dom = d->own_dom = dom_open(name, &st))) /* a plug-in's has no path */
        return hn_fail(HN_ERR_ARG, "%s: holds states of domain %s: name the domain (--domain)",
                       path, name);
    if (strcmp(name, dom_spec(d->dom)) && strcmp(name, dom_canonical(d->dom)))
        return hn_fail(HN_ERR_ARG, "%s: a dataset of domain %s, not of %s", path, name,
                       dom_spec(d->dom));
    if (cols != dom_state_bytes(d->dom))
        return hn_fail(HN_ERR_SHAPE, "%s: /states rows have %llu bytes but %s states have %zu",
                       path, (unsigned long long)cols, name, dom_state_bytes(d->dom));
    snprintf(d->domain, sizeof d->domain, "%s", dom_spec(d->dom));
    return HN_OK;
}

/* The rest of read_file for a domain dataset (/states and /cost are open). */
static int read_states(trn_data *d, int first, hid_t f, struct trn_file *tf, hid_t xs, hid_t ys,
                       uint64_t rows, uint64_t cols)
{
    int rc = states_domain(d, f, tf->path, cols);
    const dom_facts *fa = d->dom ? dom_facts_of(d->dom) : NULL;
    char enc[256];
    if (fa && fa->encoding && fa->encoding[0])
        snprintf(enc, sizeof enc, "%s", fa->encoding);
    else if (d->dom)
        snprintf(enc, sizeof enc, "dom-onehot %s", dom_spec(d->dom));
    if (!rc)
        rc = agree(d, first, TRN_STATES, (int)cols, 0, (int)fa->inputs, enc, tf->path);
    hid_t ss = -1;
    hsize_t sr = 0;
    if (!rc && d->sources)
        rc = open_ds(f, tf->path, "/source", 1, 1, 0, &ss, &sr, NULL);
    if (!rc && d->sources && sr < rows)
        rc = hn_fail(HN_ERR_SHAPE, "%s: /source has %llu rows but /states has %llu", tf->path,
                     (unsigned long long)sr, (unsigned long long)rows);
    if (!rc)
        d->width = 0;
    return read_rows_close(d, tf, xs, ys, ss, rows, rc);
}

/* The kind, shape and rows of one open file, then its rows. */
static int read_file(trn_data *d, int first, hid_t f, struct trn_file *tf)
{
    const char *path = tf->path;
    hid_t xs = -1, ys = -1;
    hsize_t xr = 0, xc = 0, yr = 0;
    int boards = H5Lexists(f, "states", H5P_DEFAULT) > 0   ? TRN_STATES
                 : H5Lexists(f, "boards", H5P_DEFAULT) > 0 ? 1
                                                           : 0;
    int rc;
    if (!boards && H5Lexists(f, "x", H5P_DEFAULT) <= 0)
        return hn_fail(HN_ERR_FORMAT,
                       "%s: neither /boards (+ /cost), /states (+ /cost) nor /x (+ /y) is present",
                       path);
    const char *xname = boards == TRN_STATES ? "/states" : boards ? "/boards" : "/x";
    const char *yname = boards ? "/cost" : "/y";
    rc = open_ds(f, path, xname, 2, 1, !boards, &xs, &xr, &xc);
    if (!rc)
        rc = open_ds(f, path, yname, 1, 1, 1, &ys, &yr, NULL);
    if (!rc && H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, attr_cb, tf) < 0)
        rc = hn_fail(HN_ERR_NOMEM, "%s: cannot read the root attributes", path);
    uint64_t rows = xr;
    const struct trn_attr *cm = rc ? NULL : find_attr(tf, "committed");
    if (cm && cm->is_num && !(cm->num >= 0))
        rows = 0; /* a negative count claims no row (and must not be converted) */
    else if (cm && cm->is_num && cm->num < (double)rows)
        rows = (uint64_t)cm->num;
    if (!rc && yr < rows)
        rc = hn_fail(HN_ERR_SHAPE, "%s: %s has %llu rows but %s has %llu", path, yname,
                     (unsigned long long)yr, xname, (unsigned long long)xr);
    if (!rc && rows == 0)
        rc = hn_fail(HN_ERR_FORMAT, "%s: dataset %s holds no (committed) rows", path, xname);
    if (boards == TRN_STATES)
        return rc ? read_rows_close(d, tf, xs, ys, -1, rows, rc)
                  : read_states(d, first, f, tf, xs, ys, rows, xc);
    int width = boards ? board_width((int)xc) : 0, goal = SRCH_NP_GOAL_BLANK_FIRST;
    if (!rc && boards && !width)
        rc = hn_fail(HN_ERR_SHAPE, "%s: /boards rows have %llu cells, not 9, 16 or 25", path,
                     (unsigned long long)xc);
    if (!rc && !boards && (xc < 1 || xc > (1u << 20)))
        rc = hn_fail(HN_ERR_SHAPE, "%s: /x has %llu columns", path, (unsigned long long)xc);
    char enc[256] = "";
    const struct trn_attr *ga = rc ? NULL : find_attr(tf, boards ? "goal" : "encoder");
    if (!rc && boards && ga && srch_np_goal_parse(ga->str, &goal))
        rc = hn_fail(HN_ERR_FORMAT, "%s: attribute goal=\"%s\" is not blank-first or blank-last",
                     path, ga->str);
    if (!rc && boards)
        srch_np_encode_name(width, goal, enc, sizeof enc);
    else if (!rc && ga && !ga->is_num)
        snprintf(enc, sizeof enc, "%s", ga->str);
    if (!rc)
        rc = agree(d, first, boards, boards ? (int)xc : 0, goal,
                   boards ? srch_np_encode_width((int)xc) : (int)xc, enc, path);
    if (!rc && boards)
        rc = board_domain(d, enc, path);
    hid_t ss = -1;
    hsize_t sr = 0;
    if (!rc && d->sources) {
        if (H5Lexists(f, "source", H5P_DEFAULT) <= 0)
            rc = hn_fail(HN_ERR_FORMAT,
                         "%s: dataset /source is missing (needed to select rows by source)", path);
        else
            rc = open_ds(f, path, "/source", 1, 1, 0, &ss, &sr, NULL);
        if (!rc && sr < rows)
            rc = hn_fail(HN_ERR_SHAPE, "%s: /source has %llu rows but %s has %llu", path,
                         (unsigned long long)sr, xname, (unsigned long long)rows);
    }
    if (!rc)
        d->width = width;
    return read_rows_close(d, tf, xs, ys, ss, rows, rc);
}

/* ---- split ------------------------------------------------------------- */

static uint64_t hash_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    h ^= h >> 31;
    h *= 0x7fb5d329728ea185ull;
    h ^= h >> 27;
    h *= 0x81dadef4bc2dd44dull;
    return h ^ (h >> 33);
}

static int make_split(trn_data *d, double frac)
{
    for (int s = 0; s < 2; s++) {
        d->idx[s] = malloc(sizeof(uint32_t) * (d->n ? d->n : 1));
        if (!d->idx[s])
            return hn_fail(HN_ERR_NOMEM, "out of memory");
        d->nsplit[s] = 0;
    }
    for (uint64_t r = 0; r < d->n; r++) {
        uint64_t h = d->boards ? hash_bytes(d->b + r * d->cells, (size_t)d->cells)
                               : hash_bytes(d->x + r * d->d, sizeof(float) * (size_t)d->d);
        int s = (double)(h >> 11) * 0x1.0p-53 < frac;
        d->idx[s][d->nsplit[s]++] = (uint32_t)r;
    }
    if (d->nsplit[TRN_TRAIN] == 0)
        return hn_fail(HN_ERR_ARG,
                       "no training rows left after the validation split (%llu rows, "
                       "fraction %g)",
                       (unsigned long long)d->n, frac);
    return HN_OK;
}

/* ---- public ------------------------------------------------------------ */

struct open_args {
    const char *const *paths;
    int n;
    double val_fraction;
    unsigned sources;
    const dom *dm;
};

static void probe_open(void *arg)
{
    const struct open_args *a = arg;
    int st;
    trn_data_free(trn_data_open_dom(a->paths, a->n, a->val_fraction, a->sources, a->dm, &st));
}

/* A file without a checksum is first opened in a child (hn_h5_probe_call):
 * libhdf5 can crash on a damaged file. */
static int probe_files(const char *const *paths, int n, double val_fraction, unsigned sources,
                       const dom *dm)
{
    struct open_args a = {paths, n, val_fraction, sources, dm};
    for (int i = 0; i < n && paths && paths[i]; i++) {
        int rc = hn_h5_probe_call(paths[i], probe_open, &a);
        if (rc)
            return rc;
    }
    return 0;
}

trn_data *trn_data_open(const char *const *paths, int n, double val_fraction, unsigned sources,
                        int *status)
{
    return trn_data_open_dom(paths, n, val_fraction, sources, NULL, status);
}

trn_data *trn_data_open_dom(const char *const *paths, int n, double val_fraction, unsigned sources,
                            const dom *dm, int *status)
{
    int rc0 = probe_files(paths, n, val_fraction, sources, dm);
    if (rc0) {
        if (status)
            *status = rc0;
        return NULL;
    }
    int rc = HN_OK;
    trn_data *d = calloc(1, sizeof *d);
    if (d)
        d->sources = sources, d->dom = dm;
    if (!d || n < 1 || !(val_fraction >= 0 && val_fraction < 1)) {
        rc = d ? hn_fail(HN_ERR_ARG,
                         "need at least one data file and a validation fraction in [0, 1)")
               : hn_fail(HN_ERR_NOMEM, "out of memory");
        goto fail;
    }
    d->files = calloc((size_t)n, sizeof *d->files);
    if (!d->files) {
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
        goto fail;
    }
    d->nfiles = n;
    for (int i = 0; i < n && !rc; i++) {
        d->files[i].path = strdup(paths[i]);
        if (!d->files[i].path) {
            rc = hn_fail(HN_ERR_NOMEM, "out of memory");
            break;
        }
        hid_t f = hn_h5_open_verified(paths[i]);
        if (f < 0) {
            rc = (int)f;
            break;
        }
        rc = read_file(d, i == 0, f, &d->files[i]);
        H5Fclose(f);
    }
    if (!rc)
        rc = make_split(d, val_fraction);
    if (!rc)
        return d;
fail:
    trn_data_free(d);
    if (status)
        *status = rc;
    return NULL;
}

const char *trn_data_incomplete(const trn_data *d)
{
    for (int i = 0; i < d->nfiles; i++) {
        const struct trn_attr *a = find_attr(&d->files[i], "complete");
        if (a && a->is_num && a->num == 0.0)
            return d->files[i].path;
    }
    return NULL;
}

void trn_data_free(trn_data *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->nfiles; i++) {
        free(d->files[i].path);
        free(d->files[i].attr);
    }
    free(d->files);
    free(d->b);
    free(d->x);
    free(d->y);
    free(d->idx[0]);
    free(d->idx[1]);
    dom_free(d->own_dom);
    free(d);
}

int trn_data_inputs(const trn_data *d)
{
    return d->d;
}
const char *trn_data_encoder(const trn_data *d)
{
    return d->encoder;
}
int trn_data_width(const trn_data *d)
{
    int w = 0, goal;
    if (d->boards == 1)
        return d->width;
    /* a square n-puzzle's states encode as its boards do: they are boards */
    if (d->boards == TRN_STATES && !strncmp(d->encoder, "npuzzle-onehot", 14) &&
        srch_np_encode_parse(d->encoder, &w, &goal)) {
        hn_error_clear();
        w = 0;
    }
    return w;
}
const char *trn_data_domain(const trn_data *d)
{
    return d->domain;
}

int trn_data_file_domain(const char *path, char *buf, size_t cap)
{
    hn_h5_quiet();
    buf[0] = '\0';
    hid_t f = hn_h5_open_read(path); /* the reader warns about a missing checksum */
    if (f < 0)
        return (int)f;
    int rc = HN_OK;
    if (H5Lexists(f, "states", H5P_DEFAULT) > 0 && hn_h5_attr_get_str(f, "domain", buf, cap))
        rc = hn_fail(HN_ERR_FORMAT, "%s: /states without a readable root attribute 'domain'", path);
    H5Fclose(f);
    return rc;
}
uint64_t trn_data_rows(const trn_data *d, enum trn_split s)
{
    return d->nsplit[s];
}

void trn_data_target_stats(const trn_data *d, enum trn_split s, double *mean, double *std)
{
    double sum = 0.0, sq = 0.0;
    uint64_t n = d->nsplit[s];
    for (uint64_t i = 0; i < n; i++)
        sum += d->y[d->idx[s][i]];
    double mu = n ? sum / (double)n : 0.0;
    for (uint64_t i = 0; i < n; i++) {
        double e = d->y[d->idx[s][i]] - mu;
        sq += e * e;
    }
    *mean = mu;
    *std = n > 1 ? sqrt(sq / (double)(n - 1)) : 0.0;
}

uint64_t trn_data_rows_within(const trn_data *d, double cost)
{
    uint64_t k = 0;
    for (int s = TRN_TRAIN; s <= TRN_VAL; s++)
        for (uint64_t i = 0; i < d->nsplit[s]; i++)
            k += d->y[d->idx[s][i]] <= cost;
    return k;
}

/* One state as 0/1 inputs (rows were checked to encode into range). */
static void encode_state(const trn_data *d, const uint8_t *s, float *x)
{
    int32_t act[DOM_MAX_ACTIVE];
    memset(x, 0, sizeof(float) * (size_t)d->d);
    int n = dom_encode(d->dom, s, act);
    for (int i = 0; i < n; i++)
        x[act[i]] = 1.0f;
}

void trn_data_batch(const trn_data *d, enum trn_split s, const uint32_t *idx, int n, float *x,
                    float *y)
{
    const uint32_t *map = d->idx[s];
    size_t w = (size_t)d->d;
    for (int i = 0; i < n; i++) {
        uint32_t r = map[idx[i]];
        if (d->boards == TRN_STATES)
            encode_state(d, d->b + (size_t)r * d->cells, x + i * w);
        else if (d->boards)
            srch_np_encode_onehot_tiles(d->b + (size_t)r * d->cells, d->cells, x + i * w);
        else
            memcpy(x + i * w, d->x + (size_t)r * w, sizeof(float) * w);
        y[i] = d->y[r];
    }
}

int trn_data_active_max(const trn_data *d)
{
    return d->boards == TRN_STATES ? DOM_MAX_ACTIVE : d->boards ? d->cells : 0;
}

void trn_data_batch_active(const trn_data *d, enum trn_split s, const uint32_t *idx, int n,
                           int32_t *act, int32_t *off, float *y, uint64_t *bits)
{
    const uint32_t *map = d->idx[s];
    off[0] = 0;
    for (int i = 0; i < n; i++) {
        uint32_t r = map[idx[i]];
        const uint8_t *b = d->b + (size_t)r * d->cells;
        int k = d->boards == TRN_STATES ? trn_active_state(d->dom, b, act + off[i], bits)
                                        : trn_active_tiles(b, d->cells, act + off[i]);
        off[i + 1] = off[i] + k;
        y[i] = d->y[r];
    }
}

int trn_data_record(const trn_data *d, nn_model *m)
{
    char key[128];
    int rc = nn_model_set_meta_double(m, "data_files", d->nfiles);
    if (!rc && d->sources) /* bit v set: rows with /source == v were used */
        rc = nn_model_set_meta_double(m, "data_sources_mask", d->sources);
    for (int i = 0; i < d->nfiles && !rc; i++) {
        const struct trn_file *f = &d->files[i];
        snprintf(key, sizeof key, "data%d.path", i);
        rc = nn_model_set_meta_str(m, key, f->path);
        snprintf(key, sizeof key, "data%d.rows_used", i);
        if (!rc)
            rc = nn_model_set_meta_double(m, key, (double)f->rows);
        for (int j = 0; j < f->nattr && !rc; j++) {
            const struct trn_attr *a = &f->attr[j];
            snprintf(key, sizeof key, "data%d.%s", i, a->name);
            rc = a->is_num ? nn_model_set_meta_double(m, key, a->num)
                           : nn_model_set_meta_str(m, key, a->str);
            /* the decision the rows are for (emp data) is what the model scores */
            if (!rc && !a->is_num && !strcmp(a->name, "decision"))
                rc = nn_model_set_meta_str(m, "decision", a->str);
        }
    }
    return rc;
}
