// The OpenSHMEM 1.5 generic names in C++ (shmemsim-c++): overloads of shmem_put/get/p/g/iput/
// iget/put_nbi/get_nbi/put_signal over every standard RMA type, the shmem_atomic_* names over
// their type tables, the point-to-point names with NULL (and 0) status arrays, the team
// collectives and reductions, with and without a leading context; and the typed names
// (shmem_int_put, shmem_ctx_long_atomic_fetch_add, shmem_double_sum_reduce, ...) as a C++ test
// suite calls them. Each PE works with its right neighbour; every value is checked.
#include <shmem.h>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "progtest.h"

namespace {

int me, npes, right, left;
shmem_ctx_t ctx;

template <class T> T val(int pe, int i)
{
  return static_cast<T>(pe * 8 + i + 1);
}

// Symmetric storage per type: a template's static data member is one object per T.
template <class T> struct Sym {
  static T dst[16];
  static T src[16];
  static T red[4];
  static std::uint64_t sig;
};
template <class T> T Sym<T>::dst[16];
template <class T> T Sym<T>::src[16];
template <class T> T Sym<T>::red[4];
template <class T> std::uint64_t Sym<T>::sig;

template <class T> void rma(const char* name)
{
  T* d = Sym<T>::dst;
  T v[8];
  for (int i = 0; i < 8; ++i)
    v[i] = val<T>(me, i);
  Sym<T>::sig = 0; // int32_t and int (etc.) share their Sym<T>
  shmem_barrier_all();
  shmem_put(d, v, 4, right);
  shmem_put(ctx, d + 4, v + 4, 2, right);
  shmem_p(d + 6, v[6], right);
  shmem_p(ctx, d + 7, v[7], right);
  shmem_iput(d + 8, v, 2, 1, 2, right); // d[8], d[10]
  shmem_put_nbi(ctx, d + 9, v + 1, 1, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  for (int i = 0; i < 8; ++i)
    CHECK(d[i] == val<T>(left, i), "%s put/p [%d]", name, i);
  CHECK(d[8] == val<T>(left, 0) && d[10] == val<T>(left, 1) && d[9] == val<T>(left, 1), "%s iput/put_nbi", name);
  T g[8], ig[2];
  shmem_get(g, d, 4, right);
  shmem_get_nbi(ctx, g + 4, d + 4, 4, right);
  shmem_ctx_quiet(ctx);
  for (int i = 0; i < 8; ++i)
    CHECK(g[i] == val<T>(me, i), "%s get/get_nbi [%d]", name, i);
  CHECK(shmem_g(d + 3, right) == val<T>(me, 3) && shmem_g(ctx, d + 5, right) == val<T>(me, 5), "%s g", name);
  shmem_iget(ig, d, 1, 2, 2, right);
  CHECK(ig[0] == val<T>(me, 0) && ig[1] == val<T>(me, 2), "%s iget", name);
  shmem_put_signal(Sym<T>::src, v, 8, &Sym<T>::sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_put_signal_nbi(ctx, Sym<T>::src + 8, v, 8, &Sym<T>::sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_ctx_quiet(ctx);
  shmem_signal_wait_until(&Sym<T>::sig, SHMEM_CMP_EQ, 2);
  CHECK(Sym<T>::src[15] == val<T>(left, 7), "%s put_signal", name);
  shmem_barrier_all();
}

template <class T> void amo_standard(const char* name)
{
  T* s = Sym<T>::dst;
  for (int i = 0; i < 4; ++i)
    s[i] = 0;
  shmem_barrier_all();
  shmem_atomic_inc(s, right);
  shmem_atomic_add(ctx, s + 1, 5, right);
  const T a = shmem_atomic_fetch_inc(ctx, s + 2, right);
  const T b = shmem_atomic_fetch_add(s + 2, 3, right);
  const T c = shmem_atomic_compare_swap(s + 3, 0, 7, right);
  T f;
  shmem_atomic_fetch_add_nbi(ctx, &f, s + 3, 1, right);
  shmem_ctx_quiet(ctx);
  CHECK(a == 0 && b == 1 && c == 0 && f == 7, "%s fetching AMOs", name);
  shmem_barrier_all();
  CHECK(s[0] == 1 && s[1] == 5 && s[2] == 4 && s[3] == 8, "%s standard AMO values", name);
  shmem_barrier_all();
}

template <class T> void amo_extended(const char* name)
{
  T* s = Sym<T>::dst;
  s[0] = 0;
  shmem_barrier_all();
  shmem_atomic_set(ctx, s, 9, right);
  shmem_ctx_quiet(ctx);
  const T old = shmem_atomic_swap(s, 4, right);
  T f;
  shmem_atomic_fetch_nbi(&f, s, right);
  shmem_quiet();
  CHECK(old == 9 && f == 4 && shmem_atomic_fetch(ctx, s, right) == 4, "%s extended AMOs", name);
  shmem_barrier_all();
}

template <class T> void amo_bitwise(const char* name)
{
  T* s = Sym<T>::dst;
  s[0] = 0xF0;
  shmem_barrier_all();
  const T a = shmem_atomic_fetch_and(s, 0x3C, right);
  shmem_atomic_or(ctx, s, 0x01, right);
  shmem_ctx_quiet(ctx);
  T f;
  shmem_atomic_fetch_xor_nbi(&f, s, 0xFF, right);
  shmem_quiet();
  CHECK(a == 0xF0 && f == 0x31, "%s bitwise AMOs", name);
  shmem_barrier_all();
  CHECK(s[0] == 0xCE, "%s bitwise AMO value", name);
  shmem_barrier_all();
}

template <class T> void p2p(const char* name)
{
  T* iv = Sym<T>::dst;
  for (int i = 0; i < 4; ++i)
    iv[i] = 0;
  shmem_barrier_all();
  for (int i = 0; i < 4; ++i)
    shmem_p(iv + i, static_cast<T>(i + 1), right);
  size_t idx[4];
  const T want[4] = {1, 2, 3, 4};
  shmem_wait_until(iv + 3, SHMEM_CMP_EQ, 4);
  shmem_wait_until_all(iv, 4, NULL, SHMEM_CMP_GT, 0);
  shmem_wait_until_all(iv, 4, 0, SHMEM_CMP_GT, 0);
  CHECK(shmem_wait_until_any(iv, 4, NULL, SHMEM_CMP_EQ, 2) == 1, "%s wait_until_any", name);
  CHECK(shmem_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, 3) == 2, "%s wait_until_some", name);
  shmem_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want);
  CHECK(shmem_wait_until_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, want) < 4, "%s wait_until_any_vector", name);
  CHECK(shmem_wait_until_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, want) == 4, "%s wait_until_some_vector", name);
  const int status[4] = {1, 0, 0, 0};
  CHECK(shmem_test(iv, SHMEM_CMP_EQ, 1) == 1, "%s test", name);
  CHECK(shmem_test_all(iv, 4, status, SHMEM_CMP_GE, 2) == 1, "%s test_all", name);
  CHECK(shmem_test_any(iv, 4, NULL, SHMEM_CMP_GT, 4) == SIZE_MAX, "%s test_any", name);
  CHECK(shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_LT, 3) == 2, "%s test_some", name);
  CHECK(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, want) == 1, "%s test_all_vector", name);
  CHECK(shmem_test_any_vector(iv, 4, status, SHMEM_CMP_EQ, want) < 4, "%s test_any_vector", name);
  CHECK(shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_NE, want) == 0, "%s test_some_vector", name);
  shmem_barrier_all();
}

