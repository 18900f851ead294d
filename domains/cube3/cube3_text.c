/* Cube text: 54-letter facelet strings in Kociemba's order, Singmaster
 * scrambles (X, X', X2), and both on one line as DeepCubeA's test set
 * writes them. Every impossible cube is refused with what makes it so. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "domains/cube3/cube3_private.h"

__attribute__((format(printf, 3, 4))) static int fail(const c3 *c, int status, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return c->host->fail(status, msg);
}

int dom_c3_parity(const uint8_t *p, int n)
{
    int inv = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            inv += p[i] > p[j];
    return inv & 1;
}

static int face_of(char letter)
{
    const char *at = letter ? strchr(DOM_C3_FACES, letter) : NULL;
    return at ? (int)(at - DOM_C3_FACES) : -1;
}

/* ---- facelets and cubies ---- */

/* The corner at position i: its cubie and twist, or a status. */
static int read_corner(const c3 *c, const uint8_t *colour, int i, uint8_t *s)
{
    const uint8_t *fi = c->corner_facelet[i];
    char got[4] = {DOM_C3_FACES[colour[fi[0]]], DOM_C3_FACES[colour[fi[1]]],
                   DOM_C3_FACES[colour[fi[2]]], 0};
    int k = 0;
    while (k < 3 && colour[fi[k]] != 0 && colour[fi[k]] != 3)
        k++;
    if (k == 3)
        return fail(c, DOM_ERR_UNSOLVABLE, "the corner at %s has no U or D colour (%s)",
                    DOM_C3_CORNER_NAME[i], got);
    char want[4] = {got[k], got[(k + 1) % 3], got[(k + 2) % 3], 0};
    for (int j = 0; j < C3_CORNERS; j++)
        if (!strcmp(DOM_C3_CORNER_NAME[j], want)) {
            s[C3_CP + i] = (uint8_t)j;
            s[C3_CO + i] = (uint8_t)k;
            return 0;
        }
    return fail(c, DOM_ERR_UNSOLVABLE, "no corner has the colours %s (at %s)", want,
                DOM_C3_CORNER_NAME[i]);
}

static int read_edge(const c3 *c, const uint8_t *colour, int i, uint8_t *s)
{
    const uint8_t *fe = c->edge_facelet[i];
    char a = DOM_C3_FACES[colour[fe[0]]], b = DOM_C3_FACES[colour[fe[1]]];
    for (int j = 0; j < C3_EDGES; j++) {
        const char *n = DOM_C3_EDGE_NAME[j];
        if ((n[0] == a && n[1] == b) || (n[0] == b && n[1] == a)) {
            s[C3_EP + i] = (uint8_t)j;
            s[C3_EO + i] = n[0] != a;
            return 0;
        }
    }
    return fail(c, DOM_ERR_UNSOLVABLE, "no edge has the colours %c%c (at %s)", a, b,
                DOM_C3_EDGE_NAME[i]);
}

/* Each cubie once, twists and flips summing to 0, equal parities: the
 * conditions for a cube that turns back to solved. */
static int check_cubies(const c3 *c, const uint8_t *s)
{
    unsigned seen_c = 0, seen_e = 0;
    int twist = 0, flip = 0;
    for (int i = 0; i < C3_CORNERS; i++) {
        if (seen_c >> s[C3_CP + i] & 1)
            return fail(c, DOM_ERR_UNSOLVABLE, "corner %s appears twice",
                        DOM_C3_CORNER_NAME[s[C3_CP + i]]);
        seen_c |= 1u << s[C3_CP + i];
        twist += s[C3_CO + i];
    }
    for (int i = 0; i < C3_EDGES; i++) {
        if (seen_e >> s[C3_EP + i] & 1)
            return fail(c, DOM_ERR_UNSOLVABLE, "edge %s appears twice",
                        DOM_C3_EDGE_NAME[s[C3_EP + i]]);
        seen_e |= 1u << s[C3_EP + i];
        flip += s[C3_EO + i];
    }
    if (twist % 3)
        return fail(c, DOM_ERR_UNSOLVABLE, "a twisted corner: the twists sum to %d mod 3, not 0",
                    twist % 3);
    if (flip % 2)
        return fail(c, DOM_ERR_UNSOLVABLE, "a flipped edge: an odd number of edges are flipped");
    if (dom_c3_parity(s + C3_CP, C3_CORNERS) != dom_c3_parity(s + C3_EP, C3_EDGES))
        return fail(c, DOM_ERR_UNSOLVABLE,
                    "permutation parity: two cubies are swapped (corner and edge permutations "
                    "differ in parity)");
    return 0;
}

