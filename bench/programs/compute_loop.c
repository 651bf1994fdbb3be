/* Time-slicing benchmark: every PE computes without calling the library (a floating-point
 * recurrence of N iterations, default 2e8), then synchronizes once. PE 0 prints the simulated
 * time of its computation as the program reads it (clock_gettime). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv)
{
  const long n = argc > 1 ? atol(argv[1]) : 200000000L;
  shmem_init();
  const double t0 = now();
  double x = 0.5;
  for (long i = 0; i < n; ++i)
    x = 3.9 * x * (1.0 - x);
  const double t = now() - t0;
  shmem_barrier_all();
  if (shmem_my_pe() == 0)
    printf("compute_us %.3f x %.6f\n", t * 1e6, x);
  shmem_finalize();
  return 0;
}
