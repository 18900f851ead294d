/* train: turns labelled datasets into trained models with the nn library —
 * dataset reader (n-puzzle /boards + /cost encoded on the fly with
 * npuzzle-onehot, or generic /x + /y float rows), a fixed validation split by
 * hash of the row, seeded shuffling, the training loop (Adam, learning-rate
 * schedules, early stopping keeping the best weights), per-epoch metrics and
 * checkpoints that resume bit for bit. Nothing prints; progress and epoch
 * lines go through callbacks. Errors: status codes of common/hn.h with
 * hn_errmsg() naming the file and dataset. */
#ifndef TRN_H
#define TRN_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "domains/dom.h"
#include "nn/nn.h"
#include "search/srch.h"

HEURNET_API_BEGIN

/* ---- datasets ---------------------------------------------------------- */

enum trn_split { TRN_TRAIN = 0, TRN_VAL = 1 };

typedef struct trn_data trn_data;

/* Open and read `n` dataset files (all of one kind and shape). Rows are kept
 * in their stored form (one byte per cell for boards) and encoded per batch.
 * Only the committed rows (attribute `committed`, when present) are read;
 * virtual datasets are read through HDF5. A row goes to the validation split
 * when a hash of its content (board bytes or feature floats) falls below
 * `val_fraction`, so equal boards share a split and the split does not depend
 * on the seed or on the files' order. Fails with a message naming the file
 * and dataset for: missing or unreadable files and datasets, wrong dtype or
 * rank, rows that disagree between datasets, no rows, NaN/Inf or negative
 * targets, boards that are not permutations, files that disagree.
 * `sources` (0: all rows) keeps only rows whose /source value v has bit v set
 * (e.g. 1u << 0: the random boards of a file made with --path-states). */
trn_data *trn_data_open(const char *const *paths, int n, double val_fraction, unsigned sources,
                        int *status);
/* The same, where files may also be domain datasets (datagen/dom_ds.h:
 * /states + /cost, root attribute `domain`): their rows are state bytes,
 * checked to be states of `dm` (they format and parse back to the same
 * bytes, and encode to at most DOM_MAX_ACTIVE inputs below facts->inputs)
 * and encoded per batch by dom_encode as 0/1 inputs. A domain dataset
 * without dm, or of another domain than dm (neither dom_spec nor
 * dom_canonical), and n-puzzle boards of another domain than dm fail with
 * HN_ERR_ARG naming the file and both domains. dm must outlive d. */
trn_data *trn_data_open_dom(const char *const *paths, int n, double val_fraction, unsigned sources,
                            const dom *dm, int *status);
void trn_data_free(trn_data *d);
/* The domain a data file records into buf: a domain dataset's `domain`
 * attribute, "" for other files. 0, or a status naming the file when it
 * cannot be read. */
int trn_data_file_domain(const char *path, char *buf, size_t cap);
/* The domain training data is read through, into *dm (NULL when nothing
 * names one: data that needs none): `given` (may be NULL), else the one
 * the model `init` (may be NULL) records when the data names one too, else
 * the first data file's. HN_ERR_ARG naming the file when that domain
 * cannot be opened, or when init's is another. */
int trn_data_domain_open(const char *given, const char *data0, const char *init, dom **dm);
/* The data's domain ("pancake:12", "npuzzle:4x4"; "" for /x rows). */
const char *trn_data_domain(const trn_data *d);
/* The first file whose `complete` attribute is 0 (a heurnet gen that has not
 * finished; only its committed rows are read), or NULL. Owned by d. */
const char *trn_data_incomplete(const trn_data *d);

/* Network inputs per row (cells^2 for boards, d for /x rows). */
int trn_data_inputs(const trn_data *d);
/* Encoder the rows go through ("npuzzle-onehot n=4 goal=blank-first", or the
 * /x file's `encoder` attribute, or "" when it has none). */
