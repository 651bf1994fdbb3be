/* OpenMP tasks: recursive tasks with taskwait (Fibonacci), many tasks from a single thread run by
 * the whole team, taskgroup (descendants included), if(0) and final tasks, depend clauses,
 * firstprivate copies, taskyield, and tasks left for the region's closing barrier. */
#include <omp.h>

#include "progtest.h"

static long fib(int n)
{
  if (n < 2)
    return n;
  long a = 0, b = 0;
#pragma omp task shared(a) firstprivate(n)
  a = fib(n - 1);
#pragma omp task shared(b) firstprivate(n)
  b = fib(n - 2);
#pragma omp taskwait
  return a + b;
}

#define NT 200
static int done[NT];
static int by[NT];
static int nested_done;

int main(void)
{
  shmem_init();
  const int nt = omp_get_max_threads();
  long f = 0;
#pragma omp parallel
#pragma omp single
  f = fib(18);
  CHECK(f == 2584, "fib(18) = %ld", f);

  /* Many tasks from one thread: the team runs them at the single's barrier. */
  int runners = 0;
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < NT; i++) {
#pragma omp task firstprivate(i)
      {
        double s = 0;
        for (int k = 1; k < 2000; k++)
          s += 1.0 / k;
        done[i] += s > 1.0;
        by[i] = omp_get_thread_num();
      }
    }
  }
  for (int i = 0; i < NT; i++)
    CHECK(done[i] == 1, "task %d ran %d times", i, done[i]);
  int seen[64] = {0};
  for (int i = 0; i < NT; i++)
    if (by[i] >= 0 && by[i] < 64)
      seen[by[i]] = 1;
  for (int t = 0; t < 64; t++)
    runners += seen[t];
  CHECK(nt == 1 || runners > 1, "%d tasks ran on %d threads of %d", NT, runners, nt);

  /* taskgroup waits for descendants too. */
  int group_count = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int i = 0; i < 10; i++) {
#pragma omp task
        {
#pragma omp task
          {
#pragma omp atomic
            nested_done++;
          }
#pragma omp atomic
          group_count++;
        }
      }
    }
    CHECK(group_count == 10 && nested_done == 10, "after taskgroup: %d tasks, %d descendants", group_count,
          nested_done);
  }

  /* if(0) runs at once; final tasks and their descendants are included. */
  int order[4] = {0}, k = 0, finals = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task if (0) shared(order, k)
    order[k++] = 1;
    order[k++] = 2;
#pragma omp task final(1) shared(finals)
    {
      finals += omp_in_final();
#pragma omp task shared(finals)
      finals += omp_in_final();
    }
#pragma omp taskwait
  }
  CHECK(order[0] == 1 && order[1] == 2, "if(0) task ran after its successor");
  CHECK(finals == 2, "final tasks: omp_in_final %d", finals);

  /* depend: a chain of tasks sees the values in order. */
  int x = 0, y = 0, bad = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int i = 1; i <= 20; i++) {
#pragma omp task depend(inout : x) shared(x, bad) firstprivate(i)
      {
        bad += x != i - 1;
        x = i;
      }
    }
#pragma omp task depend(in : x) depend(out : y) shared(x, y)
    y = x * 2;
#pragma omp taskwait depend(in : y)
#pragma omp taskyield
  }
  CHECK(x == 20 && y == 40 && bad == 0, "depend: x %d y %d, %d out of order", x, y, bad);

  /* Tasks created by every thread, completed by the region's closing barrier. */
  int total = 0;
#pragma omp parallel
  {
    for (int i = 0; i < 5; i++) {
#pragma omp task
      {
#pragma omp atomic
        total++;
      }
    }
  }
  CHECK(total == 5 * nt, "tasks at the closing barrier: %d", total);

  if (shmem_my_pe() == 0)
    printf("omp_tasks: %d threads, fib %ld\n", nt, f);
  return progtest_finish("omp_tasks");
}
