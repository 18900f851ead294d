/* The node store of the best-first searches: a pool of nodes and of their
 * state bytes addressed by index (so it grows by realloc), an index by
 * open addressing over dom_hash, and a binary heap with lazy deletion. The
 * heap is the specialized n-puzzle A*'s (search/npuzzle/bfs_store.c), so
 * equal priorities leave in the same order there and here. */
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

static size_t probe(const gen_store *s, const void *state, uint64_t hv)
{
    size_t mask = s->nslots - 1;
    for (size_t i = (size_t)(hv >> 17) & mask;; i = (i + 1) & mask) {
        uint32_t v = s->slots[i];
        if (!v || (s->hashes[v - 1] == hv && !memcmp(gen_state(s, v - 1), state, s->sb)))
            return i;
    }
}

static int rehash(gen_store *s)
{
    size_t nslots = s->nslots ? 2 * s->nslots : (size_t)1 << 12;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return hn_fail(HN_ERR_NOMEM, "search: out of memory for the index of %zu states", s->n);
    free(s->slots);
    s->slots = slots;
    s->nslots = nslots;
    for (size_t i = 0; i < s->n; i++)
        s->slots[probe(s, gen_state(s, i), s->hashes[i])] = (uint32_t)(i + 1);
    return 0;
}

int srch_gen_store_init(gen_store *s, const dom *d)
{
    *s = (gen_store){.d = d, .sb = dom_state_bytes(d)};
    return rehash(s);
}

void srch_gen_store_free(gen_store *s)
{
    free(s->nodes);
    free(s->states);
    free(s->hashes);
    free(s->slots);
    *s = (gen_store){0};
}

long srch_gen_store_find(const gen_store *s, const void *state, uint64_t hv)
{
    uint32_t v = s->slots[probe(s, state, hv)];
    return v ? (long)v - 1 : -1;
}

static int grow(gen_store *s)
{
    size_t cap = s->cap ? 2 * s->cap : (size_t)1 << 12;
    if (cap >= UINT32_MAX)
        return hn_fail(HN_ERR_NOMEM, "search: more than 2^32 states");
    gen_node *nodes = realloc(s->nodes, cap * sizeof *nodes);
    if (nodes)
        s->nodes = nodes;
    uint8_t *states = nodes ? realloc(s->states, cap * s->sb) : NULL;
    if (states)
        s->states = states;
    uint64_t *hashes = states ? realloc(s->hashes, cap * sizeof *hashes) : NULL;
    if (!hashes)
        return hn_fail(HN_ERR_NOMEM, "search: out of memory for %zu states", cap);
    s->hashes = hashes;
    s->cap = cap;
    return 0;
}

long srch_gen_store_add(gen_store *s, const void *state, uint64_t hv, uint32_t parent, uint32_t g,
                        int move)
{
    if ((s->n == s->cap && grow(s)) || (2 * (s->n + 1) > s->nslots && rehash(s)))
        return -1;
    size_t i = s->n;
    s->nodes[i] = (gen_node){.parent = parent, .g = g, .h = -1, .move = (uint8_t)move, .open = 1};
    memcpy(s->states + i * s->sb, state, s->sb);
    s->hashes[i] = hv;
    s->slots[probe(s, state, hv)] = (uint32_t)(i + 1);
    return (long)s->n++;
}

int srch_gen_heap_push(gen_heap *hp, uint64_t pri, uint32_t idx, uint32_t g)
{
    if (hp->n == hp->cap) {
        size_t cap = hp->cap ? 2 * hp->cap : (size_t)1 << 12;
        gen_item *p = realloc(hp->a, cap * sizeof *p);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "search: out of memory for the open list");
        hp->a = p;
        hp->cap = cap;
    }
    gen_item v = {.pri = pri, .idx = idx, .g = g};
    size_t i = hp->n++;
    while (i > 0 && hp->a[(i - 1) / 2].pri > pri) {
        hp->a[i] = hp->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    hp->a[i] = v;
    return 0;
}

gen_item srch_gen_heap_pop(gen_heap *hp)
{
    gen_item top = hp->a[0], v = hp->a[--hp->n];
    size_t n = hp->n, i = 0;
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && hp->a[c + 1].pri < hp->a[c].pri)
            c++;
        if (hp->a[c].pri >= v.pri)
            break;
        hp->a[i] = hp->a[c];
    }
    if (n)
        hp->a[i] = v;
    return top;
}
