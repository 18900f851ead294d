/* Private to the edge-matching data files (emp_moves.c, emp_place.c): the
 * growing row buffer and the HDF5 dataset helpers both use. */
#ifndef DG_EMP_H5_H
#define DG_EMP_H5_H

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

/* Rows of dim features, a label and a group (state) id, grown on demand. */
typedef struct {
    int dim;
    size_t n, cap;
    float *x, *y;
    int32_t *group;
} dg_emp_rows;

/* Append one row; 0 or HN_ERR_NOMEM (message set). */
int dg_emp_rows_push(dg_emp_rows *r, const float *x, float y, int32_t group);
void dg_emp_rows_free(dg_emp_rows *r);

/* Write v ([dims], float32, or int32 when is_int) as dataset `name`; 0 or -1. */
int dg_emp_write_ds(hid_t f, const char *name, int rank, const hsize_t *dims, const void *v,
                    int is_int);
/* Read dataset `name` of rank 1 or 2 as float32 into *v (malloc'd), checking
 * the extents dims[k] != 0 and finite values; dims gets the extents. 0 or a
 * status whose message names `path` and the dataset. */
int dg_emp_read_ds(hid_t f, const char *path, const char *name, int rank, hsize_t *dims, float **v);

/* Write r as /x, /y and /<group_name> (int32) to `out` through out.part,
 * with the root attributes attrs(f, ctx) sets (nonzero: it failed); the
 * file is renamed into place (sealed) only when everything was written.
 * 0 or a status whose message names the file. */
int dg_emp_rows_write(const char *out, const dg_emp_rows *r, const char *group_name,
                      int (*attrs)(hid_t f, const void *ctx), const void *ctx);
/* Root attributes format, format_version and encoder as expected; else
 * HN_ERR_FORMAT naming `path`. */
int dg_emp_check_header(hid_t f, const char *path, const char *format, int version,
                        const char *encoder);
/* /x [rows, dims[1]] and /y [rows] as float32 (dg_emp_read_ds); dims[0]
 * gets the rows. */
int dg_emp_read_xy(hid_t f, const char *path, hsize_t *dims, float **x, float **y);

#endif
