/* The C11 type-generic interfaces (OpenSHMEM 1.5): shmem_put/get/p/g/iput/iget/put_nbi/get_nbi,
 * shmem_put_signal[_nbi], shmem_atomic_*, shmem_wait_until, shmem_test and the multi-element
 * waits, with and without a leading context, on several types; compiled with -std=c11. Each PE
 * works with its right neighbour; results are checked after barriers. */
#include <shmem.h>
#include <stdint.h>

#include "progtest.h"

static int ia[8];
static long la[8];
static double da[8];
static char ca[8];
static unsigned short ua[8];
static long double xa[4];
static int32_t i32;
static uint64_t u64;
static int64_t i64;
static long long ll;
static float fl;
static unsigned int flags[64];
static uint64_t sig;

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

  int iv[8];
  long lv[8];
  double dv[8];
  char cv[8];
  unsigned short uvv[8];
  for (int i = 0; i < 8; ++i) {
    iv[i]  = me * 10 + i;
    lv[i]  = -(long)me * 10 - i;
    dv[i]  = me + i / 8.0;
    cv[i]  = (char)('A' + (me + i) % 26);
    uvv[i] = (unsigned short)(me * 3 + i);
  }
  /* RMA: put, put (ctx), p, iput, put_nbi. */
  shmem_put(ia, iv, 8, right);
  shmem_put(ctx, la, lv, 8, right);
  shmem_p(&da[0], dv[0], right);
  shmem_p(ctx, &da[1], dv[1], right);
  shmem_iput(ca, cv, 2, 1, 4, right); /* ca[0,2,4,6] = cv[0..3] */
  shmem_put_nbi(ua, uvv, 8, right);
  shmem_put_nbi(ctx, &da[2], &dv[2], 6, right);
  long double xv[4] = {1.5L * me, 2.5L, 3.5L, 4.5L};
  shmem_put(xa, xv, 4, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  for (int i = 0; i < 8; ++i) {
    CHECK(ia[i] == left * 10 + i, "put int [%d] = %d", i, ia[i]);
    CHECK(la[i] == -(long)left * 10 - i, "ctx put long [%d] = %ld", i, la[i]);
    CHECK(da[i] == left + i / 8.0, "p/put_nbi double [%d] = %g", i, da[i]);
    CHECK(ua[i] == (unsigned short)(left * 3 + i), "put_nbi ushort [%d] = %u", i, ua[i]);
  }
  for (int i = 0; i < 4; ++i)
    CHECK(ca[2 * i] == (char)('A' + (left + i) % 26), "iput char [%d]", 2 * i);
  CHECK(xa[0] == 1.5L * left && xa[3] == 4.5L, "put long double");

  /* get, g (ctx and const source), iget, get_nbi. */
  int gi[8];
  long gl[8];
  shmem_get(gi, ia, 8, right); /* right's ia holds my values */
  shmem_get(ctx, gl, la, 8, right);
  const double* cda = da;
  const double g0   = shmem_g(cda, right);
  const int g1      = shmem_g(ctx, &ia[3], right);
  char gc[4];
  shmem_iget(gc, ca, 1, 2, 4, right);
  double gd[8];
  shmem_get_nbi(gd, da, 8, right);
  unsigned short gu[8];
  shmem_get_nbi(ctx, gu, ua, 8, right);
  shmem_quiet();
  shmem_ctx_quiet(ctx);
  for (int i = 0; i < 8; ++i) {
    CHECK(gi[i] == iv[i], "get int [%d]", i);
    CHECK(gl[i] == lv[i], "ctx get long [%d]", i);
    CHECK(gd[i] == dv[i], "get_nbi double [%d]", i);
    CHECK(gu[i] == uvv[i], "ctx get_nbi ushort [%d]", i);
  }
  for (int i = 0; i < 4; ++i)
    CHECK(gc[i] == cv[i], "iget char [%d]", i);
  CHECK(g0 == dv[0] && g1 == iv[3], "g: %g %d", g0, g1);
  shmem_barrier_all();

  /* AMOs at PE 0 from everyone. */
  shmem_atomic_add(&i32, 2, 0);
  shmem_atomic_fetch_add(ctx, &i64, (int64_t)me, 0);
  shmem_atomic_inc(&ll, 0);
  (void)shmem_atomic_fetch_inc(ctx, &ll, 0);
  shmem_atomic_or(&u64, (uint64_t)1 << (me % 64), 0);
  shmem_atomic_xor(ctx, &flags[me % 64], 5u, 0);
  shmem_ctx_quiet(ctx); /* another context: order the two updates */
  (void)shmem_atomic_fetch_and(&flags[me % 64], 4u, 0);
  shmem_barrier_all();
  if (me == 0) {
    CHECK(i32 == 2 * npes, "atomic_add int32 %d", (int)i32);
    CHECK(i64 == (int64_t)npes * (npes - 1) / 2, "atomic_fetch_add int64 %lld", (long long)i64);
    CHECK(ll == 2LL * npes, "inc/fetch_inc long long %lld", ll);
    uint64_t mask = 0;
    for (int p = 0; p < npes; ++p)
      mask |= (uint64_t)1 << (p % 64);
    CHECK(u64 == mask, "atomic_or uint64");
    for (int p = 0; p < npes && p < 64; ++p)
      CHECK(flags[p] == 4u, "xor/and flags[%d] = %u", p, flags[p]);
  }
  shmem_barrier_all();
  /* swap, compare_swap, fetch (const source), set, float; nbi fetching forms. */
  const float old_f = shmem_atomic_swap(&fl, (float)me, right);
  (void)old_f;
  shmem_barrier_all();
  CHECK(fl == (float)left, "swap float %g", fl);
  const int prev = shmem_atomic_compare_swap(ctx, &ia[0], left * 10, 12345, me);
  CHECK(prev == left * 10 && ia[0] == 12345, "compare_swap %d -> %d", prev, ia[0]);
  shmem_barrier_all();
  const long* cla = la;
  CHECK(shmem_atomic_fetch(cla, right) == -(long)me * 10, "atomic_fetch long");
  CHECK(shmem_atomic_fetch(ctx, &ia[0], me) == 12345, "ctx atomic_fetch int");
  shmem_atomic_set(ctx, &la[1], 77L, me);
  shmem_ctx_quiet(ctx);
  CHECK(la[1] == 77, "atomic_set");
  long fetched = 0;
  shmem_atomic_fetch_add_nbi(&fetched, &la[1], 3L, me);
  shmem_quiet();
  CHECK(fetched == 77 && la[1] == 80, "fetch_add_nbi %ld %ld", fetched, la[1]);
  unsigned long long fv = 0;
  static unsigned long long bits;
  shmem_atomic_fetch_or_nbi(ctx, &fv, &bits, 6ULL, me);
  shmem_ctx_quiet(ctx);
  CHECK(fv == 0 && bits == 6ULL, "fetch_or_nbi");
  int cs = 0;
  shmem_atomic_compare_swap_nbi(&cs, &ia[0], 12345, 1, me);
  shmem_quiet();
  CHECK(cs == 12345 && ia[0] == 1, "compare_swap_nbi");
  shmem_barrier_all();

  /* Signals, wait_until, test and the multi-element waits. */
  static long sdata[4];
  long sv[4] = {me, me, me, me};
  shmem_put_signal(sdata, sv, 4, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_put_signal_nbi(ctx, &sdata[2], &sv[2], 2, &sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_ctx_quiet(ctx);
  shmem_wait_until(&sig, SHMEM_CMP_EQ, 2);
  for (int i = 0; i < 4; ++i)
    CHECK(sdata[i] == left, "put_signal sdata[%d] = %ld", i, sdata[i]);
  static int ready[64];
  if (me < 64)
    for (int p = 0; p < npes; ++p)
      shmem_atomic_set(&ready[me], 1, p);
  const size_t nr = (size_t)(npes < 64 ? npes : 64);
  shmem_wait_until_all(ready, nr, NULL, SHMEM_CMP_EQ, 1);
  CHECK(shmem_test_all(ready, nr, NULL, SHMEM_CMP_EQ, 1) == 1, "test_all");
  CHECK(shmem_test_any(ready, nr, NULL, SHMEM_CMP_EQ, 1) < nr, "test_any");
  size_t idx[64];
  CHECK(shmem_wait_until_some(ready, nr, idx, NULL, SHMEM_CMP_EQ, 1) == nr, "wait_until_some");
  CHECK(shmem_wait_until_any(ready, nr, NULL, SHMEM_CMP_EQ, 1) < nr, "wait_until_any");
  int want[64];
  for (size_t i = 0; i < nr; ++i)
    want[i] = 1;
  shmem_wait_until_all_vector(ready, nr, NULL, SHMEM_CMP_EQ, want);
  CHECK(shmem_test(&ready[0], SHMEM_CMP_EQ, 1) == 1, "test");
  static long lflag;
  shmem_atomic_set(&lflag, 3L, right);
  shmem_wait_until(&lflag, SHMEM_CMP_GE, 3); /* long: the untyped routine */

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("generic_c11");
  shmem_finalize();
  return rc;
}