const char *trn_data_encoder(const trn_data *d);
/* Board width (3..5) for board datasets and /states of a square n-puzzle
 * of 3x3..5x5, 0 for other rows. */
int trn_data_width(const trn_data *d);
uint64_t trn_data_rows(const trn_data *d, enum trn_split s);
/* Mean and standard deviation of the targets of a split. */
void trn_data_target_stats(const trn_data *d, enum trn_split s, double *mean, double *std);
/* Rows of both splits whose target is at most `cost` (states near the goal). */
uint64_t trn_data_rows_within(const trn_data *d, double cost);
/* Encode rows idx[0..n) of split s into x [n, inputs] and y [n] (targets in
 * their own units). */
void trn_data_batch(const trn_data *d, enum trn_split s, const uint32_t *idx, int n, float *x,
                    float *y);
/* Record the data files (paths, rows, every root attribute) as model
 * metadata "data<i>.<attribute>". */
int trn_data_record(const trn_data *d, nn_model *m);

/* ---- training ---------------------------------------------------------- */

enum trn_schedule { TRN_LR_CONSTANT = 0, TRN_LR_STEP = 1, TRN_LR_COSINE = 2 };

/* What one epoch measured. Losses are in target units squared (moves^2),
 * with the training loss (mse or asymmetric mse); val_mae in target units;
 * val_exact / val_over are shares of validation rows whose rounded
 * prediction equals / exceeds the target. */
struct trn_epoch {
    int epoch; /* 1-based */
    double train_loss, val_loss, val_mae, val_exact, val_over;
    double samples_per_s, seconds, lr;
    int best; /* 1 if this epoch improved the validation loss */
};

typedef void (*trn_epoch_fn)(const struct trn_epoch *e, void *user);

/* Processes that train one model together (data parallel, e.g. MPI ranks,
 * see train/trn_mpi.h). Every process reads the same data and holds the
 * whole model; each takes stripe `rank` of every batch. The sums are
 * collective: every process calls them in the same order, and they sum
 * element-wise over the processes in place, returning 0 or a status. */
struct trn_comm {
    int rank, size;
    int (*sum_float)(float *buf, size_t n, void *user);   /* the gradients */
    int (*sum_double)(double *buf, size_t n, void *user); /* statistics */
    /* Value iteration (trn_avi_run): buf holds n elements of elem bytes,
     * process p filled [part[p], part[p + 1]) (part has size + 1 entries,
     * part[0] = 0, part[size] = n); afterwards every process holds all n. */
    int (*share)(void *buf, size_t elem, const size_t *part, void *user);
    /* Copy process 0's n bytes of buf to every process. */
    int (*bcast)(void *buf, size_t n, void *user);
    /* Wait, sleeping, until every process calls it (may be NULL): a process
     * that finished its part first then leaves the CPU to the others. */
    int (*wait)(void *user);
    void *user;
};

struct trn_opts {
    const char *arch;                  /* spec string, input width first (NULL with init) */
    struct nn_layer_defaults defaults; /* hidden-layer defaults */
    enum nn_loss loss;
    float over_weight; /* amse factor (> 1 penalises over-estimates); quantile: tau */
    int batch, epochs;
    double lr;
    enum trn_schedule schedule;
    int lr_step;     /* step: epochs between decays [10] */
    double lr_gamma; /* step: factor per decay [0.5] */
    double lr_min;   /* cosine: final learning rate as a share of lr [0.01] */
    double weight_decay;
    uint64_t seed;
    int threads;            /* recorded; the caller sets BLAS threads */
    int patience;           /* epochs without improvement before stopping; 0: off */
    const char *checkpoint; /* written each epoch and on a stop request; may be NULL */
    const char *resume;     /* checkpoint to continue from; may be NULL */
    const char *init;       /* model whose weights and target scaling a fresh
                               run starts from (fine-tuning); may be NULL. Its
                               spec is used when arch is NULL, else must equal it */
    trn_epoch_fn on_epoch;
    void *epoch_user;
    hn_progress_fn progress; /* samples done in the current epoch; extra says
                                "epoch E/N loss L" */
    void *progress_user;
    const struct trn_comm *comm; /* NULL: this process alone. Else the batch must be
                                    a multiple of comm->size; checkpoints are written
                                    by rank 0 and read by all */
};

