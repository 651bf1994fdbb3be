/* OpenSHMEM 1.5 C11 type-generic point-to-point synchronization over the WHOLE type table of
 * §9.10 (typedefs included): shmem_wait_until and shmem_test (also on the deprecated short
 * types), shmem_wait_until_all/_any/_some, shmem_test_all/_any/_some and their _vector forms,
 * with a status array and with status NULL, plus empty sets (nelems 0, ivars NULL; every element
 * excluded). The left neighbour sets the ivars; the owner waits and tests them.
 * Compiled with -std=c11 (and gnu11). */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#include "progtest.h"

#define P2P_TYPES(X)                                                                              \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)  \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)        \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define SCALAR_ONLY_TYPES(X) X(short, short) X(unsigned short, ushort)

static int me, npes, right;

/* ivars[0..3] become 1, 2, 3, 4 (set by the left neighbour). */
#define P2P_TEST(TYPE, NAME)                                                                            \
  static TYPE iv_##NAME[4];                                                                             \
  static TYPE flag_##NAME;                                                                              \
  static void test_##NAME(void)                                                                         \
  {                                                                                                     \
    TYPE* iv = iv_##NAME;                                                                               \
    const int none[4] = {0, 0, 0, 0};                                                                   \
    const int skip2[4] = {0, 0, 1, 0};                                                                  \
    const int skip_all[4] = {1, 1, 1, 1};                                                               \
    size_t idx[4];                                                                                      \
    TYPE want[4] = {1, 2, 3, 4};                                                                        \
    /* before: nothing set */                                                                           \
    CHECK(shmem_test(&flag_##NAME, SHMEM_CMP_EQ, (TYPE)1) == 0, #TYPE " test before");                \
    CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_GT, (TYPE)0) == 0, #TYPE " test_all before");         \
    CHECK(shmem_test_any(iv, 4, none, SHMEM_CMP_NE, (TYPE)0) == SIZE_MAX, #TYPE " test_any before");  \
    CHECK(shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_NE, (TYPE)0) == 0, #TYPE " test_some before");  \
    CHECK(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want) == 0, #TYPE " test_all_vector before"); \
    CHECK(shmem_test_any_vector(iv, 4, none, SHMEM_CMP_EQ, want) == SIZE_MAX, #TYPE " test_any_vector before"); \
    CHECK(shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, want) == 0, #TYPE " test_some_vector before"); \
    shmem_barrier_all();                                                                                \
    for (int i = 0; i < 4; ++i)                                                                         \
      shmem_p(&iv[i], (TYPE)(i + 1), right);                                                            \
    shmem_fence();                                                                                      \
    shmem_p(&flag_##NAME, (TYPE)1, right);                                                              \
    shmem_wait_until(&flag_##NAME, SHMEM_CMP_EQ, (TYPE)1);                                              \
    CHECK(shmem_test(&flag_##NAME, SHMEM_CMP_GE, (TYPE)1) == 1, #TYPE " test after");                 \
    shmem_wait_until_all(iv, 4, NULL, SHMEM_CMP_GT, (TYPE)0);                                           \
    shmem_wait_until_all(iv, 4, skip2, SHMEM_CMP_NE, (TYPE)3); /* index 2 (== 3) excluded */           \
    CHECK(shmem_wait_until_any(iv, 4, NULL, SHMEM_CMP_EQ, (TYPE)3) == 2, #TYPE " wait_until_any");    \
    CHECK(shmem_wait_until_any(iv, 4, skip2, SHMEM_CMP_GE, (TYPE)3) == 3, #TYPE " wait_until_any status"); \
    CHECK(shmem_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, (TYPE)2) == 3 && idx[0] == 1 &&         \
              idx[2] == 3, #TYPE " wait_until_some");                                                   \
    CHECK(shmem_wait_until_some(iv, 4, idx, skip2, SHMEM_CMP_GE, (TYPE)2) == 2 && idx[1] == 3,         \
          #TYPE " wait_until_some status");                                                             \
    shmem_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want);                                      \
    shmem_wait_until_all_vector(iv, 4, none, SHMEM_CMP_LE, want);                                      \
    CHECK(shmem_wait_until_any_vector(iv, 4, skip2, SHMEM_CMP_EQ, want) < 4, #TYPE " wait_until_any_vector"); \
    CHECK(shmem_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4,                     \
          #TYPE " wait_until_some_vector");                                                             \
    CHECK(shmem_wait_until_some_vector(iv, 4, idx, skip2, SHMEM_CMP_EQ, want) == 3,                    \
          #TYPE " wait_until_some_vector status");                                                      \
    CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_LT, (TYPE)5) == 1, #TYPE " test_all");                \
    CHECK(shmem_test_all(iv, 4, skip2, SHMEM_CMP_NE, (TYPE)3) == 1, #TYPE " test_all status");        \
    CHECK(shmem_test_any(iv, 4, NULL, SHMEM_CMP_EQ, (TYPE)4) == 3, #TYPE " test_any");                \
    CHECK(shmem_test_any(iv, 4, skip2, SHMEM_CMP_EQ, (TYPE)3) == SIZE_MAX, #TYPE " test_any status"); \
    CHECK(shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_LE, (TYPE)2) == 2 && idx[1] == 1, #TYPE " test_some"); \
    CHECK(shmem_test_some(iv, 4, idx, skip2, SHMEM_CMP_GT, (TYPE)1) == 2, #TYPE " test_some status"); \
    CHECK(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want) == 1, #TYPE " test_all_vector");     \
    CHECK(shmem_test_all_vector(iv, 4, skip2, SHMEM_CMP_GE, want) == 1, #TYPE " test_all_vector status"); \
    CHECK(shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, want) < 4, #TYPE " test_any_vector");      \
    CHECK(shmem_test_any_vector(iv, 4, skip_all, SHMEM_CMP_EQ, want) == SIZE_MAX,                     \
          #TYPE " test_any_vector all excluded");                                                       \
    CHECK(shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4, #TYPE " test_some_vector"); \
    CHECK(shmem_test_some_vector(iv, 4, idx, skip2, SHMEM_CMP_NE, want) == 0,                         \
          #TYPE " test_some_vector status");                                                            \
    /* empty sets: nelems 0 with NULL ivars, or every element excluded */                               \
    TYPE* nil = NULL;                                                                                   \
    shmem_wait_until_all(nil, 0, NULL, SHMEM_CMP_EQ, (TYPE)0);                                          \
    shmem_wait_until_all_vector(nil, 0, NULL, SHMEM_CMP_EQ, NULL);                                      \
    CHECK(shmem_wait_until_any(nil, 0, NULL, SHMEM_CMP_EQ, (TYPE)0) == SIZE_MAX, #TYPE " empty wait_until_any"); \
    CHECK(shmem_wait_until_any_vector(iv, 4, skip_all, SHMEM_CMP_EQ, want) == SIZE_MAX,               \
          #TYPE " all-excluded wait_until_any_vector");                                                 \
    CHECK(shmem_wait_until_some(nil, 0, NULL, NULL, SHMEM_CMP_EQ, (TYPE)0) == 0, #TYPE " empty wait_until_some"); \
    CHECK(shmem_wait_until_some_vector(nil, 0, NULL, NULL, SHMEM_CMP_EQ, NULL) == 0,                  \
          #TYPE " empty wait_until_some_vector");                                                       \
    CHECK(shmem_test_all(nil, 0, NULL, SHMEM_CMP_EQ, (TYPE)0) == 1, #TYPE " empty test_all");         \
    CHECK(shmem_test_all_vector(nil, 0, NULL, SHMEM_CMP_EQ, NULL) == 1, #TYPE " empty test_all_vector"); \
    CHECK(shmem_test_any(nil, 0, NULL, SHMEM_CMP_EQ, (TYPE)0) == SIZE_MAX, #TYPE " empty test_any");  \
    CHECK(shmem_test_any_vector(nil, 0, NULL, SHMEM_CMP_EQ, NULL) == SIZE_MAX, #TYPE " empty test_any_vector"); \
    CHECK(shmem_test_some(nil, 0, NULL, NULL, SHMEM_CMP_EQ, (TYPE)0) == 0, #TYPE " empty test_some"); \
    CHECK(shmem_test_some_vector(nil, 0, NULL, NULL, SHMEM_CMP_EQ, NULL) == 0, #TYPE " empty test_some_vector"); \
    shmem_barrier_all();                                                                                \
  }
P2P_TYPES(P2P_TEST)

/* The deprecated short types: scalar wait_until and test only. */
#define SCALAR_TEST(TYPE, NAME)                                                                     \
  static TYPE sflag_##NAME;                                                                         \
  static void scalar_##NAME(void)                                                                   \
  {                                                                                                 \
    CHECK(shmem_test(&sflag_##NAME, SHMEM_CMP_NE, (TYPE)0) == 0, #TYPE " test before");            \
    shmem_barrier_all();                                                                            \
    shmem_p(&sflag_##NAME, (TYPE)7, right);                                                         \
    shmem_wait_until(&sflag_##NAME, SHMEM_CMP_EQ, (TYPE)7);                                         \
    CHECK(shmem_test(&sflag_##NAME, SHMEM_CMP_EQ, (TYPE)7) == 1, #TYPE " test after");             \
    shmem_barrier_all();                                                                            \
  }
SCALAR_ONLY_TYPES(SCALAR_TEST)

int main(void)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;

#define RUN_TEST(TYPE, NAME) test_##NAME();
#define RUN_SCALAR(TYPE, NAME) scalar_##NAME();
  P2P_TYPES(RUN_TEST)
  SCALAR_ONLY_TYPES(RUN_SCALAR)

  const int rc = progtest_finish("conf_c11_p2p");
  shmem_finalize();
  return rc;
}
