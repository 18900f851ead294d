/* Heuristics over any domain as a small tree: admissible leaves (dom_heur),
 * network leaves (gen_net.c), max and sum nodes; the root turns the
 * estimate into the integer value the searches order by. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "nn/nn.h"
#include "nn/sparse.h"
#include "search/generic/gen_internal.h"
#include "search/npuzzle/encode.h"

const srch_dom_net_opts SRCH_DOM_NET_DEFAULTS = {
    .engine = SRCH_DOM_ENGINE_AUTO, .max_batch = 1024, .residual = 1};

enum kind { K_ADM, K_NET, K_MAX, K_SUM, K_CB };

/* The most maps a network is averaged over besides the identity. */
#define DOM_SYM_MAX (DOM_MAX_SYMMETRIES - 1)

/* An admissible heuristic is read-only (its tables may be gigabytes), so
 * clones share it; the last leaf frees it. */
typedef struct {
    dom_heur *h;
    atomic_int refs;
    int borrowed; /* the caller owns h (srch_dom_heur_adm_borrow) */
} shared_adm;

struct srch_dom_heur {
    enum kind kind;
    const dom *d;
    dom_heur *adm;  /* K_ADM */
    shared_adm *sa; /* K_ADM: adm and the count of leaves sharing it */
    gen_net *net;   /* K_NET */
    /* K_NET with sym > 1: the mean over the state and its symmetric maps
     * 1..sym-1, whose rows go through symnet (net's weights) so that net's
     * rows stay the parents of the next call's children */
    gen_net *symnet;
    int sym;
    /* the maps averaged over (sym > 1): 1..sym-1, or for a Q network (qnet)
     * the first sym-1 that commute with the moves, map qmap[j] of a state
     * taking its move m to qmove[j][m] */
    int qnet;
    int qmap[DOM_SYM_MAX];
    uint8_t qmove[DOM_SYM_MAX][DOM_MAX_MOVES];
    uint8_t *mbuf;        /* the mapped moves */
    srch_dom_heur *a, *b; /* K_MAX, K_SUM */
    srch_dom_heur_fn fn;  /* K_CB */
    void *user;
    int scale; /* the root's value options */
    double offset;
    srch_dom_heur *floor;
    /* the root's blends: blend_w[j] x admissible blend[j]'s value added */
    srch_dom_heur *blend[SRCH_DOM_MAX_BLENDS];
    double blend_w[SRCH_DOM_MAX_BLENDS];
    int nblend;
    int has_net;       /* a network leaf anywhere below */
    double *tmp, *est; /* scratch: b's estimates (a leaf's: its maps'), the root's */
    int *ftmp;         /* the floor's values */
    int *btmp;         /* one blend's values */
    double *bsum;      /* the blends' weighted sum */
    uint8_t *sbuf;     /* sym > 1: the mapped states (room for scap, as mbuf) */
    size_t cap, scap;
};

static srch_dom_heur *node_new(enum kind k, const dom *d, int *status)
{
    srch_dom_heur *h = calloc(1, sizeof *h);
    if (!h) {
        *status = hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
        return NULL;
    }
    h->kind = k;
    h->d = d;
    h->scale = 1;
    return h;
}

void srch_dom_heur_free(srch_dom_heur *h)
{
    if (!h)
        return;
    if (h->sa && atomic_fetch_sub(&h->sa->refs, 1) == 1) {
        if (!h->sa->borrowed)
            dom_heur_free(h->sa->h);
        free(h->sa);
    }
    srch_gen_net_free(h->net);
    srch_gen_net_free(h->symnet);
    srch_dom_heur_free(h->a);
    srch_dom_heur_free(h->b);
    srch_dom_heur_free(h->floor);
    for (int j = 0; j < h->nblend; j++)
        srch_dom_heur_free(h->blend[j]);
    free(h->tmp);
    free(h->est);
    free(h->ftmp);
    free(h->btmp);
    free(h->bsum);
    free(h->sbuf);
    free(h->mbuf);
    free(h);
}

/* A leaf over dh; with `owned` it frees dh when the last clone goes (also
 * on failure here). */
static srch_dom_heur *adm_leaf(const dom *d, dom_heur *dh, int owned, int *status)
{
    srch_dom_heur *h = node_new(K_ADM, d, status);
    shared_adm *sa = h ? malloc(sizeof *sa) : NULL;
    if (!sa) {
        if (h)
            *status = hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
        free(h);
        if (owned)
            dom_heur_free(dh);
        return NULL;
    }
    sa->h = dh;
    sa->borrowed = !owned;
    atomic_init(&sa->refs, 1);
    h->sa = sa;
    h->adm = dh;
    return h;
}

