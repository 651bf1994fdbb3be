/* Counted compute charges basic blocks by their work (shmem_front/tools/plugin): a loop whose
 * iteration has more instructions takes longer, in proportion, a loop whose iterations form a
 * chain of dependent operations takes at least the sum of their latencies (platform.latency.*, per
 * operation class), and a loop that divides takes at least its divides' time.
 * Modes: "work" (instruction_time 1ns, the other costs 1ps: times are instruction counts in ns),
 * "floor" (a multiply-add recurrence), "classes" (one chain per class: a multiply-add, a pointer
 * chase, an integer recurrence, an integer multiply recurrence) or "divide" (one divide and one
 * square root per iteration), "window" (rows of floating adds: a short row's chain overlaps the next
 * rows' in the reorder window when it restarts at each row, not when it goes on from the last row's
 * sum), "memory" (the same scattered reads over an array that fits the first-level cache and one
 * far larger than the last level: the cache model charges the second one's misses). Prints each
 * loop's time per iteration. */
#include <math.h>
#include "progtest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One add per iteration. */
__attribute__((noinline)) static unsigned long light(long n)
{
  unsigned long a = 1;
  for (long i = 0; i < n; ++i) {
    a += (unsigned long)i;
    __asm__ volatile("" : "+r"(a));
  }
  return a;
}

/* Four dependent integer operations per iteration more than light's. */
__attribute__((noinline)) static unsigned long heavy(long n)
{
  unsigned long a = 1, b = 2, c = 3, d = 4;
  for (long i = 0; i < n; ++i) {
    a += (unsigned long)i;
    b ^= a;
    c += b >> 3;
    d -= c;
    __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
  }
  return a + b + c + d;
}

/* A floating-point recurrence: x = x * y + z, a multiply (5 cycles) then an add (3). */
__attribute__((noinline)) static double chain(long n, double y, double z)
{
  double x = 1.0;
  __asm__ volatile("" ::: "memory"); /* not a const function: the call stays between the clock reads */
  for (long i = 0; i < n; ++i)
    x = x * y + z;
  return x;
}

/* A pointer chase: one load per iteration. */
struct node {
  struct node* next;
};
static struct node ring[64];
__attribute__((noinline)) static struct node* chase(long n, struct node* p)
{
  for (long i = 0; i < n; ++i)
    p = p->next;
  return p;
}

/* An integer recurrence: x -> shift -> xor -> add, three ALU operations. */
__attribute__((noinline)) static unsigned long int_chain(long n, unsigned long x)
{
  __asm__ volatile("" ::: "memory"); /* as chain's */
  for (long i = 0; i < n; ++i)
    x = ((x << 1) ^ (x >> 3)) + (unsigned long)i;
  return x;
}

/* An integer multiply (no class of its own: Westmere's 3 cycles at the integer latency) then an add. */
__attribute__((noinline)) static unsigned long mul_chain(long n, unsigned long x, unsigned long k)
{
  __asm__ volatile("" ::: "memory"); /* as chain's */
  for (long i = 0; i < n; ++i)
    x = x * k + 1;
  return x;
}

static double in[256], out[256];

/* One divide and one square root per element, no chain between elements. */
__attribute__((noinline)) static double divide(long n)
{
  for (long i = 0; i < n; ++i)
    out[i & 255] = sqrt(in[i & 255]) / (in[(i + 1) & 255] + 1.0);
  return out[n & 255];
}

/* Sums of `rows` rows of `len` values each: every row from 0 (its chain restarts: short rows
 * overlap), or, `carried`, from the last row's sum (one chain through every row). */
__attribute__((noinline)) static double row_sums(long rows, long len, int carried)
{
  double total = 0, s = 0;
  __asm__ volatile("" ::: "memory"); /* as chain's */
  if (carried) {
    for (long r = 0; r < rows; ++r) {
      for (long k = 0; k < len; ++k)
        s = s + in[(r + k) & 255];
      out[r & 255] = s;
    }
    return s;
  }
  for (long r = 0; r < rows; ++r) {
    double row = 0;
    for (long k = 0; k < len; ++k)
      row = row + in[(r + k) & 255];
    out[r & 255] = row;
    total        = row;
  }
  return total;
}

/* Reads of a[] at scattered indices (no constant stride: independent misses), `n` of them over
 * the first `mask` + 1 elements. */
__attribute__((noinline)) static long scattered(const long* a, long mask, long n)
{
  long s = 0;
  for (long i = 0; i < n; ++i)
    s += a[(i * 4099) & mask];
  return s;
}

/* Time per read of scattered over `elements` (a power of two) elements of `a`, after one pass
 * that brings what fits into the caches. */
static double per_read(const long* a, long elements, double* sink)
{
  *sink += (double)scattered(a, elements - 1, elements);
  const double t0 = now_ns();
  *sink += (double)scattered(a, elements - 1, 1 << 20);
  return (now_ns() - t0) / (double)(1 << 20);
}

/* Time per added value of row_sums. */
static double per_add(long rows, long len, int carried, double* sink)
{
  const double t0 = now_ns();
  *sink += row_sums(rows, len, carried);
  return (now_ns() - t0) / (double)(rows * len);
}

