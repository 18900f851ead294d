/* Checkpoints of DAVI and bootstrapping runs: a complete model file (the
 * current weights and their record, so it can be used while the run goes on)
 * plus a group /avi with the Adam moments, the frozen target network, the
 * counters and the bootstrap buffer. Written to PATH.tmp, sealed with the
 * checksum trailer and renamed; removed again when any step fails. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/avi_private.h"
#include "common/hn_h5.h"
#include "train/trn_private.h"

static int write_arr(hid_t g, const char *name, hid_t type, const void *p, size_t n)
{
    return trn_h5_write_arr(g, "avi", name, type, p, n);
}

static int read_arr(hid_t g, const char *path, const char *name, hid_t type, void *p, size_t n)
{
    hid_t ds = H5Lexists(g, name, H5P_DEFAULT) > 0 ? H5Dopen2(g, name, H5P_DEFAULT) : -1;
    if (ds < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: /avi/%s is missing", path, name);
    char what[64];
    snprintf(what, sizeof what, "/avi/%s", name);
    int rc = hn_h5_dset_check(ds, path, what);
    if (rc) {
        H5Dclose(ds);
        return rc;
    }
    hid_t sp = H5Dget_space(ds);
    hssize_t k = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (k != (hssize_t)(n ? n : 1))
        rc = hn_fail(HN_ERR_SHAPE, "%s: /avi/%s has %lld values, expected %zu", path, name,
                     (long long)k, n);
    else if (n && H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) < 0)
        rc = hn_fail(HN_ERR_FORMAT, "%s: /avi/%s cannot be read", path, name);
    H5Dclose(ds);
    return rc;
}

/* Counters: saved as attributes, all as doubles (exact below 2^53). */
#define NCOUNT 9
static const char *const count_names[NCOUNT] = {
    "round", "updates", "steps", "samples", "seconds", "adam_steps", "budget", "walk", "buf_n"};
/* What each may hold when read back: the int counters (round, updates,
 * walk) fit an int, the others a double's exact integers; all but seconds
 * are whole numbers. A damaged value must be refused, not cast and wrapped. */
#define INT_COUNT 2147483647.0
#define EXACT_COUNT 9007199254740992.0
static const double count_max[NCOUNT] = {INT_COUNT,   INT_COUNT,   EXACT_COUNT,
                                         EXACT_COUNT, EXACT_COUNT, EXACT_COUNT,
                                         EXACT_COUNT, INT_COUNT,   EXACT_COUNT};
static const int count_whole[NCOUNT] = {1, 1, 1, 1, 0, 1, 1, 1, 1};

static void counts_get(const struct avi_state *s, double *v)
{
    double c[NCOUNT] = {s->round,           s->updates, (double)s->steps,
                        (double)s->samples, s->seconds, (double)nn_adam_step_count(s->a),
                        (double)s->budget,  s->walk,    (double)s->buf_n};
    memcpy(v, c, sizeof c);
}

/* A setting as its option says it: "bootstrap". */
static void same_name(int i, double v, char *buf, size_t cap)
{
    if (i == 0 && (v == TRN_AVI_DAVI || v == TRN_AVI_BOOT))
        snprintf(buf, cap, "%s", v == TRN_AVI_DAVI ? "davi" : "bootstrap");
    else
        snprintf(buf, cap, "%g", v);
}

/* A resumed run must draw the same kind of rows into the same network (the
 * domain is the model's, checked before). */
static int check_same(hid_t g, const char *path, const struct trn_avi_opts *o)
{
    double v[2], want[2] = {o->method, o->batch};
    static const char *const names[2] = {"method", "batch"};
    static const char *const opts[2] = {"--method", "--batch"};
    for (int i = 0; i < 2; i++) {
        if (hn_h5_attr_get_double(g, names[i], &v[i]))
            return hn_fail(HN_ERR_FORMAT, "%s: /avi attribute %s is missing", path, names[i]);
        char have[32], run[32];
        same_name(i, v[i], have, sizeof have);
        same_name(i, want[i], run, sizeof run);
        if (v[i] != want[i])
            return hn_fail(HN_ERR_ARG, "%s: the checkpoint was made with %s %s, this run has %s %s",
                           path, opts[i], have, opts[i], run);
    }
    return HN_OK;
}

