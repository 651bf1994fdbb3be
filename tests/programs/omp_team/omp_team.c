/* OpenMP teams on shmemsim: the default team size (printed: OMP_NUM_THREADS, job.threads.per_pe or
 * the node's cores), num_threads and if clauses, omp_set_num_threads, nested regions (serialized:
 * one active level) with the level and ancestor queries, threadprivate variables that persist per
 * thread from one region to the next, and the ICV routines. */
#include <omp.h>

#include "progtest.h"

static int tp = -1;
#pragma omp threadprivate(tp)
static int tp_counter;
#pragma omp threadprivate(tp_counter)

int main(void)
{
  shmem_init();
  const int nt = omp_get_max_threads();
  int size = 0;
#pragma omp parallel
#pragma omp single
  size = omp_get_num_threads();
  CHECK(size == nt, "team of %d threads, max %d", size, nt);
  CHECK(!omp_in_parallel() && omp_get_level() == 0 && omp_get_thread_num() == 0 && omp_get_num_threads() == 1,
        "outside any region");

  /* num_threads, if(0), omp_set_num_threads. */
  int in3 = 0, in1 = 0, inset = 0;
#pragma omp parallel num_threads(3) reduction(+ : in3)
  in3 += 1;
#pragma omp parallel if (0) reduction(+ : in1)
  in1 += omp_get_num_threads();
  omp_set_num_threads(5);
#pragma omp parallel reduction(+ : inset)
  inset += omp_in_parallel();
  CHECK(in3 == 3 && in1 == 1 && inset == 5, "num_threads(3) %d, if(0) %d, omp_set_num_threads(5) %d", in3, in1, inset);
  CHECK(omp_get_max_threads() == 5, "omp_get_max_threads after omp_set_num_threads(5): %d", omp_get_max_threads());
  omp_set_num_threads(nt);

  /* Nested regions run serialized inside an active one. */
  int nested_bad = 0, inner_total = 0;
#pragma omp parallel num_threads(4) reduction(+ : nested_bad, inner_total)
  {
    const int outer = omp_get_thread_num();
#pragma omp parallel num_threads(3) reduction(+ : nested_bad, inner_total)
    {
      inner_total += 1;
      nested_bad += omp_get_level() != 2;
      nested_bad += omp_get_num_threads() != 1 || omp_get_thread_num() != 0;
      nested_bad += omp_get_ancestor_thread_num(1) != outer || omp_get_ancestor_thread_num(0) != 0;
      nested_bad += omp_get_team_size(1) != (nt >= 1 ? 4 : 0) || omp_get_team_size(2) != 1 || omp_get_team_size(0) != 1;
      nested_bad += omp_get_active_level() != 1;
#pragma omp barrier
#pragma omp single
      nested_bad += 0;
    }
  }
  CHECK(nested_bad == 0 && inner_total == 4, "nested regions: %d wrong answers, %d inner threads", nested_bad,
        inner_total);

  /* threadprivate: each thread keeps its values from one region to the next. */
  int tp_bad = 0;
  for (int round = 0; round < 3; round++) {
#pragma omp parallel reduction(+ : tp_bad)
    {
      if (round == 0) {
        tp_bad += tp != -1; /* the initial value in every thread */
        tp = 100 + omp_get_thread_num();
      } else {
        tp_bad += tp != 100 + omp_get_thread_num();
      }
      tp_counter++;
    }
  }
  CHECK(tp_bad == 0, "threadprivate: %d threads lost their value", tp_bad);
  CHECK(tp == 100 && tp_counter == 3, "threadprivate of the initial thread: %d %d", tp, tp_counter);
  int copied = 0;
  tp = 7;
#pragma omp parallel copyin(tp) reduction(+ : copied)
  copied += tp == 7;
  CHECK(copied == nt, "copyin reached %d of %d threads", copied, nt);

  /* ICV routines. */
  omp_set_dynamic(1);
  CHECK(omp_get_dynamic() == 1, "omp_get_dynamic");
  omp_set_dynamic(0);
  omp_set_max_active_levels(3);
  CHECK(omp_get_max_active_levels() == 1 && omp_get_supported_active_levels() == 1, "active levels");
  CHECK(omp_get_num_procs() >= 1 && omp_get_thread_limit() >= nt, "procs %d, thread limit %d", omp_get_num_procs(),
        omp_get_thread_limit());
  CHECK(omp_get_wtick() > 0 && omp_get_wtime() >= 0, "wtime");
  CHECK(omp_is_initial_device() && omp_get_num_devices() == 0, "devices");

  if (shmem_my_pe() == 0)
    printf("omp_team: %d threads per PE, %d procs\n", nt, omp_get_num_procs());
  return progtest_finish("omp_team");
}
