/* Timing semantics of the Portals-SHMEM stack.
 *  barrier:  shmem_barrier_all, shmem_barrier and shmem_sync_all complete only the default
 *            context. PE 0 puts 1 MiB to PE 1 on a private context (about 330 us of PCIe), then
 *            calls the barrier: the barrier returns long before the put is done, and the context's
 *            quiet after it still waits (> 100 us). The data is there after the quiet.
 *  initiate: run with platform.nic.initiate_overhead=10us. PE 0 runs two threads, each with its
 *            own private context: thread 1 issues 10 put_nbi (10 x 10 us on its own core), thread
 *            0 issues one. Thread 1 takes at least 100 us; thread 0 less than 20 us: the cost of a
 *            Portals call delays its calling thread only. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "progtest.h"

#define BIG (1 << 20)

static char big[BIG];
static long small[16];

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int barrier_case(int which)
{
  static const char* names[] = {"barrier_all", "barrier", "sync_all"};
  static long psync[SHMEM_BARRIER_SYNC_SIZE];
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i)
    psync[i] = SHMEM_SYNC_VALUE;
  static char src[BIG];
  const int me = shmem_my_pe();
  memset(src, 'a' + which, BIG);
  shmem_barrier_all();
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create");
  if (me == 0)
    shmem_ctx_putmem_nbi(ctx, big, src, BIG, 1);
  const double t0 = now();
  if (which == 0)
    shmem_barrier_all();
  else if (which == 1)
    shmem_barrier(0, 0, shmem_n_pes(), psync);
  else
    shmem_sync_all();
  const double t1 = now();
  shmem_ctx_quiet(ctx);
  const double t2 = now();
  if (me == 0) {
    printf("stack_semantics: %s took %.1f us, the context's quiet after it %.1f us\n", names[which], (t1 - t0) * 1e6,
           (t2 - t1) * 1e6);
    CHECK(t2 - t1 > 100e-6, "%s completed the private context's put", names[which]);
  }
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
  if (me == 1)
    CHECK(big[0] == 'a' + which && big[BIG - 1] == 'a' + which, "%s: data missing", names[which]);
  return 0;
}

struct job {
  int puts;
  double elapsed;
};

static void* issue(void* arg)
{
  struct job* j = arg;
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx_create");
  const double t0 = now();
  for (int i = 0; i < j->puts; ++i)
    shmem_ctx_long_put_nbi(ctx, &small[i], &small[i], 1, 1);
  j->elapsed = now() - t0;
  shmem_ctx_quiet(ctx);
  shmem_ctx_destroy(ctx);
  return NULL;
}

static void initiate_case(void)
{
  if (shmem_my_pe() == 0) {
    struct job busy = {10, 0}, light = {1, 0};
    pthread_t t;
    pthread_create(&t, NULL, issue, &busy);
    issue(&light);
    pthread_join(t, NULL);
    printf("stack_semantics: 10 puts took %.1f us on their thread, 1 put %.1f us on the other\n", busy.elapsed * 1e6,
           light.elapsed * 1e6);
    CHECK(busy.elapsed >= 100e-6, "10 calls cost %.1f us", busy.elapsed * 1e6);
    CHECK(light.elapsed >= 10e-6 && light.elapsed < 20e-6, "the other thread took %.1f us", light.elapsed * 1e6);
  }
}

int main(int argc, char** argv)
{
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  if (argc > 1 && strcmp(argv[1], "initiate") == 0) {
    initiate_case();
  } else {
    for (int which = 0; which < 3; ++which)
      barrier_case(which);
  }
  return progtest_finish("stack_semantics");
}
