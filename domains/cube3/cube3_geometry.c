/* The cube's geometry, computed once per instance instead of typed in:
 * every facelet gets a position and a normal in 3-D, a quarter turn is a
 * rotation of one layer, and the cubie-level turn tables follow from what a
 * rotation does to the solved cube's facelets. Typed tables of 54 entries
 * are where cube programs hide their bugs; a rotation matrix has none. */
#include <string.h>

#include "domains/cube3/cube3_private.h"

const char DOM_C3_FACES[7] = "URFDLB";
/* Each name lists its faces clockwise, the U or D face first (Kociemba's
 * corner and edge order). */
const char *const DOM_C3_CORNER_NAME[C3_CORNERS] = {"URF", "UFL", "ULB", "UBR",
                                                    "DFR", "DLF", "DBL", "DRB"};
const char *const DOM_C3_EDGE_NAME[C3_EDGES] = {"UR", "UF", "UL", "UB", "DR", "DF",
                                                "DL", "DB", "FR", "FL", "BL", "BR"};

/* Outward normals of U R F D L B: x to the right, y up, z to the front. */
static const int NORMAL[6][3] = {{0, 1, 0},  {1, 0, 0},  {0, 0, 1},
                                 {0, -1, 0}, {-1, 0, 0}, {0, 0, -1}};

/* Where facelet (face, row, column) sits, each face read as seen from
 * outside: U with B at the top, D with F at the top, the sides with U at
 * the top (Kociemba's layout). */
static void facelet_position(int face, int r, int c, int *p)
{
    int a = c - 1, b = 1 - r;
    switch (face) {
    case 0:
        p[0] = a, p[1] = 1, p[2] = r - 1;
        break; /* U */
    case 1:
        p[0] = 1, p[1] = b, p[2] = 1 - c;
        break; /* R */
    case 2:
        p[0] = a, p[1] = b, p[2] = 1;
        break; /* F */
    case 3:
        p[0] = a, p[1] = -1, p[2] = 1 - r;
        break; /* D */
    case 4:
        p[0] = -1, p[1] = b, p[2] = c - 1;
        break; /* L */
    default:
        p[0] = 1 - c, p[1] = b, p[2] = -1;
        break; /* B */
    }
}

static int face_of_normal(const int *n)
{
    for (int f = 0; f < 6; f++)
        if (!memcmp(NORMAL[f], n, sizeof NORMAL[f]))
            return f;
    return -1;
}

/* The facelet on `face` at position p, or -1. */
static int facelet_at(int face, const int *p)
{
    for (int i = 0; i < 9; i++) {
        int q[3];
        facelet_position(face, i / 3, i % 3, q);
        if (!memcmp(p, q, sizeof q))
            return face * 9 + i;
    }
    return -1;
}

/* v rotated a quarter turn about the unit axis n: clockwise as seen from
 * outside along n (sign 1) or counterclockwise (sign -1):
 * n (n.v) - sign * (n x v). */
static void rotate(const int *n, int sign, const int *v, int *out)
{
    int dot = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
    int cross[3] = {n[1] * v[2] - n[2] * v[1], n[2] * v[0] - n[0] * v[2],
                    n[0] * v[1] - n[1] * v[0]};
    for (int k = 0; k < 3; k++)
        out[k] = n[k] * dot - sign * cross[k];
}

static void facelet_turns(c3 *c)
{
    for (int m = 0; m < C3_MOVES; m++) {
        const int *n = NORMAL[m / 2];
        int sign = m % 2 ? -1 : 1;
        for (int i = 0; i < C3_FACELETS; i++)
            c->facelet_turn[m][i] = (uint8_t)i;
        for (int i = 0; i < C3_FACELETS; i++) {
            int p[3], q[3], nq[3];
            facelet_position(i / 9, i % 9 / 3, i % 3, p);
            if (p[0] * n[0] + p[1] * n[1] + p[2] * n[2] != 1)
                continue; /* not in the turning layer */
            rotate(n, sign, p, q);
            rotate(n, sign, NORMAL[i / 9], nq);
            c->facelet_turn[m][facelet_at(face_of_normal(nq), q)] = (uint8_t)i;
        }
    }
}

static int face_index(char letter)
{
    return (int)(strchr(DOM_C3_FACES, letter) - DOM_C3_FACES);
}

/* The facelets of the cubie named `name` (2 or 3 face letters). */
static void cubie_facelets(const char *name, int len, uint8_t *out)
{
    int p[3] = {0, 0, 0};
    for (int k = 0; k < len; k++)
        for (int j = 0; j < 3; j++)
            p[j] += NORMAL[face_index(name[k])][j];
    for (int k = 0; k < len; k++)
        out[k] = (uint8_t)facelet_at(face_index(name[k]), p);
}

