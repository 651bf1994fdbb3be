/* Threads sharing one context (issue 25): NT threads per PE issue, on the default context, blocking
 * operations whose answer only their own completion makes right, and check every answer.
 *
 *   thread_shared PATTERN[,PATTERN...] [ITERS [ctx]]      (each pattern in turn, ITERS iterations each)
 *     g      blocking shmem_long_g of constants (each thread its own slots and targets)
 *     fetch  shmem_long_atomic_fetch of the same constants
 *     pqf    put + shmem_quiet + shmem_long_atomic_fetch_add; then the put value is fetched back
 *     bigput a blocking put above max_volatile_size (1 KiB), then its last word fetched back
 *     nbi    four shmem_long_get_nbi + shmem_quiet
 *     req    shmemx_long_get_req + shmemx_wait_request (shmemx_test_request loops every other
 *            iteration): with few counters the requests go on the default context
 *     lock   Sandia's mt_lock_test's loop: per PE's lock, a set_lock (or test_lock loop), a g and
 *            a p of the PE's counter, a clear_lock; the threads of a PE take a lock in turn
 *            (OpenSHMEM's locks are held by PEs: a pthread mutex per lock orders the threads, as
 *            Sandia's mt_lock wrapper does)
 *     rawlock the same without the mutex: the library makes the PE's threads take a lock in turn
 *            (the lock patterns run ITERS/5 iterations, at least 1: each takes every PE's lock)
 *   `ctx`: each thread creates a context of its own (options 0) and issues on it; with
 *   job.contexts.on_exhaustion=share and few counters they all share the default context's.
 *
 * A fetching call that returned before its own reply gives a wrong value here, and its late reply
 * lands in a stack frame that is gone (a crash). PE 0 prints "thread_shared: OK on N PEs" only
 * when no PE saw a wrong value. */
#include <pthread.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

#define NT 4
#define MAXPE 16
#define NSLOT 16
#define BIG 128 /* longs: 1 KiB, above every preset's max_volatile_size */

static long consts[NT][NSLOT];      /* at PE p: value(p, t, j) */
static long slots[MAXPE][NT];       /* pqf: written by thread t of PE src */
static long counter;                /* pqf: fetch-add target */
static long big[MAXPE][NT][BIG];    /* bigput */
static long locks[MAXPE];           /* lock: one lock per PE */
static long lock_count;             /* lock: incremented under locks[p] at PE p */

#define NPATTERNS 8
static const char* const patterns[NPATTERNS] = {"g", "fetch", "pqf", "bigput", "nbi", "req", "lock", "rawlock"};
static int pattern; /* the one running: an index into patterns */
static int iters, use_ctx, me, npes;
static pthread_mutex_t guards[MAXPE];
static pthread_mutex_t report = PTHREAD_MUTEX_INITIALIZER;
static int wrong, checked;

static long value(int pe, int t, int j)
{
  return 1000000L * (pe + 1) + 1000L * t + j + 1;
}

/* The thread's i-th target: another PE when there is one, spread over threads and iterations. */
static int target_of(int pe, int t, int i)
{
  return npes == 1 ? pe : (pe + 1 + (i + t) % (npes - 1)) % npes;
}

struct worker {
  int t;
  shmem_ctx_t ctx;
  int wrong, checked;
};

static void check(struct worker* w, long got, long want, const char* what, int i, int target)
{
  ++w->checked;
  if (got == want)
    return;
  if (++w->wrong <= 3)
    printf("FAIL PE %d thread %d iteration %d: %s from PE %d gave %ld, expected %ld\n", me, w->t, i, what, target, got,
           want);
}

static void run_g(struct worker* w, int i, int fetch)
{
  const int target = target_of(me, w->t, i), j = (i * 7 + w->t) % NSLOT;
  const long got   = fetch ? shmem_ctx_long_atomic_fetch(w->ctx, &consts[w->t][j], target)
                           : shmem_ctx_long_g(w->ctx, &consts[w->t][j], target);
  check(w, got, value(target, w->t, j), fetch ? "atomic_fetch" : "g", i, target);
}

