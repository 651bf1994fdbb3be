/* OpenMP loops on shmemsim's runtime: every schedule (static, dynamic, guided, auto, runtime with
 * each kind set by omp_set_schedule or OMP_SCHEDULE), chunk sizes, monotonic and nonmonotonic
 * modifiers, combined and orphaned loops, nowait, long and unsigned long long iteration spaces,
 * negative steps, collapse, lastprivate and ordered. Every iteration must run exactly once, ordered
 * regions in iteration order. Prints a checksum of which thread ran what (deterministic). */
#include <limits.h>
#include <omp.h>
#include <string.h>

#include "progtest.h"

#define N 1000
static int hits[N];
static int owner[N];
static unsigned long checksum;

static void check(const char* what)
{
  for (int i = 0; i < N; i++) {
    CHECK(hits[i] == 1, "%s: iteration %d ran %d times", what, i, hits[i]);
    checksum = checksum * 31 + (unsigned long)owner[i] + 1;
  }
  memset(hits, 0, sizeof hits);
  memset(owner, 0, sizeof owner);
}

#define BODY(i)                          \
  do {                                   \
    hits[i]++;                           \
    owner[i] = omp_get_thread_num();     \
  } while (0)

#define PFOR(what, PRAGMA)                 \
  do {                                     \
    _Pragma(PRAGMA) for (int i = 0; i < N; i++) BODY(i); \
    check(what);                           \
  } while (0)

static int seq[N], nseq;

#define ORDERED(what, PRAGMA)                                        \
  do {                                                               \
    nseq = 0;                                                        \
    _Pragma(PRAGMA) for (int i = 0; i < N; i++)                      \
    {                                                                \
      BODY(i);                                                       \
      _Pragma("omp ordered") seq[nseq++] = i;                        \
    }                                                                \
    CHECK(nseq == N, "%s: %d ordered regions", what, nseq);          \
    for (int k = 0; k < nseq; k++)                                   \
      CHECK(seq[k] == k, "%s: ordered region %d ran iteration %d", what, k, seq[k]); \
    check(what);                                                     \
  } while (0)

