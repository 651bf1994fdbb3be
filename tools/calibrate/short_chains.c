/* Calibration (platform.reorder_window): many short loops, each a dependency chain of its own
 * (a polynomial in Horner form, restarted for every row), as a core's reorder window overlaps them:
 * the fewer instructions one row takes, the more rows run at once. */
#include "kernel.h"

#define ROWS 4096
#define LENGTH 12

static double coef[ROWS * LENGTH], point[ROWS], value[ROWS];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int k = 0; k < ROWS * LENGTH; ++k)
    coef[k] = (double)(kernel_next() % 1000) / 1000.0;
  for (int r = 0; r < ROWS; ++r)
    point[r] = 0.5 + (double)(r % 13) / 32.0;
  const double t0 = kernel_now();
  for (long it = 0; it < 16 * scale; ++it) {
    for (int r = 0; r < ROWS; ++r) {
      const double x = point[r];
      const double* c = &coef[r * LENGTH];
      double p = 0;
      for (int k = 0; k < LENGTH; ++k)
        p = p * x + c[k];
      value[r] = p;
    }
    for (int r = 0; r < ROWS; ++r)
      point[r] = 0.5 + 0.25 * value[r] / (1.0 + value[r]);
  }
  const double t = kernel_now() - t0;
  kernel_report(t, value[0] + value[ROWS / 2]);
  return 0;
}
