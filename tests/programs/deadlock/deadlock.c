/* PE 0 waits for a flag that nobody sets; the others wait at the final barrier. The run must
 * end with status 3 and a report naming PE 0, the deadlock and shmem_long_wait_until. */
#include <shmem.h>
#include <stdio.h>

static long flag;

int main(void)
{
  shmem_init();
  if (shmem_my_pe() == 0)
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
  shmem_barrier_all();
  printf("not reached\n");
  shmem_finalize();
  return 0;
}