/* The cubie-level turn: the solved cube turned, read back as cubies. */
static void cubie_turns(c3 *c)
{
    for (int m = 0; m < C3_MOVES; m++) {
        uint8_t colour[C3_FACELETS], s[C3_STATE_BYTES];
        for (int i = 0; i < C3_FACELETS; i++)
            colour[i] = (uint8_t)(c->facelet_turn[m][i] / 9);
        dom_c3_from_facelets(c, colour, s);
        dom_c3_turn *t = &c->turn[m];
        int nc = 0, ne = 0;
        for (int i = 0; i < C3_CORNERS; i++)
            if (s[C3_CP + i] != i && nc < 4) {
                t->cpos[nc] = (uint8_t)i;
                t->csrc[nc] = s[C3_CP + i];
                t->ctwist[nc++] = s[C3_CO + i];
            }
        for (int i = 0; i < C3_EDGES; i++)
            if (s[C3_EP + i] != i && ne < 4) {
                t->epos[ne] = (uint8_t)i;
                t->esrc[ne] = s[C3_EP + i];
                t->eflip[ne++] = s[C3_EO + i];
            }
    }
}

/* Breadth-first distances of one cubie over its 24 (position, twist or
 * flip) placements; `twists` is 3 for corners, 2 for edges. */
static void cubie_distances(const c3 *c, int cubie, int twists, uint8_t *dist)
{
    memset(dist, 255, 24);
    int queue[24], head = 0, tail = 0;
    dist[cubie * twists] = 0;
    queue[tail++] = cubie * twists;
    while (head < tail) {
        int at = queue[head++], pos = at / twists, tw = at % twists;
        for (int m = 0; m < C3_MOVES; m++)
            for (int k = 0; k < 4; k++) {
                const dom_c3_turn *t = &c->turn[m];
                int src = twists == 3 ? t->csrc[k] : t->esrc[k];
                if (src != pos)
                    continue;
                int add = twists == 3 ? t->ctwist[k] : t->eflip[k];
                int to = (twists == 3 ? t->cpos[k] : t->epos[k]) * twists + (tw + add) % twists;
                if (dist[to] == 255) {
                    dist[to] = (uint8_t)(dist[at] + 1);
                    queue[tail++] = to;
                }
            }
    }
}

/* The proper rotations that are their own inverse: the identity, half
 * turns about the x, y and z axes and about the 6 edge axes. With each one's
 * negative (a mirror plane, or the point reflection for -identity) they
 * are the 20 symmetries of the cube that undo themselves, which is what a
 * map of a search's start needs (a path is brought back by the same map).
 * Row-major 3 x 3. */
static const int8_t HALF_TURN[10][9] = {
    {1, 0, 0, 0, 1, 0, 0, 0, 1},   {1, 0, 0, 0, -1, 0, 0, 0, -1},  {-1, 0, 0, 0, 1, 0, 0, 0, -1},
    {-1, 0, 0, 0, -1, 0, 0, 0, 1}, {0, 1, 0, 1, 0, 0, 0, 0, -1},   {0, -1, 0, -1, 0, 0, 0, 0, -1},
    {0, 0, 1, 0, -1, 0, 1, 0, 0},  {0, 0, -1, 0, -1, 0, -1, 0, 0}, {-1, 0, 0, 0, 0, 1, 0, 1, 0},
    {-1, 0, 0, 0, 0, -1, 0, -1, 0}};
/* Symmetry j as (half turn, sign): the identity, the L-R mirror, the half
 * turn about U-D, the F-B mirror, the other face-axis maps, then the edge
 * axes and the diagonal planes (a beam's --variants takes the first maps). */
static const int8_t SYM_ORDER[C3_SYMS][2] = {
    {0, 1}, {1, -1}, {2, 1}, {3, -1}, {1, 1},  {3, 1},  {2, -1}, {0, -1}, {4, 1},  {5, 1},
    {6, 1}, {7, 1},  {8, 1}, {9, 1},  {4, -1}, {5, -1}, {6, -1}, {7, -1}, {8, -1}, {9, -1}};

static void transform(int j, const int *v, int *out)
{
    const int8_t *m = HALF_TURN[SYM_ORDER[j][0]];
    for (int r = 0; r < 3; r++)
        out[r] = SYM_ORDER[j][1] * (m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2]);
}

/* The position (of `n` corners or edges, `width` facelets each, row-major)
 * that holds facelet f. */
static int position_of(const uint8_t *facelets, int n, int width, int f)
{
    for (int p = 0; p < n; p++)
        for (int k = 0; k < width; k++)
            if (facelets[p * width + k] == f)
                return p;
    return -1;
}

/* Symmetry j of every position holding one placement (cubie c with twist t
 * everywhere: no cube, but each position reads on its own): the facelets
 * moved by the symmetry, the colours renamed by where it takes the centres,
 * and each position read back. */
