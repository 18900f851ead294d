/* The Rubik's cube in the quarter-turn metric: the domain definition, the
 * hot calls (table-driven turns touching the 8 cubies a turn moves), the
 * pruning automaton, the one-hot cubie encoding and uniform random cubes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domains/builtin.h"
#include "domains/cube3/cube3_private.h"

/* Move m is face m / 2 (U R F D L B) clockwise (even m) or not (odd m). */
static const char *const MOVE_NAME[C3_MOVES] = {"U", "U'", "R", "R'", "F", "F'",
                                                "D", "D'", "L", "L'", "B", "B'"};
static const int8_t INVERSE[C3_MOVES] = {1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10};
static const uint8_t MOD3[6] = {0, 1, 2, 0, 1, 2};

/* One-hot cubie encoding: input cubie * 24 + placement, where a corner's
 * placement is position * 3 + twist and an edge's position * 2 + flip
 * (edges after the 8 corners): 20 cubies x 24 placements. */
#define ENC_INPUTS 480
#define ENC_EDGE0 (C3_CORNERS * 24)

void dom_c3_solved(uint8_t *s)
{
    memset(s, 0, C3_STATE_BYTES);
    for (int i = 0; i < C3_CORNERS; i++)
        s[C3_CP + i] = (uint8_t)i;
    for (int i = 0; i < C3_EDGES; i++)
        s[C3_EP + i] = (uint8_t)i;
}

int dom_c3_apply(const void *inst, void *state, int move)
{
    const dom_c3_turn *t = &((const c3 *)inst)->turn[move];
    uint8_t *s = state, p[4], o[4], q[4], f[4];
    for (int k = 0; k < 4; k++) {
        p[k] = s[C3_CP + t->csrc[k]];
        o[k] = MOD3[s[C3_CO + t->csrc[k]] + t->ctwist[k]];
        q[k] = s[C3_EP + t->esrc[k]];
        f[k] = s[C3_EO + t->esrc[k]] ^ t->eflip[k];
    }
    for (int k = 0; k < 4; k++) {
        s[C3_CP + t->cpos[k]] = p[k];
        s[C3_CO + t->cpos[k]] = o[k];
        s[C3_EP + t->epos[k]] = q[k];
        s[C3_EO + t->epos[k]] = f[k];
    }
    return 1;
}

static int dom_c3_expand(const void *inst, const void *state, uint64_t allowed, void *children,
                         uint8_t *moves)
{
    uint8_t *out = children;
    int n = 0;
    for (int m = 0; m < C3_MOVES; m++) {
        if (!(allowed >> m & 1))
            continue;
        memcpy(out, state, C3_STATE_BYTES);
        dom_c3_apply(inst, out, m);
        moves[n++] = (uint8_t)m;
        out += C3_STATE_BYTES;
    }
    return n;
}

static void dom_c3_goal(const void *inst, void *state)
{
    (void)inst;
    dom_c3_solved(state);
}

/* ---- network encoding ---- */

static int32_t corner_input(const uint8_t *s, int pos)
{
    return s[C3_CP + pos] * 24 + pos * 3 + s[C3_CO + pos];
}

static int32_t edge_input(const uint8_t *s, int pos)
{
    return ENC_EDGE0 + s[C3_EP + pos] * 24 + pos * 2 + s[C3_EO + pos];
}

static int dom_c3_encode(const void *inst, const void *state, int32_t *active)
{
    (void)inst;
    const uint8_t *s = state;
    for (int i = 0; i < C3_CORNERS; i++)
        active[i] = corner_input(s, i);
    for (int i = 0; i < C3_EDGES; i++)
        active[C3_CORNERS + i] = edge_input(s, i);
    return C3_CORNERS + C3_EDGES;
}

/* A quarter turn moves 4 corners and 4 edges to other positions, so their
 * 8 inputs go off and 8 others come on; the other 12 stay. The new inputs
 * come straight from the turn table, without making the child. */
static int dom_c3_encode_delta(const void *inst, const void *state, int move, int32_t *off,
                               int *noff, int32_t *on, int *non)
{
    const dom_c3_turn *t = &((const c3 *)inst)->turn[move];
    const uint8_t *s = state;
    for (int k = 0; k < 4; k++) {
        int cs = t->csrc[k], es = t->esrc[k];
        off[k] = corner_input(s, t->cpos[k]);
        off[4 + k] = edge_input(s, t->epos[k]);
        on[k] = s[C3_CP + cs] * 24 + t->cpos[k] * 3 + MOD3[s[C3_CO + cs] + t->ctwist[k]];
        on[4 + k] = ENC_EDGE0 + s[C3_EP + es] * 24 + t->epos[k] * 2 + (s[C3_EO + es] ^ t->eflip[k]);
    }
    *noff = *non = 8;
    return 0;
}

