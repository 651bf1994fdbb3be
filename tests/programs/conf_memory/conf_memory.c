/* Symmetric memory management (OpenSHMEM 1.5 §9.3):
 *  - size 0: shmem_malloc, shmem_align, shmem_malloc_with_hints and shmem_realloc(NULL, 0) return
 *    NULL ("no action"); shmem_calloc(0, n) and shmem_calloc(n, 0) return NULL; shmem_free(NULL)
 *    does nothing;
 *  - shmem_align honours the alignment on the address of every PE (checked with a put into the
 *    block): every power of two from 8 bytes to 4 MiB, then the one given as an argument
 *    (e.g. 1073741824 with a large enough SHMEM_SYMMETRIC_SIZE);
 *  - `badalign`: a non-power-of-two alignment is misuse (one error line, status 2). */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

static int me, npes, right, left;

/* Allocate `size` bytes aligned to `alignment`, check the address and move data through it. */
static void aligned_block(size_t alignment, size_t size)
{
  long* p = shmem_align(alignment, size);
  CHECK(p != NULL, "shmem_align(%zu, %zu) returned NULL", alignment, size);
  if (p == NULL)
    return;
  CHECK((uintptr_t)p % alignment == 0, "shmem_align(%zu): %p is not aligned", alignment, (void*)p);
  const size_t n = size / sizeof(long);
  shmem_long_p(&p[0], 1000 + me, right);
  shmem_long_p(&p[n - 1], 2000 + me, right);
  shmem_barrier_all();
  CHECK(p[0] == 1000 + left && p[n - 1] == 2000 + left, "data through the %zu-aligned block", alignment);
  shmem_free(p);
}

int main(int argc, char** argv)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;

  if (argc > 1 && strcmp(argv[1], "badalign") == 0) {
    void* p = shmem_align(48, 64);
    printf("not reached: %p\n", p);
    return 0;
  }

  CHECK(shmem_malloc(0) == NULL, "shmem_malloc(0)");
  CHECK(shmem_calloc(0, 8) == NULL, "shmem_calloc(0, 8)");
  CHECK(shmem_calloc(8, 0) == NULL, "shmem_calloc(8, 0)");
  CHECK(shmem_calloc(0, 0) == NULL, "shmem_calloc(0, 0)");
  CHECK(shmem_align(64, 0) == NULL, "shmem_align(64, 0)");
  CHECK(shmem_align(4096, 0) == NULL, "shmem_align(4096, 0)");
  CHECK(shmem_malloc_with_hints(0, SHMEM_MALLOC_ATOMICS_REMOTE) == NULL, "shmem_malloc_with_hints(0)");
  CHECK(shmem_realloc(NULL, 0) == NULL, "shmem_realloc(NULL, 0)");
  shmem_free(NULL);

  /* Ordinary blocks still work around them, and calloc zeroes. */
  long* a = shmem_calloc(16, sizeof(long));
  CHECK(a != NULL, "shmem_calloc(16, 8)");
  for (int i = 0; a != NULL && i < 16; ++i)
    CHECK(a[i] == 0, "calloc'ed element %d", i);
  long* h = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE);
  CHECK(h != NULL, "shmem_malloc_with_hints(64)");
  shmem_free(h);
  shmem_free(a);

  for (size_t alignment = 8; alignment <= ((size_t)4 << 20); alignment *= 2)
    aligned_block(alignment, 256);
  if (argc > 1) {
    const size_t big = strtoull(argv[1], NULL, 0);
    aligned_block(big, 4096);
    /* and two of them at once: the second starts at the next multiple */
    long* p = shmem_align(big, 64);
    long* q = shmem_align(big, 64);
    CHECK(p != NULL && q != NULL && (uintptr_t)p % big == 0 && (uintptr_t)q % big == 0 && p != q,
          "two %zu-aligned blocks: %p %p", big, (void*)p, (void*)q);
    shmem_free(q);
    shmem_free(p);
    if (me == 0)
      printf("aligned to %zu bytes\n", big);
  }

  const int rc = progtest_finish("conf_memory");
  shmem_finalize();
  return rc;
}