template <class T> void coll(const char* name, shmem_team_t team)
{
  T* d = Sym<T>::dst;
  T* s = Sym<T>::src;
  const int n = shmem_team_n_pes(team), p = shmem_team_my_pe(team);
  for (int i = 0; i < 16; ++i)
    s[i] = val<T>(p, i % 8);
  shmem_sync(team);
  CHECK(shmem_broadcast(team, d, s, 2, 0) == 0 && d[1] == val<T>(0, 1), "%s broadcast", name);
  shmem_sync(team);
  CHECK(shmem_fcollect(team, d, s, 1) == 0 && d[n - 1] == val<T>(n - 1, 0), "%s fcollect", name);
  shmem_sync(team);
  CHECK(shmem_collect(team, d, s, 1) == 0 && d[0] == val<T>(0, 0), "%s collect", name);
  shmem_sync(team);
  CHECK(shmem_alltoall(team, d, s, 1) == 0 && d[0] == val<T>(0, p), "%s alltoall", name);
  shmem_sync(team);
  CHECK(shmem_alltoalls(team, d, s, 1, 1, 1) == 0 && d[0] == val<T>(0, p), "%s alltoalls", name);
  shmem_sync(team);
}

shmem_team_t split = SHMEM_TEAM_INVALID;
template <class T> void coll_world(const char* name)
{
  coll<T>(name, SHMEM_TEAM_WORLD);
}
template <class T> void coll_split(const char* name)
{
  coll<T>(name, split);
}

