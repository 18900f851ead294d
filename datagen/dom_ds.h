/* datagen/dom_ds.h: optimally labelled datasets of any domain (domains/dom.h)
 * and the generator behind `heurnet gen --domain D` for domains without the
 * n-puzzle's specialised code. Part of the datagen module; datagen/dg.h
 * includes it.
 *
 * File layout (docs/formats.md "Domain datasets"):
 *   /states   uint8  [rows, state_bytes]  the domain's state bytes
 *   /cost     uint16 [rows]               optimal cost to the goal
 *   /expanded uint64 [rows]               IDA* expansions (0 for path rows)
 *   /source   uint8  [rows]               enum dg_source (random, path, walk)
 *   /walk     uint16 [rows]               moves of the state's random walk
 *                                         (0 for uniform and path rows)
 * Root attributes: see dg_dom_info, plus format = "heurnet-dom-dataset" and
 * format_version. The generator writes FILE.part (rows uncompressed, with
 * the CRC-32 of each dataset's committed rows as attributes crc_NAME) and,
 * once every state is labelled, packs it compressed into FILE (sealed with
 * a checksum); a stopped or killed run leaves FILE.part with its committed
 * rows, and the same command continues it. */
#ifndef DG_DOM_DS_H
#define DG_DOM_DS_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "domains/dom.h"
#include "search/srch.h"

HEURNET_API_BEGIN

#define DG_DOM_FORMAT "heurnet-dom-dataset"
#define DG_DOM_FORMAT_VERSION 1
/* Longest random walk (the /walk dataset is uint16). */
#define DG_DOM_MAX_WALK 65535

/* What a domain dataset says about itself. Strings are NUL-terminated. */
typedef struct dg_dom_info {
    char domain[256];    /* dom_spec of the domain ("pancake:12", "cube3") */
    int state_bytes;     /* columns of /states */
    int inputs;          /* network inputs of the domain's encoding */
    char encoding[128];  /* the domain's encoding name ("" when it has none) */
    char heuristic[128]; /* the admissible heuristic IDA* used */
    char solver[16];     /* "idastar" */
    char source[32];     /* "random-walk", "uniform", "file" or "all"; "+path" with
                            path rows */
    char from[512];      /* the instance file of source "file" ("" otherwise) */
    uint64_t from_crc;   /* CRC-32 of that file's bytes */
    int walk_min, walk_max;
    int path_states; /* 1: every state on each optimal path is a row too */
    uint64_t seed;
    /* Shard shard_index of shard_count holds the states [first_index,
     * first_index + count) of the run's total_count (0, 1, 0, count when
     * unsharded; files without these attributes are unsharded). */
    int shard_index, shard_count;
    uint64_t first_index, total_count;
    uint64_t count;     /* sampled states the file holds when complete */
    uint64_t done;      /* sampled states labelled and committed */
    uint64_t committed; /* rows committed (path rows included) */
    int complete;
    int merged;                     /* shards joined by dg_dom_merge (0: none) */
    int is_virtual;                 /* 1: the datasets are HDF5 virtual datasets over the shards */
    char version[32], revision[64]; /* of the tool that wrote the file */
} dg_dom_info;

/* Read and check a domain dataset's attributes and datasets (types, ranks,
 * state_bytes columns, rows >= committed). HN_ERR_FORMAT (message naming
 * the file and what is wrong) for anything else, HN_ERR_IO when it cannot
 * be opened. */
int dg_dom_info_read(const char *path, dg_dom_info *info);

/* 1 when path opens as HDF5 with root attribute format = DG_DOM_FORMAT
 * (whatever else is wrong with it, checksum included: the readers say
 * that), else 0. */
int dg_dom_is_dataset(const char *path);

/* Sources of /source rows (enum dg_source values below this). */
#define DG_DOM_SOURCES 5
/* dg_dom_info_read into *info and, in the same pass over the file, the
 * committed rows' costs: hist[c] rows of cost c (the last bin, cap - 1,
 * holds every cost from there up), by_source[DG_DOM_SOURCES] rows per
 * /source value, *max_cost the largest cost. Errors as dg_dom_info_read. */
int dg_dom_histogram(const char *path, dg_dom_info *info, uint64_t *hist, size_t cap,
                     uint64_t *by_source, unsigned *max_cost);

/* What `heurnet gen` labels: sampled state g (0..count-1) is the
 * (g mod DG_SEED_BLOCK)-th draw of an RNG seeded with hn_seed_mix(seed,
 * g / DG_SEED_BLOCK): a walk of walk_min..walk_max moves from the goal
 * (dom_walk), or with uniform a dom_random_state; with instances it is
 * instances[g]; with all it is the g-th state of a breadth-first search
 * from the goal. The file therefore never depends on the thread count,
 * shards or restarts. Shard i of N holds the contiguous states
 * [total*i/N, total*(i+1)/N): the shards in order equal the unsharded file. */
