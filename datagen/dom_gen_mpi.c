/* heurnet gen under mpirun: one shard per rank, joined by rank 0 in a
 * virtual dataset (datagen/dom_ds.h, dg_dom_gen_ranks). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HEURNET_MPI
#include <mpi.h>
#endif

#include "common/hn.h"
#include "datagen/dom_ds.h"

#ifdef HEURNET_MPI
/* Wait for the other ranks without spinning: a rank that finished its shard
 * first would otherwise busy-poll in MPI_Allreduce and take CPU from the
 * ranks still labelling (on a shared or oversubscribed machine). */
static void wait_for_ranks(void)
{
    MPI_Request rq;
    int done = 0;
    if (MPI_Ibarrier(MPI_COMM_WORLD, &rq) != MPI_SUCCESS)
        return; /* the allreduce that follows still synchronises */
    while (!done && MPI_Test(&rq, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
}

/* Rank 0 joins stem.shardR-of-K.h5 in a virtual dataset at out. */
static int join_shards(const char *out, const char *stem, int size)
{
    int st = HN_OK;
    char **names = calloc((size_t)size, sizeof *names);
    for (int r = 0; names && r < size; r++)
        if ((names[r] = malloc(4096)))
            snprintf(names[r], 4096, "%s.shard%d-of-%d.h5", stem, r, size);
    for (int r = 0; names && r < size; r++)
        if (!names[r])
            st = hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!names)
        st = hn_fail(HN_ERR_NOMEM, "out of memory");
    if (!st)
        st = dg_dom_merge(out, (const char *const *)names, size, 1);
    for (int r = 0; names && r < size; r++)
        free(names[r]);
    free(names);
    return st;
}
#endif

int dg_dom_gen_ranks(const char *out,
                     int (*shard)(void *ctx, const char *path, int index, int count), void *ctx,
                     int *worst, int *rank, int *size)
{
#ifdef HEURNET_MPI
    char stem[4000], path[4096];
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    snprintf(stem, sizeof stem, "%s", out);
    size_t len = strlen(stem);
    if (len > 3 && !strcmp(stem + len - 3, ".h5"))
        stem[len - 3] = '\0';
    snprintf(path, sizeof path, "%s.shard%d-of-%d.h5", stem, *rank, *size);
    int rc = shard(ctx, path, *rank, *size), st = HN_OK;
    wait_for_ranks();
    MPI_Allreduce(&rc, worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (*rank == 0 && *worst == 0)
        st = join_shards(out, stem, *size);
    MPI_Finalize();
    if (*rank)
        *worst = rc; /* each rank answers for its own shard */
    return st;
#else
    (void)out, (void)shard, (void)ctx;
    *worst = *rank = 0;
    *size = 1;
    return hn_fail(HN_ERR_UNSUPPORTED, "this heurnet was built without MPI");
#endif
}
