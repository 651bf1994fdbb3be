// The address of a host buffer as the Portals model's integer (MD starts, local offsets), for the
// transport's files.
#pragma once

#include <cstdint>

namespace shmemsim::front {

inline std::uint64_t addr(const void* p)
{
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
}

} // namespace shmemsim::front
