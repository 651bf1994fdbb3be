/* Floating-point recurrence: the Mandelbrot escape-time iteration (the contexts paper's kernel),
 * a dependency chain of multiplies and adds, over a small grid. */
#include "kernel.h"

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  const int n = 96, max_iter = 200;
  long total = 0;
  const double t0 = kernel_now();
  for (long r = 0; r < scale; ++r)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const double cr = -2.0 + 2.5 * x / n, ci = -1.25 + 2.5 * y / n;
        double zr = 0, zi = 0;
        int i = 0;
        while (i < max_iter && zr * zr + zi * zi < 4.0) {
          const double t = zr * zr - zi * zi + cr;
          zi = 2 * zr * zi + ci;
          zr = t;
          ++i;
        }
        total += i;
      }
  kernel_report(kernel_now() - t0, (double)total);
  return 0;
}
