/* Listing 2 of the contexts paper (Dinan & Flajslik, PGAS'14): a hybrid OpenSHMEM + OpenMP
 * program. The PE initializes SHMEM_THREAD_MULTIPLE, creates one SHMEM_THREAD_SERIALIZED context
 * per thread of the coming parallel region, and every thread computes, then puts its block to
 * every other PE with non-blocking puts on its own context and completes them with a quiet on that
 * context only. Built with -DSHMEMSIM_PAPER_NAMES, so the paper's calls are written as in the
 * listing. The data that landed is checked after the contexts are destroyed (destroy quiets).
 * Usage: omp_listing2 [rounds] [block longs] */
#include <omp.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdlib.h>

#include "progtest.h"

static long value(int pe, int tid, int round, int j)
{
  return ((long)pe << 40) ^ ((long)tid << 28) ^ ((long)round << 16) ^ j;
}

int main(int argc, char** argv)
{
  const int rounds = argc > 1 ? atoi(argv[1]) : 4;
  const int block  = argc > 2 ? atoi(argv[2]) : 256;
  int max_threads  = omp_get_max_threads();
  shmem_ctx_t thread_ctx[max_threads];

  shmem_init(SHMEM_THREAD_MULTIPLE);
  int created = shmem_ctx_create(max_threads, SHMEM_THREAD_SERIALIZED, thread_ctx);
  CHECK(created == 0, "shmem_ctx_create(%d) returned %d", max_threads, created);
  const int my_pe = shmem_my_pe(), npes = shmem_n_pes();
  /* recv[src][tid][j]: what thread tid of PE src put here last. */
  long* recv = shmem_calloc((size_t)npes * max_threads * block, sizeof(long));
  long* send = malloc((size_t)max_threads * block * sizeof(long));
  int team = 0, distinct = 1;
  shmem_barrier_all();

#pragma omp parallel
  {
    int tid = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    for (int t = 0; t < tid; t++)
      if (thread_ctx[t] == thread_ctx[tid])
        distinct = 0;

    /* Threads operate on their private (SERIALIZED) contexts */
    for (int round = 0; round < rounds; round++) {
      /* Perform computation */
      long* buf = send + (size_t)tid * block;
      for (int j = 0; j < block; j++)
        buf[j] = value(my_pe, tid, round, j);

      /* Perform communication */
      long* target = recv + ((size_t)my_pe * max_threads + tid) * block;
      for (int i = 1; i < npes; i++)
        shmem_ctx_putmem_nb(thread_ctx[tid], target, buf, block * sizeof(long), (my_pe + i) % npes);

      shmem_ctx_quiet(thread_ctx[tid]);
    }
  }
  shmem_ctx_destroy(max_threads, thread_ctx);
  shmem_barrier_all();

  CHECK(team == max_threads, "team of %d threads, %d contexts", team, max_threads);
  CHECK(distinct, "threads share a context");
  for (int src = 0; src < npes; src++) {
    if (src == my_pe)
      continue;
    for (int tid = 0; tid < max_threads; tid++)
      for (int j = 0; j < block; j++) {
        const long got = recv[((size_t)src * max_threads + tid) * block + j];
        CHECK(got == value(src, tid, rounds - 1, j), "from PE %d thread %d element %d: %lx", src, tid, j, got);
      }
  }
  if (my_pe == 0)
    printf("omp_listing2: %d PEs x %d threads, %d rounds of %d-long puts, simulated %.1f us\n", npes, max_threads,
           rounds, block, omp_get_wtime() * 1e6);
  shmem_free(recv);
  free(send);
  int status = progtest_finish("omp_listing2");
  shmem_finalize();
  return status;
}
