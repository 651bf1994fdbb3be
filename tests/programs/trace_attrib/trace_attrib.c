/* Threads of every PE issue a mix of operations -- small and large nbi puts, a blocking put above
 * the volatile size, a blocking get, a fetch-add, an atomic add, an atomic fetch, a fence -- to several
 * PEs, all on the shared default context or each on a private context of its own, with
 * computation of different lengths in between, then a quiet. With several threads on one context
 * their operations interleave between each call and its message, so a trace must tie every
 * message to its own operation (tests/analysis/trace_audit.cpp checks it, and the report).
 * At the end each PE waits (wait_until) for a flag its left neighbour sets. Each PE checks what it
 * fetched, got and received.
 * Usage: trace_attrib THREADS shared|private [ROUNDS] */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 16
#define MAX_PES 8
#define SMALL 64
#define LARGE 4096
#define BLOCK 2048

static char small_in[MAX_PES][MAX_THREADS][SMALL];
static char large_in[MAX_PES][MAX_THREADS][LARGE];
static char block_in[MAX_PES][MAX_THREADS][BLOCK];
static long fetched_counter; /* fetch-added by every thread aiming at this PE */
static long added_counter;   /* atomically added the same way */
static long constant;        /* me * 1000 + 7, never written after the first barrier */
static int arrived;          /* set by the PE on the left once its threads are done */
static int nthreads, rounds, use_private, failures;
static volatile double sink;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void compute(long n)
{
  double x = 1.0;
  for (long i = 0; i < n; i++)
    x = x * 1.0000001 + 0.5;
  sink = x;
}

static void fail(const char* what, long id, int round, long got, long want)
{
  pthread_mutex_lock(&fail_lock);
  printf("trace_attrib: PE %d thread %ld round %d: %s %ld, expected %ld (WRONG)\n", shmem_my_pe(), id, round, what, got, want);
  failures++;
  pthread_mutex_unlock(&fail_lock);
}

/* The PE thread `id` of PE `pe` aims its puts and atomics at, and the one it gets from. */
static int peer_of(int pe, long id, int npes) { return (int)((pe + 1 + id % (npes > 1 ? npes - 1 : 1)) % npes); }
static int other_of(int pe, long id, int npes) { return (int)((pe + npes - 1 - id % npes + npes) % npes); }

static void* work(void* arg)
{
  const long id = (long)arg;
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
  if (use_private && shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
    fail("shmem_ctx_create returned non-zero", id, -1, 1, 0);
    return NULL;
  }
  const int peer = peer_of(me, id, npes), other = other_of(me, id, npes);
  char small[SMALL], large[LARGE], block[BLOCK];
  for (int r = 0; r < rounds; r++) {
    compute(1500 * ((id + r) % nthreads));
    memset(small, 'a' + (int)(id + r) % 26, SMALL);
    memset(large, 'A' + (int)(id + r) % 26, LARGE);
    memset(block, '0' + (int)(id + r) % 10, BLOCK);
    shmem_ctx_putmem_nbi(ctx, small_in[me][id], small, SMALL, peer);
    shmem_ctx_putmem_nbi(ctx, large_in[me][id], large, LARGE, peer);
    shmem_ctx_fence(ctx);
    shmem_ctx_putmem(ctx, block_in[me][id], block, BLOCK, other);
    const long before = shmem_ctx_long_atomic_fetch_add(ctx, &fetched_counter, 1, peer);
    if (before < 0 || before >= (long)npes * nthreads * rounds)
      fail("fetch-add returned", id, r, before, 0);
    shmem_ctx_long_atomic_add(ctx, &added_counter, 2, other);
    const long c = shmem_ctx_long_g(ctx, &constant, other);
    if (c != other * 1000L + 7)
      fail("get of the constant returned", id, r, c, other * 1000L + 7);
    const long f = shmem_ctx_long_atomic_fetch(ctx, &constant, peer);
    if (f != peer * 1000L + 7)
      fail("atomic fetch of the constant returned", id, r, f, peer * 1000L + 7);
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
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  nthreads    = argc > 1 ? atoi(argv[1]) : 4;
  use_private = argc > 2 && strcmp(argv[2], "private") == 0;
  rounds      = argc > 3 ? atoi(argv[3]) : 6;
  if (nthreads < 1 || nthreads > MAX_THREADS || npes > MAX_PES || rounds < 1) {
    if (me == 0)
      printf("usage: trace_attrib THREADS(1-%d) shared|private [ROUNDS], at most %d PEs\n", MAX_THREADS, MAX_PES);
    shmem_finalize();
    return 2;
  }
  constant = me * 1000L + 7;
  shmem_barrier_all();
  pthread_t t[MAX_THREADS];
  for (long i = 0; i < nthreads; i++)
    pthread_create(&t[i], NULL, work, (void*)i);
  for (int i = 0; i < nthreads; i++)
    pthread_join(t[i], NULL);
  shmem_int_atomic_set(&arrived, 1, (me + 1) % npes);
  shmem_int_wait_until(&arrived, SHMEM_CMP_EQ, 1);
  shmem_barrier_all();
  /* Every thread of every PE aimed `rounds` fetch-adds at its peer and adds of 2 at its other. */
  long want_fetched = 0, want_added = 0;
  for (int pe = 0; pe < npes; pe++)
    for (long id = 0; id < nthreads; id++) {
      want_fetched += peer_of(pe, id, npes) == me ? rounds : 0;
      want_added += other_of(pe, id, npes) == me ? 2L * rounds : 0;
    }
  if (fetched_counter != want_fetched)
    fail("fetched counter", -1, rounds, fetched_counter, want_fetched);
  if (added_counter != want_added)
    fail("added counter", -1, rounds, added_counter, want_added);
  const int last = rounds - 1;
  for (int pe = 0; pe < npes; pe++)
    for (long id = 0; id < nthreads; id++) {
      if (peer_of(pe, id, npes) == me) {
        if (small_in[pe][id][SMALL - 1] != 'a' + (int)(id + last) % 26)
          fail("small put's last byte", id, last, small_in[pe][id][SMALL - 1], 'a' + (id + last) % 26);
        if (large_in[pe][id][0] != 'A' + (int)(id + last) % 26)
          fail("large put's first byte", id, last, large_in[pe][id][0], 'A' + (id + last) % 26);
      }
      if (other_of(pe, id, npes) == me && block_in[pe][id][BLOCK / 2] != '0' + (int)(id + last) % 10)
        fail("blocking put's middle byte", id, last, block_in[pe][id][BLOCK / 2], '0' + (id + last) % 10);
    }
  const int bad = shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &failures, &failures, 1) == 0 ? failures : 1;
  if (me == 0)
    printf("trace_attrib: %s on %d PEs x %d threads, %s contexts\n", bad ? "FAILED" : "OK", npes, nthreads,
           use_private ? "private" : "shared");
  shmem_finalize();
  return bad ? 1 : 0;
}
