/* DAVI targets from a table (8-puzzle): the frozen target network is
 * evaluated once on every solvable board after each update, and a target is
 * then min over L-move paths of L + table[leaf], computed by lookups. This is
 * still value iteration with the network as the target (the table holds the
 * target network's values, not distances), but making targets costs almost
 * nothing, so the training steps alone bound the samples per second. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search/npuzzle/ann.h"
#include "train/avi_private.h"

#define TABLE_SIZE 362880u /* 9!: ranks of all 3x3 boards, half of them solvable */
#define TABLE_JOB 8064u    /* ranks per job (45 jobs) */

struct table_job {
    const struct trn_avi_opts *o;
    const srch_np_heur *net; /* NULL: h = 0 */
    struct trn_avi_table *t;
};

/* The leaf values of the ranks of one job: 0 at the goal, else
 * max(child value of the network, floor); NAN for unsolvable ranks. */
static int table_chunk(void *user, int job)
{
    const struct table_job *j = user;
    uint32_t lo = (uint32_t)job * TABLE_JOB, n = 0;
    srch_np_board *b = malloc(sizeof *b * TABLE_JOB);
    uint32_t *rank = malloc(sizeof *rank * TABLE_JOB);
    float *h = malloc(sizeof *h * TABLE_JOB);
    int *fl = malloc(sizeof *fl * TABLE_JOB);
    int rc = b && rank && h && fl ? HN_OK : hn_fail(HN_ERR_NOMEM, "out of memory");
    for (uint32_t r = lo; !rc && r < lo + TABLE_JOB; r++) {
        j->t->value[r] = NAN;
        j->t->raised[r] = 0;
        if ((rc = srch_np_board_unrank(&b[n], 3, r)) || !srch_np_board_solvable(&b[n], j->o->goal))
            continue;
        rank[n++] = r;
    }
    if (!rc && j->net)
        rc = srch_np_heur_ann_estimate(j->net, b, n, h);
    if (!rc && j->o->floor)
        rc = srch_np_heur_eval_batch(j->o->floor, b, n, fl);
    for (uint32_t i = 0; !rc && i < n; i++) {
        double v = srch_np_board_is_goal(&b[i], j->o->goal) ? 0.0
                   : j->net                                 ? trn_avi_child_value(j->o, h[i])
                                                            : 0.0;
        int up = j->o->floor && fl[i] > v;
        j->t->value[rank[i]] = (float)(up ? fl[i] : v);
        j->t->raised[rank[i]] = (uint8_t)up;
    }
    free(b);
    free(rank);
    free(h);
    free(fl);
    return rc;
}

int trn_avi_table_build(const struct trn_avi_opts *o, const nn_model *target,
                        struct trn_avi_table *t)
{
    int rc = HN_OK;
    srch_np_heur *net = NULL;
    if (!t->value && !(t->value = malloc(sizeof *t->value * TABLE_SIZE)))
        return hn_fail(HN_ERR_NOMEM, "out of memory for the target table");
    if (!t->raised && !(t->raised = malloc(TABLE_SIZE)))
        return hn_fail(HN_ERR_NOMEM, "out of memory for the target table");
    if (target) {
        srch_np_ann_opts ao = SRCH_NP_ANN_DEFAULTS;
        ao.cache_bits = 0;
        ao.max_batch = TABLE_JOB;
        if (!(net = trn_avi_net_heur(o, target, "target network", NULL, &ao, &rc)))
            return rc ? rc : HN_ERR_NOMEM;
    }
    struct table_job j = {.o = o, .net = net, .t = t};
    /* every process builds the whole table (a few seconds) */
    rc = trn_avi_parallel(o->threads, (int)(TABLE_SIZE / TABLE_JOB), table_chunk, &j);
    srch_np_heur_free(net);
    return rc;
}

void trn_avi_table_free(struct trn_avi_table *t)
{
    free(t->value);
    free(t->raised);
    *t = (struct trn_avi_table){0};
}

/* min over the paths of `depth` more moves below b (never undoing `last`,
 * -1 at the root) of their length + the leaf's table value; a goal below
 * the root ends its path with value 0. *up: whether the floor decided it. */
static double backup(const struct trn_avi_opts *o, const struct trn_avi_table *t,
                     const srch_np_board *b, int depth, int last, int *up)
{
    if (last >= 0 && srch_np_board_is_goal(b, o->goal)) {
        *up = 0;
        return 0.0;
    }
    if (depth == 0) {
        uint64_t r = srch_np_board_rank(b);
        *up = t->raised[r];
        return t->value[r];
    }
    double best = INFINITY;
    for (int d = 0; d < 4; d++) {
        srch_np_board c = *b;
        int cu;
        if ((last >= 0 && d == (last ^ 1)) || srch_np_board_move(&c, d) < 0)
            continue;
        double v = 1.0 + backup(o, t, &c, depth - 1, d, &cu);
        if (v < best) {
            best = v;
            *up = cu;
        }
    }
    return best;
}

double trn_avi_table_target(const struct trn_avi_opts *o, const struct trn_avi_table *t,
                            const srch_np_board *b, int *raised)
{
    *raised = 0;
    int depth = o->lookahead > 1 ? o->lookahead : 1;
    return srch_np_board_is_goal(b, o->goal) ? 0.0 : backup(o, t, b, depth, -1, raised);
}
