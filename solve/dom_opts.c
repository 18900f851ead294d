/* The settings of a search over any domain from their text, as heurnet
 * solve --domain and a model's recorded search give them: one parser per
 * option, so the command line, a record and an embedding program agree. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "search/npuzzle/encode.h"
#include "solve/dom_search.h"

static const char *const ALGO[] = {"astar",   "wastar",  "bwas", "beam",
                                   "idastar", "anytime", "focal"};

static const char *const OPT_NAME[HEURNET_DOM_OPT_COUNT] = {
    [HEURNET_DOM_OPT_DOMAIN] = "domain",
    [HEURNET_DOM_OPT_MODEL] = "model",
    [HEURNET_DOM_OPT_HEURISTIC] = "heuristic",
    [HEURNET_DOM_OPT_ALGO] = "algo",
    [HEURNET_DOM_OPT_WEIGHT] = "weight",
    [HEURNET_DOM_OPT_BATCH] = "batch",
    [HEURNET_DOM_OPT_WIDTH] = "width",
    [HEURNET_DOM_OPT_WEIGHTS] = "weights",
    [HEURNET_DOM_OPT_ENGINE] = "engine",
    [HEURNET_DOM_OPT_OFFSET] = "offset",
    [HEURNET_DOM_OPT_SCALE] = "scale",
    [HEURNET_DOM_OPT_FLOOR] = "floor",
    [HEURNET_DOM_OPT_MAX_EXPANDED] = "max-expanded",
    [HEURNET_DOM_OPT_TIME_LIMIT] = "time-limit",
    [HEURNET_DOM_OPT_MAX_NODES] = "max-nodes",
    [HEURNET_DOM_OPT_DELTAS] = "deltas",
    [HEURNET_DOM_OPT_SHORTCUT] = "shortcut",
    [HEURNET_DOM_OPT_IDA] = "ida",
    [HEURNET_DOM_OPT_IDA_AT] = "ida-at",
    [HEURNET_DOM_OPT_WIDEN] = "widen",
    [HEURNET_DOM_OPT_BALL] = "ball",
    [HEURNET_DOM_OPT_VARIANTS] = "variants",
    [HEURNET_DOM_OPT_BLEND] = "blend",
    [HEURNET_DOM_OPT_PHASES] = "phases",
    [HEURNET_DOM_OPT_BOUND] = "bound",
    [HEURNET_DOM_OPT_ADMISSIBLE] = "admissible",
    [HEURNET_DOM_OPT_PROVE] = "prove",
    [HEURNET_DOM_OPT_PROVE_AT] = "prove-at",
};

const char *heurnet_dom_algo_name(int algo)
{
    return algo >= 0 && algo < (int)(sizeof ALGO / sizeof *ALGO) ? ALGO[algo] : "?";
}

int heurnet_dom_algo_parse(const char *name, int *algo)
{
    for (int i = 0; name && i < (int)(sizeof ALGO / sizeof *ALGO); i++)
        if (!strcmp(name, ALGO[i])) {
            *algo = i;
            return 0;
        }
    return hn_fail(HN_ERR_ARG,
                   "--algo '%s' is not astar, wastar, bwas, beam, idastar, anytime or focal",
                   name ? name : "");
}

int heurnet_dom_opt_id(const char *name)
{
    for (int i = 0; name && i < HEURNET_DOM_OPT_COUNT; i++)
        if (OPT_NAME[i] && !strcmp(OPT_NAME[i], name))
            return i;
    return -1;
}

const char *heurnet_dom_opt_name(int id)
{
    return id >= 0 && id < HEURNET_DOM_OPT_COUNT ? OPT_NAME[id] : NULL;
}

void heurnet_dom_opts_default(heurnet_dom_opts *o)
{
    *o = (heurnet_dom_opts){.algo = -1,
                            .so = SRCH_DOM_DEFAULTS,
                            .no = SRCH_DOM_NET_DEFAULTS,
                            .scale = 1,
                            .bound = HEURNET_DOM_DEFAULT_BOUND};
    o->so.shortcut = SRCH_DOM_SHORTCUT_DEFAULTS;
    o->so.ida_at = 0.5;
    o->prove_at = HEURNET_DOM_DEFAULT_PROVE_AT;
}

/* ---- numbers: the whole text a plain decimal in range ---- */

static int get_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = hn_number_plain(s, lo < 0, 0) ? strtol(s, &end, 10) : 0;
    if (!hn_number_plain(s, lo < 0, 0) || errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int get_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = hn_number_plain(s, 0, 0) ? strtoull(s, &end, 10) : 0;
    if (!hn_number_plain(s, 0, 0) || errno || *end)
        return -1;
    *out = v;
    return 0;
}