static int save_group(hid_t g, const struct trn_avi_opts *o, const struct avi_state *s)
{
    size_t n = nn_adam_size(s->a), cells = dom_state_bytes(o->dom);
    double v[NCOUNT], same[2] = {o->method, o->batch};
    static const char *const names[2] = {"method", "batch"};
    int rc = write_arr(g, "adam_m", H5T_NATIVE_FLOAT, nn_adam_m(s->a), n);
    if (!rc)
        rc = write_arr(g, "adam_v", H5T_NATIVE_FLOAT, nn_adam_v(s->a), n);
    if (!rc && s->target) {
        size_t np, ns;
        float *p = nn_model_params(s->target, &np), *st = nn_model_state(s->target, &ns);
        rc = write_arr(g, "target_params", H5T_NATIVE_FLOAT, p, np);
        if (!rc)
            rc = write_arr(g, "target_state", H5T_NATIVE_FLOAT, st, ns);
    }
    if (!rc && s->buf_n) {
        rc = write_arr(g, "buffer_boards", H5T_NATIVE_UINT8, s->buf_b, s->buf_n * cells);
        if (!rc)
            rc = write_arr(g, "buffer_cost", H5T_NATIVE_FLOAT, s->buf_y, s->buf_n);
        if (!rc)
            rc = hn_h5_attr_set_double(g, "buf_head", (double)s->buf_head);
    }
    counts_get(s, v);
    for (int i = 0; !rc && i < NCOUNT; i++)
        rc = hn_h5_attr_set_double(g, count_names[i], v[i]);
    for (int i = 0; !rc && i < 2; i++)
        rc = hn_h5_attr_set_double(g, names[i], same[i]);
    if (!rc)
        rc = hn_h5_attr_set_double(g, "has_target", s->target != NULL);
    return rc;
}

int trn_avi_ckpt_save(const char *path, const struct trn_avi_opts *o, const struct avi_state *s)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return hn_fail(HN_ERR_ARG, "checkpoint path too long");
    int rc = trn_avi_record(o, s);
    if (!rc)
        rc = nn_model_save(s->m, tmp);
    if (rc)
        return rc;
    rc = hn_file_unseal(tmp); /* sealed again once /avi is in */
    hid_t f = rc ? -1 : H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = f >= 0 ? H5Gcreate2(f, "avi", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (!rc)
        rc = g >= 0 ? save_group(g, o, s) : hn_fail(HN_ERR_IO, "%s: cannot add /avi", tmp);
    if (g >= 0)
        H5Gclose(g);
    errno = 0;
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot finish writing: %s", tmp, hn_h5_why());
    if (!rc)
        rc = hn_file_seal(tmp);
    if (!rc && rename(tmp, path) != 0)
        rc = hn_fail(HN_ERR_IO, "%s: cannot rename to %s: %s", tmp, path, strerror(errno));
    if (rc)
        remove(tmp);
    return rc;
}

