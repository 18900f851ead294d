/* A* on the n-puzzle: nodes live in one growing pool (indices, not
 * pointers), the closed/open membership in an open-addressing hash table of
 * pool indices, the open list in a binary heap of (f, -g, node) keys with
 * lazy deletion. All children of an expansion are evaluated with one
 * eval_batch call, so a batched heuristic (a network) sees them together. */
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/np_internal.h"

#define NO_PARENT UINT32_MAX

/* Board packed as the cells of tiles 1..24, 5 bits each (the blank is the
 * missing cell): tiles 1-12 in key[0], 13-24 in key[1]. */
typedef struct {
    uint64_t key[2];
    uint32_t parent;
    uint16_t g, h;
    uint8_t dir, open;
} node;

typedef struct {
    node *nodes;
    size_t n, cap;
    uint32_t *slots;     /* hash table of node index + 1 (0 = empty) */
    size_t nslots;
    uint64_t *heap;      /* f << 48 | (0xffff - g) << 32 | index */
    size_t nheap, capheap;
    int width, ncells;
} astar;

static void pack(const srch_np_board *b, uint64_t *key)
{
    key[0] = key[1] = 0;
    for (int t = 1; t < b->ncells; t++)
        key[(t - 1) / 12] |= (uint64_t)b->pos[t] << (5 * ((t - 1) % 12));
}

static void unpack(const uint64_t *key, int width, srch_np_board *b)
{
    int n = width * width;
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    uint32_t used = 0;
    for (int t = 1; t < n; t++) {
        int c = (int)((key[(t - 1) / 12] >> (5 * ((t - 1) % 12))) & 31);
        tiles[c] = (uint8_t)t;
        used |= 1u << c;
    }
    tiles[__builtin_ctz(~used)] = 0;
    srch_np_board_set(b, width, tiles);
}

static size_t hash_key(const uint64_t *key)
{
    uint64_t x = key[0] * 0x9e3779b97f4a7c15ull ^ key[1] * 0xc2b2ae3d27d4eb4full;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return (size_t)(x ^ (x >> 32));
}

/* Slot holding `key`, or the empty slot where it belongs. */
static size_t find_slot(const astar *a, const uint64_t *key)
{
    size_t mask = a->nslots - 1, i = hash_key(key) & mask;
    for (;; i = (i + 1) & mask) {
        uint32_t v = a->slots[i];
        if (!v)
            return i;
        const node *x = &a->nodes[v - 1];
        if (x->key[0] == key[0] && x->key[1] == key[1])
            return i;
    }
}

static int grow_table(astar *a)
{
    size_t nslots = a->nslots ? 2 * a->nslots : 1u << 16;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return hn_fail(HN_ERR_NOMEM, "A*: out of memory for the closed list (%zu nodes)", a->n);
    uint32_t *old = a->slots;
    size_t nold = a->nslots;
    a->slots = slots;
    a->nslots = nslots;
    for (size_t i = 0; i < nold; i++)
        if (old[i])
            a->slots[find_slot(a, a->nodes[old[i] - 1].key)] = old[i];
    free(old);
    return 0;
}

/* Append a node; returns its index or -1 (out of memory, message set). */
static long add_node(astar *a, const uint64_t *key, uint32_t parent, int g, int h, int dir)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1u << 14;
        node *p = realloc(a->nodes, cap * sizeof *p);
        if (!p) {
            hn_fail(HN_ERR_NOMEM, "A*: out of memory for %zu nodes", cap);
            return -1;
        }
        a->nodes = p;
        a->cap = cap;
    }
    if (2 * (a->n + 1) > a->nslots && grow_table(a))
        return -1;
    node *x = &a->nodes[a->n];
    x->key[0] = key[0];
    x->key[1] = key[1];
    x->parent = parent;
    x->g = (uint16_t)g;
    x->h = (uint16_t)h;
    x->dir = (uint8_t)dir;
    x->open = 1;
    a->slots[find_slot(a, key)] = (uint32_t)(a->n + 1);
    return (long)a->n++;
}

static int heap_push(astar *a, size_t idx)
{
    if (a->nheap == a->capheap) {
        size_t cap = a->capheap ? 2 * a->capheap : 1u << 14;
        uint64_t *p = realloc(a->heap, cap * sizeof *p);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "A*: out of memory for the open list");
        a->heap = p;
        a->capheap = cap;
    }
    const node *x = &a->nodes[idx];
    uint64_t v = (uint64_t)(x->g + x->h) << 48 | (uint64_t)(0xffff - x->g) << 32 | idx;
    size_t i = a->nheap++;
    while (i > 0 && a->heap[(i - 1) / 2] > v) {
        a->heap[i] = a->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    a->heap[i] = v;
    return 0;
}

static uint64_t heap_pop(astar *a)
{
    uint64_t top = a->heap[0], v = a->heap[--a->nheap];
    size_t i = 0, n = a->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && a->heap[c + 1] < a->heap[c])
            c++;
        if (a->heap[c] >= v)
            break;
        a->heap[i] = a->heap[c];
        i = c;
    }
    if (n)
        a->heap[i] = v;
    return top;
}

