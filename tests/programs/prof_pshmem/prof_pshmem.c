/* The profiling interface (OpenSHMEM 1.5 §11): the program wraps shmem_putmem with its own
 * definition that counts and calls pshmem_putmem (its own calls reach its own definition: PEs are
 * loaded RTLD_DEEPBIND), and calls name-shifted routines directly: pshmem_putmem,
 * pshmem_int_atomic_fetch_add, pshmem_barrier_all, pshmem_ctx_long_put_signal, p_my_pe. */
#include <shmem.h>

#include "progtest.h"

static int wrapped_calls;
static size_t wrapped_bytes;

/* The profiler's shmem_putmem. */
void shmem_putmem(void* dest, const void* source, size_t nelems, int pe)
{
  ++wrapped_calls;
  wrapped_bytes += nelems;
  pshmem_putmem(dest, source, nelems, pe);
}

static char buf[64];
static int total;
static uint64_t sig;
static long lbuf[4];

int main(void)
{
  shmem_init();
  shmem_pcontrol(1);
  shmem_pcontrol(2, "extra", 3);
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  CHECK(p_my_pe() == me && pshmem_n_pes() == npes, "p_my_pe / pshmem_n_pes");
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  char msg[16];
  for (int i = 0; i < 16; ++i)
    msg[i] = (char)('a' + (me + i) % 26);
  shmem_putmem(buf, msg, 16, right);            /* wrapped */
  pshmem_putmem(buf + 16, msg, 16, right);      /* not counted */
  (void)pshmem_int_atomic_fetch_add(&total, me + 1, 0);
  pshmem_barrier_all();
  CHECK(wrapped_calls == 1 && wrapped_bytes == 16, "wrapper saw %d calls, %zu bytes", wrapped_calls, wrapped_bytes);
  for (int i = 0; i < 16; ++i) {
    CHECK(buf[i] == (char)('a' + (left + i) % 26), "buf[%d]", i);
    CHECK(buf[16 + i] == (char)('a' + (left + i) % 26), "buf[16+%d]", i);
  }
  if (me == 0)
    CHECK(total == npes * (npes + 1) / 2, "total %d", total);
  long v[4] = {me, me + 1, me + 2, me + 3};
  pshmem_ctx_long_put_signal(SHMEM_CTX_DEFAULT, lbuf, v, 4, &sig, 1, SHMEM_SIGNAL_SET, right);
  CHECK(pshmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 1) == 1, "pshmem_signal_wait_until");
  for (int i = 0; i < 4; ++i)
    CHECK(lbuf[i] == left + i, "lbuf[%d] = %ld", i, lbuf[i]);
  shmem_putmem(buf, msg, 0, me);
  CHECK(wrapped_calls == 2, "wrapper calls %d", wrapped_calls);
  const int rc = progtest_finish("prof_pshmem");
  pshmem_finalize();
  return rc;
}
