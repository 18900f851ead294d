/* datagen: place-scorer data for the backtracker's learned candidate order
 * (`heurnet emp gen-data --decision place`). Rows are emp-place-v1 features
 * (/x, float32 [n, SRCH_EM_PLACE_DIM]) of the perfect-match candidates of
 * sampled backtracker cells, labelled (/y, float32 [n]) with the cells the
 * backtracker reached under each within a node budget (mean of a few
 * probes); /group (int32 [n]) numbers the sampled cell each row is a
 * candidate of, and a group's rows are contiguous (the listwise loss reads
 * them so). */
#ifndef DG_EMP_PLACE_H
#define DG_EMP_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "common/hn.h"
#include "search/emp/srch_em_place.h"

HEURNET_API_BEGIN

#define DG_EMP_PLACE_FORMAT "heurnet-emp-place"
#define DG_EMP_PLACE_VERSION 1
#define DG_EMP_BREAK_FORMAT "heurnet-emp-break"

/* Sample each instance with o (its seed mixed with the instance's index),
 * write `out` (via out.part) with /x, /y, /group and root attributes format,
 * format_version, encoder, decision, features, seed, states, runs,
 * probe_nodes, min_depth, rate, break_from, breaks, instances. 0 or a
 * status with a message; HN_ERR_INTERRUPTED leaves no file. */
int dg_emp_place_gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
                     const srch_em_place_sample_opts *o, const char *out);
/* The same for the break gate (srch_em_break_sample): /x float32 [n,
 * SRCH_EM_BREAK_DIM] (emp-break-v1), /y the label, /group the state (one
 * row each), encoder emp-break-v1 and decision break; read by `heurnet
 * train` (regression), whose model then records decision=break. */
int dg_emp_break_gen(const srch_em_inst *const *inst, const char *const *names, int ninst,
                     const srch_em_place_sample_opts *o, const char *out);

typedef struct {
    size_t rows;
    int groups;
    uint64_t seed;
} dg_emp_place_info;

/* Read and check a file written by dg_emp_place_gen: format, version,
 * encoder, /x [n, SRCH_EM_PLACE_DIM], /y and /group [n], finite values,
 * contiguous groups. *x, *y, *group are malloc'd (caller frees). */
int dg_emp_place_read(const char *path, float **x, float **y, int32_t **group,
                      dg_emp_place_info *info);

HEURNET_API_END

#endif
