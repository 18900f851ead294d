/* A search over any domain opened from its settings: the domain, the rules
 * that tie options to algorithms and domains, and the heuristic assembled
 * from its names (network, floor, offset, scale, blends, the admissible
 * heuristic of focal, anytime and the cube's windows). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solve/dom_int.h"

static int given(const heurnet_dom_opts *o, int id)
{
    return (o->given & 1ull << id) != 0;
}

/* A domain whose IDA* windows are bounded by an admissible heuristic of
 * relative states (--admissible H): it has no estimate between two states
 * of its own but maps two states to one (the cube). */
static int relative_domain(const dom *d)
{
    return !dom_has_between(d) && dom_has_relative(d);
}

int heurnet_dom_relative_windows(const heurnet_dom_opts *o, const dom *d)
{
    return o->so.shortcut.max_window && o->so.shortcut.ida && relative_domain(d);
}

/* The first name of a comma list into buf ("" when none). */
static size_t first_name(const char *list, char *buf, size_t cap)
{
    size_t k = list ? strcspn(list, ",") : 0;
    snprintf(buf, cap, "%.*s", (int)k, k ? list : "");
    return k;
}

/* focal: --bound and --admissible belong to it; the admissible heuristic
 * defaults to the domain's first. */
static int focal_finish(heurnet_dom_search *s)
{
    heurnet_dom_opts *o = &s->o;
    int bound = given(o, HEURNET_DOM_OPT_BOUND), adm = given(o, HEURNET_DOM_OPT_ADMISSIBLE);
    if (o->algo == HEURNET_DOM_ANYTIME && !bound)
        return 0; /* anytime's H */
    /* the windows' heuristic (unused with --shortcut 0, which turns a
     * model's recorded windows off) */
    if (o->algo != HEURNET_DOM_FOCAL && !bound && relative_domain(s->d))
        return 0;
    if (o->algo != HEURNET_DOM_FOCAL)
        return bound || adm
                   ? hn_fail(HN_ERR_ARG, "--bound%s focal's, not %s's",
                             adm ? " and --admissible are" : " is", heurnet_dom_algo_name(o->algo))
                   : 0;
    if (!o->admissible &&
        !first_name(dom_facts_of(s->d)->heuristics, s->adm_buf, sizeof s->adm_buf))
        return hn_fail(HN_ERR_ARG, "%s has no heuristic of its own: focal needs --admissible H",
                       dom_spec(s->d));
    if (!o->admissible)
        o->admissible = s->adm_buf;
    if (!strncmp(o->admissible, "ann:", 4))
        return hn_fail(HN_ERR_ARG, "--admissible must be an admissible heuristic, not %s",
                       o->admissible);
    return 0;
}

/* The heuristic's name: ann:MODEL with a model, else the domain's first;
 * ann:SELF becomes the model. */
static int default_heuristic(heurnet_dom_search *s)
{
    heurnet_dom_opts *o = &s->o;
    if (!o->heuristic && o->model) {
        snprintf(s->heur_buf, sizeof s->heur_buf, "ann:%s", o->model);
        o->heuristic = s->heur_buf;
    } else if (!o->heuristic) {
        if (!first_name(dom_facts_of(s->d)->heuristics, s->heur_buf, sizeof s->heur_buf))
            return hn_fail(HN_ERR_ARG,
                           "%s has no heuristic of its own: give --heuristic or --model",
                           dom_spec(s->d));
        o->heuristic = s->heur_buf;
    } else if (o->model && !strncmp(o->heuristic, "ann:SELF", 8)) {
        snprintf(s->heur_buf, sizeof s->heur_buf, "ann:%s%s", o->model, o->heuristic + 8);
        o->heuristic = s->heur_buf;
    }
    return 0;
}

