// Atomic memory operations (1.5 names, with shmem_ctx_ forms) and the deprecated 1.3 names,
// generated from the routine tables of shmemsim/shmem_amo.h.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/RoutineTables.hpp"

#include <shmem.h>

#include <type_traits>

using namespace shmemsim::front;

namespace {

/// The seam's element type of a C AMO type: by size and signedness (int is 32-bit; long, long
/// long, size_t and ptrdiff_t are 64-bit here).
template <class T> constexpr AmoType amo_type()
{
  if constexpr (std::is_same_v<T, float>) {
    return AmoType::Float;
  } else if constexpr (std::is_same_v<T, double>) {
    return AmoType::Double;
  } else {
    static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8), "AMO types are 32- or 64-bit");
    if constexpr (sizeof(T) == 4)
      return std::is_signed_v<T> ? AmoType::Int32 : AmoType::Uint32;
    else
      return std::is_signed_v<T> ? AmoType::Int64 : AmoType::Uint64;
  }
}

template <class T> T one_like(const T*)
{
  return T(1);
}

/// Checks, then one fetching AMO on `target` (named `what` in messages). The transport reads
/// `value` and `cond` when it issues the operation; `result` is written on return (blocking) or
/// by the context's quiet (non-blocking).
template <class T>
void issue_fetching(const Entry& e, shmem_ctx_t c, AmoOp op, const T* target, const char* what, const T& value,
                    const T* cond, T* result, int pe, bool blocking)
{
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  e.check_symmetric(target, sizeof(T), what);
  if (result == nullptr)
    e.fail("fetch is NULL: the fetched value needs a local object to land in");
  tp().fetch_amo(t, op, amo_type<T>(), const_cast<T*>(target), &value, cond, result, pe, blocking);
}

template <class T> T fetching(const char* name, shmem_ctx_t c, AmoOp op, T* dest, T value, int pe)
{
  Entry e(name);
  T old{};
  issue_fetching<T>(e, c, op, dest, "dest", value, nullptr, &old, pe, true);
  return old;
}

template <class T> void fetching_nbi(const char* name, shmem_ctx_t c, AmoOp op, T* fetch, T* dest, T value, int pe)
{
  Entry e(name);
  issue_fetching<T>(e, c, op, dest, "dest", value, nullptr, fetch, pe, false);
}

template <class T> T fetch_value(const char* name, shmem_ctx_t c, const T* source, int pe)
{
  Entry e(name);
  T old{};
  issue_fetching<T>(e, c, AmoOp::Fetch, source, "source", T{}, nullptr, &old, pe, true);
  return old;
}

template <class T> void fetch_value_nbi(const char* name, shmem_ctx_t c, T* fetch, const T* source, int pe)
{
  Entry e(name);
  issue_fetching<T>(e, c, AmoOp::Fetch, source, "source", T{}, nullptr, fetch, pe, false);
}

template <class T> T compare_swap(const char* name, shmem_ctx_t c, T* dest, T cond, T value, int pe)
{
  Entry e(name);
  T old{};
  issue_fetching<T>(e, c, AmoOp::CompareSwap, dest, "dest", value, &cond, &old, pe, true);
  return old;
}

template <class T> void compare_swap_nbi(const char* name, shmem_ctx_t c, T* fetch, T* dest, T cond, T value, int pe)
{
  Entry e(name);
  issue_fetching<T>(e, c, AmoOp::CompareSwap, dest, "dest", value, &cond, fetch, pe, false);
}

template <class T> void posting(const char* name, shmem_ctx_t c, AmoOp op, T* dest, T value, int pe)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  e.check_symmetric(dest, sizeof(T), "dest");
  tp().amo(t, op, amo_type<T>(), dest, &value, pe);
}

} // namespace

