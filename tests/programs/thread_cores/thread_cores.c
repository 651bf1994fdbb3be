/* Threads compete for their node's cores: 8 threads of equal work take about twice as long on 4
 * cores as on 8. Prints the simulated time of the parallel section in microseconds. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <time.h>
#define NT 8
static volatile double sink[NT];
static void* work(void* x)
{
  long id   = (long)x;
  double s  = 0;
  for (int i = 1; i <= 200000; i++)
    s += 1.0 / i;
  sink[id] = s;
  shmem_quiet(); /* a library call: the computation is charged here */
  return NULL;
}
int main(void)
{
  shmem_init();
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_t t[NT];
  for (long i = 0; i < NT; i++)
    pthread_create(&t[i], NULL, work, (void*)i);
  for (int i = 0; i < NT; i++)
    pthread_join(t[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (shmem_my_pe() == 0)
    printf("thread_cores: parallel section %.0f us\n", (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3);
  shmem_finalize();
  return 0;
}
