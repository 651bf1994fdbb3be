/* Seed 003's non-blocking RMA and AMOs with request handles (seed names, -DSHMEMSIM_SEED_NAMES).
 * `nb_rma`: the seed's non-blocking get example (shmem_int_get_nb from the next PE, useful work,
 * shmem_wait_request, then the value is used), puts in typed, sized and mem forms, fetching and
 * non-fetching AMOs, test_request polling, zero-length requests; checked values.
 * `nb_rma semantics` (2+ PEs, run with a slow network): quiet does NOT complete a request and fence
 * does NOT order it. PE 0 puts 1 MiB to PE 1 with a request, calls shmem_quiet, then sets a flag
 * on PE 1: PE 1 reports how much data was there when the flag arrived (with a slow network: not
 * all of it, so the put was still in flight after quiet), and the same after fence; after
 * shmem_wait_request the data must all be there. The same with shmem_putmem_nbi, which quiet does
 * complete: all data must be there. `nb_rma leak`: a request never waited for is completed and
 * reported by shmem_finalize. (The flag goes on a context of its own: run with more than one
 * injection queue per NIC, or it waits behind the big put in the NIC's queue.) `nb_rma abort`: the last PE calls shmem_abort(5).
 * `nb_rma many`: 32 gets outstanding at once per PE, completed in reverse order (with few NIC
 * counters, requests share them: the values must still be right). */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "progtest.h"

#define BIG (1 << 20)

static int me, npes;
static int source, target_sym;
static long lsrc[8], ldst[8];
static unsigned char big[BIG];
static unsigned char local_big[BIG];
static int flag;
static shmem_ctx_t flag_ctx;
static long counter;
static unsigned int bits;
static double dval;

static unsigned char pat(int i, int round) { return (unsigned char)(i * 7 + round * 31 + (i >> 10)); }

static int in_place(int round)
{
  int n = 0;
  for (int i = 0; i < BIG; ++i)
    n += big[i] == pat(i, round);
  return n;
}

static void basics(void)
{
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;
  /* The seed's example: get from me+1 (the next PE here), work, wait, use. */
  shmem_request_handle_t request1;
  int target = -1;
  double y = 2.0, x;
  source = 100 + me;
  shmem_barrier_all();
  shmem_int_get_nb(&target, &source, 1, next, &request1);
  double work = 0; /* some useful work */
  for (int i = 0; i < 1000; ++i)
    work += i * 0.5;
  shmem_wait_request(request1);
  x = target + 0.25 * y;
  CHECK(target == 100 + next, "get_nb: target %d, expected %d", target, 100 + next);
  CHECK(x == 100 + next + 0.5 && work > 0, "x %f", x);

  /* Puts: typed, sized and mem forms, each waited for, then a barrier (the put is complete). */
  shmem_request_handle_t r[4];
  long mine[8];
  for (int i = 0; i < 8; ++i)
    mine[i] = me * 100 + i;
  shmem_long_put_nb(ldst, mine, 2, next, &r[0]);
  shmem_put64_nb(ldst + 2, mine + 2, 2, next, &r[1]);
  shmem_putmem_nb(ldst + 4, mine + 4, 2 * sizeof(long), next, &r[2]);
  shmemx_long_put_req(ldst + 6, mine + 6, 2, next, &r[3]);
  for (int i = 3; i >= 0; --i) /* out of order completion */
    shmem_wait_request(r[i]);
  shmem_barrier_all();
  for (int i = 0; i < 8; ++i)
    CHECK(ldst[i] == prev * 100 + i, "put_nb element %d is %ld, expected %d", i, ldst[i], prev * 100 + i);
  /* The seed's type-generic names (C11). */
  long back[8];
  shmem_get_nb(back, ldst, 8, next, &r[0]);
  shmem_wait_request(r[0]);
  for (int i = 0; i < 8; ++i)
    CHECK(back[i] == me * 100 + i, "generic get_nb element %d is %ld", i, back[i]);
  shmem_barrier_all();
  shmem_put_nb(ldst, back, 8, me, &r[1]);
  shmem_wait_request(r[1]);

  /* Gets polled with test_request. */
  for (int i = 0; i < 8; ++i)
    lsrc[i] = me * 10 + i;
  shmem_barrier_all();
  long got[8];
  shmem_request_handle_t g;
  shmem_getmem_nb(got, lsrc, sizeof got, prev, &g);
  int polls = 0;
  while (!shmem_test_request(g))
    ++polls;
  for (int i = 0; i < 8; ++i)
    CHECK(got[i] == prev * 10 + i, "getmem_nb element %d is %ld", i, got[i]);
  if (npes > 1)
    CHECK(polls > 0, "a remote get was complete at its first test");

  /* AMOs: fetch-add on PE 0 from everyone, then a fetch of the total; non-fetching add, bitwise or,
   * atomic set and swap on doubles. */
  counter = 0;
  bits    = 0;
  shmem_barrier_all();
  long old = -1;
  shmem_request_handle_t a[3];
  shmem_long_atomic_fetch_add_nb(&old, &counter, 1, 0, &a[0]);
  shmem_long_atomic_add_nb(&counter, 10, 0, &a[1]);
  shmem_uint_atomic_or_nb(&bits, 1u << (me % 31), 0, &a[2]);
  shmem_wait_request(a[0]);
  shmem_wait_request(a[2]);
  shmem_wait_request(a[1]);
  CHECK(old >= 0 && old < 11L * npes, "fetch_add fetched %ld", old);
  shmem_barrier_all();
  long total = -1;
  shmem_long_atomic_fetch_nb(&total, &counter, 0, &a[0]);
  shmem_wait_request(a[0]);
  CHECK(total == 11L * npes, "counter %ld, expected %ld", total, 11L * npes);
  unsigned int expect_bits = 0;
  for (int p = 0; p < npes; ++p)
    expect_bits |= 1u << (p % 31);
  if (me == 0)
    CHECK(bits == expect_bits, "bits %x, expected %x", bits, expect_bits);
  shmem_barrier_all();
  if (me == 0) {
    dval = 0;
    shmem_double_atomic_set_nb(&dval, 1.5, next, &a[0]);
    shmem_wait_request(a[0]);
  }
  shmem_barrier_all();
  if (me == 1 % npes)
    CHECK(dval == 1.5, "atomic_set_nb left %f", dval);
  double was = 0;
  shmem_double_atomic_swap_nb(&was, &dval, 2.5, me, &a[1]);
  shmem_wait_request(a[1]);
  CHECK(dval == 2.5 && was == (me == 1 % npes ? 1.5 : 0.0), "swap_nb: %f, was %f", dval, was);

  /* Zero length: complete at once; NULL: nothing to wait for. */
  shmem_request_handle_t z;
  shmem_int_put_nb(NULL, NULL, 0, next, &z);
  CHECK(shmem_test_request(z) == 1, "a zero-length request was not complete");
  shmem_wait_request(SHMEMX_REQUEST_NULL);
  shmem_barrier_all();
}

