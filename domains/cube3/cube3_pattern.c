/* The cube's admissible heuristics: patterns for the core's pattern
 * databases (Korf 1997: the 8 corners, and sets of edges), ranked as
 * perfect hashes, and Korf's 3-D Manhattan distance as a cheap own
 * heuristic. */
#include <stdlib.h>
#include <string.h>

#include "domains/cube3/cube3_prune.h"

/* A pattern: the corners (edges == 0) or `edges` tracked edge cubies. */
typedef struct dom_c3_pattern {
    int edges;
    uint8_t cubie[7]; /* the tracked edges, by slot */
    uint8_t slot[12]; /* slot of each edge cubie; EDGE_SINK when not tracked */
} dom_c3_pattern;

/* The slot of an untracked edge: past the 7 a pattern may track, so that
 * rank writes every edge somewhere and no branch depends on the cube. */
#define EDGE_SINK 7

#define CORNER_TWISTS 2187 /* 3^7: the last twist follows from the others */
#define FACT8 40320

/* The c-th position (from 0) whose bit is clear in `used`. */
static int nth_free(unsigned used, int c)
{
    int p = 0;
    for (;; p++)
        if (!(used >> p & 1) && c-- == 0)
            return p;
}

/* ---- corners: Lehmer code of the permutation, then 7 twists ---- */

static uint64_t corner_rank(const void *self, const void *state)
{
    (void)self;
    const uint8_t *s = state;
    unsigned used = 0, twist = 0;
    uint64_t r = 0;
    for (int k = 0; k < C3_CORNERS; k++) {
        unsigned v = s[C3_CP + k];
        r = r * (uint64_t)(C3_CORNERS - k) + v -
            (unsigned)__builtin_popcount(used & ((1u << v) - 1));
        used |= 1u << v;
    }
    for (int k = 0; k < C3_CORNERS - 1; k++)
        twist = twist * 3 + s[C3_CO + k];
    return r * CORNER_TWISTS + twist;
}

/* Corners of rank r; edges solved. */
static void corner_unrank(const void *self, uint64_t rank, void *state)
{
    (void)self;
    uint8_t *s = state, digit[C3_CORNERS];
    dom_c3_solved(s);
    uint32_t rank32 = (uint32_t)rank; /* < 8! 3^7 < 2^32: 32-bit division is faster */
    unsigned twist = rank32 % CORNER_TWISTS, sum = 0;
    uint32_t r = rank32 / CORNER_TWISTS;
    for (int k = C3_CORNERS - 1; k >= 0; k--) {
        digit[k] = (uint8_t)(r % (uint32_t)(C3_CORNERS - k));
        r /= (uint32_t)(C3_CORNERS - k);
    }
    unsigned used = 0;
    for (int k = 0; k < C3_CORNERS; k++) {
        int v = nth_free(used, digit[k]);
        s[C3_CP + k] = (uint8_t)v;
        used |= 1u << v;
    }
    for (int k = C3_CORNERS - 2; k >= 0; k--) {
        s[C3_CO + k] = (uint8_t)(twist % 3);
        sum += twist % 3;
        twist /= 3;
    }
    s[C3_CO + C3_CORNERS - 1] = (uint8_t)((3 - sum % 3) % 3);
}

/* ---- edges: positions of the tracked edges (a partial permutation),
 * then their flips (all free: the untracked edges absorb the parity) ---- */

static uint64_t edge_rank(const void *self, const void *state)
{
    const dom_c3_pattern *p = self;
    const uint8_t *s = state;
    uint8_t pos[EDGE_SINK + 1] = {0}, flip[EDGE_SINK + 1] = {0};
    for (int i = 0; i < C3_EDGES; i++) {
        int sl = p->slot[s[C3_EP + i]];
        pos[sl] = (uint8_t)i;
        flip[sl] = s[C3_EO + i];
    }
    unsigned used = 0;
    uint64_t r = 0, flips = 0;
    for (int k = 0; k < p->edges; k++) {
        unsigned v = pos[k];
        r = r * (uint64_t)(C3_EDGES - k) + v - (unsigned)__builtin_popcount(used & ((1u << v) - 1));
        used |= 1u << v;
        flips = flips << 1 | flip[k];
    }
    return r << p->edges | flips;
}

/* The tracked edges where rank puts them, the others in the free positions
 * in cubie order, unflipped; corners solved. */
static void edge_unrank(const void *self, uint64_t rank, void *state)
{
    const dom_c3_pattern *p = self;
    uint8_t *s = state, digit[7];
    dom_c3_solved(s);
    uint64_t flips = rank & ((1u << p->edges) - 1);
    uint32_t r = (uint32_t)(rank >> p->edges); /* < 12!/5!: 32-bit division is faster */
    for (int k = p->edges - 1; k >= 0; k--) {
        digit[k] = (uint8_t)(r % (uint32_t)(C3_EDGES - k));
        r /= (uint32_t)(C3_EDGES - k);
    }
    unsigned used = 0;
    for (int k = 0; k < p->edges; k++) {
        int v = nth_free(used, digit[k]);
        s[C3_EP + v] = p->cubie[k];
        s[C3_EO + v] = (uint8_t)(flips >> (p->edges - 1 - k) & 1);
        used |= 1u << v;
    }
    int at = 0;
    for (int j = 0; j < C3_EDGES; j++) {
        if (p->slot[j] != EDGE_SINK)
            continue;
        while (used >> at & 1)
            at++;
        s[C3_EP + at] = (uint8_t)j;
        s[C3_EO + at] = 0;
        used |= 1u << at;
    }
}