/* Defaults: elu + bn + no dropout, mse, batch 512, 10 epochs, lr 1e-3,
 * constant, seed 1, 1 thread, no patience. */
extern const struct trn_opts TRN_OPTS_DEFAULTS;

struct trn_result {
    int epochs_run;           /* epochs completed in total (including resumed ones) */
    int stopped_early;        /* patience ran out */
    struct trn_epoch best;    /* the epoch whose weights the model holds */
    double seconds;           /* training time of this run (not of resumed parts) */
    double samples_per_s;     /* training samples per second of this run (wall clock) */
    double cpu_samples_per_s; /* the same per second of process CPU time */
    size_t params;
};

/* Train a model on d (or continue the checkpoint o->resume) and return the
 * model with the best validation weights (the last weights without a
 * validation split), target scaling and the training record set. On a stop
 * request (hn_stop_requested) the checkpoint is written when one is
 * configured and HN_ERR_INTERRUPTED is returned (no model). */
int trn_run(const trn_data *d, const struct trn_opts *o, nn_model **out, struct trn_result *res);

/* Evaluate a model on a split: the loss (o->loss, in target units squared),
 * MAE, exact and over shares, as in struct trn_epoch. */
int trn_evaluate(const trn_data *d, enum trn_split s, nn_model *m, int batch, enum nn_loss loss,
                 float over_weight, struct trn_epoch *e);

const char *trn_schedule_name(enum trn_schedule s);
int trn_schedule_parse(const char *s, enum trn_schedule *out);
/* "mse" or "amse:F". Returns 0 or HN_ERR_ARG. */
int trn_loss_parse(const char *s, enum nn_loss *loss, float *over_weight);

/* ---- learning without optimal labels (train/avi*.c, train/boot.c) ------ */

/* Value iteration on any domain (struct trn_avi_opts.dom): the n-puzzle
 * of every size, the cube and plug-ins run the same rounds.
 * DAVI (DeepCubeA's approximate value iteration): every round draws
 * batch * steps_per_round states by random walks of 0..walk_max moves back
 * from the goal (no immediate undo), labels each with the Bellman backup
 * min over its neighbours c of (1 + h_target(c)) (0 at the goal) and takes
 * steps_per_round Adam steps on them. h_target is a frozen copy of the
 * network (0 everywhere before its first update), replaced by the trained
 * one after a round whose training loss is under update_loss (every round
 * when update_loss is 0).
 * BOOTSTRAP (Arfaee, Zilles & Holte 2011): every round solves `boards`
 * states (random walks of `walk` moves) by weighted A* on the current
 * network under a node budget, adds the states of the solved paths with
 * their cost-to-go to a buffer and takes steps_per_round Adam steps on it;
 * when at least `raise` of them were solved the walks grow by `walk_step`
 * (up to walk_max), when fewer than `solved_min` were solved the budget
 * doubles. */
enum trn_avi_method { TRN_AVI_DAVI = 0, TRN_AVI_BOOT = 1 };

/* DAVI's backup may look several moves ahead: y(s) = min over the paths of
 * L moves (no immediate undo, stopping at the goal) of L + h_target(leaf),
 * so one target update carries values L moves back instead of one. */
#define TRN_AVI_MAX_LOOKAHEAD 3
/* With a target table the leaves are lookups, so deeper is cheap. */
#define TRN_AVI_MAX_TABLE_LOOKAHEAD 4
/* A target table holds every state of the domain: at most this many. */
#define TRN_AVI_MAX_TABLE_STATES 4194304u

