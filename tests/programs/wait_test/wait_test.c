/* wait_until and test with every comparison, on every point-to-point type (the deprecated short
 * and unsigned short included), and the deprecated wait routines. The signalling PE sleeps first,
 * so the waiter really blocks (wait_until) or polls (test); intermediate values that do not
 * satisfy the comparison come first, separated from the final one by a fence (delivery is
 * unordered). Then every PE waits on its left neighbour, and PE 0 waits for a counter that all
 * the others increment. */
#include <shmem.h>
#include <unistd.h>

#include "progtest.h"

static int me, npes, right, left;

struct cmp_case {
  int cmp;
  const char* name;
  int init, intermediate, final, value;
};
static const struct cmp_case cases[] = {
    {SHMEM_CMP_EQ, "EQ", 0, 4, 5, 5},  {SHMEM_CMP_NE, "NE", 7, 7, 3, 7},  {SHMEM_CMP_GT, "GT", 0, 8, 9, 8},
    {SHMEM_CMP_GE, "GE", 0, 7, 8, 8},  {SHMEM_CMP_LT, "LT", 10, 3, 2, 3}, {SHMEM_CMP_LE, "LE", 10, 4, 3, 3},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* Per type: waiter PE 0, signaller PE 1 (wait_until, then test); then the ring. */
#define DEFINE_WAIT(T, NAME)                                                                          \
  static T NAME##_var;                                                                                \
  static void wait_##NAME(void)                                                                       \
  {                                                                                                   \
    for (int c = 0; c < NCASES; ++c) {                                                                \
      const struct cmp_case* k = &cases[c];                                                           \
      for (int use_test = 0; use_test < 2; ++use_test) {                                              \
        NAME##_var = (T)k->init;                                                                      \
        shmem_barrier_all();                                                                          \
        if (me == 0) {                                                                                \
          CHECK(shmem_##NAME##_test(&NAME##_var, k->cmp, (T)k->value) == 0, "%s %s: test true early", \
                #NAME, k->name);                                                                      \
          if (use_test) {                                                                             \
            long polls = 0;                                                                           \
            while (!shmem_##NAME##_test(&NAME##_var, k->cmp, (T)k->value))                            \
              ++polls;                                                                                \
            CHECK(polls > 0, "%s %s: test never polled", #NAME, k->name);                             \
          } else {                                                                                    \
            shmem_##NAME##_wait_until(&NAME##_var, k->cmp, (T)k->value);                              \
          }                                                                                           \
          CHECK(NAME##_var == (T)k->final, "%s %s%s: woke with %lld", #NAME, k->name,                 \
                use_test ? " (test)" : "", (long long)NAME##_var);                                    \
        } else if (me == 1) {                                                                         \
          usleep(20);                                                                                 \
          shmem_##NAME##_p(&NAME##_var, (T)k->intermediate, 0);                                       \
          shmem_fence();                                                                              \
          usleep(5);                                                                                  \
          shmem_##NAME##_p(&NAME##_var, (T)k->final, 0);                                              \
        }                                                                                             \
        shmem_barrier_all();                                                                          \
      }                                                                                               \
    }                                                                                                 \
    /* Ring: every PE waits for its left neighbour. */                                                \
    NAME##_var = (T)0;                                                                                \
    shmem_barrier_all();                                                                              \
    usleep((useconds_t)(me * 3));                                                                     \
    shmem_##NAME##_p(&NAME##_var, (T)(me + 1), right);                                                \
    shmem_##NAME##_wait_until(&NAME##_var, SHMEM_CMP_NE, (T)0);                                       \
    CHECK(NAME##_var == (T)(left + 1), "%s ring", #NAME);                                             \
    shmem_barrier_all();                                                                              \
  }

DEFINE_WAIT(int, int)
DEFINE_WAIT(long, long)
DEFINE_WAIT(long long, longlong)
DEFINE_WAIT(unsigned int, uint)
DEFINE_WAIT(unsigned long, ulong)
DEFINE_WAIT(unsigned long long, ulonglong)
DEFINE_WAIT(int32_t, int32)
DEFINE_WAIT(int64_t, int64)
DEFINE_WAIT(uint32_t, uint32)
DEFINE_WAIT(uint64_t, uint64)
DEFINE_WAIT(size_t, size)
DEFINE_WAIT(ptrdiff_t, ptrdiff)
DEFINE_WAIT(short, short)
DEFINE_WAIT(unsigned short, ushort)

static long counter;
static int ivar;
static long lvar;
static short svar;
static long long llvar;

int main(void)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
  if (npes < 2) {
    printf("wait_test: needs at least 2 PEs\n");
    return 2;
  }
  wait_int();
  wait_long();
  wait_longlong();
  wait_uint();
  wait_ulong();
  wait_ulonglong();
  wait_int32();
  wait_int64();
  wait_uint32();
  wait_uint64();
  wait_size();
  wait_ptrdiff();
  wait_short();
  wait_ushort();

  /* A counter incremented by every other PE. */
  counter = 0;
  shmem_barrier_all();
  if (me == 0) {
    shmem_long_wait_until(&counter, SHMEM_CMP_GE, npes - 1);
    CHECK(counter == npes - 1, "counter %ld", counter);
  } else {
    usleep((useconds_t)(10 * me));
    shmem_long_atomic_inc(&counter, 0);
  }
  shmem_barrier_all();

  /* Deprecated: shmem_TYPE_wait (while equal), shmem_wait_until and shmem_wait on long. */
  ivar = lvar = svar = llvar = 0;
  shmem_barrier_all();
  if (me == 0) {
    shmem_int_wait(&ivar, 0);
    shmem_long_wait(&lvar, 0);
    shmem_short_wait(&svar, 0);
    shmem_longlong_wait(&llvar, 0);
    CHECK(ivar == 1 && lvar == 2 && svar == 3 && llvar == 4, "deprecated wait: %d %ld %d %lld", ivar, lvar, svar, llvar);
  } else if (me == 1) {
    usleep(10);
    shmem_int_p(&ivar, 1, 0);
    shmem_long_p(&lvar, 2, 0);
    shmem_short_p(&svar, 3, 0);
    shmem_longlong_p(&llvar, 4, 0);
  }
  shmem_barrier_all();
  lvar = 0;
  shmem_barrier_all();
  if (me == 0) {
    shmem_wait_until(&lvar, SHMEM_CMP_GT, 5);
    CHECK(lvar == 6, "shmem_wait_until %ld", lvar);
    shmem_wait(&lvar, 6);
    CHECK(lvar == 7, "shmem_wait %ld", lvar);
  } else if (me == 1) {
    usleep(10);
    shmem_long_p(&lvar, 6, 0);
    shmem_quiet();
    usleep(10);
    shmem_long_p(&lvar, 7, 0);
  }
  const int rc = progtest_finish("wait_test");
  shmem_finalize();
  return rc;
}
