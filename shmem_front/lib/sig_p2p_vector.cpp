// Multi-element point-to-point synchronization (OpenSHMEM 1.5 §9.10): wait_until_all/_any/_some,
// their _vector forms, test_all/_any/_some and their _vector forms, generated from the routine
// tables of shmemsim/shmem_signal_lock.h. Waits block on updates of this PE's memory; a test that
// finds its condition unsatisfied lets simulated time pass by one poll cost.
#include "shmem_front/lib/Compare.hpp"
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmem.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

using namespace shmemsim::front;

namespace {

/// One wait/test set: ivars, the optional status mask, and one comparison value or a vector.
template <class T> struct Set {
  const T* ivars;
  std::size_t nelems;
  const int* status;
  int cmp;
  T value;
  const T* values; // null: `value` for every element

  bool included(std::size_t i) const { return status == nullptr || status[i] == 0; }
  bool holds(std::size_t i) const
  {
    return satisfied<T>(load_updated(&ivars[i]), cmp, values != nullptr ? values[i] : value);
  }
  bool empty() const
  {
    for (std::size_t i = 0; i < nelems; ++i)
      if (included(i))
        return false;
    return true;
  }
  bool all() const
  {
    for (std::size_t i = 0; i < nelems; ++i)
      if (included(i) && !holds(i))
        return false;
    return true;
  }
  /// An included element that holds, searching from `start` round-robin (so that repeated calls
  /// eventually return every element that holds), or SIZE_MAX.
  std::size_t any(std::size_t start) const
  {
    for (std::size_t k = 0; k < nelems; ++k) {
      const std::size_t i = (start + k) % nelems;
      if (included(i) && holds(i))
        return i;
    }
    return SIZE_MAX;
  }
  std::size_t some(std::size_t* indices) const
  {
    std::size_t n = 0;
    for (std::size_t i = 0; i < nelems; ++i)
      if (included(i) && holds(i))
        indices[n++] = i;
    return n;
  }
};

/// Where the calling PE's next _any search starts (fairness across calls).
std::size_t& any_cursor()
{
  static std::vector<std::size_t> cursor;
  const auto me = static_cast<std::size_t>(rt().my_pe());
  if (cursor.size() <= me)
    cursor.resize(static_cast<std::size_t>(rt().n_pes()) > me ? static_cast<std::size_t>(rt().n_pes()) : me + 1);
  return cursor[me];
}

template <class T>
Set<T> make_set(const Entry& e, T* ivars, std::size_t nelems, const int* status, int cmp, T value, const T* values)
{
  check_cmp(e, cmp);
  if (nelems != 0) {
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(nelems, sizeof(T), &bytes))
      e.fail("nelems " + std::to_string(nelems) + " overflows size_t");
    e.check_symmetric(ivars, bytes, "ivars");
  }
  return Set<T>{ivars, nelems, status, cmp, value, values};
}

template <class T>
void wait_all(const char* name, T* ivars, std::size_t nelems, const int* status, int cmp, T value, const T* values)
{
  Entry e(name);
  const Set<T> s = make_set(e, ivars, nelems, status, cmp, value, values);
  wait_for(
      name, [&] { return s.all(); }, ivars);
}

template <class T>
std::size_t wait_any(const char* name, T* ivars, std::size_t nelems, const int* status, int cmp, T value,
                     const T* values)
{
  Entry e(name);
  const Set<T> s = make_set(e, ivars, nelems, status, cmp, value, values);
  if (s.empty())
    return SIZE_MAX;
  std::size_t& cursor = any_cursor();
  std::size_t found   = SIZE_MAX;
  wait_for(
      name, [&] { return (found = s.any(cursor)) != SIZE_MAX; }, ivars);
  cursor = found + 1;
  return found;
}

template <class T>
std::size_t wait_some(const char* name, T* ivars, std::size_t nelems, std::size_t* indices, const int* status, int cmp,
                      T value, const T* values)
{
  Entry e(name);
  const Set<T> s = make_set(e, ivars, nelems, status, cmp, value, values);
  if (s.empty())
    return 0;
  if (indices == nullptr)
    e.fail("indices is NULL: it must point to an array of at least nelems size_t");
  std::size_t n = 0;
  wait_for(
      name, [&] { return (n = s.some(indices)) != 0; }, ivars);
  return n;
}

template <class T>
int test_all(const char* name, T* ivars, std::size_t nelems, const int* status, int cmp, T value, const T* values)
{
  Entry e(name);
  const Set<T> s = make_set(e, ivars, nelems, status, cmp, value, values);
  // An empty test set returns 1 (the specification's return value for nelems == 0).
  if (s.all())
    return 1;
  rt().poll_pause();
  return 0;
}

template <class T>
std::size_t test_any(const char* name, T* ivars, std::size_t nelems, const int* status, int cmp, T value,
                     const T* values)
{
  Entry e(name);
  const Set<T> s = make_set(e, ivars, nelems, status, cmp, value, values);
  if (s.empty())
    return SIZE_MAX;
  std::size_t& cursor     = any_cursor();
  const std::size_t found = s.any(cursor);
  if (found == SIZE_MAX) {
    rt().poll_pause();
    return SIZE_MAX;
  }
  cursor = found + 1;
  return found;
}

