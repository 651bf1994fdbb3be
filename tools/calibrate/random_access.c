/* Random access (RandomAccess/GUPS style): read-modify-write updates of a table at indices given by
 * a linear congruential generator. */
#include "kernel.h"

#define TABLE (1 << 15) /* 256 KiB of 8-byte words */

static unsigned long long table[TABLE];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < TABLE; ++i)
    table[i] = (unsigned long long)i;
  unsigned long long x = 12345;
  const double t0 = kernel_now();
  for (long u = 0; u < 400000 * scale; ++u) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    table[(x >> 33) & (TABLE - 1)] ^= x;
  }
  const double t = kernel_now() - t0;
  unsigned long long sum = 0;
  for (int i = 0; i < TABLE; ++i)
    sum += table[i] & 0xffff;
  kernel_report(t, (double)sum);
  return 0;
}