static int load_counts(hid_t g, const char *path, const struct trn_avi_opts *o, struct avi_state *s)
{
    double v[NCOUNT], head = 0;
    for (int i = 0; i < NCOUNT; i++) {
        if (hn_h5_attr_get_double(g, count_names[i], &v[i]))
            return hn_fail(HN_ERR_FORMAT, "%s: /avi attribute %s is missing", path, count_names[i]);
        if (!(v[i] >= 0 && v[i] <= count_max[i]) || (count_whole[i] && v[i] != floor(v[i])))
            return hn_fail(HN_ERR_FORMAT,
                           "%s: /avi attribute %s is %g, expected a count in 0..%.0f", path,
                           count_names[i], v[i], count_max[i]);
    }
    if (v[8] > 0 && (hn_h5_attr_get_double(g, "buf_head", &head) || v[8] > (double)o->buffer_max ||
                     !(head >= 0 && head < (double)o->buffer_max && head == floor(head))))
        return hn_fail(HN_ERR_ARG,
                       "%s: the checkpoint's buffer of %.0f states does not fit --buffer %llu",
                       path, v[8], (unsigned long long)o->buffer_max);
    s->round = (int)v[0];
    s->updates = (int)v[1];
    s->steps = (uint64_t)v[2];
    s->samples = (uint64_t)v[3];
    s->seconds = v[4];
    nn_adam_set_step_count(s->a, (uint64_t)v[5]);
    s->budget = (uint64_t)v[6];
    s->walk = (int)v[7];
    s->buf_n = (uint64_t)v[8];
    s->buf_head = (uint64_t)head;
    return HN_OK;
}

static int load_target(hid_t g, const char *path, struct avi_state *s)
{
    double has = 0;
    int rc = 0;
    if (hn_h5_attr_get_double(g, "has_target", &has) || !has)
        return HN_OK;
    if (!(s->target = nn_model_clone(s->m, &rc)))
        return rc ? rc : HN_ERR_NOMEM;
    size_t np, ns;
    float *p = nn_model_params(s->target, &np), *st = nn_model_state(s->target, &ns);
    rc = read_arr(g, path, "target_params", H5T_NATIVE_FLOAT, p, np);
    return rc ? rc : read_arr(g, path, "target_state", H5T_NATIVE_FLOAT, st, ns);
}

/* A buffered state must read back from its own text: the domain's parser
 * is its validity check (a damaged state would index the encoder out of
 * range). */
static int check_states(const char *path, const dom *d, const uint8_t *b, uint64_t n)
{
    size_t sb = dom_state_bytes(d), cap = 1 << 16;
    char *text = malloc(cap);
    uint8_t *back = malloc(sb);
    int rc = text && back ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    for (uint64_t r = 0; !rc && r < n; r++)
        if (dom_format_state(d, b + r * sb, text, cap) < 0 || dom_parse_state(d, text, back) ||
            memcmp(back, b + r * sb, sb))
            rc = hn_fail(HN_ERR_FORMAT, "%s: /avi/buffer_boards row %llu is not a state of %s",
                         path, (unsigned long long)r, dom_spec(d));
    free(text);
    free(back);
    return rc;
}

/* Values in /avi/NAME, or -1 when it is missing. */
static hssize_t arr_size(hid_t g, const char *name)
{
    hid_t ds = H5Lexists(g, name, H5P_DEFAULT) > 0 ? H5Dopen2(g, name, H5P_DEFAULT) : -1;
    hid_t sp = ds >= 0 ? H5Dget_space(ds) : -1;
    hssize_t k = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (ds >= 0)
        H5Dclose(ds);
    return k;
}

/* The bootstrap buffer of a checkpoint that the n-puzzle's own path wrote
 * (before one path served every domain): rows of width^2 tiles, without
 * the blank's cell that the domain's states carry. Each row is read back
 * through its text, so the domain checks it as it checks any board. */
static int load_tile_rows(hid_t g, const char *path, const struct trn_avi_opts *o,
                          struct avi_state *s, size_t cells)
{
    uint8_t *t = malloc(cells * s->buf_n);
    char text[4096];
    int rc = t ? read_arr(g, path, "buffer_boards", H5T_NATIVE_UINT8, t, cells * s->buf_n)
               : hn_fail(HN_ERR_NOMEM, "out of memory");
    size_t sb = dom_state_bytes(o->dom);
    for (uint64_t r = 0; !rc && r < s->buf_n; r++) {
        size_t k = 0;
        for (size_t c = 0; c < cells && k < sizeof text - 8; c++)
            k +=
                (size_t)snprintf(text + k, sizeof text - k, "%s%u", c ? " " : "", t[r * cells + c]);
        if (dom_parse_state(o->dom, text, s->buf_b + r * sb))
            rc = hn_fail(HN_ERR_FORMAT, "%s: /avi/buffer_boards row %llu is not a board of %s",
                         path, (unsigned long long)r, dom_spec(o->dom));
    }
    free(t);
    return rc;
}

