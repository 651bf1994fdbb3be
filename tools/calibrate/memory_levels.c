/* shmemsim calibrate's measurements of the memory hierarchy (native only: never counted, never
 * fitted). `memory_levels MODE BYTES REPEATS` prints "SECONDS CHECKSUM": the fastest of REPEATS
 * timed passes, per access, over a buffer of BYTES:
 *   chase   one load after another through a random cycle over every cache line of the buffer
 *           (each load's address is the last one's value): the latency of the level the buffer
 *           sits in;
 *   gather  independent loads of every line, in a random order given by an index array: the time
 *           a load that misses takes when the core overlaps misses (with chase's latency, the
 *           misses in flight);
 *   stream  a sum over the buffer's doubles in order, its four quarters at once (four streams, as
 *           STREAM's kernels have two or three: one stream alone is held back by how far ahead the
 *           prefetchers run), per line: the time a core takes to read a line from the level (from
 *           memory: line / bandwidth);
 *   write   one 8-byte store per line, the lines in order (a 64-byte step): the time a core takes
 *           per line to write lines held by the level (a store that misses the first level waits
 *           for its line's read for ownership; stores leave the store buffer in order). */
#include "kernel.h"

#include <stdint.h>
#include <string.h>

#define LINE 64

static uint64_t line_count;

/* A random order of the lines (Fisher-Yates on the kernels' generator). */
static uint32_t* random_order(void)
{
  uint32_t* order = malloc(line_count * sizeof *order);
  if (order == NULL) {
    fprintf(stderr, "memory_levels: out of memory\n");
    exit(2);
  }
  for (uint64_t i = 0; i < line_count; ++i)
    order[i] = (uint32_t)i;
  for (uint64_t i = line_count - 1; i > 0; --i) {
    const uint64_t j = kernel_next() % (i + 1);
    const uint32_t t = order[i];
    order[i]         = order[j];
    order[j]         = t;
  }
  return order;
}

int main(int argc, char** argv)
{
  if (argc != 4) {
    fprintf(stderr, "usage: memory_levels chase|gather|stream|write BYTES REPEATS\n");
    return 2;
  }
  const char* mode   = argv[1];
  const long bytes   = atol(argv[2]);
  const long repeats = atol(argv[3]);
  if (bytes < 4 * LINE || repeats < 1) {
    fprintf(stderr, "memory_levels: BYTES must be at least %d and REPEATS positive\n", 4 * LINE);
    return 2;
  }
  line_count = (uint64_t)bytes / LINE;
  char* buf  = aligned_alloc(4096, line_count * LINE);
  if (buf == NULL) {
    fprintf(stderr, "memory_levels: out of memory\n");
    return 2;
  }
  memset(buf, 1, line_count * LINE);
  const uint64_t accesses = 1000000; /* hops per pass of chase */
  double best = -1, check = 0;
  if (strcmp(mode, "chase") == 0) {
    uint32_t* order = random_order();
    for (uint64_t i = 0; i < line_count; ++i) /* one cycle through every line */
      *(uint64_t*)(buf + (uint64_t)order[i] * LINE) = (uint64_t)order[(i + 1) % line_count] * LINE;
    free(order);
    uint64_t p = 0;
    for (long r = 0; r < repeats; ++r) {
      const double t0 = kernel_now();
      for (uint64_t h = 0; h < accesses; ++h)
        p = *(volatile uint64_t*)(buf + p);
      const double t = (kernel_now() - t0) / (double)accesses;
      if (best < 0 || t < best)
        best = t;
    }
    check = (double)p;
  } else if (strcmp(mode, "gather") == 0) {
    uint32_t* order = random_order();
    uint64_t sum    = 0;
    for (long r = 0; r < repeats; ++r) {
      const double t0 = kernel_now();
      for (uint64_t i = 0; i < line_count; ++i)
        sum += *(const uint64_t*)(buf + (uint64_t)order[i] * LINE);
      const double t = (kernel_now() - t0) / (double)line_count;
      if (best < 0 || t < best)
        best = t;
    }
    free(order);
    check = (double)sum;
  } else if (strcmp(mode, "stream") == 0) {
    const double* d  = (const double*)buf;
    const uint64_t q = line_count / 4 * (LINE / sizeof(double)); /* doubles in a quarter */
    double sum       = 0;
    for (long r = 0; r < repeats; ++r) {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const double t0 = kernel_now();
      for (uint64_t i = 0; i < q; ++i) {
        s0 += d[i];
        s1 += d[q + i];
        s2 += d[2 * q + i];
        s3 += d[3 * q + i];
      }
      const double t = (kernel_now() - t0) / (double)line_count;
      sum += s0 + s1 + s2 + s3;
      if (best < 0 || t < best)
        best = t;
    }
    check = sum;
  } else if (strcmp(mode, "write") == 0) {
    for (long r = 0; r < repeats; ++r) {
      const double t0 = kernel_now();
      for (uint64_t i = 0; i < line_count; ++i)
        *(volatile uint64_t*)(buf + i * LINE) = i + (uint64_t)r;
      const double t = (kernel_now() - t0) / (double)line_count;
      if (best < 0 || t < best)
        best = t;
    }
    check = (double)*(const uint64_t*)(buf + LINE);
  } else {
    fprintf(stderr, "memory_levels: unknown mode '%s' (chase, gather, stream or write)\n", mode);
    return 2;
  }
  printf("%.6e %.6g\n", best, check);
  return 0;
}
