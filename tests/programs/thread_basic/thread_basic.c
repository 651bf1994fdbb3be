/* pthreads inside PEs: 4 threads per PE, each with its own private context, share work by
 * fetch-add; a mutex, a condition variable, a barrier, join with return values and a timed wait
 * that expires in simulated time. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <errno.h>
#include <time.h>
#define NT 4
static long counter;          /* symmetric: work counter at PE 0 */
static long results[64];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static int local_sum, ready;
static shmem_ctx_t ctx[NT];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE], psync[SHMEM_REDUCE_SYNC_SIZE], mine, total;

static void *worker(void *arg) {
  int id = (int)(long)arg;
  int me = shmem_my_pe(), n = shmem_n_pes();
  pthread_barrier_wait(&bar);
  long job;
  while ((job = shmem_ctx_long_atomic_fetch_add(ctx[id], &counter, 1, 0)) < 32) {
    long v = job * job;
    shmem_ctx_long_put(ctx[id], &results[job], &v, 1, (int)(job % n));
    pthread_mutex_lock(&lock);
    local_sum++;
    pthread_mutex_unlock(&lock);
  }
  shmem_ctx_quiet(ctx[id]);
  pthread_mutex_lock(&lock);
  ready++;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&lock);
  return (void *)(long)(id * 10 + me);
}

int main(void) {
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  int me = shmem_my_pe(), n = shmem_n_pes();
  for (int i = 0; i < NT; i++) shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx[i]);
  pthread_barrier_init(&bar, NULL, NT);
  pthread_t t[NT];
  for (long i = 0; i < NT; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  pthread_mutex_lock(&lock);
  while (ready < NT) pthread_cond_wait(&cv, &lock);
  pthread_mutex_unlock(&lock);
  int ok = 1;
  for (int i = 0; i < NT; i++) { void *r; pthread_join(t[i], &r); if ((long)r != i * 10 + me) ok = 0; }
  struct timespec ts; clock_gettime(CLOCK_REALTIME, &ts); ts.tv_nsec += 5000; if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
  pthread_mutex_lock(&lock); int tw = pthread_cond_timedwait(&cv, &lock, &ts); pthread_mutex_unlock(&lock);
  if (tw != ETIMEDOUT) ok = 0;
  shmem_barrier_all();
  for (int j = me; j < 32; j += n) if (results[j] != (long)j * j) ok = 0;
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) psync[i] = SHMEM_SYNC_VALUE;
  mine = local_sum;
  shmem_barrier_all();
  shmem_long_sum_to_all(&total, &mine, 1, 0, 0, n, pwrk, psync);
  if (total != 32) ok = 0;
  printf("PE %d: threads done, results %s, timedwait %s\n", me, ok ? "ok" : "WRONG", tw == ETIMEDOUT ? "timed out" : "??");
  if (me == 0 && ok) printf("thread_basic: OK on %d PEs\n", n);
  for (int i = 0; i < NT; i++) shmem_ctx_destroy(ctx[i]);
  shmem_finalize();
  return ok ? 0 : 1;
}
