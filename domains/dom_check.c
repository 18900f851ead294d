/* The conformance checker behind `heurnet domain check`: over random walks
 * from the goal it tests what every search and learner relies on, so a
 * domain's bug shows here and not as a wrong search result (OpenSpiel found
 * undo bugs years late). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domains/dom_private.h"

const dom_check_opts DOM_CHECK_OPTS_DEFAULTS = {
    .seed = 1, .walks = 200, .max_len = 60, .bfs_depth = 8, .bfs_states = 200000};

struct ck {
    const dom *d;
    dom_check_report *r;
    uint8_t s[DOM_MAX_STATE_BYTES];
};

static int failf(struct ck *c, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int failf(struct ck *c, const char *what, const char *fmt, ...)
{
    char state[512], msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dom_format_state(c->d, c->s, state, sizeof state);
    c->r->failures++;
    if (!c->r->first[0])
        snprintf(c->r->first, sizeof c->r->first, "%s: %s (state %s)", what, msg, state);
    return -1;
}

/* A move then its inverse restores the state; apply of an illegal move
 * leaves it unchanged. */
static void check_inverse(struct ck *c)
{
    const dom *d = c->d;
    size_t sb = dom_state_bytes(d);
    for (int m = 0; m < dom_nmoves(d); m++) {
        uint8_t t[DOM_MAX_STATE_BYTES];
        memcpy(t, c->s, sb);
        if (!dom_apply(d, t, m)) {
            if (memcmp(t, c->s, sb))
                failf(c, "apply", "illegal move %s changed the state", d->facts.move_name[m]);
            continue;
        }
        c->r->moves++;
        int inv = dom_inverse(d, m);
        if (inv < 0)
            continue;
        if (!dom_apply(d, t, inv) || memcmp(t, c->s, sb))
            failf(c, "inverse", "%s then %s does not restore the state", d->facts.move_name[m],
                  d->facts.move_name[inv]);
    }
}

/* expand (no pruning) gives exactly the legal moves' children, in order. */
static void check_expand(struct ck *c)
{
    const dom *d = c->d;
    size_t sb = dom_state_bytes(d);
    uint8_t kids[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], mv[DOM_MAX_MOVES];
    uint64_t all = d->facts.nmoves == 64 ? ~0ull : (1ull << d->facts.nmoves) - 1;
    int n = d->def->expand(d->inst, c->s, all, kids, mv), k = 0;
    for (int m = 0; m < dom_nmoves(d); m++) {
        uint8_t t[DOM_MAX_STATE_BYTES];
        memcpy(t, c->s, sb);
        if (!dom_apply(d, t, m))
            continue;
        if (k >= n || mv[k] != m || memcmp(kids + (size_t)k * sb, t, sb)) {
            failf(c, "expand", "child %d differs from apply of %s", k, d->facts.move_name[m]);
            return;
        }
        k++;
    }
    if (k != n)
        failf(c, "expand", "%d children, apply allows %d", n, k);
}

static int cmp32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Encoding: distinct inputs in range, at most max_active; the delta turns
 * exactly the parent's encoding into the child's. */
static void check_encode(struct ck *c)
{
    const dom *d = c->d;
    int32_t a[DOM_MAX_ACTIVE], b[DOM_MAX_ACTIVE], off[DOM_MAX_ACTIVE], on[DOM_MAX_ACTIVE];
    int na = dom_encode(d, c->s, a);
    if (na < 0 || na > (int)d->facts.max_active) {
        failf(c, "encode", "%d active inputs (at most %u)", na, d->facts.max_active);
        return;
    }
    qsort(a, (size_t)na, sizeof *a, cmp32);
    for (int i = 0; i < na; i++)
        if (a[i] < 0 || a[i] >= (int32_t)d->facts.inputs || (i && a[i] == a[i - 1])) {
            failf(c, "encode", "input %d out of range or repeated", a[i]);
            return;
        }
    if (!d->def->encode_delta)
        return;
    size_t sb = dom_state_bytes(d);
    for (int m = 0; m < dom_nmoves(d); m++) {
        uint8_t t[DOM_MAX_STATE_BYTES];
        memcpy(t, c->s, sb);
        if (!dom_apply(d, t, m))
            continue;
        int noff = 0, non = 0;
        if (d->def->encode_delta(d->inst, c->s, m, off, &noff, on, &non) ||
            noff > (int)d->facts.max_delta || non > (int)d->facts.max_delta) {
            failf(c, "encode_delta", "move %s: refused or over max_delta", d->facts.move_name[m]);
            continue;
        }
        /* child = parent - off + on, as sorted sets */
        int32_t x[2 * DOM_MAX_ACTIVE];
        int nx = 0;
        for (int i = 0; i < na; i++) {
            int gone = 0;
            for (int k = 0; k < noff; k++)
                gone |= off[k] == a[i];
            if (!gone)
                x[nx++] = a[i];
        }
        for (int k = 0; k < non && nx < 2 * DOM_MAX_ACTIVE; k++)
            x[nx++] = on[k];
        int nb = dom_encode(d, t, b);
        qsort(x, (size_t)nx, sizeof *x, cmp32);
        qsort(b, (size_t)nb, sizeof *b, cmp32);
        if (nx != nb || memcmp(x, b, sizeof *b * (size_t)nb))
            failf(c, "encode_delta", "move %s: parent - off + on is not the child's encoding",
                  d->facts.move_name[m]);
    }
}

