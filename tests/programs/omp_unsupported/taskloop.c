/* Not supported: taskloop. shmemsim-cc refuses it when linking. */
int main(void)
{
  int x[100];
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
  for (int i = 0; i < 100; i++)
    x[i] = i;
  return x[5] - 5;
}
