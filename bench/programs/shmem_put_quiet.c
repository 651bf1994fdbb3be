/* bench/shmem-vs-smpi, shmemsim side: each PE does N iterations of an 8-byte shmem_putmem to
 * PE (me+1)%n followed by shmem_quiet. Usage: shmem_put_quiet N */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

static long x = -1;

int main(int argc, char **argv) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  long v = me;
  int target = (me + 1) % n;
  for (long i = 0; i < iters; i++) {
    shmem_putmem(&x, &v, 8, target);
    shmem_quiet();
  }
  shmem_barrier_all();
  if (x != (me + n - 1) % n) {
    fprintf(stderr, "PE %d: got %ld, expected %d\n", me, x, (me + n - 1) % n);
    shmem_global_exit(1);
  }
  shmem_finalize();
  return 0;
}