/* parse(format(s)) == s, and the move text round-trips. */
static void check_text(struct ck *c, const uint8_t *walk, int n)
{
    const dom *d = c->d;
    char buf[8192];
    uint8_t t[DOM_MAX_STATE_BYTES];
    int len = dom_format_state(d, c->s, buf, sizeof buf);
    if (len < 0 || len >= (int)sizeof buf) {
        failf(c, "format", "length %d", len);
        return;
    }
    if (dom_parse_state(d, buf, t) || memcmp(t, c->s, dom_state_bytes(d)))
        failf(c, "parse", "format then parse gives another state: '%s' (%s)", buf, hn_errmsg());
    uint8_t back[256];
    len = dom_format_moves(d, walk, n, buf, sizeof buf);
    int k = len >= 0 && len < (int)sizeof buf ? dom_parse_moves(d, buf, back, 256) : -1;
    if (k != n || memcmp(back, walk, (size_t)n))
        failf(c, "moves", "'%s' does not parse back to its %d moves", buf, n);
}

/* The walk's own moves, with the pruning automaton, reach the start: the
 * reverse walk by inverses ends at the goal (the replay check). */
static void check_replay(struct ck *c, const uint8_t *walk, int n)
{
    const dom *d = c->d;
    uint8_t inv[256];
    for (int i = 0; i < n; i++) {
        int m = dom_inverse(d, walk[n - 1 - i]);
        if (m < 0)
            return;
        inv[i] = (uint8_t)m;
    }
    if (dom_replay(d, c->s, inv, n) != 1)
        failf(c, "replay", "the inverse of the %d-move walk does not reach the goal", n);
}

/* The relative state (dom_def's `relative`) of the walk's end t and the
 * state s halfway: r(t, t) is the goal, r(t, goal) is t, and the second
 * half of the walk leads r(s, t) to the goal. */
static void check_relative(struct ck *c, const uint8_t *walk, int n)
{
    const dom *d = c->d;
    if (!dom_has_relative(d))
        return;
    size_t sb = dom_state_bytes(d);
    uint8_t g[DOM_MAX_STATE_BYTES], s[DOM_MAX_STATE_BYTES], r[DOM_MAX_STATE_BYTES];
    dom_goal(d, g);
    memcpy(s, g, sb);
    for (int i = 0; i < n / 2; i++)
        dom_apply(d, s, walk[i]);
    dom_relative(d, c->s, c->s, r);
    if (memcmp(r, g, sb))
        failf(c, "relative", "a state relative to itself is not the goal");
    dom_relative(d, c->s, g, r);
    if (memcmp(r, c->s, sb))
        failf(c, "relative", "a state relative to the goal is not itself");
    dom_relative(d, s, c->s, r);
    if (dom_replay(d, r, walk + n / 2, n - n / 2) != 1)
        failf(c, "relative",
              "the last %d moves of the walk do not lead the relative state of its "
              "middle and end to the goal",
              n - n / 2);
}

/* Each symmetric map is an involution, and with `symmetric_path` the
 * walk's reverse (a solution of the state) becomes a solution of the map. */
