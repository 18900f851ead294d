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
 * into one window.
 *
 * Two savings make it fast on long paths. Where every cycle of the domain
 * is even (the n-puzzle, the quarter-turn cube), two paths between the
 * same states differ in length by an even number, so a window of w moves
 * is searched for w - 2 moves, not w - 1, sparing the largest layer; a
 * breadth-first probe from the start decides it once per call (an edge
 * between two states of the same depth is an odd cycle). And a window
 * that failed (its end states and length, by hash) is not searched again
 * in a later round. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

const srch_dom_shortcut_opts SRCH_DOM_SHORTCUT_DEFAULTS = {
    .max_window = 0, .budget = 1000000, .max_rounds = 8, .ida = 0, .between = NULL};

#define NONE UINT32_MAX
#define CHUNK 32 /* states expanded before their children are looked up */

/* One side of a window search: states in breadth-first order (a layer is
 * a range of indices), each with its parent and the move linking them
 * (forward: the move from the parent; backward: the move to the parent),
 * and an index by hash (open addressing, slot_of to clear it cheaply).
 * A slot holds the index and 32 bits of the hash, so a probe past other
 * states reads no state: lookups are cache misses, few of them. */
typedef struct {
    uint8_t *states;
    uint32_t *parent, *slot_of;
    uint8_t *move, *depth;
    uint64_t *hash;
    size_t n, cap;
    uint64_t *slots; /* hash's high half << 32 | index + 1, 0 = empty */
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
    /* a chunk's children: states, hashes, parents, moves */
    uint8_t *kids, *kmove;
    uint64_t *khash;
    uint32_t *kparent;
    uint8_t *trail; /* the path's states, (length + 1) of them */
    uint64_t budget, work;
    double deadline;
    int stopped;
    gen_wida *wida;   /* long windows by IDA* (srch_dom_shortcut_opts.ida), else NULL */
    int all_ida;      /* every window by IDA* (a heuristic of relative states) */
    int even;         /* no odd cycle seen: lengths between two states share their parity */
    uint64_t *failed; /* keys of windows that failed, 0 = empty */
    size_t nfailed, failcap;
    int nfound;
    uint8_t found[SRCH_DOM_MAX_PATH];
} shortcut;

/* ---- the hash sets ---- */

/* The home slot: dom_hash remixed, since states that differ in one word
 * may share its low bits. */
static size_t home(uint64_t hv, size_t mask)
{
    hv ^= hv >> 31;
    hv *= 0xbf58476d1ce4e5b9ull;
    hv ^= hv >> 29;
    return (size_t)hv & mask;
}

static size_t probe(const side *s, size_t sb, const void *state, uint64_t hv)
{
    size_t mask = s->nslots - 1;
    for (size_t i = home(hv, mask);; i = (i + 1) & mask) {
        uint64_t v = s->slots[i];
        if (!v || ((v >> 32) == (hv >> 32) &&
                   !memcmp(s->states + ((v & 0xffffffffu) - 1) * sb, state, sb)))
            return i;
    }
}

static long side_find(const side *s, size_t sb, const void *state, uint64_t hv)
{
    uint64_t v = s->slots[probe(s, sb, state, hv)];
    return v ? (long)(v & 0xffffffffu) - 1 : -1;
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
    uint64_t *sl = hs ? calloc(nslots, sizeof *sl) : NULL;
    if (!sl)
        return hn_fail(HN_ERR_NOMEM, "shortcut: out of memory for %zu states", cap);
    free(s->slots);
    s->slots = sl;
    s->nslots = nslots;
    s->cap = cap;
    for (size_t i = 0; i < s->n; i++) {
        size_t k = probe(s, sb, s->states + i * sb, s->hash[i]);
        s->slots[k] = (s->hash[i] >> 32) << 32 | (uint64_t)(i + 1);
        s->slot_of[i] = (uint32_t)k;
    }
    return 0;
}

/* Add a state absent from the set; `k` is its slot from a probe since
 * which nothing was added, or SIZE_MAX. */
static long side_add_at(side *s, size_t sb, size_t k, const void *state, uint64_t hv,
                        uint32_t parent, int move, int depth)
{
    if (s->n == s->cap) {
        if (side_grow(s, sb))
            return -1;
        k = SIZE_MAX; /* rehashed */
    }
    if (k == SIZE_MAX)
        k = probe(s, sb, state, hv);
    size_t i = s->n++;
    memcpy(s->states + i * sb, state, sb);
    s->parent[i] = parent;
    s->move[i] = (uint8_t)move;
    s->depth[i] = (uint8_t)depth;
    s->hash[i] = hv;
    s->slots[k] = (hv >> 32) << 32 | (uint64_t)(i + 1);
    s->slot_of[i] = (uint32_t)k;
    return (long)i;
}

