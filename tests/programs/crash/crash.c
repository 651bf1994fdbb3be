/* PE 1 dereferences NULL after shmem_init; the run ends with 128+SIGSEGV and a report naming
 * the PE. */
#include <shmem.h>
#include <stdio.h>

int* volatile nowhere = NULL;

int main(void)
{
  shmem_init();
  shmem_barrier_all();
  if (shmem_my_pe() == 1)
    *nowhere = 42;
  shmem_barrier_all();
  printf("not reached\n");
  shmem_finalize();
  return 0;
}