/* Generate the children of node `idx` (board b), evaluate the new ones in
 * one batch, and add or improve them. */
static int expand(astar *a, size_t idx, const srch_np_board *b, const srch_np_heur *h,
                  srch_np_result *res)
{
    srch_np_board kids[4];
    uint64_t keys[4][2];
    int dirs[4], hv[4], nk = 0, g = a->nodes[idx].g + 1, prev = a->nodes[idx].parent == NO_PARENT ? -1 : a->nodes[idx].dir;
    for (int d = 0; d < 4; d++) {
        if (d == (prev ^ 1) || !srch_np_board_can_move(b, d))
            continue;
        res->generated++;
        kids[nk] = *b;
        srch_np_board_move(&kids[nk], d);
        pack(&kids[nk], keys[nk]);
        uint32_t v = a->slots[find_slot(a, keys[nk])];
        if (v) {
            node *x = &a->nodes[v - 1];
            if (x->g > g) { /* shorter path: re-open with the known h */
                x->g = (uint16_t)g;
                x->parent = (uint32_t)idx;
                x->dir = (uint8_t)d;
                x->open = 1;
                if (heap_push(a, v - 1))
                    return HN_ERR_NOMEM;
            }
            continue;
        }
        dirs[nk++] = d;
    }
    if (!nk)
        return 0;
    int st = srch_np_heur_eval_batch(h, kids, (size_t)nk, hv);
    if (st)
        return st;
    res->heur_calls += (uint64_t)nk;
    res->batches++;
    for (int i = 0; i < nk; i++) {
        long k = add_node(a, keys[i], (uint32_t)idx, g, hv[i], dirs[i]);
        if (k < 0 || heap_push(a, (size_t)k))
            return HN_ERR_NOMEM;
    }
    return 0;
}

static void take_path(const astar *a, size_t idx, srch_np_result *res)
{
    int len = a->nodes[idx].g;
    res->length = len;
    res->nmoves = len < SRCH_NP_MAX_PATH ? len : SRCH_NP_MAX_PATH;
    for (size_t i = idx; a->nodes[i].parent != NO_PARENT; i = a->nodes[i].parent)
        if (a->nodes[i].g - 1 < SRCH_NP_MAX_PATH)
            res->moves[a->nodes[i].g - 1] = a->nodes[i].dir;
}

static int limits_hit(const srch_np_result *res, const srch_limits *lim, double deadline,
                      size_t stored)
{
    if (lim && lim->max_expanded && res->expanded >= lim->max_expanded)
        return hn_fail(HN_ERR_LIMIT, "A*: node limit reached");
    if (lim && lim->max_nodes && stored >= lim->max_nodes)
        return hn_fail(HN_ERR_LIMIT, "A*: memory (stored nodes) limit reached");
    if ((res->expanded & 1023) == 0) {
        if (hn_stop_requested())
            return hn_fail(HN_ERR_INTERRUPTED, "A*: interrupted");
        if (deadline > 0 && hn_now() > deadline)
            return hn_fail(HN_ERR_LIMIT, "A*: time limit reached");
    }
    return 0;
}

static int astar_run(astar *a, const srch_np_board *start, const srch_np_heur *h,
                     const srch_limits *lim, double deadline, srch_np_result *res)
{
    uint64_t key[2];
    pack(start, key);
    res->h0 = srch_np_heur_eval(h, start);
    res->heur_calls++;
    long k = add_node(a, key, NO_PARENT, 0, res->h0, 0);
    if (k < 0 || heap_push(a, (size_t)k))
        return HN_ERR_NOMEM;
    while (a->nheap) {
        uint64_t top = heap_pop(a);
        size_t idx = (size_t)(top & 0xffffffffu);
        node *x = &a->nodes[idx];
        if (!x->open || 0xffff - ((top >> 32) & 0xffff) != x->g)
            continue; /* stale entry: the node was expanded or improved since */
        x->open = 0;
        srch_np_board b;
        unpack(x->key, a->width, &b);
        if (srch_np_board_is_goal(&b, h->goal)) {
            take_path(a, idx, res);
            return 0;
        }
        int st = limits_hit(res, lim, deadline, a->n);
        if (st)
            return st;
        res->expanded++;
        st = expand(a, idx, &b, h, res);
        if (st)
            return st;
    }
    return hn_fail(HN_ERR_UNSOLVABLE, "A*: open list exhausted without reaching the goal");
}

int srch_np_astar(const srch_np_board *start, const srch_np_heur *h, const srch_limits *lim,
                  srch_np_result *res)
{
    if (np_search_begin(start, h, res))
        return res->status;
    double t0 = hn_now();
    astar a = {.width = start->width, .ncells = start->ncells};
    res->status = grow_table(&a);
    if (!res->status)
        res->status = astar_run(&a, start, h, lim, lim && lim->time_limit > 0 ? t0 + lim->time_limit : 0, res);
    res->stored = a.n;
    res->seconds = hn_now() - t0;
    free(a.nodes);
    free(a.slots);
    free(a.heap);
    return res->status;
}
