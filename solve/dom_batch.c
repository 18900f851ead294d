/* A domain's calls on arrays of states (solve/dom_batch.h): the checks a
 * binding cannot make itself (a state's contents are the domain's to
 * judge), then the domain's own calls state by state. */
#include <stdlib.h>
#include <string.h>

#include "datagen/dataset.h"
#include "search/generic/srch_dom.h"
#include "solve/dom_batch.h"

/* Longest walk a sample takes (dom_ds.h's DG_DOM_MAX_WALK is the gen's). */
#define SAMPLE_MAX_WALK 100000
/* A state's text: the longest line a built-in domain formats is far below. */
#define STATE_TEXT 8192

int heurnet_dom_info_get(const dom *d, heurnet_dom_info *out)
{
    if (!d || !out)
        return hn_fail(HN_ERR_ARG, "a domain and an output are required");
    const dom_facts *f = dom_facts_of(d);
    *out = (heurnet_dom_info){.state_bytes = (int32_t)f->state_bytes,
                              .nmoves = (int32_t)f->nmoves,
                              .inputs = (int32_t)f->inputs,
                              .max_active = (int32_t)f->max_active,
                              .has_uniform = (int32_t)f->has_uniform,
                              .typical_depth = (int32_t)f->typical_depth,
                              .unit_cost = dom_unit_cost(d),
                              .reversible = dom_reversible(d),
                              .symmetries = dom_symmetries(d),
                              .spec = dom_spec(d),
                              .canonical = dom_canonical(d),
                              .encoding = f->encoding ? f->encoding : "",
                              .heuristics = f->heuristics ? f->heuristics : "",
                              .patterns = f->patterns ? f->patterns : "",
                              .move_sep = f->move_sep};
    return HN_OK;
}

int heurnet_dom_move_info(const dom *d, int m, const char **name, int *inverse, int *cost)
{
    if (!d || m < 0 || m >= dom_nmoves(d))
        return hn_fail(HN_ERR_ARG, "move %d: expected 0..%d", m, d ? dom_nmoves(d) - 1 : -1);
    if (name)
        *name = dom_facts_of(d)->move_name[m];
    if (inverse)
        *inverse = dom_inverse(d, m);
    if (cost)
        *cost = dom_move_cost(d, m);
    return HN_OK;
}

int heurnet_dom_builtin_info(int i, const char **name, const char **summary, const char **args)
{
    const dom_def *def = i >= 0 ? dom_builtin(i) : NULL;
    if (!def)
        return 0;
    *name = def->name;
    *summary = def->summary ? def->summary : "";
    *args = def->args_help ? def->args_help : "";
    return 1;
}

/* Each state must come back unchanged through the domain's text format,
 * which checks its contents (a permutation, a reachable board, ...). */
int heurnet_dom_states_check(const dom *d, const uint8_t *states, size_t n, size_t state_bytes)
{
    if (!d || (n && !states))
        return hn_fail(HN_ERR_ARG, "a domain and states are required");
    if (state_bytes != dom_state_bytes(d))
        return hn_fail(HN_ERR_ARG, "%s states have %zu bytes, not %zu", dom_spec(d),
                       dom_state_bytes(d), state_bytes);
    char text[STATE_TEXT];
    uint8_t back[DOM_MAX_STATE_BYTES];
    for (size_t i = 0; i < n; i++) {
        const uint8_t *x = states + i * state_bytes;
        int len = dom_format_state(d, x, text, sizeof text);
        if (len >= 0 && (size_t)len < sizeof text && dom_parse_state(d, text, back))
            return hn_fail(HN_ERR_ARG, "state %zu is not a state of %s: %s", i, dom_spec(d),
                           hn_errmsg());
        if (len < 0 || (size_t)len >= sizeof text || memcmp(back, x, state_bytes))
            return hn_fail(HN_ERR_ARG, "state %zu is not a state of %s", i, dom_spec(d));
    }
    return HN_OK;
}

int heurnet_dom_expand_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                              uint8_t *children, uint8_t *moves, int32_t *costs, int32_t *count)
{
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    if (st)
        return st;
    if (n && (!children || !moves))
        return hn_fail(HN_ERR_ARG, "expand: children and moves are required");
    size_t b = (size_t)dom_nmoves(d);
    /* the domain's own expand with every move allowed: dom_expand would
     * apply the pruning automaton, which a batch of lone states has none of */
    uint64_t all = b >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << b) - 1;
    const dom_def *def = dom_def_of(d);
    for (size_t i = 0; i < n; i++) {
        uint8_t *c = children + i * b * state_bytes, *mv = moves + i * b;
        int k = def->expand(dom_instance(d), states + i * state_bytes, all, c, mv);
        for (int j = 0; costs && j < k; j++)
            costs[i * b + (size_t)j] = dom_move_cost(d, mv[j]);
        memset(c + (size_t)k * state_bytes, 0, (b - (size_t)k) * state_bytes);
        memset(mv + k, 0xff, b - (size_t)k);
        for (size_t j = (size_t)k; costs && j < b; j++)
            costs[i * b + j] = -1;
        if (count)
            count[i] = k;
    }
    return HN_OK;
}