/* ---- by name ---- */

/* Edge sets: Korf's two disjoint sixes (the first six in Kociemba's
 * order, and the rest), two sevens overlapping in two, and the four U-layer
 * edges (190,080 entries: a table tests build in a moment). */
static const struct {
    const char *name;
    int first, count;
} EDGE_SETS[] = {
    {"edges6a", 0, 6}, {"edges6b", 6, 6}, {"edges7a", 0, 7}, {"edges7b", 5, 7}, {"edges4", 0, 4}};

static uint64_t edge_entries(int k)
{
    uint64_t n = 1;
    for (int i = 0; i < k; i++)
        n *= (uint64_t)(C3_EDGES - i);
    return n << k;
}

int dom_c3_pattern_open(const void *inst, const char *name, dom_pattern *out)
{
    const c3 *c = inst;
    dom_c3_pattern *p = calloc(1, sizeof *p);
    if (!p)
        return c->host->fail(DOM_ERR_NOMEM, "out of memory");
    memset(p->slot, EDGE_SINK, sizeof p->slot);
    *out = (dom_pattern){.self = p, .free = free};
    if (!strcmp(name, "corners")) {
        out->entries = (uint64_t)FACT8 * CORNER_TWISTS;
        out->rank = corner_rank;
        out->unrank = corner_unrank;
        return 0;
    }
    for (size_t i = 0; i < sizeof EDGE_SETS / sizeof EDGE_SETS[0]; i++) {
        if (strcmp(name, EDGE_SETS[i].name))
            continue;
        p->edges = EDGE_SETS[i].count;
        for (int k = 0; k < p->edges; k++) {
            p->cubie[k] = (uint8_t)(EDGE_SETS[i].first + k);
            p->slot[EDGE_SETS[i].first + k] = (uint8_t)k;
        }
        out->entries = edge_entries(p->edges);
        out->rank = edge_rank;
        out->unrank = edge_unrank;
        return 0;
    }
    free(p);
    *out = (dom_pattern){0};
    return c->host->fail(DOM_ERR_ARG, "unknown pattern (corners, edges6a, edges6b, edges7a, "
                                      "edges7b, edges4)");
}

/* ---- heuristics by name ---- */

/* A heuristic handle: the instance's tables and which bound. */
typedef struct c3_heur {
    int kind; /* 1: "parity", 0: "manhattan" (C3_HEUR_PRUNE: cube3_prune.c's) */
    const c3 *c;
} c3_heur;

void *dom_c3_heur_open(const void *inst, const char *name)
{
    const c3 *c = inst;
    int parity = !strcmp(name, "parity");
    if (dom_c3_prune_name(name))
        return dom_c3_prune_open(c, name);
    if (!parity && strcmp(name, "manhattan")) {
        c->host->fail(DOM_ERR_ARG, "unknown heuristic (manhattan, parity, fst, fsst)");
        return NULL;
    }
    c3_heur *h = malloc(sizeof *h);
    if (!h) {
        c->host->fail(DOM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    *h = (c3_heur){.kind = parity, .c = c};
    return h;
}

/* Korf's 3-D Manhattan distance: a quarter turn moves 4 corners and 4 edges
 * one step each, so a quarter of either sum of per-cubie distances is a
 * lower bound. */
static int manhattan(const c3 *c, const uint8_t *s)
{
    int corners = 0, edges = 0;
    for (int i = 0; i < C3_CORNERS; i++)
        corners += c->corner_dist[s[C3_CP + i]][i * 3 + s[C3_CO + i]];
    for (int i = 0; i < C3_EDGES; i++)
        edges += c->edge_dist[s[C3_EP + i]][i * 2 + s[C3_EO + i]];
    corners = (corners + 3) / 4;
    edges = (edges + 3) / 4;
    return corners > edges ? corners : edges;
}

/* "parity": every quarter turn is a 4-cycle of corners, an odd permutation,
 * so a cube's distance has its corner permutation's parity. As a bound (0
 * or 1) it is weak but admissible; value iteration uses it as the exact
 * parity of the distance (heurnet avi --parity). */
int dom_c3_heur_eval(const void *heur, const void *state)
{
    const c3_heur *h = heur;
    if (h->kind == C3_HEUR_PRUNE)
        return dom_c3_prune_eval(heur, state);
    return h->kind ? dom_c3_parity((const uint8_t *)state + C3_CP, C3_CORNERS)
                   : manhattan(h->c, state);
}

void dom_c3_heur_free(void *heur)
{
    if (heur && *(const int *)heur == C3_HEUR_PRUNE)
        dom_c3_prune_free(heur);
    else
        free(heur);
}