static void image_of_placement(const c3 *c, const uint8_t *facelet, const uint8_t *face, int corner,
                               int cubie, int t, uint8_t *out)
{
    uint8_t x[C3_STATE_BYTES], colour[C3_FACELETS], moved[C3_FACELETS];
    memset(x, 0, sizeof x);
    memset(x + (corner ? C3_CP : C3_EP), cubie, corner ? C3_CORNERS : C3_EDGES);
    memset(x + (corner ? C3_CO : C3_EO), t, corner ? C3_CORNERS : C3_EDGES);
    dom_c3_to_facelets(c, x, colour);
    for (int i = 0; i < C3_FACELETS; i++)
        moved[facelet[i]] = face[colour[i]];
    dom_c3_read_cubies(c, moved, out); /* an image of a cubie is a cubie: no failure */
}

/* Symmetry j's cubie tables, read off what it does to the facelets. */
static void symmetry_cubies(c3 *c, int j, const uint8_t *facelet, const uint8_t *face)
{
    uint8_t y[C3_STATE_BYTES];
    for (int p = 0; p < C3_CORNERS; p++)
        c->sym_cfrom[j][position_of(c->corner_facelet[0], C3_CORNERS, 3,
                                    facelet[c->corner_facelet[p][0]])] = (uint8_t)p;
    for (int p = 0; p < C3_EDGES; p++)
        c->sym_efrom[j][position_of(c->edge_facelet[0], C3_EDGES, 2,
                                    facelet[c->edge_facelet[p][0]])] = (uint8_t)p;
    for (int v = 0; v < C3_CORNERS * 3; v++) {
        image_of_placement(c, facelet, face, 1, v / 3, v % 3, y);
        for (int p = 0; p < C3_CORNERS; p++)
            c->sym_corner[j][p][v] = (uint8_t)(y[C3_CP + p] * 3 + y[C3_CO + p]);
    }
    for (int v = 0; v < C3_EDGES * 2; v++) {
        image_of_placement(c, facelet, face, 0, v / 2, v % 2, y);
        for (int p = 0; p < C3_EDGES; p++)
            c->sym_edge[j][p][v] = (uint8_t)(y[C3_EP + p] * 2 + y[C3_EO + p]);
    }
}

/* Each symmetry as a facelet permutation and a face renaming, from which
 * the turn renaming (a mirror, sign -1, turns clockwise into
 * counterclockwise) and the cubie tables follow. */
static void symmetries(c3 *c)
{
    for (int j = 0; j < C3_SYMS; j++) {
        uint8_t face[6], facelet[C3_FACELETS];
        for (int f = 0; f < 6; f++) {
            int n[3];
            transform(j, NORMAL[f], n);
            face[f] = (uint8_t)face_of_normal(n);
        }
        for (int i = 0; i < C3_FACELETS; i++) {
            int p[3], q[3];
            facelet_position(i / 9, i % 9 / 3, i % 3, p);
            transform(j, p, q);
            facelet[i] = (uint8_t)facelet_at(face[i / 9], q);
        }
        for (int m = 0; m < C3_MOVES; m++)
            c->sym_move[j][m] = (uint8_t)(2 * face[m / 2] + ((m & 1) ^ (SYM_ORDER[j][1] < 0)));
        symmetry_cubies(c, j, facelet, face);
    }
}

void dom_c3_conjugate(const c3 *c, int j, const uint8_t *s, uint8_t *out)
{
    for (int p = 0; p < C3_CORNERS; p++) {
        int q = c->sym_cfrom[j][p], v = c->sym_corner[j][p][s[C3_CP + q] * 3 + s[C3_CO + q]];
        out[C3_CP + p] = (uint8_t)(v / 3);
        out[C3_CO + p] = (uint8_t)(v % 3);
    }
    for (int p = 0; p < C3_EDGES; p++) {
        int q = c->sym_efrom[j][p], v = c->sym_edge[j][p][s[C3_EP + q] * 2 + s[C3_EO + q]];
        out[C3_EP + p] = (uint8_t)(v / 2);
        out[C3_EO + p] = (uint8_t)(v % 2);
    }
}

void dom_c3_geometry_init(c3 *c)
{
    for (int i = 0; i < C3_CORNERS; i++)
        cubie_facelets(DOM_C3_CORNER_NAME[i], 3, c->corner_facelet[i]);
    for (int i = 0; i < C3_EDGES; i++)
        cubie_facelets(DOM_C3_EDGE_NAME[i], 2, c->edge_facelet[i]);
    facelet_turns(c);
    cubie_turns(c);
    symmetries(c);
    for (int j = 0; j < C3_CORNERS; j++)
        cubie_distances(c, j, 3, c->corner_dist[j]);
    for (int j = 0; j < C3_EDGES; j++)
        cubie_distances(c, j, 2, c->edge_dist[j]);
}
