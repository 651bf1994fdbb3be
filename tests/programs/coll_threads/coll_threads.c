/* Barriers while threads of the same PE put on the shared default context (SHMEM_THREAD_MULTIPLE),
 * whatever job.collectives.barrier selects. Per PE: thread 0 calls shmem_barrier_all; -p P more
 * threads ("putters") put on SHMEM_CTX_DEFAULT at the same time. Per round r:
 *   1. every thread (thread 0 too) puts r into its slot of the right neighbour's `slot` (bank r % 2);
 *   2. the PE's threads meet (pthread barrier): those puts happen before thread 0's barrier call;
 *   3. thread 0 calls shmem_barrier_all while each putter puts -b blocks of -s bytes to the right
 *      neighbour (shmem_putmem, or shmem_putmem_nbi with -n), each to a place of its own (bank
 *      r % 2): traffic on the context the barrier quiets, issued during the barrier (completed at
 *      the latest by the next round's barrier, before the bank is written again);
 *   4. the threads meet again; thread 0 checks that every slot of the left neighbour holds r: the
 *      barrier completed every thread's puts issued before it, not only its caller's (the bank of
 *      round r is not written again before the left PE's barrier r + 1, which waits for this PE).
 * After the rounds and a last barrier, every putter's blocks at the right neighbour hold the last two
 * rounds' patterns, element by element. Thread 0 prints its mean time per shmem_barrier_all
 * (RESULT barrier_us, putters) for sweeps (scenarios/offload/barrier-threads.json). */
#include <pthread.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progtest.h"

#define MAX_THREADS 8
#define MAX_BLOCKS 16
#define MAX_BYTES 1024
#define WORDS (MAX_BYTES / 8)

static long slot[2][MAX_THREADS]; /* bank r % 2: slot t written by thread t of the left PE */
static long block[2][MAX_THREADS][MAX_BLOCKS][WORDS]; /* bank r % 2: putter t's blocks of the left PE */
static long source[2][MAX_THREADS][MAX_BLOCKS][WORDS]; /* what putter t sends (nbi: kept until complete) */
static pthread_barrier_t meet;
static int putters = 1, rounds = 8, blocks = 16, bytes = 512, nbi = 0, sync_only = 0;
static int me, npes;
static double inside; /* thread 0's time inside shmem_barrier_all */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long pattern(int r, int t, int b, int w)
{
  return ((long)r << 40) | ((long)t << 32) | ((long)b << 16) | w;
}

static void* thread_main(void* arg)
{
  const int t = (int)(long)arg, right = (me + 1) % npes, left = (me + npes - 1) % npes;
  const int words = bytes / 8;
  for (int r = 1; r <= rounds; ++r) {
    shmem_long_p(&slot[r % 2][t], r, right);
    pthread_barrier_wait(&meet);
    if (t == 0) {
      const double start = now();
      if (sync_only)
        shmem_sync_all();
      else
        shmem_barrier_all();
      inside += now() - start;
    } else {
      for (int b = 0; b < blocks; ++b) {
        long* src = source[r % 2][t][b];
        for (int w = 0; w < words; ++w)
          src[w] = pattern(r, t, b, w);
        if (nbi)
          shmem_putmem_nbi(block[r % 2][t][b], src, (size_t)bytes, right);
        else
          shmem_putmem(block[r % 2][t][b], src, (size_t)bytes, right);
      }
    }
    pthread_barrier_wait(&meet);
    if (t == 0 && !sync_only)
      for (int u = 0; u <= putters; ++u)
        CHECK(slot[r % 2][u] == r, "round %d: thread %d's put from PE %d not complete after the barrier (slot %ld)", r,
              u, left, slot[r % 2][u]);
  }
  return NULL;
}

int main(int argc, char** argv)
{
  int opt;
  while ((opt = getopt(argc, argv, "p:r:b:s:ny")) != -1) {
    switch (opt) {
      case 'p': putters = atoi(optarg); break;
      case 'r': rounds = atoi(optarg); break;
      case 'b': blocks = atoi(optarg); break;
      case 's': bytes = atoi(optarg); break;
      case 'n': nbi = 1; break;
      case 'y': sync_only = 1; break;
      default: return 2;
    }
  }
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me = shmem_my_pe(), npes = shmem_n_pes();
  CHECK(provided == SHMEM_THREAD_MULTIPLE, "provided %d", provided);
  CHECK(putters >= 0 && putters < MAX_THREADS, "-p %d: 0 to %d putters", putters, MAX_THREADS - 1);
  CHECK(bytes >= 8 && bytes <= MAX_BYTES && bytes % 8 == 0, "-s %d: 8 to %d bytes, a multiple of 8", bytes, MAX_BYTES);
  CHECK(blocks >= 1 && blocks <= MAX_BLOCKS, "-b %d: 1 to %d blocks", blocks, MAX_BLOCKS);
  CHECK(rounds >= 2, "-r %d: at least 2 rounds", rounds);
  if (progtest_errors != 0)
    return progtest_finish("coll_threads");
  pthread_barrier_init(&meet, NULL, (unsigned)putters + 1);
  pthread_t th[MAX_THREADS];
  for (long t = 1; t <= putters; ++t)
    pthread_create(&th[t], NULL, thread_main, (void*)t);
  thread_main((void*)0);
  for (int t = 1; t <= putters; ++t)
    pthread_join(th[t], NULL);
  shmem_barrier_all();
  const int left = (me + npes - 1) % npes;
  for (int r = rounds - 1; r <= rounds; ++r)
    for (int t = 1; t <= putters; ++t)
      for (int b = 0; b < blocks; ++b)
        for (int w = 0; w < bytes / 8; ++w)
          CHECK(block[r % 2][t][b][w] == pattern(r, t, b, w), "round %d, putter %d of PE %d, block %d, word %d: %lx", r,
                t, left, b, w, (unsigned long)block[r % 2][t][b][w]);
  if (me == 0) {
    printf("coll_threads: %d putters, %d rounds, mean barrier %.3f us\n", putters, rounds, inside / rounds * 1e6);
    printf("RESULT barrier_us=%.3f putters=%d\n", inside / rounds * 1e6, putters);
  }
  pthread_barrier_destroy(&meet);
  return progtest_finish("coll_threads");
}
