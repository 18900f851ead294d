/* Edge-matching instances: building the rotation colour table and the frame
 * classes, reading the META and e2pieces formats with per-line errors,
 * generating solvable instances, clues, and which files are benchmarks. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "search/emp/srch_em_int.h"

#define EM_MAX_SIDE 64
#define EM_MAX_COLOUR 255

void srch_em_inst_free(srch_em_inst *inst)
{
    if (!inst)
        return;
    free(inst->col);
    free(inst->pclass);
    free(inst->pgrey);
    free(inst->cclass);
    free(inst->cout);
    free(inst->nb);
    free(inst);
}

static int cell_class_of(int w, int h, int r, int c, int *out_side)
{
    int top = r == 0, bottom = r == h - 1, left = c == 0, right = c == w - 1;
    int k = top + bottom + left + right;
    /* first outward side going clockwise (N E S W) */
    if (top && left)
        *out_side = SRCH_EM_W;
    else if (top && right)
        *out_side = SRCH_EM_N;
    else if (bottom && right)
        *out_side = SRCH_EM_E;
    else if (bottom && left)
        *out_side = SRCH_EM_S;
    else if (top)
        *out_side = SRCH_EM_N;
    else if (right)
        *out_side = SRCH_EM_E;
    else if (bottom)
        *out_side = SRCH_EM_S;
    else if (left)
        *out_side = SRCH_EM_W;
    else
        *out_side = 0;
    return k;
}

static int build_geometry(srch_em_inst *in)
{
    int n = in->n;
    in->cclass = malloc((size_t)n);
    in->cout = malloc((size_t)n);
    in->nb = malloc(sizeof(int) * 4 * (size_t)n);
    if (!in->cclass || !in->cout || !in->nb)
        return hn_fail(HN_ERR_NOMEM, "out of memory for a %dx%d board", in->w, in->h);
    for (int r = 0; r < in->h; r++)
        for (int c = 0; c < in->w; c++) {
            int cell = r * in->w + c, side;
            in->cclass[cell] = (uint8_t)cell_class_of(in->w, in->h, r, c, &side);
            in->cout[cell] = (uint8_t)side;
            in->nb[cell * 4 + SRCH_EM_N] = r > 0 ? cell - in->w : n;
            in->nb[cell * 4 + SRCH_EM_E] = c < in->w - 1 ? cell + 1 : n;
            in->nb[cell * 4 + SRCH_EM_S] = r < in->h - 1 ? cell + in->w : n;
            in->nb[cell * 4 + SRCH_EM_W] = c > 0 ? cell - 1 : n;
        }
    return HN_OK;
}

/* Classify piece p from its rot-0 colours; line > 0 names the file line. */
static int classify_piece(srch_em_inst *in, int p, const char *what, int line)
{
    const uint8_t *c = srch_em_pc(in, p, 0);
    int ng = 0, first = -1;
    for (int s = 0; s < 4; s++)
        ng += c[s] == 0;
    if (ng > 2)
        return hn_fail(HN_ERR_FORMAT, "%s: line %d: piece %d has %d grey sides (at most 2)", what,
                       line, p, ng);
    if (ng == 2) {
        for (int s = 0; s < 4; s++)
            if (c[s] == 0 && c[(s + 1) & 3] == 0)
                first = s;
        if (first < 0)
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: piece %d has grey on opposite sides", what,
                           line, p);
    } else if (ng == 1) {
        for (int s = 0; s < 4; s++)
            if (c[s] == 0)
                first = s;
    }
    in->pclass[p] = (uint8_t)ng;
    in->pgrey[p] = (uint8_t)(first < 0 ? 0 : first);
    return HN_OK;
}

