/* DAVI's targets without a backup through the target network's values of
 * states: a teacher network's values (distillation, one output or one per
 * move) and a Q network's Bellman targets from its frozen copy, in the
 * chunks of avi_davi.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "train/avi_private.h"

/* Distillation targets of states [lo, hi): the teacher's values (over the
 * run's residual heuristic when there is one, the teacher's too). */
int trn_avi_chunk_distill(const struct trn_avi_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d);
    int rc = trn_avi_net_values(j, j->s + lo * sb, hi - lo, j->y + lo);
    for (size_t i = lo; !rc && i < hi; i++) {
        j->y[i] = dom_is_goal(d, j->s + i * sb) ? 0.0f : j->y[i] + (j->base ? j->base[i] : 0);
        j->raised[i] = 0;
    }
    return rc;
}

/* Q targets of states [lo, hi): per state, one value per move, the
 * teacher's value of the child it leads to (0 at a goal), or for a move
 * that does not apply the teacher's value of the state + 1. */
int trn_avi_chunk_q_teacher(const struct trn_avi_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d), n = hi - lo;
    /* rows: the n states, then every child */
    uint8_t *rows = malloc(sb * n * (nm + 1)), *mv = malloc(n * nm), q[DOM_MAX_MOVES];
    int *kids = malloc(sizeof *kids * n);
    float *h = malloc(sizeof *h * n * (nm + 1));
    int rc = rows && mv && kids && h ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    size_t nr = n;
    if (!rc)
        memcpy(rows, j->s + lo * sb, sb * n);
    for (size_t i = 0; !rc && i < n; i++) {
        kids[i] =
            dom_expand(d, j->s + (lo + i) * sb, DOM_PRUNE_ROOT, rows + nr * sb, mv + i * nm, q);
        nr += (size_t)kids[i];
    }
    if (!rc)
        rc = trn_avi_net_values(j, rows, nr, h);
    for (size_t i = 0, r = n; !rc && i < n; i++) {
        float *y = j->y + (lo + i) * nm;
        for (size_t a = 0; a < nm; a++)
            y[a] = h[i] + 1.0f;
        for (int c = 0; c < kids[i]; c++, r++)
            y[mv[i * nm + (size_t)c]] = dom_is_goal(d, rows + r * sb) ? 0.0f : h[r];
        j->raised[lo + i] = 0;
    }
    free(h);
    free(kids);
    free(mv);
    free(rows);
    return rc;
}

/* A Q run's children: their states, the moves that lead to them, per
 * child the moves that apply from it and whether one reaches the goal. */
struct qkids {
    uint8_t *s, *mv, *legal, *near;
    int *k;    /* children per state */
    float *h;  /* the target network's outputs, nmoves per child */
    double *v; /* each child's value */
};

static void qkids_free(struct qkids *c)
{
    free(c->s);
    free(c->mv);
    free(c->legal);
    free(c->near);
    free(c->k);
    free(c->h);
    free(c->v);
}

/* The children of states [lo, hi) and one move further: which moves apply
 * and whether one reaches the goal (that child is then exactly 1 away). */
static int qkids_expand(const struct trn_avi_job *j, size_t lo, size_t hi, struct qkids *c,
                        size_t *nr)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d), n = hi - lo, most = n * nm;
    uint8_t q[DOM_MAX_MOVES], gm[DOM_MAX_MOVES], *g = malloc(sb * nm);
    *c = (struct qkids){.s = malloc(sb * most),
                        .mv = malloc(most),
                        .legal = calloc(most, nm),
                        .near = calloc(most, 1),
                        .k = malloc(sizeof *c->k * n),
                        .h = malloc(sizeof *c->h * most * nm),
                        .v = malloc(sizeof *c->v * most)};
    if (!g || !c->s || !c->mv || !c->legal || !c->near || !c->k || !c->h || !c->v) {
        free(g);
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    }
    *nr = 0;
    for (size_t i = 0; i < n; i++) {
        c->k[i] =
            dom_expand(d, j->s + (lo + i) * sb, DOM_PRUNE_ROOT, c->s + *nr * sb, c->mv + i * nm, q);
        *nr += (size_t)c->k[i];
    }
    for (size_t r = 0; r < *nr; r++) {
        int k = dom_expand(d, c->s + r * sb, DOM_PRUNE_ROOT, g, gm, q);
        for (int a = 0; a < k; a++) {
            c->legal[r * nm + gm[a]] = 1;
            c->near[r] |= dom_is_goal(d, g + (size_t)a * sb);
        }
    }
    free(g);
    return HN_OK;
}

/* Child r's value for a Q run's Bellman targets: 0 at the goal, 1 next to
 * it, else the least 1 + output over the moves that apply from it (the
 * parentless value a search uses; 1 before the first target network or
 * when no move applies), then settled to the floor and parity as the
 * leaves of a backup are. Returns 1 when the floor raised it. */
static int q_child_value(const struct trn_avi_job *j, const struct qkids *c, size_t r)
{
    const struct trn_avi_opts *o = j->o;
    size_t sb = dom_state_bytes(o->dom), nm = (size_t)dom_nmoves(o->dom);
    const uint8_t *st = c->s + r * sb;
    int goal = dom_is_goal(o->dom, st), raised = 0;
    if (goal || c->near[r]) {
        c->v[r] = goal ? 0.0 : 1.0;
        return 0;
    }
    double v = INFINITY;
    for (size_t a = 0; j->net && a < nm; a++)
        if (c->legal[r * nm + a])
            v = fmin(v, 1.0 + trn_avi_child_value(o, c->h[r * nm + a]));
    int fl = o->floor ? dom_heur_eval(o->floor, st) : 0;
    c->v[r] = trn_avi_settle(o, st, isfinite(v) ? v : 1.0, fl, &raised);
    return raised;
}

/* Bellman Q targets of states [lo, hi) (teacher_q without a teacher): per
 * state, output m is the value of the child move m leads to (q_child_value,
 * through the target network's row of that child), or for a move that does
 * not apply the state's own value + 1; with the clamp at most the walk
 * length + 1, as a child of a state k moves from the goal is at most k + 1
 * away. */
int trn_avi_chunk_q_bellman(const struct trn_avi_job *j, size_t lo, size_t hi)
{
    const dom *d = j->o->dom;
    size_t sb = dom_state_bytes(d), nm = (size_t)dom_nmoves(d), nr = 0;
    struct qkids c;
    int rc = qkids_expand(j, lo, hi, &c, &nr);
    if (!rc && j->net)
        rc = trn_avi_net_values(j, c.s, nr, c.h);
    for (size_t i = lo, r = 0; !rc && i < hi; i++) {
        float *y = j->y + i * nm;
        size_t r0 = r;
        double vs = dom_is_goal(d, j->s + i * sb) ? 0.0 : INFINITY;
        j->raised[i] = 0;
        for (int k = 0; k < c.k[i - lo]; k++, r++) {
            j->raised[i] |= q_child_value(j, &c, r);
            vs = 1.0 + c.v[r] < vs ? 1.0 + c.v[r] : vs;
        }
        vs = isfinite(vs) ? vs : 0.0; /* no move applies: outputs no search reads */
        double cap = j->walk[i] >= 0 && j->o->clamp ? j->walk[i] + 1.0 : INFINITY;
        for (size_t a = 0; a < nm; a++)
            y[a] = (float)fmin(vs + 1.0, cap);
        for (int k = 0; k < c.k[i - lo]; k++)
            y[c.mv[(i - lo) * nm + (size_t)k]] = (float)fmin(c.v[r0 + (size_t)k], cap);
    }
    qkids_free(&c);
    return rc;
}