static int load_buffer(hid_t g, const char *path, const struct trn_avi_opts *o, struct avi_state *s)
{
    size_t sb = dom_state_bytes(o->dom);
    double w = 0;
    hssize_t k = arr_size(g, "buffer_boards");
    int rc;
    if (k >= 0 && (uint64_t)k != s->buf_n * sb && !hn_h5_attr_get_double(g, "width", &w) &&
        w >= 2 && w <= 16 && (uint64_t)k == s->buf_n * (uint64_t)(w * w))
        rc = load_tile_rows(g, path, o, s, (size_t)(w * w));
    else {
        rc = read_arr(g, path, "buffer_boards", H5T_NATIVE_UINT8, s->buf_b, s->buf_n * sb);
        if (!rc)
            rc = check_states(path, o->dom, s->buf_b, s->buf_n);
    }
    if (!rc)
        rc = read_arr(g, path, "buffer_cost", H5T_NATIVE_FLOAT, s->buf_y, s->buf_n);
    return rc ? rc : trn_check_floats(path, "avi", "buffer_cost", s->buf_y, s->buf_n, 1);
}

static int load_group(hid_t g, const char *path, const struct trn_avi_opts *o, struct avi_state *s)
{
    size_t np = nn_adam_size(s->a);
    int rc = check_same(g, path, o);
    if (!rc)
        rc = load_counts(g, path, o, s);
    if (!rc)
        rc = read_arr(g, path, "adam_m", H5T_NATIVE_FLOAT, nn_adam_m(s->a), np);
    if (!rc)
        rc = read_arr(g, path, "adam_v", H5T_NATIVE_FLOAT, nn_adam_v(s->a), np);
    if (!rc)
        rc = trn_check_floats(path, "avi", "adam_m", nn_adam_m(s->a), np, 0);
    if (!rc)
        rc = trn_check_floats(path, "avi", "adam_v", nn_adam_v(s->a), np, 1);
    if (!rc)
        rc = load_target(g, path, s);
    if (!rc && s->target) {
        size_t n;
        const float *p = nn_model_params(s->target, &n);
        rc = trn_check_floats(path, "avi", "target_params", p, n, 0);
        p = nn_model_state(s->target, &n);
        if (!rc)
            rc = trn_check_floats(path, "avi", "target_state", p, n, 0);
    }
    if (!rc && s->buf_n && s->buf_b)
        rc = load_buffer(g, path, o, s);
    return rc;
}

int trn_avi_ckpt_load(const char *path, const struct trn_avi_opts *o, struct avi_state *s)
{
    int rc = 0;
    if (!(s->m = nn_model_load(path, &rc)))
        return rc ? rc : HN_ERR_IO;
    if ((rc = trn_avi_check_model(o, s->m, path)))
        return rc;
    size_t np;
    nn_model_params(s->m, &np);
    struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
    ao.lr = (float)o->lr;
    if (!(s->a = nn_adam_new(np, &ao, &rc)))
        return rc ? rc : HN_ERR_NOMEM;
    hid_t f = hn_h5_open_read(path);
    if (f < 0)
        return (int)f;
    hid_t g = H5Lexists(f, "avi", H5P_DEFAULT) > 0 ? H5Gopen2(f, "avi", H5P_DEFAULT) : -1;
    rc = g >= 0 ? load_group(g, path, o, s)
                : hn_fail(HN_ERR_FORMAT, "%s: no /avi group (not a value-iteration checkpoint?)",
                          path);
    if (g >= 0)
        H5Gclose(g);
    H5Fclose(f);
    return rc;
}
