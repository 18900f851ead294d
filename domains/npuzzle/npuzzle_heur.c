/* The n-puzzle's admissible heuristics by name: Manhattan distance, plus
 * linear conflicts ("lc", the same values as search/npuzzle/heur.c), and
 * additive disjoint pattern databases ("pdb:5-5-5-5-5-5-5"). Their max
 * ("max:lc,pdb:...") is the core's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domains/dom.h"
#include "domains/npuzzle/npuzzle.h"
#include "domains/npuzzle/npuzzle_fast.h"

_Static_assert(NPF_MAX_CELLS == NP_MAX_CELLS, "npuzzle_fast.h's board bound is the domain's");

/* NP_H_BETWEEN: Manhattan distance and linear conflicts toward a board b
 * (dom_np_between_open), not toward the goal. */
enum np_heur_kind { NP_H_MANHATTAN, NP_H_LC, NP_H_PDB, NP_H_BETWEEN };

typedef struct np_heur {
    const np_dom *in;
    enum np_heur_kind kind;
    np_pdb *pdb;
    int reflect;   /* also look up the mirrored board (square boards) */
    np_fast fast;  /* NP_H_MANHATTAN, NP_H_LC, NP_H_BETWEEN: the incremental update's table */
    npf_pdb pfast; /* NP_H_PDB: the tables as the update and searches read them */
    uint8_t to[NP_MAX_CELLS + 1]; /* NP_H_BETWEEN: the board b */
} np_heur;

/* Largest table the default partition uses, in entries (bytes): 45 M for
 * the 5-tile tables of 6x6, so seven of them take 317 MB; 5-tile tables of
 * 7x7 (229 M entries each) would need 2 GB, so 7x7 gets 4-tile ones. */
#define NP_DEFAULT_MAX_ENTRIES 64000000ull

/* The 8-, 15- and 24-puzzle default to search/npuzzle/'s partitions (its
 * pdb build and solve defaults), so a board size has one default table on
 * both paths: 8 (exact, 363 K entries), 7-8 (519 M + 58 M entries, 577 MB)
 * and 6-6-6-6 (4 x 128 M, 510 MB), larger than the size rule below would
 * pick. Other boards: equal groups as large as that rule allows. */
void dom_np_default_partition(const np_dom *in, char *buf, size_t cap)
{
    if (in->w == in->h && in->w >= 3 && in->w <= 5) {
        snprintf(buf, cap, "%s", in->w == 3 ? "8" : in->w == 4 ? "7-8" : "6-6-6-6");
        return;
    }
    int tiles = in->cells - 1, k = 1;
    for (;;) {
        uint64_t e = 1;
        for (int i = 0; i <= k; i++)
            e *= (uint64_t)(in->cells - i);
        if (k + 1 > tiles || k + 1 > NP_MAX_K || e > NP_DEFAULT_MAX_ENTRIES)
            break;
        k++;
    }
    /* as many groups as tiles / k needs, sizes as equal as possible,
     * larger ones first */
    int groups = (tiles + k - 1) / k, used = 0;
    buf[0] = '\0';
    for (int g = 0; g < groups; g++) {
        int size = tiles / groups + (g < tiles % groups);
        used += snprintf(buf + used, cap > (size_t)used ? cap - (size_t)used : 0, "%s%d",
                         g ? "-" : "", size);
    }
}

/* Hansson, Mayer & Yung's linear conflicts of one row or column: the
 * tiles whose target (row[t], col[t]: the goal's, or another board's) is
 * in this line and that are not on a longest run in target order must
 * leave the line and come back, two moves each. */
static int line_conflict(const np_dom *in, const uint8_t *s, const uint8_t *row, const uint8_t *col,
                         int line, int is_row)
{
    int key[NP_MAX_SIDE], k = 0, w = in->w;
    int len = is_row ? in->w : in->h, first = is_row ? line * w : line, step = is_row ? 1 : w;
    const uint8_t *home = is_row ? row : col, *along = is_row ? col : row;
    for (int i = 0, cell = first; i < len; i++, cell += step) {
        int t = s[cell];
        if (t && home[t] == line)
            key[k++] = along[t];
    }
    return npf_lis_conflicts(key, k);
}

