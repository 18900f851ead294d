/* The facade's long runs (solve/api.h): data generation, training and
 * value iteration with the command line's defaults, so a binding writes
 * the same files as heurnet gen, train and avi. */
#include <math.h>
#include <stdlib.h>

#include "search/generic/srch_dom.h"
#include "solve/api.h"
#include "solve/pdb_cache.h"

/* An int scalar in lo..hi, else HN_ERR_ARG naming it with the range. */
static int int_in(const char *what, long v, long lo, long hi)
{
    if (v < lo || v > hi)
        return hn_fail(HN_ERR_ARG, "%s %ld: expected %ld..%ld", what, v, lo, hi);
    return HN_OK;
}

/* A real scalar in (lo, hi] (open) or [lo, hi]; NaN and infinity fail. */
static int real_in(const char *what, double v, double lo, double hi, int open)
{
    if (!isfinite(v) || (open ? !(v > lo) : !(v >= lo)) || !(v <= hi))
        return hn_fail(HN_ERR_ARG, "%s %g: expected a number in %s%g, %g]", what, v,
                       open ? "(" : "[", lo, hi);
    return HN_OK;
}

/* heurnet gen's ranges (cli/cmd_gen.c), checked before any file is made. */
static int gen_scalars(const heurnet_gen_args *a)
{
    int st = HN_OK;
    if (!a->all && a->count == 0)
        st = hn_fail(HN_ERR_ARG, "count 0: expected a positive number of states (or all)");
    if (!st && (a->walk_min < 0 || a->walk_max < a->walk_min || a->walk_max > DG_DOM_MAX_WALK))
        st = hn_fail(HN_ERR_ARG, "walks of %d..%d moves: expected 0 <= min <= max <= %d",
                     a->walk_min, a->walk_max, DG_DOM_MAX_WALK);
    if (!st && (a->walk_max > 0) + !!a->uniform + !!a->all > 1)
        st = hn_fail(HN_ERR_ARG, "walks, uniform and all exclude each other");
    if (!st)
        st = int_in("threads", a->threads, 0, HEURNET_MAX_GEN_THREADS);
    return st;
}

/* The gen options of a checked heurnet_gen_args on the open domain d, with
 * heurnet gen's defaults (label in buf). */
static dg_dom_gen_opts gen_opts(const heurnet_gen_args *a, const dom *d, char *buf, size_t cap)
{
    int walks = a->walk_max > 0 || a->uniform || a->all;
    int uniform = a->uniform || (!walks && dg_dom_gen_default_uniform(d));
    return (dg_dom_gen_opts){
        .d = d,
        .heur_name = a->label && a->label[0] ? a->label : dg_dom_gen_default_heur(d, buf, cap),
        .count = a->count,
        .seed = a->seed,
        .walk_min = walks ? a->walk_min : 1,
        .walk_max = walks ? a->walk_max : 30,
        .uniform = uniform,
        .path_states = a->path_states,
        .threads = a->threads > 0 ? a->threads : 1,
        .all = a->all,
        .shard_count = 1,
        .limits = {.max_expanded = a->max_expanded},
        .overwrite = a->overwrite,
        .progress = a->progress,
        .user = a->user};
}

int heurnet_gen(const char *path, const heurnet_gen_args *a, dg_dom_gen_stats *st)
{
    if (!path || !a || !a->domain)
        return hn_fail(HN_ERR_ARG, "an output path and a domain are required");
    int rc = gen_scalars(a);
    if (rc)
        return rc;
    dom *d = dom_open(a->domain, &rc);
    if (!d)
        return rc;
    char first[128];
    dg_dom_gen_opts o = gen_opts(a, d, first, sizeof first);
    if (!a->all && !o.heur_name[0])
        rc =
            hn_fail(HN_ERR_ARG, "%s has no heuristic of its own: name one with label", dom_spec(d));
    srch_dom_heur *h = a->all || rc ? NULL : srch_dom_heur_adm(d, o.heur_name, &rc);
    o.heur = h;
    if (a->all || h)
        rc = dg_dom_gen_run(path, &o, st);
    srch_dom_heur_free(h);
    dom_free(d);
    return rc;
}

