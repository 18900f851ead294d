/* Private to solve/ablate*.c: the lines they report and the rows that
 * travel between MPI ranks. */
#ifndef HEURNET_SOLVE_ABLATE_INT_H
#define HEURNET_SOLVE_ABLATE_INT_H

#include "solve/ablate.h"

/* A line to a->on_message (kind HEURNET_ABL_SAY or HEURNET_ABL_FAIL). */
void heurnet_abl_say(const struct heurnet_ablate *a, int kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A row of a rank other than 0 sent to rank 0 (0 or a status). */
int heurnet_abl_mpi_send_row(const char *row);
/* Rank 0: add the rows that arrived to j and save it (0 or a status). */
int heurnet_abl_mpi_poll(struct heurnet_ablate *a, trn_abl_journal *j);

/* A* with model m on a->states into out[HEURNET_ABL_NSEARCH]. */
int heurnet_abl_dom_search(const struct heurnet_ablate *a, const nn_model *m, const char *label,
                           double *out);
/* Model m's errors (MAE, exact share, over-estimate share) on the states
 * of instance file k with a known optimum into out[3]; bad lines go to
 * on_message. */
int heurnet_abl_dom_inst(const struct heurnet_ablate *a, const nn_model *m, int k, double *out);

#endif
