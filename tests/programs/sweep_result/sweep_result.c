/* A benchmark as sweeps see one (README, Sweeps): each PE puts `-n` messages of `-s` bytes to the
 * next PE and waits for them; PE 0 reports the timed section (not the whole run) as a line
 * "RESULT time_us=... n=... size=... pes=...", plus "tag=..." when SWEEP_TAG is set. `-f S` makes
 * PE 0 exit with status S after reporting (a failing point). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 16];

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

int main(int argc, char** argv)
{
  int n = 10, size = 64, fail = 0, c;
  while ((c = getopt(argc, argv, "n:s:f:")) != -1) {
    if (c == 'n')
      n = atoi(optarg);
    else if (c == 's')
      size = atoi(optarg);
    else if (c == 'f')
      fail = atoi(optarg);
    else
      return 2;
  }
  if (size < 1 || size > (int)sizeof buf)
    size = 64;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_barrier_all();
  const double t0 = now_us();
  for (int i = 0; i < n; ++i)
    shmem_putmem(buf, buf, (size_t)size, (me + 1) % npes);
  shmem_quiet();
  shmem_barrier_all();
  const double t1 = now_us();
  if (me == 0) {
    const char* tag = getenv("SWEEP_TAG");
    printf("sweep_result: %d puts of %d bytes on %d PEs\n", n, size, npes);
    printf("RESULT time_us=%.3f n=%d size=%d pes=%d%s%s\n", t1 - t0, n, size, npes, tag ? " tag=" : "", tag ? tag : "");
  }
  shmem_finalize();
  return me == 0 ? fail : 0;
}
