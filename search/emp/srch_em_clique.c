/* The max-clique model of Section 2.2: nodes are feasible (piece, cell,
 * rotation) triples, edges join compatible ones; a complete board is a
 * clique of W*H nodes. A local search in the spirit of Grosso, Locatelli and
 * Pullan (greedy additions, plateau swaps with tabu, restarts) looks for big
 * cliques; a partial clique is completed by the region solver. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"

#define EM_MAX_NODES 60000

struct srch_em_graph {
    const srch_em_inst *in;
    long n, m;         /* nodes, edges */
    int *np, *nc, *nr; /* node -> piece, cell, rotation */
    uint64_t *adj;     /* n x words bit matrix */
    long words;
};

void srch_em_graph_free(srch_em_graph *g)
{
    if (!g)
        return;
    free(g->np);
    free(g->nc);
    free(g->nr);
    free(g->adj);
    free(g);
}

long srch_em_graph_nodes(const srch_em_graph *g)
{
    return g->n;
}
long srch_em_graph_edges(const srch_em_graph *g)
{
    return g->m;
}

static int adj_bit(const srch_em_graph *g, long a, long b)
{
    return (int)((g->adj[a * g->words + (b >> 6)] >> (b & 63)) & 1);
}

/* Feasible triple: frame rule, clues, and the symmetry break (the first
 * corner piece only in the top-left cell) when there are no clues. */
static int node_ok(const srch_em_inst *in, int p, int c, int r, int anchor)
{
    if (!srch_em_triple_ok(in, p, c, r))
        return 0;
    return anchor < 0 || (p == anchor) == (c == 0);
}

static int compatible(const srch_em_inst *in, int pa, int ca, int ra, int pb, int cb, int rb)
{
    if (pa == pb || ca == cb)
        return 0;
    for (int s = 0; s < 4; s++)
        if (in->nb[ca * 4 + s] == cb)
            return srch_em_pc(in, pa, ra)[s] == srch_em_pc(in, pb, rb)[(s + 2) & 3];
    return 1;
}

srch_em_graph *srch_em_graph_new(const srch_em_inst *in, int *status)
{
    int anchor = -1;
    if (in->nclues == 0)
        for (int p = 0; p < in->n && anchor < 0; p++)
            if (in->pclass[p] == SRCH_EM_CORNER)
                anchor = p;
    long n = 0;
    for (int p = 0; p < in->n; p++)
        for (int c = 0; c < in->n; c++)
            for (int r = 0; r < 4; r++)
                n += node_ok(in, p, c, r, anchor);
    if (n > EM_MAX_NODES) {
        if (status)
            *status = hn_fail(HN_ERR_LIMIT, "clique graph of %ld nodes is too big (limit %d)", n,
                              EM_MAX_NODES);
        return NULL;
    }
    srch_em_graph *g = calloc(1, sizeof *g);
    if (g) {
        g->in = in;
        g->n = n;
        g->words = (n + 63) / 64;
        g->np = malloc(sizeof(int) * (size_t)(n + 1));
        g->nc = malloc(sizeof(int) * (size_t)(n + 1));
        g->nr = malloc(sizeof(int) * (size_t)(n + 1));
        g->adj = calloc((size_t)(n * g->words + 1), sizeof(uint64_t));
    }
    if (!g || !g->np || !g->nc || !g->nr || !g->adj) {
        srch_em_graph_free(g);
        if (status)
            *status = hn_fail(HN_ERR_NOMEM, "out of memory for a clique graph of %ld nodes", n);
        return NULL;
    }
    long k = 0;
    for (int p = 0; p < in->n; p++)
        for (int c = 0; c < in->n; c++)
            for (int r = 0; r < 4; r++)
                if (node_ok(in, p, c, r, anchor)) {
                    g->np[k] = p;
                    g->nc[k] = c;
                    g->nr[k++] = r;
                }
    for (long a = 0; a < n; a++)
        for (long b = a + 1; b < n; b++)
            if (compatible(in, g->np[a], g->nc[a], g->nr[a], g->np[b], g->nc[b], g->nr[b])) {
                g->adj[a * g->words + (b >> 6)] |= 1ULL << (b & 63);
                g->adj[b * g->words + (a >> 6)] |= 1ULL << (a & 63);
                g->m++;
            }
    if (status)
        *status = HN_OK;
    return g;
}