/* What one round measured (losses in moves^2 of the round's own targets). */
struct trn_avi_round {
    int round;               /* 1-based, counting resumed rounds */
    uint64_t steps, samples; /* Adam steps and training rows so far */
    double loss;             /* mean training loss of the round */
    double target_mean, target_max;
    double floor_share;    /* DAVI: share of targets raised by the floor */
    int updated;           /* DAVI: 1 if the target network was replaced */
    int updates;           /* target-network replacements so far */
    int solved, boards;    /* BOOTSTRAP: states solved of those tried */
    uint64_t budget;       /* BOOTSTRAP: expansions allowed per state */
    int walk;              /* BOOTSTRAP: walk length of the states */
    uint64_t buffer;       /* BOOTSTRAP: labelled states held */
    double target_seconds; /* making the round's targets (walks, backups, searches) */
    double seconds;        /* wall time of the round */
    double total_seconds;  /* wall time of all rounds, resumed ones included */
    const nn_model *model; /* the network after the round (read only) */
};

typedef void (*trn_avi_round_fn)(const struct trn_avi_round *r, void *user);

/* Longest random walk of a run. */
#define TRN_AVI_MAX_WALK 100000

struct trn_avi_opts {
    enum trn_avi_method method;
    /* The domain (required): states, moves, encoding and heuristics come
     * from it. floor and residual may be NULL (residual_spec names
     * residual). */
    const struct dom *dom;
    const struct dom_heur *floor; /* admissible floor max(floor, target) */
    /* DAVI and bootstrapping on a residual: h = residual(s) + net(s); the
     * network is trained on target - residual(s) and starts at 0 (last
     * layer zeroed), so round 1 already backs up the residual heuristic.
     * residual_spec is its name (root attribute "residual" of the model). */
    const struct dom_heur *residual;
    const char *residual_spec;
    /* A heuristic whose value has the parity of the distance (may be NULL):
     * leaf values are rounded to the nearest integer of that parity. */
    const struct dom_heur *parity;
    const char *arch; /* spec (NULL with init or resume) */
    struct nn_layer_defaults defaults;
    const char *init;               /* start from this model's weights; may be NULL */
    const char *resume;             /* continue this checkpoint; may be NULL */
    const char *checkpoint;         /* written after every round and on a stop */
    double target_mean, target_std; /* output scaling of a fresh network
                                       (trn_avi_default_scale) */
    int batch;                      /* rows per Adam step [1000] */
    int rounds;                     /* rounds in total [100] */
    int steps_per_round;            /* Adam steps per round (DAVI: U) [500] */
    double lr, lr_decay;            /* lr * lr_decay^step [1e-3, 1] */
    uint64_t seed;
    int threads;      /* target / search threads [1] */
    int blas_threads; /* BLAS threads of the Adam steps [1] */
    /* DAVI */
    int walk_max;        /* K [30] */
    double update_loss;  /* threshold; 0: replace every round [0] */
    int clamp;           /* 1: target <= walk length (an upper bound) [1] */
    int integer_targets; /* 1: child values rounded, >= 0 (unit costs) [0] */
    int target_q8;       /* 1: the target network runs in int8 (nn/sparse.h's Q8) [0: float] */
    int lookahead;       /* backup depth in moves, 1..TRN_AVI_MAX_LOOKAHEAD (with a
                            table 1..TRN_AVI_MAX_TABLE_LOOKAHEAD) [1] */
    int walk_targets;    /* 1: the target is the walk length itself, no backup
                            (CayleyPy's diffusion distance) [0] */
    /* Distillation (teacher NULL: off): the targets are a one-output
     * teacher network's values, 0 at the goal, no backup; with a residual
     * both teacher and student are corrections to it.
     * teacher_q 0: the state's own value (a student of another shape).
     * teacher_q 1: a Q network, one output per move, output m trained on
     * the teacher's value of the state after move m (a move that does not
     * apply: the teacher's value of the state + 1), so a search values all
     * children of a state with one row (Q* search, Agostinelli et al.
     * 2024); with --init-from a one-output model the run starts from it,
     * its output repeated. teacher_q 1 with teacher NULL: the same network
     * learns Bellman values of the children from its frozen copy (each
     * child's least 1 + output over its moves; floor, parity, clamp at the
     * walk length + 1; one-move backups, no residual). The caller owns the
     * teacher; teacher_name is its file. */
    const nn_model *teacher;
    const char *teacher_name;
    int teacher_q;
    double uniform_share; /* share of the states drawn uniformly instead of by a
                             walk (no walk length, no clamp) [0] */
    /* States to start from (for instance the states on a search's solution
     * paths), dom_state_bytes each: a share start_share of each round's
     * states is one of them, drawn uniformly and walked 0..start_walk moves
     * on (no walk length: no clamp). The caller owns them; start_name names
     * them in the record. */
    const uint8_t *start_states;
    size_t nstart;
    double start_share; /* 0..1, with uniform_share at most 1 [0] */
    int start_walk;     /* [0] */
    const char *start_name;
    int table;     /* a small domain (at most TRN_AVI_MAX_TABLE_STATES states,
                      every move reversible): after each target update the
                      target network's leaf values of all states go into a
                      table, and the targets are lookups in it [0] */
    int lr_cosine; /* 1: within each round the lr falls from lr * decay^step
                      to 0 along a half cosine (restarts each round) [0] */
    /* BOOTSTRAP */
    int boards;               /* states per round [100] */
    uint64_t budget;          /* initial expansions per state [2000] */
    double weight;            /* weighted A*: f = g + weight * h [1.5] */
    int walk, walk_step;      /* first walk length, growth [20, 10] */
    double raise, solved_min; /* [0.9, 0.5] */
    uint64_t buffer_max;      /* labelled states kept (oldest dropped) [1000000] */
    trn_avi_round_fn on_round;
    void *round_user;
    hn_progress_fn progress; /* steps done in the round */
    void *progress_user;
    /* NULL: this process alone. Else every process makes a part of each
     * round's targets (DAVI states, bootstrap searches), all hold all of
     * them, and each takes stripe `rank` of every batch; batch must be a
     * multiple of comm->size. Checkpoints are written by rank 0 and read by
     * all; on_round and progress should print on rank 0 only. */
    const struct trn_comm *comm;
};

