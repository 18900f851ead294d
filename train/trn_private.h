/* train module internals shared between its files. */
#ifndef TRN_PRIVATE_H
#define TRN_PRIVATE_H

#include "train/trn.h"
#include "common/hn_h5.h"

/* trn_data.boards of a domain dataset: /states (state bytes, encoded
 * through the domain) + /cost. Stored like boards, one byte per column. */
#define TRN_STATES 2

/* One root attribute of a data file, kept for the model's training record. */
struct trn_attr {
    char name[64];
    int is_num;
    double num;
    char str[256];
};

struct trn_file {
    char *path;
    uint64_t rows;
    int nattr;
    struct trn_attr *attr;
};

struct trn_data {
    int boards;       /* 1: /boards + /cost, TRN_STATES, 0: /x + /y */
    const dom *dom;   /* the domain of /states rows (not owned); NULL: none given */
    dom *own_dom;     /* opened from a /states file's `domain` when none was given */
    char domain[256]; /* the data's domain spec ("" for /x rows) */
    unsigned sources; /* bit mask of /source values to keep; 0: all rows */
    int cells, width, goal;
    int d; /* inputs per row */
    char encoder[256];
    uint64_t n;       /* rows over all files */
    uint8_t *b;       /* boards: n * cells */
    float *x;         /* features: n * d */
    float *y;         /* targets: n */
    uint32_t *idx[2]; /* rows of the train / validation split */
    uint64_t nsplit[2];
    int nfiles;
    struct trn_file *files;
};

/* Write n values (n 0: one placeholder element) as the 1-D dataset `name`
 * of group g (named `group` in the message). 0 or HN_ERR_HDF5. */
int trn_h5_write_arr(hid_t g, const char *group, const char *name, hid_t type, const void *p,
                     size_t n);
/* n floats read from /group/name of path must be finite (and >= 0 with
 * nonneg): a damaged moment or label would train on NaN without a word.
 * 0 or HN_ERR_NAN naming the value and its index. */
int trn_check_floats(const char *path, const char *group, const char *name, const float *p,
                     size_t n, int nonneg);

/* One-hot rows as active inputs, ascending and once each (train/active.c),
 * for nn_train_forward_sparse; each returns the count. A board's tiles
 * (input t * cells + p for tile t on cell p; cells entries): */
int trn_active_tiles(const uint8_t *tiles, int cells, int32_t *act);
/* A domain state's encoding (DOM_MAX_ACTIVE entries); `bits` holds one bit
 * per input of the domain, zero on entry and on return. */
int trn_active_state(const dom *d, const void *state, int32_t *act, uint64_t *bits);

/* Most active inputs of a row of d's data, 0 for /x rows (not one-hot). */
int trn_data_active_max(const trn_data *d);
/* Rows idx[0..n) of split s as active inputs: row i's at
 * act[off[i] .. off[i+1]) (off[0] = 0), targets into y; bits as for
 * trn_active_state. Only for data with trn_data_active_max > 0. */
void trn_data_batch_active(const trn_data *d, enum trn_split s, const uint32_t *idx, int n,
                           int32_t *act, int32_t *off, float *y, uint64_t *bits);

/* Every process of a run must leave it together, or the others wait forever
 * in their next sum: rc becomes a failure (or a stop) in all of them when
 * one failed (or was asked to stop). c NULL: rc. */
int trn_comm_agree(const struct trn_comm *c, int rc);

/* Checkpoint I/O (train/ckpt.c). The state that a resumed run needs. */
struct trn_state {
    nn_model *m, *best;
    nn_train *t;
    nn_adam *a;
    int epoch;       /* epochs completed */
    uint64_t cursor; /* batches done in the current epoch */
    double loss_sum; /* training loss summed over those batches */
    double train_seconds;
    int bad_epochs; /* epochs since the best one */
    int have_best;
    struct trn_epoch best_e;
};
int trn_ckpt_save(const char *path, const struct trn_state *s, const struct trn_opts *o,
                  const trn_data *d);
/* Load into s (m, best, a allocated here; t created by the caller after). */
int trn_ckpt_load(const char *path, struct trn_state *s, const struct trn_opts *o,
                  const trn_data *d, uint8_t **rng_state, size_t *rng_len);

#endif
