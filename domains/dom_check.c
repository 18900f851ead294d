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

/* A check that could not run: named in the report, which then fails (a
 * skipped check must not read as a pass). */
static void skipped(struct ck *c, const char *what)
{
    size_t u = strlen(c->r->skipped);
    snprintf(c->r->skipped + u, sizeof c->r->skipped - u, "%s%s", u ? "; " : "", what);
}

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
        /* the domain's own values: dom_between hides a negative one */
        int self = d->between(d->inst, s, s), to = d->between(d->inst, s, g);
        int from = d->between(d->inst, g, s);
        int bound = b->depth[i] + b->depth[j], pair = d->between(d->inst, s, t);
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

/* ---- the pruning automaton against breadth-first distances ---- */

/* Pairs (state, automaton state) a pruned search from the goal reaches. */
struct pbfs {
    uint8_t *rec; /* state_bytes + 1 (the automaton state) each, BFS order */
    uint8_t *depth;
    uint32_t *slot;
    size_t n, cap, mask, rb;
};

static int pbfs_insert(const dom *d, struct pbfs *p, const uint8_t *s, int q, int depth)
{
    size_t sb = dom_state_bytes(d);
    uint64_t h = dom_hash(d, s) ^ ((uint64_t)(q + 1) * 0x9e3779b97f4a7c15ull);
    for (size_t i = h & p->mask;; i = (i + 1) & p->mask) {
        uint32_t v = p->slot[i];
        if (!v) {
            if (p->n == p->cap)
                return -1;
            memcpy(p->rec + p->n * p->rb, s, sb);
            p->rec[p->n * p->rb + sb] = (uint8_t)q;
            p->depth[p->n] = (uint8_t)depth;
            p->slot[i] = (uint32_t)++p->n;
            return 1;
        }
        const uint8_t *r = p->rec + (size_t)(v - 1) * p->rb;
        if (r[sb] == q && !memcmp(r, s, sb))
            return 0;
    }
}

/* The pruned search from the goal, up to `depth` moves and `cap` pairs. */
static int pbfs_fill(const dom *d, struct pbfs *p, int depth, size_t cap)
{
    size_t sb = dom_state_bytes(d), tab = 1;
    while (tab < 2 * cap)
        tab <<= 1;
    *p = (struct pbfs){.rec = malloc((sb + 1) * cap),
                       .depth = malloc(cap),
                       .slot = calloc(tab, sizeof(uint32_t)),
                       .cap = cap,
                       .mask = tab - 1,
                       .rb = sb + 1};
    if (!p->rec || !p->depth || !p->slot)
        return hn_fail(HN_ERR_NOMEM, "out of memory for %zu states", cap);
    uint8_t t[DOM_MAX_STATE_BYTES];
    dom_goal(d, t);
    pbfs_insert(d, p, t, DOM_PRUNE_ROOT, 0);
    for (size_t i = 0; i < p->n && p->depth[i] < depth; i++) {
        int q = p->rec[i * p->rb + sb];
        uint64_t allowed = dom_allowed(d, q);
        for (int m = 0; m < dom_nmoves(d); m++) {
            memcpy(t, p->rec + i * p->rb, sb);
            if (allowed >> m & 1 && dom_apply(d, t, m))
                pbfs_insert(d, p, t, dom_prune_next(d, q, m), p->depth[i] + 1);
        }
    }
    return 0;
}

/* Pruning may cut move orders, never distances: every state of the ball's
 * complete depths is reached by the pruned search from the goal at its
 * breadth-first distance (an automaton that forbids every move, or moves
 * a shortest path needs, fails here; walks and IDA* would miss states). */
static void check_pruned(struct ck *c, struct bfs *b, int full, size_t cap)
{
    const dom *d = c->d;
    if (!d->facts.prune_states)
        return;
    size_t sb = dom_state_bytes(d);
    int top = 0;
    for (size_t i = 0; i < b->n; i++)
        top = b->depth[i] <= full && b->depth[i] > top ? b->depth[i] : top;
    struct pbfs p;
    uint8_t *best = malloc(b->n);
    if (!best || pbfs_fill(d, &p, top, cap)) {
        skipped(c, "the pruning automaton against breadth-first distances (out of memory; try a "
                   "smaller --bfs-states)");
    } else {
        /* only the pruned search's complete depths count */
        int pfull = p.n < p.cap ? 255 : p.depth[p.n - 1] - 1;
        memset(best, 255, b->n);
        for (size_t i = 0; i < p.n; i++) {
            long j = bfs_find(d, b, p.rec + i * p.rb, 0);
            if (j >= 0 && p.depth[i] < best[j])
                best[j] = p.depth[i];
        }
        for (size_t j = 0; j < b->n; j++) {
            if (b->depth[j] > full || b->depth[j] > pfull)
                continue;
            c->r->heur_checks++;
            if (best[j] != b->depth[j]) {
                memcpy(c->s, b->states + j * sb, sb);
                if (best[j] == 255)
                    failf(c, "pruning",
                          "a state %d moves from the goal is not reached within %d moves "
                          "under the pruning automaton",
                          b->depth[j], pfull < top ? pfull : top);
                else
                    failf(c, "pruning",
                          "a state %d moves from the goal is reached only in %d under the "
                          "pruning automaton",
                          b->depth[j], best[j]);
                break;
            }
        }
    }
    free(best);
    if (best) {
        free(p.rec);
        free(p.depth);
        free(p.slot);
    }
}

/* The automaton at the goal keeps a legal move when there is one (checked
 * on every domain, also where no breadth-first search runs). */
