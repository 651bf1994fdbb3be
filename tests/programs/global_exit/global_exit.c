/* The last PE calls shmem_global_exit(7) while the others wait in a barrier: the whole job ends
 * with status 7. */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (me == npes - 1) {
    fflush(stdout);
    shmem_global_exit(7);
    printf("not reached after shmem_global_exit\n");
  }
  shmem_barrier_all();
  printf("not reached: PE %d passed the barrier\n", me);
  shmem_finalize();
  return 0;
}