/* ERANGE also flags underflow (1e-400 -> 0): refused too */
static int get_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = hn_number_plain(s, 1, 1) ? strtod(s, &end) : 0;
    if (!hn_number_plain(s, 1, 1) || errno || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* ---- lists ---- */

static int set_weights(heurnet_dom_opts *o, const char *arg)
{
    if (!strcmp(arg, "none")) { /* the deltas alone */
        o->so.nweights = 0;
        return 0;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    o->so.nweights = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        double w;
        if (o->so.nweights == SRCH_DOM_MAX_WEIGHTS || get_double(t, &w) || !(w >= 1) || w > 100)
            return hn_fail(HN_ERR_ARG, "--weights '%s': up to %d weights of 1..100", arg,
                           SRCH_DOM_MAX_WEIGHTS);
        o->so.weights[o->so.nweights++] = w;
    }
    return o->so.nweights ? 0 : hn_fail(HN_ERR_ARG, "--weights names no weight");
}

/* "0,1,2.5,inf": rising moves 0..1000, inf only last. */
static int set_deltas(heurnet_dom_opts *o, const char *arg)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    int n = 0, ok = strlen(arg) < sizeof buf;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); ok && t; t = strtok_r(NULL, ",", &save)) {
        double x = SRCH_DOM_DELTA_INF;
        ok = n < SRCH_DOM_MAX_DELTAS &&
             (!strcmp(t, "inf") || (!get_double(t, &x) && x >= 0 && x <= 1000)) &&
             (n == 0 || (x > o->so.deltas[n - 1] && o->so.deltas[n - 1] < SRCH_DOM_DELTA_INF));
        o->so.deltas[n++] = x;
    }
    if (!ok || !n)
        return hn_fail(HN_ERR_ARG,
                       "--deltas '%s': 1..%d rising moves 0..1000 separated by commas, 'inf' "
                       "only last",
                       arg, SRCH_DOM_MAX_DELTAS);
    o->so.ndeltas = n;
    return 0;
}

/* The words after W in --shortcut: a budget N, "ida", "rR" (rounds), in
 * that order, each at most once. 0 or -1. */
