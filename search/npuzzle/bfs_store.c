/* The node store, heap and child generation shared by A*, batch A* and focal
 * search (see bfs_store.h). Nodes are addressed by index so the pool can
 * grow by realloc; the hash index is open addressing with linear probing. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/bfs_store.h"
#include "search/npuzzle/np_internal.h"

void srch_np_bfs_pack(const srch_np_board *b, uint64_t *key)
{
    key[0] = key[1] = 0;
    for (int t = 1; t < b->ncells; t++)
        key[(t - 1) / 12] |= (uint64_t)b->pos[t] << (5 * ((t - 1) % 12));
}

void srch_np_bfs_board_of(const srch_np_bfs_store *s, size_t idx, srch_np_board *b)
{
    const uint64_t *key = s->nodes[idx].key;
    int n = s->width * s->width;
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    uint32_t used = 0;
    for (int t = 1; t < n; t++) {
        int c = (int)((key[(t - 1) / 12] >> (5 * ((t - 1) % 12))) & 31);
        tiles[c] = (uint8_t)t;
        used |= 1u << c;
    }
    tiles[__builtin_ctz(~used)] = 0;
    srch_np_board_set(b, s->width, tiles);
}

/* Where the probe for key starts. */
static size_t home_of(const srch_np_bfs_store *s, const uint64_t *key)
{
    uint64_t x = (key[0] + 0x632be59bd9b4e019ull) * 0x9e3779b97f4a7c15ull ^ key[1];
    x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
    return (size_t)(x ^ (x >> 29)) & (s->nslots - 1);
}

static size_t probe(const srch_np_bfs_store *s, const uint64_t *key, size_t i)
{
    size_t mask = s->nslots - 1;
    for (;; i = (i + 1) & mask) {
        uint32_t v = s->slots[i];
        if (!v || (s->nodes[v - 1].key[0] == key[0] && s->nodes[v - 1].key[1] == key[1]))
            return i;
    }
}

static size_t slot_of(const srch_np_bfs_store *s, const uint64_t *key)
{
    return probe(s, key, home_of(s, key));
}

static int rehash(srch_np_bfs_store *s)
{
    size_t nslots = s->nslots ? 2 * s->nslots : (size_t)1 << 15;
    uint32_t *slots = calloc(nslots, sizeof *slots), *old = s->slots;
    if (!slots)
        return hn_fail(HN_ERR_NOMEM, "search: out of memory for the index of %zu nodes", s->n);
    s->slots = slots;
    s->nslots = nslots;
    for (size_t i = 0; i < s->n; i++)
        s->slots[slot_of(s, s->nodes[i].key)] = (uint32_t)(i + 1);
    free(old);
    return 0;
}

int srch_np_bfs_store_init(srch_np_bfs_store *s, int width)
{
    *s = (srch_np_bfs_store){.width = width};
    return rehash(s);
}

/* A state kept per node costs memory on every stored board: the 24-puzzle's
 * 6-6-6-6 needs 8 bytes, a node 32. */
#define TRACK_MAX_STATE 16

void srch_np_bfs_store_track(srch_np_bfs_store *s, const srch_np_heur *adm)
{
    if (s->n || !adm || !adm->move_batch || !adm->ops.state_size ||
        adm->ops.state_size > TRACK_MAX_STATE)
        return;
    s->track = adm;
    s->ssz = adm->ops.state_size;
}

void srch_np_bfs_store_free(srch_np_bfs_store *s)
{
    free(s->nodes);
    free(s->slots);
    free(s->states);
    *s = (srch_np_bfs_store){0};
}

long srch_np_bfs_store_find(const srch_np_bfs_store *s, const uint64_t *key)
{
    uint32_t v = s->slots[slot_of(s, key)];
    return v ? (long)v - 1 : -1;
}

static uint16_t h16(int h)
{
    return h < 0 ? 0 : h > UINT16_MAX ? UINT16_MAX : (uint16_t)h;
}

