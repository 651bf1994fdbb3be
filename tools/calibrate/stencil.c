/* Stencil: Jacobi sweeps of a 5-point stencil over a 2-D grid (double), swapping two arrays. */
#include "kernel.h"

#define N 128

static double a[N][N], b[N][N];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      a[i][j] = b[i][j] = (double)(kernel_next() % 1000) / 1000.0;
  const double t0 = kernel_now();
  for (long s = 0; s < 40 * scale; ++s) {
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        b[i][j] = 0.2 * (a[i][j] + a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j)
        a[i][j] = 0.2 * (b[i][j] + b[i - 1][j] + b[i + 1][j] + b[i][j - 1] + b[i][j + 1]);
  }
  const double t = kernel_now() - t0;
  double sum = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      sum += a[i][j];
  kernel_report(t, sum);
  return 0;
}
