/* OpenMP reductions as gcc lowers them, for every operator (+ * - & | ^ && || max min) on int and
 * double (the bitwise ones on int), on parallel, for and sections constructs, several at once
 * (gcc then combines under GOMP_atomic_start), and reduction(task, ...) on a parallel region
 * (GOMP_parallel_reductions); also sections, single with copyprivate, master and masked. */
#include <limits.h>
#include <omp.h>

#include "progtest.h"

#define N 60

int main(void)
{
  shmem_init();
  const int nt = omp_get_max_threads();

  /* int, every operator, on a loop. */
  int sum = 0, prod = 1, diff = 0, band = ~0, bor = 0, bxor = 0, land = 1, lor = 0, mx = INT_MIN, mn = INT_MAX;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : sum) reduction(* : prod) reduction(- : diff) \
    reduction(& : band) reduction(| : bor) reduction(^ : bxor) reduction(&& : land) reduction(|| : lor)  \
    reduction(max : mx) reduction(min : mn)
  for (int i = 1; i <= N; i++) {
    sum += i;
    prod *= (i % 10 == 0) ? 2 : 1;
    diff -= i;
    band &= ~(1 << (i % 16));
    bor |= 1 << (i % 20);
    bxor ^= i;
    land = land && (i > 0);
    lor = lor || (i == 37);
    mx = i * 7 % 61 > mx ? i * 7 % 61 : mx;
    mn = (i * 13) % 59 < mn ? (i * 13) % 59 : mn;
  }
  int x = 0, m = INT_MIN, n = INT_MAX, b = ~0;
  for (int i = 1; i <= N; i++) {
    x ^= i;
    m = i * 7 % 61 > m ? i * 7 % 61 : m;
    n = (i * 13) % 59 < n ? (i * 13) % 59 : n;
    b &= ~(1 << (i % 16));
  }
  CHECK(sum == N * (N + 1) / 2, "int +: %d", sum);
  CHECK(prod == 64, "int *: %d", prod);
  CHECK(diff == -N * (N + 1) / 2, "int -: %d", diff);
  CHECK(band == b, "int &: %x, expected %x", band, b);
  CHECK(bor == 0xfffff, "int |: %x", bor);
  CHECK(bxor == x, "int ^: %d, expected %d", bxor, x);
  CHECK(land == 1, "int &&: %d", land);
  CHECK(lor == 1, "int ||: %d", lor);
  CHECK(mx == m, "int max: %d, expected %d", mx, m);
  CHECK(mn == n, "int min: %d, expected %d", mn, n);

  /* A single reduction per construct (gcc combines it with an atomic instruction). */
  int s1 = 0;
#pragma omp parallel for reduction(+ : s1)
  for (int i = 0; i < N; i++)
    s1 += 2;
  CHECK(s1 == 2 * N, "single +: %d", s1);
  int l1 = 0;
#pragma omp parallel reduction(|| : l1)
  l1 = l1 || omp_get_thread_num() == nt - 1;
  CHECK(l1 == 1, "parallel ||: %d", l1);
  int a1 = 1;
#pragma omp parallel reduction(&& : a1)
  a1 = a1 && omp_get_thread_num() != 0;
  CHECK(a1 == 0, "parallel &&: %d", a1);

  /* double, every operator that applies. */
  double dsum = 0, dprod = 1, ddiff = 0, dmax = -1e300, dmin = 1e300, dland = 1, dlor = 0;
#pragma omp parallel for schedule(guided) reduction(+ : dsum) reduction(* : dprod) reduction(- : ddiff) \
    reduction(max : dmax) reduction(min : dmin) reduction(&& : dland) reduction(|| : dlor)
  for (int i = 1; i <= N; i++) {
    dsum += 0.5 * i;
    dprod *= (i % 15 == 0) ? 0.5 : 1.0;
    ddiff -= 0.25;
    dmax = (i * 0.1 - (i == 33) * 100.0) > dmax ? (i * 0.1 - (i == 33) * 100.0) : dmax;
    dmin = -1.0 * ((i * 17) % 53) < dmin ? -1.0 * ((i * 17) % 53) : dmin;
    dland = dland && (i < 1000);
    dlor = dlor || (i == 60);
  }
  CHECK(dsum == 0.5 * N * (N + 1) / 2, "double +: %g", dsum);
  CHECK(dprod == 0.0625, "double *: %g", dprod);
  CHECK(ddiff == -0.25 * N, "double -: %g", ddiff);
  CHECK(dmax == 6.0, "double max: %g", dmax);
  CHECK(dmin == -52.0, "double min: %g", dmin);
  CHECK(dland == 1.0 && dlor == 1.0, "double && ||: %g %g", dland, dlor);

  /* On a parallel region (one private copy per thread) and on sections. */
  int pcount = 0;
  double pd = 0;
#pragma omp parallel reduction(+ : pcount, pd)
  {
    pcount += 1;
    pd += omp_get_thread_num();
  }
  CHECK(pcount == nt, "parallel +: %d threads, expected %d", pcount, nt);
  CHECK(pd == nt * (nt - 1) / 2.0, "parallel + double: %g", pd);
  int secsum = 0, secmax = 0;
#pragma omp parallel sections reduction(+ : secsum) reduction(max : secmax)
  {
#pragma omp section
    { secsum += 1; secmax = secmax > 10 ? secmax : 10; }
#pragma omp section
    { secsum += 20; secmax = secmax > 30 ? secmax : 30; }
#pragma omp section
    { secsum += 300; secmax = secmax > 20 ? secmax : 20; }
  }
  CHECK(secsum == 321 && secmax == 30, "sections reduction: %d %d", secsum, secmax);

  /* reduction(task, ...) on a parallel region: GOMP_parallel_reductions. */
  long tsum = 0;
#pragma omp parallel reduction(task, + : tsum)
  tsum += omp_get_thread_num() + 1;
  CHECK(tsum == (long)nt * (nt + 1) / 2, "task reduction: %ld", tsum);

  /* sections, single with copyprivate, master and masked. */
  int ran[5] = {0};
#pragma omp parallel
  {
#pragma omp sections
    {
#pragma omp section
      ran[0]++;
#pragma omp section
      ran[1]++;
#pragma omp section
      ran[2]++;
#pragma omp section
      ran[3]++;
#pragma omp section
      ran[4]++;
    }
  }
  for (int i = 0; i < 5; i++)
    CHECK(ran[i] == 1, "section %d ran %d times", i, ran[i]);
  int singles = 0, masters = 0, maskeds = 0, copied_ok = 0;
#pragma omp parallel reduction(+ : copied_ok)
  {
    int value = -1;
#pragma omp single copyprivate(value)
    {
      value = 4242;
      singles++;
    }
    copied_ok += value == 4242;
#pragma omp master
    masters++;
#pragma omp masked filter(omp_get_num_threads() - 1)
    maskeds += omp_get_thread_num() == omp_get_num_threads() - 1;
#pragma omp single nowait
    singles++;
  }
  CHECK(singles == 2, "single ran %d times", singles);
  CHECK(masters == 1 && maskeds == 1, "master %d, masked %d", masters, maskeds);
  CHECK(copied_ok == nt, "copyprivate reached %d threads of %d", copied_ok, nt);

  if (shmem_my_pe() == 0)
    printf("omp_reduce: %d threads sum %d prod %d dsum %g\n", nt, sum, prod, dsum);
  return progtest_finish("omp_reduce");
}
