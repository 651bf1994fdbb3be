/* OpenSHMEM 1.5 C11 type-generic atomics over their WHOLE type tables (typedefs included):
 *  standard AMO types: shmem_atomic_compare_swap, _fetch_inc, _inc, _fetch_add, _add and the
 *                      non-blocking fetching forms _compare_swap_nbi, _fetch_inc_nbi, _fetch_add_nbi;
 *  extended AMO types: shmem_atomic_fetch, _set, _swap, _fetch_nbi, _swap_nbi;
 *  bitwise AMO types:  shmem_atomic_fetch_and, _and, _fetch_or, _or, _fetch_xor, _xor and
 *                      _fetch_and_nbi, _fetch_or_nbi, _fetch_xor_nbi;
 * each without and with a leading shmem_ctx_t. Each PE updates its right neighbour's objects;
 * fetched values and final values are checked. Compiled with -std=c11 (and gnu11). */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#include "progtest.h"

#define STANDARD_TYPES(X)                                                                         \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)  \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)        \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define EXTENDED_TYPES(X) STANDARD_TYPES(X) X(float, float) X(double, double)
#define BITWISE_TYPES(X)                                                                          \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32) \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

static int me, npes, right;
static shmem_ctx_t ctx;

/* Every test starts from objects its owner initialized, then a barrier. */
#define STANDARD_TEST(TYPE, NAME)                                                                  \
  static TYPE std_##NAME[8];                                                                      \
  static void standard_##NAME(void)                                                               \
  {                                                                                               \
    for (int i = 0; i < 8; ++i)                                                                   \
      std_##NAME[i] = 0;                                                                          \
    shmem_barrier_all();                                                                          \
    TYPE* s = std_##NAME;                                                                         \
    shmem_atomic_inc(&s[0], right);                                                               \
    shmem_atomic_inc(ctx, &s[0], right);                                                          \
    const TYPE f0 = shmem_atomic_fetch_inc(&s[1], right);                                         \
    const TYPE f1 = shmem_atomic_fetch_inc(ctx, &s[1], right);                                    \
    shmem_atomic_add(&s[2], (TYPE)5, right);                                                      \
    shmem_atomic_add(ctx, &s[2], (TYPE)2, right);                                                 \
    const TYPE f2 = shmem_atomic_fetch_add(&s[3], (TYPE)3, right);                                \
    const TYPE f3 = shmem_atomic_fetch_add(ctx, &s[3], (TYPE)4, right);                           \
    const TYPE f4 = shmem_atomic_compare_swap(&s[4], (TYPE)0, (TYPE)9, right);                    \
    const TYPE f5 = shmem_atomic_compare_swap(ctx, &s[4], (TYPE)1, (TYPE)5, right);               \
    CHECK(f0 == 0 && f1 == 1, #TYPE " fetch_inc");                                                \
    CHECK(f2 == 0 && f3 == 3, #TYPE " fetch_add");                                                \
    CHECK(f4 == 0 && f5 == 9, #TYPE " compare_swap");                                             \
    TYPE nb[6];                                                                                   \
    shmem_atomic_fetch_inc_nbi(&nb[0], &s[5], right);                                             \
    shmem_quiet();                                                                                \
    shmem_atomic_fetch_inc_nbi(ctx, &nb[1], &s[5], right);                                        \
    shmem_ctx_quiet(ctx);                                                                         \
    shmem_atomic_fetch_add_nbi(&nb[2], &s[6], (TYPE)6, right);                                    \
    shmem_quiet();                                                                                \
    shmem_atomic_fetch_add_nbi(ctx, &nb[3], &s[6], (TYPE)1, right);                               \
    shmem_ctx_quiet(ctx);                                                                         \
    shmem_atomic_compare_swap_nbi(&nb[4], &s[7], (TYPE)0, (TYPE)3, right);                        \
    shmem_quiet();                                                                                \
    shmem_atomic_compare_swap_nbi(ctx, &nb[5], &s[7], (TYPE)3, (TYPE)4, right);                   \
    shmem_ctx_quiet(ctx);                                                                         \
    CHECK(nb[0] == 0 && nb[1] == 1, #TYPE " fetch_inc_nbi");                                      \
    CHECK(nb[2] == 0 && nb[3] == 6, #TYPE " fetch_add_nbi");                                      \
    CHECK(nb[4] == 0 && nb[5] == 3, #TYPE " compare_swap_nbi");                                   \
    shmem_quiet();                                                                                \
    shmem_barrier_all();                                                                          \
    static const int final[8] = {2, 2, 7, 7, 9, 2, 7, 4};                                         \
    for (int i = 0; i < 8; ++i)                                                                   \
      CHECK(s[i] == (TYPE)final[i], #TYPE " standard AMO final value %d", i);                     \
    shmem_barrier_all();                                                                          \
  }
STANDARD_TYPES(STANDARD_TEST)

#define EXTENDED_TEST(TYPE, NAME)                                                                  \
  static TYPE ext_##NAME[4];                                                                      \
  static void extended_##NAME(void)                                                               \
  {                                                                                               \
    for (int i = 0; i < 4; ++i)                                                                   \
      ext_##NAME[i] = 0;                                                                          \
    shmem_barrier_all();                                                                          \
    TYPE* e = ext_##NAME;                                                                         \
    shmem_atomic_set(&e[0], (TYPE)11, right);                                                     \
    shmem_atomic_set(ctx, &e[1], (TYPE)12, right);                                                \
    const TYPE w0 = shmem_atomic_swap(&e[2], (TYPE)13, right);                                    \
    const TYPE w1 = shmem_atomic_swap(ctx, &e[2], (TYPE)14, right);                               \
    CHECK(w0 == 0 && w1 == 13, #TYPE " swap");                                                    \
    shmem_quiet();                                                                                \
    shmem_ctx_quiet(ctx);                                                                         \
    const TYPE* ce = e;                                                                           \
    CHECK(shmem_atomic_fetch(&e[0], right) == (TYPE)11, #TYPE " set/fetch");                      \
    CHECK(shmem_atomic_fetch(ctx, ce + 1, right) == (TYPE)12, #TYPE " set/fetch (ctx, const)");   \
    TYPE nb[2];                                                                                   \
    shmem_atomic_fetch_nbi(&nb[0], ce + 2, right);                                                \
    shmem_quiet();                                                                                \
    shmem_atomic_swap_nbi(ctx, &nb[1], &e[3], (TYPE)15, right);                                   \
    shmem_ctx_quiet(ctx);                                                                         \
    CHECK(nb[0] == (TYPE)14 && nb[1] == 0, #TYPE " fetch_nbi/swap_nbi");                          \
    TYPE nb2;                                                                                     \
    shmem_atomic_fetch_nbi(ctx, &nb2, &e[3], right);                                              \
    shmem_ctx_quiet(ctx);                                                                         \
    CHECK(nb2 == (TYPE)15, #TYPE " fetch_nbi (ctx)");                                             \
    shmem_barrier_all();                                                                          \
    CHECK(e[0] == (TYPE)11 && e[1] == (TYPE)12 && e[2] == (TYPE)14 && e[3] == (TYPE)15,           \
          #TYPE " extended AMO final values");                                                    \
    shmem_barrier_all();                                                                          \
  }
EXTENDED_TYPES(EXTENDED_TEST)

#define BITWISE_TEST(TYPE, NAME)                                                                   \
  static TYPE bit_##NAME[6];                                                                      \
  static void bitwise_##NAME(void)                                                                \
  {                                                                                               \
    static const unsigned init[6] = {0xF0, 0, 0x0F, 0xF0, 0, 0x0F};                               \
    for (int i = 0; i < 6; ++i)                                                                   \
      bit_##NAME[i] = (TYPE)init[i];                                                              \
    shmem_barrier_all();                                                                          \
    TYPE* b = bit_##NAME;                                                                         \
    const TYPE a0 = shmem_atomic_fetch_and(&b[0], (TYPE)0x3C, right);                             \
    shmem_atomic_and(ctx, &b[0], (TYPE)0x10, right);                                              \
    shmem_atomic_or(&b[1], (TYPE)1, right);                                                       \
    shmem_quiet();                                                                                \
    const TYPE o1 = shmem_atomic_fetch_or(ctx, &b[1], (TYPE)2, right);                            \
    shmem_atomic_xor(&b[2], (TYPE)1, right);                                                      \
    shmem_quiet();                                                                                \
    const TYPE x2 = shmem_atomic_fetch_xor(ctx, &b[2], (TYPE)3, right);                           \
    CHECK(a0 == (TYPE)0xF0 && o1 == (TYPE)1 && x2 == (TYPE)0x0E, #TYPE " fetch_and/or/xor");      \
    TYPE nb[3];                                                                                   \
    shmem_atomic_fetch_and_nbi(&nb[0], &b[3], (TYPE)0x3C, right);                                 \
    shmem_atomic_fetch_or_nbi(ctx, &nb[1], &b[4], (TYPE)4, right);                                \
    shmem_atomic_fetch_xor_nbi(&nb[2], &b[5], (TYPE)0xFF, right);                                 \
    shmem_quiet();                                                                                \
    shmem_ctx_quiet(ctx);                                                                         \
    CHECK(nb[0] == (TYPE)0xF0 && nb[1] == 0 && nb[2] == (TYPE)0x0F, #TYPE " fetch_*_nbi");        \
    shmem_barrier_all();                                                                          \
    static const unsigned final[6] = {0x10, 3, 0x0D, 0x30, 4, 0xF0};                              \
    for (int i = 0; i < 6; ++i)                                                                   \
      CHECK(b[i] == (TYPE)final[i], #TYPE " bitwise AMO final value %d", i);                      \
    shmem_barrier_all();                                                                          \
  }
BITWISE_TYPES(BITWISE_TEST)

int main(void)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

#define RUN_STANDARD(TYPE, NAME) standard_##NAME();
#define RUN_EXTENDED(TYPE, NAME) extended_##NAME();
#define RUN_BITWISE(TYPE, NAME) bitwise_##NAME();
  STANDARD_TYPES(RUN_STANDARD)
  EXTENDED_TYPES(RUN_EXTENDED)
  BITWISE_TYPES(RUN_BITWISE)

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("conf_c11_amo");
  shmem_finalize();
  return rc;
}
