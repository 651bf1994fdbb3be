/* Distributed locks (OpenSHMEM 1.5 §9.12) under unordered delivery: every PE increments a counter
 * at PE 0 with a get and a put (not atomic: only the lock makes it correct) inside
 * shmem_set_lock/shmem_clear_lock, and inside shmem_test_lock loops on a second lock; an occupancy
 * count checks that no two PEs are ever inside together. shmem_clear_lock must complete the put
 * before the next holder's get. */
#include <shmem.h>
#include <unistd.h>

#include "progtest.h"

#define ITERS 10

static long lock_a;
static long lock_b;
static long counter_a;
static long counter_b;
static int inside;
static int max_inside;

static void critical(long* counter)
{
  const int before = shmem_int_atomic_fetch_inc(&inside, 0);
  if (before != 0)
    shmem_int_atomic_set(&max_inside, before + 1, 0);
  const long v = shmem_long_g(counter, 0);
  usleep(1);
  shmem_long_p(counter, v + 1, 0);
  shmem_int_atomic_add(&inside, -1, 0);
}

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_barrier_all();

  for (int i = 0; i < ITERS; ++i) {
    shmem_set_lock(&lock_a);
    critical(&counter_a);
    shmem_clear_lock(&lock_a);
    usleep((useconds_t)((me * 3 + i) % 4));
  }
  shmem_barrier_all(); /* the two locks share the occupancy count: one phase at a time */
  long tries = 0;
  for (int i = 0; i < ITERS; ++i) {
    while (shmem_test_lock(&lock_b) != 0)
      ++tries;
    critical(&counter_b);
    shmem_clear_lock(&lock_b);
  }
  /* A free lock: test_lock takes it (returns 0), a second test fails (returns 1). */
  shmem_barrier_all();
  if (me == npes - 1) {
    CHECK(shmem_test_lock(&lock_a) == 0, "test_lock on a free lock");
    CHECK(shmem_test_lock(&lock_a) == 1, "test_lock on a held lock");
    shmem_clear_lock(&lock_a);
  }
  shmem_barrier_all();
  if (me == 0) {
    CHECK(counter_a == (long)npes * ITERS, "set_lock counter %ld, expected %ld", counter_a, (long)npes * ITERS);
    CHECK(counter_b == (long)npes * ITERS, "test_lock counter %ld, expected %ld", counter_b, (long)npes * ITERS);
    CHECK(max_inside == 0, "%d PEs inside the critical section at once", max_inside);
    CHECK(inside == 0, "occupancy %d at the end", inside);
  }
  /* The lock is usable again after the run above. */
  shmem_set_lock(&lock_b);
  shmem_clear_lock(&lock_b);
  const int rc = progtest_finish("lock_mutex");
  shmem_finalize();
  return rc;
}