void heurnet_train_defaults(heurnet_train_args *a)
{
    *a = (heurnet_train_args){.epochs = TRN_OPTS_DEFAULTS.epochs,
                              .batch = TRN_OPTS_DEFAULTS.batch,
                              .threads = TRN_OPTS_DEFAULTS.threads,
                              .patience = TRN_OPTS_DEFAULTS.patience,
                              .lr = TRN_OPTS_DEFAULTS.lr,
                              .val_fraction = 0.05,
                              .dropout = 0.1,
                              .seed = TRN_OPTS_DEFAULTS.seed};
}

/* heurnet train's ranges (cli/train_common.c). */
static int train_scalars(const heurnet_train_args *a)
{
    int st = int_in("batch", a->batch, 2, 1 << 16);
    if (!st)
        st = int_in("epochs", a->epochs, 1, 1000000);
    if (!st)
        st = int_in("threads", a->threads, 1, HEURNET_MAX_THREADS);
    if (!st)
        st = int_in("patience", a->patience, 0, 1000000);
    if (!st)
        st = real_in("lr", a->lr, 0, 10, 1);
    if (!st && !(a->val_fraction >= 0 && a->val_fraction < 1))
        st = hn_fail(HN_ERR_ARG, "val_fraction %g: expected a share in [0, 1)", a->val_fraction);
    if (!st && !(a->dropout >= 0 && a->dropout < 1))
        st = hn_fail(HN_ERR_ARG, "dropout %g: expected a share in [0, 1)", a->dropout);
    return st;
}

static int train_opts(const heurnet_train_args *a, struct trn_opts *o)
{
    *o = TRN_OPTS_DEFAULTS;
    o->defaults = NN_LAYER_DEFAULTS;
    o->defaults.dropout = (float)a->dropout;
    o->arch = a->arch && a->arch[0] ? a->arch : NULL;
    o->checkpoint = a->checkpoint;
    o->resume = a->resume;
    o->init = a->init;
    o->epochs = a->epochs;
    o->batch = a->batch;
    o->threads = a->threads;
    o->patience = a->patience;
    o->lr = a->lr;
    o->seed = a->seed;
    o->on_epoch = a->on_epoch;
    o->epoch_user = a->user;
    o->progress = a->progress;
    o->progress_user = a->user;
    if (!o->arch && !o->init && !o->resume)
        return hn_fail(HN_ERR_ARG, "arch is required unless init or resume give it");
    if (o->init && o->resume)
        return hn_fail(HN_ERR_ARG, "init and resume exclude each other");
    return train_scalars(a);
}

int heurnet_train(const char *const *data, int ndata, const heurnet_train_args *a, nn_model **out,
                  struct trn_result *res)
{
    struct trn_opts o;
    struct trn_result mine;
    int rc = train_opts(a, &o);
    *out = NULL;
    if (rc)
        return rc;
    if (ndata < 1 || !data)
        return hn_fail(HN_ERR_ARG, "no data files given");
    for (int i = 0; i < ndata; i++)
        if (!data[i] || !data[i][0])
            return hn_fail(HN_ERR_ARG, "data file %d: no path given", i);
    nn_blas_threads(o.threads);
    char file[256] = "";
    if (!a->domain && (rc = trn_data_file_domain(data[0], file, sizeof file)))
        return rc;
    const char *spec = a->domain ? a->domain : file;
    dom *dm = spec[0] ? dom_open(spec, &rc) : NULL;
    if (spec[0] && !dm)
        return rc;
    trn_data *d = trn_data_open_dom(data, ndata, a->val_fraction, 0, dm, &rc);
    if (!d) {
        dom_free(dm);
        return rc;
    }
    const char *inc = trn_data_incomplete(d);
    if (inc && !a->allow_incomplete)
        rc = hn_fail(HN_ERR_ARG,
                     "%s: the gen that writes it has not finished (complete=0); rerun that gen "
                     "to finish it, or pass allow_incomplete to train on its committed rows",
                     inc);
    if (!rc)
        rc = trn_run(d, &o, out, res ? res : &mine);
    trn_data_free(d);
    dom_free(dm);
    return rc;
}

