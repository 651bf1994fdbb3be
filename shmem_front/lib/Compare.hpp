// The point-to-point comparison operators (SHMEM_CMP_*), shared by wait/test, their vector forms
// and signal waits.
#pragma once

#include "shmem_front/lib/Library.hpp"

#include <shmem.h>

#include <string>

namespace shmemsim::front {

/// A cmp argument outside SHMEM_CMP_* is misuse.
inline void check_cmp(const Entry& e, int cmp)
{
  if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
    e.fail("invalid comparison operator cmp " + std::to_string(cmp) +
           "; use SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_GE, SHMEM_CMP_LT or SHMEM_CMP_LE");
}

/// Whether `v cmp value` holds (cmp already checked).
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

} // namespace shmemsim::front
