/* datagen/dataset.h: what every dataset shares (row sources, the seed
 * block) and the read-only reader of n-puzzle datasets of the old layout,
 * which heurnet gen wrote before the n-puzzle became a domain (it writes
 * domain datasets now, datagen/dom_ds.h). Part of the datagen module;
 * datagen/dg.h includes it.
 *
 * Old layout (docs/formats.md "Old n-puzzle datasets"):
 *   /boards   uint8  [rows, cells]  tiles row-major, 0 = blank
 *   /cost     uint16 [rows]         optimal distance to the goal
 *   /expanded uint64 [rows]         nodes the labelling solver expanded
 *                                   (0 for rows that needed no own search)
 *   /source   uint8  [rows]         enum dg_source, per row
 * Root attributes: see dg_ds_info. Readers use `committed` rows (never more
 * than the extent). */
#ifndef DG_DATASET_H
#define DG_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"

HEURNET_API_BEGIN

/* Where a row comes from (the /source dataset). */
enum dg_source {
    DG_SOURCE_RANDOM = 0, /* uniformly random (solvable) state */
    DG_SOURCE_PATH = 1,   /* a state on the optimal path of the previous sampled one */
    DG_SOURCE_WALK = 2,   /* random walk from the goal */
    DG_SOURCE_FILE = 3,   /* a state of an instance file */
    DG_SOURCE_ALL = 4     /* enumeration of every state (--all) */
};

/* States are drawn in blocks of this many indices; block b uses an RNG seeded
 * with hn_seed_mix(seed, b). Recorded in the file as `seed_block`. */
#define DG_SEED_BLOCK 4096

/* Everything an old dataset file says about itself. Strings are
 * NUL-terminated and truncated to their arrays. */
typedef struct dg_ds_info {
    int width, cells;   /* 4, 16 for the 15-puzzle */
    char goal[16];      /* "blank-first" or "blank-last" */
    char heuristic[64]; /* solver heuristic ("pdb:7-8"), "bfs" for --all */
    char solver[16];    /* "idastar", "bfs" */
    char source[32];    /* "random", "random+path", "random-walk", "file", "all" */
    char from[512];     /* instance file (source "file") */
    uint32_t from_crc;  /* CRC-32 of that file's bytes */
    int walk_length;    /* source random-walk: moves per walk */
    int path_states;    /* 1: rows on optimal paths are included */
    uint64_t seed;
    int shard_index, shard_count; /* this file is shard index of count (0/1 unsharded) */
    uint64_t first_index;         /* global index of this file's first board */
    uint64_t count;               /* boards this file holds when complete */
    uint64_t total_count;         /* boards over all shards */
    /* Progress, maintained by the writer. */
    uint64_t done;                  /* boards finished and committed (generator cursor) */
    uint64_t committed;             /* rows committed: readers use this many rows */
    int complete;                   /* 1 once done == count */
    int merged;                     /* number of shards joined by data merge (0: none) */
    int is_virtual;                 /* 1 when /boards etc. are HDF5 virtual datasets */
    char version[32], revision[64]; /* of the tool that wrote the file */
} dg_ds_info;

/* ---- reader ------------------------------------------------------------ */

/* Read the attributes of a heurnet dataset and check its datasets' types and
 * shapes. Fails (HN_ERR_FORMAT, message naming the file and the dataset or
 * attribute) for non-heurnet HDF5 files, wrong dtypes or shapes. */
int dg_ds_info_read(const char *path, dg_ds_info *info);

/* A whole dataset in memory (the committed rows). */
typedef struct dg_dataset {
    dg_ds_info info;
    uint64_t rows;
    uint8_t *boards;    /* rows * cells */
    uint16_t *cost;     /* rows */
    uint64_t *expanded; /* rows */
    uint8_t *source;    /* rows */
} dg_dataset;

/* Load the committed rows of `path` and check every board is a permutation of
 * 0..cells-1. Returns NULL and sets *status on failure; free with
 * dg_dataset_free. */
dg_dataset *dg_dataset_load(const char *path, int *status);
void dg_dataset_free(dg_dataset *d);

/* Count rows per cost (hist[c] for c < cap; costs >= cap go to hist[cap-1])
 * and rows per source (by_source[0..4], may be NULL), reading in blocks.
 * *max_cost gets the largest cost (may be NULL). */
int dg_ds_histogram(const char *path, uint64_t *hist, size_t cap, uint64_t *by_source,
                    unsigned *max_cost);

HEURNET_API_END

#endif