/* ---- uniform random cubes ---- */

/* Uniform in [0, n) by rejection (no modulo bias). */
static uint32_t below(dom_rng *rng, uint32_t n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng->next(rng->ctx);
    while (x >= limit);
    return (uint32_t)(x % n);
}

static void shuffle(uint8_t *p, int n, dom_rng *rng)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(rng, (uint32_t)i + 1);
        uint8_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* Both permutations uniform, then two edges swapped when the parities
 * differ: a bijection from the mismatched pairs onto the matched ones,
 * so the result is uniform over the solvable cubes. The last twist and
 * flip make the sums 0. */
static int dom_c3_random_state(const void *inst, void *state, dom_rng *rng)
{
    (void)inst;
    uint8_t *s = state;
    dom_c3_solved(s);
    shuffle(s + C3_CP, C3_CORNERS, rng);
    shuffle(s + C3_EP, C3_EDGES, rng);
    if (dom_c3_parity(s + C3_CP, C3_CORNERS) != dom_c3_parity(s + C3_EP, C3_EDGES)) {
        uint8_t t = s[C3_EP + 10];
        s[C3_EP + 10] = s[C3_EP + 11];
        s[C3_EP + 11] = t;
    }
    int twist = 0, flip = 0;
    for (int i = 0; i < C3_CORNERS - 1; i++) {
        s[C3_CO + i] = (uint8_t)below(rng, 3);
        twist += s[C3_CO + i];
    }
    for (int i = 0; i < C3_EDGES - 1; i++) {
        s[C3_EO + i] = (uint8_t)below(rng, 2);
        flip += s[C3_EO + i];
    }
    s[C3_CO + C3_CORNERS - 1] = (uint8_t)((3 - twist % 3) % 3);
    s[C3_EO + C3_EDGES - 1] = (uint8_t)(flip & 1);
    return 0;
}

/* ---- the pruning automaton ---- */

/* The canonical sequences: no move right after its inverse; of two
 * opposite faces (they commute) U, R, F go first (so no U after D, no R
 * after L, no F after B); a half turn only as X X (never X' X'), and no
 * third equal quarter turn (X X X is X'). Up to length 5 the sequences
 * it allows are exactly one per cube at that distance (the unit test
 * counts them against breadth-first search). */
static int prune_next(int q, int m)
{
    if (q == 0)
        return 1 + m;
    int last_face = q <= C3_MOVES ? (q - 1) / 2 : q - 1 - C3_MOVES;
    int last_ccw = q <= C3_MOVES ? (q - 1) % 2 : 0, twice = q > C3_MOVES;
    int face = m / 2, ccw = m % 2;
    if (face == last_face)
        return ccw != last_ccw || ccw || twice ? (int)DOM_PRUNED : 1 + C3_MOVES + face;
    if (face + 3 == last_face)
        return DOM_PRUNED;
    return 1 + m;
}

/* ---- instances ---- */

static void *dom_c3_create(const char *args, const dom_host *host, dom_facts *facts)
{
    if (args && args[0]) {
        host->fail(DOM_ERR_ARG, "cube3 takes no parameters");
        return NULL;
    }
    c3 *c = calloc(1, sizeof *c);
    if (!c) {
        host->fail(DOM_ERR_NOMEM, "out of memory");
        return NULL;
    }
    c->host = host;
    dom_c3_geometry_init(c);
    for (int q = 0; q < C3_PRUNE_STATES; q++)
        for (int m = 0; m < C3_MOVES; m++)
            c->prune[q * C3_MOVES + m] = (uint8_t)prune_next(q, m);
    facts->canonical = "cube3";
    facts->encoding = "cube3-cubie-onehot";
    facts->state_bytes = C3_STATE_BYTES;
    facts->nmoves = C3_MOVES;
    facts->move_name = MOVE_NAME;
    facts->move_sep = " ";
    facts->inverse = INVERSE;
    facts->cost = NULL;
    facts->prune_states = C3_PRUNE_STATES;
    facts->prune_next = c->prune;
    facts->inputs = ENC_INPUTS;
    facts->max_active = C3_CORNERS + C3_EDGES;
    facts->max_delta = 8;
    facts->heuristics = "manhattan,parity,fst,fsst";
    facts->patterns = "corners,edges6a,edges6b,edges7a,edges7b,edges4";
    facts->has_uniform = 1;
    facts->symmetries = 2 * C3_SYMS; /* the symmetries, each with the inverse */
    facts->typical_depth = 21; /* random cubes: about 21 QTM (mean 20.64 on DeepCubeA's set) */
    return c;
}

