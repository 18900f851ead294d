/* Checkpoints: a model file (the current weights, written by nn_model_save)
 * plus a /checkpoint group with the optimizer moments, step count, dropout
 * RNG state, best weights so far and the data cursor. Written to PATH.tmp
 * and renamed, so a stop during writing leaves the previous checkpoint. The
 * settings that decide the arithmetic are stored and must match on resume. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/trn_private.h"
#include "common/hn_h5.h"

int trn_check_floats(const char *path, const char *group, const char *name, const float *p,
                     size_t n, int nonneg)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(p[i]) || (nonneg && p[i] < 0.0f))
            return hn_fail(HN_ERR_NAN,
                           "%s: /%s/%s holds %g at index %zu, expected a finite%s number", path,
                           group, name, (double)p[i], i, nonneg ? " non-negative" : "");
    return HN_OK;
}

int trn_h5_write_arr(hid_t g, const char *group, const char *name, hid_t type, const void *p,
                     size_t n)
{
    hsize_t dim = n ? n : 1;
    hid_t sp = H5Screate_simple(1, &dim, NULL);
    hid_t ds = sp >= 0 ? H5Dcreate2(g, name, type, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int ok = ds >= 0 && (n == 0 || H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0);
    if (ds >= 0)
        H5Dclose(ds);
    if (sp >= 0)
        H5Sclose(sp);
    return ok ? HN_OK : hn_fail(HN_ERR_HDF5, "cannot write /%s/%s", group, name);
}

static int write_arr(hid_t g, const char *name, hid_t type, const void *p, size_t n)
{
    return trn_h5_write_arr(g, "checkpoint", name, type, p, n);
}

/* Read exactly n elements (or, with n 0, allocate *alloc for whatever is there). */
static int read_arr(hid_t g, const char *path, const char *name, hid_t type, size_t esize, void *p,
                    size_t n, void **alloc, size_t *got)
{
    hid_t ds = H5Lexists(g, name, H5P_DEFAULT) > 0 ? H5Dopen2(g, name, H5P_DEFAULT) : -1;
    if (ds < 0)
        return hn_fail(HN_ERR_FORMAT, "%s: /checkpoint/%s is missing (not a checkpoint?)", path,
                       name);
    char what[64];
    snprintf(what, sizeof what, "/checkpoint/%s", name);
    int rc = hn_h5_dset_check(ds, path, what);
    if (rc) {
        H5Dclose(ds);
        return rc;
    }
    hid_t sp = H5Dget_space(ds);
    hssize_t k = sp >= 0 ? H5Sget_simple_extent_npoints(sp) : -1;
    if (sp >= 0)
        H5Sclose(sp);
    if (alloc) {
        *alloc = malloc(k > 0 ? (size_t)k * esize : 1);
        p = *alloc;
        n = k > 0 ? (size_t)k : 0;
        *got = n;
        if (!p)
            rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    } else if (k != (hssize_t)n &&
               !(n == 0 && k == 1)) { /* an empty array is stored as one value */
        rc = hn_fail(HN_ERR_SHAPE, "%s: /checkpoint/%s has %lld values, expected %zu", path, name,
                     (long long)k, n);
    }
    if (!rc && n && H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) < 0)
        rc = hn_fail(HN_ERR_FORMAT, "%s: /checkpoint/%s cannot be read", path, name);
    H5Dclose(ds);
    return rc;
}

/* ---- settings that must match ------------------------------------------ */

struct setting {
    const char *name;
    int is_num;
    double num;
    char str[NN_SPEC_MAX];
};

