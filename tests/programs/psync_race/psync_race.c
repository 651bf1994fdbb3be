/* The pSync race of a program that re-initialises pSync after a barrier instead of before it
 * (the pattern of Graph500's single-mailbox BFS, hclib's OpenSHMEM port): every PE stores
 * SHMEM_SYNC_VALUE into pSync right before calling shmem_longlong_max_to_all, while a faster PE
 * may already be signalling into that pSync. PE 1 is made the slow one (it sleeps first), so PE
 * 0's signal lands in PE 1's pSync before PE 1's own store replaces it: the run deadlocks, and the
 * report says which pSync word lost a remote write to a local store.
 *
 * With the argument `fixed`, a barrier separates the initialisation from the reduction, as the
 * specification asks (every PE's pSync is initialised before any PE uses it): the run ends and
 * prints OK. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long long source, result;

int main(int argc, char** argv)
{
  const int fixed = argc > 1 && strcmp(argv[1], "fixed") == 0;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  source = 10 * me + 7;
  shmem_barrier_all();
  if (me == 1)
    usleep(200000); /* PE 1 arrives 200 ms after the others (in simulated time, or really) */
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
    pSync[i] = SHMEM_SYNC_VALUE;
  if (fixed)
    shmem_barrier_all();
  shmem_longlong_max_to_all(&result, &source, 1, 0, 0, npes, pWrk, pSync);
  const long long want = 10 * (npes - 1) + 7;
  if (result != want) {
    printf("PE %d: FAIL: max %lld, expected %lld\n", me, result, want);
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  if (me == 0)
    printf("psync_race: OK on %d PEs\n", npes);
  shmem_finalize();
  return 0;
}