static double per_iteration(int which, long n, double* sink)
{
  const double t0 = now_ns();
  if (which == 0)
    *sink += (double)light(n);
  else if (which == 1)
    *sink += (double)heavy(n);
  else if (which == 2)
    *sink += chain(n, 0.5, 0.25);
  else if (which == 3)
    *sink += divide(n);
  else if (which == 4)
    *sink += (double)(chase(n, &ring[0]) - ring);
  else if (which == 5)
    *sink += (double)int_chain(n, 7);
  else
    *sink += (double)mul_chain(n, 7, 3);
  return (now_ns() - t0) / (double)n;
}

int main(int argc, char** argv)
{
  shmem_init();
  const int floor_mode = argc > 1 && strcmp(argv[1], "floor") == 0;
  const int divide_mode = argc > 1 && strcmp(argv[1], "divide") == 0;
  const int classes_mode = argc > 1 && strcmp(argv[1], "classes") == 0;
  const int window_mode = argc > 1 && strcmp(argv[1], "window") == 0;
  const int memory_mode = argc > 1 && strcmp(argv[1], "memory") == 0;
  for (int i = 0; i < 256; ++i)
    in[i] = 1.0 + i;
  for (int i = 0; i < 64; ++i)
    ring[i].next = &ring[(i * 5 + 1) % 64];
  double sink = 0;
  if (shmem_my_pe() == 0) {
    if (memory_mode) {
      /* 2 Ki longs (16 KiB: the first level) and 8 Mi (64 MiB: beyond qdr-16's 12 MiB L3). */
      const long big = 8L << 20;
      long* a = malloc((size_t)big * sizeof *a);
      CHECK(a != NULL, "64 MiB");
      for (long i = 0; i < big; ++i)
        a[i] = i & 7;
      const double small_ns = per_read(a, 2048, &sink), large_ns = per_read(a, big, &sink);
      printf("memory: small %.3f, large %.3f ns/read\n", small_ns, large_ns);
      CHECK(large_ns > 2 * small_ns, "reads that miss every level cost more than twice reads that hit the first (%f vs %f)",
            large_ns, small_ns);
      free(a);
    } else if (window_mode) {
      /* Run with platform.latency.fp_add 100ns, the other costs 1ps, and the reorder window as the
       * test says: "long" is one row of 100000 adds, "short" 20000 rows of 4, "carried" the same
       * with the sum going on from row to row. */
      const double l = per_add(1, 100000, 0, &sink), s = per_add(20000, 4, 0, &sink);
      const double c = per_add(20000, 4, 1, &sink);
      printf("long %.2f, short %.2f, carried %.2f ns/add\n", l, s, c);
      CHECK(l >= 100 && l < 100.01, "a long row is one chain of adds, got %f", l);
      CHECK(c >= 100 && c < 100.02, "a row that goes on from the last one's sum does not overlap, got %f", c);
    } else if (classes_mode) {
      /* Run with platform.latency.int 1ns, load 10ns, fp_add 100ns, fp_mul 1000ns. */
      const double f = per_iteration(2, 10000, &sink), p = per_iteration(4, 10000, &sink);
      const double i = per_iteration(5, 10000, &sink), m = per_iteration(6, 10000, &sink);
      printf("multiply-add %.2f, pointer chase %.2f, integer %.2f, integer multiply %.2f ns/iteration\n", f, p, i, m);
      CHECK(f >= 1100 && f < 1100.1, "a multiply and an add: 1000 + 100 ns, got %f", f);
      CHECK(p >= 10 && p < 10.01, "one load: 10 ns, got %f", p);
      CHECK(i >= 3 && i < 3.01, "three integer operations: 3 ns, got %f", i);
      CHECK(m >= 4 && m < 4.01, "a multiply (3 reference cycles) and an add: 4 ns, got %f", m);
    } else if (divide_mode) {
      const double d = per_iteration(3, 100000, &sink);
      printf("divide %.2f ns/iteration\n", d);
      CHECK(d >= 2 && d < 2.01, "a divide and a square root: 2 divider operations, got %f", d);
    } else if (!floor_mode) {
      const double l1 = per_iteration(0, 100000, &sink), l2 = per_iteration(0, 200000, &sink);
      const double h1 = per_iteration(1, 100000, &sink), h2 = per_iteration(1, 200000, &sink);
      printf("light %.2f ns/iteration, heavy %.2f ns/iteration\n", l2, h2);
      /* Per-iteration costs are whole instruction counts; doubling the iterations doubles the time
       * (up to the calls' own blocks, below one instruction per iteration here). */
      CHECK(l1 - l2 < 0.001 && l1 >= l2 && h1 - h2 < 0.001 && h1 >= h2, "light %f %f heavy %f %f", l1, l2, h1, h2);
      CHECK(h2 >= l2 + 4, "heavy's four more operations per iteration cost at least 4 instructions more (%f vs %f)", h2, l2);
    } else {
      const double c = per_iteration(2, 100000, &sink);
      printf("chain %.2f ns/iteration\n", c);
      CHECK(c >= 2.4 && c < 2.41, "the recurrence's floor at qdr-16's latencies: multiply 1.5 ns + add 0.9 ns, got %f", c);
    }
  }
  if (sink == 12345.678)
    printf("unlikely\n");
  return progtest_finish("compute_weight");
}