int main(int argc, char** argv)
{
  shmem_init();
  PFOR("static", "omp parallel for schedule(static)");
  PFOR("static,1", "omp parallel for schedule(static, 1)");
  PFOR("static,7", "omp parallel for schedule(static, 7)");
  PFOR("static,2000", "omp parallel for schedule(static, 2000)");
  PFOR("dynamic", "omp parallel for schedule(dynamic)");
  PFOR("dynamic,3", "omp parallel for schedule(dynamic, 3)");
  PFOR("dynamic,64", "omp parallel for schedule(dynamic, 64)");
  PFOR("dynamic,5000", "omp parallel for schedule(dynamic, 5000)");
  PFOR("monotonic:dynamic,2", "omp parallel for schedule(monotonic: dynamic, 2)");
  PFOR("nonmonotonic:dynamic,4", "omp parallel for schedule(nonmonotonic: dynamic, 4)");
  PFOR("guided", "omp parallel for schedule(guided)");
  PFOR("guided,5", "omp parallel for schedule(guided, 5)");
  PFOR("guided,300", "omp parallel for schedule(guided, 300)");
  PFOR("monotonic:guided,3", "omp parallel for schedule(monotonic: guided, 3)");
  PFOR("auto", "omp parallel for schedule(auto)");
  PFOR("runtime", "omp parallel for schedule(runtime)"); /* OMP_SCHEDULE or the default */
  PFOR("monotonic:runtime", "omp parallel for schedule(monotonic: runtime)");
  PFOR("nonmonotonic:runtime", "omp parallel for schedule(nonmonotonic: runtime)");
  omp_sched_t saved_kind;
  int saved_chunk;
  omp_get_schedule(&saved_kind, &saved_chunk);
  const omp_sched_t kinds[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided, omp_sched_auto};
  const int chunks[]        = {0, 1, 4, 250};
  for (int k = 0; k < 4; k++)
    for (int c = 0; c < 4; c++) {
      omp_set_schedule(kinds[k], chunks[c]);
      omp_sched_t got;
      int gchunk;
      omp_get_schedule(&got, &gchunk);
      CHECK(got == kinds[k], "omp_get_schedule kind %d, set %d", (int)got, (int)kinds[k]);
      PFOR("runtime (omp_set_schedule)", "omp parallel for schedule(runtime)");
      ORDERED("ordered runtime", "omp parallel for ordered schedule(runtime)");
    }
  omp_set_schedule(saved_kind, saved_chunk);

  /* Orphaned loops inside one region, with nowait and a barrier. */
#pragma omp parallel
  {
#pragma omp for schedule(dynamic, 2) nowait
    for (int i = 0; i < N / 2; i++)
      BODY(i);
#pragma omp for schedule(guided, 3) nowait
    for (int i = N / 2; i < N; i++)
      BODY(i);
#pragma omp barrier
#pragma omp single
    check("nowait loops");
#pragma omp for schedule(static, 3)
    for (int i = 0; i < N; i++)
      BODY(i);
#pragma omp single
    check("orphaned static");
  }

  /* Negative and non-unit steps, long and unsigned long long iteration spaces. */
#pragma omp parallel for schedule(dynamic, 7)
  for (int i = N - 1; i >= 0; i--)
    BODY(i);
  check("dynamic, step -1");
#pragma omp parallel for schedule(guided, 2)
  for (long i = 3L * (N - 1); i >= 0; i -= 3)
    BODY(i / 3);
  check("guided, step -3");
#pragma omp parallel for schedule(static, 5)
  for (long i = LONG_MAX - N; i < LONG_MAX; i++)
    BODY(i - (LONG_MAX - N));
  check("long near LONG_MAX");
  const unsigned long long big = 1ULL << 63;
#pragma omp parallel for schedule(dynamic, 9)
  for (unsigned long long u = big; u < big + N; u++)
    BODY(u - big);
  check("unsigned long long, dynamic");
#pragma omp parallel for schedule(guided)
  for (unsigned long long u = big + 2 * N; u > big; u -= 2)
    BODY((u - big) / 2 - 1);
  check("unsigned long long, step -2, guided");
#pragma omp parallel for schedule(runtime)
  for (unsigned long long u = 0; u < N; u++)
    BODY(u);
  check("unsigned long long, runtime");
  nseq = 0;
#pragma omp parallel for ordered schedule(dynamic, 3)
  for (unsigned long long u = 0; u < N; u++) {
    BODY(u);
#pragma omp ordered
    seq[nseq++] = (int)u;
  }
  for (int k = 0; k < N; k++)
    CHECK(seq[k] == k, "ordered ull: region %d ran iteration %d", k, seq[k]);
  check("ordered unsigned long long");

  /* collapse(2) and lastprivate. */
#pragma omp parallel for collapse(2) schedule(dynamic, 11)
  for (int a = 0; a < 40; a++)
    for (int b = 0; b < 25; b++)
      BODY(a * 25 + b);
  check("collapse(2)");
  int last = -1;
#pragma omp parallel for schedule(guided, 4) lastprivate(last)
  for (int i = 0; i < N; i++) {
    BODY(i);
    last = i;
  }
  CHECK(last == N - 1, "lastprivate: %d", last);
  check("lastprivate");

  /* Ordered loops of every schedule. */
  ORDERED("ordered static", "omp parallel for ordered schedule(static)");
  ORDERED("ordered static,3", "omp parallel for ordered schedule(static, 3)");
  ORDERED("ordered dynamic", "omp parallel for ordered schedule(dynamic)");
  ORDERED("ordered dynamic,8", "omp parallel for ordered schedule(dynamic, 8)");
  ORDERED("ordered guided,2", "omp parallel for ordered schedule(guided, 2)");

  /* A loop with no iteration, and one with fewer iterations than threads. */
  int none = 0;
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < 0; i++)
    none++;
  CHECK(none == 0, "empty loop ran %d iterations", none);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < 2; i++)
    BODY(i);
  for (int i = 2; i < N; i++)
    BODY(i);
  check("two iterations");

  /* Orphaned loops of every schedule inside one region (each with its closing barrier), unsigned
   * long long ones, orphaned ordered loops and sections. */
#define OFOR(what, PRAGMA)                                   \
  do {                                                       \
    _Pragma(PRAGMA) for (int i = 0; i < N; i++) BODY(i);     \
    _Pragma("omp single") check(what);                       \
  } while (0)
#define OFOR_ULL(what, PRAGMA)                                                      \
  do {                                                                              \
    _Pragma(PRAGMA) for (unsigned long long u = big; u < big + N; u++) BODY(u - big); \
    _Pragma("omp single") check(what);                                              \
  } while (0)
/* An ordered loop over unsigned long long: the ordered regions run in iteration order. */
#define ORDERED_ULL(what, PRAGMA)                                                          \
  do {                                                                                     \
    _Pragma(PRAGMA) for (unsigned long long u = big; u < big + N; u++)                     \
    {                                                                                      \
      BODY(u - big);                                                                       \
      _Pragma("omp ordered") seq[nseq++] = (int)(u - big);                                 \
    }                                                                                      \
    _Pragma("omp single")                                                                  \
    {                                                                                      \
      for (int k = 0; k < N; k++)                                                          \
        CHECK(seq[k] == k, "%s: region %d ran iteration %d", what, k, seq[k]);            \
      check(what);                                                                         \
      nseq = 0;                                                                            \
    }                                                                                      \
  } while (0)
