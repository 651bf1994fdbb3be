/* bench/memory: the smallest real program, each PE prints one line (PE 0 prints the count). */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  if (me == 0)
    printf("hello from %d PEs\n", n);
  shmem_finalize();
  return 0;
}