/* One round: PE 0 puts the pattern with `how`, then calls `between`, then sets the flag. */
static void semantics_round(int round, int use_request, int use_fence)
{
  const char* call = use_fence ? "fence" : "quiet";
  memset(big, 0, sizeof big);
  flag = 0;
  shmem_barrier_all();
  if (me == 0) {
    for (int i = 0; i < BIG; ++i)
      local_big[i] = pat(i, round);
    shmem_request_handle_t r = SHMEMX_REQUEST_NULL;
    if (use_request)
      shmem_putmem_nb(big, local_big, BIG, 1, &r);
    else
      shmem_putmem_nbi(big, local_big, BIG, 1);
    if (use_fence)
      shmem_fence();
    else
      shmem_quiet();
    const int done = shmem_test_request(r);
    /* The flag goes on a context of its own (its own injection queue when the NIC has spare
     * ones), so that it is not queued behind the big put in the NIC. */
    shmem_ctx_int_p(flag_ctx, &flag, 1, 1);
    shmem_ctx_quiet(flag_ctx);
    printf("nb_rma: %s put: request complete right after %s: %s\n", use_request ? "request" : "nbi", call,
           done ? "yes" : "no");
    if (!done) /* a test that returned 1 released the request */
      shmem_wait_request(r);
    shmem_quiet();
    shmem_int_p(&flag, 2, 1);
  } else if (me == 1) {
    shmem_int_wait_until(&flag, SHMEM_CMP_GE, 1);
    const int n = in_place(round);
    printf("nb_rma: %s put: %d of %d bytes in place when the flag set after %s arrived: %s\n",
           use_request ? "request" : "nbi", n, BIG, call, n == BIG ? "complete" : "still in flight");
    if (!use_request && !use_fence)
      CHECK(n == BIG, "quiet did not complete an nbi put: %d of %d bytes", n, BIG);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 2);
    CHECK(in_place(round) == BIG, "after shmem_wait_request: %d of %d bytes in place", in_place(round), BIG);
  }
  fflush(stdout);
  shmem_barrier_all();
}

int main(int argc, char** argv)
{
  shmem_init();
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "semantics") == 0) {
    if (npes < 2) {
      printf("nb_rma: semantics needs 2 PEs\n");
      return 1;
    }
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &flag_ctx) != 0)
      flag_ctx = SHMEM_CTX_DEFAULT;
    semantics_round(1, 1, 0); /* request put, quiet */
    semantics_round(2, 0, 0); /* nbi put, quiet: complete */
    semantics_round(3, 1, 1); /* request put, fence */
  } else if (strcmp(mode, "many") == 0) {
    enum { K = 32 };
    static long arr[K];
    long got[K];
    shmem_request_handle_t r[K];
    for (int i = 0; i < K; ++i)
      arr[i] = me * 1000 + i;
    shmem_barrier_all();
    const int next = (me + 1) % npes;
    for (int i = 0; i < K; ++i)
      shmem_long_get_nb(&got[i], &arr[i], 1, next, &r[i]);
    for (int i = K - 1; i >= 0; --i)
      shmem_wait_request(r[i]);
    for (int i = 0; i < K; ++i)
      CHECK(got[i] == next * 1000 + i, "get %d: %ld", i, got[i]);
  } else if (strcmp(mode, "leak") == 0) {
    shmem_request_handle_t r;
    source = me;
    shmem_barrier_all();
    shmem_int_get_nb(&target_sym, &source, 1, (me + 1) % npes, &r);
    /* never waited for: shmem_finalize completes and reports it */
  } else if (strcmp(mode, "abort") == 0) {
    if (me == npes - 1) {
      fflush(stdout);
      shmem_abort(5);
      printf("not reached after shmem_abort\n");
    }
    shmem_barrier_all();
    printf("not reached: PE %d passed the barrier\n", me);
  } else {
    basics();
  }
  const int rc = progtest_finish("nb_rma");
  shmem_finalize();
  if (strcmp(mode, "leak") == 0 && me == 0)
    printf("nb_rma: leak: target %d after finalize\n", target_sym);
  return rc;
}
