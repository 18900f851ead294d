/* Private to the reader of old n-puzzle datasets (/boards): the mapping
 * between dg_ds_info and root attributes, and dataset names. */
#ifndef DG_DATASET_PRIV_H
#define DG_DATASET_PRIV_H

#include "datagen/dataset.h"
#include "common/hn_h5.h"

#define DG_FORMAT "heurnet-dataset"
#define DG_FORMAT_VERSION 1
/* Read every attribute; `path` names the file in messages. */
int dg_info_read_attrs(hid_t f, const char *path, dg_ds_info *info);
/* The four per-row datasets, in this order everywhere. */
enum { DG_DS_BOARDS, DG_DS_COST, DG_DS_EXPANDED, DG_DS_SOURCE, DG_DS_COUNT };
extern const char *const dg_ds_names[DG_DS_COUNT];
hid_t dg_ds_mem_type(int k); /* native type of dataset k */
int dg_ds_rank(int k);       /* 2 for /boards [rows, cells], else 1 */
/* Read rows [start, start+n) of dataset d (kind k): 0 or -1; the caller
 * words the message. */
int dg_ds_rows_read(hid_t d, int k, int cells, uint64_t start, uint64_t n, void *buf);

/* Check /boards, /cost, /expanded, /source exist with the right class, size
 * and rank and agree in rows; *extent gets the rows of /boards. */
int dg_ds_check_shapes(hid_t f, const char *path, int cells, uint64_t *extent);

/* Dataset `name` of f exists, is an unsigned integer of `size` bytes, has
 * rank want_rank (with rank 2, `cols` columns, called cols_name in the
 * message) and passes hn_h5_dset_check; *rows gets its extent. 0 or
 * HN_ERR_FORMAT with a message naming path, name and `what` it should be. */
int dg_check_udset(hid_t f, const char *path, const char *name, const char *what, size_t size,
                   int want_rank, int cols, const char *cols_name, hsize_t *rows);

#endif
