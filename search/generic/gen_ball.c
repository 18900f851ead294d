/* The goal's ball: every state within `radius` moves of the goal with its
 * exact distance, found by a breadth-first search from the goal. Each state
 * is kept as its 64-bit hash (dom_hash) and its distance only, so a ball of
 * 86 million cube states takes 2.4 GB (a table of 2^28 slots): a hash shared by a state
 * outside the ball (odds about n / 2^64 per lookup) would give a wrong
 * distance, which the path walk back to the goal then catches (a step with
 * no neighbour one closer, or a last state that is not the goal). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/generic/gen_internal.h"

struct srch_dom_ball {
    const dom *d;
    int radius;
    uint64_t *keys; /* hash with 0 mapped to 1; 0 = empty slot */
    uint8_t *dist;
    size_t nslots, n;
    /* bytes the table and the two layers may take: half the machine's
     * memory, so that a radius too large fails here with a message instead
     * of the system killing the process when the pages are touched */
    size_t budget, layer_bytes;
};

static size_t memory_budget(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || size <= 0)
        return SIZE_MAX;
    return (size_t)pages / 2 * (size_t)size;
}

static int over_budget(const srch_dom_ball *b, size_t slots, size_t layer_bytes)
{
    return slots * (sizeof(uint64_t) + 1) + layer_bytes > b->budget;
}

/* The table's key of a state whose dom_hash is hv (0 marks an empty slot). */
static uint64_t key_of(uint64_t hv)
{
    return hv ? hv : 1;
}

/* Where key k's probe starts. */
static size_t home_of(const srch_dom_ball *b, uint64_t k)
{
    return (size_t)(k >> 20) & (b->nslots - 1);
}

static size_t slot_of(const srch_dom_ball *b, uint64_t k)
{
    size_t mask = b->nslots - 1, i = home_of(b, k);
    while (b->keys[i] && b->keys[i] != k)
        i = (i + 1) & mask;
    return i;
}

static int grow(srch_dom_ball *b)
{
    size_t nslots = b->nslots ? 2 * b->nslots : (size_t)1 << 12;
    if (over_budget(b, nslots + b->nslots, b->layer_bytes)) /* both tables while moving */
        return hn_fail(HN_ERR_NOMEM,
                       "goal ball: %zu states and counting need more than half of this "
                       "machine's memory (%zu MB); take a smaller radius",
                       b->n, b->budget >> 20);
    uint64_t *keys = hn_alloc_huge(nslots * sizeof *keys, 1), *old = b->keys;
    uint8_t *dist = hn_alloc_huge(nslots, 0), *odist = b->dist;
    if (!keys || !dist) {
        free(keys);
        free(dist);
        return hn_fail(HN_ERR_NOMEM, "goal ball: out of memory for %zu states", b->n);
    }
    size_t on = b->nslots;
    b->keys = keys;
    b->dist = dist;
    b->nslots = nslots;
    for (size_t i = 0; i < on; i++)
        if (old[i]) {
            size_t j = slot_of(b, old[i]);
            b->keys[j] = old[i];
            b->dist[j] = odist[i];
        }
    free(old);
    free(odist);
    return 0;
}

/* Insert `state` at distance dd: 1 when new, 0 when there, or a status. */
static int insert(srch_dom_ball *b, const void *state, int dd)
{
    if (2 * (b->n + 1) > b->nslots && grow(b))
        return HN_ERR_NOMEM;
    uint64_t k = key_of(dom_hash(b->d, state));
    size_t i = slot_of(b, k);
    if (b->keys[i])
        return 0;
    b->keys[i] = k;
    b->dist[i] = (uint8_t)dd;
    b->n++;
    return 1;
}

/* A growing array of states (one BFS layer). */
typedef struct {
    uint8_t *s;
    size_t n, cap, sb;
} layer;

static int layer_push(srch_dom_ball *b, layer *l, const uint8_t *state)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 1024;
        size_t more = (cap - l->cap) * l->sb;
        if (over_budget(b, b->nslots, b->layer_bytes + more))
            return hn_fail(HN_ERR_NOMEM,
                           "goal ball: a layer of %zu states needs more than half of this "
                           "machine's memory (%zu MB) with the table; take a smaller radius",
                           l->n, b->budget >> 20);
        uint8_t *p = realloc(l->s, cap * l->sb);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "goal ball: out of memory for a layer of %zu states",
                           l->n);
        l->s = p;
        l->cap = cap;
        b->layer_bytes += more;
    }
    memcpy(l->s + l->n++ * l->sb, state, l->sb);
    return 0;
}

