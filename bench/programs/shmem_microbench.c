/* bench/microbench: latencies and bandwidth between PE 0 and PE 1 in simulated time.
 * Prints one line per figure: "name size value unit".
 *  put_lat      one-way latency of an 8-byte put: half the round trip of a ping-pong of puts
 *               (each side waits for the flag with shmem_wait_until, then puts back)
 *  put_quiet    8-byte shmem_putmem + shmem_quiet
 *  get          8-byte blocking shmem_getmem
 *  fadd         shmem_long_atomic_fetch_add
 *  bw SIZE      PE 0 streams put_nbi of SIZE bytes (8 B .. 1 MiB, doubling) to PE 1 (one quiet per window of 64),
 *               MB/s = 1e6 bytes per second
 * Usage: shmem_microbench [ITERS] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXBYTES (1 << 20)
#define WINDOW 64

static long ping, pong, counter, word;
static char buf[MAXBYTES];

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe();
  const int iters = argc > 1 ? atoi(argv[1]) : 100;
  static char src[MAXBYTES];
  long v = 0;
  shmem_barrier_all();
  double t0 = now();
  for (long i = 1; i <= iters; ++i) {
    if (me == 0) {
      shmem_long_p(&ping, i, 1);
      shmem_long_wait_until(&pong, SHMEM_CMP_EQ, i);
    } else if (me == 1) {
      shmem_long_wait_until(&ping, SHMEM_CMP_EQ, i);
      shmem_long_p(&pong, i, 0);
    }
  }
  if (me == 0)
    printf("put_lat 8 %.3f us\n", (now() - t0) / iters / 2 * 1e6);
  shmem_barrier_all();
  if (me == 0) {
    t0 = now();
    for (int i = 0; i < iters; ++i) {
      shmem_putmem(&word, &v, 8, 1);
      shmem_quiet();
    }
    printf("put_quiet 8 %.3f us\n", (now() - t0) / iters * 1e6);
    t0 = now();
    for (int i = 0; i < iters; ++i)
      shmem_getmem(&v, &word, 8, 1);
    printf("get 8 %.3f us\n", (now() - t0) / iters * 1e6);
    t0 = now();
    for (int i = 0; i < iters; ++i)
      v += shmem_long_atomic_fetch_add(&counter, 1, 1);
    printf("fadd 8 %.3f us\n", (now() - t0) / iters * 1e6);
    for (size_t size = 8; size <= MAXBYTES; size *= 2) {
      const int n = size >= 65536 ? WINDOW : 4 * WINDOW;
      t0 = now();
      for (int i = 0; i < n; ++i) {
        shmem_putmem_nbi(buf, src, size, 1);
        if ((i + 1) % WINDOW == 0)
          shmem_quiet();
      }
      shmem_quiet();
      printf("bw %zu %.1f MB/s\n", size, (double)size * n / (now() - t0) / 1e6);
    }
  }
  shmem_barrier_all();
  shmem_finalize();
  return v < 0;
}
