/* datagen: building pattern databases and labelled data sets. One public
 * header for the module. */
#ifndef DG_H
#define DG_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "search/srch.h"

HEURNET_API_BEGIN

/* ======================================================================
 * Pattern database construction (datagen/pdb*.c)
 * ==================================================================== */

/* Build the blank-aware additive PDB of `part` for the blank-first goal:
 * per pattern, a layered scan over (placement, region of the blank) where
 * blank moves cost 0 and pattern-tile moves cost 1; each entry stores the
 * minimum over blank positions. `threads` (>= 1) share each layer's scan.
 * `progress` (may be NULL) is called after each layer with entries done /
 * total over all patterns. Polls hn_stop_requested(). Returns 0 with *out
 * (caller frees with srch_np_pdb_free), or HN_ERR_NOMEM / HN_ERR_ARG /
 * HN_ERR_INTERRUPTED with a message; *out is then NULL. */
int dg_pdb_build(const srch_np_partition *part, int threads, hn_progress_fn progress, void *user,
                 srch_np_pdb **out);

/* ======================================================================
 * Labelled data
 * ==================================================================== */

/* Dataset files (writer, reader, merge): see datagen/dataset.h. */
#include "datagen/dataset.h"
/* Datasets of any domain and their generator: see datagen/dom_ds.h. */
#include "datagen/dom_ds.h"

/* What `heurnet gen` labels: board g (global index 0..total-1) is
 *   uniform random:  the (g mod DG_SEED_BLOCK)-th board drawn from an RNG
 *                    seeded with hn_seed_mix(seed, g / DG_SEED_BLOCK);
 *   random walk:     the same, with srch_np_board_random_walk;
 *   instance file:   instances[g].
 * so the content never depends on the thread count, shards or restarts.
 * Shard i of N holds the contiguous boards [total*i/N, total*(i+1)/N); the
 * shards concatenated in shard order equal the unsharded file. */
typedef struct dg_gen_opts {
    int width, goal;          /* board width (3, 4, 5), enum srch_np_goal */
    const srch_np_heur *heur; /* solver heuristic, shared read-only by the threads */
    const char *heur_name;    /* recorded as attribute `heuristic` ("pdb:7-8") */
    uint64_t count;           /* boards over all shards (ignored with instances) */
    uint64_t seed;
    int threads;                       /* labelling threads (>= 1) */
    int path_states;                   /* also store every board on the optimal path */
    int walk_length;                   /* > 0: random walks of this many moves */
    const srch_np_instance *instances; /* non-NULL: label these boards (--from) */
    size_t ninstances;
    const char *from; /* their file, recorded with its CRC-32 */
    uint32_t from_crc;
    int shard_index, shard_count; /* 0/1 when not sharded */
    srch_limits limits;           /* per board; a board hitting them stops the run */
    int overwrite;                /* 0: continue an existing file, 1: start afresh */
    uint64_t stop_after;          /* test hook: act as if interrupted once this many
                                     more boards are committed (0 = never) */
    hn_progress_fn progress;      /* boards done / count of this file; may be NULL */
    void *user;
} dg_gen_opts;

typedef struct dg_gen_stats {
    uint64_t resumed_from; /* boards the file held before this run */
    uint64_t boards;       /* boards labelled by this run */
    uint64_t rows;         /* rows in the file at the end */
    uint64_t expanded;     /* solver expansions in this run */
    double seconds;        /* wall time of this run */
    int complete;          /* 1 if the file holds every board */
} dg_gen_stats;

/* Label boards into the dataset `path` (see dataset.h for the layout),
 * continuing the file when it exists and matches (unless overwrite).
 * Commits every few seconds; on Ctrl-C (hn_stop_requested) or stop_after it
 * commits every finished board in index order and returns
 * HN_ERR_INTERRUPTED. Other errors (file made with other settings, a board
 * beyond the limits, HDF5 failure) return their status with hn_errmsg set;
 * the file then holds the rows committed before. *st may be NULL. */
int dg_gen_run(const char *path, const dg_gen_opts *o, dg_gen_stats *st);

/* All states of a small puzzle (width 3: the 181,440 8-puzzle states) with
 * exact distances from a breadth-first search from the goal, in order of
 * srch_np_board_rank. Same file handling as dg_gen_run (o->heur, count,
 * seed, path_states, walk_length and instances are ignored). */
int dg_gen_all(const char *path, const dg_gen_opts *o, dg_gen_stats *st);

HEURNET_API_END

#endif
