// NIC timing parameters (platform.nic.* keys, minus the Portals limits) and their declared keys
// (sim/Params.hpp).
#pragma once

#include "sim/Params.hpp"
#include "sim/Time.hpp"

#include <cstdint>

namespace shmemsim::nic {

struct NicParams {
  /// Command/injection queues per NIC. Each endpoint (NI) gets one while they last (then they
  /// share round-robin); an MD marked independent gets a queue of its own while queues last.
  int injection_queues = 16;
  sim::Ps send_overhead   = 200'000;  ///< NIC command processing per operation at the initiator
  sim::Ps recv_overhead   = 200'000;  ///< NIC processing per incoming request at the target
  sim::Ps pcie_latency    = 250'000;  ///< one host<->NIC crossing
  std::uint64_t pcie_bandwidth = 25'600'000'000ull; ///< bit/s, each direction
  sim::Ps atomic_overhead = 100'000;  ///< target atomic unit, per operation (read-modify-write)

  static const sim::ParamTable<NicParams>& keys();
};

inline const sim::ParamTable<NicParams>& NicParams::keys()
{
  using K = sim::ParamKind;
  using sim::field;
  static const sim::ParamTable<NicParams> table = {
      {.path = "platform.nic.injection_queues", .kind = K::Int, .doc = "Command/injection queues per NIC.",
       .field = field(&NicParams::injection_queues), .min = 1, .max = 65536},
      {.path = "platform.nic.send_overhead", .kind = K::Time, .doc = "NIC processing per operation at the initiator.",
       .field = field(&NicParams::send_overhead)},
      {.path = "platform.nic.recv_overhead", .kind = K::Time,
       .doc = "NIC processing per incoming request at the target.", .field = field(&NicParams::recv_overhead)},
      {.path = "platform.nic.pcie_latency", .kind = K::Time, .doc = "One host<->NIC crossing.",
       .field = field(&NicParams::pcie_latency)},
      {.path = "platform.nic.pcie_bandwidth", .kind = K::Bandwidth,
       .doc = "Effective host<->NIC bandwidth, each direction.", .field = field(&NicParams::pcie_bandwidth),
       .umin = 1},
      {.path = "platform.nic.atomic_overhead", .kind = K::Time, .doc = "Target atomic unit, per read-modify-write.",
       .field = field(&NicParams::atomic_overhead)},
  };
  return table;
}

} // namespace shmemsim::nic