srch_dom_heur *srch_dom_heur_adm(const dom *d, const char *name, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    dom_heur *dh = dom_heur_open(d, name, status);
    return dh ? adm_leaf(d, dh, 1, status) : NULL;
}

srch_dom_heur *srch_dom_heur_adm_borrow(const dom *d, const dom_heur *dh, int *status)
{
    int dummy;
    return adm_leaf(d, (dom_heur *)dh, 0, status ? status : &dummy);
}

/* The model is for this domain: its recorded domain (else the one its
 * n-puzzle encoder names), its input width, and its encoder, which must be
 * the domain's encoding even when the domains agree: a plug-in may keep its
 * canonical string and change its encoding, and a model with no encoder was
 * never shown to read this domain's inputs (the n-puzzle path refuses it
 * too). */
static int check_model(const dom *d, const nn_model *m, const char *name, int32_t **inmap)
{
    const dom_facts *f = dom_facts_of(d);
    const char *rec = nn_model_get_meta_str(m, "domain");
    const char *enc = nn_model_encoder(m) ? nn_model_encoder(m) : "";
    const char *denc = f->encoding ? f->encoding : "";
    char np[64];
    if (!rec && srch_np_encode_domain(enc, np, sizeof np) == 0)
        rec = np; /* an n-puzzle model from before models recorded their domain */
    hn_error_clear();
    /* a model of the domain's other layout reads its states renamed */
    if (enc[0] && strcmp(enc, denc) && nn_model_inputs(m) == (int)f->inputs) {
        int32_t *map = malloc(f->inputs * sizeof *map);
        if (!map)
            return hn_fail(HN_ERR_NOMEM, "out of memory for a network's input map");
        if (dom_encode_as(d, enc, map)) {
            *inmap = map;
            denc = enc;
            rec = NULL; /* the encoder names the model's own domain */
        } else {
            free(map);
        }
    }
    if (rec && strcmp(rec, dom_spec(d)) && strcmp(rec, dom_canonical(d)))
        return hn_fail(HN_ERR_ARG, "%s: the model is for domain \"%s\", this run's is \"%s\"", name,
                       rec, dom_spec(d));
    if (enc[0] && strcmp(enc, denc))
        return hn_fail(HN_ERR_ARG,
                       "%s: the model's encoder is \"%s\", but domain %s encodes \"%s\"; the "
                       "network was trained on other inputs",
                       name, enc, dom_spec(d), denc);
    /* one output: the state's value; one per move: its children's (Q) */
    int outs = nn_model_outputs(m);
    if (nn_model_inputs(m) != (int)f->inputs || (outs != 1 && outs != dom_nmoves(d)))
        return hn_fail(HN_ERR_SHAPE,
                       "%s: the network reads %d inputs and gives %d outputs; domain %s has %u "
                       "inputs and needs 1 output (or %d, one per move)",
                       name, nn_model_inputs(m), outs, dom_spec(d), f->inputs, dom_nmoves(d));
    if (strcmp(enc, denc))
        return hn_fail(HN_ERR_ARG,
                       "%s: the model records no encoder, but domain %s encodes \"%s\"; a "
                       "network of the right width may read other inputs (import it with "
                       "--encoder \"%s\" if it was trained on them)",
                       name, dom_spec(d), denc, denc);
    return 0;
}

static int net_engine(int engine)
{
    if (engine != SRCH_DOM_ENGINE_AUTO)
        return engine;
    return nn_simd_best() != NN_SIMD_SCALAR ? SRCH_DOM_ENGINE_Q8 : SRCH_DOM_ENGINE_FLOAT;
}

/* 1 when map k commutes with every move on `state`: the map of each child
 * is the map of the state after the mapped move (mv[m], from the domain's
 * path map of the one-move path). */
static int commutes(const dom *d, int k, const uint8_t *state, const uint8_t *mv)
{
    uint8_t a[DOM_MAX_STATE_BYTES], b[DOM_MAX_STATE_BYTES], c[DOM_MAX_STATE_BYTES];
    uint8_t fs[DOM_MAX_STATE_BYTES];
    size_t sb = dom_state_bytes(d);
    dom_symmetric(d, state, k, fs);
    for (int m = 0; m < dom_nmoves(d); m++) {
        memcpy(c, state, sb);
        if (!dom_apply(d, c, m))
            continue;
        dom_symmetric(d, c, k, a);
        memcpy(b, fs, sb);
        if (!dom_apply(d, b, mv[m]) || memcmp(a, b, sb))
            return 0;
    }
    return 1;
}

/* A Q network's row values a state's children, so averaging it over a map
 * needs the map to carry children to children: the first sym - 1 maps that
 * commute with the moves (checked on the goal and a walk from it). */
