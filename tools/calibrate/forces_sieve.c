/* Held out (never used to fit, issue 27's unseen kernel): pairwise forces with a square root and a
 * divide per pair, then a sieve of Eratosthenes over a 2 MiB char array (a memory-bound pass with
 * strided stores). */
#include "kernel.h"

#include <math.h>
#include <string.h>

#define BODIES 384
#define SIEVE (2 << 20) /* 2 MiB */

static double px[BODIES], py[BODIES], pz[BODIES], fx[BODIES], fy[BODIES], fz[BODIES];
static char composite[SIEVE];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < BODIES; ++i) {
    px[i] = (double)(kernel_next() % 1000);
    py[i] = (double)(kernel_next() % 1000);
    pz[i] = (double)(kernel_next() % 1000);
  }
  long primes = 0;
  double f = 0;
  const double t0 = kernel_now();
  for (long s = 0; s < scale; ++s) {
    for (int i = 0; i < BODIES; ++i) {
      double ax = 0, ay = 0, az = 0;
      for (int j = 0; j < BODIES; ++j) {
        const double dx = px[j] - px[i], dy = py[j] - py[i], dz = pz[j] - pz[i];
        const double r2 = dx * dx + dy * dy + dz * dz + 0.01;
        const double inv = 1.0 / (r2 * sqrt(r2));
        ax += dx * inv;
        ay += dy * inv;
        az += dz * inv;
      }
      fx[i] = ax;
      fy[i] = ay;
      fz[i] = az;
    }
    memset(composite, 0, sizeof composite);
    for (long p = 2; p * p < SIEVE; ++p)
      if (!composite[p])
        for (long m = p * p; m < SIEVE; m += p)
          composite[m] = 1;
    for (long p = 2; p < SIEVE; ++p)
      primes += !composite[p];
    f += fx[s % BODIES] + fy[1] + fz[2];
  }
  const double t = kernel_now() - t0;
  kernel_report(t, (double)primes + f);
  return 0;
}