static void graph_body(FILE *f, const void *ctx)
{
    const srch_em_graph *g = ctx;
    const srch_em_inst *in = g->in;
    fprintf(f, "c edge-matching max-clique graph (Salassa et al. 2.2), %dx%d board\n", in->w,
            in->h);
    fprintf(f, "c node i = piece, cell (row-major), rotation; a clique of %d nodes solves it\n",
            in->n);
    for (long a = 0; a < g->n; a++)
        fprintf(f, "c n %ld %d %d %d\n", a + 1, g->np[a], g->nc[a], g->nr[a]);
    fprintf(f, "p edge %ld %ld\n", g->n, g->m);
    for (long a = 0; a < g->n; a++)
        for (long b = a + 1; b < g->n; b++)
            if (adj_bit(g, a, b))
                fprintf(f, "e %ld %ld\n", a + 1, b + 1);
}

int srch_em_graph_write(const srch_em_graph *g, const char *path)
{
    return srch_em_write_file(path, graph_body, g);
}

/* ---- max-clique local search ------------------------------------------ */

/* miss[u] counts the clique members u is not joined to (a node is not joined
 * to itself). Non-members with miss 0 can be added (list c0), with miss 1 can
 * be swapped in (list c1); both lists are kept up to date by walking only the
 * non-neighbours of the node that enters or leaves. */
typedef struct {
    const srch_em_graph *g;
    int *in_clique, *miss, *clique, *best;
    int *list[2], *where[2], len[2];
    long *tabu;
    int size, best_size;
} em_clq;

static void list_del(em_clq *s, int k, int u)
{
    int i = s->where[k][u], last = s->list[k][--s->len[k]];
    s->list[k][i] = last;
    s->where[k][last] = i;
    s->where[k][u] = -1;
}

static void list_add(em_clq *s, int k, int u)
{
    s->where[k][u] = s->len[k];
    s->list[k][s->len[k]++] = u;
}

static void set_miss(em_clq *s, int u, int m)
{
    int old = s->miss[u];
    s->miss[u] = m;
    if (s->in_clique[u])
        return;
    if (old <= 1)
        list_del(s, old, u);
    if (m <= 1)
        list_add(s, m, u);
}

/* Apply d (+1 / -1) to miss of every non-neighbour of v (v included). */
static void bump_non_neighbours(em_clq *s, int v, int d)
{
    const srch_em_graph *g = s->g;
    const uint64_t *row = g->adj + (long)v * g->words;
    for (long w = 0; w < g->words; w++) {
        uint64_t x = ~row[w];
        if (w == g->words - 1 && (g->n & 63))
            x &= (1ULL << (g->n & 63)) - 1;
        while (x) {
            int u = (int)(w * 64 + __builtin_ctzll(x));
            x &= x - 1;
            set_miss(s, u, s->miss[u] + d);
        }
    }
}

static void clq_add(em_clq *s, int v)
{
    if (s->miss[v] <= 1)
        list_del(s, s->miss[v], v);
    s->in_clique[v] = 1;
    s->clique[s->size++] = v;
    bump_non_neighbours(s, v, +1);
}

static void clq_remove(em_clq *s, int v)
{
    for (int i = 0; i < s->size; i++)
        if (s->clique[i] == v) {
            s->clique[i] = s->clique[--s->size];
            break;
        }
    bump_non_neighbours(s, v, -1);
    s->in_clique[v] = 0;
    if (s->miss[v] <= 1)
        list_add(s, s->miss[v], v);
}