static int q_maps(srch_dom_heur *h, const char *name)
{
    const dom *d = h->d;
    uint8_t goal[DOM_MAX_STATE_BYTES], walk[DOM_MAX_STATE_BYTES];
    hn_rng *rng = hn_rng_new(7);
    if (!rng)
        return hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
    dom_goal(d, goal);
    memcpy(walk, goal, dom_state_bytes(d));
    dom_walk(d, walk, 40, rng);
    hn_rng_free(rng);
    int n = 0, want = dom_has_symmetric_path(d) ? h->sym - 1 : 0;
    for (int k = 1; k < dom_symmetries(d) && n < want; k++) {
        uint8_t *mv = h->qmove[n];
        for (int m = 0; m < dom_nmoves(d); m++) {
            mv[m] = (uint8_t)m;
            dom_symmetric_path(d, k, mv + m, 1);
        }
        if (commutes(d, k, goal, mv) && commutes(d, k, walk, mv))
            h->qmap[n++] = k;
    }
    if (n < h->sym - 1)
        return hn_fail(HN_ERR_ARG,
                       "%s: sym:%d with a Q network needs %d symmetric maps that commute "
                       "with the moves; domain %s has %d",
                       name, h->sym, h->sym - 1, dom_spec(d), n);
    h->qnet = 1;
    return 0;
}

static srch_dom_heur *net_leaf(const dom *d, const nn_model *m, const char *name,
                               const srch_dom_net_opts *o, int *status)
{
    if (o->engine < SRCH_DOM_ENGINE_AUTO || o->engine > SRCH_DOM_ENGINE_Q8 || o->max_batch < 1 ||
        o->max_batch > 65536 || (o->acc32 != 0 && o->acc32 != 1) || o->cache_bits < 0 ||
        o->cache_bits > 28) {
        *status = hn_fail(HN_ERR_ARG,
                          "%s: engine must be auto, float or q8, max_batch 1..65536, acc32 0 or "
                          "1 and cache_bits 0..28",
                          name);
        return NULL;
    }
    int32_t *inmap = NULL;
    if ((*status = check_model(d, m, name, &inmap)))
        return NULL;
    int sym = o->symmetries > 1 ? o->symmetries : 1;
    if (sym > dom_symmetries(d)) {
        *status = hn_fail(HN_ERR_ARG,
                          "%s: sym:%d, but domain %s has %d symmetric map(s) with the "
                          "identity",
                          name, sym, dom_spec(d), dom_symmetries(d));
        free(inmap);
        return NULL;
    }
    gen_net *net = srch_gen_net_new(d, m, net_engine(o->engine), o, inmap, status);
    free(inmap);
    srch_dom_heur *h = net ? node_new(K_NET, d, status) : NULL;
    if (!h) {
        srch_gen_net_free(net);
        return NULL;
    }
    h->net = net;
    h->has_net = 1;
    h->sym = sym;
    for (int k = 1; k < sym; k++)
        h->qmap[k - 1] = k;
    if (sym > 1 && nn_model_outputs(m) > 1 && (*status = q_maps(h, name))) {
        srch_dom_heur_free(h);
        return NULL;
    }
    if (sym > 1 && !(h->symnet = srch_gen_net_clone(net, status))) {
        srch_dom_heur_free(h);
        return NULL;
    }
    return h;
}

srch_dom_heur *srch_dom_heur_net(const dom *d, const nn_model *m, const char *name,
                                 const srch_dom_net_opts *opts, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    srch_dom_net_opts o = opts ? *opts : SRCH_DOM_NET_DEFAULTS;
    name = name ? name : "model";
    srch_dom_heur *h = net_leaf(d, m, name, &o, status);
    const char *res = nn_model_get_meta_str(m, "residual");
    if (!h || !o.residual || !res || !res[0])
        return h;
    srch_dom_heur *base = srch_dom_heur_adm(d, res, status);
    if (!base) {
        srch_dom_heur_free(h);
        *status = hn_fail(*status, "%s: residual base \"%s\": %s", name, res, hn_errmsg());
        return NULL;
    }
    return srch_dom_heur_sum_new(base, h, status);
}

/* The settings after "ann:PATH," (the n-puzzle's heuristic spec syntax,
 * so a model's recorded search reads the same here). */
typedef struct {
    srch_dom_net_opts o;
    int scale;
    double offset;
    char floor[256];
} ann_spec;

/* The number after a setting's prefix: the whole text a plain decimal
 * (no sign, spaces, hex or exponent tricks: hn_number_plain) in range. */
static int setting_real(const char *t, double *v)
{
    char *end;
    errno = 0;
    *v = hn_number_plain(t, 0, 1) ? strtod(t, &end) : -1;
    return hn_number_plain(t, 0, 1) && !errno && !*end && isfinite(*v) && *v >= 0 ? 0 : -1;
}

