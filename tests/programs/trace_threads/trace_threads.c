/* Threads of a PE issue nbi puts and a quiet per round, either all on the shared default context
 * or each on a private context it created itself. On the shared context a thread's quiet also
 * waits for the other threads' puts (the contexts paper's thread interference); on private
 * contexts it waits for its own only. Each round a different thread computes least, so every
 * thread is sometimes early and waits for the others.
 * Usage: trace_threads shared|private */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define NT 4
#define ROUNDS 8
#define PUTS 4
#define BYTES 4096

static char dest[NT][PUTS][BYTES];
static char src[NT][BYTES];
static int use_private;
static volatile double sink;

static void compute(long n)
{
  double x = 1.0;
  for (long i = 0; i < n; i++)
    x = x * 1.0000001 + 0.5;
  sink = x;
}

static void* work(void* arg)
{
  const long id   = (long)arg;
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  if (use_private && shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
    fprintf(stderr, "trace_threads: thread %ld: shmem_ctx_create failed\n", id);
    return (void*)1;
  }
  const int peer = (shmem_my_pe() + 1) % shmem_n_pes();
  memset(src[id], (int)('a' + id), BYTES);
  for (int r = 0; r < ROUNDS; r++) {
    compute(2000 * ((id + r) % NT));
    for (int j = 0; j < PUTS; j++)
      shmem_ctx_putmem_nbi(ctx, dest[id][j], src[id], BYTES, peer);
    shmem_ctx_quiet(ctx);
  }
  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  return NULL;
}

int main(int argc, char** argv)
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  use_private = argc > 1 && strcmp(argv[1], "private") == 0;
  shmem_barrier_all();
  pthread_t t[NT];
  for (long i = 0; i < NT; i++)
    pthread_create(&t[i], NULL, work, (void*)i);
  int failed = 0;
  for (int i = 0; i < NT; i++) {
    void* r;
    pthread_join(t[i], &r);
    failed |= r != NULL;
  }
  shmem_barrier_all();
  int ok = !failed;
  for (int id = 0; id < NT; id++)
    for (int j = 0; j < PUTS; j++)
      for (int b = 0; b < BYTES; b++)
        if (dest[id][j][b] != (char)('a' + id))
          ok = 0;
  printf("trace_threads: PE %d %s contexts %s\n", shmem_my_pe(), use_private ? "private" : "shared", ok ? "ok" : "WRONG");
  shmem_finalize();
  return ok ? 0 : 1;
}
