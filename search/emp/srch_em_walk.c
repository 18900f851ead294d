/* The fast kernel of the annealed walk: random swap+rotate moves of one class
 * (each piece at its best rotation), kept by the Metropolis rule. Long walks
 * are where the long edge-matching runs spend their time, so a move is scored
 * from packed colours (four bytes per placed piece and per cell's
 * neighbourhood) instead of lifting and dropping pieces on the board. */
#include <string.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "search/emp/srch_em_int.h"

/* Byte k of a packed word is side k only on a little-endian machine. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "srch_em_walk.c packs colours little-endian"
#endif

/* ---- xoshiro256** (Blackman & Vigna): a few cycles per draw, inlined ---- */

static inline uint64_t rotl64(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

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

void srch_em_walk_sync(srch_em_board *b)
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
    /* key = matches * 4 + (3 - r): the largest key is the first best rotation */
    int best = 0;
    for (int r = 0; r < 4; r++) {
        int key = zero_bytes(pc[r] ^ need) * 4 + 3 - r;
        best = key > best ? key : best;
    }
    *rot = 3 - (best & 3);
    return best >> 2;
}

/* Inner swap of cells that do not touch: piece pc goes to a (against na),
 * pa to c (against nc), each at its first best rotation; returns the joins
 * they make there. With AVX2 the eight rotations are scored at once. */
static inline int best_pair(const srch_em_inst *in, int a, int c, int pa, int pc, uint32_t na,
                            uint32_t nc, int *ra, int *rc)
{
#ifdef __AVX2__
    __m128i to_a = _mm_loadu_si128((const __m128i *)(const void *)srch_em_pc(in, pc, 0));
    __m128i to_c = _mm_loadu_si128((const __m128i *)(const void *)srch_em_pc(in, pa, 0));
    __m256i cols = _mm256_set_m128i(to_c, to_a);
    __m256i need = _mm256_set_m128i(_mm_set1_epi32((int)nc), _mm_set1_epi32((int)na));
    __m256i eq = _mm256_cmpeq_epi8(_mm256_xor_si256(cols, need), _mm256_setzero_si256());
    /* bytes 0/1, summed per 32-bit lane (one lane per rotation) */
    __m256i one = _mm256_and_si256(eq, _mm256_set1_epi8(1));
    one = _mm256_add_epi32(one, _mm256_srli_epi32(one, 16));
    one = _mm256_add_epi32(one, _mm256_srli_epi32(one, 8));
    /* key = matches * 4 + (3 - r): the largest key is the first best rotation */
    __m256i key =
        _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(one, _mm256_set1_epi32(0xff)), 2),
                         _mm256_set_epi32(0, 1, 2, 3, 0, 1, 2, 3));
    key = _mm256_max_epi32(key, _mm256_shuffle_epi32(key, 0x4e));
    key = _mm256_max_epi32(key, _mm256_shuffle_epi32(key, 0xb1));
    int ka = _mm256_cvtsi256_si32(key), kc = _mm256_extract_epi32(key, 4);
    (void)a;
    (void)c;
    *ra = 3 - (ka & 3);
    *rc = 3 - (kc & 3);
    return (ka >> 2) + (kc >> 2);
#else
    return best_rot(in, SRCH_EM_INNER, a, pc, na, ra) + best_rot(in, SRCH_EM_INNER, c, pa, nc, rc);
#endif
}

/* Side of a that faces c, or -1 when the cells do not touch. */
static inline int facing_side(const srch_em_inst *in, int a, int c)
{
    const int *nb = in->nb + (size_t)a * 4;
    return nb[0] == c ? 0 : nb[1] == c ? 1 : nb[2] == c ? 2 : nb[3] == c ? 3 : -1;
}

/* Rotations allowed for piece p on cell (a frame cell forces one). */
static inline int rot_range(const srch_em_inst *in, int cls, int cell, int p, int *r0)
{
    *r0 = cls == SRCH_EM_INNER ? 0 : srch_em_rot_for(in, p, cell);
    return cls == SRCH_EM_INNER ? 4 : 1;
}

/* Swap of touching cells a and c (a's side k faces c): the joins away from
 * the shared side per piece, plus the shared join, over all rotation pairs;
 * the first best pair in (ra, rc) order, as srch_em_swap_best picks it. */
