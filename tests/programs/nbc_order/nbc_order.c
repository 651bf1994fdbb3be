/* Seed 003's non-blocking collectives on active sets (seed names, -DSHMEMSIM_SEED_NAMES).
 * `nbc_order`: the seed's ordering example called in the SAME order on every PE of the set (a
 * barrier on pSync, a broadcast on pSync1, waits), then fcollect, collect and reductions started
 * together and completed out of order (test_request polling and waits), rounds that reuse the
 * same pSync back to back, and a set of the odd PEs; checked values.
 * `nbc_order mismatch`: the seed's example as it is written -- PE 0 starts the barrier then the
 * broadcast, PE 1 the broadcast then the barrier: a clear one-line error, status 2.
 * `nbc_order busy`: a second collective on a pSync whose first is still outstanding: an error.
 * `nbc_order delete`: deleting a set with a collective outstanding: an error. */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "progtest.h"

static long pSyncB[SHMEM_SYNC_SIZE], pSync[SHMEM_SYNC_SIZE], pSync1[SHMEM_SYNC_SIZE], pSync2[SHMEM_SYNC_SIZE], pSync3[SHMEM_SYNC_SIZE];
static int x, y;
static int fsrc[2], fdst[128];
static int csrc[16], cdst[256];
static long rsrc[3], rdst[3], rwrk[3 * 64];
static double dsrc, ddst, dwrk[64];
static int me, npes;

static void init_sync(void)
{
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i)
    pSyncB[i] = pSync[i] = pSync1[i] = pSync2[i] = pSync3[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
}

static void mismatch(void)
{
  shmem_request_handle_t request1, request2;
  shmem_aset* aset = shmem_create_strided_aset(0, 1, 2);
  x = 42 + me;
  switch (me) { /* the seed's example */
    case 0:
      shmem_barrier_nb(aset, pSync, &request1);
      shmem_broadcast32_nb(&y, &x, 1, aset, pSync1, &request2);
      shmem_wait_request(request1);
      break;
    case 1:
      shmem_broadcast32_nb(&y, &x, 1, aset, pSync1, &request2);
      shmem_barrier_nb(aset, pSync, &request1);
      shmem_wait_request(request1);
      break;
    default: /* not in the set: wait for the end of the run */
      shmem_barrier_all();
      return;
  }
  printf("not reached: PE %d completed mismatched collectives\n", me);
}

/* The seed's example in the same order everywhere, on `aset` (members: member[i]). */
static void ordered(shmem_aset* aset, const int* member, int size, int round)
{
  if (aset == NULL)
    return;
  int idx = 0;
  while (member[idx] != me)
    ++idx;
  shmem_request_handle_t request1, request2;
  /* Destinations are reset, then a blocking barrier: after it, other members may write them. */
  x = 1000 * round + me;
  y = -1;
  memset(fdst, 0xff, sizeof fdst);
  memset(cdst, 0xff, sizeof cdst);
  shmem_barrier_aset(aset, pSyncB);
  shmem_barrier_nb(aset, pSync, &request1);
  shmem_broadcast32_nb(&y, &x, 1, aset, pSync1, &request2);
  shmem_wait_request(request1);
  shmem_wait_request(request2);
  CHECK(y == (idx == 0 ? -1 : 1000 * round + member[0]), "round %d: broadcast gave %d", round, y);

  /* fcollect, collect and two reductions in flight together; completed in reverse order. */
  shmem_request_handle_t r[4];
  fsrc[0] = me;
  fsrc[1] = round;
  for (int k = 0; k <= idx % 4; ++k)
    csrc[k] = 100 * me + k;
  rsrc[0] = me;
  rsrc[1] = 1;
  rsrc[2] = me * round;
  dsrc    = 0.5 * me;
  shmem_fcollect32_nb(fdst, fsrc, 2, aset, pSync, &r[0]);
  shmem_collect32_nb(cdst, csrc, (size_t)(idx % 4 + 1), aset, pSync1, &r[1]);
  shmem_long_sum_to_all_nb(rdst, rsrc, 3, aset, rwrk, pSync2, &r[2]);
  shmem_double_max_to_all_nb(&ddst, &dsrc, 1, aset, dwrk, pSync3, &r[3]);
  while (!shmem_test_request(r[3]))
    ;
  for (int i = 2; i >= 0; --i)
    shmem_wait_request(r[i]);
  long sum = 0, sumr = 0;
  double max = 0;
  int pos = 0;
  for (int i = 0; i < size; ++i) {
    CHECK(fdst[2 * i] == member[i] && fdst[2 * i + 1] == round, "fcollect slot %d: %d %d", i, fdst[2 * i], fdst[2 * i + 1]);
    for (int k = 0; k <= i % 4; ++k, ++pos)
      CHECK(cdst[pos] == 100 * member[i] + k, "collect element %d is %d", pos, cdst[pos]);
    sum += member[i];
    sumr += (long)member[i] * round;
    max = 0.5 * member[i] > max ? 0.5 * member[i] : max;
  }
  CHECK(rdst[0] == sum && rdst[1] == size && rdst[2] == sumr, "sum_to_all: %ld %ld %ld", rdst[0], rdst[1], rdst[2]);
  CHECK(ddst == max, "max_to_all: %f, expected %f", ddst, max);
}

int main(int argc, char** argv)
{
  shmem_init();
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  init_sync();
  if (argc > 1 && strcmp(argv[1], "mismatch") == 0) {
    mismatch();
    return 1;
  }
  if (argc > 1 && (strcmp(argv[1], "busy") == 0 || strcmp(argv[1], "delete") == 0)) {
    shmem_aset* all = shmem_create_strided_aset(0, 1, npes);
    shmem_request_handle_t r1, r2;
    shmem_barrier_nb(all, pSync, &r1);
    if (strcmp(argv[1], "busy") == 0)
      shmem_barrier_nb(all, pSync, &r2);
    else
      shmem_delete_aset(all);
    printf("not reached: PE %d\n", me);
    return 1;
  }
  int member[64];
  shmem_aset* world = shmem_create_strided_aset(0, 1, npes);
  for (int i = 0; i < npes; ++i)
    member[i] = i;
  for (int round = 1; round <= 4; ++round) /* the same pSyncs back to back */
    ordered(world, member, npes, round);

  /* The odd PEs (none on 1 PE): a set the even PEs are not in. */
  if (npes > 1) {
    const int odd = npes / 2;
    shmem_aset* odds = shmem_create_strided_aset(1, 2, odd);
    for (int i = 0; i < odd; ++i)
      member[i] = 1 + 2 * i;
    CHECK((odds != NULL) == (me % 2 == 1), "odd set: %p on PE %d", (void*)odds, me);
    for (int round = 1; round <= 2; ++round)
      ordered(odds, member, odd, round);
    shmem_delete_aset(odds);
  }
  shmem_delete_aset(world);
  const int rc = progtest_finish("nbc_order");
  shmem_finalize();
  return rc;
}
