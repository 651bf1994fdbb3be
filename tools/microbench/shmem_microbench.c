/* shmemsim microbench's program (docs/microbench.md): OSU-style figures between PE 0 and PE 1,
 * timed by the program itself with clock_gettime, which reads simulated time under shmemsim-run.
 * Every other PE waits in the barriers.
 *
 * Usage: shmem_microbench ITERATIONS MIN_SIZE MAX_SIZE
 * Prints one line per figure on PE 0: "FIGURE SIZE VALUE", VALUE in seconds (latencies), bytes
 * per second (put_bw) or messages per second (put_rate); sizes double from MIN_SIZE to MAX_SIZE.
 *   put        SIZE  mean time of one blocking shmem_putmem (returns when the source may be reused)
 *   put_quiet  SIZE  mean time of shmem_putmem + shmem_quiet (the data is at PE 1)
 *   get        SIZE  mean time of one blocking shmem_getmem
 *   put_bw     SIZE  PE 0 streams shmem_putmem_nbi of SIZE bytes, a shmem_quiet after every WINDOW
 *                    of them: bytes moved / time of the stream
 *   put_rate   SIZE  the same stream: puts / time of the stream
 *   pingpong   8     one-way latency of an 8-byte put: half the round trip of a ping-pong of puts
 *                    (each side waits for the value with shmem_wait_until, then puts it back)
 *   fetch_add  8     mean time of one shmem_long_atomic_fetch_add
 *   add        8     mean time of one shmem_long_atomic_add (non-fetching: returns at once)
 * Each timed loop is preceded by an untimed warm-up of ITERATIONS/10 operations (at least one). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WINDOW 64

static long ping, pong, counter;

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long warmup_of(long iters) { return iters / 10 > 0 ? iters / 10 : 1; }

/* Half the round trip of an 8-byte put ping-pong between PE 0 and PE 1. */
static void pingpong(long iters)
{
  const int me = shmem_my_pe();
  const long skip = warmup_of(iters);
  double t0 = 0;
  for (long i = 1; i <= skip + iters; ++i) {
    if (i == skip + 1)
      t0 = now();
    if (me == 0) {
      shmem_long_p(&ping, i, 1);
      shmem_long_wait_until(&pong, SHMEM_CMP_EQ, i);
    } else if (me == 1) {
      shmem_long_wait_until(&ping, SHMEM_CMP_EQ, i);
      shmem_long_p(&pong, i, 0);
    }
  }
  if (me == 0)
    printf("pingpong 8 %.12g\n", (now() - t0) / (double)iters / 2);
}

enum op { OP_PUT, OP_PUT_QUIET, OP_GET, OP_FETCH_ADD, OP_ADD };

static void one(enum op op, char* remote, char* local, size_t size)
{
  switch (op) {
    case OP_PUT:
      shmem_putmem(remote, local, size, 1);
      break;
    case OP_PUT_QUIET:
      shmem_putmem(remote, local, size, 1);
      shmem_quiet();
      break;
    case OP_GET:
      shmem_getmem(local, remote, size, 1);
      break;
    case OP_FETCH_ADD:
      *(long*)local += shmem_long_atomic_fetch_add(&counter, 1, 1);
      break;
    case OP_ADD:
      shmem_long_atomic_add(&counter, 1, 1);
      break;
  }
}

/* PE 0: the mean time of `op` over `iters` operations after the warm-up. */
static double latency(enum op op, char* remote, char* local, size_t size, long iters)
{
  for (long i = 0; i < warmup_of(iters); ++i)
    one(op, remote, local, size);
  shmem_quiet();
  const double t0 = now();
  for (long i = 0; i < iters; ++i)
    one(op, remote, local, size);
  const double t = (now() - t0) / (double)iters;
  shmem_quiet(); /* the non-fetching adds' completion is not part of their figure */
  return t;
}

/* PE 0: puts of `size` bytes streamed, a quiet after every WINDOW; prints bandwidth and rate. */
static void stream(char* remote, char* local, size_t size, long iters)
{
  const long n = iters * WINDOW;
  for (long i = 0; i < WINDOW; ++i)
    shmem_putmem_nbi(remote, local, size, 1);
  shmem_quiet();
  const double t0 = now();
  for (long i = 0; i < n; ++i) {
    shmem_putmem_nbi(remote, local, size, 1);
    if ((i + 1) % WINDOW == 0)
      shmem_quiet();
  }
  shmem_quiet();
  const double t = now() - t0;
  printf("put_bw %zu %.12g\n", size, (double)size * (double)n / t);
  printf("put_rate %zu %.12g\n", size, (double)n / t);
}

/* The number of puts streamed per size: WINDOW x this, at most ITERATIONS windows and at most
 * 4 MiB per size beyond one window (so that large sizes do not dominate the run). */
static long stream_windows(size_t size, long iters)
{
  const size_t budget = (size_t)4 << 20;
  long w = (long)(budget / ((size_t)WINDOW * size));
  if (w > iters)
    w = iters;
  return w > 0 ? w : 1;
}

int main(int argc, char** argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: shmem_microbench ITERATIONS MIN_SIZE MAX_SIZE\n");
    return 2;
  }
  const long iters = atol(argv[1]);
  const size_t min = (size_t)atoll(argv[2]), max = (size_t)atoll(argv[3]);
  if (iters < 1 || min < 1 || max < min) {
    fprintf(stderr, "shmem_microbench: bad arguments %s %s %s\n", argv[1], argv[2], argv[3]);
    return 2;
  }
  shmem_init();
  const int me = shmem_my_pe();
  if (shmem_n_pes() < 2) {
    if (me == 0)
      fprintf(stderr, "shmem_microbench: needs at least 2 PEs\n");
    shmem_global_exit(2);
  }
  char* remote = shmem_malloc(max);
  char* local  = malloc(max > sizeof(long) ? max : sizeof(long));
  if (!remote || !local) {
    fprintf(stderr, "shmem_microbench: cannot allocate %zu bytes\n", max);
    shmem_global_exit(2);
  }
  memset(local, 1, max > sizeof(long) ? max : sizeof(long));
  shmem_barrier_all();
  pingpong(iters);
  shmem_barrier_all();
  if (me == 0) {
    printf("fetch_add 8 %.12g\n", latency(OP_FETCH_ADD, remote, local, 8, iters));
    printf("add 8 %.12g\n", latency(OP_ADD, remote, local, 8, iters));
    for (size_t size = min; size <= max; size *= 2) {
      printf("put %zu %.12g\n", size, latency(OP_PUT, remote, local, size, iters));
      printf("put_quiet %zu %.12g\n", size, latency(OP_PUT_QUIET, remote, local, size, iters));
      printf("get %zu %.12g\n", size, latency(OP_GET, remote, local, size, iters));
      stream(remote, local, size, stream_windows(size, iters));
      if (size > max / 2)
        break;
    }
  }
  shmem_barrier_all();
  shmem_free(remote);
  free(local);
  shmem_finalize();
  return 0;
}