#pragma omp parallel
  {
    OFOR("orphaned static", "omp for schedule(static)");
    OFOR("orphaned monotonic dynamic", "omp for schedule(monotonic: dynamic, 3)");
    OFOR("orphaned dynamic", "omp for schedule(dynamic, 2)");
    OFOR("orphaned monotonic guided", "omp for schedule(monotonic: guided, 2)");
    OFOR("orphaned guided", "omp for schedule(guided)");
    OFOR("orphaned runtime", "omp for schedule(runtime)");
    OFOR("orphaned monotonic runtime", "omp for schedule(monotonic: runtime)");
    OFOR("orphaned nonmonotonic runtime", "omp for schedule(nonmonotonic: runtime)");
    OFOR("orphaned monotonic static", "omp for schedule(monotonic: static, 4)");
    OFOR_ULL("ull static", "omp for schedule(static)");
    OFOR_ULL("ull static,3", "omp for schedule(static, 3)");
    OFOR_ULL("ull monotonic dynamic", "omp for schedule(monotonic: dynamic, 3)");
    OFOR_ULL("ull dynamic", "omp for schedule(dynamic, 5)");
    OFOR_ULL("ull monotonic guided", "omp for schedule(monotonic: guided)");
    OFOR_ULL("ull guided", "omp for schedule(guided, 2)");
    OFOR_ULL("ull runtime", "omp for schedule(runtime)");
    OFOR_ULL("ull monotonic runtime", "omp for schedule(monotonic: runtime)");
    OFOR_ULL("ull nonmonotonic runtime", "omp for schedule(nonmonotonic: runtime)");
#pragma omp single
    nseq = 0;
    ORDERED_ULL("ordered ull static", "omp for ordered schedule(static, 2)");
    ORDERED_ULL("ordered ull guided", "omp for ordered schedule(guided)");
    ORDERED_ULL("ordered ull runtime", "omp for ordered schedule(runtime)");
#pragma omp sections
    {
#pragma omp section
      for (int i = 0; i < N / 2; i++)
        BODY(i);
#pragma omp section
      for (int i = N / 2; i < N; i++)
        BODY(i);
    }
#pragma omp single
    check("orphaned sections");
  }

  /* lastprivate(conditional:) on loops and sections (GOMP_sections2_start). */
  int lastc = -1;
#pragma omp parallel for schedule(dynamic, 3) lastprivate(conditional : lastc)
  for (int i = 0; i < N; i++) {
    BODY(i);
    if (i % 7 == 3)
      lastc = i;
  }
  CHECK(lastc == 997, "lastprivate(conditional:) dynamic: %d", lastc);
  check("lastprivate(conditional:) dynamic");
  lastc = -1;
#pragma omp parallel for schedule(static) lastprivate(conditional : lastc)
  for (int i = 0; i < N; i++) {
    BODY(i);
    if (i % 11 == 5)
      lastc = i;
  }
  CHECK(lastc == 995, "lastprivate(conditional:) static: %d", lastc);
  check("lastprivate(conditional:) static");
  lastc = -1;
#pragma omp parallel for schedule(guided) lastprivate(conditional : lastc)
  for (unsigned long long u = big; u < big + N; u++) {
    BODY(u - big);
    if ((u - big) % 13 == 1)
      lastc = (int)(u - big);
  }
  CHECK(lastc == 989, "lastprivate(conditional:) ull guided: %d", lastc);
  check("lastprivate(conditional:) ull guided");
  lastc = -1;
#pragma omp parallel for ordered schedule(dynamic, 4) lastprivate(conditional : lastc)
  for (int i = 0; i < N; i++) {
    BODY(i);
#pragma omp ordered
    if (i % 3 == 0)
      lastc = i;
  }
  CHECK(lastc == 999, "lastprivate(conditional:) ordered: %d", lastc);
  check("lastprivate(conditional:) ordered");
  lastc = -1;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized" /* gcc 12 on the threads that run no section */
#pragma omp parallel sections lastprivate(conditional : lastc)
  {
#pragma omp section
    lastc = 1;
#pragma omp section
    lastc = 2;
  }
#pragma GCC diagnostic pop
  CHECK(lastc == 2, "lastprivate(conditional:) sections: %d", lastc);

  if (shmem_my_pe() == 0)
    printf("omp_loops: threads %d checksum %lx\n", omp_get_max_threads(), checksum);
  (void)argc;
  (void)argv;
  return progtest_finish("omp_loops");
}