long srch_np_bfs_store_add(srch_np_bfs_store *s, const srch_np_bfs_child *c, int h0, int h1)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : (size_t)1 << 14;
        srch_np_bfs_node *p = cap < UINT32_MAX ? realloc(s->nodes, cap * sizeof *p) : NULL;
        if (!p) {
            hn_fail(HN_ERR_NOMEM, "search: out of memory for %zu nodes", cap);
            return -1;
        }
        s->nodes = p;
        if (s->ssz) {
            uint8_t *q = realloc(s->states, cap * s->ssz);
            if (!q) {
                hn_fail(HN_ERR_NOMEM, "search: out of memory for the states of %zu nodes", cap);
                return -1;
            }
            s->states = q;
        }
        s->cap = cap;
    }
    if (2 * (s->n + 1) > s->nslots && rehash(s))
        return -1;
    /* fixed-point values can pass 16 bits (scale:1000 on the 24-puzzle):
     * clamp rather than wrap to a tiny estimate */
    s->nodes[s->n] = (srch_np_bfs_node){.key = {c->key[0], c->key[1]},
                                        .parent = c->parent,
                                        .g = c->g,
                                        .h = {h0 < 0 ? 0 : h16(h0), h16(h1)},
                                        .dir = c->dir,
                                        .open = 1,
                                        .lazy = h0 < 0};
    if (s->ssz) {
        uint8_t *dst = s->states + s->n * s->ssz;
        if (c->state)
            memcpy(dst, c->state, s->ssz);
        else
            (void)s->track->ops.inc_init(s->track->self, &c->b, dst);
    }
    s->slots[slot_of(s, c->key)] = (uint32_t)(s->n + 1);
    return (long)s->n++;
}

static int heap_grow(srch_np_bfs_heap *hp)
{
    if (hp->n < hp->cap)
        return 0;
    size_t cap = hp->cap ? 2 * hp->cap : (size_t)1 << 14;
    srch_np_bfs_item *p = realloc(hp->a, cap * sizeof *p);
    if (!p)
        return hn_fail(HN_ERR_NOMEM, "search: out of memory for the open list");
    hp->a = p;
    hp->cap = cap;
    return 0;
}

int srch_np_bfs_heap_push(srch_np_bfs_heap *hp, uint64_t pri, uint32_t idx, int g)
{
    if (heap_grow(hp))
        return HN_ERR_NOMEM;
    srch_np_bfs_item v = {.pri = pri, .idx = idx, .g = (uint16_t)g};
    size_t i = hp->n++;
    while (i > 0 && hp->a[(i - 1) / 2].pri > pri) {
        hp->a[i] = hp->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    hp->a[i] = v;
    return 0;
}

int srch_np_bfs_heap_append(srch_np_bfs_heap *hp, uint64_t pri, uint32_t idx, int g)
{
    if (heap_grow(hp))
        return HN_ERR_NOMEM;
    hp->a[hp->n++] = (srch_np_bfs_item){.pri = pri, .idx = idx, .g = (uint16_t)g};
    return 0;
}

/* Move the item at i down to its place among a[0..n). */
static void sift_down(srch_np_bfs_item *a, size_t n, size_t i, srch_np_bfs_item v)
{
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && a[c + 1].pri < a[c].pri)
            c++;
        if (a[c].pri >= v.pri)
            break;
        a[i] = a[c];
    }
    if (n)
        a[i] = v;
}

void srch_np_bfs_heapify(srch_np_bfs_heap *hp)
{
    for (size_t i = hp->n / 2; i-- > 0;)
        sift_down(hp->a, hp->n, i, hp->a[i]);
}

srch_np_bfs_item srch_np_bfs_heap_pop(srch_np_bfs_heap *hp)
{
    srch_np_bfs_item top = hp->a[0];
    hp->n--;
    sift_down(hp->a, hp->n, 0, hp->a[hp->n]);
    return top;
}

/* The children's boards, keys and home slots, their slots prefetched: the
 * index and the pool are far larger than the caches once a search has
 * grown, and the up to three lookups of an expansion then wait for memory
 * together instead of one after another. */
