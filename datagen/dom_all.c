/* --all: every state reachable from the goal, in breadth-first order with
 * its distance, for domains small enough to hold them all in memory (the
 * 8-puzzle's 181,440). The order depends only on the domain's moves, so a
 * rerun or a shard sees the same sequence. */
#include <stdlib.h>
#include <string.h>

#include "datagen/dom_ds_priv.h"

struct seen {
    const dom *d;
    size_t sb;
    uint8_t *states;
    uint16_t *cost;
    uint64_t n, cap;
    uint32_t *slot; /* open addressing: index + 1, 0 = empty */
    uint64_t mask;
};

static uint32_t *find(struct seen *z, const uint8_t *s)
{
    uint64_t i = dom_hash(z->d, s) & z->mask;
    while (z->slot[i] && memcmp(z->states + (uint64_t)(z->slot[i] - 1) * z->sb, s, z->sb))
        i = (i + 1) & z->mask;
    return &z->slot[i];
}

/* Keep the table at most half full and the arrays roomy for one more. */
static int grow(struct seen *z)
{
    if (z->n == z->cap) {
        uint64_t cap = z->cap ? z->cap * 2 : 4096;
        uint8_t *s = realloc(z->states, cap * z->sb);
        if (s)
            z->states = s;
        uint16_t *c = realloc(z->cost, cap * sizeof *c);
        if (c)
            z->cost = c;
        if (!s || !c)
            return hn_fail(HN_ERR_NOMEM, "--all: out of memory for %llu states",
                           (unsigned long long)cap);
        z->cap = cap;
    }
    if ((z->n + 1) * 2 <= z->mask + 1)
        return HN_OK;
    uint64_t size = (z->mask + 1) * 2;
    uint32_t *slot = calloc(size, sizeof *slot);
    if (!slot)
        return hn_fail(HN_ERR_NOMEM, "--all: out of memory for a table of %llu states",
                       (unsigned long long)size);
    free(z->slot);
    z->slot = slot;
    z->mask = size - 1;
    for (uint64_t k = 0; k < z->n; k++)
        *find(z, z->states + k * z->sb) = (uint32_t)(k + 1);
    return HN_OK;
}

static int add(struct seen *z, const uint8_t *s, unsigned cost, uint64_t max)
{
    if (*find(z, s))
        return HN_OK;
    if (z->n >= max)
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "--all: %s has more than %llu states; sample it (-n) instead",
                       dom_spec(z->d), (unsigned long long)max);
    if (cost > UINT16_MAX)
        return hn_fail(HN_ERR_LIMIT, "--all: a distance of %u does not fit a uint16 label", cost);
    int rc = grow(z);
    if (rc)
        return rc;
    memcpy(z->states + z->n * z->sb, s, z->sb);
    z->cost[z->n] = (uint16_t)cost;
    z->n++;
    *find(z, s) = (uint32_t)z->n;
    return HN_OK;
}

static int bfs(struct seen *z, uint64_t max)
{
    int nm = dom_nmoves(z->d);
    uint8_t *kids = malloc((size_t)nm * z->sb), cur[DOM_MAX_STATE_BYTES];
    uint8_t *moves = malloc((size_t)nm);
    int rc = kids && moves ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!rc) {
        dom_goal(z->d, cur);
        rc = add(z, cur, 0, max);
    }
    for (uint64_t head = 0; !rc && head < z->n; head++) {
        if ((head & 0xffff) == 0 && hn_stop_requested())
            rc = hn_fail(HN_ERR_INTERRUPTED, "--all: stopped while enumerating");
        memcpy(cur, z->states + head * z->sb, z->sb); /* add may move the array */
        unsigned next = z->cost[head] + 1u;
        int k = rc ? 0 : dom_expand(z->d, cur, DOM_PRUNE_ROOT, kids, moves, NULL);
        for (int i = 0; i < k && !rc; i++)
            rc = add(z, kids + (size_t)i * z->sb, next, max);
    }
    free(kids);
    free(moves);
    return rc;
}

int dg_dom_enumerate(const dom *d, uint64_t max, uint8_t **states, uint16_t **cost, uint64_t *n)
{
    *states = NULL;
    *cost = NULL;
    *n = 0;
    if (!dom_unit_cost(d) || !dom_reversible(d))
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "--all: %s has moves of other costs or without an inverse; breadth-first "
                       "distances from the goal are not its costs to the goal",
                       dom_spec(d));
    struct seen z = {.d = d, .sb = dom_state_bytes(d), .mask = 4095};
    z.slot = calloc(z.mask + 1, sizeof *z.slot);
    int rc = z.slot ? bfs(&z, max) : hn_fail(HN_ERR_NOMEM, "out of memory");
    free(z.slot);
    if (rc) {
        free(z.states);
        free(z.cost);
        return rc;
    }
    *states = z.states;
    *cost = z.cost;
    *n = z.n;
    return HN_OK;
}
