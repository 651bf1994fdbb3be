/* OpenSHMEM 1.5 C11 type-generic team collectives over their WHOLE type tables (typedefs
 * included), on SHMEM_TEAM_WORLD and on a team made by shmem_team_split_strided:
 *  shmem_sync(team), shmem_broadcast, shmem_collect, shmem_fcollect, shmem_alltoall,
 *  shmem_alltoalls (standard RMA types);
 *  shmem_and_reduce, shmem_or_reduce, shmem_xor_reduce (bitwise reduction types);
 *  shmem_max_reduce, shmem_min_reduce (ordered reduction types);
 *  shmem_sum_reduce, shmem_prod_reduce (ordered types and the complex types);
 * and a few typed team forms (shmem_int_sum_reduce(team, ...), shmem_long_broadcast(team, ...)).
 * Every result is compared with the value folded locally. Compiled with -std=c11 (and gnu11). */
#include <complex.h>
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#include "progtest.h"

#include "rma_types.h"
#define BITWISE_TYPES(X)                                                                               \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)     \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)               \
  X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64)    \
  X(size_t, size)
#define ORDERED_TYPES(X)                                                                               \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)                      \
  X(long long, longlong) X(ptrdiff_t, ptrdiff) BITWISE_TYPES(X) X(float, float) X(double, double)    \
  X(long double, longdouble)

static const char* team_name;

/* ------------------------------------------------------------------ data collectives
 * Values: PE p's element i is p*8 + i + 1 (broadcast, collect, fcollect); block q of PE p in
 * alltoall(s) holds p*16 + q*2 + i + 1. At most 7 PEs keep them within a signed char. */
#define VAL(TYPE, p, i) ((TYPE)((p) * 8 + (i) + 1))
#define A2A(TYPE, p, q, i) ((TYPE)((p) * 16 + (q) * 2 + (i) + 1))

