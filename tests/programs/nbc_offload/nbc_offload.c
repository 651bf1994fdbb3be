/* Seed 003's non-blocking barrier on an active set of every PE (seed names), whatever
 * job.collectives.barrier selects (with `triggered` the NICs run it: posted at the start,
 * complete when its counter is reached). Per round: every PE writes the round into its slot of
 * every PE's `arrived` (puts, then quiet), the last PE sleeps, then each starts TWO barriers
 * (two outstanding on the same set), polls the second with shmem_test_request until it is
 * complete, then waits for the first. After them, every slot must hold the round: neither barrier
 * completed before every PE had started it (with two outstanding, an arrival for the second must
 * not count toward the first). A blocking barrier on the same PEs (shmem_barrier_all) ends the round.
 * `nbc_offload strict` also checks that PE 0's first test of the first barrier finds it incomplete
 * (the last PE sleeps 50 us before starting it: true in simulated time). */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>
#include <unistd.h>

#include "progtest.h"

#define ROUNDS 6
#define MAX_PES 64

static long pSync1[SHMEM_SYNC_SIZE], pSync2[SHMEM_SYNC_SIZE];
static int arrived[MAX_PES];

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int strict = argc > 1 && strcmp(argv[1], "strict") == 0;
  CHECK(npes <= MAX_PES, "at most %d PEs", MAX_PES);
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i)
    pSync1[i] = pSync2[i] = SHMEM_SYNC_VALUE;
  shmem_aset* all = shmem_create_strided_aset(0, 1, npes);
  shmem_barrier_all();
  long polls = 0;
  for (int r = 1; r <= ROUNDS; ++r) {
    for (int pe = 0; pe < npes; ++pe)
      shmem_int_p(&arrived[me], r, pe);
    shmem_quiet();
    if (me == npes - 1)
      usleep(50);
    shmem_request_handle_t first, second;
    shmem_barrier_nb(all, pSync1, &first);
    shmem_barrier_nb(all, pSync2, &second);
    int first_done = 0;
    if (strict && me == 0 && npes > 1) {
      first_done = shmem_test_request(first);
      CHECK(!first_done, "round %d: the first barrier complete at PE 0's first test, before PE %d started it", r,
            npes - 1);
    }
    while (!shmem_test_request(second))
      ++polls;
    if (!first_done)
      shmem_wait_request(first);
    for (int pe = 0; pe < npes; ++pe)
      CHECK(arrived[pe] == r, "round %d: PE %d left the barriers before PE %d had started them (slot %d)", r, me, pe,
            arrived[pe]);
    shmem_barrier_all();
  }
  if (me == 0)
    printf("nbc_offload: %d rounds of two outstanding barriers, PE 0 polled %ld times\n", ROUNDS, polls);
  shmem_delete_aset(all);
  return progtest_finish("nbc_offload");
}