int heurnet_dom_apply_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                             const int32_t *moves, uint8_t *out, uint8_t *legal)
{
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    if (st)
        return st;
    if (n && (!moves || !out))
        return hn_fail(HN_ERR_ARG, "apply: moves and an output are required");
    int nm = dom_nmoves(d);
    for (size_t i = 0; i < n; i++)
        if (moves[i] < 0 || moves[i] >= nm)
            return hn_fail(HN_ERR_ARG, "move %zu is %d: expected 0..%d", i, (int)moves[i], nm - 1);
    for (size_t i = 0; i < n; i++) {
        uint8_t *o = out + i * state_bytes;
        if (o != states + i * state_bytes)
            memmove(o, states + i * state_bytes, state_bytes);
        int ok = dom_apply(d, o, moves[i]);
        if (legal)
            legal[i] = (uint8_t)ok;
    }
    return HN_OK;
}

int heurnet_dom_goal_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                            uint8_t *goal)
{
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    if (st)
        return st;
    if (n && !goal)
        return hn_fail(HN_ERR_ARG, "is_goal: an output is required");
    for (size_t i = 0; i < n; i++)
        goal[i] = (uint8_t)(dom_is_goal(d, states + i * state_bytes) != 0);
    return HN_OK;
}

int heurnet_dom_encode_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                              float *x, int32_t *active, int32_t *count)
{
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    if (st)
        return st;
    const dom_facts *f = dom_facts_of(d);
    size_t in = f->inputs, ma = f->max_active;
    int32_t a[DOM_MAX_ACTIVE];
    for (size_t i = 0; i < n; i++) {
        int k = dom_encode(d, states + i * state_bytes, a);
        if (x) {
            float *row = x + i * in;
            memset(row, 0, in * sizeof *row);
            for (int j = 0; j < k; j++)
                row[a[j]] = 1.0f;
        }
        if (active) {
            memcpy(active + i * ma, a, (size_t)k * sizeof *a);
            for (size_t j = (size_t)k; j < ma; j++)
                active[i * ma + j] = -1;
        }
        if (count)
            count[i] = k;
    }
    return HN_OK;
}

int heurnet_dom_sample_states(const dom *d, size_t n, uint64_t seed, int uniform, int walk_min,
                              int walk_max, uint8_t *out, int32_t *walked)
{
    if (!d || (n && !out))
        return hn_fail(HN_ERR_ARG, "a domain and an output are required");
    if (uniform && !dom_facts_of(d)->has_uniform)
        return hn_fail(HN_ERR_UNSUPPORTED, "%s cannot draw uniform states", dom_spec(d));
    if (!uniform && (walk_min < 0 || walk_max < walk_min || walk_max > SAMPLE_MAX_WALK))
        return hn_fail(HN_ERR_ARG, "walks of %d..%d moves: expected 0 <= min <= max <= %d",
                       walk_min, walk_max, SAMPLE_MAX_WALK);
    size_t sb = dom_state_bytes(d);
    hn_rng *rng = NULL;
    int st = HN_OK;
    /* the stream of datagen/dom_gen.c's draw: one RNG per seed block */
    for (size_t g = 0; g < n && !st; g++) {
        if (g % DG_SEED_BLOCK == 0) {
            hn_rng_free(rng);
            if (!(rng = hn_rng_new(hn_seed_mix(seed, g / DG_SEED_BLOCK))))
                st = hn_fail(HN_ERR_NOMEM, "out of memory");
        }
        uint8_t *s = out + g * sb;
        if (st)
            break;
        if (uniform) {
            if ((st = dom_random_state(d, s, rng)))
                st = hn_fail(st, "%s cannot draw uniform states", dom_spec(d));
            if (walked)
                walked[g] = -1;
            continue;
        }
        int k = walk_min + (int)hn_rng_below(rng, (uint32_t)(walk_max - walk_min + 1));
        dom_goal(d, s);
        k = dom_walk(d, s, k, rng);
        if (walked)
            walked[g] = k;
    }
    hn_rng_free(rng);
    return st;
}

int heurnet_dom_parse_states(const dom *d, const char *text, size_t n, uint8_t *out)
{
    if (!d || !text || (n && !out))
        return hn_fail(HN_ERR_ARG, "a domain, text and an output are required");
    size_t sb = dom_state_bytes(d), i = 0;
    char line[STATE_TEXT];
    for (const char *p = text; *p || i < n; i++) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (i >= n)
            return hn_fail(HN_ERR_ARG, "more than %zu state lines", n);
        if (len >= sizeof line)
            return hn_fail(HN_ERR_ARG, "line %zu: longer than %zu characters", i + 1,
                           sizeof line - 1);
        memcpy(line, p, len);
        line[len] = 0;
        int st = dom_parse_state(d, line, out + i * sb);
        if (st)
            return hn_fail(HN_ERR_ARG, "line %zu: %s", i + 1, hn_errmsg());
        p = e ? e + 1 : p + len;
        if (!e && i + 1 < n)
            return hn_fail(HN_ERR_ARG, "%zu state lines, not %zu", i + 1, n);
    }
    return HN_OK;
}