/* Defaults as in the brackets above (method DAVI, no domain, target
 * scaling 0 / 1, seed 1). */
void trn_avi_opts_default(struct trn_avi_opts *o);

/* The output scaling of a fresh network on domain d (the command line's
 * and the library's default): mean 0.9 x and std 0.25 x the domain's
 * typical distance (40 when it gives none), close to what the n-puzzle
 * used on its own path (8-puzzle 20,6; 15-puzzle 50,12); on a residual
 * mean 0 and a quarter of that std, as the network learns a correction of
 * a few moves. */
void trn_avi_default_scale(const struct dom *d, int residual, double *mean, double *std);

/* Train by DAVI or bootstrapping (o->method) and return the network with its
 * training record (avi_* attributes). On a stop request the checkpoint is
 * written when configured and HN_ERR_INTERRUPTED returned (no model).
 * HN_ERR_ARG for bad options (message names the option). */
int trn_avi_run(const struct trn_avi_opts *o, nn_model **out);

/* The DAVI target of each of n states of o->dom (dom_state_bytes each,
 * back to back) with the frozen network `target` (NULL: h = 0 everywhere),
 * o->floor, o->residual, o->parity, o->lookahead, o->table, o->clamp and
 * o->integer_targets (each child's network value rounded to the nearest
 * integer before the floor and the min) (walk[i] is state i's walk length,
 * or NULL for no clamp), on o->threads threads. Targets are in moves (the
 * residual not subtracted). 0 or a status. */
int trn_avi_targets(const struct trn_avi_opts *o, const nn_model *target, const uint8_t *states,
                    const int *walk, size_t n, float *y);

HEURNET_API_END

#endif
