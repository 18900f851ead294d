/* The heuristic interface and the simple heuristics behind it: Manhattan
 * distance, Manhattan plus linear conflicts, the max of several, and user
 * implementations (a neural network, ...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/np_internal.h"

srch_np_heur *srch_np_heur_wrap(const srch_np_heur_ops *ops, void *self, int width, int goal,
                                int *status)
{
    int st = 0;
    srch_np_heur *h = NULL;
    if (!ops || !ops->eval || width < SRCH_NP_MIN_WIDTH || width > SRCH_NP_MAX_WIDTH ||
        !srch_np_goal_name(goal) || (ops->inc_move && !ops->inc_init)) {
        st = hn_fail(HN_ERR_ARG, "heuristic: missing eval, bad width %d or goal %d", width, goal);
    } else if (!(h = calloc(1, sizeof *h))) {
        st = hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
    }
    if (st) {
        if (ops && ops->destroy)
            ops->destroy(self);
    } else {
        h->ops = *ops;
        h->self = self;
        h->width = width;
        h->goal = goal;
    }
    if (status)
        *status = st;
    return h;
}

srch_np_heur *srch_np_heur_custom_new(const srch_np_heur_ops *ops, void *self, int width, int goal,
                                      int *status)
{
    return srch_np_heur_wrap(ops, self, width, goal, status);
}

void srch_np_heur_free(srch_np_heur *h)
{
    if (!h)
        return;
    if (h->ops.destroy)
        h->ops.destroy(h->self);
    free(h);
}

int srch_np_heur_eval(const srch_np_heur *h, const srch_np_board *b)
{
    return h->ops.eval(h->self, b);
}

int srch_np_heur_eval_batch(const srch_np_heur *h, const srch_np_board *b, size_t n, int *out)
{
    if (h->ops.eval_batch)
        return h->ops.eval_batch(h->self, b, n, out);
    for (size_t i = 0; i < n; i++)
        out[i] = h->ops.eval(h->self, &b[i]);
    return 0;
}

const char *srch_np_heur_name(const srch_np_heur *h)
{
    return h->ops.name;
}
int srch_np_heur_width(const srch_np_heur *h)
{
    return h->width;
}
int srch_np_heur_goal(const srch_np_heur *h)
{
    return h->goal;
}
int srch_np_heur_incremental(const srch_np_heur *h)
{
    return h->ops.inc_move != NULL;
}
int srch_np_heur_batched(const srch_np_heur *h)
{
    return h->ops.eval_batch != NULL;
}

/* ---- Manhattan and linear conflict ------------------------------------- */

typedef struct {
    int width, ncells, lc;
    uint8_t dist[SRCH_NP_MAX_CELLS][SRCH_NP_MAX_CELLS]; /* dist[tile][cell] */
    uint8_t goal_row[SRCH_NP_MAX_CELLS], goal_col[SRCH_NP_MAX_CELLS];
} md_heur;

/* Incremental state: Manhattan sum and conflict penalty per row/column. */
typedef struct {
    int16_t md;
    uint8_t row[SRCH_NP_MAX_WIDTH], col[SRCH_NP_MAX_WIDTH];
} md_state;

/* 2 * (tiles in their goal line - longest run in goal order) for one line:
 * the tiles outside an increasing subsequence must leave the line and come
 * back, two extra moves each (Hansson, Mayer & Yung). */
static int line_conflict(const md_heur *m, const srch_np_board *b, int line, int is_row)
{
    int key[SRCH_NP_MAX_WIDTH], k = 0, w = m->width;
    for (int i = 0; i < w; i++) {
        int cell = is_row ? line * w + i : i * w + line;
        int t = b->tile[cell];
        if (t && (is_row ? m->goal_row[t] : m->goal_col[t]) == line)
            key[k++] = is_row ? m->goal_col[t] : m->goal_row[t];
    }
    if (k < 2)
        return 0;
    int lis[SRCH_NP_MAX_WIDTH], best = 0;
    for (int i = 0; i < k; i++) {
        lis[i] = 1;
        for (int j = 0; j < i; j++)
            if (key[j] < key[i] && lis[j] + 1 > lis[i])
                lis[i] = lis[j] + 1;
        if (lis[i] > best)
            best = lis[i];
    }
    return 2 * (k - best);
}

static int md_init(void *self, const srch_np_board *b, void *state)
{
    const md_heur *m = self;
    md_state *s = state;
    int md = 0, h;
    for (int c = 0; c < m->ncells; c++)
        if (b->tile[c])
            md += m->dist[b->tile[c]][c];
    s->md = (int16_t)md;
    h = md;
    for (int i = 0; i < m->width; i++) {
        s->row[i] = (uint8_t)(m->lc ? line_conflict(m, b, i, 1) : 0);
        s->col[i] = (uint8_t)(m->lc ? line_conflict(m, b, i, 0) : 0);
        h += s->row[i] + s->col[i];
    }
    return h;
}

static int md_eval(void *self, const srch_np_board *b)
{
    md_state s;
    return md_init(self, b, &s);
}

static int md_move(void *self, const srch_np_board *after, int tile, int from, int to,
                   const void *parent, void *child, int bound)
{
    (void)bound;
    const md_heur *m = self;
    md_state *s = child;
    *s = *(const md_state *)parent;
    s->md = (int16_t)(s->md + m->dist[tile][to] - m->dist[tile][from]);
    if (m->lc) {
        /* A vertical move changes the tiles of two rows (column order is
         * kept); a horizontal one those of two columns. */
        int w = m->width, vertical = abs_diff(from, to) == w;
        int a = vertical ? from / w : from % w, c = vertical ? to / w : to % w;
        uint8_t *line = vertical ? s->row : s->col;
        line[a] = (uint8_t)line_conflict(m, after, a, vertical);
        line[c] = (uint8_t)line_conflict(m, after, c, vertical);
    }
    int h = s->md;
    for (int i = 0; i < m->width; i++)
        h += s->row[i] + s->col[i];
    return h;
}

