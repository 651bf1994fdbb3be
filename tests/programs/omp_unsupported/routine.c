/* Not supported: device memory routines. shmemsim-cc refuses the program when linking. */
#include <omp.h>
int main(void)
{
  void* p = omp_target_alloc(64, omp_get_default_device());
  return p == 0;
}
