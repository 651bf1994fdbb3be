/* Helpers shared by the program tests (tests/programs): checks that count failures, and a
 * summary printed by PE 0 after all PEs have reported their failure counts. */
#ifndef PROGTEST_H
#define PROGTEST_H

#include <shmem.h>
#include <stdio.h>

static int progtest_errors __attribute__((unused));
static int progtest_total __attribute__((unused)); /* symmetric: PE 0 sums every PE's count here */

/* Records a failure (printed for the first few) when `cond` does not hold. */
#define CHECK(cond, ...)                                                                    \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      if (++progtest_errors <= 10) {                                                        \
        printf("FAIL PE %d %s:%d: %s: ", shmem_my_pe(), __FILE__, __LINE__, #cond);          \
        printf(__VA_ARGS__);                                                                \
        printf("\n");                                                                       \
        fflush(stdout);                                                                     \
      }                                                                                     \
    }                                                                                       \
  } while (0)

/* Collective: sums the failures of all PEs; PE 0 prints "<name>: OK on <n> PEs" or a FAIL line.
 * Returns the value main should return on this PE (non-zero when this PE saw a failure). */
static inline int progtest_finish(const char* name)
{
  shmem_barrier_all();
  if (progtest_errors != 0)
    shmem_int_atomic_add(&progtest_total, progtest_errors, 0);
  shmem_barrier_all();
  if (shmem_my_pe() == 0) {
    if (progtest_total == 0)
      printf("%s: OK on %d PEs\n", name, shmem_n_pes());
    else
      printf("%s: FAIL: %d failed checks on %d PEs\n", name, progtest_total, shmem_n_pes());
    fflush(stdout);
  }
  return progtest_errors != 0 ? 1 : 0;
}

#endif
