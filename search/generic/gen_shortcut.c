/* Shortening a solution by windows on any domain. A path that is not
 * optimal often spends its extra moves locally: a detour between two
 * states a few dozen moves apart on it. For every window of the path
 * (states s_i and s_j, j - i = w) a bidirectional breadth-first search
 * between the two states looks for a path of fewer than w moves: forward
 * from s_i by expand, backward from s_j by expand too (every move has an
 * inverse, so the children of a state are also its parents), a hash set
 * per side. It needs no heuristic between two arbitrary states, which no
 * domain offers, and the two frontiers of depth w / 2 stay small where one
 * of depth w would not. Windows grow (8, 12, 18, ..) and overlap by half,
 * so a detour that straddles one window's edge lies inside the next; the
 * rounds repeat while one improves, since a splice can bring two detours
 * into one window. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

const srch_dom_shortcut_opts SRCH_DOM_SHORTCUT_DEFAULTS = {
    .max_window = 0, .budget = 1000000, .max_rounds = 8};

#define NONE UINT32_MAX

/* One side of a window search: states in breadth-first order (a layer is
 * a range of indices), each with its parent and the move linking them
 * (forward: the move from the parent; backward: the move to the parent),
 * and an index by hash (open addressing, slot_of to clear it cheaply). */
typedef struct {
    uint8_t *states;
    uint32_t *parent, *slot_of;
    uint8_t *move, *depth;
    uint64_t *hash;
    size_t n, cap;
    uint32_t *slots; /* index + 1, 0 = empty */
    size_t nslots;
} side;

typedef struct {
    const dom *d;
    const dom_def *def;
    const void *inst;
    size_t sb;
    int nmoves;
    uint64_t all;
    int inverse[DOM_MAX_MOVES];
    side f, b;
    uint8_t *kids;  /* nmoves children */
    uint8_t *trail; /* the path's states, (length + 1) of them */
    uint64_t budget, work;
    double deadline;
    int stopped;
    int nfound;
    uint8_t found[SRCH_DOM_MAX_PATH];
} shortcut;

/* ---- the hash sets ---- */

static size_t probe(const side *s, size_t sb, const void *state, uint64_t hv)
{
    size_t mask = s->nslots - 1;
    for (size_t i = (size_t)(hv >> 17) & mask;; i = (i + 1) & mask) {
        uint32_t v = s->slots[i];
        if (!v || (s->hash[v - 1] == hv && !memcmp(s->states + (v - 1) * sb, state, sb)))
            return i;
    }
}

static long side_find(const side *s, size_t sb, const void *state, uint64_t hv)
{
    uint32_t v = s->slots[probe(s, sb, state, hv)];
    return v ? (long)v - 1 : -1;
}

static int side_grow(side *s, size_t sb)
{
    size_t cap = s->cap ? 2 * s->cap : 1024, nslots = 4 * cap;
    uint8_t *st = realloc(s->states, cap * sb);
    if (st)
        s->states = st;
    uint32_t *pa = st ? realloc(s->parent, cap * sizeof *pa) : NULL;
    if (pa)
        s->parent = pa;
    uint32_t *so = pa ? realloc(s->slot_of, cap * sizeof *so) : NULL;
    if (so)
        s->slot_of = so;
    uint8_t *mv = so ? realloc(s->move, cap) : NULL;
    if (mv)
        s->move = mv;
    uint8_t *dp = mv ? realloc(s->depth, cap) : NULL;
    if (dp)
        s->depth = dp;
    uint64_t *hs = dp ? realloc(s->hash, cap * sizeof *hs) : NULL;
    if (hs)
        s->hash = hs;
    uint32_t *sl = hs ? calloc(nslots, sizeof *sl) : NULL;
    if (!sl)
        return hn_fail(HN_ERR_NOMEM, "shortcut: out of memory for %zu states", cap);
    free(s->slots);
    s->slots = sl;
    s->nslots = nslots;
    s->cap = cap;
    for (size_t i = 0; i < s->n; i++) {
        size_t k = probe(s, sb, s->states + i * sb, s->hash[i]);
        s->slots[k] = (uint32_t)(i + 1);
        s->slot_of[i] = (uint32_t)k;
    }
    return 0;
}

