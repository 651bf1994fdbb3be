/* A symmetric program that only ends thanks to timing noise. Every PE swaps its own number into a
 * symmetric word on every PE (non-blocking swaps, then quiet) and counts the swaps that returned
 * its own number, i.e. where no other PE swapped in between; it stops once it has seen that
 * WANTED times. When the PEs run in perfect lockstep, each swap returns the other PE's number
 * and the loop never ends; on a real machine (and in shmemsim with operating-system noise,
 * platform.noise) one PE is delayed now and then, the other swaps twice in a row, and both
 * finish. Afterwards every word holds some PE's number and every fetched value was one.
 * PE 0 prints how many rounds each PE took (the same for the same seed). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#include "progtest.h"

#define WANTED 2

static long word;         /* symmetric: the word every PE swaps into */
static long rounds_of[64]; /* symmetric: PE 0 collects each PE's round count */

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (npes > 64) {
    if (me == 0)
      printf("noise_livelock: at most 64 PEs\n");
    shmem_finalize();
    return 2;
  }
  long* fetched = malloc(sizeof(long) * (size_t)npes);
  word          = me;
  shmem_barrier_all();

  long rounds = 0, own = 0;
  while (own < WANTED) {
    for (int pe = 0; pe < npes; ++pe)
      fetched[pe] = -1;
    for (int pe = 0; pe < npes; ++pe)
      shmem_long_atomic_swap_nbi(&fetched[pe], &word, me, pe);
    shmem_quiet();
    for (int pe = 0; pe < npes; ++pe) {
      CHECK(fetched[pe] >= 0 && fetched[pe] < npes, "round %ld: swap at PE %d fetched %ld", rounds, pe, fetched[pe]);
      if (fetched[pe] == me)
        ++own;
    }
    ++rounds;
  }
  shmem_barrier_all();
  CHECK(word >= 0 && word < npes, "the word holds %ld", word);
  shmem_long_p(&rounds_of[me], rounds, 0);
  shmem_barrier_all();
  if (me == 0) {
    printf("noise_livelock: rounds per PE:");
    for (int pe = 0; pe < npes; ++pe)
      printf(" %ld", rounds_of[pe]);
    printf("\n");
  }
  free(fetched);
  const int rc = progtest_finish("noise_livelock");
  shmem_finalize();
  return rc;
}
