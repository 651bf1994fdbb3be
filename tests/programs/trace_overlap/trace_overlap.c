/* Communication and computation, without and with overlap. Each round puts 64 KiB to the next PE
 * and computes: `blocking` waits for the put to complete, then computes (no overlap); `pipelined`
 * issues the put non-blocking, computes, then quiets (the transfer hides behind the computation).
 * Usage: trace_overlap blocking|pipelined */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 6
#define BYTES (64 * 1024)

static char dest[ROUNDS][BYTES];
static char src[BYTES];
static volatile double sink;

static void compute(long n)
{
  double x = 1.0;
  for (long i = 0; i < n; i++)
    x = x * 1.0000001 + 0.5;
  sink = x;
}

int main(int argc, char** argv)
{
  shmem_init();
  const int pipelined = argc > 1 && strcmp(argv[1], "pipelined") == 0;
  const int me        = shmem_my_pe();
  const int peer      = (me + 1) % shmem_n_pes();
  memset(src, 'x', BYTES);
  shmem_barrier_all();
  for (int r = 0; r < ROUNDS; r++) {
    if (pipelined) {
      shmem_putmem_nbi(dest[r], src, BYTES, peer);
      compute(150000);
      shmem_quiet();
    } else {
      shmem_putmem(dest[r], src, BYTES, peer);
      compute(150000);
    }
  }
  shmem_barrier_all();
  int ok = 1;
  for (int r = 0; r < ROUNDS; r++)
    for (int b = 0; b < BYTES; b++)
      if (dest[r][b] != 'x')
        ok = 0;
  printf("trace_overlap: PE %d %s %s\n", me, pipelined ? "pipelined" : "blocking", ok ? "ok" : "WRONG");
  shmem_finalize();
  return ok ? 0 : 1;
}