static int setting_int(const char *t, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = hn_number_plain(t, 0, 0) ? strtol(t, &end, 10) : lo - 1;
    return hn_number_plain(t, 0, 0) && !errno && !*end && *v >= lo && *v <= hi ? 0 : -1;
}

static int ann_setting(const char *spec, const char *part, ann_spec *a)
{
    long v;
    if (!strncmp(part, "delta:", 6)) {
        if (setting_real(part + 6, &a->offset))
            goto bad;
    } else if (!strncmp(part, "scale:", 6)) {
        if (setting_int(part + 6, 1, 1000, &v))
            goto bad;
        a->scale = (int)v;
    } else if (!strcmp(part, "q8")) {
        a->o.engine = SRCH_DOM_ENGINE_Q8;
    } else if (!strcmp(part, "sparse") || !strcmp(part, "dense") || !strcmp(part, "float")) {
        a->o.engine = SRCH_DOM_ENGINE_FLOAT; /* one float engine: sparse first layer */
    } else if (!strcmp(part, "acc16") || !strcmp(part, "acc32")) {
        a->o.acc32 = part[3] == '3';
    } else if (!strncmp(part, "cache:", 6)) {
        if (setting_int(part + 6, 0, 28, &v))
            goto bad;
        a->o.cache_bits = (int)v;
    } else if (!strncmp(part, "sym:", 4)) {
        if (setting_int(part + 4, 1, 64, &v))
            goto bad;
        a->o.symmetries = (int)v;
    } else if (!strcmp(part, "mirror")) {
        a->o.symmetries = 2; /* a square board's mirror image is map 1 */
    } else if (a->floor[0] || strlen(part) >= sizeof a->floor) {
        return hn_fail(HN_ERR_ARG, "heuristic '%s': one admissible part at most", spec);
    } else {
        snprintf(a->floor, sizeof a->floor, "%s", part);
    }
    return 0;
bad:
    return hn_fail(HN_ERR_ARG,
                   "heuristic '%s': bad setting '%s' (delta:D >= 0, scale:1..1000, sym:1..64, "
                   "mirror, q8, float, acc16, acc32, cache:0..28, or an admissible "
                   "heuristic's name)",
                   spec, part);
}

/* "ann:PATH[,setting...]" into the path (in buf) and *a. */
static int ann_parse(const char *spec, char *buf, size_t cap, ann_spec *a)
{
    if (strlen(spec) >= cap)
        return hn_fail(HN_ERR_ARG, "heuristic spec too long");
    snprintf(buf, cap, "%s", spec + 4);
    char *save = NULL, *part = strtok_r(buf, ",", &save);
    if (!part || !part[0])
        return hn_fail(HN_ERR_ARG, "heuristic '%s': no model path after ann:", spec);
    int st = 0;
    for (char *q; !st && (q = strtok_r(NULL, ",", &save));)
        st = ann_setting(spec, q, a);
    return st;
}

size_t srch_dom_heur_spec_cache_bytes(const dom *d, const char *spec, int *bits)
{
    ann_spec a = {.o = SRCH_DOM_NET_DEFAULTS, .scale = 1};
    char path[4096];
    *bits = 0;
    if (!spec || strncmp(spec, "ann:", 4) || ann_parse(spec, path, sizeof path, &a)) {
        hn_error_clear(); /* a bad spec is the search's to report */
        return 0;
    }
    *bits = a.o.cache_bits;
    size_t copies = a.o.symmetries > 1 ? 2 : 1; /* the maps' rows have a cache of their own */
    return *bits ? copies * ((size_t)1 << *bits) * srch_gen_net_cache_entry(dom_state_bytes(d)) : 0;
}

/* ---- heuristics a program gives as functions ---------------------------- */

static struct {
    char name[64];
    srch_dom_heur_fn fn;
    void *user;
} callbacks[SRCH_DOM_MAX_CALLBACKS];
static pthread_mutex_t callbacks_lock = PTHREAD_MUTEX_INITIALIZER;

int srch_dom_heur_register(const char *name, srch_dom_heur_fn fn, void *user)
{
    if (!name || !name[0] || strlen(name) >= sizeof callbacks[0].name || strchr(name, ','))
        return hn_fail(HN_ERR_ARG, "a callback heuristic's name: 1..63 characters, no comma");
    pthread_mutex_lock(&callbacks_lock);
    int free_slot = -1, i = 0;
    for (; i < SRCH_DOM_MAX_CALLBACKS && strcmp(callbacks[i].name, name); i++)
        if (free_slot < 0 && !callbacks[i].name[0])
            free_slot = i;
    if (i == SRCH_DOM_MAX_CALLBACKS)
        i = fn ? free_slot : -1;
    if (i >= 0) {
        snprintf(callbacks[i].name, sizeof callbacks[i].name, "%s", fn ? name : "");
        callbacks[i].fn = fn;
        callbacks[i].user = user;
    }
    pthread_mutex_unlock(&callbacks_lock);
    return i >= 0 || !fn ? 0
                         : hn_fail(HN_ERR_ARG, "%d callback heuristics are registered already",
                                   SRCH_DOM_MAX_CALLBACKS);
}

