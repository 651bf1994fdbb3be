/* Large puts (above platform.nic.inline_size, pulled by the target with an RDMA read in the model)
 * arrive intact, and completion waits for them: after a blocking put, or shmem_quiet after
 * non-blocking ones, a flag put behind them must never be seen before their data (the test
 * scenario orders nothing, so only completion keeps the flag behind the data). PE 0 puts to the
 * last PE.
 * Usage: pulled_put [BYTES] (default 64 KiB). */
#include "progtest.h"

#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_BYTES (256 * 1024)

static unsigned char dst[MAX_BYTES];
static unsigned char src[MAX_BYTES];
static long flag;

static unsigned char pattern(size_t i, int round)
{
  return (unsigned char)(i * 131 + (size_t)round * 17 + 5);
}

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes(), peer = npes - 1;
  const size_t bytes = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 64 * 1024;
  CHECK(npes >= 2, "needs 2 PEs");
  CHECK(bytes <= MAX_BYTES && bytes >= 8, "bytes %zu", bytes);
  for (int round = 1; round <= 4; ++round) {
    if (me == 0) {
      for (size_t i = 0; i < bytes; ++i)
        src[i] = pattern(i, round);
      if (round % 2 == 1) {
        shmem_putmem(dst, src, bytes, peer); /* blocking: returns once the data is at the peer */
      } else {
        /* two halves, non-blocking, completed by quiet */
        shmem_putmem_nbi(dst, src, bytes / 2, peer);
        shmem_putmem_nbi(dst + bytes / 2, src + bytes / 2, bytes - bytes / 2, peer);
        shmem_quiet();
      }
      shmem_long_p(&flag, round, peer);
    } else if (me == peer) {
      shmem_long_wait_until(&flag, SHMEM_CMP_EQ, round);
      size_t bad = 0, first = bytes;
      for (size_t i = 0; i < bytes; ++i)
        if (dst[i] != pattern(i, round)) {
          ++bad;
          if (first == bytes)
            first = i;
        }
      CHECK(bad == 0, "round %d: %zu of %zu bytes wrong, the first at %zu", round, bad, bytes, first);
    }
    shmem_barrier_all();
  }
  const int status = progtest_finish("pulled_put");
  shmem_finalize();
  return status;
}
