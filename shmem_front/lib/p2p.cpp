// Point-to-point synchronization: wait_until and test (scalar forms), the deprecated wait
// routines, generated from the routine tables of shmemsim/shmem_p2p.h.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmem.h>

#include <string>

using namespace shmemsim::front;

namespace {

void check_cmp(const Entry& e, int cmp)
{
  switch (cmp) {
    case SHMEM_CMP_EQ:
    case SHMEM_CMP_NE:
    case SHMEM_CMP_GT:
    case SHMEM_CMP_GE:
    case SHMEM_CMP_LT:
    case SHMEM_CMP_LE:
      return;
    default:
      e.fail("invalid comparison operator cmp " + std::to_string(cmp) +
             "; use SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT or SHMEM_CMP_LE");
  }
}

template <class T> bool satisfied(T v, int cmp, T value)
{
  switch (cmp) {
    case SHMEM_CMP_EQ:
      return v == value;
    case SHMEM_CMP_NE:
      return v != value;
    case SHMEM_CMP_GT:
      return v > value;
    case SHMEM_CMP_GE:
      return v >= value;
    case SHMEM_CMP_LT:
      return v < value;
    case SHMEM_CMP_LE:
      return v <= value;
  }
  return false;
}

template <class T> void wait_until(const char* name, T* ivar, int cmp, T value)
{
  Entry e(name);
  check_cmp(e, cmp);
  e.check_symmetric(ivar, sizeof(T), "ivar");
  const volatile T* v = ivar;
  wait_for(name, [&] { return satisfied<T>(*v, cmp, value); });
}

template <class T> int test(const char* name, T* ivar, int cmp, T value)
{
  Entry e(name);
  check_cmp(e, cmp);
  e.check_symmetric(ivar, sizeof(T), "ivar");
  const volatile T* v = ivar;
  if (satisfied<T>(*v, cmp, value))
    return 1;
  rt().poll_pause();
  return 0;
}

} // namespace

// One body per KIND of the tables; the parameter names are those of the rows.
#define SHMEMSIM_BODY_wait_until(C, NAME, ELEM) wait_until(NAME, ivar, cmp, cmp_value)
#define SHMEMSIM_BODY_test(C, NAME, ELEM) test(NAME, ivar, cmp, cmp_value)
#define SHMEMSIM_BODY_wait(C, NAME, ELEM) wait_until(NAME, ivar, SHMEM_CMP_NE, cmp_value)

#define SHMEMSIM_DEFINE(RET, NAME, KIND, ELEM, PARAMS) \
  RET shmem_##NAME PARAMS { return SHMEMSIM_BODY_##KIND(SHMEM_CTX_DEFAULT, "shmem_" #NAME, ELEM); }

#define SHMEMSIM_DEFINE_P2P_(TYPE, TYPENAME) SHMEMSIM_P2P_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_WAIT_(TYPE, TYPENAME) SHMEMSIM_WAIT_DEPRECATED_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)

extern "C" {
SHMEMSIM_P2P_TYPES(SHMEMSIM_DEFINE_P2P_)
SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_DEFINE_P2P_)
SHMEMSIM_WAIT_DEPRECATED_TYPES(SHMEMSIM_DEFINE_WAIT_)
SHMEMSIM_P2P_LONG_ROUTINES(SHMEMSIM_DEFINE)
} // extern "C"
