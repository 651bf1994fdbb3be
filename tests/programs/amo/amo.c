/* Every AMO family on counters at PE 0 from every PE: fetch_inc, inc, fetch_add, add,
 * compare_swap, swap, set, fetch, and/or/xor with their fetching forms, the nbi fetching forms,
 * on every type of the 1.5 tables, through the plain names and the shmem_ctx_ names (on a
 * created context), plus the deprecated 1.3 names. Checks final values, and that fetched values
 * are unique (each PE's increments got distinct tickets). */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>

#include "progtest.h"

#define K 4      /* operations per PE per phase */
#define MAXPE 64

static int me, npes;

/* The context the AMOs under test use. shmem_barrier_all completes the default context only
 * (OpenSHMEM 1.5): a created context's AMOs complete by its quiet, before the barrier. */
static shmem_ctx_t cur_ctx = SHMEM_CTX_DEFAULT;
static void barrier_all(void)
{
  shmem_ctx_quiet(cur_ctx);
  shmem_barrier_all();
}

static void reset_barrier(void) { barrier_all(); }

/* PE 0: v[0..count) is a permutation of lo..lo+count-1. */
static void check_perm(const char* what, const unsigned long long* v, int count, unsigned long long lo)
{
  char seen[MAXPE * K + 1] = {0};
  int bad = 0;
  for (int i = 0; i < count; ++i) {
    if (v[i] < lo || v[i] >= lo + (unsigned long long)count || seen[v[i] - lo])
      ++bad;
    else
      seen[v[i] - lo] = 1;
  }
  CHECK(bad == 0, "%s: fetched values are not unique tickets %llu..%llu (%d bad)", what, lo, lo + count - 1, bad);
}

static int cmp_ull(const void* a, const void* b)
{
  const unsigned long long x = *(const unsigned long long*)a, y = *(const unsigned long long*)b;
  return x < y ? -1 : x > y;
}

/* PE 0: the values are pairwise distinct. */
static void check_distinct(const char* what, unsigned long long* v, int count)
{
  qsort(v, (size_t)count, sizeof v[0], cmp_ull);
  int dup = 0;
  for (int i = 1; i < count; ++i)
    dup += v[i] == v[i - 1];
  CHECK(dup == 0, "%s: %d duplicate fetched values", what, dup);
}

/* Plain name on the default context, shmem_ctx_ name otherwise. */
#define AMO(NAME, ...) (dflt ? shmem_##NAME(__VA_ARGS__) : shmem_ctx_##NAME(ctx, __VA_ARGS__))
#define QUIET() (dflt ? shmem_quiet() : shmem_ctx_quiet(ctx))

/* Every PE sends its K values to PE 0's res[me*K..]; PE 0 gets them as unsigned long long. */
#define GATHER(T, NAME, local, n_each)                                          \
  do {                                                                          \
    shmem_##NAME##_put(&NAME##_res[me * (n_each)], local, (n_each), 0);         \
    barrier_all();                                                        \
    for (int q = 0; q < npes * (n_each); ++q)                                   \
      all[q] = (unsigned long long)NAME##_res[q];                               \
  } while (0)

