/* Floating-add recurrence: x = x + y, each add waiting for the previous one, so the loop runs at
 * the latency of one floating add (the platform.latency.fp_add it calibrates). */
#include "kernel.h"

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  volatile double step = 1e-9; /* not a constant: the adds stay adds */
  const double y = step;
  double x = 1.0;
  const double t0 = kernel_now();
  for (long i = 0; i < 1250000 * scale; ++i)
    x = x + y;
  kernel_report(kernel_now() - t0, x);
  return 0;
}