static int child_boards(const srch_np_bfs_store *s, uint32_t idx, const srch_np_board *b,
                        srch_np_bfs_child *c, size_t *home)
{
    const srch_np_bfs_node *x = &s->nodes[idx];
    int g = x->g + 1, back = x->parent == BFS_NO_PARENT ? -1 : srch_np_dir_opposite(x->dir), n = 0;
    for (int d = 0; d < 4; d++) {
        if (d == back || !srch_np_board_can_move(b, d))
            continue;
        c[n].b = *b;
        srch_np_board_move(&c[n].b, d);
        srch_np_bfs_pack(&c[n].b, c[n].key);
        c[n].parent = idx;
        c[n].g = (uint16_t)g;
        c[n].dir = (uint8_t)d;
        c[n].state = NULL;
        home[n] = home_of(s, c[n].key);
        __builtin_prefetch(&s->slots[home[n]]);
        n++;
    }
    for (int i = 0; i < n; i++) { /* the nodes the home slots name, for the key compare */
        uint32_t v = s->slots[home[i]];
        if (v)
            __builtin_prefetch(&s->nodes[v - 1]);
    }
    return n;
}

void srch_np_bfs_children(srch_np_bfs_store *s, uint32_t idx, const srch_np_board *b,
                          srch_np_bfs_child *kids, int *nkids, uint32_t *improved, int *nimp,
                          srch_np_result *res)
{
    srch_np_bfs_child c[4];
    size_t home[4];
    int n = child_boards(s, idx, b, c, home);
    res->generated += (uint64_t)n;
    for (int i = 0; i < n; i++) {
        uint32_t v = s->slots[probe(s, c[i].key, home[i])];
        if (!v) {
            kids[(*nkids)++] = c[i];
        } else if (s->nodes[v - 1].g > c[i].g) {
            srch_np_bfs_node *y = &s->nodes[v - 1];
            y->g = c[i].g;
            y->parent = idx;
            y->dir = c[i].dir;
            y->open = 1;
            improved[(*nimp)++] = v - 1;
        }
    }
}

/* The guide's values of the children that pass the cut, given their adm
 * values; -1 for the others. */
static int eval_passing(const srch_np_heur *guide, const srch_np_heur *adm, int adm_cut,
                        const srch_np_bfs_child *kids, const srch_np_board *boards, int nk,
                        const int *ha, int *hg, srch_np_result *res)
{
    srch_np_board pass[4];
    int base[4], hp[4], np = 0;
    for (int i = 0; i < nk; i++) {
        hg[i] = kids[i].g + ha[i] < adm_cut ? np : -1; /* its place in pass */
        if (hg[i] >= 0) {
            pass[np] = boards[i];
            base[np++] = ha[i];
        }
    }
    int st = np ? srch_np_heur_eval_given_adm(guide, adm, pass, (size_t)np, base, hp) : 0;
    if (st)
        return st;
    res->heur_calls += (uint64_t)np;
    res->batches += np > 0;
    for (int i = 0; i < nk; i++)
        hg[i] = hg[i] >= 0 ? hp[hg[i]] : -1;
    return 0;
}

/* adm's values of the new children: from the parent's kept state when the
 * store tracks adm (each child's state into st, ssz bytes apart, and
 * pointed to by its kid), else by a batch. */
static int adm_values(srch_np_bfs_store *s, uint32_t idx, const srch_np_board *b,
                      const srch_np_heur *adm, srch_np_bfs_child *kids, const srch_np_board *boards,
                      int nk, uint8_t *st, int *ha)
{
    if (s->track != adm)
        return srch_np_heur_eval_batch(adm, boards, (size_t)nk, ha);
    int tile[4];
    for (int i = 0; i < nk; i++) {
        tile[i] = boards[i].tile[b->blank]; /* the tile that slid into the parent's blank */
        kids[i].state = st + (size_t)i * s->ssz;
    }
    return adm->move_batch(adm->self, boards, tile, (size_t)nk, s->states + idx * s->ssz, st, ha);
}