static long side_add(side *s, size_t sb, const void *state, uint64_t hv, uint32_t parent, int move,
                     int depth)
{
    if (s->n == s->cap && side_grow(s, sb))
        return -1;
    size_t i = s->n++, k = probe(s, sb, state, hv);
    memcpy(s->states + i * sb, state, sb);
    s->parent[i] = parent;
    s->move[i] = (uint8_t)move;
    s->depth[i] = (uint8_t)depth;
    s->hash[i] = hv;
    s->slots[k] = (uint32_t)(i + 1);
    s->slot_of[i] = (uint32_t)k;
    return (long)i;
}

/* Empty the set: its own slots only, unless most are taken. */
static void side_clear(side *s)
{
    if (s->n * 8 > s->nslots)
        memset(s->slots, 0, s->nslots * sizeof *s->slots);
    else
        for (size_t i = 0; i < s->n; i++)
            s->slots[s->slot_of[i]] = 0;
    s->n = 0;
}

static void side_free(side *s)
{
    free(s->states);
    free(s->parent);
    free(s->slot_of);
    free(s->move);
    free(s->depth);
    free(s->hash);
    free(s->slots);
}

/* ---- one window ---- */

/* The meeting of the two sides: a state of side `from` (index i), a move m
 * from it, and the state of the other side (index j) it reached. */
typedef struct {
    int len, fwd;
    uint32_t i, j;
    int m;
} meet;

/* The path through a meeting into w->found. */
static void take_path(shortcut *w, const meet *mt)
{
    /* forward index fi, the move across, backward index bj */
    uint32_t fi = mt->fwd ? mt->i : mt->j, bj = mt->fwd ? mt->j : mt->i;
    int across = mt->fwd ? mt->m : w->inverse[mt->m];
    int k = w->f.depth[fi];
    w->nfound = mt->len;
    for (uint32_t x = fi; w->f.parent[x] != NONE; x = w->f.parent[x])
        w->found[--k] = w->f.move[x];
    k = w->f.depth[fi];
    w->found[k++] = (uint8_t)across;
    for (uint32_t x = bj; w->b.parent[x] != NONE; x = w->b.parent[x])
        w->found[k++] = w->b.move[x];
}

/* Checked every 65536 children: the clock and Ctrl-C. */
static int stop_now(shortcut *w)
{
    if ((++w->work & 65535) == 0 &&
        (hn_stop_requested() || (w->deadline > 0 && hn_now() > w->deadline)))
        w->stopped = 1;
    return w->stopped;
}

/* Expand the layer [lo, hi) of side `me` (fwd: the forward side) into its
 * next layer; meetings with the other side shorter than mt->len go into
 * *mt. 0, 1 over the budget or stopped, or a status. */
static int expand_layer(shortcut *w, int fwd, size_t lo, size_t hi, meet *mt)
{
    side *me = fwd ? &w->f : &w->b, *other = fwd ? &w->b : &w->f;
    uint8_t cm[DOM_MAX_MOVES];
    for (size_t i = lo; i < hi; i++) {
        uint64_t mask = w->all;
        if (me->parent[i] != NONE) /* not straight back to the parent */
            mask &= ~(1ull << (fwd ? w->inverse[me->move[i]] : me->move[i]));
        int n = w->def->expand(w->inst, me->states + i * w->sb, mask, w->kids, cm);
        for (int c = 0; c < n; c++) {
            const uint8_t *k = w->kids + (size_t)c * w->sb;
            uint64_t hv = dom_hash(w->d, k);
            if (stop_now(w))
                return 1;
            if (side_find(me, w->sb, k, hv) >= 0)
                continue;
            long j = side_find(other, w->sb, k, hv);
            int len = me->depth[i] + 1 + (j >= 0 ? other->depth[j] : 0);
            if (j >= 0 && len < mt->len)
                *mt =
                    (meet){.len = len, .fwd = fwd, .i = (uint32_t)i, .j = (uint32_t)j, .m = cm[c]};
            if (j < 0 && side_add(me, w->sb, k, hv, (uint32_t)i, fwd ? cm[c] : w->inverse[cm[c]],
                                  me->depth[i] + 1) < 0)
                return HN_ERR_NOMEM;
        }
        if (w->f.n + w->b.n > w->budget)
            return 1;
    }
    return 0;
}

/* A shortest path from a to z of fewer than wl moves into w->found: its
 * length, -1 when there is none (or the budget or the clock ran out
 * first), or a status < -1. Each round expands the smaller frontier; a
 * round whose frontiers meet holds a shortest path (every shorter one
 * would have met in an earlier round). */