/* Options that belong to one algorithm. */
static int algo_options(const heurnet_dom_opts *o, const dom *d)
{
    const char *a = heurnet_dom_algo_name(o->algo);
    if (o->algo != HEURNET_DOM_BEAM && o->so.widen)
        return hn_fail(HN_ERR_ARG, "--widen is beam's, not %s's", a);
    if (o->algo != HEURNET_DOM_BEAM && o->ball_radius)
        return hn_fail(HN_ERR_ARG, "--ball is beam's, not %s's", a);
    if (o->algo != HEURNET_DOM_BEAM && o->so.variants > 1)
        return hn_fail(HN_ERR_ARG, "--variants is beam's, not %s's", a);
    if (o->so.variants > 1 && (!dom_has_symmetric_path(d) || o->so.variants > dom_symmetries(d)))
        return hn_fail(HN_ERR_ARG,
                       "--variants %d: %s has %d symmetric map(s) that carry paths (the "
                       "start counted)",
                       o->so.variants, dom_spec(d),
                       dom_has_symmetric_path(d) ? dom_symmetries(d) : 1);
    if (o->algo != HEURNET_DOM_ANYTIME && (o->so.ndeltas || o->so.ida))
        return hn_fail(HN_ERR_ARG, "--deltas and --ida are anytime's, not %s's", a);
    return 0;
}

/* The window shortcut needs unit costs, inverses and, for IDA* windows, an
 * estimate between two states. */
static int shortcut_options(const heurnet_dom_opts *o, const dom *d)
{
    if (!o->so.shortcut.max_window)
        return 0;
    if (!dom_unit_cost(d) || !dom_reversible(d))
        return hn_fail(HN_ERR_ARG,
                       "--shortcut needs unit move costs and an inverse for every "
                       "move; %s has not",
                       dom_spec(d));
    int rel = heurnet_dom_relative_windows(o, d);
    if (rel && o->admissible && !strncmp(o->admissible, "ann:", 4))
        return hn_fail(HN_ERR_ARG, "--admissible must be an admissible heuristic, not %s",
                       o->admissible);
    if (rel && !o->admissible)
        return hn_fail(HN_ERR_ARG,
                       "--shortcut ...:ida on %s needs --admissible H (the windows' "
                       "lower bound, e.g. max:pdb:corners,pdb:edges6a,pdb:edges6b)",
                       dom_spec(d));
    if (o->so.shortcut.ida && !dom_has_between(d) && !dom_has_relative(d))
        return hn_fail(HN_ERR_ARG,
                       "--shortcut ...:ida needs an estimate between two states; %s has "
                       "none (the n-puzzle has)",
                       dom_spec(d));
    return 0;
}

int heurnet_dom_finish(heurnet_dom_search *s)
{
    heurnet_dom_opts *o = &s->o;
    int rc = default_heuristic(s);
    if (rc)
        return rc;
    int net = !strncmp(o->heuristic, "ann:", 4) || srch_dom_heur_is_callback(o->heuristic);
    if (o->algo < 0)
        o->algo = net ? HEURNET_DOM_BWAS : HEURNET_DOM_IDASTAR;
    if (o->algo == HEURNET_DOM_WASTAR && o->so.weight == 1.0)
        o->so.weight = 1.5;
    if (o->algo == HEURNET_DOM_IDASTAR && net)
        return hn_fail(HN_ERR_ARG, "--algo idastar needs an admissible heuristic, not %s",
                       o->heuristic);
    if ((rc = algo_options(o, s->d)) || (rc = shortcut_options(o, s->d)) ||
        (rc = heurnet_dom_prove_finish(s)))
        return rc;
    return focal_finish(s);
}

/* An admissible heuristic by name for option `what`; a failure is the
 * settings' (HN_ERR_ARG) unless keep_status. */
static srch_dom_heur *adm_named(const dom *d, const char *what, const char *name, int keep, int *st)
{
    srch_dom_heur *h = srch_dom_heur_adm(d, name, st);
    if (!h) {
        *st = keep && *st != HN_ERR_ARG ? *st : HN_ERR_ARG;
        hn_fail(*st, "%s %s: %s", what, name, hn_errmsg());
    }
    return h;
}

