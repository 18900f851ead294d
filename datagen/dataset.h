/* datagen/dataset.h: labelled n-puzzle datasets in HDF5 (writer, reader,
 * merge) and the labelled-data generator behind `heurnet gen`. Part of the
 * datagen module; datagen/dg.h includes it.
 *
 * File layout (docs/formats.md "Datasets"):
 *   /boards   uint8  [rows, cells]  tiles row-major, 0 = blank
 *   /cost     uint16 [rows]         optimal distance to the goal
 *   /expanded uint64 [rows]         nodes the labelling solver expanded
 *                                   (0 for rows that needed no own search)
 *   /source   uint8  [rows]         enum dg_source, per row
 * all chunked, shuffle + deflate, extent unlimited in rows.
 * Root attributes: see dg_ds_info. A file is valid at every moment the writer
 * is not inside dg_writer_append/commit: the dataset extent then equals the
 * attribute `committed`, and `complete` is 1 only once the requested count is
 * written. Readers use `committed` rows (never more than the extent). */
#ifndef DG_DATASET_H
#define DG_DATASET_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"

HEURNET_API_BEGIN

/* Where a row comes from (the /source dataset). */
enum dg_source {
    DG_SOURCE_RANDOM = 0, /* uniform random solvable board */
    DG_SOURCE_PATH = 1,   /* a board on the optimal path of the previous sampled board */
    DG_SOURCE_WALK = 2,   /* random walk from the goal */
    DG_SOURCE_FILE = 3,   /* a board of an instance file */
    DG_SOURCE_ALL = 4     /* enumeration of every state (8-puzzle) */
};
/* "random", "path", "random-walk", "file", "all"; "?" for other values. */
const char *dg_source_name(int source);

/* Boards are drawn in blocks of this many indices; block b uses an RNG seeded
 * with hn_seed_mix(seed, b). Recorded in the file as `seed_block`. */
#define DG_SEED_BLOCK 4096

/* Everything a dataset file says about itself: enough to reproduce it, to
 * resume it, and to check that shards belong together. Strings are
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
    int merged;                     /* number of shards joined by dg_merge (0: none) */
    int is_virtual;                 /* 1 when /boards etc. are HDF5 virtual datasets */
    char version[32], revision[64]; /* of the tool that wrote the file */
} dg_ds_info;

/* ---- writer ------------------------------------------------------------ */

typedef struct dg_writer dg_writer;

/* Create `path` (replacing any file there) with the datasets empty and the
 * attributes of `info` (done/committed/complete start at 0). Returns NULL and
 * sets *status (may be NULL) with hn_errmsg naming the file on failure. */
dg_writer *dg_writer_create(const char *path, const dg_ds_info *info, int *status);

/* Reopen an unfinished (or finished) dataset to continue it. Fails with
 * HN_ERR_ARG and a message naming the first differing attribute when the file
 * was made with other settings; `count` may grow when the file is unsharded.
 * On success *found holds the file's info (done, committed) and the file's
 * count is raised to info->count. Rows beyond `committed` (a run killed while
 * writing) are cut off. */
dg_writer *dg_writer_resume(const char *path, const dg_ds_info *info, dg_ds_info *found,
                            int *status);

/* Append n rows. expanded may be NULL (stored as 0); source may be NULL (every
 * row gets the default source of the file's `source` attribute). The rows are
 * not committed until dg_writer_commit. */
int dg_writer_append(dg_writer *w, const uint8_t *boards, const uint16_t *cost,
                     const uint64_t *expanded, const uint8_t *source, size_t n);

/* Record that `done` boards are finished and every appended row is
 * committed, then flush the file to disk. */
int dg_writer_commit(dg_writer *w, uint64_t done);

/* Rows committed so far. */
uint64_t dg_writer_rows(const dg_writer *w);

/* Mark the file complete when `complete` is nonzero, flush, close and free.
 * Returns the first error seen (NULL is allowed and returns HN_OK). */
int dg_writer_close(dg_writer *w, int complete);

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

/* ---- merge --------------------------------------------------------------- */

/* Join shard files into `out` (written as out.part, renamed when complete).
 * The shards must agree on every setting, be complete, and together cover
 * one run's boards without gap or overlap (any order on the command line).
 * virtual_ds 0: copy the rows; 1: an HDF5 virtual dataset that refers to the
 * shard files (by the names given, relative names resolved against the
 * output's folder by HDF5), so the shards must stay where they are. */
int dg_merge(const char *out, const char *const *shards, int n, int virtual_ds);

HEURNET_API_END

#endif
