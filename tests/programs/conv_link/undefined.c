/* References a function that no object and no library defines: shmemsim-cc must refuse it when
 * linking, naming the symbol, and leave no program behind. */
#include <shmem.h>
#include <stdio.h>

int shmemsim_conv_missing(int x); /* declared, never defined */

int main(void)
{
  shmem_init();
  printf("%d\n", shmemsim_conv_missing(shmem_my_pe()));
  shmem_finalize();
  return 0;
}
