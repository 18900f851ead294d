/* train/avi*.c and train/boot.c internals: the state of a run without
 * optimal labels (the learner, the frozen target network, the bootstrap
 * buffer) and the pieces its files share. */
#ifndef TRN_AVI_PRIVATE_H
#define TRN_AVI_PRIVATE_H

#include "nn/sparse.h"
#include "train/trn.h"

/* DAVI with o->table: every state of a small domain (found once by a
 * breadth-first search from the goal), a hash index over them, and per
 * state its leaf value (0 at the goal, else the target network's child
 * value settled to the floor and parity) and whether the floor decided it. */
struct trn_avi_table {
    uint8_t *states; /* n states, dom_state_bytes each */
    uint32_t n;
    uint32_t *slot; /* open addressing: state index + 1, 0 empty */
    uint64_t mask;  /* slots - 1 (a power of two, at least 2n) */
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
    uint8_t *buf_b; /* ring of buffer_max states (dom_state_bytes each) */
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

/* The states of t (train/avi_table.c): all of o->dom's, found when t holds
 * none yet. HN_ERR_UNSUPPORTED (naming the domain) for a domain with more
 * than TRN_AVI_MAX_TABLE_STATES or with a move without an inverse. */
int trn_avi_table_states(const struct trn_avi_opts *o, struct trn_avi_table *t);
/* The index of `state` in t, or -1 when it is not there. */
int64_t trn_avi_table_find(const struct trn_avi_opts *o, const struct trn_avi_table *t,
                           const uint8_t *state);
/* The leaf values of t from `target` (NULL: h = 0), on o->threads threads
 * (train/avi_davi.c). 0 or a status. */
int trn_avi_table_build(const struct trn_avi_opts *o, const nn_model *target,
                        struct trn_avi_table *t);
void trn_avi_table_free(struct trn_avi_table *t);

/* 1 when the targets come from a frozen copy of the trained network (not
 * from a teacher or the walk length): only then is there one to keep. */
int trn_avi_uses_target(const struct trn_avi_opts *o);
/* Network outputs of this run: one per move for a Q network (teacher_q), else one. */
int trn_avi_outputs(const struct trn_avi_opts *o);
/* Adam steps on rows (states of the run's domain, targets in moves,
 * trn_avi_outputs per state): `steps` batches of o->batch rows, taken in
 * order from idx (steps * batch entries). Adds to s->steps / s->samples;
 * *loss gets the mean training loss in moves^2. HN_ERR_INTERRUPTED on a
 * stop request. */
int trn_avi_fit(const struct trn_avi_opts *o, struct avi_state *s, const uint8_t *boards,
                const float *y, const uint32_t *idx, int steps, double *loss);

/* One round of each method (the round's figures into r). */
int trn_avi_davi_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r);
int trn_avi_boot_round(const struct trn_avi_opts *o, struct avi_state *s, struct trn_avi_round *r);

/* DAVI's targets of a round (or of one trn_avi_targets call), made in
 * chunks of states on several threads (train/avi_davi.c, train/avi_q.c). */
struct trn_avi_job {
    const struct trn_avi_opts *o;
    const nn_sparse *net;            /* the frozen network, or NULL (h = 0) */
    const struct trn_avi_table *tab; /* its leaf values of every state (o->table), or NULL */
    int outs;                        /* its outputs per row */
    uint8_t *s;                      /* the round's states, state_bytes each */
    int *walk;                       /* walk length, -1 for a uniform state */
    float *y;
    int *raised;
    int *base; /* residual heuristic per state, or NULL */
    size_t n;
    int generate;               /* 1: draw the states first (seeded per chunk) */
    uint64_t seed;              /* of this round's walks */
    struct trn_avi_table *fill; /* trn_avi_table_build: the table it fills */
};

/* The network's outputs (j->outs per state) for n states through a
 * workspace of this thread's own (j->net's weights). 0 or a status. */
int trn_avi_net_values(const struct trn_avi_job *j, const uint8_t *s, size_t n, float *h);
/* Value v of non-goal state st raised to its floor fl and, with o->parity,
 * rounded to the distance's parity; *raised is 1 when the floor decided. */
double trn_avi_settle(const struct trn_avi_opts *o, const uint8_t *st, double v, int fl,
                      int *raised);
/* Targets of states [lo, hi) of j without a backup (train/avi_q.c): the
 * teacher's values (distill), the teacher's value of each move's child (a
 * Q network's teacher), or Bellman values of each move's child from the
 * frozen Q network. 0 or a status. */
int trn_avi_chunk_distill(const struct trn_avi_job *j, size_t lo, size_t hi);
int trn_avi_chunk_q_teacher(const struct trn_avi_job *j, size_t lo, size_t hi);
int trn_avi_chunk_q_bellman(const struct trn_avi_job *j, size_t lo, size_t hi);

/* Run fn(user, job) for job = 0..njobs-1 on o->threads threads (jobs are
 * taken in order; fn must not depend on which thread runs it). Returns the
 * first nonzero status a job returned. */
int trn_avi_parallel(int threads, int njobs, int (*fn)(void *user, int job), void *user);

/* Checkpoints (train/avi_ckpt.c): the current model with its record plus
 * /avi holding the optimizer, the target network, counters and the buffer. */
int trn_avi_ckpt_save(const char *path, const struct trn_avi_opts *o, const struct avi_state *s);
/* Fills s (m, target, a, buffer; t is made by the caller). */
int trn_avi_ckpt_load(const char *path, const struct trn_avi_opts *o, struct avi_state *s);

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

/* A model (named `name`) this run may continue: of the run's domain and
 * encoding, with its outputs and residual. 0 or HN_ERR_ARG / HN_ERR_SHAPE
 * naming the file and what differs. */
int trn_avi_check_model(const struct trn_avi_opts *o, const nn_model *m, const char *name);

/* The avi_* training record on s->m. */
int trn_avi_record(const struct trn_avi_opts *o, const struct avi_state *s);

#endif