/* The j-th blend onto the opened heuristic h. */
static int heur_blend(const heurnet_dom_opts *o, int j, const dom *d, srch_dom_heur *h)
{
    int st;
    srch_dom_heur *b = adm_named(d, "--blend", o->blend[j], 0, &st);
    if (!b)
        return st;
    if (srch_dom_heur_set_blend(h, o->blend_w[j], b))
        return hn_fail(HN_ERR_ARG, "--blend %g:%s: %s", o->blend_w[j], o->blend[j], hn_errmsg());
    return 0;
}

/* The heuristic of the settings: network or admissible, then its value
 * options and blends. */
static int heur_open(const heurnet_dom_opts *o, const dom *d, srch_dom_heur **h)
{
    int st;
    if (!(*h = srch_dom_heur_open(d, o->heuristic, &o->no, &st))) {
        st = st == HN_ERR_SHAPE ? HN_ERR_ARG : st;
        return hn_fail(st, "--heuristic %s: %s", o->heuristic, hn_errmsg());
    }
    srch_dom_heur *fl = NULL;
    if (o->floor && !(fl = adm_named(d, "--floor", o->floor, 0, &st)))
        goto fail;
    if ((o->scale != 1 || o->offset != 0 || fl) &&
        (st = srch_dom_heur_set_value(*h, o->scale, o->offset, fl)))
        goto fail;
    for (int j = 0; j < o->nblend; j++)
        if ((st = heur_blend(o, j, d, *h)))
            goto fail;
    return 0;
fail: /* nothing is given back */
    srch_dom_heur_free(*h);
    *h = NULL;
    return st == HN_ERR_ARG ? st : HN_ERR_ARG;
}

/* The admissible heuristic of focal, anytime and the cube's windows. */
static int adm_open(heurnet_dom_search *s)
{
    heurnet_dom_opts *o = &s->o;
    int st;
    if (o->admissible && !(s->adm = adm_named(s->d, "--admissible", o->admissible, 1, &st)))
        return st;
    if (heurnet_dom_relative_windows(o, s->d))
        o->so.shortcut.between = s->adm;
    if (o->algo != HEURNET_DOM_ANYTIME)
        return 0;
    o->so.admissible = s->adm;
    if ((o->so.ndeltas || o->so.ida) && !s->adm && !srch_dom_heur_base(s->h))
        return hn_fail(HN_ERR_ARG,
                       "--deltas and --ida need an admissible heuristic: give --admissible H "
                       "(%s has no floor or residual base)",
                       o->heuristic);
    return 0;
}

int heurnet_dom_heuristics(heurnet_dom_search *s)
{
    int rc = heur_open(&s->o, s->d, &s->h);
    if (!rc)
        rc = adm_open(s);
    return rc ? rc : heurnet_dom_prove_open(s);
}

dom *heurnet_dom_opts_domain(const heurnet_dom_opts *o, int *status)
{
    char spec[512];
    int st;
    const char *name = o->domain;
    if (!name && o->model && !heurnet_dom_model_domain(o->model, spec, sizeof spec) && spec[0])
        name = spec;
    dom *d = NULL;
    if (!name)
        st = hn_fail(HN_ERR_ARG, "--domain D is required (or a --model that records one)");
    else if (!(d = dom_open(name, &st)) && o->domain)
        st = hn_fail(HN_ERR_ARG, "--domain: %s", hn_errmsg());
    else if (!d)
        st = hn_fail(HN_ERR_ARG,
                     "--model %s is for domain %s, which is not built in (a plug-in's model "
                     "names no file): give --domain PATH.so",
                     o->model, name);
    if (status)
        *status = d ? 0 : st;
    return d;
}

heurnet_dom_search *heurnet_dom_search_new(const dom *d, const heurnet_dom_opts *o, int *status)
{
    heurnet_dom_search *s = calloc(1, sizeof *s);
    if (!s) {
        int st = hn_fail(HN_ERR_NOMEM, "out of memory for a search");
        if (status)
            *status = st;
        return NULL;
    }
    s->o = *o;
    s->d = (dom *)d;
    s->o.so.ball = NULL;
    s->o.so.admissible = NULL;
    s->o.so.shortcut.between = NULL;
    return s;
}

