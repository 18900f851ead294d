/* A window of a path re-solved by IDA* between its two end states, guided
 * by the domain's estimate between two states (dom_def's `between`), or,
 * on a domain with `relative` (the cube), from the relative state of its
 * ends to the goal under an admissible heuristic (pattern databases). The
 * bidirectional breadth-first search of gen_shortcut.c needs no heuristic
 * but grows as the branching factor to the half window, so it stops near
 * 24 moves on the n-puzzle; a window of 60 moves whose detour is a handful
 * of moves costs IDA* little, since its work grows with the estimate's
 * error, not with the window. A window whose path is already shortest
 * costs the most (its last bound is the window's length less 2): the
 * budget caps that, and gen_shortcut.c remembers the windows that failed. */
#include <stdlib.h>
#include <string.h>

#include "search/generic/gen_internal.h"

/* One level of the depth-first stack: a state's children, its automaton
 * states and moves, and which child comes next. */
typedef struct {
    uint8_t *kids, *kmove, *kq;
    int *kh; /* with a heuristic toward the end (bh): the children's values */
    int nkids, next;
} frame;

struct gen_wida {
    const dom *d;
    size_t sb;
    int depth;        /* frames: the longest window's moves + 1 */
    const uint8_t *z; /* the window's end state */
    /* with an admissible heuristic: windows searched from dom_relative's
     * state to the goal, the estimate h of a state (its own clone) */
    srch_dom_heur *h;
    int scale;
    uint8_t *rel, *goal;
    /* else, where the domain offers one, the estimate toward this window's
     * end as a heuristic updated per move (dom_between_heur) */
    dom_heur *bh;
    frame *f;
    uint8_t *path; /* the moves on the stack, f[k]'s chosen child's move */
    uint64_t work, budget;
    double deadline;
    int stopped, bound;
    int64_t next_bound;
};

/* The children of `state` (estimate hs) into frame k. */
static int frame_expand(gen_wida *w, int k, const uint8_t *state, int q, int hs)
{
    frame *f = &w->f[k];
    f->nkids = dom_expand(w->d, state, q, f->kids, f->kmove, f->kq);
    f->next = 0;
    for (int i = 0; w->bh && i < f->nkids; i++)
        f->kh[i] = dom_heur_delta(w->bh, state, f->kmove[i], hs);
    if (++w->work > w->budget)
        return 1;
    if ((w->work & 1023) == 0 &&
        (hn_stop_requested() || (w->deadline > 0 && hn_now() > w->deadline))) {
        w->stopped = 1;
        return 1;
    }
    return 0;
}

/* The admissible estimate from c to z: the heuristic's value of c (z is
 * then the goal) in whole moves, else the domain's own between. */
static int estimate(gen_wida *w, const uint8_t *c, const uint8_t *z)
{
    if (w->h)
        return srch_gen_heur_value1(w->h, c) / w->scale;
    return dom_between(w->d, c, z);
}

/* One depth-first pass of f = g + between(s, z) <= bound: the length of
 * the path found (its moves in w->path), 0 for none, -1 when the budget
 * or the clock ran out. */
static int bounded_pass(gen_wida *w, const uint8_t *a, int ha)
{
    if (frame_expand(w, 0, a, DOM_PRUNE_ROOT, ha))
        return -1;
    int k = 0;
    while (k >= 0) {
        frame *f = &w->f[k];
        if (f->next == f->nkids) {
            k--;
            continue;
        }
        int i = f->next++, g = k + 1;
        const uint8_t *c = f->kids + (size_t)i * w->sb;
        w->path[k] = f->kmove[i];
        if (!memcmp(c, w->z, w->sb))
            return g;
        int h = w->bh ? f->kh[i] : estimate(w, c, w->z);
        /* the frames end at the window's depth whatever the estimate */
        if (g + h > w->bound || k + 1 >= w->depth) {
            if (g + h < w->next_bound)
                w->next_bound = g + h;
            continue;
        }
        if (frame_expand(w, k + 1, c, f->kq[i], h))
            return -1;
        k++;
    }
    return 0;
}