long heurnet_dom_format_states(const dom *d, const uint8_t *states, size_t n, size_t state_bytes,
                               char *buf, size_t cap)
{
    int st = heurnet_dom_states_check(d, states, n, state_bytes);
    if (st)
        return st;
    size_t len = 0;
    char line[STATE_TEXT];
    for (size_t i = 0; i < n; i++) {
        int k = dom_format_state(d, states + i * state_bytes, line, sizeof line);
        if (k < 0 || (size_t)k >= sizeof line)
            return hn_fail(HN_ERR_ARG, "state %zu: its text is too long", i);
        line[k++] = '\n';
        if (buf && len + (size_t)k < cap)
            memcpy(buf + len, line, (size_t)k);
        len += (size_t)k;
    }
    if (buf && cap)
        buf[len < cap ? len : cap - 1] = 0;
    return (long)len;
}

/* The first bad line of an instance file, for the final message. */
struct first_err {
    char msg[512];
};

static void keep_first(const char *msg, void *user)
{
    struct first_err *f = user;
    if (!f->msg[0])
        snprintf(f->msg, sizeof f->msg, "%s", msg);
}

int heurnet_dom_instances_read(const dom *d, const char *path, dom_instance_rec **out, size_t *n)
{
    if (!d || !path || !out || !n)
        return hn_fail(HN_ERR_ARG, "a domain, a path and outputs are required");
    struct first_err f = {{0}};
    *out = NULL;
    *n = 0;
    int st = dom_read_instances(d, path, keep_first, &f, out, n);
    if (st && f.msg[0]) {
        char why[512];
        snprintf(why, sizeof why, "%s", hn_errmsg());
        hn_fail(st, "%s (first: %s)", why, f.msg);
    }
    if (st) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
}

void heurnet_dom_instances_free(dom_instance_rec *recs)
{
    free(recs);
}

struct heurnet_dom_heur {
    const dom *d;
    srch_dom_heur *h;
};

heurnet_dom_heur *heurnet_dom_heur_open(const dom *d, const char *name, int *status)
{
    int st = HN_OK;
    heurnet_dom_heur *o = NULL;
    if (!d || !name || !name[0])
        st = hn_fail(HN_ERR_ARG, "a domain and a heuristic name are required");
    else if (!(o = calloc(1, sizeof *o)))
        st = hn_fail(HN_ERR_NOMEM, "out of memory");
    else if (!(o->h = srch_dom_heur_open(d, name, NULL, &st))) {
        free(o);
        o = NULL;
    } else
        o->d = d;
    if (status)
        *status = st;
    return o;
}

void heurnet_dom_heur_free(heurnet_dom_heur *h)
{
    if (h) {
        srch_dom_heur_free(h->h);
        free(h);
    }
}

int heurnet_dom_heur_admissible(const heurnet_dom_heur *h)
{
    return h ? srch_dom_heur_admissible(h->h) : 0;
}

/* Values in batches: a network's rows go through it together. est or
 * ints (the other NULL) gets them. */
#define VALUES_BATCH 1024
_Static_assert(sizeof(int) == sizeof(int32_t), "srch_dom_heur_eval's int rows are int32_t");

static int heur_batches(heurnet_dom_heur *h, const uint8_t *states, size_t n, size_t state_bytes,
                        double *est, int32_t *ints)
{
    if (!h)
        return hn_fail(HN_ERR_ARG, "no heuristic given");
    int st = heurnet_dom_states_check(h->d, states, n, state_bytes);
    if (!st && n && !est && !ints)
        st = hn_fail(HN_ERR_ARG, "values: an output is required");
    for (size_t i = 0; !st && i < n; i += VALUES_BATCH) {
        size_t k = n - i < VALUES_BATCH ? n - i : VALUES_BATCH;
        const uint8_t *x = states + i * state_bytes;
        st = est ? srch_dom_heur_estimate(h->h, x, k, NULL, NULL, NULL, est + i)
                 : srch_dom_heur_eval(h->h, x, k, NULL, NULL, NULL, (int *)ints + i);
    }
    return st;
}

int heurnet_dom_heur_values(heurnet_dom_heur *h, const uint8_t *states, size_t n,
                            size_t state_bytes, double *est)
{
    return heur_batches(h, states, n, state_bytes, est, NULL);
}

int heurnet_dom_heur_ints(heurnet_dom_heur *h, const uint8_t *states, size_t n, size_t state_bytes,
                          int32_t *out)
{
    return heur_batches(h, states, n, state_bytes, NULL, out);
}
