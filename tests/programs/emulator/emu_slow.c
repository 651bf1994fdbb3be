/* A job that lasts about two seconds of real time (for the emulator's intruder test): 100 rounds
 * of sleeping 20 ms, putting the round number to the next PE and checking what the previous one
 * put, with a barrier between rounds. Prints "emu_slow: OK on N PEs" from PE 0. */
#include <shmem.h>
#include <stdio.h>
#include <unistd.h>

static long box;

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  int bad = 0;
  for (long round = 1; round <= 100; ++round) {
    usleep(20000);
    shmem_long_p(&box, round * 1000 + me, (me + 1) % npes);
    shmem_barrier_all();
    if (box != round * 1000 + (me + npes - 1) % npes)
      bad = 1;
    shmem_barrier_all();
  }
  if (bad)
    printf("emu_slow: FAIL on PE %d\n", me);
  shmem_barrier_all();
  if (me == 0)
    printf("emu_slow: OK on %d PEs\n", npes);
  shmem_finalize();
  return 0;
}
