/* bench/memory: R rounds of shmem_long_alltoall (8 bytes) per pair of PEs, each followed by
 * shmem_barrier_all; every PE checks every value it received. Usage: shmem_alltoall_rounds [R] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  long rounds = argc > 1 ? atol(argv[1]) : 1;
  long *src = shmem_malloc(sizeof(long) * (size_t)n);
  long *dst = shmem_malloc(sizeof(long) * (size_t)n);
  if (src == NULL || dst == NULL) {
    fprintf(stderr, "PE %d: shmem_malloc of %zu bytes failed\n", me, sizeof(long) * (size_t)n);
    shmem_global_exit(1);
  }
  for (long r = 0; r < rounds; r++) {
    for (int j = 0; j < n; j++)
      src[j] = r * 1000000000L + (long)me * 100000L + j;
    shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 1);
    shmem_barrier_all();
    for (int i = 0; i < n; i++)
      if (dst[i] != r * 1000000000L + (long)i * 100000L + me) {
        fprintf(stderr, "PE %d round %ld: from PE %d got %ld\n", me, r, i, dst[i]);
        shmem_global_exit(1);
      }
  }
  if (me == 0)
    printf("alltoall: %ld rounds on %d PEs OK\n", rounds, n);
  shmem_free(dst);
  shmem_free(src);
  shmem_finalize();
  return 0;
}