/* The frame needs exactly 4 corners, 2(W-2)+2(H-2) edges and the rest inner. */
static int check_counts(const srch_em_inst *in, const char *what, const int *lines)
{
    int want[3] = {(in->w - 2) * (in->h - 2), 2 * (in->w - 2) + 2 * (in->h - 2), 4};
    const char *name[3] = {"inner (no grey)", "edge (one grey side)", "corner (two grey sides)"};
    int have[3] = {0, 0, 0};
    for (int p = 0; p < in->n; p++) {
        int k = in->pclass[p];
        if (++have[k] > want[k])
            return hn_fail(HN_ERR_FORMAT,
                           "%s: line %d: one %s piece too many for a %dx%d board "
                           "(expected %d); the size does not match the pieces' grey sides",
                           what, lines ? lines[p] : p + 1, name[k], in->w, in->h, want[k]);
    }
    return HN_OK;
}

srch_em_inst *srch_em_inst_from_colours_lines(int w, int h, const int *nesw, const char *what,
                                              const int *lines, int *status);

srch_em_inst *srch_em_inst_from_colours_lines(int w, int h, const int *nesw, const char *what,
                                              const int *lines, int *status)
{
    int st = HN_OK;
    srch_em_inst *in = NULL;
    if (w < 2 || h < 2 || w > EM_MAX_SIDE || h > EM_MAX_SIDE || ((w == 2) != (h == 2))) {
        st = hn_fail(HN_ERR_FORMAT, "%s: board %dx%d not supported (sides 3..%d, or 2x2)", what, w,
                     h, EM_MAX_SIDE);
        goto out;
    }
    in = calloc(1, sizeof *in);
    if (!in) {
        st = hn_fail(HN_ERR_NOMEM, "out of memory");
        goto out;
    }
    in->w = w;
    in->h = h;
    in->n = w * h;
    in->col = calloc(((size_t)in->n + 1) * 16, 1);
    in->pclass = calloc((size_t)in->n + 1, 1);
    in->pgrey = calloc((size_t)in->n + 1, 1);
    if (!in->col || !in->pclass || !in->pgrey) {
        st = hn_fail(HN_ERR_NOMEM, "out of memory for %d pieces", in->n);
        goto out;
    }
    for (int p = 0; p < in->n; p++) {
        for (int s = 0; s < 4; s++) {
            int v = nesw[p * 4 + s];
            if (v < 0 || v > EM_MAX_COLOUR) {
                st = hn_fail(HN_ERR_FORMAT, "%s: line %d: colour %d out of range 0..%d", what,
                             lines ? lines[p] : p + 1, v, EM_MAX_COLOUR);
                goto out;
            }
            if (v + 1 > in->ncol)
                in->ncol = v + 1;
        }
        for (int r = 0; r < 4; r++)
            for (int s = 0; s < 4; s++)
                in->col[((size_t)p * 4 + r) * 4 + s] = (uint8_t)nesw[p * 4 + ((s - r + 4) & 3)];
        if ((st = classify_piece(in, p, what, lines ? lines[p] : p + 1)) != HN_OK)
            goto out;
    }
    if ((st = build_geometry(in)) != HN_OK || (st = check_counts(in, what, lines)) != HN_OK)
        goto out;
out:
    if (st != HN_OK) {
        srch_em_inst_free(in);
        in = NULL;
    }
    if (status)
        *status = st;
    return in;
}

srch_em_inst *srch_em_inst_from_colours(int w, int h, const int *nesw, const char *what,
                                        int *status)
{
    return srch_em_inst_from_colours_lines(w, h, nesw, what, NULL, status);
}

/* ---- reading ------------------------------------------------------------ */

/* Split a line into integers; returns the count or -1 on a bad token. */
static int parse_ints(char *line, long *v, int cap, char **bad)
{
    int k = 0;
    char *s = line;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#')
            return k;
        char *end;
        errno = 0;
        long x = strtol(s, &end, 10);
        if (end == s || errno || (*end && !isspace((unsigned char)*end) && *end != '#')) {
            *bad = s;
            return -1;
        }
        if (k < cap)
            v[k] = x;
        k++;
        s = end;
    }
}

typedef struct {
    FILE *f;
    const char *path;
    int line;
    char buf[4096];
} em_reader;

