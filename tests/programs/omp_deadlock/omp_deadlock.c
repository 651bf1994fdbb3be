/* A non-conforming OpenMP program: a barrier reached inside a critical section (through a call,
 * which the compiler cannot see). It must be reported as a deadlock naming every thread's wait,
 * never hang. */
#include <omp.h>
#include <shmem.h>
#include <stdio.h>

static void wait_all(void)
{
#pragma omp barrier
}

int main(void)
{
  shmem_init();
#pragma omp parallel num_threads(3)
  {
#pragma omp critical
    wait_all();
  }
  printf("not reached\n");
  shmem_finalize();
  return 0;
}
