/* An older code's includes: <mpp/shmem.h> and <mpp/shmemx.h>, with the deprecated routines such
 * codes call (start_pes, _my_pe, _num_pes, shmalloc, shfree) and one extension routine. */
#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <stdio.h>

static long counter;

int main(void)
{
  start_pes(0);
  const int me = _my_pe(), npes = _num_pes();
  long* slot = (long*)shmalloc(sizeof(long));
  *slot      = -1;
  shmem_barrier_all();
  shmem_long_p(slot, me, (me + 1) % npes);
  shmem_long_atomic_inc(&counter, 0);
  shmemx_sync_all();
  shmem_barrier_all();
  int bad = *slot != (me + npes - 1) % npes || (me == 0 && counter != npes);
  if (bad)
    printf("FAIL PE %d: slot %ld, counter %ld\n", me, *slot, counter);
  shfree(slot);
  if (me == 0 && !bad)
    printf("conv_mpp: OK on %d PEs\n", npes);
  return bad;
}