/* Next non-blank, non-comment line; 1 if found, 0 at EOF, <0 on error. */
static int next_line(em_reader *rd, long *v, int cap, int *count)
{
    size_t n;
    int got;
    while ((got = hn_line_read(rd->f, rd->buf, sizeof rd->buf, &n)) != 0) {
        rd->line++;
        if (got < 0) {
            char why[128]; /* hn_fail must not read the buffer it writes */
            snprintf(why, sizeof why, "%s", hn_errmsg());
            return hn_fail(got, "%s: line %d: %s", rd->path, rd->line, why);
        }
        char *bad = NULL;
        int k = parse_ints(rd->buf, v, cap, &bad);
        if (k < 0) {
            size_t len = strcspn(bad, " \t\r\n");
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: '%.*s' is not a whole number", rd->path,
                           rd->line, (int)(len > 20 ? 20 : len), bad);
        }
        if (k == 0)
            continue;
        *count = k;
        return 1;
    }
    return 0;
}

/* Infer W x H from the grey counts of e2pieces files without a header. */
static int infer_size(const int *nesw, int n, int *w, int *h)
{
    int edges = 0;
    for (int p = 0; p < n; p++) {
        int g = 0;
        for (int s = 0; s < 4; s++)
            g += nesw[p * 4 + s] == 0;
        edges += g == 1;
    }
    /* 2(W-2) + 2(H-2) = edges and W*H = n */
    for (int a = 2; a <= EM_MAX_SIDE; a++) {
        int b = (edges + 8) / 2 - a;
        if (a * b == n && a >= b && (b >= 3 || (a == 2 && b == 2))) {
            *w = a;
            *h = b;
            return 0;
        }
    }
    return -1;
}

/* What a file has given so far. */
typedef struct {
    int format, w, h, n, cap, nhint;
    int *nesw, *lines;
    int hints[SRCH_EM_MAX_CLUES][5]; /* piece row col rot (1-based), line */
} em_read;

/* The hint-count line of an e2pieces file and its `piece row col rot` lines. */
static int read_hints(em_reader *rd, em_read *r, long count)
{
    long v[8];
    int k, got;
    if (count < 0 || count > SRCH_EM_MAX_CLUES)
        return hn_fail(HN_ERR_FORMAT, "%s: line %d: hint count %ld out of range 0..%d", rd->path,
                       rd->line, count, SRCH_EM_MAX_CLUES);
    r->nhint = (int)count;
    for (int i = 0; i < r->nhint; i++) {
        if ((got = next_line(rd, v, 8, &k)) <= 0 || k != 4)
            return got < 0
                       ? got
                       : hn_fail(HN_ERR_FORMAT,
                                 "%s: line %d: expected hint %d of %d as 'piece row col rotation'",
                                 rd->path, rd->line, i + 1, r->nhint);
        /* 1-based piece, row and column; rotation 0..3 (checked against the
         * board later, but first kept inside int without wrapping) */
        static const long hi[4] = {EM_MAX_SIDE * EM_MAX_SIDE, EM_MAX_SIDE, EM_MAX_SIDE, 3};
        static const char *const name[4] = {"piece", "row", "column", "rotation"};
        for (int j = 0; j < 4; j++) {
            long lo = j == 3 ? 0 : 1;
            if (v[j] < lo || v[j] > hi[j])
                return hn_fail(HN_ERR_FORMAT, "%s: line %d: hint %s %ld out of range %ld..%ld",
                               rd->path, rd->line, name[j], v[j], lo, hi[j]);
            r->hints[i][j] = (int)v[j];
        }
        r->hints[i][4] = rd->line;
    }
    return HN_OK;
}

