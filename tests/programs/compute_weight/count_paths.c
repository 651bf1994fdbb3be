/* Counted compute, inline: shmemsim-cc makes every basic block count its work inline (the plugin's
 * default), and the library is called only when a time slice ends, at a loop header the library has
 * not armed, and where a loop with a chain is entered. SHMEMSIM_CC_COUNT=calls makes every block call
 * the library instead: check_inline_count.cmake builds this program both ways and requires the same
 * output, summary and trace byte for byte. So this program runs code of many shapes (loops of one
 * and several blocks, nested, with calls inside and without, leaving early, chains that restart at
 * each execution or go on, short and long, divides, recursion, a switch, a setjmp, threads) while
 * slices end (a short quantum) and the PEs exchange values: a busy wait polls a flag another PE
 * sets, so that it sees the flag at the iteration the slices decide. Prints simulated dates. */
#include <pthread.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "progtest.h"

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double in[512];
static long flag; /* symmetric: set by the previous PE */

/* Short rows (chains restart per row: overlap in the reorder window), long rows, carried sums. */
__attribute__((noinline)) static double rows(int nrows, int len, int carried)
{
  double total = 0, s = 0;
  for (int r = 0; r < nrows; ++r) {
    double row = carried ? s : 0;
    for (int k = 0; k < len; ++k)
      row = row * 0.5 + in[(r * 7 + k) & 511];
    if (carried)
      s = row;
    total += row;
  }
  return total;
}

/* A loop of several blocks per iteration, leaving early. */
__attribute__((noinline)) static unsigned long collatz(unsigned long n, unsigned long limit)
{
  unsigned long steps = 0;
  while (n != 1) {
    if (n & 1)
      n = 3 * n + 1;
    else
      n >>= 1;
    if (++steps == limit)
      break;
  }
  return steps;
}

__attribute__((noinline)) static unsigned long leaf(unsigned long x) { return x * 2654435761u >> 7; }

/* A loop that calls a function in each iteration (no register counter there), and a switch. */
__attribute__((noinline)) static unsigned long calling(int n)
{
  unsigned long a = 0;
  for (int i = 0; i < n; ++i) {
    switch (i % 5) {
      case 0: a += leaf((unsigned long)i); break;
      case 1: a ^= (unsigned long)i << 3; break;
      case 2: a = a / 3 + (unsigned long)i; break;
      case 3: a -= leaf(a); break;
      default: a += 17; break;
    }
  }
  return a;
}

__attribute__((noinline)) static int recurse(int depth, int n)
{
  if (depth == 0)
    return n % 7;
  int s = 0;
  for (int i = 0; i < 3; ++i)
    s += recurse(depth - 1, n + i);
  return s;
}

/* Divides and square roots without a chain between iterations. */
__attribute__((noinline)) static double divides(int n)
{
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i & 511] / (in[(i + 3) & 511] + 1.0);
  return s;
}

static jmp_buf jump;
__attribute__((noinline)) static void jump_back(int i)
{
  if (i == 3)
    longjmp(jump, 1);
}

/* A function that calls setjmp (counted by calls: its blocks are never split). */
__attribute__((noinline)) static int with_setjmp(int n)
{
  volatile int i = 0;
  if (setjmp(jump) != 0)
    return i;
  for (i = 0; i < n; ++i)
    jump_back(i);
  return -1;
}

struct work {
  int id;
  double result;
};

static void* thread_main(void* arg)
{
  struct work* w = arg;
  w->result      = rows(200 + 50 * w->id, 6, w->id & 1) + (double)collatz(27 + (unsigned long)w->id, 1000);
  return NULL;
}

static double phase(const char* name, double t0, int me)
{
  const double t = now_ns();
  printf("PE %d %s at %.3f ns (+%.3f)\n", me, name, t, t - t0);
  return t;
}

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int scale = argc > 1 ? atoi(argv[1]) : 1;
  for (int i = 0; i < 512; ++i)
    in[i] = 1.0 + (double)((i * 37 + me) % 101) / 7.0;
  double t = now_ns();
  double sink = 0;
  sink += rows(3000 * scale, 4, 0);
  t = phase("short rows", t, me);
  sink += rows(20 * scale, 400, 0) + rows(500 * scale, 5, 1);
  t = phase("long and carried rows", t, me);
  sink += (double)collatz(97 + (unsigned long)me, 100000) + (double)calling(5000 * scale);
  t = phase("branches and calls", t, me);
  sink += recurse(6, me) + divides(4000 * scale) + with_setjmp(10);
  t = phase("recursion, divides, setjmp", t, me);

  /* Threads share the PE's core with the main thread: their slices interleave. */
  pthread_t th[2];
  struct work w[2] = {{me, 0}, {me + 1, 0}};
  for (int i = 0; i < 2; ++i)
    pthread_create(&th[i], NULL, thread_main, &w[i]);
  sink += rows(1000 * scale, 8, 0);
  for (int i = 0; i < 2; ++i) {
    pthread_join(th[i], NULL);
    sink += w[i].result;
  }
  t = phase("threads", t, me);

  /* A busy wait: PE 0 computes, then sets the next PE's flag, which passes it on; each counts its
   * polls, which the slices decide. */
  shmem_barrier_all();
  unsigned long polls = 0;
  if (me == 0)
    sink += rows(2000 * scale, 4, 0);
  else
    while (*(volatile long*)&flag == 0)
      ++polls;
  if (npes > 1)
    shmem_long_p(&flag, 1, (me + 1) % npes);
  if (me == 0 && npes > 1)
    while (*(volatile long*)&flag == 0)
      ++polls;
  t = phase("busy wait", t, me);
  printf("PE %d polls %lu\n", me, polls);
  CHECK(sink != 0.0, "the work is used");
  return progtest_finish("count_paths");
}
