/* The trn_comm of MPI_COMM_WORLD: gradients and statistics summed in place
 * with MPI_Allreduce, value-iteration targets shared with MPI_Allgatherv
 * (see train/trn_mpi.h). */
#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include "train/trn_mpi.h"

int trn_mpi_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

#ifdef HEURNET_MPI
#include <mpi.h>

static double seconds; /* in MPI_Allreduce, see trn_mpi_seconds */

double trn_mpi_seconds(void)
{
    return seconds;
}

/* One MPI_Allreduce per call; counts beyond INT_MAX in pieces. */
static int allreduce(void *buf, size_t n, MPI_Datatype type, size_t elem)
{
    char *p = buf;
    double t0 = MPI_Wtime();
    while (n > 0) {
        int k = n > (size_t)INT_MAX ? INT_MAX : (int)n;
        int e = MPI_Allreduce(MPI_IN_PLACE, p, k, type, MPI_SUM, MPI_COMM_WORLD);
        if (e != MPI_SUCCESS)
            return hn_fail(HN_ERR_IO, "MPI_Allreduce of %d values failed (MPI error %d)", k, e);
        p += (size_t)k * elem;
        n -= (size_t)k;
    }
    seconds += MPI_Wtime() - t0;
    return HN_OK;
}

static int sum_float(float *buf, size_t n, void *user)
{
    (void)user;
    return allreduce(buf, n, MPI_FLOAT, sizeof *buf);
}

static int sum_double(double *buf, size_t n, void *user)
{
    (void)user;
    return allreduce(buf, n, MPI_DOUBLE, sizeof *buf);
}

/* MPI_Allgatherv over a contiguous type of elem bytes, so the counts are
 * elements (each part below 2^31 of them). */
static int share(void *buf, size_t elem, const size_t *part, void *user)
{
    (void)user;
    int size = 1, rc = HN_OK;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *count = malloc(sizeof(int) * 2 * (size_t)size), *displ = count ? count + size : NULL;
    MPI_Datatype t;
    if (!count)
        return hn_fail(HN_ERR_NOMEM, "out of memory");
    for (int p = 0; p < size; p++) {
        if (part[p + 1] - part[p] > (size_t)INT_MAX || part[p] > (size_t)INT_MAX)
            rc = hn_fail(HN_ERR_ARG, "a share of %zu elements exceeds 2^31", part[p + 1]);
        count[p] = (int)(part[p + 1] - part[p]);
        displ[p] = (int)part[p];
    }
    if (!rc && (elem > (size_t)INT_MAX || MPI_Type_contiguous((int)elem, MPI_BYTE, &t) ||
                MPI_Type_commit(&t)))
        rc = hn_fail(HN_ERR_IO, "cannot make an MPI type of %zu bytes", elem);
    double t0 = MPI_Wtime();
    if (!rc) {
        int e = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, count, displ, t,
                               MPI_COMM_WORLD);
        if (e != MPI_SUCCESS)
            rc = hn_fail(HN_ERR_IO, "MPI_Allgatherv of %zu elements failed (MPI error %d)",
                         part[size], e);
        MPI_Type_free(&t);
    }
    seconds += MPI_Wtime() - t0;
    free(count);
    return rc;
}

static int bcast(void *buf, size_t n, void *user)
{
    (void)user;
    char *p = buf;
    while (n > 0) {
        int k = n > (size_t)INT_MAX ? INT_MAX : (int)n;
        int e = MPI_Bcast(p, k, MPI_BYTE, 0, MPI_COMM_WORLD);
        if (e != MPI_SUCCESS)
            return hn_fail(HN_ERR_IO, "MPI_Bcast of %d bytes failed (MPI error %d)", k, e);
        p += k;
        n -= (size_t)k;
    }
    return HN_OK;
}

/* A barrier polled with sleeps: MPI_Allreduce would busy-poll and take the
 * CPU from the processes still working on a shared or oversubscribed node. */
static int wait_all(void *user)
{
    (void)user;
    MPI_Request rq;
    int done = 0;
    double t0 = MPI_Wtime();
    if (MPI_Ibarrier(MPI_COMM_WORLD, &rq) != MPI_SUCCESS)
        return hn_fail(HN_ERR_IO, "MPI_Ibarrier failed");
    while (!done && MPI_Test(&rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    seconds += MPI_Wtime() - t0;
    return done ? HN_OK : hn_fail(HN_ERR_IO, "MPI_Test of a barrier failed");
}

int trn_mpi_init(struct trn_comm *c)
{
    int rank = 0, size = 1;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return hn_fail(HN_ERR_IO, "MPI_Init failed");
    /* Errors come back as codes, so a failed sum is reported, not aborted. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    *c = (struct trn_comm){.rank = rank,
                           .size = size,
                           .sum_float = sum_float,
                           .sum_double = sum_double,
                           .share = share,
                           .bcast = bcast,
                           .wait = wait_all};
    return HN_OK;
}

void trn_mpi_finalize(void)
{
    MPI_Finalize();
}
#endif