int dom_c3_read_cubies(const c3 *c, const uint8_t *colour, uint8_t *s)
{
    memset(s, 0, C3_STATE_BYTES);
    for (int i = 0; i < C3_CORNERS; i++) {
        int st = read_corner(c, colour, i, s);
        if (st)
            return st;
    }
    for (int i = 0; i < C3_EDGES; i++) {
        int st = read_edge(c, colour, i, s);
        if (st)
            return st;
    }
    return 0;
}

int dom_c3_from_facelets(const c3 *c, const uint8_t *colour, uint8_t *s)
{
    int st = dom_c3_read_cubies(c, colour, s);
    return st ? st : check_cubies(c, s);
}

void dom_c3_to_facelets(const c3 *c, const uint8_t *s, uint8_t *colour)
{
    for (int f = 0; f < 6; f++)
        colour[f * 9 + 4] = (uint8_t)f;
    for (int i = 0; i < C3_CORNERS; i++) {
        const char *name = DOM_C3_CORNER_NAME[s[C3_CP + i]];
        int k = s[C3_CO + i];
        for (int n = 0; n < 3; n++)
            colour[c->corner_facelet[i][(n + k) % 3]] = (uint8_t)face_of(name[n]);
    }
    for (int i = 0; i < C3_EDGES; i++) {
        const char *name = DOM_C3_EDGE_NAME[s[C3_EP + i]];
        int k = s[C3_EO + i];
        for (int n = 0; n < 2; n++)
            colour[c->edge_facelet[i][(n + k) % 2]] = (uint8_t)face_of(name[n]);
    }
}

/* 54 letters to a checked state. */
static int parse_facelets(const c3 *c, const char *text, uint8_t *s)
{
    uint8_t colour[C3_FACELETS];
    int count[6] = {0};
    for (int i = 0; i < C3_FACELETS; i++) {
        int f = face_of(text[i]);
        if (f < 0)
            return fail(c, DOM_ERR_FORMAT, "facelet %d (%c%d) is '%c', not one of URFDLB", i + 1,
                        DOM_C3_FACES[i / 9], i % 9 + 1, text[i]);
        colour[i] = (uint8_t)f;
        count[f]++;
    }
    for (int f = 0; f < 6; f++)
        if (count[f] != 9)
            return fail(c, DOM_ERR_UNSOLVABLE, "colour %c appears %d times, not 9", DOM_C3_FACES[f],
                        count[f]);
    for (int f = 0; f < 6; f++)
        if (colour[f * 9 + 4] != f)
            return fail(c, DOM_ERR_UNSOLVABLE,
                        "the centre of face %c is %c (centres are U R F D L B in Kociemba's order)",
                        DOM_C3_FACES[f], DOM_C3_FACES[colour[f * 9 + 4]]);
    return dom_c3_from_facelets(c, colour, s);
}

/* ---- Singmaster moves ---- */

static int is_move_sep(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '_';
}

/* One move token at s (len characters): the quarter turn and how many
 * times (1 or 2), or -1. X, X', X2, and X2' or X'2 (a half turn). */
static int read_token(const char *s, size_t len, int *times)
{
    int f = face_of(s[0]);
    if (f < 0 || len > 3)
        return -1;
    const char *suffix = s + 1;
    size_t n = len - 1;
    *times = 1;
    if (n == 0)
        return 2 * f;
    if (n == 1 && suffix[0] == '\'')
        return 2 * f + 1;
    if ((n == 1 && suffix[0] == '2') ||
        (n == 2 && (!strncmp(suffix, "2'", 2) || !strncmp(suffix, "'2", 2)))) {
        *times = 2;
        return 2 * f;
    }
    return -1;
}

