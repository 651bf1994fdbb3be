/* Held out (never used to fit): sparse matrix-vector products, CSR storage, random columns. */
#include "kernel.h"

#define ROWS 8192
#define PER_ROW 12

static int row_start[ROWS + 1], col[ROWS * PER_ROW];
static double val[ROWS * PER_ROW], x[ROWS], y[ROWS];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int r = 0; r <= ROWS; ++r)
    row_start[r] = r * PER_ROW;
  for (int k = 0; k < ROWS * PER_ROW; ++k) {
    col[k] = (int)(kernel_next() % ROWS);
    val[k] = (double)(kernel_next() % 100) / 100.0;
  }
  for (int i = 0; i < ROWS; ++i)
    x[i] = 1.0 + (double)(i % 7);
  const double t0 = kernel_now();
  for (long it = 0; it < 8 * scale; ++it) {
    for (int r = 0; r < ROWS; ++r) {
      double sum = 0;
      for (int k = row_start[r]; k < row_start[r + 1]; ++k)
        sum += val[k] * x[col[k]];
      y[r] = sum;
    }
    for (int i = 0; i < ROWS; ++i)
      x[i] = 0.5 * x[i] + 1e-4 * y[i];
  }
  const double t = kernel_now() - t0;
  kernel_report(t, x[0] + x[ROWS / 2]);
  return 0;
}