static int read_piece(em_reader *rd, em_read *r, const long *v, int k)
{
    if (k != 4 || r->nhint >= 0)
        return hn_fail(HN_ERR_FORMAT, "%s: line %d: expected 4 colours (%s), got %d numbers",
                       rd->path, rd->line,
                       r->format == SRCH_EM_FORMAT_META ? "bottom left top right"
                                                        : "top right bottom left",
                       k);
    if (r->n >= r->cap)
        return hn_fail(HN_ERR_FORMAT, "%s: line %d: more than %d pieces (header says %dx%d)",
                       rd->path, rd->line, r->cap, r->w, r->h);
    for (int s = 0; s < 4; s++) {
        if (v[s] < 0 || v[s] > EM_MAX_COLOUR)
            return hn_fail(HN_ERR_FORMAT, "%s: line %d: colour %ld out of range 0..%d", rd->path,
                           rd->line, v[s], EM_MAX_COLOUR);
        /* META: bottom left top right -> N E S W; e2pieces: already N E S W */
        int side = r->format == SRCH_EM_FORMAT_META ? (s + 2) & 3 : s;
        r->nesw[r->n * 4 + side] = (int)v[s];
    }
    r->lines[r->n++] = rd->line;
    return HN_OK;
}

/* Header (META always, e2pieces optionally) and every piece line. */
static int read_lines(em_reader *rd, em_read *r)
{
    long v[8];
    int k, got = next_line(rd, v, 8, &k), st = HN_OK;
    if (got <= 0)
        return got < 0 ? got : hn_fail(HN_ERR_FORMAT, "%s: empty file", rd->path);
    if (r->format == SRCH_EM_FORMAT_META || k == 2) {
        if (k != 2 || v[0] < 2 || v[1] < 2 || v[0] > EM_MAX_SIDE || v[1] > EM_MAX_SIDE)
            return hn_fail(HN_ERR_FORMAT,
                           "%s: line %d: expected the header 'W H' (2..%d), got %d numbers",
                           rd->path, rd->line, EM_MAX_SIDE, k);
        r->w = (int)v[0];
        r->h = (int)v[1];
        got = next_line(rd, v, 8, &k);
    }
    r->cap = r->w ? r->w * r->h : EM_MAX_SIDE * EM_MAX_SIDE;
    r->nesw = malloc(sizeof(int) * 4 * (size_t)r->cap);
    r->lines = malloc(sizeof(int) * (size_t)r->cap);
    if (!r->nesw || !r->lines)
        return hn_fail(HN_ERR_NOMEM, "out of memory reading %s", rd->path);
    for (; got > 0 && st == HN_OK; got = st == HN_OK ? next_line(rd, v, 8, &k) : 0) {
        if (r->format == SRCH_EM_FORMAT_E2 && k == 1 && r->nhint < 0)
            st = read_hints(rd, r, v[0]);
        else
            st = read_piece(rd, r, v, k);
    }
    return st != HN_OK ? st : got < 0 ? got : HN_OK;
}

static srch_em_inst *read_file(em_reader *rd, int format, int *status)
{
    em_read r = {.format = format, .nhint = -1};
    srch_em_inst *in = NULL;
    int st = read_lines(rd, &r);
    if (st == HN_OK && !r.w && infer_size(r.nesw, r.n, &r.w, &r.h) < 0)
        st = hn_fail(HN_ERR_FORMAT, "%s: %d pieces: no W x H board fits their grey sides", rd->path,
                     r.n);
    if (st == HN_OK && r.n != r.w * r.h)
        st = hn_fail(HN_ERR_FORMAT, "%s: line %d: %d pieces, but the board %dx%d needs %d",
                     rd->path, rd->line, r.n, r.w, r.h, r.w * r.h);
    if (st == HN_OK)
        in = srch_em_inst_from_colours_lines(r.w, r.h, r.nesw, rd->path, r.lines, &st);
    for (int i = 0; in && i < r.nhint; i++)
        if (srch_em_inst_add_clue(in, r.hints[i][0] - 1, r.hints[i][1] - 1, r.hints[i][2] - 1,
                                  r.hints[i][3]) != HN_OK) {
            char why[256]; /* hn_fail must not read the buffer it writes */
            snprintf(why, sizeof why, "%s", hn_errmsg());
            st = hn_fail(HN_ERR_FORMAT, "%s: line %d: bad hint: %s", rd->path, r.hints[i][4], why);
            srch_em_inst_free(in);
            in = NULL;
        }
    free(r.nesw);
    free(r.lines);
    if (status)
        *status = in ? HN_OK : st;
    return in;
}

