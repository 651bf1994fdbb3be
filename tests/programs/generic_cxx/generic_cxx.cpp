// The type-generic names from C++ (shmemsim-c++): overloads of shmem_put/get/p/g/iput/iget,
// shmem_put_signal, shmem_atomic_*, shmem_wait_until, shmem_test and the multi-element waits,
// with and without a context; plus locks, signals and pshmem_ names from C++.
#include <shmem.h>

#include <cstdint>
#include <vector>

#include "progtest.h"

static long la[8];
static double da[8];
static unsigned int ua[8];
static uint64_t sig;
static long lock;
static long counter;
static int ready[64];

int main()
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

  std::vector<long> lv(8);
  std::vector<double> dv(8);
  for (int i = 0; i < 8; ++i) {
    lv[i] = me * 100 + i;
    dv[i] = me + 0.25 * i;
  }
  shmem_put(la, lv.data(), 8, right);
  shmem_put_nbi(ctx, da, dv.data(), 8, right);
  shmem_p(&ua[0], 7u, right);
  shmem_p(ctx, &ua[1], 8u, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  for (int i = 0; i < 8; ++i) {
    CHECK(la[i] == left * 100 + i, "put long [%d]", i);
    CHECK(da[i] == left + 0.25 * i, "ctx put_nbi double [%d]", i);
  }
  CHECK(ua[0] == 7u && ua[1] == 8u, "p unsigned");
  const long* cla = la;
  CHECK(shmem_g(cla, right) == me * 100, "g const long");
  CHECK(shmem_g(ctx, &da[1], right) == me + 0.25, "ctx g double");
  long strided[4];
  shmem_iget(strided, la, 1, 2, 4, right);
  for (int i = 0; i < 4; ++i)
    CHECK(strided[i] == me * 100 + 2 * i, "iget [%d]", i);
  shmem_barrier_all();

  // Signals and waits.
  long payload[2] = {me, -me};
  shmem_put_signal(&la[6], payload, 2, &sig, 5, SHMEM_SIGNAL_SET, right);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 5) == 5, "signal_wait_until");
  CHECK(la[6] == left && la[7] == -left, "put_signal data");
  shmem_put_signal_nbi(ctx, &ua[2], &ua[0], 1, &sig, 1, SHMEM_SIGNAL_ADD, me);
  shmem_ctx_quiet(ctx);
  shmem_wait_until(&sig, SHMEM_CMP_EQ, 6ul);
  shmem_barrier_all();

  // AMOs and locks.
  shmem_atomic_add(&counter, 1L, 0);
  (void)shmem_atomic_fetch_add(ctx, &counter, 1L, 0);
  uint64_t fetched = 0;
  static uint64_t bits;
  shmem_atomic_fetch_or_nbi(&fetched, &bits, uint64_t(1) << (me % 64), 0);
  shmem_quiet();
  CHECK(fetched == 0 || npes > 1, "fetch_or_nbi fetched %llu", (unsigned long long)fetched);
  shmem_barrier_all(); // the atomic adds land before the get/put increments below
  for (int i = 0; i < 3; ++i) {
    shmem_set_lock(&lock);
    const long v = shmem_long_g(&counter, 0);
    shmem_long_p(&counter, v + 10, 0);
    shmem_clear_lock(&lock);
  }
  if (me < 64)
    for (int p = 0; p < npes; ++p)
      shmem_atomic_set(&ready[me], 1, p);
  const std::size_t nr = std::size_t(npes < 64 ? npes : 64);
  shmem_wait_until_all(ready, nr, nullptr, SHMEM_CMP_EQ, 1);
  std::vector<int> want(nr, 1);
  CHECK(shmem_test_all_vector(ready, nr, nullptr, SHMEM_CMP_EQ, want.data()) == 1, "test_all_vector");
  std::vector<std::size_t> idx(nr);
  CHECK(shmem_wait_until_some(ready, nr, idx.data(), nullptr, SHMEM_CMP_EQ, 1) == nr, "wait_until_some");
  CHECK(shmem_test(&ready[0], SHMEM_CMP_EQ, 1) == 1, "test");
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter == 32L * npes, "counter %ld, expected %ld", counter, 32L * npes);
  pshmem_barrier_all();

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("generic_cxx");
  shmem_finalize();
  return rc;
}
