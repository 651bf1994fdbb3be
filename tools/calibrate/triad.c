/* Held out (never used to fit): a STREAM-style triad a = b + s c over three arrays of 32 MiB each,
 * far larger than the last-level cache of most cores: bound by memory bandwidth. */
#include "kernel.h"

#define ELEMS (4 << 20) /* 4 Mi doubles: 32 MiB per array */

static double a[ELEMS], b[ELEMS], c[ELEMS];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (long i = 0; i < ELEMS; ++i) {
    a[i] = 0;
    b[i] = (double)(i & 1023);
    c[i] = (double)(i & 511);
  }
  const double t0 = kernel_now();
  for (long s = 0; s < scale; ++s) {
    const double q = 0.5 + (double)s;
    for (long i = 0; i < ELEMS; ++i)
      a[i] = b[i] + q * c[i];
  }
  const double t = kernel_now() - t0;
  double sum = 0;
  for (long i = 0; i < ELEMS; i += 4093)
    sum += a[i];
  kernel_report(t, sum);
  return 0;
}