int srch_np_bfs_expand(srch_np_bfs_store *s, uint32_t idx, const srch_np_board *b,
                       const srch_np_heur *guide, const srch_np_heur *adm, int adm_cut,
                       srch_np_bfs_push_fn push, void *ctx, srch_np_result *res)
{
    srch_np_bfs_child kids[4];
    srch_np_board boards[4];
    uint32_t improved[4];
    uint8_t states[4 * TRACK_MAX_STATE];
    int hg[4], ha[4] = {0}, nk = 0, nimp = 0, st;
    srch_np_bfs_children(s, idx, b, kids, &nk, improved, &nimp, res);
    for (int i = 0; i < nimp; i++)
        if ((st = push(ctx, improved[i])))
            return st;
    if (!nk)
        return 0;
    for (int i = 0; i < nk; i++)
        boards[i] = kids[i].b;
    if (adm) { /* adm first: the guide only where it can matter */
        st = adm_values(s, idx, b, adm, kids, boards, nk, states, ha);
        if (!st)
            st = eval_passing(guide, adm, adm_cut, kids, boards, nk, ha, hg, res);
    } else {
        st = srch_np_heur_eval_batch(guide, boards, (size_t)nk, hg);
        res->heur_calls += (uint64_t)nk;
        res->batches++;
    }
    if (st)
        return st;
    for (int i = 0; i < nk; i++) {
        long k = srch_np_bfs_store_add(s, &kids[i], hg[i], ha[i] > 0xffff ? 0xffff : ha[i]);
        if (k < 0)
            return HN_ERR_NOMEM;
        if ((st = push(ctx, (uint32_t)k))) /* the callback's own status (an incumbent's pass) */
            return st;
    }
    return 0;
}

int srch_np_bfs_fill_guide(srch_np_bfs_store *s, uint32_t idx, const srch_np_heur *guide,
                           const srch_np_heur *adm, srch_np_result *res)
{
    srch_np_bfs_node *x = &s->nodes[idx];
    srch_np_board b;
    srch_np_bfs_board_of(s, idx, &b);
    int base = x->h[1], h = 0;
    /* a clamped adm value is no base: the guide then reads its own */
    int st = srch_np_heur_eval_given_adm(guide, base < 0xffff ? adm : NULL, &b, 1, &base, &h);
    if (st)
        return st;
    x->h[0] = h16(h);
    x->lazy = 0;
    res->heur_calls++;
    res->batches++;
    return 0;
}

void srch_np_bfs_take_path(const srch_np_bfs_store *s, size_t idx, srch_np_result *res)
{
    int len = s->nodes[idx].g;
    res->length = len;
    res->nmoves = len < SRCH_NP_MAX_PATH ? len : SRCH_NP_MAX_PATH;
    for (size_t i = idx; s->nodes[i].parent != BFS_NO_PARENT; i = s->nodes[i].parent)
        if (s->nodes[i].g - 1 < SRCH_NP_MAX_PATH)
            res->moves[s->nodes[i].g - 1] = s->nodes[i].dir;
}

int srch_np_bfs_limits_hit(const char *algo, const srch_np_result *res, const srch_limits *lim,
                           double deadline, size_t stored)
{
    if (lim && lim->max_expanded && res->expanded >= lim->max_expanded)
        return hn_fail(HN_ERR_LIMIT, "%s: node limit reached", algo);
    if (lim && lim->max_nodes && stored >= lim->max_nodes)
        return hn_fail(HN_ERR_LIMIT, "%s: memory (stored nodes) limit reached", algo);
    if (hn_stop_requested())
        return hn_fail(HN_ERR_INTERRUPTED, "%s: interrupted", algo);
    if (deadline > 0 && hn_now() > deadline)
        return hn_fail(HN_ERR_LIMIT, "%s: time limit reached", algo);
    return 0;
}
