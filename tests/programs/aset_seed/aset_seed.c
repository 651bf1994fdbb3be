/* Seed 003's explicit active sets, written with the seed's own names (-DSHMEMSIM_SEED_NAMES):
 * its strided example (PEs 0, 3, 6, ...: "equivalent to me % 3 == 0") and its custom-function
 * example (PE_index * PE_index + PE_start: PEs 2, 3, 6, 11 on 12 PEs; fewer members on fewer
 * PEs), plus a log-strided and a generic set, each used by barrier, broadcast, fcollect, collect
 * and reductions over the set, with checked results. PEs outside a set get NULL.
 * `aset_seed dup`: a generic set naming a PE twice is an error (one line, status 2). */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "progtest.h"

/* One pSync per collective of an exercise: a pSync may be used again only once every member has
 * finished the collective that used it (OpenSHMEM 1.0's rule for the active-set forms); the
 * exercises are separated by barriers. Reusing one pSync back to back is a race between real
 * processes (shmemsim-run --emulate), whatever simulated time happens to order. */
#define NSYNC 7
static long pSyncs[NSYNC][SHMEM_SYNC_SIZE];
static int pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static int isrc[4], idst[4];
static long bsrc[3], bdst[3];
static int all[64], call[256], mine[64];
static int me, npes;

static int my_custom_index_fn(int PE_index, int PE_start, int PE_size, void* const_params)
{
  (void)PE_size;
  (void)const_params;
  return PE_index * PE_index + PE_start; /* the seed's function */
}

/* Use the set: barrier, broadcast from index 1 (or 0), fcollect of PE numbers, collect of
 * index+1 elements each, sum and max of PE numbers. `member[i]` are the expected PEs. */
static void use(const char* what, shmem_aset* aset, const int* member, int size)
{
  int idx = -1;
  for (int i = 0; i < size; ++i)
    if (member[i] == me)
      idx = i;
  CHECK(shmem_in_aset(aset) == (idx >= 0), "%s: shmem_in_aset says %d, PE %d is%s a member", what, shmem_in_aset(aset), me,
        idx >= 0 ? "" : " not");
  if (idx < 0) {
    CHECK(aset == NULL, "%s: a PE outside the set got a non-NULL set", what);
    CHECK(shmem_aset_size(aset) == 0, "%s: size of NULL", what);
    return;
  }
  CHECK(shmem_aset_size(aset) == size, "%s: size %d, expected %d", what, shmem_aset_size(aset), size);
  /* Destinations are reset before the barrier: after it, other members may write them. */
  memset(all, 0xff, sizeof all);
  memset(call, 0xff, sizeof call);
  for (int i = 0; i < 3; ++i)
    bdst[i] = -1;
  shmem_barrier_aset(aset, pSyncs[0]);

  const int root = size > 1 ? 1 : 0;
  for (int i = 0; i < 3; ++i)
    bsrc[i] = 1000L * member[root] + i;
  shmem_broadcast64_aset(bdst, bsrc, 3, root, aset, pSyncs[1]);
  for (int i = 0; i < 3; ++i)
    CHECK(bdst[i] == (idx == root ? -1 : 1000L * member[root] + i), "%s: broadcast element %d is %ld", what, i, bdst[i]);

  isrc[0] = me;
  shmem_fcollect32_aset(all, isrc, 1, aset, pSyncs[2]);
  for (int i = 0; i < size; ++i)
    CHECK(all[i] == member[i], "%s: fcollect slot %d is %d, expected PE %d", what, i, all[i], member[i]);

  /* collect: member i contributes i+1 copies of its PE number */
  for (int k = 0; k <= idx; ++k)
    mine[k] = me;
  shmem_collect32_aset(call, mine, (size_t)(idx + 1), aset, pSyncs[3]);
  int pos = 0;
  for (int i = 0; i < size; ++i)
    for (int k = 0; k <= i; ++k, ++pos)
      CHECK(call[pos] == member[i], "%s: collect element %d is %d, expected %d", what, pos, call[pos], member[i]);

  int sum = 0, max = -1;
  for (int i = 0; i < size; ++i) {
    sum += member[i];
    max = member[i] > max ? member[i] : max;
  }
  isrc[0] = me;
  isrc[1] = 1;
  shmem_int_sum_to_all_aset(idst, isrc, 2, aset, pWrk, pSyncs[4]);
  CHECK(idst[0] == sum && idst[1] == size, "%s: sum %d and count %d, expected %d and %d", what, idst[0], idst[1], sum, size);
  shmem_int_max_to_all_aset(idst, isrc, 1, aset, pWrk, pSyncs[5]);
  CHECK(idst[0] == max, "%s: max %d, expected %d", what, idst[0], max);
  shmem_barrier_aset(aset, pSyncs[6]);
}

/* Sets that overlap must not use the same pSync at the same time (as in 1.0): every PE waits here
 * before the next set starts. */
static void next_set(void) { shmem_barrier_all(); }

int main(int argc, char** argv)
{
  shmem_init();
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  for (int k = 0; k < NSYNC; ++k)
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i)
      pSyncs[k][i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();

  if (argc > 1 && strcmp(argv[1], "dup") == 0) {
    int list[2] = {0, 0};
    shmem_create_generic_aset(list, 2);
    printf("not reached: a set naming PE 0 twice was created\n");
    return 0;
  }

  int member[64];
  /* The seed's strided example: PEs 0, 3, 6, ... (npes / 3 of them; at least one here). */
  const int ssize = npes / 3 > 0 ? npes / 3 : 1;
  shmem_aset* aset = shmem_create_strided_aset(0, 3, ssize);
  for (int i = 0; i < ssize; ++i)
    member[i] = 3 * i;
  if (npes >= 3)
    CHECK(shmem_in_aset(aset) == (me % 3 == 0 && me / 3 < ssize), "strided: not the seed's me %% 3 == 0 set");
  use("strided", aset, member, ssize);
  shmem_delete_aset(aset);
  next_set();

  /* The seed's custom example: PEs 2, 3, 6, 11 from PE_start 2 (as many as the job has). */
  const int cstart = npes > 2 ? 2 : 0;
  int csize        = 0;
  while (csize < 4 && csize * csize + cstart < npes)
    ++csize;
  aset = shmem_create_custom_aset(cstart, &my_custom_index_fn, csize, NULL);
  for (int i = 0; i < csize; ++i)
    member[i] = i * i + cstart;
  use("custom", aset, member, csize);
  shmem_delete_aset(aset);
  next_set();

  /* Log-strided: stride 2^1 from PE 0. */
  const int lsize = (npes + 1) / 2;
  aset = shmem_create_log_strided_aset(0, 1, lsize, 2);
  for (int i = 0; i < lsize; ++i)
    member[i] = 2 * i;
  use("log-strided", aset, member, lsize);
  shmem_delete_aset(aset);
  next_set();

  /* Generic: every PE, last first. */
  int list[64];
  for (int i = 0; i < npes; ++i)
    list[i] = member[i] = npes - 1 - i;
  aset = shmem_create_generic_aset(list, npes);
  use("generic", aset, member, npes);
  shmem_delete_aset(aset);

  const int rc = progtest_finish("aset_seed");
  shmem_finalize();
  return rc;
}
