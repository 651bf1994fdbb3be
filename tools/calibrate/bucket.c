/* Integer sort bucketing (the integer-sort benchmark's local phase): count keys per bucket, prefix
 * sums, scatter the keys into their buckets. */
#include "kernel.h"

#define KEYS 65536
#define BUCKETS 1024
#define KEY_BITS 20

static unsigned keys[KEYS], sorted[KEYS];
static unsigned count[BUCKETS], start[BUCKETS];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < KEYS; ++i)
    keys[i] = (unsigned)(kernel_next() & ((1u << KEY_BITS) - 1));
  unsigned long check = 0;
  const double t0 = kernel_now();
  for (long r = 0; r < 6 * scale; ++r) {
    for (int b = 0; b < BUCKETS; ++b)
      count[b] = 0;
    for (int i = 0; i < KEYS; ++i)
      ++count[keys[i] >> (KEY_BITS - 10)];
    unsigned s = 0;
    for (int b = 0; b < BUCKETS; ++b) {
      start[b] = s;
      s += count[b];
    }
    for (int i = 0; i < KEYS; ++i)
      sorted[start[keys[i] >> (KEY_BITS - 10)]++] = keys[i];
    check += sorted[(r * 7919) % KEYS];
  }
  kernel_report(kernel_now() - t0, (double)check);
  return 0;
}
