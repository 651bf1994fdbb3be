// How a message picks one of several paths (platform.fabric.routing): the simulated fat tree's
// uplinks (sim/FatTree) and the emulator's connections per pair of PEs (emulator.paths) take the
// same choice, so the enum lives on the floor both include.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace shmemsim {

enum class Routing {
  DModK,    ///< fixed per destination (dst mod k): a pair's order is kept
  Random,   ///< per packet (per message in the emulator), seeded
  Adaptive, ///< the least loaded
};

/// Names of the routings, in the order of the enumerators (scenario values, traces, reports).
inline const std::vector<std::string>& routing_names()
{
  static const std::vector<std::string> names = {"dmodk", "random", "adaptive"};
  return names;
}

inline const char* to_string(Routing r)
{
  const auto i = static_cast<std::size_t>(r);
  return i < routing_names().size() ? routing_names()[i].c_str() : "?";
}

} // namespace shmemsim