static void check_symmetric_path(struct ck *c, const uint8_t *walk, int n)
{
    const dom *d = c->d;
    if (!dom_has_symmetric_path(d))
        return;
    size_t sb = dom_state_bytes(d);
    uint8_t t[DOM_MAX_STATE_BYTES], back[DOM_MAX_STATE_BYTES], sol[256];
    for (int k = 1; k < dom_symmetries(d); k++) {
        for (int i = 0; i < n; i++)
            sol[i] = (uint8_t)dom_inverse(d, walk[n - 1 - i]);
        dom_symmetric(d, c->s, k, t);
        dom_symmetric(d, t, k, back);
        if (memcmp(back, c->s, sb)) {
            failf(c, "symmetric_path", "symmetric map %d twice is not the state", k);
            return;
        }
        dom_symmetric_path(d, k, sol, n);
        if (dom_replay(d, t, sol, n) != 1) {
            failf(c, "symmetric_path", "a solution mapped by %d does not solve map %d", k, k);
            return;
        }
    }
}

/* A random walk from the goal of up to `len` moves, recording its moves. */
static int walk_from_goal(struct ck *c, int len, hn_rng *rng, uint8_t *walk)
{
    const dom *d = c->d;
    dom_goal(d, c->s);
    int q = DOM_PRUNE_ROOT, n = 0;
    for (int i = 0; i < len; i++) {
        int m = (int)hn_rng_below(rng, (uint32_t)dom_nmoves(d));
        if (dom_prune_next(d, q, m) == (int)DOM_PRUNED || !dom_apply(d, c->s, m))
            continue;
        q = dom_prune_next(d, q, m);
        walk[n++] = (uint8_t)m;
    }
    return n;
}

/* ---- heuristics against breadth-first distances ---- */

struct bfs {
    uint8_t *states; /* found states, state_bytes each, in BFS order */
    uint8_t *depth;
    uint32_t *slot; /* hash table of indices + 1 */
    size_t n, cap, mask;
};

static long bfs_find(const dom *d, struct bfs *b, const uint8_t *s, int insert)
{
    size_t sb = dom_state_bytes(d);
    for (size_t h = dom_hash(d, s) & b->mask;; h = (h + 1) & b->mask) {
        uint32_t v = b->slot[h];
        if (!v) {
            if (!insert || b->n == b->cap)
                return -1;
            memcpy(b->states + b->n * sb, s, sb);
            b->slot[h] = (uint32_t)++b->n;
            return -2;
        }
        if (!memcmp(b->states + (size_t)(v - 1) * sb, s, sb))
            return (long)(v - 1);
    }
}

/* States within `depth` moves of the goal (at most `cap`), with distances;
 * exact for unit costs and inverse-closed moves. */
static int bfs_fill(const dom *d, struct bfs *b, int depth, size_t cap)
{
    size_t sb = dom_state_bytes(d), tab = 1;
    while (tab < 2 * cap)
        tab <<= 1;
    *b = (struct bfs){.states = malloc(sb * cap),
                      .depth = malloc(cap),
                      .slot = calloc(tab, sizeof(uint32_t)),
                      .cap = cap,
                      .mask = tab - 1};
    if (!b->states || !b->depth || !b->slot)
        return hn_fail(HN_ERR_NOMEM, "out of memory for %zu states", cap);
    uint8_t g[DOM_MAX_STATE_BYTES], t[DOM_MAX_STATE_BYTES];
    dom_goal(d, g);
    bfs_find(d, b, g, 1);
    b->depth[0] = 0;
    for (size_t i = 0; i < b->n && b->depth[i] < depth; i++)
        for (int m = 0; m < dom_nmoves(d); m++) {
            memcpy(t, b->states + i * sb, sb);
            if (dom_apply(d, t, m) && bfs_find(d, b, t, 1) == -2)
                b->depth[b->n - 1] = (uint8_t)(b->depth[i] + 1);
        }
    return 0;
}

/* The estimate between two states (dom_def's `between`) against the ball's
 * distances: 0 from a state to itself, at most the distance between a
 * state and the goal either way, and at most the path through the goal
 * between two states of the ball (a bound, not the distance). */
static void check_between(struct ck *c, const struct bfs *b, int full)
{
    const dom *d = c->d;
    if (!dom_has_between(d))
        return;
    size_t sb = dom_state_bytes(d);
    uint8_t g[DOM_MAX_STATE_BYTES];
    dom_goal(d, g);
    for (size_t i = 0; i < b->n; i++) {
        if (b->depth[i] > full)
            continue;
        size_t j = (i * 7919) % b->n; /* another state of the ball */
        const uint8_t *s = b->states + i * sb, *t = b->states + j * sb;
        int self = dom_between(d, s, s), to = dom_between(d, s, g), from = dom_between(d, g, s);
        int bound = b->depth[i] + b->depth[j], pair = dom_between(d, s, t);
        c->r->heur_checks += 4;
        if (self || to > b->depth[i] || from > b->depth[i] || to < 0 || from < 0 || pair < 0 ||
            pair > bound) {
            memcpy(c->s, s, sb);
            failf(c, "between",
                  "between: %d to itself, %d to the goal, %d from it (distance %d), "
                  "%d to another state (at most %d)",
                  self, to, from, b->depth[i], pair, bound);
            return;
        }
    }
}