static int window_solve(shortcut *w, const uint8_t *a, const uint8_t *z, int wl)
{
    side_clear(&w->f);
    side_clear(&w->b);
    if (!memcmp(a, z, w->sb)) {
        w->nfound = 0;
        return 0;
    }
    if (side_add(&w->f, w->sb, a, dom_hash(w->d, a), NONE, 0, 0) < 0 ||
        side_add(&w->b, w->sb, z, dom_hash(w->d, z), NONE, 0, 0) < 0)
        return HN_ERR_NOMEM;
    size_t flo = 0, fhi = 1, blo = 0, bhi = 1;
    for (int depth = 0; depth + 1 < wl; depth++) { /* depth: df + db */
        int fwd = fhi - flo <= bhi - blo;
        meet mt = {.len = wl};
        int st = fwd ? expand_layer(w, 1, flo, fhi, &mt) : expand_layer(w, 0, blo, bhi, &mt);
        if (st)
            return st > 0 ? -1 : st;
        if (mt.len < wl) {
            take_path(w, &mt);
            return mt.len;
        }
        if (fwd) {
            flo = fhi;
            fhi = w->f.n;
        } else {
            blo = bhi;
            bhi = w->b.n;
        }
        if (flo == fhi || blo == bhi)
            return -1; /* one side's component is exhausted: no path at all */
    }
    return -1;
}

/* ---- windows over the path ---- */

/* The states of the path from index i on, from the state at i. */
static void walk_from(shortcut *w, const uint8_t *moves, int n, int i)
{
    for (int k = i; k < n; k++) {
        uint8_t *next = w->trail + (size_t)(k + 1) * w->sb;
        memcpy(next, w->trail + (size_t)k * w->sb, w->sb);
        w->def->apply(w->inst, next, moves[k]);
    }
}

/* Where the window after the one at i begins: half a window on, except
 * that the last one ends at the path's end instead of falling short. */
static int next_window(int i, int wl, int n)
{
    int next = i + (wl / 2 > 0 ? wl / 2 : 1);
    return i + wl < n && next + wl > n ? n - wl : next;
}

/* One pass of windows of length wl: the moves saved (path and states
 * updated), or a status (< 0) when out of memory. w->stopped when the
 * clock or Ctrl-C stopped it. */
static int pass(shortcut *w, uint8_t *moves, int *n, int wl)
{
    int saved = 0;
    for (int i = 0; i + wl <= *n && !w->stopped; i = next_window(i, wl, *n)) {
        if (hn_stop_requested() || (w->deadline > 0 && hn_now() > w->deadline)) {
            w->stopped = 1;
            break;
        }
        int k =
            window_solve(w, w->trail + (size_t)i * w->sb, w->trail + (size_t)(i + wl) * w->sb, wl);
        if (k < -1)
            return k;
        if (k < 0)
            continue;
        /* moves[i .. i + wl) become the k moves found */
        memmove(moves + i + k, moves + i + wl, (size_t)(*n - i - wl));
        memcpy(moves + i, w->found, (size_t)k);
        *n -= wl - k;
        saved += wl - k;
        walk_from(w, moves, *n, i); /* the states up to i did not change */
    }
    return saved;
}

/* One round: windows of 8, 12, 18, .. moves up to the longest. The moves
 * saved or a status. */
static int round_of_windows(shortcut *w, uint8_t *moves, int *n, int max_window)
{
    int saved = 0;
    for (int len = 8 < max_window ? 8 : max_window; !w->stopped; len += len / 2) {
        int wl = len < max_window ? len : max_window;
        wl = wl < *n ? wl : *n;
        int k = pass(w, moves, n, wl);
        if (k < 0)
            return k;
        saved += k;
        if (wl == max_window || wl == *n)
            break;
    }
    return saved;
}

int srch_dom_shortcut_check(const srch_dom_shortcut_opts *o)
{
    if (!o || o->max_window == 0)
        return 0; /* off: the rest is not read */
    if (o->max_window < 2 || o->max_window > SRCH_DOM_SHORTCUT_MAX_WINDOW)
        return hn_fail(HN_ERR_ARG,
                       "shortcut: the longest window must be 0 (off) or 2..%d moves, not %d",
                       SRCH_DOM_SHORTCUT_MAX_WINDOW, o->max_window);
    if (o->budget < 1 || o->budget > SRCH_DOM_SHORTCUT_MAX_BUDGET)
        return hn_fail(HN_ERR_ARG, "shortcut: the states per window must be 1..%llu, not %llu",
                       (unsigned long long)SRCH_DOM_SHORTCUT_MAX_BUDGET,
                       (unsigned long long)o->budget);
    if (o->max_rounds < 1 || o->max_rounds > 100)
        return hn_fail(HN_ERR_ARG, "shortcut: rounds must be 1..100, not %d", o->max_rounds);
    return 0;
}