/* The registered function of "cb:NAME[,H]" into *fn, *user: 1, else 0. */
static int callback_of(const char *spec, srch_dom_heur_fn *fn, void **user)
{
    if (!spec || strncmp(spec, "cb:", 3))
        return 0;
    size_t len = strcspn(spec + 3, ",");
    int found = 0;
    pthread_mutex_lock(&callbacks_lock);
    for (int i = 0; i < SRCH_DOM_MAX_CALLBACKS && !found; i++)
        if (callbacks[i].name[0] && strlen(callbacks[i].name) == len &&
            !strncmp(callbacks[i].name, spec + 3, len)) {
            *fn = callbacks[i].fn;
            *user = callbacks[i].user;
            found = 1;
        }
    pthread_mutex_unlock(&callbacks_lock);
    return found;
}

int srch_dom_heur_is_callback(const char *spec)
{
    srch_dom_heur_fn fn;
    void *user;
    return callback_of(spec, &fn, &user);
}

/* The leaf of "cb:NAME[,H]", H its floor. */
static srch_dom_heur *callback_open(const dom *d, const char *spec, int *status)
{
    srch_dom_heur_fn fn;
    void *user;
    if (!callback_of(spec, &fn, &user)) {
        *status = hn_fail(HN_ERR_ARG, "%s: no callback heuristic of that name is registered", spec);
        return NULL;
    }
    srch_dom_heur *h = node_new(K_CB, d, status);
    if (!h)
        return NULL;
    h->fn = fn;
    h->user = user;
    h->has_net = 1;
    const char *comma = strchr(spec, ',');
    srch_dom_heur *floor = comma ? srch_dom_heur_adm(d, comma + 1, status) : NULL;
    if (comma && (!floor || (*status = srch_dom_heur_set_value(h, 1, 0, floor)))) {
        srch_dom_heur_free(h);
        return NULL;
    }
    return h;
}

int srch_dom_heur_spec_prepare(const dom *d, const char *spec)
{
    if (!strncmp(spec, "cb:", 3)) {
        const char *comma = strchr(spec, ',');
        srch_dom_heur *f = comma ? srch_dom_heur_adm(d, comma + 1, &(int){0}) : NULL;
        int ok = srch_dom_heur_is_callback(spec) && (!comma || f);
        srch_dom_heur_free(f);
        return ok ? 0 : hn_fail(HN_ERR_ARG, "%s: not a registered callback heuristic", spec);
    }
    ann_spec a = {.o = SRCH_DOM_NET_DEFAULTS, .scale = 1};
    char path[4096];
    int st = strncmp(spec, "ann:", 4) ? 0 : ann_parse(spec, path, sizeof path, &a);
    const char *adm = strncmp(spec, "ann:", 4) ? spec : a.floor;
    srch_dom_heur *h = !st && adm[0] ? srch_dom_heur_adm(d, adm, &st) : NULL;
    srch_dom_heur_free(h);
    return st;
}

srch_dom_heur *srch_dom_heur_open(const dom *d, const char *spec, const srch_dom_net_opts *opts,
                                  int *status)
{
    return srch_dom_heur_open_model(d, spec, NULL, opts, status);
}

srch_dom_heur *srch_dom_heur_open_model(const dom *d, const char *spec, const nn_model *self,
                                        const srch_dom_net_opts *opts, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    if (!strncmp(spec, "cb:", 3))
        return callback_open(d, spec, status);
    if (strncmp(spec, "ann:", 4))
        return srch_dom_heur_adm(d, spec, status);
    ann_spec a = {.o = opts ? *opts : SRCH_DOM_NET_DEFAULTS, .scale = 1};
    char path[4096];
    if ((*status = ann_parse(spec, path, sizeof path, &a)))
        return NULL;
    int own = !self || strcmp(path, "SELF");
    nn_model *m = own ? nn_model_load(path, status) : (nn_model *)self;
    if (!m)
        return NULL;
    srch_dom_heur *h = srch_dom_heur_net(d, m, path, &a.o, status);
    if (own)
        nn_model_free(m);
    srch_dom_heur *floor = h && a.floor[0] ? srch_dom_heur_adm(d, a.floor, status) : NULL;
    if (h && a.floor[0] && !floor) {
        srch_dom_heur_free(h);
        return NULL;
    }
    if (h && (*status = srch_dom_heur_set_value(h, a.scale, a.offset, floor))) {
        srch_dom_heur_free(h);
        return NULL;
    }
    return h;
}

