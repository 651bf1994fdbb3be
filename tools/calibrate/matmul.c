/* Dense matrix product C += A * B (double, i-k-j loop order, as a programmer writes it). */
#include "kernel.h"

#define N 96

static double A[N][N], B[N][N], C[N][N];

int main(int argc, char** argv)
{
  const long scale = kernel_scale(argc, argv);
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      A[i][j] = (double)(kernel_next() % 100) / 100.0;
      B[i][j] = (double)(kernel_next() % 100) / 100.0;
    }
  const double t0 = kernel_now();
  for (long r = 0; r < 4 * scale; ++r)
    for (int i = 0; i < N; ++i)
      for (int k = 0; k < N; ++k) {
        const double aik = A[i][k];
        for (int j = 0; j < N; ++j)
          C[i][j] += aik * B[k][j];
      }
  const double t = kernel_now() - t0;
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += C[i][i];
  kernel_report(t, sum);
  return 0;
}
