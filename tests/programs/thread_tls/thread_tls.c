/* Thread-local variables stay per simulated thread: every thread starts from the initial value,
 * sets its own, meets the others at a barrier (so they all switch in between), and still sees
 * its own value; the main thread keeps its own too. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#define NT 3
static __thread int mine = 7;
static __thread long zeroed;
static pthread_barrier_t bar;
static int bad;
static void* work(void* x)
{
  long id = (long)x;
  if (mine != 7 || zeroed != 0)
    bad = 1; /* a fresh thread sees the initial values */
  mine   = 100 + (int)id;
  zeroed = id;
  pthread_barrier_wait(&bar);
  shmem_quiet(); /* a library call: switches happen */
  pthread_barrier_wait(&bar);
  if (mine != 100 + id || zeroed != id)
    bad = 1;
  return NULL;
}
int main(void)
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  mine = 1;
  pthread_barrier_init(&bar, NULL, NT);
  pthread_t t[NT];
  for (long i = 0; i < NT; i++)
    pthread_create(&t[i], NULL, work, (void*)i);
  for (int i = 0; i < NT; i++)
    pthread_join(t[i], NULL);
  if (mine != 1)
    bad = 1;
  shmem_barrier_all();
  if (shmem_my_pe() == 0)
    printf("thread_tls: %s on %d PEs\n", bad ? "WRONG" : "OK", shmem_n_pes());
  shmem_finalize();
  return bad;
}