template <class T> void reduce_ordered(const char* name)
{
  T* r = Sym<T>::red;
  r[0] = static_cast<T>(me + 1);
  shmem_sync(SHMEM_TEAM_WORLD);
  shmem_max_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  CHECK(Sym<T>::dst[0] == static_cast<T>(npes), "%s max_reduce", name);
  shmem_min_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  CHECK(Sym<T>::dst[0] == 1, "%s min_reduce", name);
  shmem_sum_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  CHECK(Sym<T>::dst[0] == static_cast<T>(npes * (npes + 1) / 2), "%s sum_reduce", name);
  r[0] = static_cast<T>(me == 0 ? 2 : 1);
  shmem_sync(SHMEM_TEAM_WORLD);
  shmem_prod_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  CHECK(Sym<T>::dst[0] == 2, "%s prod_reduce", name);
}

template <class T> void reduce_bitwise(const char* name)
{
  T* r = Sym<T>::red;
  r[0] = static_cast<T>(0x10 | (1 << (me % 4)));
  shmem_sync(SHMEM_TEAM_WORLD);
  shmem_and_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  CHECK(Sym<T>::dst[0] == static_cast<T>(npes == 1 ? 0x11 : 0x10), "%s and_reduce", name);
  shmem_or_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  T want = 0;
  for (int q = 0; q < npes; ++q)
    want = static_cast<T>(want | 0x10 | (1 << (q % 4)));
  CHECK(Sym<T>::dst[0] == want, "%s or_reduce", name);
  shmem_xor_reduce(SHMEM_TEAM_WORLD, Sym<T>::dst, r, 1);
  want = 0;
  for (int q = 0; q < npes; ++q)
    want = static_cast<T>(want ^ (0x10 | (1 << (q % 4))));
  CHECK(Sym<T>::dst[0] == want, "%s xor_reduce", name);
}

int ti[4];
long tl[4];
double td[4];

} // namespace

int main()
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

#define EACH_RMA(F)                                                                                         \
  F<float>("float"); F<double>("double"); F<long double>("long double"); F<char>("char");                 \
  F<signed char>("signed char"); F<short>("short"); F<int>("int"); F<long>("long");                       \
  F<long long>("long long"); F<unsigned char>("unsigned char"); F<unsigned short>("unsigned short");      \
  F<unsigned int>("unsigned int"); F<unsigned long>("unsigned long");                                     \
  F<unsigned long long>("unsigned long long"); F<std::int8_t>("int8_t"); F<std::int16_t>("int16_t");      \
  F<std::int32_t>("int32_t"); F<std::int64_t>("int64_t"); F<std::uint8_t>("uint8_t");                     \
  F<std::uint16_t>("uint16_t"); F<std::uint32_t>("uint32_t"); F<std::uint64_t>("uint64_t");               \
  F<std::size_t>("size_t"); F<std::ptrdiff_t>("ptrdiff_t");
