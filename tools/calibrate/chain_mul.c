/* Floating-multiply recurrence: x = x * y, each multiply waiting for the previous one, so the loop
 * runs at the latency of one floating multiply (the platform.latency.fp_mul it calibrates). */
#include "kernel.h"

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  volatile double factor = 0.99999999; /* not a constant; x stays normal (about 0.95 at scale 4) */
  const double y = factor;
  double x = 1.0;
  const double t0 = kernel_now();
  for (long i = 0; i < 1250000 * scale; ++i)
    x = x * y;
  kernel_report(kernel_now() - t0, x);
  return 0;
}
