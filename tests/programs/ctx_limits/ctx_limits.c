/* Contexts past the NIC's limits under every job.contexts.on_exhaustion policy.
 * `ctx_limits N`: each PE creates N contexts, alternately with SHMEM_CTX_PRIVATE (even i) and with
 * no option (odd i), moves data through every one it got (a blocking p, a large nbi put, a
 * fetch-add), completes each with its own quiet, and checks what its left neighbour sent. Then it
 * destroys them in creation order (a context others share goes first) and creates one more, which
 * must work again. PE 0 prints `ctx_limits: U of N contexts usable` and `RESULT usable=U`. */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

#define MAXCTX 256
#define BIG (16 * 1024)

static long slots[MAXCTX];
static long counters[MAXCTX];
static unsigned char big[MAXCTX][BIG];
static int usable_on[MAXCTX];

static unsigned char pat(int pe, int i, int k) { return (unsigned char)(pe * 31 + i * 7 + k * 3 + (k >> 8)); }

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  int n = argc > 1 ? atoi(argv[1]) : 8;
  if (n < 1 || n > MAXCTX)
    n = 8;
  static shmem_ctx_t ctx[MAXCTX];
  static unsigned char local[BIG];
  int usable = 0;
  for (int i = 0; i < n; ++i) {
    const long options = i % 2 == 0 ? SHMEM_CTX_PRIVATE : 0;
    if (shmem_ctx_create(options, &ctx[i]) != 0) {
      CHECK(ctx[i] == SHMEM_CTX_INVALID, "context %d: creation failed but the handle is not SHMEM_CTX_INVALID", i);
      continue;
    }
    ++usable;
    usable_on[i] = 1;
  }
  shmem_barrier_all();
  for (int i = 0; i < n; ++i) {
    if (!usable_on[i])
      continue;
    for (int k = 0; k < BIG; ++k)
      local[k] = pat(me, i, k);
    shmem_ctx_long_p(ctx[i], &slots[i], 1000L * me + i, right);
    shmem_ctx_putmem_nbi(ctx[i], big[i], local, BIG, right);
    (void)shmem_ctx_long_atomic_fetch_add(ctx[i], &counters[i], me + 1, right);
  }
  for (int i = 0; i < n; ++i)
    if (usable_on[i])
      shmem_ctx_quiet(ctx[i]);
  shmem_barrier_all();
  /* Every PE made the same contexts (same limits): the left neighbour's data is there. */
  for (int i = 0; i < n; ++i) {
    if (!usable_on[i])
      continue;
    CHECK(slots[i] == 1000L * left + i, "context %d: slot %ld, expected %ld", i, slots[i], 1000L * left + i);
    CHECK(counters[i] == left + 1, "context %d: counter %ld, expected %d", i, counters[i], left + 1);
    int bad = 0;
    for (int k = 0; k < BIG; ++k)
      bad += big[i][k] != pat(left, i, k);
    CHECK(bad == 0, "context %d: %d bytes of the large put wrong", i, bad);
  }
  for (int i = 0; i < n; ++i)
    if (usable_on[i])
      shmem_ctx_destroy(ctx[i]);
  /* What the destroyed contexts held is free again. */
  shmem_ctx_t again;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &again) == 0, "no context after destroying them all");
  shmem_barrier_all();
  shmem_ctx_long_p(again, &slots[0], -1, right);
  shmem_ctx_quiet(again);
  shmem_barrier_all();
  CHECK(slots[0] == -1, "the context created after destroying all: slot %ld", slots[0]);
  shmem_ctx_destroy(again);
  if (me == 0) {
    printf("ctx_limits: %d of %d contexts usable\n", usable, n);
    printf("RESULT usable=%d\n", usable);
  }
  return progtest_finish("ctx_limits");
}