static int settings(const struct trn_opts *o, const trn_data *d, const nn_model *m,
                    struct setting *st)
{
    int k = 0;
    st[k] = (struct setting){.name = "spec"};
    nn_spec_format(nn_model_spec(m), NULL, st[k++].str, sizeof st[0].str);
    st[k] = (struct setting){.name = "encoder"};
    snprintf(st[k++].str, sizeof st[0].str, "%s", trn_data_encoder(d));
    st[k] = (struct setting){.name = "seed"};
    snprintf(st[k++].str, sizeof st[0].str, "%llu", (unsigned long long)o->seed);
    st[k] = (struct setting){.name = "lr_schedule"};
    snprintf(st[k++].str, sizeof st[0].str, "%s", trn_schedule_name(o->schedule));
    struct {
        const char *n;
        double v;
    } nums[] = {{"batch", o->batch},
                {"loss", o->loss},
                {"over_weight", o->over_weight},
                {"lr", o->lr},
                {"lr_step", o->lr_step},
                {"lr_gamma", o->lr_gamma},
                {"lr_min", o->lr_min},
                {"weight_decay", o->weight_decay},
                {"train_rows", (double)trn_data_rows(d, TRN_TRAIN)},
                {"val_rows", (double)trn_data_rows(d, TRN_VAL)}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        st[k++] = (struct setting){.name = nums[i].n, .is_num = 1, .num = nums[i].v};
    return k;
}

#define MAX_SETTINGS 16

/* ---- save -------------------------------------------------------------- */

static int save_group(hid_t g, const struct trn_state *s, const struct trn_opts *o,
                      const trn_data *d)
{
    size_t n = nn_adam_size(s->a), ns, nb;
    int rc = write_arr(g, "adam_m", H5T_NATIVE_FLOAT, nn_adam_m(s->a), n);
    if (!rc)
        rc = write_arr(g, "adam_v", H5T_NATIVE_FLOAT, nn_adam_v(s->a), n);
    const float *bp = nn_model_params(s->best, &nb), *bs = nn_model_state(s->best, &ns);
    if (!rc)
        rc = write_arr(g, "best_params", H5T_NATIVE_FLOAT, bp, nb);
    if (!rc)
        rc = write_arr(g, "best_state", H5T_NATIVE_FLOAT, bs, ns);
    hn_rng *r = nn_train_rng(s->t);
    size_t rl = hn_rng_state_size(r);
    uint8_t *rb = malloc(rl ? rl : 1);
    if (!rc && !rb)
        rc = hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!rc) {
        hn_rng_state_get(r, rb);
        rc = write_arr(g, "rng", H5T_NATIVE_UINT8, rb, rl);
    }
    free(rb);
    struct {
        const char *k;
        double v;
    } nums[] = {{"epoch", s->epoch},
                {"cursor", (double)s->cursor},
                {"adam_steps", (double)nn_adam_step_count(s->a)},
                {"loss_sum", s->loss_sum},
                {"train_seconds", s->train_seconds},
                {"bad_epochs", s->bad_epochs},
                {"have_best", s->have_best},
                {"best_epoch", s->best_e.epoch},
                {"best_train_loss", s->best_e.train_loss},
                {"best_val_loss", s->best_e.val_loss},
                {"best_val_mae", s->best_e.val_mae},
                {"best_val_exact", s->best_e.val_exact},
                {"best_val_over", s->best_e.val_over},
                {"best_samples_per_s", s->best_e.samples_per_s},
                {"best_seconds", s->best_e.seconds},
                {"best_lr", s->best_e.lr},
                {"threads", o->threads}};
    for (size_t i = 0; !rc && i < sizeof nums / sizeof nums[0]; i++)
        rc = hn_h5_attr_set_double(g, nums[i].k, nums[i].v);
    struct setting st[MAX_SETTINGS];
    int k = settings(o, d, s->m, st);
    for (int i = 0; !rc && i < k; i++)
        rc = st[i].is_num ? hn_h5_attr_set_double(g, st[i].name, st[i].num)
                          : hn_h5_attr_set_str(g, st[i].name, st[i].str);
    return rc;
}

int trn_ckpt_save(const char *path, const struct trn_state *s, const struct trn_opts *o,
                  const trn_data *d)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return hn_fail(HN_ERR_ARG, "checkpoint path too long");
    int rc = nn_model_save(s->m, tmp);
    if (rc)
        return rc;
    rc = hn_file_unseal(tmp); /* sealed again once /checkpoint is in */
    hid_t f = rc ? -1 : H5Fopen(tmp, H5F_ACC_RDWR, H5P_DEFAULT);
    hid_t g = f >= 0 ? H5Gcreate2(f, "checkpoint", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) : -1;
    if (!rc)
        rc =
            g >= 0 ? save_group(g, s, o, d) : hn_fail(HN_ERR_IO, "%s: cannot add /checkpoint", tmp);
    if (g >= 0)
        H5Gclose(g);
    if (f >= 0 && H5Fclose(f) < 0 && !rc)
        rc = hn_fail(HN_ERR_IO, "%s: cannot finish writing", tmp);
    if (!rc)
        rc = hn_file_seal(tmp);
    if (!rc && rename(tmp, path) != 0)
        rc = hn_fail(HN_ERR_IO, "%s: cannot rename to %s", tmp, path);
    if (rc)
        remove(tmp);
    return rc;
}

/* ---- load -------------------------------------------------------------- */

