/* Simulated time of a broadcast (argument "bcast") or an allreduce (argument "reduce") over
 * SHMEM_TEAM_WORLD with the algorithms of job.collectives.broadcast / reduce, each call followed
 * by a team sync (so that dest is free again before the next call, as the specification asks):
 * PE 0 prints the mean time of a call + sync. Every PE checks every call's data:
 *   bcast:  NE longs from a root that changes every call (every PE in turn); the root's dest too;
 *   reduce: long sum, int max, unsigned short xor and long long prod of NE elements, against the values
 *           computed locally (integers: the same bits whatever the combining order). */
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "progtest.h"

#define ITER 32
#define NE 4

static long src[NE], dst[NE];
static int isrc[NE], idst[NE];
static unsigned short ssrc[NE], sdst[NE];
static long long qsrc[NE], qdst[NE];

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void bcast(int it, int me, int npes)
{
  (void)me;
  const int root = it % npes;
  for (int j = 0; j < NE; ++j)
    src[j] = 1000L * root + 10L * it + j;
  CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, NE, root) == 0, "broadcast %d", it);
  for (int j = 0; j < NE; ++j)
    CHECK(dst[j] == 1000L * root + 10L * it + j, "call %d root %d: dst[%d] = %ld", it, root, j, dst[j]);
}

static void reduce(int it, int me, int npes)
{
  for (int j = 0; j < NE; ++j) {
    src[j]  = (me + 1) * 1000003L + it * 7 + j - 500000L * (me % 3);
    isrc[j] = (me * 37 + it * 11 + j * 5) % 101 - 50;
    ssrc[j] = (unsigned short)((me * 977 + it * 131 + j) & 0x7fff);
    qsrc[j] = (me % 5 == 0) ? -3 : (me % 5 == 1 ? 2 : 1);
  }
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, NE) == 0, "sum %d", it);
  CHECK(shmem_int_max_reduce(SHMEM_TEAM_WORLD, idst, isrc, NE) == 0, "max %d", it);
  CHECK(shmem_ushort_xor_reduce(SHMEM_TEAM_WORLD, sdst, ssrc, NE) == 0, "xor %d", it);
  CHECK(shmem_longlong_prod_reduce(SHMEM_TEAM_WORLD, qdst, qsrc, NE) == 0, "prod %d", it);
  for (int j = 0; j < NE; ++j) {
    long sum = 0;
    int max = -1000;
    unsigned short x = 0;
    long long prod = 1;
    for (int p = 0; p < npes; ++p) {
      sum += (p + 1) * 1000003L + it * 7 + j - 500000L * (p % 3);
      const int v = (p * 37 + it * 11 + j * 5) % 101 - 50;
      max = v > max ? v : max;
      x ^= (unsigned short)((p * 977 + it * 131 + j) & 0x7fff);
      prod *= (p % 5 == 0) ? -3 : (p % 5 == 1 ? 2 : 1);
    }
    CHECK(dst[j] == sum, "call %d: sum[%d] = %ld, not %ld", it, j, dst[j], sum);
    CHECK(idst[j] == max, "call %d: max[%d] = %d, not %d", it, j, idst[j], max);
    CHECK(sdst[j] == x, "call %d: xor[%d] = %d, not %d", it, j, sdst[j], x);
    CHECK(qdst[j] == prod, "call %d: prod[%d] = %lld, not %lld", it, j, qdst[j], prod);
  }
}

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int is_bcast = argc > 1 && strcmp(argv[1], "bcast") == 0;
  void (*one)(int, int, int) = is_bcast ? bcast : reduce;
  for (int i = 0; i < 4; ++i) { /* warm-up */
    one(i, me, npes);
    shmem_team_sync(SHMEM_TEAM_WORLD);
  }
  const double start = now();
  for (int i = 0; i < ITER; ++i) {
    one(4 + i, me, npes);
    shmem_team_sync(SHMEM_TEAM_WORLD);
  }
  const double per = (now() - start) / ITER;
  if (me == 0) {
    printf("%s_time: p=%d %.3f us\n", is_bcast ? "bcast" : "reduce", npes, per * 1e6);
    CHECK(per > 0, "no simulated time");
  }
  return progtest_finish("coll_offload");
}