static srch_dom_heur *pair_new(enum kind k, srch_dom_heur *a, srch_dom_heur *b, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    srch_dom_heur *h = NULL;
    if (!a || !b)
        *status = hn_fail(HN_ERR_ARG, "a combined heuristic needs two parts");
    else if (a->d != b->d)
        *status = hn_fail(HN_ERR_ARG, "a combined heuristic's parts are of two domains");
    else
        h = node_new(k, a->d, status);
    if (!h) {
        srch_dom_heur_free(a);
        srch_dom_heur_free(b);
        return NULL;
    }
    h->a = a;
    h->b = b;
    h->has_net = a->has_net || b->has_net;
    return h;
}

srch_dom_heur *srch_dom_heur_max_new(srch_dom_heur *a, srch_dom_heur *b, int *status)
{
    return pair_new(K_MAX, a, b, status);
}

srch_dom_heur *srch_dom_heur_sum_new(srch_dom_heur *a, srch_dom_heur *b, int *status)
{
    return pair_new(K_SUM, a, b, status);
}

srch_dom_heur *srch_dom_heur_clone(const srch_dom_heur *h, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    if (!h)
        return NULL;
    srch_dom_heur *c = node_new(h->kind, h->d, status);
    if (!c)
        return NULL;
    c->scale = h->scale;
    c->offset = h->offset;
    memcpy(c->blend_w, h->blend_w, sizeof c->blend_w);
    c->has_net = h->has_net;
    c->fn = h->fn;
    c->user = h->user;
    c->sym = h->sym;
    c->qnet = h->qnet;
    memcpy(c->qmap, h->qmap, sizeof c->qmap);
    memcpy(c->qmove, h->qmove, sizeof c->qmove);
    if (h->sa) {
        atomic_fetch_add(&h->sa->refs, 1);
        c->sa = h->sa;
        c->adm = h->adm;
    }
    int bad = (h->net && !(c->net = srch_gen_net_clone(h->net, status))) ||
              (h->symnet && !(c->symnet = srch_gen_net_clone(h->symnet, status))) ||
              (h->a && !(c->a = srch_dom_heur_clone(h->a, status))) ||
              (h->b && !(c->b = srch_dom_heur_clone(h->b, status))) ||
              (h->floor && !(c->floor = srch_dom_heur_clone(h->floor, status)));
    for (; !bad && c->nblend < h->nblend; c->nblend++)
        bad = !(c->blend[c->nblend] = srch_dom_heur_clone(h->blend[c->nblend], status));
    if (bad) {
        srch_dom_heur_free(c);
        return NULL;
    }
    return c;
}

int srch_dom_heur_set_value(srch_dom_heur *h, int scale, double offset, srch_dom_heur *floor)
{
    int bad = scale < 1 || scale > 1000 || !isfinite(offset) || offset < 0;
    if (bad || (floor && (floor->d != h->d || floor->has_net))) {
        srch_dom_heur_free(floor);
        return hn_fail(HN_ERR_ARG, "heuristic values: scale must be 1..1000, offset >= 0 and "
                                   "the floor admissible and of the same domain");
    }
    srch_dom_heur_free(h->floor);
    h->scale = scale;
    h->offset = offset;
    h->floor = floor;
    return 0;
}

int srch_dom_heur_set_blend(srch_dom_heur *h, double weight, srch_dom_heur *blend)
{
    if (!blend || !(weight > 0 && weight <= 100) || blend->d != h->d || blend->has_net ||
        !h->has_net) {
        srch_dom_heur_free(blend);
        return hn_fail(HN_ERR_ARG, "heuristic blend: a network's values plus a weight in (0, 100] "
                                   "times an admissible heuristic of the same domain");
    }
    if (h->nblend == SRCH_DOM_MAX_BLENDS) {
        srch_dom_heur_free(blend);
        return hn_fail(HN_ERR_ARG, "heuristic blend: at most %d blends", SRCH_DOM_MAX_BLENDS);
    }
    h->blend[h->nblend] = blend;
    h->blend_w[h->nblend++] = weight;
    return 0;
}

/* Room for n values in h's scratch. */
static int reserve(srch_dom_heur *h, size_t n)
{
    if (n <= h->cap)
        return 0;
    size_t cap = n < 64 ? 64 : 2 * n;
    free(h->tmp);
    free(h->est);
    free(h->ftmp);
    free(h->btmp);
    free(h->bsum);
    h->tmp = malloc(cap * sizeof *h->tmp);
    h->est = malloc(cap * sizeof *h->est);
    h->ftmp = malloc(cap * sizeof *h->ftmp);
    h->btmp = malloc(cap * sizeof *h->btmp);
    h->bsum = malloc(cap * sizeof *h->bsum);
    h->cap = h->tmp && h->est && h->ftmp && h->btmp && h->bsum ? cap : 0;
    return h->cap ? 0 : hn_fail(HN_ERR_NOMEM, "out of memory for heuristic values");
}

