/* Held out (never used to fit; written before the store-miss measurement existed): a transpose of
 * a 512 x 512 matrix of doubles (2 MiB) into another, read along rows, written down columns (a
 * store every 4 KiB: a new line per store, beyond the stride prefetchers' reach), then a check sum
 * over the result read along its rows. */
#include "kernel.h"

#define N 512

static double in[N][N], out[N][N];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      in[i][j] = (double)(kernel_next() % 1000);
  double sum    = 0;
  const double t0 = kernel_now();
  for (long s = 0; s < scale; ++s) {
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j)
        out[j][i] = in[i][j] + (double)s;
    for (int i = 0; i < N; i += 7)
      sum += out[i][(i * 3) % N];
  }
  const double t = kernel_now() - t0;
  kernel_report(t, sum);
  return 0;
}