static srch_np_heur *md_new(int width, int goal, int lc, int *status)
{
    if (width < SRCH_NP_MIN_WIDTH || width > SRCH_NP_MAX_WIDTH || !srch_np_goal_name(goal)) {
        int st = hn_fail(HN_ERR_ARG, "heuristic: bad width %d or goal %d", width, goal);
        if (status)
            *status = st;
        return NULL;
    }
    md_heur *m = calloc(1, sizeof *m);
    if (!m) {
        if (status)
            *status = hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
        return NULL;
    }
    m->width = width;
    m->ncells = width * width;
    m->lc = lc;
    for (int t = 1; t < m->ncells; t++) {
        int g = srch_np_goal_cell(m->ncells, goal, t);
        m->goal_row[t] = (uint8_t)(g / width);
        m->goal_col[t] = (uint8_t)(g % width);
        for (int c = 0; c < m->ncells; c++)
            m->dist[t][c] =
                (uint8_t)(abs_diff(c / width, g / width) + abs_diff(c % width, g % width));
    }
    srch_np_heur_ops ops = {.name = lc ? "lc" : "manhattan",
                            .eval = md_eval,
                            .state_size = sizeof(md_state),
                            .inc_init = md_init,
                            .inc_move = md_move,
                            .destroy = free};
    return srch_np_heur_wrap(&ops, m, width, goal, status);
}

srch_np_heur *srch_np_heur_manhattan_new(int width, int goal, int *status)
{
    return md_new(width, goal, 0, status);
}

srch_np_heur *srch_np_heur_lc_new(int width, int goal, int *status)
{
    return md_new(width, goal, 1, status);
}

/* ---- max of several ---------------------------------------------------- */

typedef struct {
    int n;
    srch_np_heur **parts;
    size_t offset[SRCH_NP_MAX_PATTERNS + 1]; /* state offsets of the parts */
    char name[128];
} max_heur;

#define MAX_PARTS SRCH_NP_MAX_PATTERNS

static int max_eval(void *self, const srch_np_board *b)
{
    const max_heur *m = self;
    int best = 0;
    for (int i = 0; i < m->n; i++) {
        int v = m->parts[i]->ops.eval(m->parts[i]->self, b);
        if (v > best)
            best = v;
    }
    return best;
}

static int max_init(void *self, const srch_np_board *b, void *state)
{
    const max_heur *m = self;
    int best = 0;
    for (int i = 0; i < m->n; i++) {
        const srch_np_heur *p = m->parts[i];
        int v = p->ops.inc_init(p->self, b, (char *)state + m->offset[i]);
        if (v > best)
            best = v;
    }
    return best;
}

static int max_move(void *self, const srch_np_board *after, int tile, int from, int to,
                    const void *parent, void *child, int bound)
{
    const max_heur *m = self;
    int best = 0;
    for (int i = 0; i < m->n; i++) {
        const srch_np_heur *p = m->parts[i];
        int v = p->ops.inc_move(p->self, after, tile, from, to, (const char *)parent + m->offset[i],
                                (char *)child + m->offset[i], bound);
        if (v > best)
            best = v;
        if (best > bound)
            break; /* the search prunes this child anyway */
    }
    return best;
}

static void max_destroy(void *self)
{
    max_heur *m = self;
    for (int i = 0; i < m->n; i++)
        srch_np_heur_free(m->parts[i]);
    free(m->parts);
    free(m);
}

srch_np_heur *srch_np_heur_max_new(srch_np_heur **parts, int n, int *status)
{
    max_heur *m = NULL;
    int st = 0, inc = 1;
    if (n < 1 || n > MAX_PARTS)
        st = hn_fail(HN_ERR_ARG, "max of %d heuristics (1..%d)", n, MAX_PARTS);
    for (int i = 1; !st && i < n; i++)
        if (parts[i]->width != parts[0]->width || parts[i]->goal != parts[0]->goal)
            st = hn_fail(HN_ERR_ARG, "max: heuristics for different boards or goals");
    if (!st && (!(m = calloc(1, sizeof *m)) || !(m->parts = malloc((size_t)n * sizeof *m->parts))))
        st = hn_fail(HN_ERR_NOMEM, "out of memory for a heuristic");
    if (st) {
        if (m)
            free(m);
        for (int i = 0; i < n; i++)
            srch_np_heur_free(parts[i]);
        if (status)
            *status = st;
        return NULL;
    }
    m->n = n;
    for (int i = 0; i < n; i++) {
        m->parts[i] = parts[i];
        m->offset[i + 1] = m->offset[i] + ((parts[i]->ops.state_size + 7) & ~(size_t)7);
        inc = inc && parts[i]->ops.inc_move;
        size_t len = strlen(m->name);
        snprintf(m->name + len, sizeof m->name - len, "%s%s", i ? "," : "max:", parts[i]->ops.name);
    }
    srch_np_heur_ops ops = {.name = m->name, .eval = max_eval, .destroy = max_destroy};
    if (inc) {
        ops.state_size = m->offset[n];
        ops.inc_init = max_init;
        ops.inc_move = max_move;
    }
    return srch_np_heur_wrap(&ops, m, parts[0]->width, parts[0]->goal, status);
}
