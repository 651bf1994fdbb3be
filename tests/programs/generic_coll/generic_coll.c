/* The C11 type-generic collectives of OpenSHMEM 1.5 (team first, selected on dest's type):
 * broadcast, collect, fcollect, alltoall, alltoalls and the reductions, each checked. */
#include <complex.h>
#include <shmem.h>
#include <stdio.h>

#define CHECK(cond, ...)                         \
  do {                                           \
    if (!(cond)) {                               \
      printf("PE %d: FAILED: ", me);             \
      printf(__VA_ARGS__);                       \
      printf("\n");                              \
      ok = 0;                                    \
    }                                            \
  } while (0)

static int ibuf[64], isrc[64];
static double dbuf[64], dsrc[64];
static long lbuf[64], lsrc[64];
static unsigned ubuf[4], usrc[4];
static char cbuf[4], csrc[4];
static double _Complex zbuf[2], zsrc[2];

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  int ok = 1;
  shmem_team_t w = SHMEM_TEAM_WORLD;

  isrc[0] = 100 + me;
  dsrc[0] = 0.5 * me;
  shmem_broadcast(w, ibuf, isrc, 1, n - 1);
  CHECK(ibuf[0] == 100 + n - 1, "broadcast int %d", ibuf[0]);
  shmem_broadcast(w, dbuf, dsrc, 1, 0);
  CHECK(dbuf[0] == 0.0, "broadcast double %g", dbuf[0]);

  lsrc[0] = me;
  shmem_fcollect(w, lbuf, lsrc, 1);
  for (int i = 0; i < n; i++)
    CHECK(lbuf[i] == i, "fcollect[%d] %ld", i, lbuf[i]);
  shmem_collect(w, ibuf, isrc, 1);
  for (int i = 0; i < n; i++)
    CHECK(ibuf[i] == 100 + i, "collect[%d] %d", i, ibuf[i]);

  for (int i = 0; i < n; i++)
    lsrc[i] = me * 1000 + i;
  shmem_alltoall(w, lbuf, lsrc, 1);
  for (int i = 0; i < n; i++)
    CHECK(lbuf[i] == i * 1000 + me, "alltoall[%d] %ld", i, lbuf[i]);
  for (int i = 0; i < 2 * n; i++)
    isrc[i] = me * 1000 + i;
  shmem_alltoalls(w, ibuf, isrc, 2, 2, 1);
  for (int i = 0; i < n; i++)
    CHECK(ibuf[2 * i] == i * 1000 + 2 * me, "alltoalls[%d] %d", i, ibuf[2 * i]);

  isrc[0] = me + 1;
  shmem_sum_reduce(w, ibuf, isrc, 1);
  CHECK(ibuf[0] == n * (n + 1) / 2, "sum int %d", ibuf[0]);
  dsrc[0] = 1.5;
  shmem_prod_reduce(w, dbuf, dsrc, 1);
  double p = 1;
  for (int i = 0; i < n; i++)
    p *= 1.5;
  CHECK(dbuf[0] == p, "prod double %g", dbuf[0]);
  usrc[0] = 1u << me % 32;
  shmem_or_reduce(w, ubuf, usrc, 1);
  unsigned bits = 0;
  for (int i = 0; i < n; i++)
    bits |= 1u << i % 32;
  CHECK(ubuf[0] == bits, "or unsigned %x", ubuf[0]);
  csrc[0] = (char)('a' + me % 26);
  shmem_max_reduce(w, cbuf, csrc, 1);
  CHECK(cbuf[0] == (char)('a' + (n - 1 < 26 ? n - 1 : 25)), "max char %c", cbuf[0]);
  zsrc[0] = me + 1.0 * I;
  shmem_sum_reduce(w, zbuf, zsrc, 1);
  CHECK(creal(zbuf[0]) == n * (n - 1) / 2.0 && cimag(zbuf[0]) == n, "sum complex %g%+gi", creal(zbuf[0]), cimag(zbuf[0]));

  shmem_barrier_all();
  if (me == 0 && ok)
    printf("generic_coll: OK on %d PEs\n", n);
  shmem_finalize();
  return ok ? 0 : 1;
}
