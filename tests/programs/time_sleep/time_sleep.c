/* Clocks and sleeps are simulated: clock_gettime, gettimeofday, time, usleep, sleep, nanosleep.
 * usleep(1000) advances simulated time by 1 ms, sleep(1) by 1 s; PEs sleeping different
 * amounts meet at a barrier at the latest one's time. The program prints times, so two
 * identical runs must print the same text (the test compares them).
 *   time_sleep         checks durations within the compute charged between the calls
 *   time_sleep exact   (run with job.compute=none) durations are exact */
#include <shmem.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "progtest.h"

static long long ns_of(const struct timespec* t) { return (long long)t->tv_sec * 1000000000LL + t->tv_nsec; }

static long long now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return ns_of(&t);
}

int main(int argc, char** argv)
{
  const int exact = argc > 1 && strcmp(argv[1], "exact") == 0;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const long long slack = exact ? 1 : 20000; /* ns: rounding, or compute charged between calls */

  long long t0 = now_ns();
  usleep(1000);
  long long t1 = now_ns();
  CHECK(t1 - t0 >= 1000000 - 1 && t1 - t0 <= 1000000 + slack, "usleep(1000) took %lld ns", t1 - t0);
  if (me == 0)
    printf("PE 0: usleep(1000) took %lld ns\n", (t1 - t0 + 500) / 1000 * 1000);

  t0 = now_ns();
  sleep(1);
  t1 = now_ns();
  CHECK(t1 - t0 >= 1000000000LL - 1 && t1 - t0 <= 1000000000LL + slack, "sleep(1) took %lld ns", t1 - t0);

  struct timespec req = {0, 2500000}; /* 2.5 ms */
  t0 = now_ns();
  CHECK(nanosleep(&req, NULL) == 0, "nanosleep");
  t1 = now_ns();
  CHECK(t1 - t0 >= 2500000 - 1 && t1 - t0 <= 2500000 + slack, "nanosleep(2.5ms) took %lld ns", t1 - t0);

  /* gettimeofday and time agree with CLOCK_REALTIME; the simulated date is fixed. */
  struct timeval tv;
  struct timespec rt;
  gettimeofday(&tv, NULL);
  clock_gettime(CLOCK_REALTIME, &rt);
  const long long tv_us = (long long)tv.tv_sec * 1000000 + tv.tv_usec;
  CHECK(ns_of(&rt) / 1000 - tv_us >= 0 && ns_of(&rt) / 1000 - tv_us <= slack / 1000 + 1, "gettimeofday vs CLOCK_REALTIME");
  const time_t tt = time(NULL);
  CHECK(tt == rt.tv_sec || tt == rt.tv_sec + 1, "time() %lld vs CLOCK_REALTIME %lld", (long long)tt, (long long)rt.tv_sec);
  CHECK(rt.tv_sec >= 1409529600 && rt.tv_sec < 1409529600 + 3600, "simulated date %lld", (long long)rt.tv_sec);

  /* PE k sleeps k ms: after the barrier every PE is past the latest sleeper's wake-up. */
  shmem_barrier_all();
  t0 = now_ns();
  usleep((useconds_t)(1000 * me));
  shmem_barrier_all();
  t1 = now_ns();
  CHECK(t1 - t0 >= 1000000LL * (npes - 1) - 1, "barrier after sleeps: %lld ns < %d ms", t1 - t0, npes - 1);

  /* Print every PE's clock, in PE order (deterministic across runs). */
  for (int p = 0; p < npes; ++p) {
    if (p == me) {
      struct timespec t;
      clock_gettime(CLOCK_MONOTONIC, &t);
      printf("PE %d: t=%lld.%09ld s, date %lld.%06ld\n", me, (long long)t.tv_sec, t.tv_nsec, (long long)tv.tv_sec,
             (long)tv.tv_usec);
      fflush(stdout);
    }
    shmem_barrier_all();
  }
  const int rc = progtest_finish("time_sleep");
  shmem_finalize();
  return rc;
}
