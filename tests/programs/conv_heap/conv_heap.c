/* Symmetric heap size: allocates BYTES from the symmetric heap (argv[1]), touches it (argv[2]:
 * "all" writes every byte, "sparse" one byte every 64 MiB and the last one, so that a large
 * heap costs little memory), and checks puts at both ends of the block on the next PE. With
 * argv[3] = "null" the allocation must fail instead (shmem_malloc returns NULL on every PE). */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (argc < 3) {
    if (me == 0)
      printf("usage: conv_heap BYTES all|sparse [null]\n");
    return 2;
  }
  const size_t bytes      = (size_t)strtoull(argv[1], NULL, 10);
  const int sparse        = strcmp(argv[2], "sparse") == 0;
  const int expect_null   = argc > 3 && strcmp(argv[3], "null") == 0;
  unsigned char* block    = shmem_malloc(bytes);
  if (expect_null) {
    CHECK(block == NULL, "shmem_malloc(%zu) returned %p, expected NULL", bytes, (void*)block);
    return progtest_finish("conv_heap");
  }
  CHECK(block != NULL, "shmem_malloc(%zu) returned NULL", bytes);
  if (block == NULL)
    return progtest_finish("conv_heap");

  if (sparse) {
    for (size_t off = 0; off < bytes; off += (size_t)64 << 20)
      block[off] = (unsigned char)(me + 1);
    block[bytes - 1] = (unsigned char)(me + 1);
  } else {
    memset(block, me + 1, bytes);
  }
  shmem_barrier_all();

  /* The next PE writes its number into the first and the last 8 bytes of this PE's block. */
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  const size_t last = (bytes - sizeof(long)) & ~(sizeof(long) - 1);
  shmem_long_p((long*)block, me, next);
  shmem_long_p((long*)(block + last), me, next);
  shmem_barrier_all();
  long first_v, last_v;
  memcpy(&first_v, block, sizeof first_v);
  memcpy(&last_v, block + last, sizeof last_v);
  CHECK(first_v == prev, "first word %ld, expected %d", first_v, prev);
  CHECK(last_v == prev, "last word %ld, expected %d", last_v, prev);
  if (!sparse)
    CHECK(block[bytes / 2] == (unsigned char)(me + 1), "middle byte %d", block[bytes / 2]);

  shmem_free(block);
  if (me == 0)
    printf("conv_heap: %zu bytes (%s)\n", bytes, sparse ? "sparse" : "all touched");
  return progtest_finish("conv_heap");
}