static int check_settings(hid_t g, const char *path, const struct trn_opts *o, const trn_data *d,
                          const nn_model *m)
{
    struct setting st[MAX_SETTINGS];
    int k = settings(o, d, m, st);
    for (int i = 0; i < k; i++) {
        char sv[NN_SPEC_MAX];
        double v;
        if (st[i].is_num ? hn_h5_attr_get_double(g, st[i].name, &v)
                         : hn_h5_attr_get_str(g, st[i].name, sv, sizeof sv))
            return hn_fail(HN_ERR_FORMAT, "%s: /checkpoint attribute %s is missing", path,
                           st[i].name);
        if (st[i].is_num && v != st[i].num)
            return hn_fail(HN_ERR_ARG, "%s: the checkpoint was made with %s = %g, this run has %g",
                           path, st[i].name, v, st[i].num);
        if (!st[i].is_num && strcmp(sv, st[i].str))
            return hn_fail(HN_ERR_ARG,
                           "%s: the checkpoint was made with %s \"%s\", this run has \"%s\"", path,
                           st[i].name, sv, st[i].str);
    }
    return HN_OK;
}

/* The most epochs a run can ask for (heurnet train --epochs). */
#define TRN_EPOCHS_MAX 1000000

/* Batches per epoch of this run (as train.c's loop computes them). */
static uint64_t batches_per_epoch(const struct trn_opts *o, const trn_data *d)
{
    uint64_t n = trn_data_rows(d, TRN_TRAIN), bs = n < (uint64_t)o->batch ? n : (uint64_t)o->batch;
    return bs ? n / bs : 0;
}

/* v must be an integer in [lo, hi]: a damaged epoch of 1e12 or -3 would
 * otherwise hang the loop or index outside the data. */
static int int_field(const char *path, const char *name, double v, double lo, double hi)
{
    if (!(v == floor(v) && v >= lo && v <= hi))
        return hn_fail(HN_ERR_FORMAT,
                       "%s: /checkpoint attribute %s is %g, expected an integer in [%.0f, %.0f]",
                       path, name, v, lo, hi);
    return HN_OK;
}

static int nonneg_field(const char *path, const char *name, double v)
{
    if (!(v >= 0.0))
        return hn_fail(HN_ERR_FORMAT, "%s: /checkpoint attribute %s is %g, expected >= 0", path,
                       name, v);
    return HN_OK;
}

/* Every field against the run: v[] in load_attrs' order. */
static int check_attrs(const char *path, const double *v, const char *const *names, uint64_t nb)
{
    int rc = int_field(path, "epoch", v[0], 0, TRN_EPOCHS_MAX);
    if (!rc)
        rc = int_field(path, "cursor", v[1], 0, nb ? (double)(nb - 1) : 0);
    if (!rc && v[2] != v[0] * (double)nb + v[1])
        rc = hn_fail(HN_ERR_FORMAT,
                     "%s: /checkpoint attribute adam_steps is %g, but epoch %g and cursor "
                     "%g of %llu batches make %g",
                     path, v[2], v[0], v[1], (unsigned long long)nb, v[0] * (double)nb + v[1]);
    if (!rc)
        rc = int_field(path, "bad_epochs", v[5], 0, v[0]);
    if (!rc)
        rc = int_field(path, "have_best", v[6], v[0] > 0, v[0] > 0);
    if (!rc)
        rc = int_field(path, "best_epoch", v[7], v[6] > 0, v[0]);
    for (int i = 3; !rc && i < 16; i++)
        if (i != 5 && i != 6 && i != 7)
            rc = nonneg_field(path, names[i], v[i]);
    return rc;
}

static int load_attrs(hid_t g, const char *path, struct trn_state *s, uint64_t *steps, uint64_t nb)
{
    double v[16];
    static const char *const names[] = {
        "epoch",        "cursor",         "adam_steps",    "loss_sum",           "train_seconds",
        "bad_epochs",   "have_best",      "best_epoch",    "best_train_loss",    "best_val_loss",
        "best_val_mae", "best_val_exact", "best_val_over", "best_samples_per_s", "best_seconds",
        "best_lr"};
    for (int i = 0; i < 16; i++)
        if (hn_h5_attr_get_double(g, names[i], &v[i])) {
            char msg[512];
            snprintf(msg, sizeof msg, "%s", hn_errmsg());
            return hn_fail(HN_ERR_FORMAT, "%s: /checkpoint: %s", path, msg);
        }
    int rc = check_attrs(path, v, names, nb);
    if (rc)
        return rc;
    s->epoch = (int)v[0];
    s->cursor = (uint64_t)v[1];
    *steps = (uint64_t)v[2];
    s->loss_sum = v[3];
    s->train_seconds = v[4];
    s->bad_epochs = (int)v[5];
    s->have_best = (int)v[6];
    s->best_e = (struct trn_epoch){.epoch = (int)v[7],
                                   .train_loss = v[8],
                                   .val_loss = v[9],
                                   .val_mae = v[10],
                                   .val_exact = v[11],
                                   .val_over = v[12],
                                   .samples_per_s = v[13],
                                   .seconds = v[14],
                                   .lr = v[15],
                                   .best = 1};
    return HN_OK;
}

