/* Collectives of OpenSHMEM 1.5 on SHMEM_TEAM_WORLD and on strided teams (every other PE, the
 * world in reverse order, every third PE): team sync, broadcast (typed and _mem), collect and
 * fcollect, alltoall and alltoalls, reductions (and/or/xor/max/min/sum/prod over integer, real and
 * complex types); then the deprecated active-set forms (shmem_barrier, shmem_sync, broadcast32/64,
 * collect32/64, fcollect32/64, alltoall32/64, alltoalls32/64, _to_all) on all PEs and on the even
 * PEs, and that every pSync is restored. Every value is exact (small integers), so the results are the same whatever the algorithms
 * of job.collectives.* and the order of delivery. */
#include <complex.h>
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

#define MAXP 32
#define NE 5 /* elements per block */

static int me, npes;

/* Symmetric buffers. */
static long src_l[MAXP * NE], dst_l[MAXP * NE];
static int src_i[MAXP * NE], dst_i[MAXP * NE];
static double src_d[MAXP * NE], dst_d[MAXP * NE];
static char bytes_src[MAXP * 16], bytes_dst[MAXP * 16];
static long pSync[4][SHMEM_SYNC_SIZE];
static long pWrkL[NE + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double pWrkD[NE + SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double _Complex pWrkZ[NE + SHMEM_REDUCE_MIN_WRKDATA_SIZE];

/* Reduction buffers per type. */
#define RBUF(TYPE, TYPENAME) static TYPE r_src_##TYPENAME[NE], r_dst_##TYPENAME[NE];
RBUF(int, int)
RBUF(long, long)
RBUF(unsigned int, uint)
RBUF(uint64_t, uint64)
RBUF(int8_t, int8)
RBUF(size_t, size)
RBUF(short, short)
RBUF(char, char)
RBUF(float, float)
RBUF(double, double)
RBUF(long double, longdouble)
RBUF(double _Complex, complexd)
RBUF(float _Complex, complexf)
RBUF(long long, longlong)

/* ------------------------------------------------------------------ team collectives */

static void team_suite(shmem_team_t t, const char* tname)
{
  const int n = shmem_team_n_pes(t), r = shmem_team_my_pe(t);
  CHECK(n >= 1 && r >= 0 && r < n, "%s: team_my_pe %d of %d", tname, r, n);

  /* sync */
  CHECK(shmem_team_sync(t) == 0, "%s: team_sync", tname);

  /* broadcast from every root: typed, then _mem */
  for (int root = 0; root < n; root += (n > 4 ? 3 : 1)) {
    for (int j = 0; j < NE; ++j) {
      src_l[j] = r == root ? 1000 * root + j : -1;
      dst_l[j] = -7;
    }
    shmem_team_sync(t);
    CHECK(shmem_long_broadcast(t, dst_l, src_l, NE, root) == 0, "%s: long_broadcast", tname);
    for (int j = 0; j < NE; ++j)
      CHECK(dst_l[j] == 1000 * root + j, "%s: broadcast root %d: dst[%d] = %ld", tname, root, j, dst_l[j]);
    shmem_team_sync(t);
    memset(bytes_dst, 0, 16);
    for (int j = 0; j < 13; ++j)
      bytes_src[j] = (char)(r == root ? 'a' + j + root : '?');
    shmem_team_sync(t);
    shmem_broadcastmem(t, bytes_dst, bytes_src, 13, root);
    for (int j = 0; j < 13; ++j)
      CHECK(bytes_dst[j] == (char)('a' + j + root), "%s: broadcastmem root %d byte %d", tname, root, j);
    shmem_team_sync(t);
  }
  /* in place on the root */
  for (int j = 0; j < NE; ++j)
    dst_i[j] = r == 0 ? 40 + j : 0;
  shmem_team_sync(t);
  shmem_int_broadcast(t, dst_i, dst_i, NE, 0);
  for (int j = 0; j < NE; ++j)
    CHECK(dst_i[j] == 40 + j, "%s: in-place broadcast dst[%d] = %d", tname, j, dst_i[j]);
  shmem_team_sync(t);

  /* fcollect: block of NE from everyone */
  for (int j = 0; j < NE; ++j)
    src_d[j] = 100.0 * r + j;
  for (int j = 0; j < n * NE; ++j)
    dst_d[j] = -1;
  shmem_team_sync(t);
  CHECK(shmem_double_fcollect(t, dst_d, src_d, NE) == 0, "%s: fcollect", tname);
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < NE; ++j)
      CHECK(dst_d[q * NE + j] == 100.0 * q + j, "%s: fcollect [%d][%d] = %g", tname, q, j, dst_d[q * NE + j]);
  shmem_team_sync(t);

  /* collect: member q contributes q % 3 elements (some contribute none) */
  for (int j = 0; j < NE; ++j)
    src_l[j] = 10 * r + j;
  for (int j = 0; j < MAXP * NE; ++j)
    dst_l[j] = -1;
  shmem_team_sync(t);
  CHECK(shmem_long_collect(t, dst_l, src_l, (size_t)(r % 3)) == 0, "%s: collect", tname);
  {
    int k = 0;
    for (int q = 0; q < n; ++q)
      for (int j = 0; j < q % 3; ++j, ++k)
        CHECK(dst_l[k] == 10 * q + j, "%s: collect [%d] = %ld, want %d", tname, k, dst_l[k], 10 * q + j);
    CHECK(dst_l[k] == -1, "%s: collect wrote past its %d elements", tname, k);
  }
  shmem_team_sync(t);
  /* collectmem, 3 bytes each */
  for (int j = 0; j < 3; ++j)
    bytes_src[j] = (char)('A' + r + j);
  shmem_team_sync(t);
  shmem_collectmem(t, bytes_dst, bytes_src, 3);
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < 3; ++j)
      CHECK(bytes_dst[q * 3 + j] == (char)('A' + q + j), "%s: collectmem [%d][%d]", tname, q, j);
  shmem_team_sync(t);
  shmem_fcollectmem(t, bytes_dst, bytes_src, 2);
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < 2; ++j)
      CHECK(bytes_dst[q * 2 + j] == (char)('A' + q + j), "%s: fcollectmem [%d][%d]", tname, q, j);
  shmem_team_sync(t);

  /* alltoall: block q of member r holds 1000 r + 10 q + j */
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < NE; ++j)
      src_i[q * NE + j] = 1000 * r + 10 * q + j;
  shmem_team_sync(t);
  CHECK(shmem_int_alltoall(t, dst_i, src_i, NE) == 0, "%s: alltoall", tname);
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < NE; ++j)
      CHECK(dst_i[q * NE + j] == 1000 * q + 10 * r + j, "%s: alltoall [%d][%d] = %d", tname, q, j, dst_i[q * NE + j]);
  shmem_team_sync(t);
  /* alltoalls: 2 elements per member, dst stride 2, sst stride 3 */
  for (int k = 0; k < MAXP * NE; ++k)
    dst_l[k] = -1;
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < 2; ++j)
      src_l[(q * 2 + j) * 3 % (MAXP * NE)] = 1000 * r + 10 * q + j;
  shmem_team_sync(t);
  if (n * 2 * 3 <= MAXP * NE) {
    CHECK(shmem_long_alltoalls(t, dst_l, src_l, 2, 3, 2) == 0, "%s: alltoalls", tname);
    for (int q = 0; q < n; ++q)
      for (int j = 0; j < 2; ++j)
        CHECK(dst_l[(q * 2 + j) * 2] == 1000 * q + 10 * r + j, "%s: alltoalls [%d][%d] = %ld", tname, q, j,
              dst_l[(q * 2 + j) * 2]);
    CHECK(n == 0 || dst_l[1] == -1, "%s: alltoalls wrote between strided elements", tname);
  }
  shmem_team_sync(t);
  /* alltoallmem, 2 bytes per member */
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < 2; ++j)
      bytes_src[q * 2 + j] = (char)(r * 7 + q + j);
  shmem_team_sync(t);
  shmem_alltoallmem(t, bytes_dst, bytes_src, 2);
  for (int q = 0; q < n; ++q)
    for (int j = 0; j < 2; ++j)
      CHECK(bytes_dst[q * 2 + j] == (char)(q * 7 + r + j), "%s: alltoallmem [%d][%d]", tname, q, j);
  shmem_team_sync(t);

  /* reductions */
  long long want_sum[NE], want_prod[NE];
  long long want_max[NE], want_min[NE];
  unsigned long long want_or = 0, want_and = ~0ull, want_xor = 0;
  for (int j = 0; j < NE; ++j) {
    want_sum[j] = 0;
    want_prod[j] = 1;
    want_max[j] = -1000;
    want_min[j] = 1000;
    for (int q = 0; q < n; ++q) {
      want_sum[j] += q + j;
      want_prod[j] *= (q + j) % 3 == 0 ? 2 : 1;
      long long v = (q * 7 + j) % 11 - 5;
      if (v > want_max[j])
        want_max[j] = v;
      if (v < want_min[j])
        want_min[j] = v;
    }
  }
  for (int q = 0; q < n; ++q) {
    want_or |= 1ull << (q % 8);
    want_and &= ~(1ull << (q % 8));
    want_xor ^= 1ull << (q % 8);
  }