srch_em_inst *srch_em_inst_read(const char *path, int format, int *status)
{
    em_reader rd = {.path = path};
    if (format != SRCH_EM_FORMAT_META && format != SRCH_EM_FORMAT_E2) {
        if (status)
            *status = hn_fail(HN_ERR_ARG, "unknown instance format %d", format);
        return NULL;
    }
    rd.f = fopen(path, "r");
    if (!rd.f) {
        if (status)
            *status = hn_fail(HN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    srch_em_inst *in = read_file(&rd, format, status);
    fclose(rd.f);
    return in;
}

/* ---- accessors ---------------------------------------------------------- */

int srch_em_inst_width(const srch_em_inst *in)
{
    return in->w;
}
int srch_em_inst_height(const srch_em_inst *in)
{
    return in->h;
}
int srch_em_inst_colours(const srch_em_inst *in)
{
    return in->ncol;
}
int srch_em_inst_joins(const srch_em_inst *in)
{
    return 2 * in->n - in->w - in->h;
}
int srch_em_piece_class(const srch_em_inst *in, int p)
{
    return in->pclass[p];
}
int srch_em_cell_class(const srch_em_inst *in, int cell)
{
    return in->cclass[cell];
}
int srch_em_inst_nclues(const srch_em_inst *in)
{
    return in->nclues;
}

int srch_em_colour(const srch_em_inst *in, int piece, int rot, int side)
{
    return srch_em_pc(in, piece, rot & 3)[side & 3];
}

int srch_em_frame_rot(const srch_em_inst *in, int piece, int cell)
{
    if (in->cclass[cell] == SRCH_EM_INNER)
        return -1;
    return srch_em_rot_for(in, piece, cell);
}

void srch_em_inst_clue(const srch_em_inst *in, int k, int *piece, int *cell, int *rot)
{
    *piece = in->clue_piece[k];
    *cell = in->clue_cell[k];
    *rot = in->clue_rot[k];
}

int srch_em_inst_add_clue(srch_em_inst *in, int piece, int row, int col, int rot)
{
    if (piece < 0 || piece >= in->n)
        return hn_fail(HN_ERR_ARG, "clue piece %d out of range 0..%d", piece, in->n - 1);
    if (row < 0 || row >= in->h || col < 0 || col >= in->w)
        return hn_fail(HN_ERR_ARG, "clue cell (%d,%d) outside the %dx%d board", row, col, in->w,
                       in->h);
    if (rot < 0 || rot > 3)
        return hn_fail(HN_ERR_ARG, "clue rotation %d out of range 0..3", rot);
    if (in->nclues >= SRCH_EM_MAX_CLUES)
        return hn_fail(HN_ERR_ARG, "more than %d clues", SRCH_EM_MAX_CLUES);
    int cell = row * in->w + col;
    for (int k = 0; k < in->nclues; k++)
        if (in->clue_piece[k] == piece || in->clue_cell[k] == cell)
            return hn_fail(HN_ERR_ARG, "clue %d,%d,%d,%d repeats a piece or a cell of clue %d",
                           piece, row, col, rot, k + 1);
    int need = srch_em_rot_for(in, piece, cell);
    if (need < 0 || (in->cclass[cell] != SRCH_EM_INNER && need != rot))
        return hn_fail(HN_ERR_ARG,
                       "clue %d,%d,%d,%d breaks the frame rule (grey sides must "
                       "face outside)",
                       piece, row, col, rot);
    in->clue_piece[in->nclues] = piece;
    in->clue_cell[in->nclues] = cell;
    in->clue_rot[in->nclues] = rot;
    in->nclues++;
    return HN_OK;
}

/* ---- generation and writing --------------------------------------------- */

static int draw_colour(hn_rng *rng, int lo, int count)
{
    return lo + (int)hn_rng_below(rng, (uint32_t)count);
}

srch_em_inst *srch_em_inst_gen(int w, int h, int fc, int ic, uint64_t seed, int *solution,
                               int *status)
{
    int n = w * h, st = HN_OK;
    srch_em_inst *in = NULL;
    if (w < 3 || h < 3 || w > EM_MAX_SIDE || h > EM_MAX_SIDE || fc < 1 || ic < 1 ||
        fc + ic > EM_MAX_COLOUR) {
        if (status)
            *status = hn_fail(HN_ERR_ARG,
                              "generator needs sides 3..%d and colour counts >= 1 "
                              "(total <= %d)",
                              EM_MAX_SIDE, EM_MAX_COLOUR);
        return NULL;
    }
    int *cellc = calloc((size_t)n * 4, sizeof(int));
    int *nesw = malloc(sizeof(int) * 4 * (size_t)n);
    int *perm = malloc(sizeof(int) * (size_t)n);
    hn_rng *rng = hn_rng_new(seed);
    if (!cellc || !nesw || !perm || !rng) {
        st = hn_fail(HN_ERR_NOMEM, "out of memory generating %dx%d", w, h);
        goto out;
    }
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) {
            int cell = r * w + c;
            if (c < w - 1) { /* join with the right neighbour */
                int frame = r == 0 || r == h - 1;
                int col = frame ? draw_colour(rng, 1, fc) : draw_colour(rng, fc + 1, ic);
                cellc[cell * 4 + SRCH_EM_E] = cellc[(cell + 1) * 4 + SRCH_EM_W] = col;
            }
            if (r < h - 1) {
                int frame = c == 0 || c == w - 1;
                int col = frame ? draw_colour(rng, 1, fc) : draw_colour(rng, fc + 1, ic);
                cellc[cell * 4 + SRCH_EM_S] = cellc[(cell + w) * 4 + SRCH_EM_N] = col;
            }
        }
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)hn_rng_below(rng, (uint32_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    /* piece perm[cell] = the cell's colours turned back by a random rotation */
    for (int cell = 0; cell < n; cell++) {
        int p = perm[cell], r = (int)hn_rng_below(rng, 4);
        for (int s = 0; s < 4; s++)
            nesw[p * 4 + s] = cellc[cell * 4 + ((s + r) & 3)];
        if (solution) {
            solution[cell] = p;
            solution[n + cell] = r;
        }
    }
    in = srch_em_inst_from_colours(w, h, nesw, "generated instance", &st);
out:
    free(cellc);
    free(nesw);
    free(perm);
    hn_rng_free(rng);
    if (status)
        *status = st;
    return in;
}

static void inst_body(FILE *f, const void *ctx)
{
    const srch_em_inst *in = ctx;
    fprintf(f, "%d %d\n", in->w, in->h);
    for (int p = 0; p < in->n; p++) {
        const uint8_t *c = srch_em_pc(in, p, 0);
        fprintf(f, "%d %d %d %d\n", c[SRCH_EM_S], c[SRCH_EM_W], c[SRCH_EM_N], c[SRCH_EM_E]);
    }
}

int srch_em_inst_write(const srch_em_inst *in, const char *path)
{
    return srch_em_write_file(path, inst_body, in);
}

int srch_em_triple_ok(const srch_em_inst *in, int p, int c, int r)
{
    int need = srch_em_rot_for(in, p, c);
    if (need < 0 || (in->cclass[c] != SRCH_EM_INNER && need != r))
        return 0;
    for (int k = 0; k < in->nclues; k++)
        if ((in->clue_piece[k] == p) != (in->clue_cell[k] == c) ||
            (in->clue_cell[k] == c && in->clue_rot[k] != r))
            return 0;
    return 1;
}

int srch_em_inst_is_benchmark(const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        return 0;
    int shared = 0;
    for (int up = 0; up < 3 && !shared; up++) {
        char *slash = strrchr(real, '/');
        if (!slash || slash == real)
            break;
        *slash = '\0';
        char marker[4096];
        snprintf(marker, sizeof marker, "%s/SOURCES.md", real);
        shared = access(marker, F_OK) == 0;
    }
    free(real);
    return shared;
}
