/* Integer recurrence: x = ((x << 1) ^ (x >> 3)) + i, three dependent integer ALU operations (shift,
 * xor, add) per iteration, so the loop runs at three integer latencies (the platform.latency.int it
 * calibrates). */
#include "kernel.h"

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  unsigned long x = (unsigned long)kernel_next();
  const double t0 = kernel_now();
  for (long i = 0; i < 1250000 * scale; ++i)
    x = ((x << 1) ^ (x >> 3)) + (unsigned long)i;
  kernel_report(kernel_now() - t0, (double)(x % 1000003));
  return 0;
}