/* s, or NULL (s freed) with *status when st is a failure. */
static heurnet_dom_search *kept(heurnet_dom_search *s, int st, int *status)
{
    if (status)
        *status = st;
    if (!st)
        return s;
    heurnet_dom_search_free(s);
    return NULL;
}

heurnet_dom_search *heurnet_dom_search_config(const dom *d, const heurnet_dom_opts *o, int *status)
{
    heurnet_dom_search *s = heurnet_dom_search_new(d, o, status);
    if (!s)
        return NULL;
    int st = heurnet_dom_record_use(s);
    return kept(s, st ? st : heurnet_dom_finish(s), status);
}

int heurnet_dom_search_load(heurnet_dom_search *s)
{
    int st = s->h ? 0 : heurnet_dom_heuristics(s);
    if (st) { /* nothing half opened stays */
        srch_dom_heur_free(s->h);
        srch_dom_heur_free(s->adm);
        srch_dom_heur_free(s->prove);
        s->h = s->adm = s->prove = NULL;
        s->o.so.admissible = s->o.so.shortcut.between = NULL;
    }
    return st;
}

heurnet_dom_search *heurnet_dom_search_open_on(const dom *d, const heurnet_dom_opts *o, int *status)
{
    heurnet_dom_search *s = heurnet_dom_search_config(d, o, status);
    return s ? kept(s, heurnet_dom_search_load(s), status) : NULL;
}

heurnet_dom_search *heurnet_dom_search_open(const heurnet_dom_opts *o, int *status)
{
    dom *d = heurnet_dom_opts_domain(o, status);
    heurnet_dom_search *s = d ? heurnet_dom_search_open_on(d, o, status) : NULL;
    if (s)
        s->own_dom = 1;
    else
        dom_free(d);
    return s;
}

void heurnet_dom_search_free(heurnet_dom_search *s)
{
    if (!s)
        return;
    srch_dom_heur_free(s->h);
    srch_dom_heur_free(s->adm);
    srch_dom_heur_free(s->prove);
    srch_dom_ball_free(s->ball);
    if (s->own_dom)
        dom_free(s->d);
    free(s);
}

int heurnet_dom_search_prepare(heurnet_dom_search *s)
{
    int st = heurnet_dom_search_load(s);
    if (st || !s->o.ball_radius || s->ball)
        return st;
    double t0 = hn_now();
    if (!(s->ball = srch_dom_ball_new(s->d, s->o.ball_radius, &st)))
        return hn_fail(st == HN_ERR_UNSUPPORTED ? HN_ERR_ARG : st, "--ball %d: %s",
                       s->o.ball_radius, hn_errmsg());
    s->ball_seconds = hn_now() - t0;
    s->o.so.ball = s->ball;
    return 0;
}

const heurnet_dom_opts *heurnet_dom_search_settings(const heurnet_dom_search *s)
{
    return &s->o;
}

const dom *heurnet_dom_search_domain(const heurnet_dom_search *s)
{
    return s->d;
}

srch_dom_heur *heurnet_dom_search_heur(const heurnet_dom_search *s)
{
    return s->h;
}

const char *heurnet_dom_search_record(const heurnet_dom_search *s)
{
    return s->record;
}

size_t heurnet_dom_search_ball_states(const heurnet_dom_search *s)
{
    return s->ball ? srch_dom_ball_states(s->ball) : 0;
}

double heurnet_dom_search_ball_seconds(const heurnet_dom_search *s)
{
    return s->ball ? s->ball_seconds : 0;
}

int heurnet_dom_search_exact(const heurnet_dom_search *s)
{
    return s->o.algo == HEURNET_DOM_IDASTAR ||
           (s->o.algo == HEURNET_DOM_FOCAL && s->o.bound == 1.0);
}