/* Layer dd + 1 from layer dd (`next` NULL at the last: only counted). */
static int bfs_layer(srch_dom_ball *b, const layer *cur, int dd, layer *next)
{
    const dom_def *def = dom_def_of(b->d);
    const void *inst = dom_instance(b->d);
    uint64_t all = dom_allowed(b->d, DOM_PRUNE_ROOT);
    uint8_t kids[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], mv[DOM_MAX_MOVES];
    for (size_t i = 0; i < cur->n; i++) {
        if ((i & 0xffff) == 0 && hn_stop_requested())
            return hn_fail(HN_ERR_INTERRUPTED, "goal ball: interrupted at %zu states", b->n);
        int nk = def->expand(inst, cur->s + i * cur->sb, all, kids, mv);
        for (int j = 0; j < nk; j++) {
            const uint8_t *c = kids + (size_t)j * cur->sb;
            int st = insert(b, c, dd + 1);
            if (st < 0)
                return st;
            if (st && next && layer_push(b, next, c))
                return HN_ERR_NOMEM;
        }
    }
    return 0;
}

static int check_domain(const dom *d, int radius)
{
    if (radius < 1 || radius > SRCH_DOM_BALL_MAX_RADIUS)
        return hn_fail(HN_ERR_ARG, "goal ball: radius %d is not 1..%d", radius,
                       SRCH_DOM_BALL_MAX_RADIUS);
    if (!dom_unit_cost(d) || !dom_reversible(d))
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "goal ball: %s has a move without an inverse or of a cost other than 1 "
                       "(the ball's distances are moves back from the goal)",
                       dom_spec(d));
    return 0;
}

static int build(srch_dom_ball *b)
{
    size_t sb = dom_state_bytes(b->d);
    layer cur = {.sb = sb}, next = {.sb = sb};
    uint8_t goal[DOM_MAX_STATE_BYTES];
    dom_goal(b->d, goal);
    int st = insert(b, goal, 0) < 0 || layer_push(b, &cur, goal) ? HN_ERR_NOMEM : 0;
    for (int dd = 0; !st && dd < b->radius && cur.n; dd++) {
        next.n = 0;
        st = bfs_layer(b, &cur, dd, dd + 1 < b->radius ? &next : NULL);
        layer t = cur;
        cur = next;
        next = t;
    }
    free(cur.s);
    free(next.s);
    b->layer_bytes = 0;
    return st;
}

srch_dom_ball *srch_dom_ball_new(const dom *d, int radius, int *status)
{
    int st = d ? check_domain(d, radius) : hn_fail(HN_ERR_ARG, "goal ball: no domain");
    srch_dom_ball *b = st ? NULL : calloc(1, sizeof *b);
    if (!st && !b)
        st = hn_fail(HN_ERR_NOMEM, "goal ball: out of memory");
    if (b) {
        b->d = d;
        b->radius = radius;
        b->budget = memory_budget();
        if ((st = grow(b)) || (st = build(b))) {
            srch_dom_ball_free(b);
            b = NULL;
        }
    }
    if (status)
        *status = st;
    return b;
}

void srch_dom_ball_free(srch_dom_ball *b)
{
    if (!b)
        return;
    free(b->keys);
    free(b->dist);
    free(b);
}

int srch_dom_ball_radius(const srch_dom_ball *b)
{
    return b->radius;
}

size_t srch_dom_ball_states(const srch_dom_ball *b)
{
    return b->n;
}

const dom *srch_dom_ball_domain(const srch_dom_ball *b)
{
    return b->d;
}

void srch_gen_ball_prefetch(const srch_dom_ball *b, uint64_t hv)
{
    size_t i = home_of(b, key_of(hv));
    __builtin_prefetch(b->keys + i);
    __builtin_prefetch(b->dist + i);
}

int srch_gen_ball_dist_hashed(const srch_dom_ball *b, uint64_t hv)
{
    size_t i = slot_of(b, key_of(hv));
    return b->keys[i] ? b->dist[i] : -1;
}

int srch_dom_ball_dist(const srch_dom_ball *b, const void *state)
{
    return srch_gen_ball_dist_hashed(b, dom_hash(b->d, state));
}

int srch_dom_ball_path(const srch_dom_ball *b, const void *state, uint8_t *moves, int cap)
{
    const dom_def *def = dom_def_of(b->d);
    const void *inst = dom_instance(b->d);
    size_t sb = dom_state_bytes(b->d);
    uint64_t all = dom_allowed(b->d, DOM_PRUNE_ROOT);
    uint8_t cur[DOM_MAX_STATE_BYTES], kids[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], mv[DOM_MAX_MOVES];
    memcpy(cur, state, sb);
    int k = srch_dom_ball_dist(b, cur), n = 0;
    if (k < 0 || k > cap)
        return -1;
    for (; k > 0; k--) {
        int nk = def->expand(inst, cur, all, kids, mv), j = 0;
        while (j < nk && srch_dom_ball_dist(b, kids + (size_t)j * sb) != k - 1)
            j++;
        if (j == nk)
            return -1; /* a hash collision put cur in the ball */
        memcpy(cur, kids + (size_t)j * sb, sb);
        moves[n++] = mv[j];
    }
    return dom_is_goal(b->d, cur) ? n : -1;
}