/* Room for n mapped states and moves (a Q network's parents may outnumber
 * their children, so apart from reserve, which must not move est). */
static int reserve_maps(srch_dom_heur *h, size_t n)
{
    if (n <= h->scap)
        return 0;
    size_t cap = n < 64 ? 64 : 2 * n;
    free(h->sbuf);
    free(h->mbuf);
    h->sbuf = malloc(cap * dom_state_bytes(h->d));
    h->mbuf = malloc(cap);
    h->scap = h->sbuf && h->mbuf ? cap : 0;
    return h->scap ? 0 : hn_fail(HN_ERR_NOMEM, "out of memory for mapped states");
}

/* est[i] becomes the mean of the network over state i and its maps
 * qmap[0..sym-1), each row built from its active inputs (a map is no move);
 * for a Q network over the maps of child i's parent (of state i when there
 * are no parents): child i's value from a mapped parent's row is its output
 * for the mapped move. */
static int sym_mean(srch_dom_heur *h, const uint8_t *s, size_t n, const uint8_t *parents,
                    const int *parent_of, const uint8_t *moves, double *est)
{
    size_t sb = dom_state_bytes(h->d);
    int by_parent = h->qnet && parents && parent_of && moves;
    const uint8_t *src = by_parent ? parents : s;
    size_t np = by_parent ? 0 : n; /* the parents (or states) mapped */
    for (size_t i = 0; by_parent && i < n; i++)
        np = (size_t)parent_of[i] >= np ? (size_t)parent_of[i] + 1 : np;
    /* a leaf's tmp is free: only max and sum nodes use theirs */
    int st = reserve(h, n);
    if (!st)
        st = reserve_maps(h, np > n ? np : n);
    for (int j = 0; !st && j < h->sym - 1; j++) {
        for (size_t i = 0; i < np; i++)
            dom_symmetric(h->d, src + i * sb, h->qmap[j], h->sbuf + i * sb);
        for (size_t i = 0; by_parent && i < n; i++)
            h->mbuf[i] = h->qmove[j][moves[i]];
        st = by_parent ? srch_gen_net_estimate(h->symnet, s, n, h->sbuf, parent_of, h->mbuf, h->tmp)
                       : srch_gen_net_estimate(h->symnet, h->sbuf, n, NULL, NULL, NULL, h->tmp);
        for (size_t i = 0; !st && i < n; i++)
            est[i] += h->tmp[i];
    }
    if (st)
        return st;
    /* single precision, as the network's own outputs: the mean is then the
     * one the n-puzzle's mirror setting always gave */
    for (size_t i = 0; i < n; i++)
        est[i] = (float)(est[i] / h->sym);
    return 0;
}

/* States an admissible leaf reads at a time. */
#define ADM_CHUNK 256

int srch_dom_heur_estimate(srch_dom_heur *h, const void *states, size_t n, const void *parents,
                           const int *parent_of, const uint8_t *moves, double *est)
{
    size_t sb = dom_state_bytes(h->d);
    const uint8_t *s = states;
    int st = 0;
    switch (h->kind) {
    case K_ADM: /* in chunks on the stack: a leaf needs no scratch of its own */
        for (size_t i = 0; i < n; i += ADM_CHUNK) {
            int v[ADM_CHUNK];
            size_t m = n - i < ADM_CHUNK ? n - i : ADM_CHUNK;
            dom_heur_eval_many(h->adm, s + i * sb, m, sb, v);
            for (size_t k = 0; k < m; k++)
                est[i + k] = v[k];
        }
        return 0;
    case K_CB:
        st = h->fn(h->user, states, n, est);
        return st < 0 ? hn_fail(st, "a callback heuristic failed (status %d)", st) : 0;
    case K_NET:
        st = srch_gen_net_estimate(h->net, s, n, parents, parent_of, moves, est);
        return st || h->sym < 2 ? st : sym_mean(h, s, n, parents, parent_of, moves, est);
    default:
        break;
    }
    if ((st = reserve(h, n)) ||
        (st = srch_dom_heur_estimate(h->a, states, n, parents, parent_of, moves, est)) ||
        (st = srch_dom_heur_estimate(h->b, states, n, parents, parent_of, moves, h->tmp)))
        return st;
    for (size_t i = 0; i < n; i++)
        est[i] = h->kind == K_MAX ? fmax(est[i], h->tmp[i]) : est[i] + h->tmp[i];
    return 0;
}