template <class T>
std::size_t test_some(const char* name, T* ivars, std::size_t nelems, std::size_t* indices, const int* status, int cmp,
                      T value, const T* values)
{
  Entry e(name);
  const Set<T> s = make_set(e, ivars, nelems, status, cmp, value, values);
  if (s.empty())
    return 0;
  if (indices == nullptr)
    e.fail("indices is NULL: it must point to an array of at least nelems size_t");
  const std::size_t n = s.some(indices);
  if (n == 0)
    rt().poll_pause();
  return n;
}

template <class T> const T* need_values(const char* name, const T* values, std::size_t nelems)
{
  if (values == nullptr && nelems != 0) {
    Entry e(name);
    e.fail("cmp_values is NULL: it must point to nelems comparison values");
  }
  return values;
}

} // namespace

// One body per KIND of the tables; the parameter names are those of the rows.
// Scalar forms pass no value vector; vector forms pass a zero scalar and cmp_values.
#define SHMEMSIM_NOVALUES_(P) static_cast<const std::remove_pointer_t<decltype(P)>*>(nullptr)
#define SHMEMSIM_ZERO_(P) static_cast<std::remove_pointer_t<decltype(P)>>(0)
#define SHMEMSIM_VALUES_(NAME) need_values(NAME, cmp_values, nelems)
#define SHMEMSIM_BODY_wait_until_any(NAME, ELEM)                                                                       \
  wait_any(NAME, ivars, nelems, status, cmp, cmp_value, SHMEMSIM_NOVALUES_(ivars))
#define SHMEMSIM_BODY_wait_until_all(NAME, ELEM)                                                                       \
  wait_all(NAME, ivars, nelems, status, cmp, cmp_value, SHMEMSIM_NOVALUES_(ivars))
#define SHMEMSIM_BODY_wait_until_some(NAME, ELEM)                                                                      \
  wait_some(NAME, ivars, nelems, indices, status, cmp, cmp_value, SHMEMSIM_NOVALUES_(ivars))
#define SHMEMSIM_BODY_wait_until_all_vector(NAME, ELEM)                                                                \
  wait_all(NAME, ivars, nelems, status, cmp, SHMEMSIM_ZERO_(ivars), SHMEMSIM_VALUES_(NAME))
#define SHMEMSIM_BODY_wait_until_any_vector(NAME, ELEM)                                                                \
  wait_any(NAME, ivars, nelems, status, cmp, SHMEMSIM_ZERO_(ivars), SHMEMSIM_VALUES_(NAME))
#define SHMEMSIM_BODY_wait_until_some_vector(NAME, ELEM)                                                               \
  wait_some(NAME, ivars, nelems, indices, status, cmp, SHMEMSIM_ZERO_(ivars), SHMEMSIM_VALUES_(NAME))
#define SHMEMSIM_BODY_test_all(NAME, ELEM)                                                                             \
  test_all(NAME, ivars, nelems, status, cmp, cmp_value, SHMEMSIM_NOVALUES_(ivars))
#define SHMEMSIM_BODY_test_any(NAME, ELEM)                                                                             \
  test_any(NAME, ivars, nelems, status, cmp, cmp_value, SHMEMSIM_NOVALUES_(ivars))
#define SHMEMSIM_BODY_test_some(NAME, ELEM)                                                                            \
  test_some(NAME, ivars, nelems, indices, status, cmp, cmp_value, SHMEMSIM_NOVALUES_(ivars))
#define SHMEMSIM_BODY_test_all_vector(NAME, ELEM)                                                                      \
  test_all(NAME, ivars, nelems, status, cmp, SHMEMSIM_ZERO_(ivars), SHMEMSIM_VALUES_(NAME))
#define SHMEMSIM_BODY_test_any_vector(NAME, ELEM)                                                                      \
  test_any(NAME, ivars, nelems, status, cmp, SHMEMSIM_ZERO_(ivars), SHMEMSIM_VALUES_(NAME))
#define SHMEMSIM_BODY_test_some_vector(NAME, ELEM)                                                                     \
  test_some(NAME, ivars, nelems, indices, status, cmp, SHMEMSIM_ZERO_(ivars), SHMEMSIM_VALUES_(NAME))

#define SHMEMSIM_DEFINE(RET, NAME, KIND, ELEM, PARAMS)                                                                 \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return SHMEMSIM_BODY_##KIND("shmem_" #NAME, ELEM);                                                                 \
  }
#define SHMEMSIM_DEFINE_VECTOR_(TYPE, TYPENAME) SHMEMSIM_P2P_VECTOR_ROUTINES(SHMEMSIM_DEFINE, TYPE, TYPENAME)

extern "C" {
SHMEMSIM_P2P_TYPES(SHMEMSIM_DEFINE_VECTOR_)
SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_DEFINE_VECTOR_)
} // extern "C"
