/* One program for both backends' vocabulary (tests/cli/test_runs.cpp, OneVocabularyInBothBackends):
 * every kind of request between 2 PEs (put, get, AMO, fetching AMO, compare-and-swap), then PE 0
 * ends its part without shmem_finalize while PE 1 goes on putting to and getting from PE 0's memory
 * (PE 0 keeps serving them until every PE has ended): those deliveries come after PE 0's part is
 * over, and the summary must count them as the trace does. Prints "vocab: OK on N PEs" from PE 1. */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

#define ROUNDS 8
#define LATE 10

static long box[ROUNDS + LATE];
static long counter;
static long word;

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int peer = (me + 1) % npes;
  int bad        = npes != 2;
  for (int i = 0; i < ROUNDS; ++i) {
    shmem_long_p(&box[i], me * 100 + i, peer);
    shmem_quiet();
    bad |= shmem_long_g(&box[i], peer) != me * 100 + i;
    shmem_long_atomic_add(&counter, 1, peer);
    (void)shmem_long_atomic_fetch_add(&counter, 1, peer);
    (void)shmem_long_atomic_compare_swap(&word, i, i + 1, peer);
  }
  shmem_barrier_all();
  bad |= counter != 2 * ROUNDS || word != ROUNDS;
  if (me == 0) {
    if (bad)
      printf("vocab: FAIL on PE 0\n");
    return 0; /* PE 0's part ends here: its memory is still served */
  }
  usleep(200000); /* PE 0 has ended its part meanwhile (in either backend) */
  for (int i = ROUNDS; i < ROUNDS + LATE; ++i) {
    shmem_long_p(&box[i], 1000 + i, 0);
    shmem_quiet();
    bad |= shmem_long_g(&box[i], 0) != 1000 + i;
  }
  if (bad)
    printf("vocab: FAIL on PE 1\n");
  else
    printf("vocab: OK on %d PEs\n", npes);
  return 0;
}
