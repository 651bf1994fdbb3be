/* bench/shmem-vs-smpi, shmemsim side: each PE does N blocking fetch-adds of 1 on the counter of
 * PE (me+1)%n (neighbour, like the put pattern; no hot spot). Usage: shmem_fetch_add N */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

static long counter = 0;

int main(int argc, char **argv) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  int target = (me + 1) % n;
  for (long i = 0; i < iters; i++)
    (void)shmem_long_atomic_fetch_add(&counter, 1, target);
  shmem_barrier_all();
  if (counter != iters) {
    fprintf(stderr, "PE %d: counter %ld, expected %ld\n", me, counter, iters);
    shmem_global_exit(1);
  }
  shmem_finalize();
  return 0;
}