#define SETUP(TN, EXPR)             \
  for (int j = 0; j < NE; ++j) {    \
    r_src_##TN[j] = EXPR;           \
    r_dst_##TN[j] = 0;              \
  }                                 \
  shmem_team_sync(t)
#define ARITH_CHECK(T, TN)                                                                                  \
  do {                                                                                                     \
    SETUP(TN, (T)(r + j));                                                                                  \
    CHECK(shmem_##TN##_sum_reduce(t, r_dst_##TN, r_src_##TN, NE) == 0, "%s: " #TN "_sum_reduce", tname);      \
    for (int j = 0; j < NE; ++j)                                                                           \
      CHECK(r_dst_##TN[j] == (T)want_sum[j], "%s: " #TN "_sum_reduce [%d]", tname, j);                       \
    SETUP(TN, (T)((r + j) % 3 == 0 ? 2 : 1));                                                               \
    shmem_##TN##_prod_reduce(t, r_dst_##TN, r_src_##TN, NE);                                                \
    for (int j = 0; j < NE; ++j)                                                                           \
      CHECK(r_dst_##TN[j] == (T)want_prod[j], "%s: " #TN "_prod_reduce [%d]", tname, j);                     \
    SETUP(TN, (T)((r * 7 + j) % 11 - 5));                                                                   \
    shmem_##TN##_max_reduce(t, r_dst_##TN, r_src_##TN, NE);                                                 \
    for (int j = 0; j < NE; ++j)                                                                           \
      CHECK(r_dst_##TN[j] == (T)want_max[j], "%s: " #TN "_max_reduce [%d]", tname, j);                       \
    SETUP(TN, (T)((r * 7 + j) % 11 - 5));                                                                   \
    shmem_##TN##_min_reduce(t, r_dst_##TN, r_src_##TN, NE);                                                 \
    for (int j = 0; j < NE; ++j)                                                                           \
      CHECK(r_dst_##TN[j] == (T)want_min[j], "%s: " #TN "_min_reduce [%d]", tname, j);                       \
    shmem_team_sync(t);                                                                                    \
  } while (0)
#define BITWISE_CHECK(T, TN)                                                                   \
  do {                                                                                        \
    SETUP(TN, (T)(1ull << (r % 8)));                                                           \
    shmem_##TN##_or_reduce(t, r_dst_##TN, r_src_##TN, NE);                                     \
    for (int j = 0; j < NE; ++j)                                                              \
      CHECK(r_dst_##TN[j] == (T)want_or, "%s: " #TN "_or_reduce [%d]", tname, j);               \
    SETUP(TN, (T)(1ull << (r % 8)));                                                           \
    shmem_##TN##_xor_reduce(t, r_dst_##TN, r_src_##TN, NE);                                    \
    for (int j = 0; j < NE; ++j)                                                              \
      CHECK(r_dst_##TN[j] == (T)want_xor, "%s: " #TN "_xor_reduce [%d]", tname, j);             \
    SETUP(TN, (T) ~(1ull << (r % 8)));                                                         \
    shmem_##TN##_and_reduce(t, r_dst_##TN, r_src_##TN, NE);                                    \
    for (int j = 0; j < NE; ++j)                                                              \
      CHECK(r_dst_##TN[j] == (T)want_and, "%s: " #TN "_and_reduce [%d]", tname, j);             \
    shmem_team_sync(t);                                                                       \
  } while (0)
  ARITH_CHECK(int, int);
  ARITH_CHECK(long, long);
  ARITH_CHECK(short, short);
  ARITH_CHECK(char, char);
  ARITH_CHECK(float, float);
  ARITH_CHECK(double, double);
  ARITH_CHECK(long double, longdouble);
  ARITH_CHECK(int8_t, int8);
  ARITH_CHECK(long long, longlong);
  BITWISE_CHECK(unsigned int, uint);
  BITWISE_CHECK(uint64_t, uint64);
  BITWISE_CHECK(int8_t, int8);
  BITWISE_CHECK(size_t, size);
  /* in place */
  SETUP(long, r + j);
  shmem_long_sum_reduce(t, r_src_long, r_src_long, NE);
  for (int j = 0; j < NE; ++j)
    CHECK(r_src_long[j] == want_sum[j], "%s: in-place long_sum_reduce [%d] = %ld", tname, j, r_src_long[j]);
  shmem_team_sync(t);
  /* complex: sum of (r + j) + r i; product of i on members with r % 4 == 1, else 1 */
  {
    double _Complex wsum[NE], wprod = 1;
    for (int j = 0; j < NE; ++j) {
      wsum[j] = 0;
      for (int q = 0; q < n; ++q)
        wsum[j] += (double)(q + j) + (double)q * I;
    }
    for (int q = 0; q < n; ++q)
      if (q % 4 == 1)
        wprod *= I;
    SETUP(complexd, (double)(r + j) + (double)r * I);
    shmem_complexd_sum_reduce(t, r_dst_complexd, r_src_complexd, NE);
    for (int j = 0; j < NE; ++j)
      CHECK(r_dst_complexd[j] == wsum[j], "%s: complexd_sum_reduce [%d] = %g%+gi", tname, j, creal(r_dst_complexd[j]),
            cimag(r_dst_complexd[j]));
    SETUP(complexf, r % 4 == 1 ? (float _Complex)I : (float _Complex)1);
    shmem_complexf_prod_reduce(t, r_dst_complexf, r_src_complexf, NE);
    for (int j = 0; j < NE; ++j)
      CHECK(r_dst_complexf[j] == (float _Complex)wprod, "%s: complexf_prod_reduce [%d] = %g%+gi", tname, j,
            crealf(r_dst_complexf[j]), cimagf(r_dst_complexf[j]));
    shmem_team_sync(t);
  }
}

/* ------------------------------------------------------------------ deprecated active-set forms */

static void active_set_suite(int start, int logstride, int size, const char* sname)
{
  const int stride = 1 << logstride;
  const int r = (me - start) / stride;
  int ps = 0;
#define NEXT_PSYNC() (shmem_barrier(start, logstride, size, pSync[3]), pSync[ps++ % 3])

  shmem_barrier(start, logstride, size, pSync[3]);
  shmem_sync(start, logstride, size, pSync[3]);
  shmem_sync(start, logstride, size, pSync[3]);

  /* broadcast64: the root's dest is left alone */
  for (int j = 0; j < NE; ++j) {
    src_l[j] = 77 + j;
    dst_l[j] = -3;
  }
  const int root = size > 1 ? 1 : 0;
  shmem_broadcast64(dst_l, src_l, NE, root, start, logstride, size, NEXT_PSYNC());
  for (int j = 0; j < NE; ++j)
    CHECK(dst_l[j] == (r == root ? -3 : 77 + j), "%s: broadcast64 [%d] = %ld", sname, j, dst_l[j]);
  for (int j = 0; j < NE; ++j) {
    src_i[j] = r == 0 ? 5 + j : 0;
    dst_i[j] = -3;
  }
  shmem_broadcast32(dst_i, src_i, NE, 0, start, logstride, size, NEXT_PSYNC());
  for (int j = 0; j < NE; ++j)
    CHECK(dst_i[j] == (r == 0 ? -3 : 5 + j), "%s: broadcast32 [%d] = %d", sname, j, dst_i[j]);

  /* fcollect64 / collect32 */
  for (int j = 0; j < NE; ++j)
    src_l[j] = 100 * r + j;
  shmem_fcollect64(dst_l, src_l, NE, start, logstride, size, NEXT_PSYNC());
  for (int q = 0; q < size; ++q)
    for (int j = 0; j < NE; ++j)
      CHECK(dst_l[q * NE + j] == 100 * q + j, "%s: fcollect64 [%d][%d]", sname, q, j);
  for (int j = 0; j < NE; ++j)
    src_i[j] = 100 * r + j;
  shmem_collect32(dst_i, src_i, (size_t)(r % 2 + 1), start, logstride, size, NEXT_PSYNC());
  {
    int k = 0;
    for (int q = 0; q < size; ++q)
      for (int j = 0; j < q % 2 + 1; ++j, ++k)
        CHECK(dst_i[k] == 100 * q + j, "%s: collect32 [%d] = %d", sname, k, dst_i[k]);
  }
  shmem_fcollect32(dst_i, src_i, 1, start, logstride, size, NEXT_PSYNC());
  for (int q = 0; q < size; ++q)
    CHECK(dst_i[q] == 100 * q, "%s: fcollect32 [%d]", sname, q);
  for (int j = 0; j < NE; ++j)
    src_l[j] = 100 * r + j;
  shmem_collect64(dst_l, src_l, 2, start, logstride, size, NEXT_PSYNC());
  for (int q = 0; q < size; ++q)
    for (int j = 0; j < 2; ++j)
      CHECK(dst_l[q * 2 + j] == 100 * q + j, "%s: collect64 [%d][%d]", sname, q, j);

  /* alltoall64 / alltoall32 / alltoalls64 / alltoalls32 */
  for (int q = 0; q < size; ++q)
    for (int j = 0; j < 2; ++j) {
      src_l[q * 2 + j] = 1000 * r + 10 * q + j;
      src_i[q * 2 + j] = 1000 * r + 10 * q + j;
    }
  shmem_alltoall64(dst_l, src_l, 2, start, logstride, size, NEXT_PSYNC());
  shmem_alltoall32(dst_i, src_i, 2, start, logstride, size, NEXT_PSYNC());
  for (int q = 0; q < size; ++q)
    for (int j = 0; j < 2; ++j) {
      CHECK(dst_l[q * 2 + j] == 1000 * q + 10 * r + j, "%s: alltoall64 [%d][%d]", sname, q, j);
      CHECK(dst_i[q * 2 + j] == 1000 * q + 10 * r + j, "%s: alltoall32 [%d][%d]", sname, q, j);
    }
  for (int q = 0; q < size; ++q)
    src_l[q * 2] = 1000 * r + q;
  shmem_alltoalls64(dst_l, src_l, 1, 2, 1, start, logstride, size, NEXT_PSYNC());
  for (int q = 0; q < size; ++q)
    CHECK(dst_l[q] == 1000 * q + r, "%s: alltoalls64 [%d] = %ld", sname, q, dst_l[q]);
  for (int q = 0; q < size; ++q)
    src_i[q] = 1000 * r + q;
  shmem_alltoalls32(dst_i, src_i, 3, 1, 1, start, logstride, size, NEXT_PSYNC());
  for (int q = 0; q < size; ++q)
    CHECK(dst_i[q * 3] == 1000 * q + r, "%s: alltoalls32 [%d] = %d", sname, q, dst_i[q * 3]);

  /* _to_all */
  long long want = 0, wmax = -1;
  for (int q = 0; q < size; ++q) {
    want += q + 1;
    wmax = q > wmax ? q : wmax;
  }
  for (int j = 0; j < NE; ++j)
    r_src_long[j] = r + 1 + j;
  shmem_long_sum_to_all(r_dst_long, r_src_long, NE, start, logstride, size, pWrkL, NEXT_PSYNC());
  for (int j = 0; j < NE; ++j)
    CHECK(r_dst_long[j] == want + (long long)size * j, "%s: long_sum_to_all [%d] = %ld", sname, j, r_dst_long[j]);
  for (int j = 0; j < NE; ++j)
    r_src_double[j] = r;
  shmem_double_max_to_all(r_dst_double, r_src_double, NE, start, logstride, size, pWrkD, NEXT_PSYNC());
  for (int j = 0; j < NE; ++j)
    CHECK(r_dst_double[j] == (double)wmax, "%s: double_max_to_all [%d]", sname, j);
  for (int j = 0; j < NE; ++j)
    r_src_int[j] = 1 << (r % 16);
  shmem_int_or_to_all(r_dst_int, r_src_int, NE, start, logstride, size, (int*)pWrkL, NEXT_PSYNC());
  {
    int wor = 0;
    for (int q = 0; q < size; ++q)
      wor |= 1 << (q % 16);
    for (int j = 0; j < NE; ++j)
      CHECK(r_dst_int[j] == wor, "%s: int_or_to_all [%d]", sname, j);
  }
  for (int j = 0; j < NE; ++j)
    r_src_complexd[j] = 1.0 + r * I;
  shmem_complexd_sum_to_all(r_dst_complexd, r_src_complexd, NE, start, logstride, size, pWrkZ, NEXT_PSYNC());
  for (int j = 0; j < NE; ++j)
    CHECK(r_dst_complexd[j] == (double)size + (double)(want - size) * I, "%s: complexd_sum_to_all [%d]", sname, j);
  for (int j = 0; j < NE; ++j)
    r_src_short[j] = (short)(r % 5 + 1);
  shmem_short_min_to_all(r_dst_short, r_src_short, NE, start, logstride, size, (short*)pWrkL, NEXT_PSYNC());
  for (int j = 0; j < NE; ++j)
    CHECK(r_dst_short[j] == 1, "%s: short_min_to_all [%d]", sname, j);
  shmem_barrier(start, logstride, size, pSync[3]);
#undef NEXT_PSYNC
}

int main(void)
{
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < SHMEM_SYNC_SIZE; ++j)
      pSync[i][j] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();

  team_suite(SHMEM_TEAM_WORLD, "world");

  /* strided teams: every other PE, the world reversed, every third PE starting at 1 */
  shmem_team_t evens, reversed, thirds;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0, &evens) == 0, "split evens");
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, -1, npes, NULL, 0, &reversed) == 0, "split reversed");
  int nthirds = npes > 1 ? (npes - 1 + 2) / 3 : 1;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes > 1 ? 1 : 0, 3, nthirds, NULL, 0, &thirds) == 0,
        "split thirds");
  if (evens != SHMEM_TEAM_INVALID)
    team_suite(evens, "evens");
  if (reversed != SHMEM_TEAM_INVALID) {
    CHECK(shmem_team_my_pe(reversed) == npes - 1 - me, "reversed: my_pe %d", shmem_team_my_pe(reversed));
    team_suite(reversed, "reversed");
  }
  if (thirds != SHMEM_TEAM_INVALID)
    team_suite(thirds, "thirds");
  shmem_barrier_all();
  shmem_team_destroy(evens);
  shmem_team_destroy(reversed);
  shmem_team_destroy(thirds);

  active_set_suite(0, 0, npes, "all");
  shmem_barrier_all();
  if (me % 2 == 0)
    active_set_suite(0, 1, (npes + 1) / 2, "evens");
  shmem_barrier_all();
  /* every pSync is back to SHMEM_SYNC_VALUE once all PEs have returned */
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < SHMEM_SYNC_SIZE; ++j)
      CHECK(pSync[i][j] == SHMEM_SYNC_VALUE, "pSync[%d][%d] = %ld after the collectives", i, j, pSync[i][j]);
  return progtest_finish("coll_basic");
}