void heurnet_avi_defaults(heurnet_avi_args *a)
{
    struct trn_avi_opts o;
    trn_avi_opts_default(&o);
    *a = (heurnet_avi_args){.rounds = o.rounds,
                            .steps_per_round = o.steps_per_round,
                            .batch = o.batch,
                            .walk_max = o.walk_max,
                            .threads = o.threads,
                            .lookahead = o.lookahead,
                            .lr = o.lr,
                            .lr_decay = o.lr_decay,
                            .update_loss = o.update_loss,
                            .seed = o.seed};
}

/* heurnet avi's options from a on domain d (the command
 * line's target scaling). */
static void avi_opts(const heurnet_avi_args *a, const dom *d, struct trn_avi_opts *o)
{
    trn_avi_opts_default(o);
    o->defaults = NN_LAYER_DEFAULTS;
    o->defaults.dropout = 0.0f;
    o->dom = d;
    o->arch = a->arch && a->arch[0] ? a->arch : NULL;
    o->checkpoint = a->checkpoint;
    o->resume = a->resume;
    o->init = a->init;
    o->rounds = a->rounds;
    o->steps_per_round = a->steps_per_round;
    o->batch = a->batch;
    o->walk_max = a->walk_max;
    o->threads = a->threads;
    o->lookahead = a->lookahead;
    o->lr = a->lr;
    o->lr_decay = a->lr_decay;
    o->update_loss = a->update_loss;
    o->seed = a->seed;
    trn_avi_default_scale(d, 0, &o->target_mean, &o->target_std);
    o->on_round = a->on_round;
    o->round_user = a->user;
    o->progress = a->progress;
    o->progress_user = a->user;
}

/* heurnet avi's ranges (cli/cmd_avi.c int_option and real_option). */
static int avi_scalars(const heurnet_avi_args *a)
{
    int st = a->domain ? HN_OK : hn_fail(HN_ERR_ARG, "a domain is required");
    if (!st)
        st = int_in("rounds", a->rounds, 0, 100000000);
    if (!st)
        st = int_in("steps_per_round", a->steps_per_round, 1, 10000000);
    if (!st)
        st = int_in("batch", a->batch, 2, 1000000);
    if (!st)
        st = int_in("walk_max", a->walk_max, 0, TRN_AVI_MAX_WALK);
    if (!st)
        st = int_in("threads", a->threads, 1, HEURNET_MAX_THREADS);
    if (!st)
        st = int_in("lookahead", a->lookahead, 1, TRN_AVI_MAX_TABLE_LOOKAHEAD);
    if (!st)
        st = real_in("lr", a->lr, 0, 10, 1);
    if (!st)
        st = real_in("lr_decay", a->lr_decay, 0, 1, 1);
    if (!st)
        st = real_in("update_loss", a->update_loss, 0, 1e12, 0);
    return st;
}

int heurnet_avi(const heurnet_avi_args *a, nn_model **out)
{
    struct trn_avi_opts o;
    dom_heur *floor = NULL;
    int rc = avi_scalars(a);
    *out = NULL;
    if (rc)
        return rc;
    if (!(a->arch && a->arch[0]) && !a->init && !a->resume)
        return hn_fail(HN_ERR_ARG, "arch is required unless init or resume give it");
    dom *d = dom_open(a->domain, &rc);
    if (!d)
        return rc;
    avi_opts(a, d, &o);
    if (a->floor && a->floor[0] && !(floor = dom_heur_open(d, a->floor, &rc))) {
        dom_free(d);
        return rc;
    }
    o.floor = floor;
    nn_blas_threads(o.blas_threads);
    rc = trn_avi_run(&o, out);
    dom_heur_free(floor);
    dom_free(d);
    return rc;
}
