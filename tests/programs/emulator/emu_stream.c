/* Streams puts round a ring of PEs (the emulator's shared-memory tests): in each round every PE
 * puts 64 blocks of 4 KiB to the next PE (shmem_putmem_nbi), then a quiet; a barrier, then it
 * checks the blocks its left neighbour put. ARGV[1] rounds (default 100; 0: forever, for the test
 * that kills a PE mid-run). Prints "emu_stream: OK on N PEs" from PE 0. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK 4096
#define BLOCKS 64
static unsigned char box[BLOCKS][BLOCK];

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const long rounds = argc > 1 ? atol(argv[1]) : 100;
  static unsigned char src[BLOCKS][BLOCK];
  int bad = 0;
  for (long r = 1; rounds == 0 || r <= rounds; ++r) {
    for (int b = 0; b < BLOCKS; ++b)
      memset(src[b], (int)((r * 31 + b + me) & 0xff), BLOCK);
    for (int b = 0; b < BLOCKS; ++b)
      shmem_putmem_nbi(box[b], src[b], BLOCK, (me + 1) % npes);
    shmem_quiet();
    shmem_barrier_all();
    const int left = (me + npes - 1) % npes;
    for (int b = 0; b < BLOCKS; ++b)
      for (int i = 0; i < BLOCK; i += 509)
        if (box[b][i] != (unsigned char)((r * 31 + b + left) & 0xff))
          bad = 1;
    shmem_barrier_all();
  }
  if (bad)
    printf("emu_stream: FAIL on PE %d\n", me);
  shmem_barrier_all();
  if (me == 0)
    printf("emu_stream: OK on %d PEs\n", npes);
  shmem_finalize();
  return 0;
}