static void score_touching(const srch_em_board *b, int cls, int k, srch_em_move *m)
{
    const srch_em_inst *in = b->inst;
    int a = m->a, c = m->b, pa = b->piece[a], pc = b->piece[c], k2 = (k + 2) & 3;
    uint32_t na = b->need[a] | (0xffu << (8 * k)), nc = b->need[c] | (0xffu << (8 * k2));
    int a0, c0, na_rot = rot_range(in, cls, a, pc, &a0), nc_rot = rot_range(in, cls, c, pa, &c0);
    uint32_t sa = (b->face[a] >> (8 * k)) & 0xffu;
    int shared_now = sa == ((b->face[c] >> (8 * k2)) & 0xffu) && sa != 0;
    int now = zero_bytes(b->face[a] ^ na) + zero_bytes(b->face[c] ^ nc) + shared_now;
    int best = -1;
    for (int i = 0; i < na_rot; i++) {
        int r1 = a0 + i;
        uint32_t fa = packed(in, pc, r1);
        uint32_t ca = (fa >> (8 * k)) & 0xffu;
        int s1 = zero_bytes(fa ^ na);
        for (int j = 0; j < nc_rot; j++) {
            int r2 = c0 + j;
            uint32_t fc = packed(in, pa, r2);
            int sc = s1 + zero_bytes(fc ^ nc) + (ca == ((fc >> (8 * k2)) & 0xffu) && ca != 0);
            if (sc > best) {
                best = sc;
                m->ra = r1;
                m->rb = r2;
            }
        }
    }
    m->delta = best - now;
}

/* Score the move {a, c} with best rotations into *m; the board is unchanged. */
static inline void walk_score(const srch_em_board *b, int cls, srch_em_move *m)
{
    const srch_em_inst *in = b->inst;
    int a = m->a, c = m->b, pa = b->piece[a], pc = b->piece[c], k;
    if (a == c) {
        uint32_t na = b->need[a];
        m->delta = best_rot(in, cls, a, pa, na, &m->ra) - zero_bytes(b->face[a] ^ na);
        m->rb = m->ra;
    } else if ((k = facing_side(in, a, c)) >= 0) {
        score_touching(b, cls, k, m);
    } else {
        uint32_t na = b->need[a], nc = b->need[c];
        int now = zero_bytes(b->face[a] ^ na) + zero_bytes(b->face[c] ^ nc);
        if (cls == SRCH_EM_INNER)
            m->delta = best_pair(in, a, c, pa, pc, na, nc, &m->ra, &m->rb) - now;
        else
            m->delta =
                best_rot(in, cls, a, pc, na, &m->ra) + best_rot(in, cls, c, pa, nc, &m->rb) - now;
    }
}

void srch_em_walk_score(srch_em_board *b, srch_em_move *m)
{
    walk_score(b, b->inst->cclass[m->a], m);
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
    srch_em_walk_sync(b);
    uint64_t s[4] = {rng->s[0], rng->s[1], rng->s[2], rng->s[3]}; /* kept in registers */
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
        if (SRCH_EM_METROPOLIS_KEEP(acc, mv.delta, walk_next(s)))
            walk_apply(b, &mv);
    }
    for (int i = 0; i < 4; i++)
        rng->s[i] = s[i];
    b->evals += t;
    return t;
}

/* One random try of the walk: a pair of cells of one class scored into *mv;
 * 0 when the draw gives no move (an empty class, a frame piece with itself). */
static inline int walk_draw(const srch_em_board *b, uint64_t *s, srch_em_move *mv)
{
    int cls = walk_class(b, walk_next(s));
    uint32_t m = (uint32_t)b->cls_len[cls];
    if (m == 0)
        return 0;
    uint64_t x = walk_next(s);
    const int *cells = b->cls_cells + b->cls_off[cls];
    int a = cells[((x & 0xffffffffu) * m) >> 32], c = cells[((x >> 32) * m) >> 32];
    if (a == c && cls != SRCH_EM_INNER)
        return 0;
    *mv = (srch_em_move){.a = a, .b = c};
    walk_score(b, cls, mv);
    return 1;
}

long srch_em_walk_guided(srch_em_board *b, long tries, const srch_em_metropolis *acc,
                         srch_em_walk_rng *rng, int stop_above, const srch_em_walk_guide *g)
{
    srch_em_walk_sync(b);
    uint64_t s[4] = {rng->s[0], rng->s[1], rng->s[2], rng->s[3]};
    long t = 0;
    int n = 0;
    while (t < tries && b->score <= stop_above) {
        t++;
        srch_em_move mv;
        if (!walk_draw(b, s, &mv) || !SRCH_EM_METROPOLIS_KEEP(acc, mv.delta, walk_next(s)))
            continue;
        if (mv.delta != 0) { /* a gain, or a loss the temperature keeps: played at once */
            walk_apply(b, &mv);
            n = 0; /* the gathered moves were scored on the board before it */
            continue;
        }
        g->cand[n++] = mv;
        if (n < g->k)
            continue;
        int k = g->choose(g->user, b, g->cand, n, g->rng);
        walk_apply(b, &g->cand[k >= 0 && k < n ? k : 0]);
        n = 0;
    }
    for (int i = 0; i < 4; i++)
        rng->s[i] = s[i];
    b->evals += t;
    return t;
}
