// Host parameters (platform.nodes, platform.cores_per_node, platform.core_speed,
// platform.instruction_time, platform.cycle_time, platform.divide_time) and their
// declared keys (sim/Params.hpp).
#pragma once

#include "sim/Params.hpp"

namespace shmemsim::sim {

struct HostParams {
  int nodes          = 16;
  int cores_per_node = 12;
  double core_speed  = 13.32e9; ///< flop/s of one core
  Ps instruction_time = 150;    ///< one counted instruction on one core (qdr-16's X5680: 2 per cycle)
  Ps cycle_time       = 300;    ///< one core cycle: counted loops' latency floors (qdr-16's X5680, 3.33 GHz)
  Ps divide_time      = 4200;   ///< the divider busy for one divide or square root (X5680: 14 cycles)

  static const ParamTable<HostParams>& keys();
};

/// The largest per-instruction, per-cycle or per-divide cost a scenario may give (1 ms).
inline constexpr Ps kMaxCostTime = 1'000'000'000;

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
      {.path = "platform.instruction_time", .kind = K::Time,
       .doc = "Time of one counted instruction on one core (job.compute=counted: each executed basic block "
              "costs its instruction count, estimated at compile time by shmemsim-cc, times this): "
              "cycle time / instructions per cycle. `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::instruction_time), .min = 1, .tmax = kMaxCostTime},
      {.path = "platform.cycle_time", .kind = K::Time,
       .doc = "One core clock cycle (job.compute=counted: an innermost loop whose iterations form a chain of "
              "dependent operations takes at least that chain's latency in cycles per iteration, "
              "estimated at compile time; divides are platform.divide_time's). `shmemsim calibrate` measures "
              "this machine's.",
       .field = field(&HostParams::cycle_time), .min = 1, .tmax = kMaxCostTime},
      {.path = "platform.divide_time", .kind = K::Time,
       .doc = "Time the divider is busy with one divide or square root (job.compute=counted: an innermost "
              "loop takes at least its divides and square roots times this per iteration). `shmemsim "
              "calibrate` measures this machine's.",
       .field = field(&HostParams::divide_time), .min = 1, .tmax = kMaxCostTime},
  };
  return table;
}

} // namespace shmemsim::sim
