/* bench/emulator: message rate and all-to-all, in the clock of whoever runs it (real time when
 * emulated). Prints "name size value unit" lines from PE 0.
 *  msg_rate 8    PE 0 streams 8-byte shmem_putmem_nbi to PE 1, a quiet every 64: puts per second
 *                (in millions)
 *  alltoall SIZE every PE puts SIZE bytes to every other PE (put_nbi), quiet, barrier; the time of
 *                one such exchange, averaged over ITERS
 * Usage: shmem_rate_alltoall [ITERS] */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define WINDOW 64
#define A2A 4096

static long word;
static char dst[64 * A2A];

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int iters = argc > 1 ? atoi(argv[1]) : 100;
  static char src[A2A];
  long v = 1;
  shmem_barrier_all();
  if (me == 0 && npes > 1) {
    const int n = iters * WINDOW;
    const double t0 = now();
    for (int i = 0; i < n; ++i) {
      shmem_putmem_nbi(&word, &v, 8, 1);
      if ((i + 1) % WINDOW == 0)
        shmem_quiet();
    }
    shmem_quiet();
    printf("msg_rate 8 %.3f Mput/s\n", n / (now() - t0) / 1e6);
  }
  shmem_barrier_all();
  if (npes <= 64) {
    for (size_t size = 8; size <= A2A; size *= 8) {
      shmem_barrier_all();
      const double t0 = now();
      for (int i = 0; i < iters; ++i) {
        for (int k = 1; k < npes; ++k) {
          const int pe = (me + k) % npes;
          shmem_putmem_nbi(dst + (size_t)me * size, src, size, pe);
        }
        shmem_quiet();
        shmem_barrier_all();
      }
      if (me == 0)
        printf("alltoall %zu %.3f us\n", size, (now() - t0) / iters * 1e6);
    }
  }
  shmem_finalize();
  return 0;
}