static int manhattan(const np_dom *in, const uint8_t *s)
{
    int md = 0;
    for (int c = 0; c < in->cells; c++)
        md += in->dist[s[c]][c];
    return md - in->dist[0][s[in->cells]]; /* the blank does not count */
}

/* The conflicts of every row and column toward the targets row[], col[]. */
static int all_conflicts(const np_dom *in, const uint8_t *s, const uint8_t *row, const uint8_t *col)
{
    int h = 0;
    for (int r = 0; r < in->h; r++)
        h += line_conflict(in, s, row, col, r, 1);
    for (int c = 0; c < in->w; c++)
        h += line_conflict(in, s, row, col, c, 0);
    return h;
}

static int linear_conflicts(const np_dom *in, const uint8_t *s)
{
    return manhattan(in, s) + all_conflicts(in, s, in->goal_row, in->goal_col);
}

/* "SIZES" or "SIZES:noreflect": square boards take the max of the lookups
 * of the board and of its mirror image (as search/npuzzle/ does) unless
 * told not to. */
static np_pdb *pdb_open_named(const np_dom *in, const char *arg, int *reflect)
{
    char sizes[512]; /* an explicit 8x8 partition takes about 180 */
    const char *colon = strchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    if (colon && strcmp(colon, ":noreflect")) {
        dom_np_fail(in, DOM_ERR_ARG, "pdb:%s: only ':noreflect' may follow the group sizes", arg);
        return NULL;
    }
    if (n >= sizeof sizes) {
        dom_np_fail(in, DOM_ERR_ARG, "pdb:%.40s...: a partition of more than %zu characters", arg,
                    sizeof sizes - 1);
        return NULL;
    }
    snprintf(sizes, sizeof sizes, "%.*s", (int)n, arg);
    *reflect = in->w == in->h && !colon;
    return dom_np_pdb_open(in, sizes);
}

/* The PDB sum of a board, and of its mirror image when asked. */
static int pdb_value(const np_heur *h, const uint8_t *s)
{
    uint8_t pos[NP_MAX_CELLS];
    npf_pdb_positions(&h->pfast, s, pos);
    return npf_pdb_value(&h->pfast, pos);
}

/* The incremental update's copy of the instance's tables. */
static void fast_fill(const np_dom *in, int lc, np_fast *f)
{
    f->w = in->w;
    f->h = in->h;
    f->cells = in->cells;
    f->lc = lc;
    memcpy(f->next, in->next, sizeof f->next);
    memcpy(f->dist, in->dist, sizeof f->dist);
    memcpy(f->goal_row, in->goal_row, sizeof f->goal_row);
    memcpy(f->goal_col, in->goal_col, sizeof f->goal_col);
    for (int t = 0; t < in->cells; t++)
        f->goal[in->goal_cell[t]] = (uint8_t)t;
    f->goal[in->cells] = in->goal_cell[0];
}

void *dom_np_heur_open(const void *inst, const char *name)
{
    const np_dom *in = inst;
    np_heur *h = calloc(1, sizeof *h);
    if (!h) {
        dom_np_fail(in, DOM_ERR_NOMEM, "out of memory for heuristic %s", name);
        return NULL;
    }
    h->in = in;
    if (!strcmp(name, "manhattan"))
        h->kind = NP_H_MANHATTAN;
    else if (!strcmp(name, "lc"))
        h->kind = NP_H_LC;
    else if (!strncmp(name, "pdb:", 4)) {
        h->kind = NP_H_PDB;
        h->pdb = pdb_open_named(in, name + 4, &h->reflect);
        if (!h->pdb) {
            free(h);
            return NULL;
        }
        dom_np_pdb_fast(h->pdb, h->reflect, &h->pfast);
    } else {
        dom_np_fail(in, DOM_ERR_ARG,
                    "unknown npuzzle heuristic '%s' (manhattan, lc, or pdb:PARTITION: sizes "
                    "such as %s, tile groups such as pdb:1.2.3/4.5, or a named one: 8, 7-8, "
                    "6-6-3, 5-5-5, 6-6-6-6)",
                    name, in->default_pdb);
        free(h);
        return NULL;
    }
    if (h->kind != NP_H_PDB)
        fast_fill(in, h->kind == NP_H_LC, &h->fast);
    return h;
}

