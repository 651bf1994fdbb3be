/* The C11 type-generic multi-element point-to-point routines used for their return values, as
 * programs use them: spin on shmem_test_all/_any/_some until the left neighbour's puts arrive,
 * take shmem_wait_until_any/_some's index or count, and the _vector forms the same way, on every
 * type of §9.10's table and on the deprecated short types (which Sandia OpenSHMEM's tests use with
 * these names). Each step checks the values that arrived and the indices returned. Compiled with
 * -std=c11: the selections must have the routines' types (int for test_all, size_t for _any and
 * _some, void for wait_until_all). */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#include "progtest.h"

#define TYPES(X)                                                                                  \
  X(short, short) X(unsigned short, ushort) X(int, int) X(long, long) X(long long, longlong)      \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32) \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

static int me, npes, left, right;

/* iv[0..3] of each PE are written by its left neighbour only; barriers separate the steps. */
#define RING_TEST(TYPE, NAME)                                                                        \
  static TYPE iv_##NAME[4];                                                                          \
  static void ring_##NAME(void)                                                                      \
  {                                                                                                  \
    TYPE* iv        = iv_##NAME;                                                                     \
    const TYPE mine = (TYPE)(me + 1), theirs = (TYPE)(left + 1);                                     \
    size_t idx[4], i, n;                                                                             \
    const int only2[4] = {1, 1, 0, 1};                                                               \
    shmem_barrier_all();                                                                             \
    /* test_any: one element arrives; the index returned is that element's. */                       \
    shmem_p(&iv[2], mine, right);                                                                    \
    while ((i = shmem_test_any(iv, 4, NULL, SHMEM_CMP_NE, (TYPE)0)) == SIZE_MAX)                     \
      ;                                                                                              \
    CHECK(i == 2 && iv[2] == theirs, #TYPE " test_any returned %zu", i);                             \
    shmem_barrier_all();                                                                             \
    /* test_some: two more arrive; the count and the indices returned are those of the three. */     \
    shmem_p(&iv[0], mine, right);                                                                    \
    shmem_p(&iv[3], mine, right);                                                                    \
    while ((n = shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_NE, (TYPE)0)) < 3)                       \
      ;                                                                                              \
    CHECK(n == 3 && idx[0] == 0 && idx[1] == 2 && idx[2] == 3, #TYPE " test_some returned %zu", n);  \
    shmem_barrier_all();                                                                             \
    /* test_all: the last one arrives; then every element holds the neighbour's value. */            \
    shmem_p(&iv[1], mine, right);                                                                    \
    int spins = 0;                                                                                   \
    while (!shmem_test_all(iv, 4, NULL, SHMEM_CMP_NE, (TYPE)0))                                      \
      ++spins;                                                                                       \
    CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_EQ, theirs) == 1, #TYPE " test_all after %d spins", spins); \
    CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_EQ, mine) == (left == me), #TYPE " test_all false"); \
    /* wait_until_any and _some on the values now in place. */                                      \
    i = shmem_wait_until_any(iv, 4, only2, SHMEM_CMP_EQ, theirs);                                    \
    CHECK(i == 2, #TYPE " wait_until_any returned %zu", i);                                          \
    n = shmem_wait_until_some(iv, 4, idx, only2, SHMEM_CMP_EQ, theirs);                              \
    CHECK(n == 1 && idx[0] == 2, #TYPE " wait_until_some returned %zu", n);                          \
    n = shmem_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, theirs);                               \
    CHECK(n == 4 && idx[3] == 3, #TYPE " wait_until_some returned %zu", n);                          \
    shmem_barrier_all();                                                                             \
    /* The _vector forms: element k becomes 2 x (left + 1) + k. */                                   \
    TYPE want[4], put[4];                                                                            \
    for (int k = 0; k < 4; ++k) {                                                                    \
      want[k] = (TYPE)(2 * (left + 1) + k);                                                          \
      put[k]  = (TYPE)(2 * (me + 1) + k);                                                            \
    }                                                                                                \
    shmem_p(&iv[1], put[1], right);                                                                  \
    while ((i = shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, want)) == SIZE_MAX)                 \
      ;                                                                                              \
    CHECK(i == 1 && iv[1] == want[1], #TYPE " test_any_vector returned %zu", i);                     \
    shmem_barrier_all();                                                                             \
    shmem_p(&iv[3], put[3], right);                                                                  \
    while ((n = shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, want)) < 2)                   \
      ;                                                                                              \
    CHECK(n == 2 && idx[0] == 1 && idx[1] == 3, #TYPE " test_some_vector returned %zu", n);          \
    shmem_barrier_all();                                                                             \
    shmem_p(&iv[0], put[0], right);                                                                  \
    shmem_p(&iv[2], put[2], right);                                                                  \
    while (!shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want))                                  \
      ;                                                                                              \
    for (int k = 0; k < 4; ++k)                                                                      \
      CHECK(iv[k] == want[k], #TYPE " element %d after test_all_vector", k);                         \
    i = shmem_wait_until_any_vector(iv, 4, only2, SHMEM_CMP_EQ, want);                               \
    CHECK(i == 2, #TYPE " wait_until_any_vector returned %zu", i);                                   \
    n = shmem_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, want);                          \
    CHECK(n == 4, #TYPE " wait_until_some_vector returned %zu", n);                                  \
    shmem_barrier_all();                                                                             \
    /* wait_until_all (void) and wait_until_all_vector: wait for a last round of puts (+100 each, */ \
    /* so that every new value is above every old one). */                                          \
    for (int k = 0; k < 4; ++k)                                                                      \
      shmem_p(&iv[k], (TYPE)(put[k] + 100), right);                                                  \
    shmem_wait_until_all(iv, 4, NULL, SHMEM_CMP_GT, want[3]);                                        \
    CHECK(iv[0] == (TYPE)(want[0] + 100) && iv[3] == (TYPE)(want[3] + 100), #TYPE " wait_until_all"); \
    for (int k = 0; k < 4; ++k)                                                                      \
      want[k] = (TYPE)(want[k] + 100);                                                               \
    shmem_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want);                                    \
    for (int k = 0; k < 4; ++k)                                                                      \
      CHECK(iv[k] == want[k], #TYPE " element %d after wait_until_all_vector", k);                   \
    shmem_barrier_all();                                                                             \
  }
TYPES(RING_TEST)

int main(void)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
#define RUN(TYPE, NAME) ring_##NAME();
  TYPES(RUN)
  const int rc = progtest_finish("conf_c11_p2p_returns");
  shmem_finalize();
  return rc;
}
