/* A run whose outcome depends on timing (who wins the races for tickets, when each PE finishes)
 * on an unordered network: all-to-all nbi puts, a fetch-add storm and a compare-swap race.
 * Two runs with the same scenario and seed must print the same text and write the same
 * summary.json (the test runs it twice and compares). */
#include <shmem.h>
#include <string.h>
#include <time.h>

#include "progtest.h"

#define CHUNK 3000
#define MAXPE 64

static long tickets;
static long order[MAXPE * 8];
static int winner = -1;
static unsigned char inbox[MAXPE * CHUNK];

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  static unsigned char out[CHUNK];
  for (int round = 0; round < 3; ++round) {
    memset(out, me + round, sizeof out);
    for (int k = 1; k <= npes; ++k) {
      const int pe = (me + k) % npes;
      shmem_putmem_nbi(&inbox[me * CHUNK], out, CHUNK - 17 * (size_t)k, pe);
    }
    for (int j = 0; j < 8; ++j) {
      const long t = shmem_long_atomic_fetch_inc(&tickets, 0);
      shmem_long_p(&order[t], me, 0);
    }
    shmem_quiet();
    shmem_barrier_all();
  }
  for (int s = 0; s < npes; ++s)
    CHECK(inbox[s * CHUNK] == (unsigned char)(s + 2), "inbox from PE %d", s);
  shmem_int_atomic_compare_swap(&winner, -1, me, 0);
  shmem_barrier_all();
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  if (me == 0) {
    printf("tickets of the last round:");
    for (int i = 2 * 8 * npes; i < 3 * 8 * npes; ++i)
      printf(" %ld", order[i]);
    printf("\ncompare-swap winner: PE %d\n", winner);
    printf("finished at %lld.%09ld s\n", (long long)t.tv_sec, t.tv_nsec);
  }
  const int rc = progtest_finish("determinism");
  shmem_finalize();
  return rc;
}
