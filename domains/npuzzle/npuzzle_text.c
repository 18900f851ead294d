/* n-puzzle state lines: W*H numbers, the tiles row-major with 0 for the
 * blank, as in instances/npuzzle/ and search/npuzzle/parse.c. A line is
 * checked for count, range, repeats and solvability, each with its own
 * message. */
#include <stdio.h>
#include <string.h>

#include "domains/npuzzle/npuzzle.h"

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return s;
}

/* Read the numbers of a line into tiles (at most `cells`); returns how
 * many the line holds, or a status for a token that is not a number. */
static int read_numbers(const np_dom *in, const char *text, uint8_t *tiles)
{
    int n = 0;
    for (const char *s = skip_blanks(text); *s; s = skip_blanks(s)) {
        long v = 0;
        const char *start = s;
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (*s - '0');
            if (v > 1000)
                v = 1000; /* out of range anyway; no overflow */
            s++;
        }
        if (s == start || (*s && !strchr(" \t\r\n", *s)))
            return dom_np_fail(in, DOM_ERR_FORMAT, "'%.*s' is not a tile number",
                               (int)strcspn(start, " \t"), start);
        if (n < in->cells && v >= in->cells)
            return dom_np_fail(in, DOM_ERR_FORMAT, "tile %.*s out of range 0..%d",
                               (int)(s - start > 24 ? 24 : s - start), start, in->cells - 1);
        if (n < in->cells)
            tiles[n] = (uint8_t)v;
        n++;
    }
    return n;
}

int dom_np_parse_state(const void *inst, const char *text, void *state)
{
    const np_dom *in = inst;
    uint8_t *s = state;
    int n = read_numbers(in, text, s);
    if (n < 0)
        return n;
    if (n != in->cells)
        return dom_np_fail(in, DOM_ERR_FORMAT, "%d numbers where a %dx%d board has %d", n, in->w,
                           in->h, in->cells);
    uint64_t seen = 0;
    for (int c = 0; c < n; c++) {
        if (seen >> s[c] & 1)
            return dom_np_fail(in, DOM_ERR_FORMAT, "tile %d appears twice", s[c]);
        seen |= 1ull << s[c];
        if (s[c] == 0)
            s[n] = (uint8_t)c;
    }
    if (!dom_np_solvable(in, s, s[n]))
        return dom_np_fail(in, DOM_ERR_UNSOLVABLE,
                           "unsolvable for the goal %s: the permutation's parity differs from that "
                           "of the blank's distance to its goal cell",
                           in->blank_last ? "1 2 .. 0 (blank-last)" : "0 1 2 .. (blank-first)");
    return 0;
}

int dom_np_format_state(const void *inst, const void *state, char *buf, size_t cap)
{
    const np_dom *in = inst;
    const uint8_t *s = state;
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (int c = 0; c < in->cells; c++) {
        int w = snprintf(used < cap ? buf + used : NULL, used < cap ? cap - used : 0, "%s%d",
                         c ? " " : "", s[c]);
        used += (size_t)w;
    }
    return (int)used;
}