/* Every symmetric map of a state of the ball (dom_def's `symmetric`) is in
 * the ball at the same distance. */
static void check_symmetric(struct ck *c, struct bfs *b, int full)
{
    const dom *d = c->d;
    size_t sb = dom_state_bytes(d);
    uint8_t t[DOM_MAX_STATE_BYTES];
    for (size_t i = 0; i < b->n; i++) {
        if (b->depth[i] > full)
            continue;
        for (int k = 1; k < dom_symmetries(d); k++) {
            dom_symmetric(d, b->states + i * sb, k, t);
            long j = bfs_find(d, b, t, 0);
            c->r->heur_checks++;
            if (j < 0 || b->depth[j] != b->depth[i]) {
                memcpy(c->s, b->states + i * sb, sb);
                failf(c, "symmetric", "symmetric map %d: distance %d, the state's %d", k,
                      j < 0 ? -1 : b->depth[j], b->depth[i]);
                return;
            }
        }
    }
}

static void check_heuristics(struct ck *c, const dom_check_opts *o)
{
    const dom *d = c->d;
    const char *list = o->heuristics ? o->heuristics : d->facts.heuristics;
    int any = (list && list[0]) || dom_has_between(d) || dom_symmetries(d) > 1;
    /* BFS from the goal measures distances to it only with inverses */
    if (!any || o->bfs_states == 0 || !dom_unit_cost(d) || !dom_reversible(d))
        return;
    struct bfs b;
    if (bfs_fill(d, &b, o->bfs_depth, o->bfs_states) == 0) {
        /* the last depth may be cut by the cap: only complete depths count */
        int full = b.n < b.cap ? 255 : b.depth[b.n - 1] - 1;
        char names[256];
        snprintf(names, sizeof names, "%s", list ? list : "");
        char *save = NULL;
        for (char *h = strtok_r(names, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
            int st;
            dom_heur *hh = dom_heur_open(d, h, &st);
            if (!hh) {
                failf(c, "heuristic", "%s does not open: %s", h, hn_errmsg());
                continue;
            }
            size_t sb = dom_state_bytes(d);
            for (size_t i = 0; i < b.n; i++) {
                if (b.depth[i] > full)
                    continue;
                int v = dom_heur_eval(hh, b.states + i * sb);
                c->r->heur_checks++;
                if (v > b.depth[i] || v < 0) {
                    memcpy(c->s, b.states + i * sb, sb);
                    failf(c, "heuristic", "%s = %d above the distance %d", h, v, b.depth[i]);
                    break;
                }
            }
            dom_heur_free(hh);
        }
        check_between(c, &b, full);
        check_symmetric(c, &b, full);
        c->r->bfs_states = b.n;
    }
    free(b.states);
    free(b.depth);
    free(b.slot);
}

int dom_check(const dom *d, const dom_check_opts *o, dom_check_report *r)
{
    memset(r, 0, sizeof *r);
    hn_rng *rng = hn_rng_new(o->seed);
    if (!rng)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    struct ck c = {.d = d, .r = r};
    uint8_t walk[256];
    dom_goal(d, c.s);
    if (!dom_is_goal(d, c.s))
        failf(&c, "goal", "the goal state is not a goal");
    for (int w = 0; w < o->walks && !hn_stop_requested(); w++) {
        int n = walk_from_goal(&c, 1 + (int)hn_rng_below(rng, (uint32_t)o->max_len), rng, walk);
        r->states++;
        check_inverse(&c);
        check_expand(&c);
        check_encode(&c);
        check_text(&c, walk, n);
        check_replay(&c, walk, n);
        check_relative(&c, walk, n);
        check_symmetric_path(&c, walk, n);
    }
    if (d->facts.has_uniform)
        for (int w = 0; w < o->walks / 4 + 1; w++) {
            if (dom_random_state(d, c.s, rng)) {
                failf(&c, "random_state", "%s", hn_errmsg());
                break;
            }
            r->states++;
            check_inverse(&c);
            check_encode(&c);
            check_text(&c, walk, 0);
        }
    check_heuristics(&c, o);
    hn_rng_free(rng);
    return 0;
}
