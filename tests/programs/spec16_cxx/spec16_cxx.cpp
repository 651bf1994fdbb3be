// The OpenSHMEM 1.6 additions from C++ (shmemsim-c++): the typed names (shmem_int_ibput,
// shmem_ctx_double_ibget, shmem_ibput64, shmem_long_sum_inscan, shmem_complexd_sum_exscan, ...),
// the overloaded generic names (shmem_ibput/ibget with and without a context, shmem_sum_inscan/
// exscan, shmem_signal_add/set(ctx, ...)), std::complex<float>/std::complex<double> with the
// complex routines (typed and overloaded; reductions, scans, the deprecated _to_all), shmem_pe_quiet, sessions, and the pshmem_ names.
#include <pshmem.h>
#include <shmem.h>

#include <complex>
#include <cstdint>
#include <cstring>

#include "progtest.h"

static int me, npes, right, left;

static int idst[16];
static double ddst[16];
static std::uint64_t w64[16];
static long lsrc[4], lin[4], lex[4];
static std::complex<double> zsrc[3], zin[3], zex[3], zred[3];
static std::complex<float> csrc[3], cin[3];
static std::uint64_t sig;

template <class T> static T val(int pe, int k)
{
  return static_cast<T>(pe * 16 + k + 1);
}

int main()
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

  // ibput: blocks of 2 ints every 4 elements from every 3rd (typed), then the overloads.
  int isrc[16];
  double dsrc[16];
  std::uint64_t u[16];
  for (int k = 0; k < 16; ++k) {
    isrc[k] = val<int>(me, k);
    dsrc[k] = val<double>(me, k);
    u[k]    = val<std::uint64_t>(me, k);
  }
  shmem_int_ibput(idst, isrc, 4, 3, 2, 2, right);         // idst[0,1,4,5] = src[0,1,3,4]
  shmem_ibput(ctx, &idst[8], isrc, 4, 3, 2, 2, right);    // idst[8,9,12,13]
  shmem_ibput(ddst, dsrc, 2, 2, 2, 8, right);             // contiguous
  shmem_ibput64(w64, u, 2, 4, 1, 4, right);               // w64[0,2,4,6] = u[0,4,8,12]
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  const int ipos[8] = {0, 1, 4, 5, 8, 9, 12, 13}, isrcpos[8] = {0, 1, 3, 4, 0, 1, 3, 4};
  for (int k = 0; k < 8; ++k)
    CHECK(idst[ipos[k]] == val<int>(left, isrcpos[k]), "int ibput element %d", ipos[k]);
  CHECK(idst[2] == 0 && idst[10] == 0, "int ibput leaves the gaps");
  for (int k = 0; k < 16; ++k)
    CHECK(ddst[k] == val<double>(left, k), "double ibput (overload) element %d", k);
  for (int k = 0; k < 4; ++k)
    CHECK(w64[2 * k] == val<std::uint64_t>(left, 4 * k), "ibput64 element %d", 2 * k);
  int ig[4];
  double dg[4];
  shmem_int_ibget(ig, idst, 2, 4, 2, 2, right);          // idst[0,1,4,5] of right
  shmem_ctx_double_ibget(ctx, dg, ddst, 2, 8, 1, 2, right); // right's ddst[0], ddst[8] (my values)
  CHECK(ig[0] == val<int>(me, 0) && ig[1] == val<int>(me, 1) && ig[2] == val<int>(me, 3) && ig[3] == val<int>(me, 4),
        "int ibget");
  CHECK(dg[0] == val<double>(me, 0) && dg[2] == val<double>(me, 8), "ctx double ibget");
  long lg[2];
  shmem_ibget(ctx, lg, lsrc, 1, 1, 1, 0, right); // zero blocks
  shmem_barrier_all();

  // Prefix sums (typed and overloaded), std::complex included.
  for (int j = 0; j < 4; ++j)
    lsrc[j] = me + 1 + j;
  for (int j = 0; j < 3; ++j) {
    zsrc[j] = std::complex<double>(me + 1, j);
    csrc[j] = std::complex<float>(static_cast<float>(j), static_cast<float>(me));
  }
  CHECK(shmem_long_sum_inscan(SHMEM_TEAM_WORLD, lin, lsrc, 4) == 0, "long inscan rc");
  CHECK(shmem_sum_exscan(SHMEM_TEAM_WORLD, lex, lsrc, 4) == 0, "generic exscan rc");
  CHECK(shmem_sum_inscan(SHMEM_TEAM_WORLD, zin, zsrc, 3) == 0, "std::complex<double> inscan rc");
  CHECK(shmem_complexd_sum_exscan(SHMEM_TEAM_WORLD, zex, zsrc, 3) == 0, "std::complex<double> exscan rc");
  CHECK(shmem_complexf_sum_inscan(SHMEM_TEAM_WORLD, cin, csrc, 3) == 0, "std::complex<float> inscan rc");
  CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, zred, zsrc, 3) == 0, "std::complex<double> sum_reduce rc");
  for (int j = 0; j < 4; ++j) {
    long in = 0;
    for (int k = 0; k <= me; ++k)
      in += k + 1 + j;
    CHECK(lin[j] == in, "long inscan element %d", j);
    CHECK(lex[j] == in - (me + 1 + j), "long exscan element %d", j);
  }
  const double tri = (me + 1) * (me + 2) / 2.0, all = npes * (npes + 1) / 2.0;
  for (int j = 0; j < 3; ++j) {
    CHECK(zin[j] == std::complex<double>(tri, (me + 1) * j), "complexd inscan element %d", j);
    CHECK(zex[j] == std::complex<double>(tri - (me + 1), me * j), "complexd exscan element %d", j);
    CHECK(cin[j] == std::complex<float>(static_cast<float>((me + 1) * j), static_cast<float>(me * (me + 1) / 2)),
          "complexf inscan element %d", j);
    CHECK(zred[j] == std::complex<double>(all, npes * j), "complexd sum_reduce element %d", j);
  }

  // The deprecated active-set form with std::complex (typed overload).
  static std::complex<double> zall[3], zwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
  static long psync[SHMEM_REDUCE_SYNC_SIZE];
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i)
    psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  shmem_complexd_sum_to_all(zall, zsrc, 3, 0, 0, npes, zwrk, psync);
  for (int j = 0; j < 3; ++j)
    CHECK(zall[j] == std::complex<double>(all, npes * j), "complexd sum_to_all element %d", j);

  // pe_quiet, signals, sessions.
  shmem_long_put_nbi(lsrc, lin, 4, right);
  shmem_pe_quiet(&right, 1);
  shmem_pe_quiet(nullptr, 0);
  shmem_ctx_pe_quiet(ctx, nullptr, 0);
  shmem_barrier_all();
  shmem_signal_set(ctx, &sig, 3, right);
  shmem_ctx_quiet(ctx); // the set lands before the add on the other context
  shmem_signal_add(&sig, 4, right);
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 7) == 7, "signal_set(ctx) 3 + signal_add 4");
  shmem_barrier_all();
  shmem_ctx_session_config_t cfg{};
  cfg.total_ops = 1;
  shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  shmem_signal_add(ctx, &sig, 1, right);
  shmem_ctx_session_stop(ctx);
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 8) == 8, "signal_add(ctx) in a session");
  pshmem_ctx_session_start(ctx, 0, nullptr, 0);
  pshmem_ctx_session_stop(ctx);
  pshmem_pe_quiet(nullptr, 0);

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  int rc = progtest_finish("spec16_cxx");
  shmem_finalize();
  return rc;
}
