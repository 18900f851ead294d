/* State and move text of any domain, and instance files: lines of
 * `[id [length]] STATE` where STATE is whatever the domain's parser reads. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "domains/dom_private.h"

int dom_parse_state(const dom *d, const char *text, void *state)
{
    hn_error_clear();
    memset(state, 0, d->facts.state_bytes);
    unsigned long mark = dom_host_fail_mark();
    int st = d->def->parse_state(d->inst, text, state);
    if (st == 0)
        return 0;
    /* a plug-in may return a status without calling fail */
    if (st > 0 || dom_no_reason_since(mark))
        return hn_fail(st < 0 ? st : HN_ERR_FORMAT, "not a %s state", d->facts.canonical);
    return st;
}

int dom_format_state(const dom *d, const void *state, char *buf, size_t cap)
{
    return d->def->format_state(d->inst, state, buf, cap);
}

/* Length of the longest move name that starts s (0 when none does). */
static int match_move(const dom *d, const char *s, int *move)
{
    int best = 0;
    for (uint32_t m = 0; m < d->facts.nmoves; m++) {
        int n = (int)strlen(d->facts.move_name[m]);
        if (n > best && !strncmp(s, d->facts.move_name[m], (size_t)n)) {
            best = n;
            *move = (int)m;
        }
    }
    return best;
}

static int is_sep(const dom *d, char c)
{
    return isspace((unsigned char)c) || (d->facts.move_sep[0] && strchr(d->facts.move_sep, c));
}

int dom_parse_moves(const dom *d, const char *text, uint8_t *moves, int cap)
{
    if (d->def->parse_moves) {
        hn_error_clear();
        unsigned long mark = dom_host_fail_mark();
        int n = d->def->parse_moves(d->inst, text, moves, cap);
        if (n < 0 && dom_no_reason_since(mark))
            return hn_fail(HN_ERR_FORMAT, "not a %s move sequence", d->facts.canonical);
        return n;
    }
    int n = 0;
    const char *s = text;
    for (;;) {
        while (*s && is_sep(d, *s))
            s++;
        if (!*s)
            return n;
        int m = 0, len = match_move(d, s, &m);
        if (len == 0)
            return hn_fail(HN_ERR_FORMAT, "unknown move at '%.12s' (offset %d)", s,
                           (int)(s - text));
        if (n >= cap)
            return hn_fail(HN_ERR_LIMIT, "more than %d moves", cap);
        moves[n++] = (uint8_t)m;
        s += len;
        if (d->facts.move_sep[0] && *s && !is_sep(d, *s))
            return hn_fail(HN_ERR_FORMAT, "no separator after move %d at '%.12s'", n, s);
    }
}

int dom_format_moves(const dom *d, const uint8_t *moves, int n, char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        const char *name = moves[i] < d->facts.nmoves ? d->facts.move_name[moves[i]] : "?";
        int w = snprintf(used < cap ? buf + used : NULL, used < cap ? cap - used : 0, "%s%s",
                         i ? d->facts.move_sep : "", name);
        if (w < 0)
            return w;
        used += (size_t)w;
    }
    return (int)used;
}

int dom_replay(const dom *d, const void *start, const uint8_t *moves, int n)
{
    uint8_t s[DOM_MAX_STATE_BYTES];
    memcpy(s, start, d->facts.state_bytes);
    for (int i = 0; i < n; i++)
        if (!dom_apply(d, s, moves[i]))
            return hn_fail(HN_ERR_ARG, "move %d (%s) is illegal", i + 1,
                           moves[i] < d->facts.nmoves ? d->facts.move_name[moves[i]] : "?");
    return dom_is_goal(d, s);
}

/* ---- instance lines ---- */

/* Skip one blank-separated token; returns the rest (blanks skipped). */
static const char *skip_token(const char *s, char *tok, size_t cap)
{
    size_t n = strcspn(s, " \t");
    if (tok) {
        size_t k = n < cap ? n : cap - 1;
        memcpy(tok, s, k);
        tok[k] = '\0';
    }
    s += n;
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static int plain_int(const char *tok)
{
    return tok[0] && hn_number_plain(tok, 0, 0) && strlen(tok) < 10;
}

/* Blank-separated tokens in s. */
static int count_tokens(const char *s)
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s)
            n++;
        s += strcspn(s, " \t");
    }
    return n;
}

/* Tokens of the goal's text: where every state prints as that many (the
 * n-puzzle, the pancakes), a line's count tells whether it has an id and
 * a length, and so which reading's reason to report. */
static int state_tokens(const dom *d)
{
    char buf[8192];
    int n = dom_format_state(d, d->goal, buf, sizeof buf);
    return n > 0 && n < (int)sizeof buf ? count_tokens(buf) : 0;
}

/* 1 when the reason quotes the token ("'c1' is not a move"): the parser
 * stopped at it, so it is more likely an id than part of the state. */
static int quotes(const char *why, const char *tok)
{
    char q[70];
    snprintf(q, sizeof q, "'%s'", tok);
    return tok[0] && strstr(why, q) != NULL;
}

