/* An ablation under mpirun: the missing runs are dealt round-robin over
 * the ranks (every rank reads the same journal, so they agree on the list),
 * each rank trains its runs in forked workers as --jobs does, and the
 * other ranks send each finished row to rank 0, which alone writes the
 * journal (after every row, so an interrupted ablation keeps them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/hn.h"
#include "solve/ablate_int.h"

#ifdef HEURNET_MPI
#include <mpi.h>

enum { TAG_ROW = 1, TAG_DONE = 2 };

int heurnet_ablate_mpi_init(struct heurnet_ablate *a)
{
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return hn_fail(HN_ERR_IO, "MPI_Init failed");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &a->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &a->size);
    return 0;
}

int heurnet_ablate_mpi_agree(int rc)
{
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

int heurnet_abl_mpi_send_row(const char *row)
{
    size_t n = strlen(row) + 1;
    if (n > (size_t)1 << 30 ||
        MPI_Send(row, (int)n, MPI_CHAR, 0, TAG_ROW, MPI_COMM_WORLD) != MPI_SUCCESS)
        return hn_fail(HN_ERR_IO, "cannot send a row of %zu bytes to rank 0", n);
    return 0;
}

/* Receive one pending message: a row into the journal, or a rank's end
 * (counted in a->ended). 0, or -1 when nothing is pending. A failed rank
 * or row sets *failed. */
static int receive(struct heurnet_ablate *a, trn_abl_journal *j, int *failed)
{
    int flag = 0, n = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag)
        return -1;
    MPI_Get_count(&st, MPI_CHAR, &n);
    char *buf = malloc((size_t)n + 1);
    if (!buf) {
        *failed = 1;
        return -1;
    }
    MPI_Recv(buf, n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    buf[n] = '\0';
    char where[64];
    snprintf(where, sizeof where, "row from rank %d", st.MPI_SOURCE);
    if (st.MPI_TAG == TAG_DONE) {
        a->ended++;
        *failed |= strcmp(buf, "0") != 0;
    } else if (j && (trn_abl_journal_add_row(j, buf, where) || trn_abl_journal_save(j, a->csv))) {
        heurnet_abl_say(a, HEURNET_ABL_SAY, "%s", hn_errmsg());
        *failed = 1;
    }
    free(buf);
    return 0;
}

int heurnet_abl_mpi_poll(struct heurnet_ablate *a, trn_abl_journal *j)
{
    int failed = 0;
    while (receive(a, j, &failed) == 0)
        ;
    return failed ? HN_ERR_IO : 0;
}

int heurnet_ablate_mpi_finish(struct heurnet_ablate *a, trn_abl_journal *j, int rc, int fail)
{
    if (a->rank != 0) {
        char s[16];
        snprintf(s, sizeof s, "%d", rc);
        MPI_Send(s, (int)strlen(s) + 1, MPI_CHAR, 0, TAG_DONE, MPI_COMM_WORLD);
    } else {
        /* rows and ends of the other ranks; sleeping between probes, so a
         * rank that finished first does not take CPU from the others */
        int failed = 0;
        while (a->ended < a->size - 1)
            if (receive(a, j, &failed) < 0)
                nanosleep(&(struct timespec){.tv_nsec = 5000000}, NULL);
        if (failed && !rc)
            rc = fail;
    }
    return heurnet_ablate_mpi_agree(rc);
}

void heurnet_ablate_mpi_end(void)
{
    MPI_Finalize();
}
#else
int heurnet_ablate_mpi_init(struct heurnet_ablate *a)
{
    (void)a;
    return hn_fail(HN_ERR_UNSUPPORTED, "started by mpirun, but this heurnet was built without MPI");
}

int heurnet_ablate_mpi_agree(int rc)
{
    return rc;
}

int heurnet_abl_mpi_send_row(const char *row)
{
    (void)row;
    return hn_fail(HN_ERR_UNSUPPORTED, "this heurnet was built without MPI");
}

int heurnet_abl_mpi_poll(struct heurnet_ablate *a, trn_abl_journal *j)
{
    (void)a;
    (void)j;
    return 0;
}

int heurnet_ablate_mpi_finish(struct heurnet_ablate *a, trn_abl_journal *j, int rc, int fail)
{
    (void)a;
    (void)j;
    (void)fail;
    return rc;
}

void heurnet_ablate_mpi_end(void)
{
}
#endif
