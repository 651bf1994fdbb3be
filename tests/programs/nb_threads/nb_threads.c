/* Requests from several threads of a PE (SHMEM_THREAD_MULTIPLE): each of 4 threads keeps 16 gets
 * with request handles outstanding and completes them in reverse order, alternately by
 * shmem_wait_request and by polling shmem_test_request; every value is checked. With few NIC
 * counters (max_cts=6) the threads' requests share them. */
#include <pthread.h>
#include <shmem.h>
#include <shmemx.h>

#include "progtest.h"

#define T 4
#define K 16

static long src[T * K];
static int me, npes;
static int bad;

static void* body(void* arg)
{
  const int t    = (int)(long)arg;
  const int next = (me + 1) % npes;
  long got[K];
  shmem_request_handle_t r[K];
  for (int i = 0; i < K; ++i)
    shmem_long_get_nb(&got[i], &src[t * K + i], 1, next, &r[i]);
  for (int i = K - 1; i >= 0; --i) {
    if (i % 2)
      shmem_wait_request(r[i]);
    else
      while (!shmem_test_request(r[i]))
        ;
  }
  for (int i = 0; i < K; ++i)
    if (got[i] != next * 1000 + t * K + i)
      __atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
  return NULL;
}

int main(void)
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  for (int i = 0; i < T * K; ++i)
    src[i] = me * 1000 + i;
  shmem_barrier_all();
  pthread_t th[T];
  for (long t = 0; t < T; ++t)
    pthread_create(&th[t], NULL, body, (void*)t);
  for (int t = 0; t < T; ++t)
    pthread_join(th[t], NULL);
  CHECK(bad == 0, "%d values wrong", bad);
  const int rc = progtest_finish("nb_threads");
  shmem_finalize();
  return rc;
}
