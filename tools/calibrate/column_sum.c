/* Held out (never used to fit): column sums of a 4096 x 1024 row-major matrix of doubles (32 MiB):
 * each access is 8 KiB from the last, a new cache line every time, so every line is fetched once
 * per column it holds unless the cache keeps the 4096 lines of one column sweep. */
#include "kernel.h"

#define ROWS 4096
#define COLS 1024

static double m[ROWS][COLS];
static double colsum[COLS];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (long i = 0; i < ROWS; ++i)
    for (long j = 0; j < COLS; ++j)
      m[i][j] = (double)((i * 7 + j) & 255);
  const double t0 = kernel_now();
  for (long s = 0; s < scale; ++s)
    for (long j = 0; j < COLS; j += 4) {
      double sum = 0;
      for (long i = 0; i < ROWS; ++i)
        sum += m[i][j];
      colsum[j] += sum;
    }
  const double t = kernel_now() - t0;
  double total = 0;
  for (long j = 0; j < COLS; ++j)
    total += colsum[j];
  kernel_report(t, total);
  return 0;
}