void srch_gen_wida_free(gen_wida *w)
{
    for (int k = 0; w && w->f && k < w->depth; k++) {
        free(w->f[k].kids);
        free(w->f[k].kmove);
        free(w->f[k].kq);
        free(w->f[k].kh);
    }
    if (w) {
        free(w->f);
        free(w->path);
        free(w->rel);
        free(w->goal);
        srch_dom_heur_free(w->h);
        dom_heur_free(w->bh);
    }
    free(w);
}

gen_wida *srch_gen_wida_new(const dom *d, int max_depth, const srch_dom_heur *h)
{
    gen_wida *w = calloc(1, sizeof *w);
    int n = dom_nmoves(d), depth = max_depth + 1, bad = !w, st = 0;
    if (w) {
        *w = (gen_wida){.d = d, .sb = dom_state_bytes(d), .depth = depth};
        w->f = calloc((size_t)depth, sizeof *w->f);
        w->path = malloc((size_t)depth);
        bad = !w->f || !w->path;
    }
    if (w && h) {
        w->h = srch_dom_heur_clone(h, &st);
        w->scale = srch_dom_heur_scale(h);
        w->rel = malloc(w->sb);
        w->goal = malloc(w->sb);
        bad |= !w->h || !w->rel || !w->goal;
        if (w->goal)
            dom_goal(d, w->goal);
    }
    for (int k = 0; !bad && k < depth; k++) {
        w->f[k].kids = malloc((size_t)n * w->sb);
        w->f[k].kmove = malloc((size_t)n);
        w->f[k].kq = malloc((size_t)n);
        w->f[k].kh = malloc((size_t)n * sizeof *w->f[k].kh);
        bad = !w->f[k].kids || !w->f[k].kmove || !w->f[k].kq || !w->f[k].kh;
    }
    if (bad) {
        srch_gen_wida_free(w);
        hn_fail(HN_ERR_NOMEM, "shortcut: out of memory for windows of %d moves", max_depth);
        return NULL;
    }
    return w;
}

int srch_gen_wida_run(gen_wida *w, const uint8_t *a, const uint8_t *z, int most, int step,
                      uint64_t budget, double deadline, uint8_t *found, int *stopped)
{
    *stopped = 0;
    if (!memcmp(a, z, w->sb))
        return 0;
    if (most < 1)
        return -1;
    if (most >= w->depth)
        return hn_fail(HN_ERR_ARG, "shortcut: a window of %d moves, the workspace holds %d", most,
                       w->depth - 1);
    if (w->h) { /* from b^-1 a to the goal by the same moves */
        dom_relative(w->d, a, z, w->rel);
        a = w->rel;
        z = w->goal;
    }
    if (!w->h) { /* the window's end is new: so is the heuristic toward it */
        int st;
        dom_heur_free(w->bh);
        if (!(w->bh = dom_between_heur(w->d, z, &st)) && st)
            return st;
    }
    w->z = z;
    w->work = 0;
    w->budget = budget;
    w->deadline = deadline;
    w->stopped = 0;
    int len = -1;
    int ha = estimate(w, a, z);
    w->bound = ha;
    while (w->bound <= most) {
        /* with only even cycles a path's length has the window's parity */
        if (step == 2 && (most - w->bound) % 2)
            w->bound++;
        if (w->bound > most)
            break;
        w->next_bound = INT64_MAX;
        int k = bounded_pass(w, a, ha);
        if (k != 0) {
            len = k;
            break;
        }
        if (w->next_bound == INT64_MAX)
            break; /* nothing beyond this bound: no path at all */
        w->bound = (int)(w->next_bound > most + 1 ? most + 1 : w->next_bound);
    }
    if (len > 0)
        memcpy(found, w->path, (size_t)len);
    *stopped = w->stopped;
    return len;
}
