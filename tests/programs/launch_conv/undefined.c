/* References a symbol nothing defines: shmemsim-cc must refuse it even with -lsma -lpmi_simple. */
#include <shmem.h>

extern int launch_conv_missing(void);

int main(void)
{
  shmem_init();
  const int rc = launch_conv_missing();
  shmem_finalize();
  return rc;
}
