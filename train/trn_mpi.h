/* MPI for data-parallel training: the trn_comm of MPI_COMM_WORLD. Only this
 * header and train/mpi.c know MPI; the nn library and the training loop see
 * the callbacks of struct trn_comm. Built when CMake finds MPI
 * (HEURNET_MPI defined). */
#ifndef TRN_MPI_H
#define TRN_MPI_H

#include "train/trn.h"

/* 1 when this process was started by mpirun (Open MPI, MPICH or PMIx). */
int trn_mpi_launched(void);

#ifdef HEURNET_MPI
/* MPI_Init, then fill c with this rank, the number of ranks and sums over
 * MPI_COMM_WORLD (one MPI_Allreduce each). Returns 0 or HN_ERR_IO. */
int trn_mpi_init(struct trn_comm *c);
/* Wall seconds this process spent in the sums so far (waiting for the
 * other ranks included): with the run's step time it splits compute from
 * communication. */
double trn_mpi_seconds(void);
/* MPI_Finalize (after the last sum). */
void trn_mpi_finalize(void);
#endif

#endif