static void check_prune_root(struct ck *c)
{
    const dom *d = c->d;
    if (!d->facts.prune_states)
        return;
    uint64_t allowed = dom_allowed(d, DOM_PRUNE_ROOT);
    int legal = 0, kept = 0;
    for (int m = 0; m < dom_nmoves(d); m++) {
        uint8_t t[DOM_MAX_STATE_BYTES];
        dom_goal(d, t);
        if (dom_apply(d, t, m)) {
            legal++;
            kept += (int)(allowed >> m & 1);
        }
    }
    if (legal && !kept) {
        dom_goal(d, c->s);
        failf(c, "pruning", "the pruning automaton forbids all %d legal moves at the goal", legal);
    }
}

/* The domain's heuristic hh (named `name`) on the ball's complete depths:
 * never negative, never above the distance. */
static void check_bounds(struct ck *c, const struct bfs *b, int full, const char *name,
                         const dom_heur *hh)
{
    size_t sb = dom_state_bytes(c->d);
    for (size_t i = 0; i < b->n; i++) {
        if (b->depth[i] > full)
            continue;
        int v = dom_heur_eval(hh, b->states + i * sb), neg = 0;
        c->r->heur_checks++;
        if (v > b->depth[i] || dom_heur_negatives(hh, &neg)) {
            memcpy(c->s, b->states + i * sb, sb);
            if (neg)
                failf(c, "heuristic", "%s = %d, a negative value (searches count it as 0)", name,
                      neg);
            else
                failf(c, "heuristic", "%s = %d above the distance %d", name, v, b->depth[i]);
            break;
        }
    }
}

/* The domain's incremental update of hh (heur_delta), when it offers one,
 * along random walks: for every move from every state, its own answer
 * (not the host's fallback, which would hide a defect) equals the whole
 * evaluation of the child, -1 for an illegal move. IDA* trusts it for
 * every child; an error there is a wrong search, not a crash. */
static void check_delta(struct ck *c, const dom_heur *hh, const char *name, const dom_check_opts *o,
                        hn_rng *rng)
{
    const dom *d = c->d;
    if (!dom_heur_has_delta(hh))
        return;
    size_t sb = dom_state_bytes(d);
    uint8_t walk[256];
    for (int w = 0; w < o->walks && !hn_stop_requested(); w++) {
        int n = walk_from_goal(c, 1 + (int)hn_rng_below(rng, (uint32_t)o->max_len), rng, walk);
        dom_goal(d, c->s);
        for (int i = 0; i <= n; i++) {
            int hv = dom_heur_eval(hh, c->s);
            for (int m = 0; m < dom_nmoves(d); m++) {
                uint8_t t[DOM_MAX_STATE_BYTES];
                memcpy(t, c->s, sb);
                int want = dom_apply(d, t, m) ? dom_heur_eval(hh, t) : -1;
                int got = dom_heur_delta_own(hh, c->s, m, hv);
                c->r->delta_checks++;
                if (got != want && !(want == DOM_HEUR_MAX && got > DOM_HEUR_MAX)) {
                    failf(c, "heur_delta", "%s after %s: the update says %d, the child is %d", name,
                          d->facts.move_name[m], got, want);
                    return;
                }
            }
            if (i < n)
                dom_apply(d, c->s, walk[i]);
        }
    }
}

/* bfs_fill's failure, in the report: those checks did not run. */
static void bfs_skipped(struct ck *c)
{
    char why[300];
    snprintf(why, sizeof why,
             "heuristics, between, symmetric maps and pruning against breadth-first "
             "distances (%s; try a smaller --bfs-states)",
             hn_errmsg());
    skipped(c, why);
}

/* Each heuristic of the list opened once: its bounds against the ball b
 * (when b is set) and its incremental update. */
static void check_named(struct ck *c, const char *list, const struct bfs *b, int full,
                        const dom_check_opts *o, hn_rng *rng)
{
    char names[256];
    snprintf(names, sizeof names, "%s", list ? list : "");
    char *save = NULL;
    for (char *h = strtok_r(names, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        int st;
        dom_heur *hh = dom_heur_open(c->d, h, &st);
        if (!hh) {
            failf(c, "heuristic", "%s does not open: %s", h, hn_errmsg());
            continue;
        }
        if (b)
            check_bounds(c, b, full, h, hh);
        check_delta(c, hh, h, o, rng);
        dom_heur_free(hh);
    }
}

static void check_heuristics(struct ck *c, const dom_check_opts *o, hn_rng *rng)
{
    const dom *d = c->d;
    const char *list = o->heuristics ? o->heuristics : d->facts.heuristics;
    int any =
        (list && list[0]) || dom_has_between(d) || dom_symmetries(d) > 1 || d->facts.prune_states;
    /* BFS from the goal measures distances to it only with inverses */
    if (!any || o->bfs_states == 0 || !dom_unit_cost(d) || !dom_reversible(d)) {
        check_named(c, list, NULL, 0, o, rng);
        return;
    }
    struct bfs b;
    if (bfs_fill(d, &b, o->bfs_depth, o->bfs_states)) {
        bfs_skipped(c);
        check_named(c, list, NULL, 0, o, rng);
    } else {
        /* the last depth may be cut by the cap: only complete depths count */
        int full = b.n < b.cap ? 255 : b.depth[b.n - 1] - 1;
        check_named(c, list, &b, full, o, rng);
        check_between(c, &b, full);
        check_symmetric(c, &b, full);
        check_pruned(c, &b, full, o->bfs_states);
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
    check_prune_root(&c);
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
    check_heuristics(&c, o, rng);
    hn_rng_free(rng);
    return 0;
}
