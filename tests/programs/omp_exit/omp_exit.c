/* exit() by thread 0 inside a parallel region ends the PE: the other threads of its team, blocked
 * in a barrier, end with it (no deadlock is reported), and the run's status is exit's. */
#include <omp.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
  shmem_init();
#pragma omp parallel num_threads(4)
  {
    if (omp_get_thread_num() == 0) {
      printf("omp_exit: PE %d exits inside a parallel region\n", shmem_my_pe());
      exit(5);
    }
#pragma omp barrier
  }
  printf("not reached\n");
  return 0;
}
