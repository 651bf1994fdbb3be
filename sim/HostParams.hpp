// Host parameters (platform.nodes, platform.cores_per_node, platform.core_speed) and their
// declared keys (sim/Params.hpp).
#pragma once

#include "sim/Params.hpp"

namespace shmemsim::sim {

struct HostParams {
  int nodes          = 16;
  int cores_per_node = 12;
  double core_speed  = 13.32e9; ///< flop/s of one core

  static const ParamTable<HostParams>& keys();
};

inline const ParamTable<HostParams>& HostParams::keys()
{
  using K = ParamKind;
  static const ParamTable<HostParams> table = {
      {.path = "platform.nodes", .kind = K::Int, .doc = "Compute nodes (hosts).", .field = field(&HostParams::nodes),
       .min = 1},
      {.path = "platform.cores_per_node", .kind = K::Int, .doc = "Cores per node.",
       .field = field(&HostParams::cores_per_node), .min = 1},
      {.path = "platform.core_speed", .kind = K::Speed, .doc = "Speed of one core, flop/s.",
       .field = field(&HostParams::core_speed)},
  };
  return table;
}

} // namespace shmemsim::sim
