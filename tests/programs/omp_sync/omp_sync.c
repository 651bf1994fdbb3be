/* OpenMP synchronization under contention: critical sections (unnamed and named), atomics (lock-free
 * ones, and long double that gcc runs under GOMP_atomic_start/end), simple and nest locks,
 * omp_test_lock, and barriers. Inside each protected section the thread reads the clock, which lets
 * the other threads run: a lost update would show. */
#include <omp.h>

#include "progtest.h"

#define ITERS 50

static long counter, named_a, named_b, locked, nested;
static long double ld;
static omp_lock_t lock;
static omp_nest_lock_t nlock;

static void nest(int depth)
{
  omp_set_nest_lock(&nlock);
  if (depth > 0)
    nest(depth - 1);
  else {
    long v = nested;
    (void)omp_get_wtime();
    nested = v + 1;
  }
  omp_unset_nest_lock(&nlock);
}

int main(void)
{
  shmem_init();
  const int nt = omp_get_max_threads();
  omp_init_lock(&lock);
  omp_init_nest_lock(&nlock);
  int atomic_i = 0, captured_max = 0, tested = 0, phase_errors = 0;
  int phase[256] = {0};
#pragma omp parallel reduction(+ : tested, phase_errors)
  {
    const int me = omp_get_thread_num(), n = omp_get_num_threads();
    for (int i = 0; i < ITERS; i++) {
#pragma omp critical
      {
        long v = counter;
        (void)omp_get_wtime(); /* a switch point inside the critical section */
        counter = v + 1;
      }
#pragma omp critical(alpha)
      {
        long v = named_a;
        (void)omp_get_wtime();
        named_a = v + 2;
      }
#pragma omp critical(beta)
      {
        long v = named_b;
        (void)omp_get_wtime();
        named_b = v + 3;
      }
#pragma omp atomic
      atomic_i += 1;
      int c;
#pragma omp atomic capture
      c = ++atomic_i;
      if (c > captured_max) {
#pragma omp critical
        captured_max = c > captured_max ? c : captured_max;
      }
#pragma omp atomic
      ld += 0.5L;
      omp_set_lock(&lock);
      long v = locked;
      (void)omp_get_wtime();
      locked = v + 1;
      omp_unset_lock(&lock);
      nest(3);
    }
    /* omp_test_lock: succeeds at least when nobody holds the lock. */
    while (!omp_test_lock(&lock))
      (void)omp_get_wtime();
    tested += 1;
    omp_unset_lock(&lock);
    /* Barriers separate phases. */
    for (int p = 1; p <= 3; p++) {
      phase[me] = p;
#pragma omp barrier
      for (int t = 0; t < n; t++)
        phase_errors += phase[t] != p;
#pragma omp barrier
    }
  }
  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nlock);
  CHECK(counter == (long)nt * ITERS, "unnamed critical: %ld, expected %ld", counter, (long)nt * ITERS);
  CHECK(named_a == 2L * nt * ITERS && named_b == 3L * nt * ITERS, "named critical: %ld %ld", named_a, named_b);
  CHECK(atomic_i == 2 * nt * ITERS && captured_max == 2 * nt * ITERS, "atomic: %d, capture max %d", atomic_i,
        captured_max);
  CHECK(ld == 0.5L * nt * ITERS, "atomic long double: %Lg", ld);
  CHECK(locked == (long)nt * ITERS, "omp lock: %ld", locked);
  CHECK(nested == (long)nt * ITERS, "nest lock: %ld", nested);
  CHECK(tested == nt, "omp_test_lock: %d", tested);
  CHECK(phase_errors == 0, "barrier: %d threads ahead or behind", phase_errors);
  if (shmem_my_pe() == 0)
    printf("omp_sync: %d threads, critical %ld, simulated %.0f us\n", nt, counter, omp_get_wtime() * 1e6);
  return progtest_finish("omp_sync");
}
