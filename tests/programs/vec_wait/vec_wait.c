/* Multi-element point-to-point synchronization (OpenSHMEM 1.5 §9.10) under unordered delivery:
 * every PE sets its element in an array on every PE (all-to-all), after a delay that depends on
 * its number; every PE collects them with wait_until_all/_any/_some, their _vector forms and the
 * test forms (status masks, indices, SIZE_MAX and 0 for empty sets), on int, long, uint64_t,
 * size_t and unsigned int elements. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "progtest.h"

#define MAXPES 64

static int iv[MAXPES];
static long lv[MAXPES];
static uint64_t uv[MAXPES];
static size_t sv[MAXPES];
static unsigned int wv[MAXPES];
static long long qv[MAXPES];

static int me, npes;

static void delay(void)
{
  usleep((useconds_t)(((me * 7) % 5) * 20));
}

int main(void)
{
  shmem_init();
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  if (npes > MAXPES) {
    if (me == 0)
      printf("FAIL: at most %d PEs\n", MAXPES);
    shmem_finalize();
    return 1;
  }
  size_t idx[MAXPES];
  int status[MAXPES];

  /* Empty sets. */
  CHECK(shmem_int_wait_until_any(iv, 0, NULL, SHMEM_CMP_EQ, 0) == SIZE_MAX, "any, nelems 0");
  CHECK(shmem_int_wait_until_some(iv, 0, idx, NULL, SHMEM_CMP_EQ, 0) == 0, "some, nelems 0");
  shmem_int_wait_until_all(iv, 0, NULL, SHMEM_CMP_EQ, 5); /* returns at once */
  for (int i = 0; i < npes; ++i)
    status[i] = 1;
  CHECK(shmem_int_wait_until_any(iv, (size_t)npes, status, SHMEM_CMP_EQ, 42) == SIZE_MAX, "any, all masked");
  CHECK(shmem_int_test_any(iv, (size_t)npes, status, SHMEM_CMP_EQ, 42) == SIZE_MAX, "test_any, all masked");
  CHECK(shmem_int_test_some(iv, (size_t)npes, idx, status, SHMEM_CMP_EQ, 42) == 0, "test_some, all masked");
  CHECK(shmem_int_test_all(iv, 0, NULL, SHMEM_CMP_EQ, 42) == 1, "test_all, nelems 0");
  /* Nothing satisfied yet. */
  CHECK(shmem_int_test_any(iv, (size_t)npes, NULL, SHMEM_CMP_EQ, 42) == SIZE_MAX, "test_any early");
  CHECK(shmem_int_test_some(iv, (size_t)npes, idx, NULL, SHMEM_CMP_EQ, 42) == 0, "test_some early");
  CHECK(shmem_int_test_all(iv, (size_t)npes, NULL, SHMEM_CMP_EQ, 42) == 0, "test_all early");
  shmem_barrier_all();

  /* 1. wait_until_all on int: everyone sets iv[me] = 1 everywhere. */
  delay();
  for (int p = 0; p < npes; ++p)
    shmem_int_atomic_set(&iv[me], 1, p);
  shmem_int_wait_until_all(iv, (size_t)npes, NULL, SHMEM_CMP_EQ, 1);
  for (int i = 0; i < npes; ++i)
    CHECK(iv[i] == 1, "all: iv[%d] = %d", i, iv[i]);

  /* 2. wait_until_any on long, collecting everyone with the status mask. */
  delay();
  for (int p = 0; p < npes; ++p)
    shmem_long_atomic_set(&lv[me], (long)me + 1, p);
  memset(status, 0, sizeof status);
  for (int k = 0; k < npes; ++k) {
    const size_t i = shmem_long_wait_until_any(lv, (size_t)npes, status, SHMEM_CMP_GT, 0);
    CHECK(i < (size_t)npes && status[i] == 0, "any returned %zu (k %d)", i, k);
    if (i < (size_t)npes) {
      CHECK(lv[i] == (long)i + 1, "any: lv[%zu] = %ld", i, lv[i]);
      status[i] = 1;
    }
  }
  CHECK(shmem_long_wait_until_any(lv, (size_t)npes, status, SHMEM_CMP_GT, 0) == SIZE_MAX, "any after all masked");

  /* 3. wait_until_some on uint64_t, and the indices it returns. */
  delay();
  for (int p = 0; p < npes; ++p)
    shmem_uint64_atomic_add(&uv[me], (uint64_t)me + 5, p);
  memset(status, 0, sizeof status);
  int seen = 0;
  while (seen < npes) {
    const size_t n = shmem_uint64_wait_until_some(uv, (size_t)npes, idx, status, SHMEM_CMP_NE, 0);
    CHECK(n >= 1 && n <= (size_t)(npes - seen), "some returned %zu with %d seen", n, seen);
    for (size_t k = 0; k < n; ++k) {
      CHECK(idx[k] < (size_t)npes && status[idx[k]] == 0, "some: index %zu", idx[k]);
      if (idx[k] < (size_t)npes) {
        CHECK(uv[idx[k]] == idx[k] + 5, "some: uv[%zu] = %llu", idx[k], (unsigned long long)uv[idx[k]]);
        status[idx[k]] = 1;
      }
    }
    seen += (int)n;
    if (n == 0)
      break;
  }

  /* 4. _vector forms on size_t: a different value per element. */
  size_t want[MAXPES];
  for (int i = 0; i < npes; ++i)
    want[i] = (size_t)(1000 + 3 * i);
  delay();
  for (int p = 0; p < npes; ++p)
    shmem_size_atomic_set(&sv[me], (size_t)(1000 + 3 * me), p);
  shmem_size_wait_until_all_vector(sv, (size_t)npes, NULL, SHMEM_CMP_EQ, want);
  for (int i = 0; i < npes; ++i)
    CHECK(sv[i] == want[i], "all_vector: sv[%d] = %zu", i, sv[i]);
  memset(status, 0, sizeof status);
  for (int k = 0; k < npes; ++k) {
    const size_t i = shmem_size_wait_until_any_vector(sv, (size_t)npes, status, SHMEM_CMP_EQ, want);
    CHECK(i < (size_t)npes, "any_vector %zu", i);
    if (i < (size_t)npes)
      status[i] = 1;
  }
  CHECK(shmem_size_wait_until_some_vector(sv, (size_t)npes, idx, NULL, SHMEM_CMP_EQ, want) == (size_t)npes,
        "some_vector: all satisfied");
  CHECK(shmem_size_test_all_vector(sv, (size_t)npes, NULL, SHMEM_CMP_EQ, want) == 1, "test_all_vector");
  want[0] += 1; /* element 0 no longer satisfies */
  CHECK(shmem_size_test_all_vector(sv, (size_t)npes, NULL, SHMEM_CMP_EQ, want) == 0, "test_all_vector, one off");
  CHECK(shmem_size_test_some_vector(sv, (size_t)npes, idx, NULL, SHMEM_CMP_EQ, want) == (size_t)npes - 1,
        "test_some_vector, one off");
  status[0] = 0;
  for (int i = 1; i < npes; ++i)
    status[i] = 1;
  CHECK(shmem_size_test_any_vector(sv, (size_t)npes, status, SHMEM_CMP_EQ, want) == SIZE_MAX, "test_any_vector");
  CHECK(shmem_size_test_any_vector(sv, (size_t)npes, status, SHMEM_CMP_LT, want) == 0, "test_any_vector LT");

  /* 5. test_all / test_any / test_some polling loops on unsigned int and long long. */
  shmem_barrier_all();
  delay();
  for (int p = 0; p < npes; ++p)
    shmem_uint_atomic_set(&wv[me], 9u, p);
  long polls = 0;
  while (!shmem_uint_test_all(wv, (size_t)npes, NULL, SHMEM_CMP_EQ, 9u))
    ++polls;
  for (int i = 0; i < npes; ++i)
    CHECK(wv[i] == 9u, "test_all: wv[%d] = %u", i, wv[i]);
  for (int p = 0; p < npes; ++p)
    shmem_longlong_atomic_set(&qv[me], -2LL - me, p);
  memset(status, 0, sizeof status);
  seen = 0;
  while (seen < npes) {
    size_t i = shmem_longlong_test_any(qv, (size_t)npes, status, SHMEM_CMP_LT, -1LL);
    if (i == SIZE_MAX)
      continue;
    CHECK(i < (size_t)npes && qv[i] == -2LL - (long long)i, "test_any: %zu", i);
    status[i] = 1;
    ++seen;
  }
  memset(status, 0, sizeof status);
  seen = 0;
  while (seen < npes) {
    const size_t n = shmem_longlong_test_some(qv, (size_t)npes, idx, status, SHMEM_CMP_LE, -2LL);
    for (size_t k = 0; k < n; ++k)
      status[idx[k]] = 1;
    seen += (int)n;
  }
  CHECK(seen == npes, "test_some collected %d", seen);

  const int rc = progtest_finish("vec_wait");
  shmem_finalize();
  return rc;
}
