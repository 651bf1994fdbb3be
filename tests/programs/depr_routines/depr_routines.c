/* The deprecated routines OpenSHMEM 1.5 still lists: start_pes, _my_pe, _num_pes, shmalloc,
 * shrealloc, shmemalign, shfree, and the cache routines (no-ops). */
#include <shmem.h>
#include <stdint.h>

#include "progtest.h"

int main(void)
{
  start_pes(0);
  const int me = _my_pe(), npes = _num_pes();
  CHECK(me == shmem_my_pe() && npes == shmem_n_pes(), "_my_pe %d/%d, _num_pes %d/%d", me, shmem_my_pe(), npes,
        shmem_n_pes());
  shmem_set_cache_inv();
  shmem_clear_cache_inv();
  long* a = (long*)shmalloc(16 * sizeof(long));
  CHECK(a != NULL, "shmalloc");
  shmem_set_cache_line_inv(a);
  shmem_clear_cache_line_inv(a);
  for (int i = 0; i < 16; ++i)
    a[i] = -1;
  shmem_barrier_all();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  long v[16];
  for (int i = 0; i < 16; ++i)
    v[i] = me * 100 + i;
  shmem_long_put(a, v, 16, right);
  shmem_barrier_all();
  shmem_udcflush();
  shmem_udcflush_line(a);
  for (int i = 0; i < 16; ++i)
    CHECK(a[i] == left * 100 + i, "shmalloc'ed a[%d] = %ld", i, a[i]);
  /* shrealloc keeps the contents and stays symmetric. */
  a = (long*)shrealloc(a, 64 * sizeof(long));
  CHECK(a != NULL, "shrealloc");
  for (int i = 0; i < 16; ++i)
    CHECK(a[i] == left * 100 + i, "shrealloc'ed a[%d] = %ld", i, a[i]);
  shmem_long_p(&a[63], me, right);
  double* d = (double*)shmemalign(256, 8 * sizeof(double));
  CHECK(d != NULL && ((uintptr_t)d % 256) == 0, "shmemalign %p", (void*)d);
  shmem_double_p(&d[7], 0.5 * me, right);
  shmem_barrier_all();
  CHECK(a[63] == left, "a[63] = %ld", a[63]);
  CHECK(d[7] == 0.5 * left, "d[7] = %g", d[7]);
  shfree(d);
  shfree(a);
  const int rc = progtest_finish("depr_routines");
  shmem_finalize();
  return rc;
}