/* The inverse cube, as far from solved (a solution of the cube, reversed
 * and inverted, solves its inverse). Positions and cubies swap roles; a
 * twist (flip) is undone. */
static void inverse_cube(const uint8_t *s, uint8_t *t)
{
    for (int i = 0; i < C3_CORNERS; i++) {
        int c = s[C3_CP + i];
        t[C3_CP + c] = (uint8_t)i;
        t[C3_CO + c] = (uint8_t)((3 - s[C3_CO + i]) % 3);
    }
    for (int i = 0; i < C3_EDGES; i++) {
        int e = s[C3_EP + i];
        t[C3_EP + e] = (uint8_t)i;
        t[C3_EO + e] = s[C3_EO + i];
    }
}

/* Map k: whole-cube symmetry k / 2 of the cube (k even) or of its inverse
 * (k odd). Both keep the distance to solved, both undo themselves and they
 * commute, so every map undoes itself: map 1 is the inverse, 2 the L-R
 * mirror image, 3 the mirror image of the inverse, and so on. */
static void dom_c3_symmetric(const void *inst, const void *state, uint32_t k, void *out)
{
    uint8_t t[C3_STATE_BYTES];
    const uint8_t *s = state;
    if (k & 1) {
        inverse_cube(s, t);
        s = t;
    }
    if (k / 2)
        dom_c3_conjugate(inst, (int)(k / 2), s, out);
    else
        memcpy(out, s, C3_STATE_BYTES);
}

/* b^-1 a: a's cubies renamed by where b holds them. A cubie that a holds
 * at p and b at q becomes cubie q at p, its twist (flip) less b's. A turn
 * moves cubies between positions and twists them by position, whatever
 * their names, so renaming commutes with every move: the moves that take
 * a to b take the renamed cube to the solved one. */
static void dom_c3_relative(const void *inst, const void *a, const void *b, void *out)
{
    const uint8_t *s = a, *z = b;
    uint8_t *t = out, cpos[C3_CORNERS], epos[C3_EDGES];
    (void)inst;
    for (int q = 0; q < C3_CORNERS; q++)
        cpos[z[C3_CP + q]] = (uint8_t)q;
    for (int q = 0; q < C3_EDGES; q++)
        epos[z[C3_EP + q]] = (uint8_t)q;
    for (int p = 0; p < C3_CORNERS; p++) {
        int q = cpos[s[C3_CP + p]];
        t[C3_CP + p] = (uint8_t)q;
        t[C3_CO + p] = (uint8_t)((s[C3_CO + p] + 3 - z[C3_CO + q]) % 3);
    }
    for (int p = 0; p < C3_EDGES; p++) {
        int q = epos[s[C3_EP + p]];
        t[C3_EP + p] = (uint8_t)q;
        t[C3_EO + p] = s[C3_EO + p] ^ z[C3_EO + q];
    }
}

/* A solution of the inverse cube, reversed and each turn inverted, solves
 * the cube (and the other way round); a solution of a turned or mirrored
 * cube, each turn turned or mirrored alike, solves the cube. */
static void dom_c3_symmetric_path(const void *inst, uint32_t k, uint8_t *moves, int n)
{
    const c3 *c = inst;
    if (k & 1)
        for (int i = 0, j = n - 1; i <= j; i++, j--) {
            uint8_t a = moves[i] ^ 1, b = moves[j] ^ 1;
            moves[i] = b;
            moves[j] = a;
        }
    if (k / 2)
        for (int i = 0; i < n; i++)
            moves[i] = c->sym_move[k / 2][moves[i]];
}

static void dom_c3_destroy(void *inst)
{
    free(inst);
}

const dom_def dom_cube3_def = {
    .abi_version = DOM_ABI_VERSION,
    .struct_size = sizeof(dom_def),
    .name = "cube3",
    .summary = "Rubik's cube, quarter-turn metric (12 moves U U' R R' F F' D D' L L' B B')",
    .args_help = "none",
    .create = dom_c3_create,
    .destroy = dom_c3_destroy,
    .expand = dom_c3_expand,
    .apply = dom_c3_apply,
    .goal = dom_c3_goal,
    .is_goal = NULL,
    .encode = dom_c3_encode,
    .encode_delta = dom_c3_encode_delta,
    .random_state = dom_c3_random_state,
    .parse_state = dom_c3_parse_state,
    .format_state = dom_c3_format_state,
    .parse_moves = dom_c3_parse_moves,
    .heur_open = dom_c3_heur_open,
    .heur_eval = dom_c3_heur_eval,
    .heur_free = dom_c3_heur_free,
    .pattern_open = dom_c3_pattern_open,
    .symmetric = dom_c3_symmetric,
    .relative = dom_c3_relative,
    .symmetric_path = dom_c3_symmetric_path,
};
