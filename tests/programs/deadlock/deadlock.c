/* PE 0 waits for a flag that nobody sets; the others wait at the final barrier. The run must
 * end with status 3 and a report naming PE 0, the deadlock and shmem_long_wait_until.
 * With the argument `exit`, PE 1 calls exit(5) instead and the others wait for it at the
 * barrier: the report names PE 1 and its status. With `heap`, PE 0 waits on the third int of a
 * shmem_calloc'd array instead (the report names its heap offset). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long flag;

int main(int argc, char** argv)
{
  shmem_init();
  if (argc > 1 && strcmp(argv[1], "exit") == 0) {
    if (shmem_my_pe() == 1)
      exit(5);
  } else if (argc > 1 && strcmp(argv[1], "heap") == 0) {
    int* flags = shmem_calloc(4, sizeof(int));
    if (shmem_my_pe() == 0)
      shmem_int_wait_until(&flags[2], SHMEM_CMP_EQ, 1);
  } else if (shmem_my_pe() == 0) {
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, 1);
  }
  shmem_barrier_all();
  printf("not reached\n");
  shmem_finalize();
  return 0;
}
