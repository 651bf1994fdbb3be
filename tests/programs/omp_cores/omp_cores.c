/* An OpenMP region's simulated time follows the node's cores: a loop of equal iterations split
 * statically over the team. Prints the team size and the region's simulated time (omp_get_wtime), then the time of a region
 * where every thread does the same work inside a critical section (serialized). */
#include <omp.h>
#include <shmem.h>
#include <stdio.h>

#define ITERS 64
static volatile double sink[ITERS];

int main(void)
{
  shmem_init();
  int team       = 0;
  const double t0 = omp_get_wtime();
#pragma omp parallel
  {
#pragma omp single nowait
    team = omp_get_num_threads();
#pragma omp for schedule(static)
    for (int i = 0; i < ITERS; i++) {
      double s = 0;
      for (int k = 1; k <= 20000; k++)
        s += 1.0 / k;
      sink[i] = s;
    }
  }
  const double t1 = omp_get_wtime();
  /* The same work per thread inside a critical section: serialized whatever the cores. */
#pragma omp parallel
  {
#pragma omp critical
    {
      double s = 0;
      for (int k = 1; k <= 100000; k++)
        s += 1.0 / k;
      sink[omp_get_thread_num() % ITERS] = s;
    }
  }
  const double t2 = omp_get_wtime();
  if (shmem_my_pe() == 0)
    printf("omp_cores: %d threads, parallel region %.0f us, critical %.0f us\n", team, (t1 - t0) * 1e6,
           (t2 - t1) * 1e6);
  shmem_finalize();
  return 0;
}
