/* Thread interference on a shared context: 8 threads each issue 200 small puts and a quiet,
 * either on the shared default context (the library's internal lock is contended and every quiet
 * waits for all threads' puts) or each on its own SHMEM_CTX_PRIVATE context. Prints the
 * simulated time of the parallel section. Usage: thread_interference shared|private */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#define NT 8
#define OPS 200
static long slots[NT][OPS];
static int use_private;
static void* work(void* arg)
{
  long id = (long)arg;
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  if (use_private && shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;
  const int peer = (shmem_my_pe() + 1) % shmem_n_pes();
  for (long i = 0; i < OPS; i++)
    shmem_ctx_long_p(ctx, &slots[id][i], id * 1000 + i, peer);
  shmem_ctx_quiet(ctx);
  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  return NULL;
}
int main(int argc, char** argv)
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  use_private = argc > 1 && strcmp(argv[1], "private") == 0;
  struct timespec t0, t1;
  shmem_barrier_all();
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_t t[NT];
  for (long i = 0; i < NT; i++)
    pthread_create(&t[i], NULL, work, (void*)i);
  for (int i = 0; i < NT; i++)
    pthread_join(t[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  shmem_barrier_all();
  int ok = 1;
  for (int id = 0; id < NT; id++)
    for (int i = 0; i < OPS; i++)
      if (slots[id][i] != id * 1000 + i)
        ok = 0;
  if (shmem_my_pe() == 0)
    printf("thread_interference: %s contexts %.0f us %s\n", use_private ? "private" : "shared",
           (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3, ok ? "ok" : "WRONG");
  shmem_finalize();
  return !ok;
}