// One body per KIND of the tables; the parameter names are those of the rows.
#define SHMEMSIM_BODY_fetch(C, NAME, ELEM) fetch_value(NAME, C, source, pe)
#define SHMEMSIM_BODY_fetch_nbi(C, NAME, ELEM) fetch_value_nbi(NAME, C, fetch, source, pe)
#define SHMEMSIM_BODY_set(C, NAME, ELEM) posting(NAME, C, AmoOp::Set, dest, value, pe)
#define SHMEMSIM_BODY_swap(C, NAME, ELEM) fetching(NAME, C, AmoOp::Swap, dest, value, pe)
#define SHMEMSIM_BODY_swap_nbi(C, NAME, ELEM) fetching_nbi(NAME, C, AmoOp::Swap, fetch, dest, value, pe)
#define SHMEMSIM_BODY_compare_swap(C, NAME, ELEM) compare_swap(NAME, C, dest, cond, value, pe)
#define SHMEMSIM_BODY_compare_swap_nbi(C, NAME, ELEM) compare_swap_nbi(NAME, C, fetch, dest, cond, value, pe)
#define SHMEMSIM_BODY_fetch_inc(C, NAME, ELEM) fetching(NAME, C, AmoOp::Add, dest, one_like(dest), pe)
#define SHMEMSIM_BODY_inc(C, NAME, ELEM) posting(NAME, C, AmoOp::Add, dest, one_like(dest), pe)
#define SHMEMSIM_BODY_fetch_inc_nbi(C, NAME, ELEM) fetching_nbi(NAME, C, AmoOp::Add, fetch, dest, one_like(dest), pe)
#define SHMEMSIM_BODY_fetch_add(C, NAME, ELEM) fetching(NAME, C, AmoOp::Add, dest, value, pe)
#define SHMEMSIM_BODY_add(C, NAME, ELEM) posting(NAME, C, AmoOp::Add, dest, value, pe)
#define SHMEMSIM_BODY_fetch_add_nbi(C, NAME, ELEM) fetching_nbi(NAME, C, AmoOp::Add, fetch, dest, value, pe)
#define SHMEMSIM_BODY_fetch_and(C, NAME, ELEM) fetching(NAME, C, AmoOp::And, dest, value, pe)
#define SHMEMSIM_BODY_and_(C, NAME, ELEM) posting(NAME, C, AmoOp::And, dest, value, pe)
#define SHMEMSIM_BODY_fetch_and_nbi(C, NAME, ELEM) fetching_nbi(NAME, C, AmoOp::And, fetch, dest, value, pe)
#define SHMEMSIM_BODY_fetch_or(C, NAME, ELEM) fetching(NAME, C, AmoOp::Or, dest, value, pe)
#define SHMEMSIM_BODY_or_(C, NAME, ELEM) posting(NAME, C, AmoOp::Or, dest, value, pe)
#define SHMEMSIM_BODY_fetch_or_nbi(C, NAME, ELEM) fetching_nbi(NAME, C, AmoOp::Or, fetch, dest, value, pe)
#define SHMEMSIM_BODY_fetch_xor(C, NAME, ELEM) fetching(NAME, C, AmoOp::Xor, dest, value, pe)
#define SHMEMSIM_BODY_xor_(C, NAME, ELEM) posting(NAME, C, AmoOp::Xor, dest, value, pe)
#define SHMEMSIM_BODY_fetch_xor_nbi(C, NAME, ELEM) fetching_nbi(NAME, C, AmoOp::Xor, fetch, dest, value, pe)

#define SHMEMSIM_DEFINE(RET, NAME, KIND, ELEM, PARAMS)                                                                 \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return SHMEMSIM_BODY_##KIND(SHMEM_CTX_DEFAULT, "shmem_" #NAME, ELEM);                                              \
  }

#define SHMEMSIM_DEFINE_EXT_(TYPE, TYPENAME) SHMEMSIM_AMO_EXTENDED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_STD_(TYPE, TYPENAME) SHMEMSIM_AMO_STANDARD_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_BIT_(TYPE, TYPENAME) SHMEMSIM_AMO_BITWISE_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_DEP_(TYPE, TYPENAME) SHMEMSIM_AMO_DEPRECATED_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_DEPX_(TYPE, TYPENAME) SHMEMSIM_AMO_DEPRECATED_EXTENDED_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)

extern "C" {
SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMSIM_DEFINE_EXT_)
SHMEMSIM_AMO_STANDARD_TYPES(SHMEMSIM_DEFINE_STD_)
SHMEMSIM_AMO_BITWISE_TYPES(SHMEMSIM_DEFINE_BIT_)
SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMSIM_DEFINE_DEP_)
SHMEMSIM_AMO_DEPRECATED_EXTENDED_TYPES(SHMEMSIM_DEFINE_DEPX_)
} // extern "C"