/* ------------------------------------------------------------------ standard AMO types */
#define DEFINE_STD(T, NAME)                                                                            \
  static T NAME##_ctr, NAME##_res[MAXPE * K];                                                          \
  static void std_##NAME(shmem_ctx_t ctx)                                                              \
  {                                                                                                    \
    const int dflt = ctx == SHMEM_CTX_DEFAULT;                                                         \
    const char* what = dflt ? #NAME " (default)" : #NAME " (ctx)";                                     \
    T mine[K];                                                                                         \
    unsigned long long all[MAXPE * K];                                                                 \
    const T nk = (T)(npes * K);                                                                        \
    const T sum = (T)(K * npes * (npes + 1) / 2);                                                      \
    int k;                                                                                             \
    /* fetch_inc: unique tickets */                                                                    \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k)                                                                            \
      mine[k] = AMO(NAME##_atomic_fetch_inc, &NAME##_ctr, 0);                                          \
    GATHER(T, NAME, mine, K);                                                                          \
    if (me == 0) {                                                                                     \
      CHECK(NAME##_ctr == nk, "%s fetch_inc final", what);                                             \
      check_perm(what, all, npes * K, 0);                                                              \
    }                                                                                                  \
    barrier_all();                                                                               \
    /* inc, then fetch from every PE */                                                                \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k)                                                                            \
      AMO(NAME##_atomic_inc, &NAME##_ctr, 0);                                                          \
    barrier_all();                                                                               \
    CHECK(AMO(NAME##_atomic_fetch, &NAME##_ctr, 0) == nk, "%s inc final (fetched)", what);             \
    barrier_all();                                                                               \
    /* fetch_add me+1: distinct fetched values, final sum */                                           \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k)                                                                            \
      mine[k] = AMO(NAME##_atomic_fetch_add, &NAME##_ctr, (T)(me + 1), 0);                             \
    GATHER(T, NAME, mine, K);                                                                          \
    if (me == 0) {                                                                                     \
      CHECK(NAME##_ctr == sum, "%s fetch_add final", what);                                            \
      check_distinct(what, all, npes * K);                                                             \
    }                                                                                                  \
    barrier_all();                                                                               \
    /* add */                                                                                          \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k)                                                                            \
      AMO(NAME##_atomic_add, &NAME##_ctr, (T)(me + 1), 0);                                             \
    barrier_all();                                                                               \
    if (me == 0)                                                                                       \
      CHECK(NAME##_ctr == sum, "%s add final", what);                                                  \
    barrier_all();                                                                               \
    /* compare_swap: a ticket lock-free increment, K successes per PE */                               \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k) {                                                                          \
      T cur = AMO(NAME##_atomic_fetch, &NAME##_ctr, 0);                                                \
      for (;;) {                                                                                       \
        T old = AMO(NAME##_atomic_compare_swap, &NAME##_ctr, cur, (T)(cur + 1), 0);                    \
        if (old == cur)                                                                                \
          break;                                                                                       \
        cur = old;                                                                                     \
      }                                                                                                \
      mine[k] = cur;                                                                                   \
    }                                                                                                  \
    GATHER(T, NAME, mine, K);                                                                          \
    if (me == 0) {                                                                                     \
      CHECK(NAME##_ctr == nk, "%s compare_swap final", what);                                          \
      check_perm(what, all, npes * K, 0);                                                              \
    }                                                                                                  \
    barrier_all();                                                                               \
    /* swap me+1: the fetched values and the final value are 0..npes */                               \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    mine[0] = AMO(NAME##_atomic_swap, &NAME##_ctr, (T)(me + 1), 0);                                    \
    GATHER(T, NAME, mine, 1);                                                                          \
    if (me == 0) {                                                                                     \
      all[npes] = (unsigned long long)NAME##_ctr;                                                      \
      check_perm(what, all, npes + 1, 0);                                                              \
    }                                                                                                  \
    barrier_all();                                                                               \
    /* set a slot each, fetch the neighbour's */                                                       \
    AMO(NAME##_atomic_set, &NAME##_res[me], (T)(me * 3 + 1), 0);                                       \
    barrier_all();                                                                               \
    CHECK(AMO(NAME##_atomic_fetch, &NAME##_res[(me + 1) % npes], 0) == (T)(((me + 1) % npes) * 3 + 1), \
          "%s set/fetch", what);                                                                       \
    barrier_all();                                                                               \
    /* nbi fetching forms: results land at quiet */                                                   \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k)                                                                            \
      AMO(NAME##_atomic_fetch_inc_nbi, &mine[k], &NAME##_ctr, 0);                                      \
    QUIET();                                                                                           \
    GATHER(T, NAME, mine, K);                                                                          \
    if (me == 0) {                                                                                     \
      CHECK(NAME##_ctr == nk, "%s fetch_inc_nbi final", what);                                         \
      check_perm(what, all, npes * K, 0);                                                              \
    }                                                                                                  \
    barrier_all();                                                                               \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    for (k = 0; k < K; ++k)                                                                            \
      AMO(NAME##_atomic_fetch_add_nbi, &mine[k], &NAME##_ctr, (T)(me + 1), 0);                         \
    QUIET();                                                                                           \
    GATHER(T, NAME, mine, K);                                                                          \
    if (me == 0) {                                                                                     \
      CHECK(NAME##_ctr == sum, "%s fetch_add_nbi final", what);                                        \
      check_distinct(what, all, npes * K);                                                             \
    }                                                                                                  \
    barrier_all();                                                                               \
    /* compare_swap_nbi: exactly one PE wins 0 -> me+1 */                                              \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    AMO(NAME##_atomic_compare_swap_nbi, &mine[0], &NAME##_ctr, (T)0, (T)(me + 1), 0);                  \
    QUIET();                                                                                           \
    GATHER(T, NAME, mine, 1);                                                                          \
    if (me == 0) {                                                                                     \
      int winners = 0, winner = -1;                                                                    \
      for (int q = 0; q < npes; ++q)                                                                   \
        if (all[q] == 0) {                                                                             \
          ++winners;                                                                                   \
          winner = q;                                                                                  \
        }                                                                                              \
      CHECK(winners == 1 && NAME##_ctr == (T)(winner + 1), "%s compare_swap_nbi: %d winners", what,   \
            winners);                                                                                  \
    }                                                                                                  \
    barrier_all();                                                                               \
    /* swap_nbi and fetch_nbi */                                                                       \
    NAME##_ctr = 0;                                                                                    \
    reset_barrier();                                                                                   \
    AMO(NAME##_atomic_swap_nbi, &mine[0], &NAME##_ctr, (T)(me + 1), 0);                                \
    QUIET();                                                                                           \
    GATHER(T, NAME, mine, 1);                                                                          \
    if (me == 0) {                                                                                     \
      all[npes] = (unsigned long long)NAME##_ctr;                                                      \
      check_perm(what, all, npes + 1, 0);                                                              \
    }                                                                                                  \
    barrier_all();                                                                               \
    AMO(NAME##_atomic_set, &NAME##_res[me], (T)(me + 1), 0);                                           \
    barrier_all();                                                                               \
    {                                                                                                  \
      T f = (T)0;                                                                                      \
      AMO(NAME##_atomic_fetch_nbi, &f, &NAME##_res[(me + 1) % npes], 0);                               \
      QUIET();                                                                                         \
      CHECK(f == (T)(((me + 1) % npes) + 1), "%s fetch_nbi", what);                                    \
    }                                                                                                  \
    barrier_all();                                                                               \
  }

DEFINE_STD(int, int)
DEFINE_STD(long, long)
DEFINE_STD(long long, longlong)
DEFINE_STD(unsigned int, uint)
DEFINE_STD(unsigned long, ulong)
DEFINE_STD(unsigned long long, ulonglong)
DEFINE_STD(int32_t, int32)
DEFINE_STD(int64_t, int64)
DEFINE_STD(uint32_t, uint32)
DEFINE_STD(uint64_t, uint64)
DEFINE_STD(size_t, size)
DEFINE_STD(ptrdiff_t, ptrdiff)

/* ------------------------------------------------------------------ bitwise AMO types */
#define DEFINE_BIT(T, NAME)                                                                                 \
  static T NAME##_bits, NAME##_bits2;                                                                       \
  static void bit_##NAME(shmem_ctx_t ctx)                                                                   \
  {                                                                                                         \
    const int dflt = ctx == SHMEM_CTX_DEFAULT;                                                              \
    const char* what = dflt ? #NAME " (default)" : #NAME " (ctx)";                                          \
    const T mybit = (T)((T)1 << me);                                                                        \
    const T all = (T)(((T)1 << npes) - 1);                                                                  \
    T f, fn;                                                                                                \
    /* or: fetched value lacks my bit, final has all */                                                     \
    NAME##_bits = NAME##_bits2 = 0;                                                                         \
    barrier_all();                                                                                    \
    f = AMO(NAME##_atomic_fetch_or, &NAME##_bits, mybit, 0);                                                \
    AMO(NAME##_atomic_or, &NAME##_bits2, mybit, 0);                                                         \
    barrier_all();                                                                                    \
    CHECK((f & mybit) == 0, "%s fetch_or fetched", what);                                                   \
    if (me == 0)                                                                                            \
      CHECK(NAME##_bits == all && NAME##_bits2 == all, "%s or final", what);                                \
    barrier_all();                                                                                    \
    /* and: clear my bit from all ones */                                                                   \
    NAME##_bits = NAME##_bits2 = (T)~(T)0;                                                                  \
    barrier_all();                                                                                    \
    f = AMO(NAME##_atomic_fetch_and, &NAME##_bits, (T)~mybit, 0);                                           \
    AMO(NAME##_atomic_and, &NAME##_bits2, (T)~mybit, 0);                                                    \
    barrier_all();                                                                                    \
    CHECK((f & mybit) != 0, "%s fetch_and fetched", what);                                                  \
    if (me == 0)                                                                                            \
      CHECK(NAME##_bits == (T)~all && NAME##_bits2 == (T)~all, "%s and final", what);                       \
    barrier_all();                                                                                    \
    /* xor: toggle my bit on */                                                                             \
    NAME##_bits = NAME##_bits2 = 0;                                                                         \
    barrier_all();                                                                                    \
    f = AMO(NAME##_atomic_fetch_xor, &NAME##_bits, mybit, 0);                                               \
    AMO(NAME##_atomic_xor, &NAME##_bits2, mybit, 0);                                                        \
    barrier_all();                                                                                    \
    CHECK((f & mybit) == 0, "%s fetch_xor fetched", what);                                                  \
    if (me == 0)                                                                                            \
      CHECK(NAME##_bits == all && NAME##_bits2 == all, "%s xor final", what);                               \
    barrier_all();                                                                                    \
    /* nbi forms: xor my bit off again, or it on, and it off */                                             \
    AMO(NAME##_atomic_fetch_xor_nbi, &fn, &NAME##_bits, mybit, 0);                                          \
    QUIET();                                                                                                \
    CHECK((fn & mybit) != 0, "%s fetch_xor_nbi fetched", what);                                             \
    barrier_all();                                                                                    \
    if (me == 0)                                                                                            \
      CHECK(NAME##_bits == 0, "%s fetch_xor_nbi final", what);                                              \
    barrier_all();                                                                                    \
    AMO(NAME##_atomic_fetch_or_nbi, &fn, &NAME##_bits, mybit, 0);                                           \
    QUIET();                                                                                                \
    CHECK((fn & mybit) == 0, "%s fetch_or_nbi fetched", what);                                              \
    barrier_all();                                                                                    \
    if (me == 0)                                                                                            \
      CHECK(NAME##_bits == all, "%s fetch_or_nbi final", what);                                             \
    barrier_all();                                                                                    \
    AMO(NAME##_atomic_fetch_and_nbi, &fn, &NAME##_bits, (T)~mybit, 0);                                      \
    QUIET();                                                                                                \
    CHECK((fn & mybit) != 0, "%s fetch_and_nbi fetched", what);                                             \
    barrier_all();                                                                                    \
    if (me == 0)                                                                                            \
      CHECK(NAME##_bits == 0, "%s fetch_and_nbi final", what);                                              \
    barrier_all();                                                                                    \
  }

DEFINE_BIT(unsigned int, uint)
DEFINE_BIT(unsigned long, ulong)
DEFINE_BIT(unsigned long long, ulonglong)
DEFINE_BIT(int32_t, int32)
DEFINE_BIT(int64_t, int64)
DEFINE_BIT(uint32_t, uint32)
DEFINE_BIT(uint64_t, uint64)

/* ------------------------------------------------------------------ extended types (float, double) */
#define DEFINE_EXT(T, NAME)                                                                  \
  static T NAME##_x, NAME##_slots[MAXPE];                                                    \
  static void ext_##NAME(shmem_ctx_t ctx)                                                    \
  {                                                                                          \
    const int dflt = ctx == SHMEM_CTX_DEFAULT;                                               \
    const char* what = dflt ? #NAME " (default)" : #NAME " (ctx)";                           \
    NAME##_x = (T)0;                                                                         \
    barrier_all();                                                                     \
    T f = AMO(NAME##_atomic_swap, &NAME##_x, (T)(me + 1) + (T)0.5, 0);                       \
    AMO(NAME##_atomic_set, &NAME##_slots[me], f, 0);                                         \
    barrier_all();                                                                     \
    if (me == 0) {                                                                           \
      unsigned long long v[MAXPE + 1];                                                       \
      for (int q = 0; q < npes; ++q)                                                         \
        v[q] = NAME##_slots[q] == (T)0 ? 0 : (unsigned long long)(NAME##_slots[q] - (T)0.5); \
      v[npes] = (unsigned long long)(NAME##_x - (T)0.5);                                     \
      check_perm(what, v, npes + 1, 0);                                                      \
    }                                                                                        \
    barrier_all();                                                                     \
    T g = AMO(NAME##_atomic_fetch, &NAME##_slots[me], 0);                                    \
    T gn = (T)-1;                                                                            \
    AMO(NAME##_atomic_fetch_nbi, &gn, &NAME##_slots[me], 0);                                 \
    QUIET();                                                                                 \
    CHECK(g == gn, "%s fetch vs fetch_nbi", what);                                           \
    barrier_all();                                                                     \
    NAME##_x = (T)0;                                                                         \
    barrier_all();                                                                     \
    AMO(NAME##_atomic_swap_nbi, &f, &NAME##_x, (T)(me + 1) + (T)0.25, 0);                    \
    QUIET();                                                                                 \
    AMO(NAME##_atomic_set, &NAME##_slots[me], f, 0);                                         \
    barrier_all();                                                                     \
    if (me == 0) {                                                                           \
      unsigned long long v[MAXPE + 1];                                                       \
      for (int q = 0; q < npes; ++q)                                                         \
        v[q] = NAME##_slots[q] == (T)0 ? 0 : (unsigned long long)(NAME##_slots[q] - (T)0.25); \
      v[npes] = (unsigned long long)(NAME##_x - (T)0.25);                                    \
      check_perm(what, v, npes + 1, 0);                                                      \
    }                                                                                        \
    barrier_all();                                                                     \
  }

DEFINE_EXT(float, float)
DEFINE_EXT(double, double)

/* ------------------------------------------------------------------ deprecated 1.3 names */
static int d_int;
static long d_long, d_longs[MAXPE];
static long long d_ll;
static float d_float;
static double d_double;

static void deprecated(void)
{
  d_int = 0;
  d_long = 0;
  d_ll = 0;
  d_float = 0;
  d_double = 0;
  barrier_all();
  int t = shmem_int_finc(&d_int, 0);
  shmem_int_inc(&d_int, 0);
  shmem_int_add(&d_int, 2, 0);
  long f = shmem_long_fadd(&d_long, me + 1, 0);
  shmem_long_add(&d_long, 1, 0);
  shmem_long_inc(&d_long, 0);
  long long c;
  long long cur = 0;
  while ((c = shmem_longlong_cswap(&d_ll, cur, cur + 1, 0)) != cur)
    cur = c;
  shmem_longlong_finc(&d_ll, 0);
  shmem_longlong_fadd(&d_ll, 10, 0);
  float sf = shmem_float_swap(&d_float, (float)(me + 1), 0);
  double sd = shmem_double_swap(&d_double, (double)(me + 1), 0);
  shmem_long_set(&d_longs[me], f, 0);
  barrier_all();
  CHECK(t >= 0 && t < 4 * npes, "shmem_int_finc fetched %d", t);
  CHECK(sf >= 0 && sf <= npes && sd >= 0 && sd <= npes, "float/double swap fetched %g %g", (double)sf, sd);
  if (me == 0) {
    CHECK(d_int == 4 * npes, "int finc/inc/add final %d", d_int);
    CHECK(d_long == (long)npes * (npes + 1) / 2 + 2L * npes, "long fadd/add/inc final %ld", d_long);
    CHECK(d_ll == 12LL * npes, "longlong cswap/finc/fadd final %lld", d_ll);
    CHECK(shmem_int_fetch(&d_int, 0) == 4 * npes, "shmem_int_fetch");
    unsigned long long v[MAXPE];
    for (int q = 0; q < npes; ++q)
      v[q] = (unsigned long long)d_longs[q];
    check_distinct("long fadd (deprecated)", v, npes);
  }
  barrier_all();
  CHECK(shmem_long_fetch(&d_longs[me], 0) == f, "shmem_long_fetch");
  CHECK(shmem_double_fetch(&d_double, 0) >= 1, "shmem_double_fetch");
  shmem_float_set(&d_float, 2.5f, 0);
  shmem_double_set(&d_double, 3.5, 0);
  barrier_all();
  if (me == 0)
    CHECK(d_float == 2.5f && d_double == 3.5, "float/double set");
  barrier_all();
}

int main(void)
{
  shmem_init();
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  if (npes > 30) {
    if (me == 0)
      printf("amo: needs at most 30 PEs\n");
    return 2;
  }
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(SHMEM_CTX_SERIALIZED, &ctx) == 0, "shmem_ctx_create");
  shmem_ctx_t ctxs[2] = {SHMEM_CTX_DEFAULT, ctx};
  for (int c = 0; c < 2; ++c) {
    cur_ctx = ctxs[c];
    std_int(ctxs[c]);
    std_long(ctxs[c]);
    std_longlong(ctxs[c]);
    std_uint(ctxs[c]);
    std_ulong(ctxs[c]);
    std_ulonglong(ctxs[c]);
    std_int32(ctxs[c]);
    std_int64(ctxs[c]);
    std_uint32(ctxs[c]);
    std_uint64(ctxs[c]);
    std_size(ctxs[c]);
    std_ptrdiff(ctxs[c]);
    bit_uint(ctxs[c]);
    bit_ulong(ctxs[c]);
    bit_ulonglong(ctxs[c]);
    bit_int32(ctxs[c]);
    bit_int64(ctxs[c]);
    bit_uint32(ctxs[c]);
    bit_uint64(ctxs[c]);
    ext_float(ctxs[c]);
    ext_double(ctxs[c]);
  }
  cur_ctx = SHMEM_CTX_DEFAULT;
  deprecated();
  shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("amo");
  shmem_finalize();
  return rc;
}
