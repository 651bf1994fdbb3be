/* Held out (never used to fit): RandomAccess (GUPS) read-modify-write updates of a 64 MiB table at
 * indices from a linear congruential generator: each update misses every cache level, and the
 * updates are independent (their misses overlap). */
#include "kernel.h"

#define TABLE (8 << 20) /* 8 Mi words: 64 MiB */

static unsigned long long table[TABLE];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (long i = 0; i < TABLE; ++i)
    table[i] = (unsigned long long)i;
  unsigned long long x = 12345;
  const double t0 = kernel_now();
  for (long u = 0; u < 200000 * scale; ++u) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    table[(x >> 33) & (TABLE - 1)] ^= x;
  }
  const double t = kernel_now() - t0;
  unsigned long long sum = 0;
  for (long i = 0; i < TABLE; i += 64)
    sum += table[i] & 0xffff;
  kernel_report(t, (double)sum);
  return 0;
}