/* Which failed reading names the line's problem: the one whose state has
 * as many tokens as the domain's states (an id, or an id and a length,
 * before it); else the first whose reason does not quote the token it
 * begins with (the parser stopped at what is then an id); else the whole
 * line's, unless a shorter reading understood the state and found it
 * unsolvable. -1: the length field itself. */
static int pick_reason(const dom *d, const char *line, const char *tok1, const char *tok2,
                       const int *st, char why[][512], const char *const *tries)
{
    int t = state_tokens(d), n = count_tokens(line);
    if (t > 0 && n == t + 1 && tries[1])
        return 1;
    if (t > 0 && n == t + 2) {
        if (tries[2])
            return 2;
        /* "ID x STATE": x is no length, and no state either */
        uint8_t s[DOM_MAX_STATE_BYTES];
        if (dom_parse_state(d, tok2, s) != 0)
            return -1;
    }
    if (tries[1] && quotes(why[0], tok1))
        return tries[2] && quotes(why[1], tok2) ? 2 : 1;
    for (int k = 1; k < 3; k++)
        if (tries[k] && st[k] == HN_ERR_UNSOLVABLE && st[0] != HN_ERR_UNSOLVABLE)
            return k;
    return 0;
}

/* The first attempt that parses wins: the whole line, then without an id,
 * then without an id and a length. A line that fits none is reported with
 * the reason pick_reason chooses. */
int dom_parse_instance(const dom *d, const char *line, dom_instance_rec *out)
{
    while (*line == ' ' || *line == '\t')
        line++;
    if (!*line || *line == '#')
        return 0;
    char tok1[64], tok2[64];
    const char *rest1 = skip_token(line, tok1, sizeof tok1);
    const char *rest2 = *rest1 ? skip_token(rest1, tok2, sizeof tok2) : rest1;
    if (!*rest1)
        tok2[0] = '\0';
    const char *tries[3] = {line, *rest1 ? rest1 : NULL, plain_int(tok2) && *rest2 ? rest2 : NULL};
    char why[3][512] = {"", "", ""};
    int st[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (!tries[k])
            continue;
        st[k] = dom_parse_state(d, tries[k], out->state);
        if (st[k] == 0) {
            size_t idn = k ? strlen(tok1) : 0;
            if (idn >= sizeof out->id) /* then the line is no ID STATE */
                return hn_fail(st[0],
                               "%s (or, if '%.20s...' is an id, it is longer than %zu "
                               "characters)",
                               why[0], tok1, sizeof out->id - 1);
            memcpy(out->id, tok1, idn);
            out->id[idn] = '\0';
            out->length = k == 2 ? atoi(tok2) : -1;
            return 1;
        }
        snprintf(why[k], sizeof why[k], "%s", hn_errmsg());
    }
    int k = pick_reason(d, line, tok1, tok2, st, why, tries);
    if (k < 0)
        return hn_fail(HN_ERR_FORMAT,
                       "'%s' after the id '%.31s' is not a length (the optional field of whole "
                       "moves before the state)",
                       tok2, tok1);
    return hn_fail(st[k], "%s", why[k]);
}

static void default_err(const char *msg, void *user)
{
    (void)msg;
    (void)user;
}

static int read_lines(const dom *d, FILE *f, const char *path, void (*err)(const char *, void *),
                      void *user, dom_instance_rec **out, size_t *n, int *bad)
{
    char line[16384];
    size_t cap = 0, len;
    int lineno = 0, st;
    while ((st = hn_line_read(f, line, sizeof line, &len)) != 0) {
        lineno++;
        if (st == HN_ERR_IO)
            return hn_fail(HN_ERR_IO, "%s: read error at line %d (%s)", path, lineno, hn_errmsg());
        dom_instance_rec rec;
        int r = st < 0 ? st : dom_parse_instance(d, line, &rec);
        if (r < 0) {
            char msg[700];
            snprintf(msg, sizeof msg, "%s:%d: %s", path, lineno, hn_errmsg());
            err(msg, user);
            if (!*bad || r == HN_ERR_UNSOLVABLE)
                *bad = r;
            continue;
        }
        if (r == 0)
            continue;
        rec.line = lineno;
        if (!rec.id[0])
            snprintf(rec.id, sizeof rec.id, "%zu", *n + 1);
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            dom_instance_rec *p = realloc(*out, nc * sizeof *p);
            if (!p)
                return hn_fail(HN_ERR_NOMEM, "%s: out of memory at line %d", path, lineno);
            *out = p;
            cap = nc;
        }
        (*out)[(*n)++] = rec;
    }
    return 0;
}

int dom_read_instances(const dom *d, const char *path, void (*err)(const char *msg, void *user),
                       void *user, dom_instance_rec **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return hn_fail(HN_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return hn_fail(HN_ERR_IO, "%s is a directory, not an instance file", path);
    }
    int bad = 0;
    int st = read_lines(d, f, path, err ? err : default_err, user, out, n, &bad);
    fclose(f);
    if (st == 0 && bad)
        st = hn_fail(bad, "%s: bad lines (see above); no instance was read", path);
    if (st == 0 && *n == 0)
        st = hn_fail(HN_ERR_FORMAT, "%s: no instance in the file", path);
    if (st) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
}
