// NIC timing parameters (platform.nic.* keys, minus the Portals limits).
#pragma once

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
};

} // namespace shmemsim::nic