/* Unit costs (a window's length is its cost) and an inverse for every
 * move (the backward side expands with them). */
static int check_domain(const dom *d, shortcut *w)
{
    for (int m = 0; m < dom_nmoves(d); m++) {
        if (dom_move_cost(d, m) != 1)
            return hn_fail(HN_ERR_UNSUPPORTED,
                           "shortcut: domain %s has moves of cost other than 1 (windows are "
                           "compared by length)",
                           dom_spec(d));
        if ((w->inverse[m] = dom_inverse(d, m)) < 0)
            return hn_fail(HN_ERR_UNSUPPORTED, "shortcut: move %d of domain %s has no inverse", m,
                           dom_spec(d));
    }
    return 0;
}

static void shortcut_free(shortcut *w)
{
    side_free(&w->f);
    side_free(&w->b);
    free(w->kids);
    free(w->trail);
    free(w);
}

static shortcut *shortcut_new(const dom *d, const srch_dom_shortcut_opts *o, int n, double deadline,
                              int *status)
{
    shortcut *w = calloc(1, sizeof *w);
    if (!w) {
        *status = hn_fail(HN_ERR_NOMEM, "shortcut: out of memory");
        return NULL;
    }
    *w = (shortcut){.d = d,
                    .def = dom_def_of(d),
                    .inst = dom_instance(d),
                    .sb = dom_state_bytes(d),
                    .nmoves = dom_nmoves(d),
                    .budget = o->budget,
                    .deadline = deadline};
    w->all = w->nmoves == 64 ? ~0ull : (1ull << w->nmoves) - 1;
    if ((*status = check_domain(d, w))) {
        shortcut_free(w);
        return NULL;
    }
    w->kids = malloc((size_t)w->nmoves * w->sb);
    w->trail = malloc((size_t)(n + 1) * w->sb);
    if (!w->kids || !w->trail || side_grow(&w->f, w->sb) || side_grow(&w->b, w->sb)) {
        *status = hn_fail(HN_ERR_NOMEM, "shortcut: out of memory");
        shortcut_free(w);
        return NULL;
    }
    return w;
}

int srch_dom_shortcut(const dom *d, const void *start, uint8_t *moves, int *n,
                      const srch_dom_shortcut_opts *o, double deadline, int *saved)
{
    int st = srch_dom_shortcut_check(o);
    if (st || !o || o->max_window == 0 || *n < 2)
        return st;
    if (!d || !start || !moves || *n > SRCH_DOM_MAX_PATH)
        return hn_fail(HN_ERR_ARG, "shortcut: no domain, start or moves, or over %d moves",
                       SRCH_DOM_MAX_PATH);
    shortcut *w = shortcut_new(d, o, *n, deadline, &st);
    if (!w)
        return st;
    memcpy(w->trail, start, w->sb);
    walk_from(w, moves, *n, 0);
    for (int r = 0; r < o->max_rounds && !w->stopped; r++) {
        int k = round_of_windows(w, moves, n, o->max_window);
        if (k < 0) {
            st = k;
            break;
        }
        if (saved)
            *saved += k;
        if (!k)
            break;
    }
    shortcut_free(w);
    return st;
}

int srch_dom_result_shortcut(const dom *d, const void *start, const srch_dom_shortcut_opts *o,
                             double deadline, srch_dom_result *res)
{
    if (!o || !o->max_window || res->status || res->length < 2 || res->proven)
        return 0;
    uint8_t *moves = malloc(SRCH_DOM_MAX_PATH);
    if (!moves)
        return hn_fail(HN_ERR_NOMEM, "shortcut: out of memory");
    memcpy(moves, res->moves, (size_t)res->length);
    int n = res->length, saved = 0;
    int st = srch_dom_shortcut(d, start, moves, &n, o, deadline, &saved);
    /* the shortened path must still replay: a domain whose expand and apply
     * disagree would otherwise spoil a valid result */
    if (!st && saved > 0 && dom_replay(d, start, moves, n) != 1)
        st = hn_fail(HN_ERR_ARG, "shortcut: the shortened path does not replay to a goal (the "
                                 "domain's expand and apply disagree?)");
    if (!st && saved > 0) {
        memcpy(res->moves, moves, (size_t)n);
        res->length = n;
        res->cost = n;
        res->saved += saved;
    }
    free(moves);
    return st;
}
