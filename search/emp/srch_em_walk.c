/* The fast kernel of the annealed walk: random swap+rotate moves of one class
 * (each piece at its best rotation), kept by the Metropolis rule. Long walks
 * are where the long edge-matching runs spend their time, so a move is scored
 * from packed colours (four bytes per placed piece and per cell's
 * neighbourhood) instead of lifting and dropping pieces on the board. */
#include <string.h>

#include "search/emp/srch_em_int.h"

/* ---- xoshiro256** (Blackman & Vigna): a few cycles per draw, inlined ---- */

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t walk_next(uint64_t *s)
{
    uint64_t out = rotl64(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return out;
}

void srch_em_walk_seed(srch_em_walk_rng *w, uint64_t seed)
{
    /* splitmix64 fills the state, so any seed (even 0) gives a good one */
    for (int i = 0; i < 4; i++) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        w->s[i] = z ^ (z >> 31);
    }
}

/* ---- packed colours ------------------------------------------------------ */

/* Colours of piece p at rotation r, byte k = side k (the instance stores them
 * in that order). */
static inline uint32_t packed(const srch_em_inst *in, int p, int r)
{
    uint32_t v;
    memcpy(&v, srch_em_pc(in, p, r), 4);
    return v;
}

/* Number of zero bytes of x: the joins a piece matches when x is its packed
 * colours XOR what its neighbours show it (outside sides count too, as grey
 * meets the sentinel's grey; they cancel in every delta between cells of one
 * class, as both have the same number of outside sides). */
static inline int zero_bytes(uint32_t x)
{
    uint32_t t = ~(((x & 0x7f7f7f7fu) + 0x7f7f7f7fu) | x | 0x7f7f7f7fu);
    return __builtin_popcount(t);
}

/* What the neighbours of `cell` show it: byte k = the colour on the side of
 * neighbour k that faces the cell (0 outside). */
static inline uint32_t gather_need(const srch_em_board *b, int cell)
{
    const int *nb = b->inst->nb + (size_t)cell * 4;
    const uint32_t *f = b->face;
    return ((f[nb[0]] >> 16) & 0xffu) | (((f[nb[1]] >> 24) & 0xffu) << 8) |
           ((f[nb[2]] & 0xffu) << 16) | (((f[nb[3]] >> 8) & 0xffu) << 24);
}

/* face[] and need[] from the board as it is (other neighbourhoods moved it). */
static void walk_sync(srch_em_board *b)
{
    const srch_em_inst *in = b->inst;
    for (int c = 0; c < b->n; c++)
        b->face[c] = packed(in, b->piece[c], b->rot[c]);
    b->face[b->n] = 0; /* the sentinel outside the board */
    for (int c = 0; c < b->n; c++)
        b->need[c] = gather_need(b, c);
}

/* Best rotation of piece p against `need` on a cell of class cls (a frame
 * cell forces it); the first best in 0..3, as srch_em_best_place picks. */
static inline int best_rot(const srch_em_inst *in, int cls, int cell, int p, uint32_t need,
                           int *rot)
{
    if (cls != SRCH_EM_INNER) {
        int r = srch_em_rot_for(in, p, cell);
        *rot = r;
        return zero_bytes(packed(in, p, r) ^ need);
    }
    uint32_t pc[4];
    memcpy(pc, srch_em_pc(in, p, 0), sizeof pc);
    int best = zero_bytes(pc[0] ^ need), br = 0;
    for (int r = 1; r < 4; r++) {
        int s = zero_bytes(pc[r] ^ need);
        if (s > best) {
            best = s;
            br = r;
        }
    }
    *rot = br;
    return best;
}

static inline int adjacent(const srch_em_inst *in, int a, int c)
{
    const int *nb = in->nb + (size_t)a * 4;
    return nb[0] == c || nb[1] == c || nb[2] == c || nb[3] == c;
}

/* Score the move {a, c} with best rotations into *m; the board is unchanged. */
static void walk_score(srch_em_board *b, int cls, srch_em_move *m)
{
    const srch_em_inst *in = b->inst;
    int a = m->a, c = m->b, pa = b->piece[a], pc = b->piece[c];
    if (a == c) {
        uint32_t na = b->need[a];
        m->delta = best_rot(in, cls, a, pa, na, &m->ra) - zero_bytes(b->face[a] ^ na);
        m->rb = m->ra;
    } else if (adjacent(in, a, c)) {
        srch_em_swap_best(b, m); /* the shared join needs the board (rare) */
    } else {
        uint32_t na = b->need[a], nc = b->need[c];
        int now = zero_bytes(b->face[a] ^ na) + zero_bytes(b->face[c] ^ nc);
        m->delta = best_rot(in, cls, a, pc, na, &m->ra) + best_rot(in, cls, c, pa, nc, &m->rb) -
                   now;
    }
}

static void refresh_around(srch_em_board *b, int cell)
{
    const int *nb = b->inst->nb + (size_t)cell * 4;
    b->face[cell] = packed(b->inst, b->piece[cell], b->rot[cell]);
    for (int k = 0; k < 4; k++)
        if (nb[k] != b->n)
            b->need[nb[k]] = gather_need(b, nb[k]);
}

static void walk_apply(srch_em_board *b, const srch_em_move *m)
{
    int a = m->a, c = m->b, pa = b->piece[a], pc = b->piece[c];
    if (a == c) {
        b->rot[a] = (uint8_t)m->ra;
    } else {
        b->piece[a] = pc;
        b->rot[a] = (uint8_t)m->ra;
        b->pos[pc] = a;
        b->piece[c] = pa;
        b->rot[c] = (uint8_t)m->rb;
        b->pos[pa] = c;
    }
    b->score += m->delta;
    refresh_around(b, a);
    if (c != a)
        refresh_around(b, c);
}

/* A class drawn with probability proportional to its squared size (the pair
 * distribution of two uniform cells of one class), as a 64-bit threshold. */
static int walk_class(const srch_em_board *b, uint64_t x)
{
    return x < b->walk_cut[0] ? 0 : x < b->walk_cut[1] ? 1 : 2;
}

long srch_em_walk(srch_em_board *b, long tries, const srch_em_metropolis *acc,
                  srch_em_walk_rng *rng, int stop_above)
{
    walk_sync(b);
    uint64_t *s = rng->s;
    long t = 0;
    while (t < tries && b->score <= stop_above) {
        t++;
        int cls = walk_class(b, walk_next(s));
        uint32_t m = (uint32_t)b->cls_len[cls];
        if (m == 0)
            continue;
        uint64_t x = walk_next(s);
        const int *cells = b->cls_cells + b->cls_off[cls];
        int a = cells[((x & 0xffffffffu) * m) >> 32], c = cells[((x >> 32) * m) >> 32];
        if (a == c && cls != SRCH_EM_INNER)
            continue; /* a frame piece has one rotation */
        srch_em_move mv = {.a = a, .b = c};
        walk_score(b, cls, &mv);
        if (mv.delta >= 0 ||
            (acc->on && mv.delta > -8 && (uint32_t)walk_next(s) < acc->keep[-mv.delta]))
            walk_apply(b, &mv);
    }
    b->evals += t;
    return t;
}