static long side_add(side *s, size_t sb, const void *state, uint64_t hv, uint32_t parent, int move,
                     int depth)
{
    return side_add_at(s, sb, SIZE_MAX, state, hv, parent, move, depth);
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

/* The children of states [c0, c1) of side `me` into w->kids, with their
 * hashes, parents and moves; their slots in both sets fetched ahead, so
 * the cache misses of a chunk's lookups overlap. Returns the count. */
static int expand_chunk(shortcut *w, side *me, int fwd, size_t c0, size_t c1, int last,
                        const side *other)
{
    int n = 0;
    for (size_t i = c0; i < c1; i++) {
        uint64_t mask = w->all;
        if (me->parent[i] != NONE) /* not straight back to the parent */
            mask &= ~(1ull << (fwd ? w->inverse[me->move[i]] : me->move[i]));
        int k = w->def->expand(w->inst, me->states + i * w->sb, mask, w->kids + (size_t)n * w->sb,
                               w->kmove + n);
        for (int c = n; c < n + k; c++)
            w->kparent[c] = (uint32_t)i;
        n += k;
    }
    for (int c = 0; c < n; c++) {
        uint64_t hv = w->khash[c] = dom_hash(w->d, w->kids + (size_t)c * w->sb);
        if (!last)
            __builtin_prefetch(&me->slots[home(hv, me->nslots - 1)]);
        __builtin_prefetch(&other->slots[home(hv, other->nslots - 1)]);
    }
    return n;
}

/* Expand the layer [lo, hi) of side `me` (fwd: the forward side) into its
 * next layer; meetings with the other side shorter than mt->len go into
 * *mt. The last layer of a window (`last`) is only matched against the
 * other side, not stored: nothing expands it, and it is the largest. 0, 1
 * over the budget or stopped, or a status. */
static int expand_layer(shortcut *w, int fwd, size_t lo, size_t hi, int last, meet *mt)
{
    side *me = fwd ? &w->f : &w->b, *other = fwd ? &w->b : &w->f;
    for (size_t c0 = lo; c0 < hi; c0 += CHUNK) {
        int n = expand_chunk(w, me, fwd, c0, c0 + CHUNK < hi ? c0 + CHUNK : hi, last, other);
        for (int c = 0; c < n; c++) {
            const uint8_t *k = w->kids + (size_t)c * w->sb;
            uint64_t hv = w->khash[c];
            uint32_t i = w->kparent[c];
            if (stop_now(w))
                return 1;
            size_t slot = last ? SIZE_MAX : probe(me, w->sb, k, hv);
            if (!last && me->slots[slot])
                continue; /* reached before */
            long j = side_find(other, w->sb, k, hv);
            int len = me->depth[i] + 1 + (j >= 0 ? other->depth[j] : 0);
            if (j >= 0 && len < mt->len)
                *mt = (meet){.len = len, .fwd = fwd, .i = i, .j = (uint32_t)j, .m = w->kmove[c]};
            int link = fwd ? w->kmove[c] : w->inverse[w->kmove[c]];
            if (j < 0 && !last &&
                side_add_at(me, w->sb, slot, k, hv, i, link, me->depth[i] + 1) < 0)
                return HN_ERR_NOMEM;
        }
        if (w->f.n + w->b.n > w->budget)
            return 1;
    }
    return 0;
}

/* ---- windows that failed, by key ---- */

static uint64_t window_key(const shortcut *w, const uint8_t *a, const uint8_t *z, int wl)
{
    uint64_t k = dom_hash(w->d, a) * 0x9e3779b97f4a7c15ull ^ dom_hash(w->d, z) ^ (uint64_t)wl << 56;
    return k ? k : 1;
}

static int failed_before(const shortcut *w, uint64_t key)
{
    if (!w->failcap)
        return 0;
    size_t mask = w->failcap - 1;
    for (size_t i = (size_t)(key >> 20) & mask; w->failed[i]; i = (i + 1) & mask)
        if (w->failed[i] == key)
            return 1;
    return 0;
}

/* Remember a failed window (out of memory: forgotten, it is only a saving). */
static void remember_failed(shortcut *w, uint64_t key)
{
    if (2 * (w->nfailed + 1) > w->failcap) {
        size_t cap = w->failcap ? 2 * w->failcap : 1024;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return;
        for (size_t i = 0; i < w->failcap; i++)
            if (w->failed[i]) {
                size_t j = (size_t)(w->failed[i] >> 20) & (cap - 1);
                while (t[j])
                    j = (j + 1) & (cap - 1);
                t[j] = w->failed[i];
            }
        free(w->failed);
        w->failed = t;
        w->failcap = cap;
    }
    size_t mask = w->failcap - 1, i = (size_t)(key >> 20) & mask;
    while (w->failed[i])
        i = (i + 1) & mask;
    w->failed[i] = key;
    w->nfailed++;
}

/* Whether the domain looks bipartite: breadth-first from `start` over up
 * to PROBE_STATES states, no edge joins two states of the same depth. */
#define PROBE_STATES 8192
static int probe_even(shortcut *w, const uint8_t *start)
{
    side *f = &w->f;
    uint8_t cm[DOM_MAX_MOVES];
    side_clear(f);
    if (side_add(f, w->sb, start, dom_hash(w->d, start), NONE, 0, 0) < 0)
        return HN_ERR_NOMEM;
    /* depths are bytes: a long thin domain stops the probe at 250 */
    for (size_t lo = 0, hi = 1; lo < hi && f->n < PROBE_STATES && f->depth[lo] < 250;
         lo = hi, hi = f->n)
        for (size_t i = lo; i < hi; i++) {
            int n = w->def->expand(w->inst, f->states + i * w->sb, w->all, w->kids, cm);
            for (int c = 0; c < n; c++) {
                const uint8_t *k = w->kids + (size_t)c * w->sb;
                uint64_t hv = dom_hash(w->d, k);
                long j = side_find(f, w->sb, k, hv);
                if (j >= 0 && f->depth[j] == f->depth[i])
                    return 0;
                if (j < 0 && side_add(f, w->sb, k, hv, (uint32_t)i, cm[c], f->depth[i] + 1) < 0)
                    return HN_ERR_NOMEM;
            }
        }
    return 1;
}

/* A shortest path from a to z of fewer than wl moves into w->found: its
 * length, -1 when there is none (or the budget or the clock ran out
 * first), or a status < -1. Each round expands the smaller frontier; a
 * round whose frontiers meet holds a shortest path (every shorter one
 * would have met in an earlier round). */
static int window_solve(shortcut *w, const uint8_t *a, const uint8_t *z, int wl)
{
    int most = w->even ? wl - 2 : wl - 1; /* the longest path worth finding */
    if (w->wida && (w->all_ida || wl > SRCH_DOM_SHORTCUT_BFS_MAX)) {
        int stopped = 0;
        int k = srch_gen_wida_run(w->wida, a, z, most, w->even ? 2 : 1, w->budget, w->deadline,
                                  w->found, &stopped);
        w->stopped |= stopped;
        w->nfound = k > 0 ? k : 0;
        return k;
    }
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
    for (int depth = 0; depth + 1 <= most; depth++) { /* depth: df + db */
        int fwd = fhi - flo <= bhi - blo;
        meet mt = {.len = wl};
        int last = depth + 1 == most;
        int st =
            fwd ? expand_layer(w, 1, flo, fhi, last, &mt) : expand_layer(w, 0, blo, bhi, last, &mt);
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
        const uint8_t *a = w->trail + (size_t)i * w->sb, *z = w->trail + (size_t)(i + wl) * w->sb;
        uint64_t key = window_key(w, a, z, wl);
        if (failed_before(w, key))
            continue;
        int k = window_solve(w, a, z, wl);
        if (k < -1)
            return k;
        if (k < 0) {
            if (!w->stopped)
                remember_failed(w, key);
            continue;
        }
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
    free(w->kmove);
    free(w->khash);
    free(w->kparent);
    free(w->trail);
    free(w->failed);
    srch_gen_wida_free(w->wida);
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
    const srch_dom_heur *h = o->ida && o->between && dom_has_relative(d) ? o->between : NULL;
    if (o->ida && !h && !dom_has_between(d)) {
        *status =
            hn_fail(HN_ERR_UNSUPPORTED,
                    "shortcut: domain %s has no estimate between two states for IDA* "
                    "windows%s",
                    dom_spec(d), dom_has_relative(d) ? " (give an admissible heuristic)" : "");
        free(w);
        return NULL;
    }
    if (h && srch_dom_heur_domain(h) != d) {
        *status = hn_fail(HN_ERR_ARG, "shortcut: the windows' heuristic is of another domain");
        free(w);
        return NULL;
    }
    w->all_ida = h != NULL;
    if (o->ida && !(w->wida = srch_gen_wida_new(d, o->max_window, h))) {
        *status = HN_ERR_NOMEM;
        free(w);
        return NULL;
    }
    w->all = w->nmoves == 64 ? ~0ull : (1ull << w->nmoves) - 1;
    if ((*status = check_domain(d, w))) {
        shortcut_free(w);
        return NULL;
    }
    size_t kmax = (size_t)CHUNK * (size_t)w->nmoves;
    w->kids = malloc(kmax * w->sb);
    w->kmove = malloc(kmax);
    w->khash = malloc(kmax * sizeof *w->khash);
    w->kparent = malloc(kmax * sizeof *w->kparent);
    w->trail = malloc((size_t)(n + 1) * w->sb);
    if (!w->kids || !w->kmove || !w->khash || !w->kparent || !w->trail || side_grow(&w->f, w->sb) ||
        side_grow(&w->b, w->sb)) {
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
    if ((w->even = probe_even(w, start)) < 0) {
        st = w->even;
        shortcut_free(w);
        return st;
    }
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
