/* Spin-waits on memory, as real codes write them: no library call inside the loop.
 *   put     PE 0 computes, then puts 1 into every other PE's volatile `flag`; the others spin
 *           on it and report how long they spun (released once the put lands).
 *   sibling thread 1 of PE 0 stores to symmetric `word` and calls shmem_quiet; the main thread
 *           waits in shmem_long_wait_until on it (a store by a sibling, noticed at its next call).
 *   slice   like sibling, but thread 1 never calls the library after its store: it spins on
 *           another variable, so the waiter notices the store when thread 1's time slice ends.
 *   ptr     PE 1 stores to PE 0's symmetric `word` through shmem_ptr (same node) and calls
 *           shmem_quiet; PE 0 waits in shmem_long_wait_until on it.
 *   forever PE 0 spins on a flag nobody sets (ends at --sim-time-limit). */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progtest.h"

static volatile int flag;
static long word;
static volatile int stop;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double busy(long n)
{
  volatile double x = 1.0;
  for (long i = 0; i < n; ++i)
    x = x * 1.0000001 + 1e-9;
  return x;
}

/* Both sibling threads first sleep, so that the main thread is already waiting when they store. */
static void* store_then_quiet(void* arg)
{
  (void)arg;
  usleep(10);
  busy(20000);
  word = 42;
  shmem_quiet();
  return NULL;
}

static void* store_then_spin(void* arg)
{
  (void)arg;
  usleep(10);
  busy(20000);
  word = 7;
  while (!stop) /* no library call: only its time slice makes the store visible */
    ;
  return NULL;
}

static void sibling(int me, void* (*fn)(void*), long expect)
{
  if (me == 0) {
    pthread_t t;
    pthread_create(&t, NULL, fn, NULL);
    const double t0 = now();
    shmem_long_wait_until(&word, SHMEM_CMP_EQ, expect);
    const double waited = now() - t0;
    stop = 1;
    pthread_join(t, NULL);
    CHECK(word == expect, "word = %ld", word);
    printf("sibling store seen after %.1f us\n", waited * 1e6);
  }
  shmem_barrier_all();
}

int main(int argc, char** argv)
{
  const char* mode = argc > 1 ? argv[1] : "put";
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &(int){0});
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (strcmp(mode, "put") == 0) {
    shmem_barrier_all();
    if (me == 0) {
      busy(200000);
      for (int pe = 1; pe < npes; ++pe)
        shmem_int_p((int*)&flag, 1, pe);
      shmem_quiet();
    } else {
      const double t0 = now();
      while (flag == 0)
        ;
      printf("PE %d released after %.1f us\n", me, (now() - t0) * 1e6);
    }
    shmem_barrier_all();
    if (me != 0)
      CHECK(flag == 1, "flag = %d", flag);
  } else if (strcmp(mode, "sibling") == 0) {
    sibling(me, store_then_quiet, 42);
  } else if (strcmp(mode, "slice") == 0) {
    sibling(me, store_then_spin, 7);
  } else if (strcmp(mode, "ptr") == 0) {
    long* remote = shmem_ptr(&word, 0);
    CHECK(remote != NULL || me == 0 || npes < 2, "shmem_ptr to PE 0 is NULL (not on its node?)");
    shmem_barrier_all();
    if (me == 0) {
      const double t0 = now();
      shmem_long_wait_until(&word, SHMEM_CMP_EQ, 5);
      printf("store through shmem_ptr seen after %.1f us\n", (now() - t0) * 1e6);
    } else if (me == 1 && remote != NULL) {
      busy(20000);
      *remote = 5;
      shmem_quiet();
    }
    shmem_barrier_all();
  } else if (strcmp(mode, "forever") == 0) {
    if (me == 0)
      while (flag == 0)
        ;
    shmem_barrier_all();
  }
  const int rc = progtest_finish("spin_wait");
  shmem_finalize();
  return rc;
}
