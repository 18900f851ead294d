/* train/avi*.c and train/boot.c internals: the state of a run without
 * optimal labels (the learner, the frozen target network, the bootstrap
 * buffer) and the pieces its files share. */
#ifndef TRN_AVI_PRIVATE_H
#define TRN_AVI_PRIVATE_H

#include "search/npuzzle/ann.h"
#include "train/trn.h"

/* DAVI with o->table: the leaf value (0 at the goal, else the target
 * network's child value floored) of every 3x3 board, by srch_np_board_rank
 * (NAN for unsolvable ranks), and whether the floor decided it. */
struct trn_avi_table {
    float *value;
    uint8_t *raised;
};

struct avi_state {
    nn_model *m;      /* the network being trained */
    nn_model *target; /* DAVI: frozen copy; NULL until the first update */
    nn_train *t;
    nn_adam *a;
    int round; /* rounds completed */
    int updates;
    uint64_t steps, samples;
    double seconds; /* wall time of the completed rounds */
    /* BOOTSTRAP */
    uint64_t budget;
    int walk;
    uint8_t *buf_b; /* ring of buffer_max boards (cells bytes each) */
    float *buf_y;   /* their cost-to-go */
    uint64_t buf_n, buf_head;
    /* DAVI with o->table: built from `target` when built_at != updates */
    struct trn_avi_table tab;
    int tab_built_at;
    /* avi_history: the settings of earlier sessions (from the checkpoint,
     * malloc'd or NULL) and the first round of this one */
    char *history;
    int session_first;
};

/* A child's value from the target network's estimate h (never below 0;
 * rounded with o->integer_targets). */
double trn_avi_child_value(const struct trn_avi_opts *o, float h);

/* Fill t (allocated on first use) from `target` (NULL: h = 0) and o->floor
 * on o->threads threads. 0 or a status. trn_avi_table_free releases it. */
int trn_avi_table_build(const struct trn_avi_opts *o, const nn_model *target,
                        struct trn_avi_table *t);
void trn_avi_table_free(struct trn_avi_table *t);
/* Board b's target through o->lookahead moves by table lookups (0 at the
 * goal); *raised = 1 if the floor decided it. No clamp. */
double trn_avi_table_target(const struct trn_avi_opts *o, const struct trn_avi_table *t,
                            const srch_np_board *b, int *raised);

/* 1 when the targets come from a frozen copy of the trained network (not
 * from a teacher or the walk length): only then is there one to keep. */
int trn_avi_uses_target(const struct trn_avi_opts *o);
/* Network outputs of this run: one per move for a Q network (teacher_q), else one. */
int trn_avi_outputs(const struct trn_avi_opts *o);
/* Adam steps on rows (boards in the run's goal layout, targets in moves,
 * trn_avi_outputs per board): `steps` batches of o->batch rows, taken in
 * order from idx (steps * batch entries). Adds to s->steps / s->samples;
 * *loss gets the mean training loss in moves^2. HN_ERR_INTERRUPTED on a
 * stop request. */
int trn_avi_fit(const struct trn_avi_opts *o, struct avi_state *s, const uint8_t *boards,
                const float *y, const uint32_t *idx, int steps, double *loss);

/* One round of each method (the round's figures into r). */
int trn_avi_davi_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r);
int trn_avi_boot_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r);

/* DAVI on a domain (o->dom): one round (train/avi_dom.c). */
int trn_avi_dom_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r);
/* Replace the target network by a copy of the trained one. */
int trn_avi_update_target(struct avi_state *s);
/* After a round's targets (`per` per board, n boards): their mean, max
 * and floor share into r, the residual base subtracted from y (base may be
 * NULL; per 1 then), perm shuffled. */
int trn_avi_round_finish(const struct trn_avi_opts *o, const struct avi_state *s, float *y,
                         size_t per, const int *raised, const int *base, size_t n, uint32_t *perm,
                         struct trn_avi_round *r);

/* Run fn(user, job) for job = 0..njobs-1 on o->threads threads (jobs are
 * taken in order; fn must not depend on which thread runs it). Returns the
 * first nonzero status a job returned. */
int trn_avi_parallel(int threads, int njobs, int (*fn)(void *user, int job), void *user);

/* Checkpoints (train/avi_ckpt.c): the current model with its record plus
 * /avi holding the optimizer, the target network, counters and the buffer. */
int trn_avi_ckpt_save(const char *path, const struct trn_avi_opts *o, const struct avi_state *s);
/* Fills s (m, target, a, buffer; t is made by the caller). */
int trn_avi_ckpt_load(const char *path, const struct trn_avi_opts *o, struct avi_state *s);

/* Bootstrapping on a domain (train/boot_dom.c): solve o->boards walks of
 * s->walk moves under s->budget expansions and add their paths to the
 * buffer; r->solved and r->boards are set. */
int trn_avi_boot_dom_solve(const struct trn_avi_opts *o, struct avi_state *s,
                           struct trn_avi_round *r);
/* Bytes of one buffered board: the domain's state, else the n-puzzle's cells. */
size_t trn_avi_board_bytes(const struct trn_avi_opts *o);

/* Several processes (train/avi_comm.c; each the single-process case when
 * o->comm is NULL). Run this process's contiguous part of jobs 0..njobs-1
 * (by trn_avi_parallel), then agree on the status with the others. */
int trn_avi_parallel_part(const struct trn_avi_opts *o, int njobs, int (*fn)(void *user, int job),
                          void *user);
/* After trn_avi_parallel_part: every process gets every job's elements of
 * buf (job j owns elements [j * unit, (j + 1) * unit) of n, elem bytes each). */
int trn_avi_share(const struct trn_avi_opts *o, void *buf, size_t elem, int njobs, size_t unit,
                  size_t n);
/* Rows per process of each batch; *first = this process's first row. */
int trn_avi_stripe(const struct trn_avi_opts *o, int *first);
/* Backward pass of a stripe, summed over the processes (np parameters). */
int trn_avi_sum_grad(const struct trn_avi_opts *o, nn_train *t, int stripe, size_t np);
/* *v becomes its mean over the processes. */
int trn_avi_mean(const struct trn_avi_opts *o, double *v);
/* HN_ERR_INTERRUPTED in every process when any was asked to stop. */
int trn_avi_stop_check(const struct trn_avi_opts *o);
/* Copy process 0's weights and statistics of m to every process. */
int trn_avi_lockstep(const struct trn_avi_opts *o, nn_model *m);
/* The checkpoint, written by process 0 only; its status agreed by all. */
int trn_avi_ckpt_lead(const char *path, const struct trn_avi_opts *o, const struct avi_state *s);

/* The caller's heuristic behind a wrapper that another heuristic may own
 * and free (the wrapper does not free h). NULL on failure (*status). */
srch_np_heur *trn_avi_borrow(const srch_np_heur *h, int *status);

/* Model m as a heuristic for the run: its network plus o->residual (when
 * set), floored by `floor` (taken over, may be NULL). NULL on failure. */
srch_np_heur *trn_avi_net_heur(const struct trn_avi_opts *o, const nn_model *m, const char *name,
                               srch_np_heur *floor, const srch_np_ann_opts *ao, int *status);

/* The avi_* training record on s->m. */
int trn_avi_record(const struct trn_avi_opts *o, const struct avi_state *s);

#endif
