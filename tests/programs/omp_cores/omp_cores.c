/* An OpenMP region's simulated time follows the node's cores: a loop of equal iterations split
 * statically over the team. Prints the team size and the region's simulated time (omp_get_wtime). */
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
  if (shmem_my_pe() == 0)
    printf("omp_cores: %d threads, parallel region %.0f us\n", team, (t1 - t0) * 1e6);
  shmem_finalize();
  return 0;
}
