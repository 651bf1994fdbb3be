/* Not supported: cancellation. shmemsim-cc refuses it when linking. */
int main(void)
{
  int x = 0;
#pragma omp parallel
  {
#pragma omp cancel parallel if (x == 0)
    x = 1;
  }
  return 0;
}