static void run_pqf(struct worker* w, int i)
{
  const int target = target_of(me, w->t, i);
  const long v     = value(me, w->t, i);
  shmem_ctx_long_p(w->ctx, &slots[me][w->t], v, target);
  shmem_ctx_quiet(w->ctx);
  const long old = shmem_ctx_long_atomic_fetch_add(w->ctx, &counter, 1, target);
  ++w->checked;
  if (old < 0 || old >= (long)npes * NT * iters * NPATTERNS) {
    if (++w->wrong <= 3)
      printf("FAIL PE %d thread %d iteration %d: fetch_add at PE %d gave %ld\n", me, w->t, i, target, old);
  }
  check(w, shmem_ctx_long_atomic_fetch(w->ctx, &slots[me][w->t], target), v, "the value put, after quiet,", i, target);
}

static void run_bigput(struct worker* w, int i)
{
  const int target = target_of(me, w->t, i);
  long b[BIG];
  for (int k = 0; k < BIG; ++k)
    b[k] = value(me, w->t, i) * 8 + k;
  shmem_ctx_long_put(w->ctx, &big[me][w->t][0], b, BIG, target);
  check(w, shmem_ctx_long_atomic_fetch(w->ctx, &big[me][w->t][BIG - 1], target), b[BIG - 1],
        "the last word of a blocking put", i, target);
}

static void run_nbi(struct worker* w, int i)
{
  long got[4];
  int targets[4], js[4];
  for (int k = 0; k < 4; ++k) {
    targets[k] = target_of(me, w->t, i + k);
    js[k]      = (i * 5 + k + w->t) % NSLOT;
    got[k]     = -1;
    shmem_ctx_long_get_nbi(w->ctx, &got[k], &consts[w->t][js[k]], 1, targets[k]);
  }
  shmem_ctx_quiet(w->ctx);
  for (int k = 0; k < 4; ++k)
    check(w, got[k], value(targets[k], w->t, js[k]), "get_nbi + quiet", i, targets[k]);
}

static void run_req(struct worker* w, int i)
{
  const int target = target_of(me, w->t, i), j = (i * 3 + w->t) % NSLOT;
  long got = -1;
  shmemx_request_handle_t r;
  shmemx_long_get_req(&got, &consts[w->t][j], 1, target, &r);
  if (i % 2 == 0)
    shmemx_wait_request(r);
  else
    while (!shmemx_test_request(r))
      ;
  check(w, got, value(target, w->t, j), "get_req", i, target);
}

static void run_lock(struct worker* w, int i, int guarded)
{
  for (int p = 0; p < npes; ++p) {
    if (guarded)
      pthread_mutex_lock(&guards[p]);
    if ((me + i) % 2 == 0)
      shmem_set_lock(&locks[p]);
    else
      while (shmem_test_lock(&locks[p]))
        ;
    const long d = shmem_ctx_long_g(w->ctx, &lock_count, p);
    shmem_ctx_long_p(w->ctx, &lock_count, d + 1, p);
    shmem_clear_lock(&locks[p]);
    if (guarded)
      pthread_mutex_unlock(&guards[p]);
  }
}

/* Iterations of the running pattern: the lock patterns take every PE's lock in each. */
static int pattern_iters(void)
{
  return pattern >= 6 ? (iters / 5 > 0 ? iters / 5 : 1) : iters;
}

