/* Solution files (`piece rotation` per cell, row-major) and the independent
 * recount that `heurnet emp score` relies on: it trusts nothing the search
 * maintained, only the instance colours. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/emp/srch_em_int.h"

/* "piece rotation" with an optional trailing '#' comment: 1 with both
 * numbers, 0 for a blank or comment line, -1 when malformed. */
static int sol_line(const char *s, long *v)
{
    int k = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            return k == 0 ? 0 : k == 2 ? 1 : -1;
        char *end;
        errno = 0;
        long x = strtol(s, &end, 10);
        if (end == s || errno || k == 2 || (*end && !isspace((unsigned char)*end) && *end != '#'))
            return -1;
        v[k++] = x;
        s = end;
    }
}

static int sol_lines(const srch_em_inst *in, FILE *f, const char *path, int *piece, int *rot)
{
    char buf[1024];
    size_t len;
    int line = 0, cell = 0, got;
    long v[2];
    while ((got = hn_line_read(f, buf, sizeof buf, &len)) != 0) {
        line++;
        if (got < 0) {
            char why[128]; /* hn_fail must not read the buffer it writes */
            snprintf(why, sizeof why, "%s", hn_errmsg());
            return hn_fail(got, "%s: line %d: %s", path, line, why);
        }
        int k = sol_line(buf, v);
        if (k == 0)
            continue;
        if (k < 0)
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: expected 'piece rotation'", path, line);
        if (cell >= in->n)
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: more than %d cells for a %dx%d board", path,
                           line, in->n, in->w, in->h);
        if (v[0] < 0 || v[0] >= in->n || v[1] < 0 || v[1] > 3)
            return hn_fail(HN_ERR_FORMAT,
                           "%s: line %d: piece %ld (0..%d) or rotation %ld (0..3) "
                           "out of range",
                           path, line, v[0], in->n - 1, v[1]);
        piece[cell] = (int)v[0];
        rot[cell] = (int)v[1];
        cell++;
    }
    if (cell != in->n)
        return hn_fail(HN_ERR_FORMAT, "%s: line %d: %d cells, the %dx%d board needs %d", path, line,
                       cell, in->w, in->h, in->n);
    return HN_OK;
}

int srch_em_sol_read(const srch_em_inst *in, const char *path, int *piece, int *rot)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    int st = sol_lines(in, f, path, piece, rot);
    fclose(f);
    return st;
}

int srch_em_write_file(const char *path, void (*body)(FILE *f, const void *ctx), const void *ctx)
{
    char part[4096];
    int st = HN_OK, special = hn_path_is_special(path);
    FILE *f;
    if (special) { /* a device: in place, never renamed over */
        snprintf(part, sizeof part, "%s", path);
        if (!(f = fopen(part, "w")))
            return hn_fail(HN_ERR_IO, "%s: cannot open: %s", part, strerror(errno));
    } else if (!(f = hn_part_fopen(path, part, sizeof part, &st))) {
        return st;
    }
    body(f, ctx);
    int bad = ferror(f) || fflush(f) != 0, e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        if (!special)
            hn_part_discard(path);
        return hn_fail(HN_ERR_IO, "%s: write failed: %s", part, strerror(e));
    }
    return special ? HN_OK : hn_part_commit(path);
}

typedef struct {
    const srch_em_inst *in;
    const int *piece, *rot;
} em_sol_ctx;

static void sol_body(FILE *f, const void *ctx)
{
    const em_sol_ctx *c = ctx;
    for (int k = 0; k < c->in->n; k++)
        fprintf(f, "%d %d\n", c->piece[k], c->rot[k]);
}

int srch_em_sol_write(const srch_em_inst *in, const char *path, const int *piece, const int *rot)
{
    em_sol_ctx c = {.in = in, .piece = piece, .rot = rot};
    return srch_em_write_file(path, sol_body, &c);
}

static void note(char *msg, size_t cap, int *count, const char *fmt, ...)
{
    (*count)++;
    if (!msg || *count > 5)
        return;
    size_t len = strlen(msg);
    if (len + 2 >= cap)
        return;
    if (len) {
        msg[len++] = ';';
        msg[len++] = ' ';
        msg[len] = 0;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + len, cap - len, fmt, ap);
    va_end(ap);
}

int srch_em_sol_check(const srch_em_inst *in, const int *piece, const int *rot, int *violations,
                      char *msg, size_t cap)
{
    int bad = 0, score = 0;
    if (msg && cap)
        msg[0] = 0;
    char *seen = calloc((size_t)in->n, 1);
    if (!seen)
        note(msg, cap, &bad, "out of memory: duplicate pieces not checked");
    for (int c = 0; c < in->n; c++) {
        int p = piece[c], r = rot[c] & 3, row = c / in->w, col = c % in->w;
        if (p < 0 || p >= in->n) {
            note(msg, cap, &bad, "cell (%d,%d): piece %d out of range", row, col, p);
            continue;
        }
        if (seen && seen[p]++)
            note(msg, cap, &bad, "piece %d used twice (again at cell (%d,%d))", p, row, col);
        for (int s = 0; s < 4; s++) {
            int outside = in->nb[c * 4 + s] == in->n;
            int grey = srch_em_pc(in, p, r)[s] == 0;
            if (outside != grey) {
                note(msg, cap, &bad, "cell (%d,%d): piece %d rotation %d has %s side %s", row, col,
                     p, r, grey ? "a grey" : "a coloured",
                     outside ? "on the outside" : "inside the board");
                break;
            }
        }
        /* count each join once: east and south neighbours */
        for (int s = SRCH_EM_E; s <= SRCH_EM_S; s++) {
            int q = in->nb[c * 4 + s];
            if (q == in->n || piece[q] < 0 || piece[q] >= in->n)
                continue;
            int a = srch_em_pc(in, p, r)[s];
            int o = srch_em_pc(in, piece[q], rot[q] & 3)[(s + 2) & 3];
            score += a == o && a != 0;
        }
    }
    for (int k = 0; k < in->nclues; k++) {
        int c = in->clue_cell[k];
        if (piece[c] != in->clue_piece[k] || (rot[c] & 3) != in->clue_rot[k])
            note(msg, cap, &bad, "clue %d: cell (%d,%d) must hold piece %d rotation %d", k + 1,
                 c / in->w, c % in->w, in->clue_piece[k], in->clue_rot[k]);
    }
    free(seen);
    if (violations)
        *violations = bad;
    return score;
}