/* A random non-tabu node of c1, or -1. */
static int pick_swap(em_clq *s, long step, hn_rng *rng)
{
    int n = s->len[1];
    if (n == 0)
        return -1;
    for (int t = 0; t < 8; t++) {
        int u = s->list[1][hn_rng_below(rng, (uint32_t)n)];
        if (s->tabu[u] <= step)
            return u;
    }
    for (int i = 0; i < n; i++)
        if (s->tabu[s->list[1][i]] <= step)
            return s->list[1][i];
    return -1;
}

long srch_em_clique_search(const srch_em_graph *g, long selections, uint64_t seed, int *piece,
                           int *rot)
{
    const srch_em_inst *in = g->in;
    em_clq s = {.g = g};
    size_t n = (size_t)g->n + 1;
    s.in_clique = calloc(n, sizeof(int));
    s.miss = calloc(n, sizeof(int));
    s.clique = malloc(sizeof(int) * n);
    s.best = malloc(sizeof(int) * n);
    for (int k = 0; k < 2; k++) {
        s.list[k] = malloc(sizeof(int) * n);
        s.where[k] = malloc(sizeof(int) * n);
    }
    s.tabu = calloc(n, sizeof(long));
    hn_rng *rng = hn_rng_new(seed);
    long result = -1;
    if (!s.in_clique || !s.miss || !s.clique || !s.best || !s.list[0] || !s.list[1] ||
        !s.where[0] || !s.where[1] || !s.tabu || !rng || g->n == 0)
        goto out;
    for (long u = 0; u < g->n; u++) { /* empty clique: every node can be added */
        s.where[1][u] = -1;
        list_add(&s, 0, (int)u);
    }
    long since = 0, patience = 100 + 2 * g->n / 10;
    for (long step = 1; step <= selections && s.best_size < in->n; step++) {
        int v;
        if (s.len[0] > 0) {
            clq_add(&s, s.list[0][hn_rng_below(rng, (uint32_t)s.len[0])]);
        } else if (since < patience && (v = pick_swap(&s, step, rng)) >= 0) {
            for (int i = 0; i < s.size; i++) {
                int u = s.clique[i];
                if (!adj_bit(g, u, v)) {
                    clq_remove(&s, u);
                    s.tabu[u] = step + 7;
                    break;
                }
            }
            clq_add(&s, v);
        } else {
            /* restart around a random node */
            while (s.size > 0)
                clq_remove(&s, s.clique[s.size - 1]);
            clq_add(&s, (int)hn_rng_below(rng, (uint32_t)g->n));
            since = 0;
        }
        since++;
        if (s.size > s.best_size) {
            s.best_size = s.size;
            memcpy(s.best, s.clique, sizeof(int) * (size_t)s.size);
            since = 0;
        }
    }
    for (int c = 0; c < in->n; c++)
        piece[c] = rot[c] = -1;
    for (int i = 0; i < s.best_size; i++) {
        piece[g->nc[s.best[i]]] = g->np[s.best[i]];
        rot[g->nc[s.best[i]]] = g->nr[s.best[i]];
    }
    result = s.best_size;
out:
    free(s.in_clique);
    free(s.miss);
    free(s.clique);
    free(s.best);
    for (int k = 0; k < 2; k++) {
        free(s.list[k]);
        free(s.where[k]);
    }
    free(s.tabu);
    hn_rng_free(rng);
    return result;
}

int srch_em_clique_complete(const srch_em_inst *in, int *piece, int *rot)
{
    int st;
    srch_em_board *b = srch_em_board_new(in, &st);
    if (!b)
        return st;
    for (int c = 0; c < in->n; c++)
        if (piece[c] >= 0)
            srch_em_drop(b, c, piece[c], rot[c]);
    srch_em_fill_empty(b, 1, 200000);
    int left = 0;
    for (int c = 0; c < in->n; c++)
        left += b->piece[c] == b->n;
    if (left) { /* cannot happen when class counts match; keep it safe */
        srch_em_board_free(b);
        return hn_fail(HN_ERR_LIMIT, "%d cells left empty after completing the clique", left);
    }
    srch_em_board_get(b, piece, rot);
    srch_em_board_free(b);
    return HN_OK;
}
