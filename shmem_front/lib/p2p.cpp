// Point-to-point synchronization: wait_until and test (scalar forms), the deprecated wait
// routines, generated from the routine tables of shmemsim/shmem_p2p.h.
#include "shmem_front/lib/Compare.hpp"
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmem.h>

#include <string>

using namespace shmemsim::front;

namespace {

template <class T> void wait_until(const char* name, T* ivar, int cmp, T value)
{
  Entry e(name);
  check_cmp(e, cmp);
  e.check_symmetric(ivar, sizeof(T), "ivar");
  wait_for(
      name, [&] { return satisfied<T>(load_updated(ivar), cmp, value); }, ivar);
}

template <class T> int test(const char* name, T* ivar, int cmp, T value)
{
  Entry e(name);
  check_cmp(e, cmp);
  e.check_symmetric(ivar, sizeof(T), "ivar");
  if (satisfied<T>(load_updated(ivar), cmp, value))
    return 1;
  rt().poll_pause();
  return 0;
}

} // namespace

// One body per KIND of the tables; the parameter names are those of the rows.
#define SHMEMSIM_BODY_wait_until(C, NAME, ELEM) wait_until(NAME, ivar, cmp, cmp_value)
#define SHMEMSIM_BODY_test(C, NAME, ELEM) test(NAME, ivar, cmp, cmp_value)
#define SHMEMSIM_BODY_wait(C, NAME, ELEM) wait_until(NAME, ivar, SHMEM_CMP_NE, cmp_value)

#define SHMEMSIM_DEFINE(RET, NAME, KIND, ELEM, PARAMS)                                                                 \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return SHMEMSIM_BODY_##KIND(SHMEM_CTX_DEFAULT, "shmem_" #NAME, ELEM);                                              \
  }

#define SHMEMSIM_DEFINE_P2P_(TYPE, TYPENAME) SHMEMSIM_P2P_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_WAIT_(TYPE, TYPENAME) SHMEMSIM_WAIT_DEPRECATED_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)

extern "C" {
SHMEMSIM_P2P_TYPES(SHMEMSIM_DEFINE_P2P_)
SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_DEFINE_P2P_)
SHMEMSIM_WAIT_DEPRECATED_TYPES(SHMEMSIM_DEFINE_WAIT_)
SHMEMSIM_P2P_LONG_ROUTINES(SHMEMSIM_DEFINE)
} // extern "C"
