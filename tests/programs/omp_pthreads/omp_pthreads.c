/* Program threads that each run OpenMP parallel regions at the same time: each is an initial thread
 * with a team of its own, drawn from the PE's pool of OpenMP threads. */
#include <omp.h>
#include <pthread.h>

#include "progtest.h"

#define NPT 3
static long results[NPT];
static int teams[NPT];

static void* body(void* arg)
{
  const long id = (long)arg;
  long total    = 0;
  for (int round = 0; round < 4; round++) {
    long sum = 0;
#pragma omp parallel for num_threads(3) schedule(dynamic, 5) reduction(+ : sum)
    for (long i = 0; i < 1000; i++)
      sum += i * (id + 1);
    total += sum;
#pragma omp parallel num_threads(2 + id)
#pragma omp single
    teams[id] = omp_get_num_threads();
  }
  results[id] = total;
  return NULL;
}

int main(void)
{
  shmem_init();
  pthread_t t[NPT];
  for (long i = 0; i < NPT; i++)
    pthread_create(&t[i], NULL, body, (void*)i);
  for (int i = 0; i < NPT; i++)
    pthread_join(t[i], NULL);
  for (long i = 0; i < NPT; i++) {
    CHECK(results[i] == 4 * 499500 * (i + 1), "thread %ld: %ld", i, results[i]);
    CHECK(teams[i] == 2 + i, "thread %ld: team of %d", i, teams[i]);
  }
  return progtest_finish("omp_pthreads");
}