static int shortcut_words(char *rest, srch_dom_shortcut_opts *sc)
{
    int stage = 0; /* 1 N seen, 2 ida seen, 3 rounds seen */
    char *save = NULL;
    for (char *t = strtok_r(rest, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
        long r = 0;
        if (stage < 1 && !get_u64(t, &sc->budget))
            stage = 1;
        else if (stage < 2 && !strcmp(t, "ida"))
            stage = 2;
        else if (stage < 3 && t[0] == 'r' && !get_long(t + 1, 1, 100, &r))
            stage = 3;
        else
            return -1;
        if (stage == 2)
            sc->ida = 1;
        if (stage == 3)
            sc->max_rounds = (int)r;
    }
    return sc->budget >= 1 && sc->budget <= SRCH_DOM_SHORTCUT_MAX_BUDGET ? 0 : -1;
}

/* "W[:N][:ida][:rR]": windows up to W moves, N states (with ida:
 * expansions) per window, R rounds at most. */
static int set_shortcut(heurnet_dom_opts *o, const char *arg)
{
    char buf[64], *colon;
    long w = -1;
    srch_dom_shortcut_opts sc = SRCH_DOM_SHORTCUT_DEFAULTS;
    snprintf(buf, sizeof buf, "%s", arg);
    if ((colon = strchr(buf, ':')))
        *colon = '\0';
    int bad =
        strlen(arg) >= sizeof buf || get_long(buf, 0, SRCH_DOM_SHORTCUT_MAX_WINDOW, &w) ||
        (w > 0 && w < 2) || strstr(arg, "::") ||
        (colon && (!colon[1] || colon[strlen(colon + 1)] == ':' || shortcut_words(colon + 1, &sc)));
    if (bad)
        return hn_fail(HN_ERR_ARG,
                       "--shortcut '%s' is not W[:N][:ida][:rR] (W 0 = off or 2..%d moves, N "
                       "1..%llu states or expansions per window, R 1..100 rounds)",
                       arg, SRCH_DOM_SHORTCUT_MAX_WINDOW,
                       (unsigned long long)SRCH_DOM_SHORTCUT_MAX_BUDGET);
    sc.max_window = (int)w;
    sc.between = o->so.shortcut.between;
    o->so.shortcut = sc;
    return 0;
}

/* --blend W:H (repeatable): W in (0, 100], H an admissible heuristic's name. */
static int set_blend(heurnet_dom_opts *o, const char *arg)
{
    const char *colon = strchr(arg, ':');
    char w[64];
    double x;
    if (!colon || colon == arg || (size_t)(colon - arg) >= sizeof w || !colon[1])
        return hn_fail(HN_ERR_ARG, "--blend '%s' is not W:H (a weight, then a heuristic)", arg);
    memcpy(w, arg, (size_t)(colon - arg));
    w[colon - arg] = '\0';
    if (get_double(w, &x) || !(x > 0 && x <= 100))
        return hn_fail(HN_ERR_ARG, "--blend '%s': the weight must be over 0 and at most 100", arg);
    if (o->nblend == SRCH_DOM_MAX_BLENDS)
        return hn_fail(HN_ERR_ARG, "--blend '%s': at most %d blends", arg, SRCH_DOM_MAX_BLENDS);
    o->blend[o->nblend] = colon + 1;
    o->blend_w[o->nblend++] = x;
    return 0;
}

static int set_engine(heurnet_dom_opts *o, const char *arg)
{
    if (!strcmp(arg, "auto"))
        o->no.engine = SRCH_DOM_ENGINE_AUTO;
    else if (!strcmp(arg, "float"))
        o->no.engine = SRCH_DOM_ENGINE_FLOAT;
    else if (!strcmp(arg, "q8"))
        o->no.engine = SRCH_DOM_ENGINE_Q8;
    else
        return hn_fail(HN_ERR_ARG, "--engine '%s' is not auto, float or q8", arg);
    return 0;
}

/* ---- numbers by option ---- */

/* A limit in a message (the macros are plain numbers). */
#define HN_STR_(x) #x
#define HN_STR(x) HN_STR_(x)

/* A number option in [lo, hi] into *out; `what` the message, '%s' the text. */
static int set_real(const char *arg, double lo, double hi, double *out, const char *what)
{
    double x;
    if (get_double(arg, &x) || !(x >= lo && x <= hi))
        return hn_fail(HN_ERR_ARG, what, arg);
    *out = x;
    return 0;
}

static int set_int(const char *arg, long lo, long hi, int *out, const char *what)
{
    long v;
    if (get_long(arg, lo, hi, &v))
        return hn_fail(HN_ERR_ARG, what, arg);
    *out = (int)v;
    return 0;
}

static int set_widen(heurnet_dom_opts *o, const char *arg)
{
    double x;
    if (get_double(arg, &x) || !(x == 0 || (x > 1 && x <= 100)))
        return hn_fail(HN_ERR_ARG, "--widen '%s' is not 0 (off) or over 1 up to 100", arg);
    o->so.widen = x;
    return 0;
}

static int set_ida(heurnet_dom_opts *o, const char *arg)
{
    if (strcmp(arg, "off") && strcmp(arg, "plain"))
        return hn_fail(HN_ERR_ARG, "--ida '%s' is not off or plain", arg);
    o->so.ida = !strcmp(arg, "plain");
    return 0;
}

static int set_phases(heurnet_dom_opts *o, const char *arg)
{
    if (strcmp(arg, "continue") && strcmp(arg, "restart"))
        return hn_fail(HN_ERR_ARG, "--phases '%s' is not continue or restart", arg);
    o->so.restart = !strcmp(arg, "restart");
    return 0;
}

static int set_limit(heurnet_dom_opts *o, int id, const char *arg)
{
    if (id == HEURNET_DOM_OPT_MAX_EXPANDED)
        return get_u64(arg, &o->lim.max_expanded)
                   ? hn_fail(HN_ERR_ARG, "--max-expanded '%s' is not a count", arg)
                   : 0;
    if (id == HEURNET_DOM_OPT_TIME_LIMIT)
        return get_double(arg, &o->lim.time_limit) || !(o->lim.time_limit >= 0)
                   ? hn_fail(HN_ERR_ARG, "--time-limit '%s' is not seconds >= 0", arg)
                   : 0;
    return get_u64(arg, &o->lim.max_nodes)
               ? hn_fail(HN_ERR_ARG, "--max-nodes '%s' is not a count", arg)
               : 0;
}

static int set_number(heurnet_dom_opts *o, int id, const char *arg)
{
    switch (id) {
    case HEURNET_DOM_OPT_WEIGHT:
        return set_real(arg, 0, 100, &o->so.weight, "--weight '%s' is not 0..100");
    case HEURNET_DOM_OPT_BATCH:
        return set_int(arg, 1, 65536, &o->so.batch, "--batch '%s' is not 1..65536");
    case HEURNET_DOM_OPT_WIDTH:
        return set_int(arg, 1, 10000000, &o->so.width, "--width '%s' is not 1..10^7");
    case HEURNET_DOM_OPT_OFFSET:
        return set_real(arg, 0, 1000, &o->offset, "--offset '%s' is not 0..1000");
    case HEURNET_DOM_OPT_SCALE:
        return set_int(arg, 1, 1000, &o->scale, "--scale '%s' is not 1..1000");
    case HEURNET_DOM_OPT_IDA_AT:
        return set_real(arg, 0, 1, &o->so.ida_at, "--ida-at '%s' is not a share 0..1");
    case HEURNET_DOM_OPT_BOUND:
        return set_real(arg, 1, 100, &o->bound, "--bound '%s' is not 1..100");
    case HEURNET_DOM_OPT_PROVE_AT:
        return set_real(arg, 0, 1, &o->prove_at, "--prove-at '%s' is not a share 0..1");
    case HEURNET_DOM_OPT_BALL:
        return set_int(
            arg, 0, SRCH_DOM_BALL_MAX_RADIUS, &o->ball_radius,
            "--ball '%s' is not a radius 0 (none).." HN_STR(SRCH_DOM_BALL_MAX_RADIUS) " moves");
    case HEURNET_DOM_OPT_VARIANTS:
        return set_int(arg, 1, DOM_MAX_SYMMETRIES, &o->so.variants,
                       "--variants '%s' is not 1.." HN_STR(DOM_MAX_SYMMETRIES));
    default:
        return set_limit(o, id, arg);
    }
}

/* The options whose value is a name, kept as given. */
static const char **name_field(heurnet_dom_opts *o, int id)
{
    switch (id) {
    case HEURNET_DOM_OPT_DOMAIN:
        return &o->domain;
    case HEURNET_DOM_OPT_MODEL:
        return &o->model;
    case HEURNET_DOM_OPT_HEURISTIC:
        return &o->heuristic;
    case HEURNET_DOM_OPT_FLOOR:
        return &o->floor;
    case HEURNET_DOM_OPT_ADMISSIBLE:
        return &o->admissible;
    case HEURNET_DOM_OPT_PROVE:
        return &o->prove;
    default:
        return NULL;
    }
}

static int set_text(heurnet_dom_opts *o, int id, const char *value)
{
    switch (id) {
    case HEURNET_DOM_OPT_ALGO:
        return heurnet_dom_algo_parse(value, &o->algo);
    case HEURNET_DOM_OPT_WEIGHTS:
        return set_weights(o, value);
    case HEURNET_DOM_OPT_ENGINE:
        return set_engine(o, value);
    case HEURNET_DOM_OPT_DELTAS:
        return set_deltas(o, value);
    case HEURNET_DOM_OPT_SHORTCUT:
        return set_shortcut(o, value);
    case HEURNET_DOM_OPT_IDA:
        return set_ida(o, value);
    case HEURNET_DOM_OPT_PHASES:
        return set_phases(o, value);
    case HEURNET_DOM_OPT_WIDEN:
        return set_widen(o, value);
    case HEURNET_DOM_OPT_BLEND:
        return set_blend(o, value);
    default:
        return set_number(o, id, value);
    }
}

int heurnet_dom_opts_set(heurnet_dom_opts *o, int id, const char *value)
{
    if (!heurnet_dom_opt_name(id))
        return hn_fail(HN_ERR_ARG, "no search option of id %d", id);
    if (!value)
        return hn_fail(HN_ERR_ARG, "--%s needs a value", OPT_NAME[id]);
    const char **field = name_field(o, id);
    int st = 0;
    if (field) /* --prove off drops a recorded proof stage */
        *field = id == HEURNET_DOM_OPT_PROVE && !strcmp(value, "off") ? NULL : value;
    else
        st = set_text(o, id, value);
    if (!st)
        o->given |= 1ull << id;
    return st;
}

int heurnet_dom_model_domain(const char *path, char *spec, size_t cap)
{
    int st;
    if (!cap)
        return hn_fail(HN_ERR_ARG, "no room for a domain name");
    spec[0] = '\0';
    nn_model *m = nn_model_load(path, &st);
    if (!m) { /* the search that opens it reports a bad model */
        hn_error_clear();
        return 0;
    }
    const char *dm = nn_model_get_meta_str(m, "domain");
    if (dm && strlen(dm) < cap)
        snprintf(spec, cap, "%s", dm);
    else if (srch_np_encode_domain(nn_model_encoder(m), spec, cap))
        spec[0] = '\0';
    hn_error_clear();
    nn_model_free(m);
    return 0;
}