struct load_args {
    const char *path;
    struct trn_state *s;
    const struct trn_opts *o;
    const trn_data *d;
};

/* In a probe's child (hn_h5_probe_call): the same load; what it allocates
 * goes with the child. */
static void probe_load(void *arg)
{
    const struct load_args *a = arg;
    uint8_t *rng = NULL;
    size_t len = 0;
    struct trn_state copy = *a->s;
    trn_ckpt_load(a->path, &copy, a->o, a->d, &rng, &len);
}

int trn_ckpt_load(const char *path, struct trn_state *s, const struct trn_opts *o,
                  const trn_data *d, uint8_t **rng_state, size_t *rng_len)
{
    struct load_args la = {path, s, o, d};
    int rc = hn_h5_probe_call(path, probe_load, &la);
    if (rc)
        return rc;
    s->m = nn_model_load(path, &rc);
    if (!s->m)
        return rc;
    if (strcmp(nn_model_encoder(s->m), trn_data_encoder(d)))
        return hn_fail(HN_ERR_ARG,
                       "%s: the checkpoint's encoder \"%s\" differs from the data's \"%s\"", path,
                       nn_model_encoder(s->m), trn_data_encoder(d));
    s->best = nn_model_clone(s->m, &rc);
    if (!s->best)
        return rc;
    size_t np, ns;
    float *bp = nn_model_params(s->best, &np), *bs = nn_model_state(s->best, &ns);
    struct nn_adam_opts ao = NN_ADAM_DEFAULTS;
    ao.lr = (float)o->lr;
    ao.weight_decay = (float)o->weight_decay;
    s->a = nn_adam_new(np, &ao, &rc);
    if (!s->a)
        return rc;
    hid_t f = hn_h5_open_read(path);
    if (f < 0)
        return (int)f;
    hid_t g =
        H5Lexists(f, "checkpoint", H5P_DEFAULT) > 0 ? H5Gopen2(f, "checkpoint", H5P_DEFAULT) : -1;
    uint64_t steps = 0;
    void *rb = NULL;
    rc = g >= 0 ? check_settings(g, path, o, d, s->m)
                : hn_fail(HN_ERR_FORMAT,
                          "%s: no /checkpoint group (a model file, not a checkpoint?)", path);
    if (!rc)
        rc = load_attrs(g, path, s, &steps, batches_per_epoch(o, d));
    if (!rc)
        rc = read_arr(g, path, "adam_m", H5T_NATIVE_FLOAT, 4, nn_adam_m(s->a), np, NULL, NULL);
    if (!rc)
        rc = read_arr(g, path, "adam_v", H5T_NATIVE_FLOAT, 4, nn_adam_v(s->a), np, NULL, NULL);
    if (!rc)
        rc = read_arr(g, path, "best_params", H5T_NATIVE_FLOAT, 4, bp, np, NULL, NULL);
    if (!rc)
        rc = read_arr(g, path, "best_state", H5T_NATIVE_FLOAT, 4, bs, ns, NULL, NULL);
    if (!rc)
        rc = trn_check_floats(path, "checkpoint", "adam_m", nn_adam_m(s->a), np, 0);
    if (!rc)
        rc = trn_check_floats(path, "checkpoint", "adam_v", nn_adam_v(s->a), np, 1);
    if (!rc)
        rc = trn_check_floats(path, "checkpoint", "best_params", bp, np, 0);
    if (!rc)
        rc = trn_check_floats(path, "checkpoint", "best_state", bs, ns, 0);
    if (!rc)
        rc = read_arr(g, path, "rng", H5T_NATIVE_UINT8, 1, NULL, 0, &rb, rng_len);
    if (!rc && hn_rng_state_check(rb, *rng_len)) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hn_errmsg());
        rc = hn_fail(HN_ERR_FORMAT, "%s: /checkpoint/rng: %s", path, msg);
    }
    if (!rc)
        nn_adam_set_step_count(s->a, steps);
    *rng_state = rb;
    if (g >= 0)
        H5Gclose(g);
    H5Fclose(f);
    return rc;
}
