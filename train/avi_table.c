/* DAVI's target table for small domains: every state, found once by a
 * breadth-first search from the goal, with a hash index over them. After
 * each target update the frozen network is evaluated once on all of them
 * (avi_davi.c), and a target's leaves are then lookups. This is still value
 * iteration with the network as the target (the table holds the target
 * network's values, not distances), but making targets costs almost
 * nothing, so the training steps alone bound the samples per second. */
#include <stdlib.h>
#include <string.h>

#include "train/avi_private.h"

/* Put state i into the index (it is not there yet). */
static void slot_put(const struct trn_avi_opts *o, struct trn_avi_table *t, uint32_t i)
{
    size_t sb = dom_state_bytes(o->dom);
    uint64_t k = dom_hash(o->dom, t->states + (size_t)i * sb) & t->mask;
    while (t->slot[k])
        k = (k + 1) & t->mask;
    t->slot[k] = i + 1;
}

int64_t trn_avi_table_find(const struct trn_avi_opts *o, const struct trn_avi_table *t,
                           const uint8_t *state)
{
    size_t sb = dom_state_bytes(o->dom);
    for (uint64_t k = dom_hash(o->dom, state) & t->mask; t->slot[k]; k = (k + 1) & t->mask)
        if (!memcmp(t->states + (size_t)(t->slot[k] - 1) * sb, state, sb))
            return (int64_t)t->slot[k] - 1;
    return -1;
}

/* Room for `need` states and an index at most half full: both doubled and
 * the index rebuilt when full. */
static int grow(const struct trn_avi_opts *o, struct trn_avi_table *t, size_t need, size_t *cap)
{
    if (need <= *cap)
        return HN_OK;
    size_t ncap = *cap ? *cap * 2 : 4096, sb = dom_state_bytes(o->dom);
    uint8_t *s = realloc(t->states, ncap * sb);
    if (s)
        t->states = s;
    free(t->slot);
    t->slot = s ? calloc(ncap * 2, sizeof *t->slot) : NULL;
    if (!t->slot)
        return hn_fail(HN_ERR_NOMEM, "out of memory for a target table of %zu states", ncap);
    t->mask = ncap * 2 - 1;
    *cap = ncap;
    for (uint32_t i = 0; i < t->n; i++)
        slot_put(o, t, i);
    return HN_OK;
}

/* The children of state i not seen yet join the table (in BFS order). */
static int add_children(const struct trn_avi_opts *o, struct trn_avi_table *t, uint32_t i,
                        size_t *cap)
{
    const dom *d = o->dom;
    size_t sb = dom_state_bytes(d);
    uint8_t kids[DOM_MAX_MOVES * DOM_MAX_STATE_BYTES], moves[DOM_MAX_MOVES];
    int k = dom_expand(d, t->states + (size_t)i * sb, DOM_PRUNE_ROOT, kids, moves, NULL);
    for (int c = 0; c < k; c++) {
        const uint8_t *st = kids + (size_t)c * sb;
        if (trn_avi_table_find(o, t, st) >= 0)
            continue;
        if (t->n >= TRN_AVI_MAX_TABLE_STATES)
            return hn_fail(HN_ERR_UNSUPPORTED,
                           "%s has more than %u states: a target table is for small domains",
                           dom_spec(d), TRN_AVI_MAX_TABLE_STATES);
        int rc = grow(o, t, (size_t)t->n + 1, cap);
        if (rc)
            return rc;
        memcpy(t->states + (size_t)t->n * sb, st, sb);
        slot_put(o, t, t->n++);
    }
    return HN_OK;
}

int trn_avi_table_states(const struct trn_avi_opts *o, struct trn_avi_table *t)
{
    if (t->n)
        return HN_OK;
    /* from the goal outwards: every state that reaches the goal, when every
     * move can be undone */
    if (!dom_reversible(o->dom))
        return hn_fail(HN_ERR_UNSUPPORTED,
                       "%s has moves without an inverse: a target table needs every state "
                       "reachable from the goal",
                       dom_spec(o->dom));
    size_t cap = 0;
    int rc = grow(o, t, 1, &cap);
    if (!rc) {
        dom_goal(o->dom, t->states);
        slot_put(o, t, t->n++);
    }
    for (uint32_t i = 0; !rc && i < t->n; i++)
        rc = hn_stop_requested() ? HN_ERR_INTERRUPTED : add_children(o, t, i, &cap);
    if (!rc && (!(t->value = malloc(sizeof *t->value * t->n)) || !(t->raised = malloc(t->n))))
        rc = hn_fail(HN_ERR_NOMEM, "out of memory for a target table of %u states", t->n);
    if (rc)
        trn_avi_table_free(t);
    return rc;
}

void trn_avi_table_free(struct trn_avi_table *t)
{
    free(t->states);
    free(t->slot);
    free(t->value);
    free(t->raised);
    *t = (struct trn_avi_table){0};
}
