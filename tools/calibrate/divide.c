/* Divides and square roots: independent per element (no chain between iterations), so the loop is
 * bound by the divider's throughput, the platform.divide_time it calibrates. */
#include "kernel.h"

#include <math.h>

#define N 4096

static double x[N], y[N];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < N; ++i)
    x[i] = 1.0 + (double)(kernel_next() % 1000);
  const double t0 = kernel_now();
  for (long r = 0; r < 60 * scale; ++r)
    for (int i = 0; i < N; ++i)
      y[i] = sqrt(x[i]) / (x[i] + (double)r);
  const double t = kernel_now() - t0;
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += y[i];
  kernel_report(t, sum);
  return 0;
}
