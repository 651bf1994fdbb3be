/* Held out (never used to fit): pairwise gravitational forces and a leapfrog step, with square
 * roots and divisions. */
#include "kernel.h"

#include <math.h>

#define BODIES 256

static double px[BODIES], py[BODIES], pz[BODIES], vx[BODIES], vy[BODIES], vz[BODIES];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < BODIES; ++i) {
    px[i] = (double)(kernel_next() % 1000);
    py[i] = (double)(kernel_next() % 1000);
    pz[i] = (double)(kernel_next() % 1000);
  }
  const double t0 = kernel_now();
  for (long s = 0; s < 6 * scale; ++s) {
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
      vx[i] += 0.01 * ax;
      vy[i] += 0.01 * ay;
      vz[i] += 0.01 * az;
    }
    for (int i = 0; i < BODIES; ++i) {
      px[i] += 0.01 * vx[i];
      py[i] += 0.01 * vy[i];
      pz[i] += 0.01 * vz[i];
    }
  }
  const double t = kernel_now() - t0;
  kernel_report(t, px[0] + py[1] + pz[2]);
  return 0;
}
