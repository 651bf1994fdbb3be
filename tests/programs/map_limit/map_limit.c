/* Runs against the memory-mapping limit (vm.max_map_count, lowered for the tests with
 * SHMEMSIM_MAX_MAP_COUNT; README, "Size"). Without arguments: every PE puts its number to the next
 * one, into a static variable and into the symmetric heap, which checks both (a run of many PEs that
 * costs little; compact program copies and heaps must give every PE its own). With `threads`: each PE creates
 * threads until pthread_create refuses one; it must answer EAGAIN, as a system out of resources
 * for a thread does, rather than end the run, and every thread created must run and be joined. */
#include <errno.h>
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define MAX_THREADS 100000
static pthread_t tids[MAX_THREADS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t start = PTHREAD_COND_INITIALIZER;
static int go, ran;

static void* body(void* arg)
{
  pthread_mutex_lock(&lock);
  while (!go)
    pthread_cond_wait(&start, &lock);
  ++ran;
  pthread_mutex_unlock(&lock);
  return arg;
}

static int failed;

static int ring(void)
{
  static int from;
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  int* heap_from = shmem_malloc(sizeof(int));
  *heap_from     = -1;
  shmem_barrier_all();
  shmem_int_p(&from, me, (me + 1) % npes);
  shmem_int_p(heap_from, me + 1, (me + 1) % npes);
  shmem_barrier_all();
  const int ok = from == (me + npes - 1) % npes && *heap_from == (me + npes - 1) % npes + 1;
  shmem_free(heap_from);
  return ok;
}

int main(int argc, char** argv)
{
  shmem_init();
  if (argc < 2 || strcmp(argv[1], "threads") != 0) {
    if (!ring())
      shmem_int_atomic_inc(&failed, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0)
      printf("map_limit: %s on %d PEs\n", failed == 0 ? "OK" : "FAIL", shmem_n_pes());
    shmem_finalize();
    return 0;
  }
  int n = 0, rc = 0;
  while (n < MAX_THREADS && (rc = pthread_create(&tids[n], NULL, body, NULL)) == 0)
    ++n;
  pthread_mutex_lock(&lock);
  go = 1;
  pthread_cond_broadcast(&start);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < n; ++i)
    pthread_join(tids[i], NULL);
  const int me = shmem_my_pe();
  printf("map_limit: PE %d created %d threads, then %s\n", me, n,
         rc == EAGAIN ? "EAGAIN" : rc == 0 ? "none was refused" : "another error");
  if (rc != EAGAIN || ran != n || n == 0)
    shmem_int_atomic_inc(&failed, 0);
  shmem_barrier_all();
  if (me == 0)
    printf("map_limit: %s on %d PEs\n", failed == 0 ? "OK" : "FAIL", shmem_n_pes());
  shmem_finalize();
  return 0;
}
