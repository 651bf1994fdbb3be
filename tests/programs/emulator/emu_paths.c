/* Several connections per pair used as paths (emulator.paths): every PE streams N 8-byte
 * shmem_putmem_nbi, each to its own slot of the next PE's array, then quiet and barrier; every slot
 * must hold what was put (wherever a path made a put overtake another). With "ordered" (total
 * data ordering: the receivers restore each pair's order) each put also rewrites one word, which
 * must end with the last value put.
 * Usage: emu_paths [N] [ordered]   Prints "emu_paths: OK on N PEs" from PE 0. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX 20000

static long slot[MAX];
static long last;

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int n = argc > 1 && atoi(argv[1]) > 0 && atoi(argv[1]) <= MAX ? atoi(argv[1]) : MAX;
  const int ordered = argc > 2 && strcmp(argv[2], "ordered") == 0;
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  shmem_barrier_all();
  for (int i = 0; i < n; ++i) {
    const long v = (long)i * npes + me;
    shmem_putmem_nbi(&slot[i], &v, sizeof v, next);
    if (ordered)
      shmem_putmem_nbi(&last, &v, sizeof v, next);
  }
  shmem_quiet();
  shmem_barrier_all();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (slot[i] != (long)i * npes + prev)
      bad = 1;
  if (ordered && last != (long)(n - 1) * npes + prev)
    bad = 1;
  if (bad)
    printf("emu_paths: FAIL on PE %d\n", me);
  shmem_barrier_all();
  if (me == 0)
    printf("emu_paths: OK on %d PEs\n", npes);
  shmem_finalize();
  return 0;
}