static void* worker_main(void* arg)
{
  struct worker* w = arg;
  w->ctx           = SHMEM_CTX_DEFAULT;
  shmem_ctx_t own  = SHMEM_CTX_INVALID;
  if (use_ctx && shmem_ctx_create(0, &own) == 0)
    w->ctx = own;
  const int n = pattern_iters();
  for (int i = 0; i < n; ++i) {
    switch (pattern) {
      case 0:
      case 1:
        run_g(w, i, pattern == 1);
        break;
      case 2:
        run_pqf(w, i);
        break;
      case 3:
        run_bigput(w, i);
        break;
      case 4:
        run_nbi(w, i);
        break;
      case 5:
        run_req(w, i);
        break;
      default:
        run_lock(w, i, pattern == 6);
        break;
    }
  }
  if (own != SHMEM_CTX_INVALID)
    shmem_ctx_destroy(own);
  pthread_mutex_lock(&report);
  wrong += w->wrong;
  checked += w->checked;
  pthread_mutex_unlock(&report);
  return NULL;
}

/* The patterns named by `list` (comma-separated), in order, into `order`; their count, 0 if one is unknown. */
static int parse_patterns(const char* list, int* order)
{
  int n = 0;
  for (const char* p = list; *p != '\0';) {
    const size_t len = strcspn(p, ",");
    int found = -1;
    for (int k = 0; k < NPATTERNS; ++k)
      if (strlen(patterns[k]) == len && strncmp(p, patterns[k], len) == 0)
        found = k;
    if (found < 0 || n == NPATTERNS)
      return 0;
    order[n++] = found;
    p += len + (p[len] == ',');
  }
  return n;
}

int main(int argc, char** argv)
{
  int order[NPATTERNS], count = argc > 1 ? parse_patterns(argv[1], order) : 0;
  if (count == 0) {
    fprintf(stderr, "usage: thread_shared g|fetch|pqf|bigput|nbi|req|lock|rawlock[,...] [ITERS [ctx]]\n");
    return 2;
  }
  iters   = argc > 2 ? atoi(argv[2]) : 20;
  use_ctx = argc > 3 && strcmp(argv[3], "ctx") == 0;
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  if (provided != SHMEM_THREAD_MULTIPLE || npes > MAXPE || iters < 1) {
    if (me == 0)
      printf("FAIL: thread level %d, %d PEs (at most %d), %d iterations\n", provided, npes, MAXPE, iters);
    shmem_global_exit(1);
  }
  for (int t = 0; t < NT; ++t)
    for (int j = 0; j < NSLOT; ++j)
      consts[t][j] = value(me, t, j);
  for (int p = 0; p < MAXPE; ++p)
    pthread_mutex_init(&guards[p], NULL);
  shmem_barrier_all();

  int ran_pqf = 0, lock_rounds = 0;
  for (int k = 0; k < count; ++k) {
    pattern = order[k];
    ran_pqf += pattern == 2;
    lock_rounds += pattern >= 6 ? pattern_iters() : 0;
    pthread_t th[NT];
    struct worker ws[NT];
    memset(ws, 0, sizeof ws);
    for (int t = 0; t < NT; ++t) {
      ws[t].t = t;
      pthread_create(&th[t], NULL, worker_main, &ws[t]);
    }
    for (int t = 0; t < NT; ++t)
      pthread_join(th[t], NULL);
    if (wrong > 0)
      printf("thread_shared: PE %d: %d of %d answers wrong (%s)\n", me, wrong, checked, patterns[pattern]);
    progtest_errors += wrong;
    wrong = checked = 0;
    shmem_barrier_all();
  }

  /* What the PE's memory must hold now. */
  if (ran_pqf > 0) {
    long expect = 0;
    for (int src = 0; src < npes; ++src)
      for (int t = 0; t < NT; ++t)
        for (int i = 0; i < iters; ++i)
          expect += target_of(src, t, i) == me;
    CHECK(counter == expect * ran_pqf, "counter %ld, expected %ld fetch-adds", counter, expect * ran_pqf);
  }
  CHECK(lock_count == (long)npes * NT * lock_rounds, "lock counter %ld, expected %ld", lock_count,
        (long)npes * NT * lock_rounds);
  const int rc = progtest_finish("thread_shared");
  shmem_finalize();
  return rc;
}