#define EACH_STANDARD(F)                                                                                    \
  F<int>("int"); F<long>("long"); F<long long>("long long"); F<unsigned int>("unsigned int");              \
  F<unsigned long>("unsigned long"); F<unsigned long long>("unsigned long long");                         \
  F<std::int32_t>("int32_t"); F<std::int64_t>("int64_t"); F<std::uint32_t>("uint32_t");                   \
  F<std::uint64_t>("uint64_t"); F<std::size_t>("size_t"); F<std::ptrdiff_t>("ptrdiff_t");
#define EACH_BITWISE(F)                                                                                     \
  F<unsigned int>("unsigned int"); F<unsigned long>("unsigned long"); F<unsigned long long>("unsigned long long"); \
  F<std::int32_t>("int32_t"); F<std::int64_t>("int64_t"); F<std::uint32_t>("uint32_t"); F<std::uint64_t>("uint64_t");
#define EACH_RED_BITWISE(F)                                                                                 \
  F<unsigned char>("unsigned char"); F<unsigned short>("unsigned short"); F<unsigned int>("unsigned int"); \
  F<unsigned long>("unsigned long"); F<unsigned long long>("unsigned long long"); F<std::int8_t>("int8_t"); \
  F<std::int16_t>("int16_t"); F<std::int32_t>("int32_t"); F<std::int64_t>("int64_t");                     \
  F<std::uint8_t>("uint8_t"); F<std::uint16_t>("uint16_t"); F<std::uint32_t>("uint32_t");                 \
  F<std::uint64_t>("uint64_t"); F<std::size_t>("size_t");

  EACH_RMA(rma)
  EACH_STANDARD(amo_standard)
  EACH_STANDARD(amo_extended)
  amo_extended<float>("float");
  amo_extended<double>("double");
  EACH_BITWISE(amo_bitwise)
  EACH_STANDARD(p2p)
  EACH_RMA(coll_world)
  if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &split) == 0) {
    EACH_RMA(coll_split)
    shmem_team_destroy(split);
  }
  EACH_STANDARD(reduce_ordered)
  reduce_ordered<char>("char");
  reduce_ordered<signed char>("signed char");
  reduce_ordered<short>("short");
  reduce_ordered<float>("float");
  reduce_ordered<double>("double");
  reduce_ordered<long double>("long double");
  EACH_RED_BITWISE(reduce_bitwise)

  // complex sums through the overloads (the C types) and a std::complex view of the same bytes
  static shmemsim_complexd zs[1], zd[1];
  __real__ zs[0] = me;
  __imag__ zs[0] = 1;
  shmem_sync(SHMEM_TEAM_WORLD);
  shmem_sum_reduce(SHMEM_TEAM_WORLD, zd, zs, 1);
  const std::complex<double> z = *reinterpret_cast<std::complex<double>*>(zd);
  CHECK(z.real() == npes * (npes - 1) / 2 && z.imag() == npes, "complexd sum_reduce");

  // typed names, as a C++ test suite calls them
  for (int i = 0; i < 4; ++i) {
    ti[i] = me + i;
    tl[i] = 0;
    td[i] = 0.5 * me;
  }
  shmem_barrier_all();
  int tv[4] = {1, 2, 3, 4};
  shmem_int_put(ti, tv, 4, right);
  shmem_ctx_long_atomic_fetch_add(ctx, &tl[0], 2L, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  CHECK(ti[3] == 4 && tl[0] == 2, "typed put / ctx fetch_add");
  CHECK(shmem_int_g(&ti[2], right) == 3, "typed g");
  shmem_double_sum_reduce(SHMEM_TEAM_WORLD, td + 2, td, 1);
  CHECK(td[2] == 0.25 * npes * (npes - 1), "typed double_sum_reduce");
  shmem_long_wait_until_all(tl, 1, NULL, SHMEM_CMP_EQ, 2);

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("conf_cxx");
  shmem_finalize();
  return rc;
}