#define COLL_TEST(TYPE, NAME)                                                                       \
  static TYPE src_##NAME[24], dst_##NAME[64];                                                        \
  static void coll_##NAME(shmem_team_t team)                                                         \
  {                                                                                                  \
    const int n = shmem_team_n_pes(team), p = shmem_team_my_pe(team);                                \
    TYPE* dst = dst_##NAME;                                                                          \
    const TYPE* src = src_##NAME;                                                                    \
    for (int i = 0; i < 4; ++i)                                                                      \
      src_##NAME[i] = VAL(TYPE, p, i);                                                               \
    for (int i = 0; i < 64; ++i)                                                                     \
      dst[i] = 0;                                                                                    \
    CHECK(shmem_sync(team) == 0, "%s: sync", team_name);                                            \
    CHECK(shmem_broadcast(team, dst, src, 4, n - 1) == 0, "%s: " #TYPE " broadcast", team_name);    \
    for (int i = 0; i < 4; ++i)                                                                      \
      CHECK(dst[i] == VAL(TYPE, n - 1, i), "%s: " #TYPE " broadcast [%d]", team_name, i);           \
    shmem_sync(team);                                                                                \
    CHECK(shmem_fcollect(team, dst, src, 2) == 0, "%s: " #TYPE " fcollect", team_name);             \
    for (int q = 0; q < n; ++q)                                                                      \
      for (int i = 0; i < 2; ++i)                                                                    \
        CHECK(dst[q * 2 + i] == VAL(TYPE, q, i), "%s: " #TYPE " fcollect [%d]", team_name, q * 2 + i); \
    shmem_sync(team);                                                                                \
    CHECK(shmem_collect(team, dst, src, (size_t)(p % 4 + 1)) == 0, "%s: " #TYPE " collect", team_name); \
    for (int q = 0, k = 0; q < n; ++q)                                                               \
      for (int i = 0; i < q % 4 + 1; ++i, ++k)                                                       \
        CHECK(dst[k] == VAL(TYPE, q, i), "%s: " #TYPE " collect [%d]", team_name, k);               \
    for (int q = 0; q < n; ++q)                                                                      \
      for (int i = 0; i < 2; ++i)                                                                    \
        src_##NAME[q * 2 + i] = A2A(TYPE, p, q, i);                                                  \
    shmem_sync(team);                                                                                \
    CHECK(shmem_alltoall(team, dst, src, 2) == 0, "%s: " #TYPE " alltoall", team_name);             \
    for (int q = 0; q < n; ++q)                                                                      \
      for (int i = 0; i < 2; ++i)                                                                    \
        CHECK(dst[q * 2 + i] == A2A(TYPE, q, p, i), "%s: " #TYPE " alltoall [%d]", team_name, q * 2 + i); \
    for (int q = 0; q < n; ++q) /* one element per block, read every 3rd, written every 2nd */      \
      src_##NAME[q * 3] = A2A(TYPE, p, q, 0);                                                        \
    shmem_sync(team);                                                                                \
    CHECK(shmem_alltoalls(team, dst, src, 2, 3, 1) == 0, "%s: " #TYPE " alltoalls", team_name);     \
    for (int q = 0; q < n; ++q)                                                                      \
      CHECK(dst[q * 2] == A2A(TYPE, q, p, 0), "%s: " #TYPE " alltoalls [%d]", team_name, q * 2);    \
    shmem_sync(team);                                                                                \
  }
RMA_TYPES(COLL_TEST)

/* ------------------------------------------------------------------ reductions
 * Each PE's 4 elements; the expected result is folded over the team's PEs here. */
#define BITVAL(TYPE, p, i) ((TYPE)(0x40u | (1u << (((p) + (i)) % 6))))
#define ORDVAL(TYPE, p, i) ((TYPE)(((p) * 3 + (i)) % 7 + 1))
#define SUMVAL(TYPE, p, i) ((TYPE)(((p) + (i)) % 5 + 1))
#define PRODVAL(TYPE, p, i) ((TYPE)(((p) + (i)) % 2 + 1))

#define REDUCE_CHECK(TYPE, OP, VALUE, FOLD)                                                         \
  do {                                                                                              \
    for (int i = 0; i < 4; ++i)                                                                     \
      rs[i] = VALUE(TYPE, p, i);                                                                    \
    shmem_sync(team);                                                                               \
    CHECK(shmem_##OP##_reduce(team, rd, rs, 4) == 0, "%s: " #TYPE " " #OP "_reduce", team_name);   \
    for (int i = 0; i < 4; ++i) {                                                                   \
      TYPE want = VALUE(TYPE, 0, i);                                                                \
      for (int q = 1; q < n; ++q) {                                                                 \
        const TYPE v = VALUE(TYPE, q, i);                                                           \
        want         = FOLD;                                                                        \
      }                                                                                             \
      CHECK(rd[i] == want, "%s: " #TYPE " " #OP "_reduce [%d]", team_name, i);                     \
    }                                                                                               \
  } while (0)

#define BITWISE_TEST(TYPE, NAME)                                                                    \
  static TYPE bs_##NAME[4], bd_##NAME[4];                                                            \
  static void bitwise_##NAME(shmem_team_t team)                                                      \
  {                                                                                                  \
    const int n = shmem_team_n_pes(team), p = shmem_team_my_pe(team);                                \
    TYPE *rs = bs_##NAME, *rd = bd_##NAME;                                                           \
    REDUCE_CHECK(TYPE, and, BITVAL, (TYPE)(want & v));                                               \
    REDUCE_CHECK(TYPE, or, BITVAL, (TYPE)(want | v));                                                \
    REDUCE_CHECK(TYPE, xor, BITVAL, (TYPE)(want ^ v));                                               \
  }
BITWISE_TYPES(BITWISE_TEST)

#define ORDERED_TEST(TYPE, NAME)                                                                    \
  static TYPE os_##NAME[4], od_##NAME[4];                                                            \
  static void ordered_##NAME(shmem_team_t team)                                                      \
  {                                                                                                  \
    const int n = shmem_team_n_pes(team), p = shmem_team_my_pe(team);                                \
    TYPE *rs = os_##NAME, *rd = od_##NAME;                                                           \
    REDUCE_CHECK(TYPE, max, ORDVAL, (v > want ? v : want));                                          \
    REDUCE_CHECK(TYPE, min, ORDVAL, (v < want ? v : want));                                          \
    REDUCE_CHECK(TYPE, sum, SUMVAL, (TYPE)(want + v));                                               \
    REDUCE_CHECK(TYPE, prod, PRODVAL, (TYPE)(want * v));                                             \
  }
ORDERED_TYPES(ORDERED_TEST)

/* The complex types of the sum and product reductions. */
#define CPLXVAL(TYPE, p, i) ((TYPE)(((p) + (i)) % 3 + 1) + (TYPE)((i) % 2) * I)
#define COMPLEX_TEST(TYPE, NAME)                                                                    \
  static TYPE cs_##NAME[4], cd_##NAME[4];                                                            \
  static void complex_##NAME(shmem_team_t team)                                                      \
  {                                                                                                  \
    const int n = shmem_team_n_pes(team), p = shmem_team_my_pe(team);                                \
    TYPE *rs = cs_##NAME, *rd = cd_##NAME;                                                           \
    REDUCE_CHECK(TYPE, sum, CPLXVAL, want + v);                                                      \
    REDUCE_CHECK(TYPE, prod, CPLXVAL, want * v);                                                     \
  }
COMPLEX_TEST(double _Complex, complexd)
COMPLEX_TEST(float _Complex, complexf)

/* A few typed team forms. */
static int tsrc[4], tdst[4];
static long lsrc[4], ldst[4];
static void typed(shmem_team_t team)
{
  const int n = shmem_team_n_pes(team), p = shmem_team_my_pe(team);
  for (int i = 0; i < 4; ++i) {
    tsrc[i] = p + i;
    lsrc[i] = 10 * p + i;
  }
  shmem_team_sync(team);
  CHECK(shmem_int_sum_reduce(team, tdst, tsrc, 4) == 0, "%s: shmem_int_sum_reduce", team_name);
  for (int i = 0; i < 4; ++i)
    CHECK(tdst[i] == n * (n - 1) / 2 + n * i, "%s: shmem_int_sum_reduce [%d] = %d", team_name, i, tdst[i]);
  shmem_team_sync(team);
  CHECK(shmem_long_broadcast(team, ldst, lsrc, 4, 0) == 0, "%s: shmem_long_broadcast", team_name);
  CHECK(ldst[3] == 3, "%s: shmem_long_broadcast value", team_name);
  shmem_team_sync(team);
}

static void run_all(shmem_team_t team, const char* name)
{
  team_name = name;
#define RUN_COLL(TYPE, NAME) coll_##NAME(team);
#define RUN_BITWISE(TYPE, NAME) bitwise_##NAME(team);
#define RUN_ORDERED(TYPE, NAME) ordered_##NAME(team);
  RMA_TYPES(RUN_COLL)
  BITWISE_TYPES(RUN_BITWISE)
  ORDERED_TYPES(RUN_ORDERED)
  complex_complexd(team);
  complex_complexf(team);
  typed(team);
}

int main(void)
{
  shmem_init();
  run_all(SHMEM_TEAM_WORLD, "SHMEM_TEAM_WORLD");
  /* A copy of the world team made by a split: the team forms on a team with resources of its own. */
  shmem_team_t copy = SHMEM_TEAM_INVALID;
  const int rc_split = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &copy);
  CHECK(rc_split == 0 && copy != SHMEM_TEAM_INVALID, "shmem_team_split_strided");
  if (copy != SHMEM_TEAM_INVALID) {
    run_all(copy, "split team");
    shmem_team_destroy(copy);
  }
  /* The odd PEs: a team whose members are not the world's first PEs. */
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  if (shmem_n_pes() > 1) {
    const int nodd = shmem_n_pes() / 2;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, nodd, NULL, 0, &odd);
    CHECK((shmem_my_pe() % 2 == 1) == (odd != SHMEM_TEAM_INVALID), "odd team membership");
    if (odd != SHMEM_TEAM_INVALID) {
      run_all(odd, "odd PEs");
      shmem_team_destroy(odd);
    }
  }
  const int rc = progtest_finish("conf_c11_coll");
  shmem_finalize();
  return rc;
}
