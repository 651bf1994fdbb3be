/* Two shapes whose emulated work the test emu_work bounds (emulator/work.cmake), each checking its
 * data in every round:
 *   emu_shapes bigget ROUNDS MIB       every PE gets MIB MiB from the next PE, ROUNDS times (Sandia's
 *                                      bigget); a large reply must not be copied in user space
 *   emu_shapes fcollect ROUNDS BYTES   ROUNDS fcollects of BYTES per PE (Sandia's spam); messages,
 *                                      reads and sleeps per round stay bounded
 * PE 0 prints "emu_shapes: ROUNDS rounds of SHAPE" and "emu_shapes: OK on N PEs" when every PE's
 * data was right. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

static int bigget(int rounds, size_t bytes)
{
  const int me = shmem_my_pe(), npes = shmem_n_pes(), from = (me + 1) % npes;
  const size_t n = bytes / sizeof(int);
  int* source    = shmem_malloc(bytes);
  int* target    = shmem_malloc(bytes);
  if (source == NULL || target == NULL) {
    printf("FAIL PE %d: shmem_malloc of %zu bytes\n", me, bytes);
    return 1;
  }
  for (size_t i = 0; i < n; ++i)
    source[i] = (int)(i * 7 + (size_t)me);
  shmem_barrier_all();
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    memset(target, 0xff, bytes);
    shmem_getmem(target, source, bytes, from);
    for (size_t i = 0; i < n; ++i)
      if (target[i] != (int)(i * 7 + (size_t)from)) {
        if (++bad <= 3)
          printf("FAIL PE %d round %d: int %zu is %d, expected %d\n", me, r, i, target[i], (int)(i * 7 + (size_t)from));
        break;
      }
  }
  shmem_barrier_all();
  shmem_free(target);
  shmem_free(source);
  return bad;
}

static int fcollect(int rounds, size_t bytes)
{
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const size_t n = bytes / sizeof(int);
  int* source    = shmem_malloc(bytes);
  /* Two destinations in turn: a faster PE's next fcollect writes into this PE's destination
   * before this PE has read it (a collective does not synchronize on return); the one after the
   * next cannot (it needs this PE's block of the next one). */
  int* dests[2] = {shmem_malloc(bytes * (size_t)npes), shmem_malloc(bytes * (size_t)npes)};
  int bad       = 0;
  for (int r = 0; r < rounds; ++r) {
    int* dest = dests[r % 2];
    for (size_t i = 0; i < n; ++i)
      source[i] = r * 100000 + me * 1000 + (int)(i % 1000);
    shmem_int_fcollect(SHMEM_TEAM_WORLD, dest, source, n);
    for (int pe = 0; pe < npes && bad < 3; ++pe)
      for (size_t i = 0; i < n; ++i)
        if (dest[(size_t)pe * n + i] != r * 100000 + pe * 1000 + (int)(i % 1000)) {
          printf("FAIL PE %d round %d: block %d int %zu is %d\n", me, r, pe, i, dest[(size_t)pe * n + i]);
          ++bad;
          break;
        }
  }
  shmem_barrier_all();
  shmem_free(dests[1]);
  shmem_free(dests[0]);
  shmem_free(source);
  return bad;
}

int main(int argc, char** argv)
{
  const int ok_args = argc == 4 && (strcmp(argv[1], "bigget") == 0 || strcmp(argv[1], "fcollect") == 0);
  const int rounds  = ok_args ? atoi(argv[2]) : 0;
  const long size   = ok_args ? atol(argv[3]) : 0;
  if (rounds < 1 || size < 1) {
    fprintf(stderr, "usage: emu_shapes bigget ROUNDS MIB | fcollect ROUNDS BYTES\n");
    return 2;
  }
  shmem_init();
  const int big = strcmp(argv[1], "bigget") == 0;
  progtest_errors = big ? bigget(rounds, (size_t)size << 20) : fcollect(rounds, (size_t)size);
  if (shmem_my_pe() == 0)
    printf("emu_shapes: %d rounds of %s\n", rounds, argv[1]);
  const int rc = progtest_finish("emu_shapes");
  shmem_finalize();
  return rc;
}
