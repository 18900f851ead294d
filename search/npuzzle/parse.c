/* Instance files: `[id [optimal]] t0 .. tn` per line, `#` comments. Every
 * bad line is reported (not only the first), with what is wrong. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/np_internal.h"

#define MAX_TOKENS (SRCH_NP_MAX_CELLS + 3)

/* Split at whitespace, stopping at '#'. Tokens point into `buf`. */
static int tokenize(char *buf, char **tok, int cap)
{
    char *hash = strchr(buf, '#');
    if (hash)
        *hash = '\0';
    int n = 0;
    char *save = NULL;
    for (char *s = strtok_r(buf, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
        if (n < cap)
            tok[n] = s;
        n++;
    }
    return n;
}

static int parse_int(const char *s, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return errno || end == s || *end ? -1 : 0;
}

int srch_np_parse_line(const char *line, int width, int goal, srch_np_instance *out)
{
    if (width < SRCH_NP_MIN_WIDTH || width > SRCH_NP_MAX_WIDTH)
        return hn_fail(HN_ERR_ARG, "board width %d not supported (3..5)", width);
    char buf[1024];
    if (strlen(line) >= sizeof buf)
        return hn_fail(HN_ERR_FORMAT, "line longer than %zu characters", sizeof buf - 1);
    strcpy(buf, line);
    char *tok[MAX_TOKENS];
    int n = width * width;
    int k = tokenize(buf, tok, MAX_TOKENS);
    if (k == 0)
        return 0;
    if (k < n || k > n + 2)
        return hn_fail(
            HN_ERR_FORMAT,
            "expected %d tiles (optionally after an id and an optimal length), found %d numbers", n,
            k);
    int first = k - n;
    memset(out, 0, sizeof *out);
    out->optimal = -1;
    if (first >= 1)
        snprintf(out->id, sizeof out->id, "%s", tok[0]);
    if (first == 2) {
        long v;
        if (parse_int(tok[1], &v) || v < 0 || v > 10000)
            return hn_fail(HN_ERR_FORMAT, "optimal length '%s' is not a non-negative integer",
                           tok[1]);
        out->optimal = (int)v;
    }
    uint8_t tiles[SRCH_NP_MAX_CELLS];
    for (int i = 0; i < n; i++) {
        long v;
        if (parse_int(tok[first + i], &v))
            return hn_fail(HN_ERR_FORMAT, "tile %d: '%s' is not a number", i + 1, tok[first + i]);
        if (v < 0 || v >= n)
            return hn_fail(HN_ERR_FORMAT, "tile %ld out of range 0..%d", v, n - 1);
        tiles[i] = (uint8_t)v;
    }
    int st = srch_np_board_set(&out->board, width, tiles);
    if (st)
        return st;
    if (!srch_np_board_solvable(&out->board, goal))
        return hn_fail(HN_ERR_UNSOLVABLE,
                       "unsolvable board: its permutation parity cannot reach the %s goal",
                       srch_np_goal_name(goal));
    return 1;
}

typedef struct {
    srch_np_instance *items;
    size_t n, cap;
} inst_list;

static int list_push(inst_list *l, const srch_np_instance *x)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        srch_np_instance *p = realloc(l->items, cap * sizeof *p);
        if (!p)
            return hn_fail(HN_ERR_NOMEM, "out of memory reading instances");
        l->items = p;
        l->cap = cap;
    }
    l->items[l->n++] = *x;
    return 0;
}

int srch_np_parse_file(const char *path, int width, int goal, srch_np_parse_err_fn err, void *user,
                       srch_np_instance **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    inst_list l = {0};
    char line[1024];
    size_t len;
    char first[600] = ""; /* the first bad line, for the summary */
    int lineno = 0, bad = 0, worst = 0, got;
    while ((got = hn_line_read(f, line, sizeof line, &len)) != 0 && got != HN_ERR_IO) {
        lineno++;
        srch_np_instance x;
        int st = got < 0 ? got : srch_np_parse_line(line, width, goal, &x);
        if (st < 0) {
            bad++;
            if (!worst || st == HN_ERR_FORMAT)
                worst = st;
            if (!first[0])
                snprintf(first, sizeof first, "line %d: %s", lineno, hn_errmsg());
            if (err) {
                char msg[1200];
                snprintf(msg, sizeof msg, "%s:%d: %s", path, lineno, hn_errmsg());
                err(msg, user);
            }
            continue;
        }
        if (st == 0)
            continue;
        x.line = lineno;
        if (!x.id[0])
            snprintf(x.id, sizeof x.id, "%zu", l.n + 1);
        if (list_push(&l, &x)) {
            free(l.items);
            fclose(f);
            return HN_ERR_NOMEM;
        }
    }
    fclose(f);
    if (got == HN_ERR_IO) {
        free(l.items);
        return hn_fail(HN_ERR_IO, "%s: line %d: read error", path, lineno + 1);
    }
    if (bad) {
        free(l.items);
        return hn_fail(worst, "%s: %d bad line%s (first: %s)", path, bad, bad == 1 ? "" : "s",
                       first);
    }
    *out = l.items;
    *n = l.n;
    return 0;
}
