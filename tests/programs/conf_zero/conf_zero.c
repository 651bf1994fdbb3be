/* Zero-length operations (OpenSHMEM 1.5): with nelems 0 the pointer arguments may be anything,
 * NULL included, and nothing is transferred — RMA (put, get, nbi, iput, iget, sized and mem forms,
 * ctx forms, the C11 generic names), put-with-signal (the data part is empty but the signal is
 * still delivered), team and active-set collectives (broadcast, collect, fcollect, alltoall(s),
 * reductions) and the multi-element waits and tests. Every PE runs every call; guards around
 * symmetric buffers check that nothing was written. */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>

#include "progtest.h"

static long guard[4] = {11, 22, 33, 44};
static uint64_t sig;
static long pSync[SHMEM_BCAST_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes;
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i)
    pSync[i] = SHMEM_SYNC_VALUE;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;
  long* nil        = NULL;
  const long* cnil = NULL;
  void* vnil       = NULL;
  shmem_barrier_all();

  /* RMA */
  shmem_putmem(NULL, NULL, 0, right);
  shmem_getmem(NULL, NULL, 0, right);
  shmem_putmem_nbi(NULL, NULL, 0, right);
  shmem_getmem_nbi(NULL, NULL, 0, right);
  shmem_ctx_putmem(ctx, NULL, NULL, 0, right);
  shmem_ctx_getmem_nbi(ctx, NULL, NULL, 0, right);
  shmem_long_put(nil, cnil, 0, right);
  shmem_long_get(nil, cnil, 0, right);
  shmem_ctx_long_put_nbi(ctx, nil, cnil, 0, right);
  shmem_ctx_long_get_nbi(ctx, nil, cnil, 0, right);
  shmem_long_iput(nil, cnil, 1, 1, 0, right);
  shmem_long_iget(nil, cnil, 1, 1, 0, right);
  shmem_ctx_long_iput(ctx, nil, cnil, 2, 3, 0, right);
  shmem_put8(vnil, vnil, 0, right);
  shmem_get16(vnil, vnil, 0, right);
  shmem_put32_nbi(vnil, vnil, 0, right);
  shmem_ctx_get64_nbi(ctx, vnil, vnil, 0, right);
  shmem_iput128(vnil, vnil, 1, 1, 0, right);
  shmem_iget32(vnil, vnil, 1, 1, 0, right);
  shmem_put(nil, cnil, 0, right); /* C11 generic names */
  shmem_get(ctx, nil, cnil, 0, right);
  shmem_iput(nil, cnil, 1, 1, 0, right);
  shmem_get_nbi(nil, cnil, 0, right);
  shmemx_ctx_putmem_nb(ctx, NULL, NULL, 0, right);
  shmemx_ctx_getmem_nb(ctx, NULL, NULL, 0, right);
  const long other[4] = {-1, -1, -1, -1};
  shmem_put(guard, other, 0, right); /* a real symmetric destination: still nothing written */
  shmem_iput(ctx, guard, other, 1, 1, 0, right);
  shmem_quiet();
  shmem_ctx_quiet(ctx);

  /* put-with-signal with no data still delivers its signal */
  shmem_putmem_signal(NULL, NULL, 0, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_long_put_signal_nbi(nil, cnil, 0, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_put_signal(ctx, nil, cnil, 0, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_ctx_put64_signal(ctx, vnil, vnil, 0, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_quiet();
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 4) == 4, "signals of empty puts");

  /* team collectives */
  shmem_team_t w = SHMEM_TEAM_WORLD;
  CHECK(shmem_broadcast(w, nil, cnil, 0, 0) == 0, "broadcast");
  CHECK(shmem_broadcastmem(w, NULL, NULL, 0, npes - 1) == 0, "broadcastmem");
  CHECK(shmem_collect(w, nil, cnil, 0) == 0, "collect");
  CHECK(shmem_fcollect(w, nil, cnil, 0) == 0, "fcollect");
  CHECK(shmem_collectmem(w, NULL, NULL, 0) == 0, "collectmem");
  CHECK(shmem_fcollectmem(w, NULL, NULL, 0) == 0, "fcollectmem");
  CHECK(shmem_alltoall(w, nil, cnil, 0) == 0, "alltoall");
  CHECK(shmem_alltoalls(w, nil, cnil, 1, 1, 0) == 0, "alltoalls");
  CHECK(shmem_alltoallmem(w, NULL, NULL, 0) == 0, "alltoallmem");
  CHECK(shmem_sum_reduce(w, nil, cnil, 0) == 0, "sum_reduce");
  CHECK(shmem_and_reduce(w, nil, cnil, 0) == 0, "and_reduce");
  CHECK(shmem_double_max_reduce(w, NULL, NULL, 0) == 0, "double_max_reduce");
  CHECK(shmem_broadcast(w, guard, other, 0, 0) == 0, "broadcast into guard");
  CHECK(shmem_fcollect(w, guard, other, 0) == 0, "fcollect into guard");

  /* deprecated active-set collectives */
  shmem_broadcast64(NULL, NULL, 0, 0, 0, 0, npes, pSync);
  shmem_barrier_all();
  shmem_fcollect32(NULL, NULL, 0, 0, 0, npes, pSync);
  shmem_barrier_all();
  shmem_collect64(NULL, NULL, 0, 0, 0, npes, pSync);
  shmem_barrier_all();
  shmem_alltoall64(NULL, NULL, 0, 0, 0, npes, pSync);
  shmem_barrier_all();
  shmem_long_sum_to_all(NULL, NULL, 0, 0, 0, npes, pWrk, pSync);
  shmem_barrier_all();

  /* multi-element waits and tests on empty sets */
  shmem_wait_until_all(nil, 0, NULL, SHMEM_CMP_EQ, 1);
  CHECK(shmem_wait_until_any(nil, 0, NULL, SHMEM_CMP_EQ, 1) == SIZE_MAX, "wait_until_any");
  CHECK(shmem_long_wait_until_some_vector(NULL, 0, NULL, NULL, SHMEM_CMP_EQ, NULL) == 0, "wait_until_some_vector");
  CHECK(shmem_test_all_vector(nil, 0, NULL, SHMEM_CMP_EQ, NULL) == 1, "test_all_vector");
  CHECK(shmem_test_some(nil, 0, NULL, NULL, SHMEM_CMP_EQ, 1) == 0, "test_some");

  shmem_barrier_all();
  CHECK(guard[0] == 11 && guard[1] == 22 && guard[2] == 33 && guard[3] == 44, "guard words untouched");
  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("conf_zero");
  shmem_finalize();
  return rc;
}