int dom_np_heur_eval(const void *heur, const void *state)
{
    const np_heur *h = heur;
    const uint8_t *s = state;
    switch (h->kind) {
    case NP_H_MANHATTAN:
        return manhattan(h->in, s);
    case NP_H_LC:
        return linear_conflicts(h->in, s);
    case NP_H_BETWEEN:
        return dom_np_between(h->in, s, h->to);
    default:
        return pdb_value(h, s);
    }
}

int dom_np_heur_delta(const void *heur, const void *state, int move, int hv)
{
    const np_heur *h = heur;
    return h->kind == NP_H_PDB ? npf_pdb_delta(&h->pfast, state, move & 3, hv)
                               : npf_delta(&h->fast, state, move & 3, hv);
}

const np_fast *dom_np_fast_of(const void *heur)
{
    const np_heur *h = heur;
    return h->kind == NP_H_PDB ? NULL : &h->fast;
}

const npf_pdb *dom_np_pdb_fast_of(const void *heur)
{
    const np_heur *h = heur;
    return h->kind == NP_H_PDB ? &h->pfast : NULL;
}

int dom_np_pdb_tables_of(const void *heur, dom_pdb_table *out, int cap)
{
    const np_heur *h = heur;
    return h->kind == NP_H_PDB ? dom_np_pdb_tables(h->pdb, out, cap) : 0;
}

void dom_np_heur_free(void *heur)
{
    np_heur *h = heur;
    if (h)
        dom_np_pdb_free(h->pdb);
    free(h);
}

/* ---- between two boards ---- */

/* Manhattan distance plus linear conflicts from board a to board b, both
 * measured toward b's cells instead of the goal's: admissible for the
 * same reasons, since nothing in them depends on b being the goal. */
int dom_np_between(const void *inst, const void *a, const void *b)
{
    const np_dom *in = inst;
    const uint8_t *sa = a, *sb = b;
    uint8_t row[NP_MAX_CELLS], col[NP_MAX_CELLS];
    for (int c = 0; c < in->cells; c++) {
        row[sb[c]] = (uint8_t)(c / in->w);
        col[sb[c]] = (uint8_t)(c % in->w);
    }
    int h = 0;
    for (int c = 0; c < in->cells; c++) {
        int t = sa[c];
        if (!t)
            continue;
        int dr = c / in->w - row[t], dc = c % in->w - col[t];
        h += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
    }
    return h + all_conflicts(in, sa, row, col);
}

/* The update's table toward b: each tile's distance from every cell to its
 * cell on b, b's rows and columns as the lines' targets. npf_delta then
 * gives dom_np_between's value of a child from its parent's, as it gives
 * lc's toward the goal (the blank is never the moved tile). */
void *dom_np_between_open(const void *inst, const void *b)
{
    const np_dom *in = inst;
    const uint8_t *sb = b;
    np_heur *h = calloc(1, sizeof *h);
    if (!h) {
        dom_np_fail(in, DOM_ERR_NOMEM, "out of memory for an estimate between two boards");
        return NULL;
    }
    h->in = in;
    h->kind = NP_H_BETWEEN;
    fast_fill(in, 1, &h->fast);
    memcpy(h->to, sb, (size_t)in->cells + 1);
    memcpy(h->fast.goal, sb, (size_t)in->cells + 1);
    for (int c = 0; c < in->cells; c++) {
        h->fast.goal_row[sb[c]] = (uint8_t)(c / in->w);
        h->fast.goal_col[sb[c]] = (uint8_t)(c % in->w);
    }
    for (int c = 0; c < in->cells; c++)
        for (int x = 0; x < in->cells; x++) /* tile sb[c] from cell x to c */
            h->fast.dist[sb[c]][x] =
                sb[c] ? (uint8_t)(abs(x / in->w - c / in->w) + abs(x % in->w - c % in->w)) : 0;
    return h;
}