/* Quarter turns of `text` (moves separated by blanks or '_') into
 * moves[0..cap): the count, or a status through host->fail. */
static int scan_moves(const c3 *c, const char *text, size_t len, uint8_t *moves, int cap)
{
    int n = 0;
    size_t i = 0;
    while (i < len) {
        if (is_move_sep(text[i])) {
            i++;
            continue;
        }
        size_t k = i;
        while (k < len && !is_move_sep(text[k]))
            k++;
        int times, m = read_token(text + i, k - i, &times);
        if (m < 0)
            return fail(c, DOM_ERR_FORMAT,
                        "'%.*s' at offset %zu is not a move (X, X' or X2, X in "
                        "URFDLB)",
                        (int)(k - i > 12 ? 12 : k - i), text + i, i);
        if (n + times > cap)
            return fail(c, DOM_ERR_ARG, "more than %d quarter turns", cap);
        for (int t = 0; t < times; t++)
            moves[n++] = (uint8_t)m;
        i = k;
    }
    return n;
}

int dom_c3_parse_moves(const void *inst, const char *text, uint8_t *moves, int cap)
{
    return scan_moves(inst, text, strlen(text), moves, cap);
}

static int apply_scramble(const c3 *c, const char *text, size_t len, uint8_t *s)
{
    uint8_t moves[C3_MAX_SCRAMBLE];
    int n = scan_moves(c, text, len, moves, C3_MAX_SCRAMBLE);
    if (n < 0)
        return n;
    if (n == 0)
        return fail(c, DOM_ERR_FORMAT, "no cube: expected 54 facelets or a scramble");
    dom_c3_solved(s);
    for (int i = 0; i < n; i++)
        dom_c3_apply(c, s, moves[i]);
    return 0;
}

/* ---- state lines ---- */

static int all_letters(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
            return 0;
    return 1;
}

/* FACELETS, SCRAMBLE, or FACELETS SCRAMBLE (which must agree). */
int dom_c3_parse_state(const void *inst, const char *text, void *state)
{
    const c3 *c = inst;
    while (*text == ' ' || *text == '\t')
        text++;
    size_t len = strlen(text);
    while (len && strchr(" \t\r\n", text[len - 1])) /* a CRLF file's line too */
        len--;
    size_t first = strcspn(text, " \t");
    if (first > len)
        first = len;
    if (first > 3 && first != C3_FACELETS && all_letters(text, first))
        return fail(c, DOM_ERR_FORMAT, "%zu facelet letters, expected 54", first);
    if (first != C3_FACELETS || !all_letters(text, first))
        return apply_scramble(c, text, len, state);
    int st = parse_facelets(c, text, state);
    if (st || first == len)
        return st;
    uint8_t scrambled[C3_STATE_BYTES];
    st = apply_scramble(c, text + first, len - first, scrambled);
    if (st)
        return st;
    if (memcmp(scrambled, state, C3_STATE_BYTES))
        return fail(c, DOM_ERR_FORMAT, "the facelets and the scramble give different cubes");
    return 0;
}

/* 1 when every cubie and twist of s is in range (the facelet tables can
 * be indexed by it); it may still be no reachable cube. */
static int in_range(const uint8_t *s)
{
    for (int i = 0; i < C3_CORNERS; i++)
        if (s[C3_CP + i] >= C3_CORNERS || s[C3_CO + i] >= 3)
            return 0;
    for (int i = 0; i < C3_EDGES; i++)
        if (s[C3_EP + i] >= C3_EDGES || s[C3_EO + i] >= 2)
            return 0;
    return 1;
}

int dom_c3_format_state(const void *inst, const void *state, char *buf, size_t cap)
{
    uint8_t colour[C3_FACELETS];
    /* bytes out of range (a caller's, not a state) give '?' facelets,
     * which the parser refuses */
    int ok = in_range(state);
    if (ok)
        dom_c3_to_facelets(inst, state, colour);
    for (size_t i = 0; i < C3_FACELETS && i + 1 < cap; i++)
        buf[i] = ok ? DOM_C3_FACES[colour[i]] : '?';
    if (cap)
        buf[cap > C3_FACELETS ? C3_FACELETS : cap - 1] = '\0';
    return C3_FACELETS;
}
