/* Put-with-signal (OpenSHMEM 1.5 §9.8) under unordered delivery: the signal must never be seen
 * before its data. Each PE streams rounds of a large block to its right neighbour (typed, sized,
 * mem, ctx and nbi forms in turn), SHMEM_SIGNAL_SET of the round number; the receiver waits with
 * shmem_signal_wait_until, checks every element, then acknowledges with a put-with-signal of zero
 * bytes and SHMEM_SIGNAL_ADD. Then every PE adds to a counter at PE 0 (SHMEM_SIGNAL_ADD), and
 * shmem_signal_fetch reads signals locally. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

#define N 4096 /* longs: 32 KiB, far above the volatile size, many packets */
#define ROUNDS 12

static long data[N];
static long src[N];
static uint64_t sig;      /* round received from the left */
static uint64_t ack;      /* rounds acknowledged by the right */
static uint64_t counter;  /* at PE 0: sum of all adds */
static uint64_t self_sig; /* put-with-signal to oneself */

static void send_round(shmem_ctx_t ctx, int round, int right)
{
  for (int i = 0; i < N; ++i)
    src[i] = (long)round * 1000003L + i;
  const uint64_t r = (uint64_t)round;
  switch (round % 6) {
    case 0:
      shmem_long_put_signal(data, src, N, &sig, r, SHMEM_SIGNAL_SET, right);
      break;
    case 1:
      shmem_putmem_signal(data, src, N * sizeof(long), &sig, r, SHMEM_SIGNAL_SET, right);
      break;
    case 2:
      shmem_put64_signal(data, src, N, &sig, r, SHMEM_SIGNAL_SET, right);
      break;
    case 3:
      shmem_ctx_long_put_signal(ctx, data, src, N, &sig, r, SHMEM_SIGNAL_SET, right);
      break;
    case 4:
      shmem_long_put_signal_nbi(data, src, N, &sig, r, SHMEM_SIGNAL_SET, right);
      shmem_quiet(); /* src is reused next round */
      break;
    case 5:
      shmem_ctx_putmem_signal_nbi(ctx, data, src, N * sizeof(long), &sig, r, SHMEM_SIGNAL_SET, right);
      shmem_ctx_quiet(ctx);
      break;
  }
}

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;
  CHECK(SHMEM_SIGNAL_SET != SHMEM_SIGNAL_ADD, "signal operators equal");
  shmem_barrier_all();

  for (int round = 1; round <= ROUNDS; ++round) {
    /* The right neighbour must have checked the previous round before data is overwritten. */
    shmem_signal_wait_until(&ack, SHMEM_CMP_GE, (uint64_t)(round - 1));
    send_round(ctx, round, right);
    const uint64_t got = shmem_signal_wait_until(&sig, SHMEM_CMP_GE, (uint64_t)round);
    CHECK(got == (uint64_t)round, "round %d: signal %llu", round, (unsigned long long)got);
    int bad = 0;
    for (int i = 0; i < N; ++i)
      bad += data[i] != (long)round * 1000003L + i;
    CHECK(bad == 0, "round %d (form %d): %d of %d elements not delivered before the signal from PE %d", round,
          round % 6, bad, N, left);
    CHECK(shmem_signal_fetch(&sig) == (uint64_t)round, "signal_fetch");
    /* Zero-length put-with-signal: only the signal (ADD). */
    shmem_putmem_signal(data, src, 0, &ack, 1, SHMEM_SIGNAL_ADD, left);
  }
  shmem_signal_wait_until(&ack, SHMEM_CMP_EQ, ROUNDS);

  /* SHMEM_SIGNAL_ADD from everyone, with data: PE 0 receives me+1 from each PE. */
  static long slot[64];
  long mine = 100 + me;
  shmem_barrier_all();
  if (me < 64)
    shmem_long_put_signal(&slot[me], &mine, 1, &counter, (uint64_t)me + 1, SHMEM_SIGNAL_ADD, 0);
  if (me == 0) {
    const int senders      = npes < 64 ? npes : 64;
    const uint64_t expect  = (uint64_t)senders * (senders + 1) / 2;
    const uint64_t reached = shmem_signal_wait_until(&counter, SHMEM_CMP_EQ, expect);
    CHECK(reached == expect, "counter %llu", (unsigned long long)reached);
    for (int p = 0; p < senders; ++p)
      CHECK(slot[p] == 100 + p, "slot %d = %ld", p, slot[p]);
  }

  /* To oneself, and the ctx sized form with an int payload. */
  static int ibuf[8];
  int ivals[8];
  for (int i = 0; i < 8; ++i)
    ivals[i] = me * 10 + i;
  shmem_ctx_put32_signal(ctx, ibuf, ivals, 8, &self_sig, 77, SHMEM_SIGNAL_SET, me);
  shmem_signal_wait_until(&self_sig, SHMEM_CMP_EQ, 77);
  for (int i = 0; i < 8; ++i)
    CHECK(ibuf[i] == me * 10 + i, "self put32_signal [%d] = %d", i, ibuf[i]);
  shmem_double_put_signal_nbi((double*)slot, (const double*)src, 1, &self_sig, 1, SHMEM_SIGNAL_ADD, me);
  shmem_quiet();
  CHECK(shmem_signal_fetch(&self_sig) == 78, "self add: %llu", (unsigned long long)shmem_signal_fetch(&self_sig));

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("sig_put_signal");
  shmem_finalize();
  return rc;
}