typedef struct dg_dom_gen_opts {
    const dom *d;
    const char *heur_name; /* admissible heuristic (srch_dom_heur_adm) */
    /* The heuristic already open (its tables loaded), cloned per thread;
     * NULL: opened by heur_name. */
    const struct srch_dom_heur *heur;
    uint64_t count, seed;
    int walk_min, walk_max; /* 0 <= min <= max <= DG_DOM_MAX_WALK */
    int uniform;            /* draw uniform states instead (facts->has_uniform) */
    int path_states;        /* also store every state on the optimal path */
    int threads;            /* labelling threads (>= 1) */
    /* Label these states instead (count, seed and walks are ignored); from
     * and from_crc name their file in the attributes. */
    const dom_instance_rec *instances;
    size_t ninstances;
    const char *from;
    uint32_t from_crc;
    /* Every state reachable from the goal, labelled by breadth-first search
     * (no heuristic; unit-cost reversible domains of at most DG_DOM_ALL_MAX
     * states). */
    int all;
    int shard_index, shard_count; /* 0/1 (or 0/0) when not sharded */
    srch_limits limits;           /* per state; a state beyond them stops the run */
    int overwrite;                /* 1: start afresh (drop FILE.part, replace FILE) */
    uint64_t stop_after;          /* test hook: stop as if interrupted after this many
                                     more states (0 = never) */
    hn_progress_fn progress;      /* states done / states of this run; may be NULL */
    void *user;
} dg_dom_gen_opts;

typedef struct dg_dom_gen_stats {
    uint64_t resumed_from; /* states FILE.part held before this run */
    uint64_t states;       /* states labelled by this run */
    uint64_t rows;         /* rows in the file at the end */
    uint64_t expanded;     /* IDA* expansions of this run */
    double seconds;
    int complete; /* 1 when FILE holds every state */
} dg_dom_gen_stats;

/* Label states into `path` (see the layout above). An existing FILE made
 * with the same settings and complete is left as it is (nothing to do);
 * with other settings it is refused unless overwrite. On Ctrl-C
 * (hn_stop_requested) or stop_after the labelled states are committed to
 * FILE.part and HN_ERR_INTERRUPTED is returned. A state beyond the limits,
 * a label above its walk's length (an inadmissible heuristic) or an HDF5
 * failure stop the run with the status and hn_errmsg set. *st may be NULL. */
int dg_dom_gen_run(const char *path, const dg_dom_gen_opts *o, dg_dom_gen_stats *st);

/* heurnet gen's defaults on domain d: 1 when states are drawn uniformly
 * rather than by walks (the n-puzzle up to 5x5, as the published datasets
 * are; a uniform cube or 6x6 board is beyond IDA*), and the labelling
 * heuristic (the published PDBs of the 15- and 24-puzzle, linear conflicts
 * for the 8-puzzle, the cube's fsst table, else the domain's first; "" for
 * none) in buf. */
int dg_dom_gen_default_uniform(const dom *d);
const char *dg_dom_gen_default_heur(const dom *d, char *buf, size_t cap);

/* The most states `all` enumerates (the 8-puzzle has 181,440). */
#define DG_DOM_ALL_MAX (1u << 22)

/* Join the complete shards of one run (any order) into `out`: with
 * virtual_ds an HDF5 virtual dataset over the shard files (as named; a
 * shard in out's folder by its bare name, so the set can move together),
 * else a copy of their rows, compressed and sealed. The shards must agree
 * on every setting and cover the run without gap or overlap; HN_ERR_ARG
 * naming the file otherwise, HN_ERR_FORMAT/HN_ERR_IO for unreadable ones.
 * out is written under a temporary name and renamed when whole. */
int dg_dom_merge(const char *out, const char *const *shards, int n, int virtual_ds);

/* Under mpirun: each rank runs shard(ctx, path, rank, ranks) on its shard
 * FILE-stem.shardR-of-K.h5 (out without ".h5"), waiting for the others
 * without spinning; when every shard returned 0, rank 0 joins them in a
 * virtual dataset at out. *worst: on rank 0 the largest return of all
 * ranks, elsewhere this rank's. Returns the join's status (HN_OK when none
 * was made); HN_ERR_UNSUPPORTED in a build without MPI. */
int dg_dom_gen_ranks(const char *out,
                     int (*shard)(void *ctx, const char *path, int index, int count), void *ctx,
                     int *worst, int *rank, int *size);

/* CRC-32 (zlib) of a file's bytes, for recording --from files. */
int dg_file_crc32(const char *path, uint32_t *crc);

HEURNET_API_END

#endif