/* The root's value from an estimate, the floor's value and the blends' sum. */
static int value_of(const srch_dom_heur *h, double est, int floor_v, double blend)
{
    double v = floor((est + blend - h->offset) * h->scale + 0.5);
    if (v < (double)floor_v * h->scale)
        v = (double)floor_v * h->scale;
    return v < 0 ? 0 : v > 1e9 ? 1000000000 : (int)v;
}

/* h->bsum[0..n): the weighted sum of h's blends' values of the states. */
static int blend_sum(srch_dom_heur *h, const void *states, size_t n)
{
    for (int j = 0; j < h->nblend; j++) {
        int st = srch_dom_heur_eval(h->blend[j], states, n, NULL, NULL, NULL, h->btmp);
        if (st)
            return st;
        for (size_t i = 0; i < n; i++)
            h->bsum[i] = (j ? h->bsum[i] : 0) + h->blend_w[j] * h->btmp[i];
    }
    return 0;
}

int srch_dom_heur_eval(srch_dom_heur *h, const void *states, size_t n, const void *parents,
                       const int *parent_of, const uint8_t *moves, int *out)
{
    int st = reserve(h, n);
    if (!st)
        st = srch_dom_heur_estimate(h, states, n, parents, parent_of, moves, h->est);
    if (!st && h->floor)
        st = srch_dom_heur_eval(h->floor, states, n, NULL, NULL, NULL, h->ftmp);
    if (!st && h->nblend)
        st = blend_sum(h, states, n);
    if (st)
        return st;
    size_t sb = dom_state_bytes(h->d);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *s = (const uint8_t *)states + i * sb;
        /* a network may put a goal above 0; admissible leaves give it 0 */
        out[i] =
            h->has_net && dom_is_goal(h->d, s)
                ? 0
                : value_of(h, h->est[i], h->floor ? h->ftmp[i] : 0, h->nblend ? h->bsum[i] : 0);
    }
    return 0;
}

int srch_gen_heur_value1(srch_dom_heur *h, const void *state)
{
    if (h->kind == K_ADM && !h->floor && h->offset == 0)
        return dom_heur_eval(h->adm, state) * h->scale;
    int v;
    return srch_dom_heur_eval(h, state, 1, NULL, NULL, NULL, &v) ? 0 : v;
}

const dom_heur *srch_gen_heur_leaf(const srch_dom_heur *h)
{
    return h->kind == K_ADM && !h->floor && h->offset == 0 ? h->adm : NULL;
}

srch_dom_heur *srch_dom_heur_base(srch_dom_heur *h)
{
    if (!h->has_net)
        return h;
    if (h->floor)
        return h->floor;
    /* a residual sum's base is its first part; either admissible part of a
     * max is a lower bound on its own */
    if ((h->kind == K_SUM || h->kind == K_MAX) && !h->a->has_net)
        return h->a;
    if (h->kind == K_MAX && !h->b->has_net)
        return h->b;
    return NULL;
}

int srch_dom_heur_admissible(const srch_dom_heur *h)
{
    return !h->has_net;
}

int srch_dom_heur_scale(const srch_dom_heur *h)
{
    return h->scale;
}

const dom *srch_dom_heur_domain(const srch_dom_heur *h)
{
    return h->d;
}

uint64_t srch_dom_heur_rows(const srch_dom_heur *h)
{
    if (!h)
        return 0;
    return (h->net ? srch_gen_net_rows(h->net) : 0) +
           (h->symnet ? srch_gen_net_rows(h->symnet) : 0) + srch_dom_heur_rows(h->a) +
           srch_dom_heur_rows(h->b);
}

void srch_dom_heur_time_nets(srch_dom_heur *h, int on)
{
    if (!h)
        return;
    if (h->net)
        srch_gen_net_time(h->net, on);
    if (h->symnet)
        srch_gen_net_time(h->symnet, on);
    srch_dom_heur_time_nets(h->a, on);
    srch_dom_heur_time_nets(h->b, on);
}

double srch_dom_heur_net_seconds(const srch_dom_heur *h)
{
    if (!h)
        return 0;
    return (h->net ? srch_gen_net_seconds(h->net) : 0) +
           (h->symnet ? srch_gen_net_seconds(h->symnet) : 0) + srch_dom_heur_net_seconds(h->a) +
           srch_dom_heur_net_seconds(h->b);
}

uint64_t srch_dom_heur_acc_updates(const srch_dom_heur *h)
{
    if (!h)
        return 0;
    return (h->net ? srch_gen_net_updates(h->net) : 0) + srch_dom_heur_acc_updates(h->a) +
           srch_dom_heur_acc_updates(h->b);
}
