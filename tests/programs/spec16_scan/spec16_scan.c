/* OpenSHMEM 1.6 prefix sums: shmem_TYPENAME_sum_inscan and shmem_TYPENAME_sum_exscan over every
 * type of the SUM column of the team-based reduction table (integers, reals and both complex
 * types), on SHMEM_TEAM_WORLD and on a team made by shmem_team_split_strided (the odd world PEs,
 * or all of them on one PE), out of place and in place; the C11 generic shmem_sum_inscan /
 * shmem_sum_exscan; SHMEM_TEAM_INVALID gets a non-zero return. On team member i, element j of
 * the inclusive result is the sum over members 0..i of their source[j]; exclusive: over 0..i-1,
 * 0 on member 0. Compiled with -std=c11 (and gnu11). */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#include "progtest.h"

#define SCAN_TYPES(X)                                                                                  \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong) \
  X(ptrdiff_t, ptrdiff) X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)       \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)          \
  X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)       \
  X(uint64_t, uint64) X(size_t, size) X(float, float) X(double, double) X(long double, longdouble)    \
  X(double _Complex, complexd) X(float _Complex, complexf)

#define N 5

/* Source element j of the team member with world PE number pe: small and exact in every type. */
#define SRC(TYPE, pe, j) ((TYPE)((pe) + 1 + 2 * (j)))

/* Sum over the team members 0..upto-1 (world PEs world[0..]) of SRC(j). */
static long long expected(const int* world, int upto, int j)
{
  long long s = 0;
  for (int k = 0; k < upto; ++k)
    s += world[k] + 1 + 2 * j;
  return s;
}

static int me, npes;

#define SCAN_TEST(TYPE, NAME)                                                                                 \
  static TYPE src_##NAME[N], in_##NAME[N], ex_##NAME[N], gin_##NAME[N], gex_##NAME[N], inplace_##NAME[N];    \
  static void test_##NAME(shmem_team_t team, const int* world, const char* what)                              \
  {                                                                                                           \
    const int i = shmem_team_my_pe(team);                                                                     \
    for (int j = 0; j < N; ++j) {                                                                             \
      src_##NAME[j]     = SRC(TYPE, me, j);                                                                   \
      inplace_##NAME[j] = SRC(TYPE, me, j);                                                                   \
    }                                                                                                         \
    /* no synchronization needed before the call: the routine makes sure sources are ready */                 \
    CHECK(shmem_##NAME##_sum_inscan(team, in_##NAME, src_##NAME, N) == 0, #TYPE " inscan rc (%s)", what);      \
    CHECK(shmem_##NAME##_sum_exscan(team, ex_##NAME, src_##NAME, N) == 0, #TYPE " exscan rc (%s)", what);      \
    CHECK(shmem_sum_inscan(team, gin_##NAME, src_##NAME, N) == 0, #TYPE " generic inscan rc (%s)", what);      \
    CHECK(shmem_sum_exscan(team, gex_##NAME, (const TYPE*)src_##NAME, N) == 0, #TYPE " generic exscan rc (%s)", \
          what);                                                                                              \
    CHECK(shmem_##NAME##_sum_inscan(team, inplace_##NAME, inplace_##NAME, N) == 0, #TYPE " in place (%s)", what); \
    for (int j = 0; j < N; ++j) {                                                                             \
      const TYPE win = (TYPE)expected(world, i + 1, j), wex = (TYPE)expected(world, i, j);                    \
      CHECK(in_##NAME[j] == win, #TYPE " inscan (%s): member %d element %d", what, i, j);                     \
      CHECK(ex_##NAME[j] == wex, #TYPE " exscan (%s): member %d element %d", what, i, j);                     \
      CHECK(gin_##NAME[j] == win, #TYPE " generic inscan (%s): member %d element %d", what, i, j);            \
      CHECK(gex_##NAME[j] == wex, #TYPE " generic exscan (%s): member %d element %d", what, i, j);            \
      CHECK(inplace_##NAME[j] == win, #TYPE " inscan in place (%s): member %d element %d", what, i, j);       \
    }                                                                                                         \
    shmem_team_sync(team);                                                                                    \
  }
SCAN_TYPES(SCAN_TEST)

int main(void)
{
  shmem_init();
  me   = shmem_my_pe();
  npes = shmem_n_pes();

  int world_all[64];
  for (int k = 0; k < npes; ++k)
    world_all[k] = k;
#define RUN(TYPE, NAME) test_##NAME(team, world, what);
  {
    shmem_team_t team = SHMEM_TEAM_WORLD;
    const int* world  = world_all;
    const char* what  = "world";
    SCAN_TYPES(RUN)
  }
  /* The odd world PEs (1, 3, ...) as a team; PE 0 alone when there is one PE. */
  const int start = npes > 1 ? 1 : 0, size = npes > 1 ? npes / 2 : 1;
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &odd);
  if (odd != SHMEM_TEAM_INVALID) {
    int world_odd[64];
    for (int k = 0; k < size; ++k)
      world_odd[k] = start + 2 * k;
    shmem_team_t team = odd;
    const int* world  = world_odd;
    const char* what  = "odd PEs";
    SCAN_TYPES(RUN)
    shmem_team_destroy(odd);
  }
  static long x[2], y[2];
  CHECK(shmem_long_sum_inscan(SHMEM_TEAM_INVALID, y, x, 2) != 0, "inscan on SHMEM_TEAM_INVALID returns non-zero");
  CHECK(shmem_sum_exscan(SHMEM_TEAM_INVALID, y, x, 2) != 0, "exscan on SHMEM_TEAM_INVALID returns non-zero");
  CHECK(shmem_int_sum_inscan(SHMEM_TEAM_WORLD, NULL, NULL, 0) == 0, "zero-length inscan");
  int rc = progtest_finish("spec16_scan");
  shmem_finalize();
  return rc;
}
