// NIC timing parameters (platform.nic.* keys, minus the Portals limits) and their declared keys
// (base/Params.hpp).
#pragma once

#include "base/Params.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <limits>

namespace shmemsim::nic {

/// What one NIC model instance serves: every endpoint of a node (one NIC shared by the node's
/// processes) or one endpoint (each process has its own NI, queues, progress engine and resource
/// tables; the node's PCIe channels and fabric port stay shared).
enum class NicScope { Node, Pe };
/// Who does the target-side work: `Offload` hardware engines (a receive engine and an atomic unit
/// working in parallel), or one software progress `Thread` per NIC that handles every incoming
/// request, ACK and reply one at a time (the Portals 4 reference implementation over InfiniBand).
enum class TargetEngine { Offload, Thread };

struct NicParams {
  NicScope per          = NicScope::Node;
  TargetEngine progress = TargetEngine::Offload;
  /// Command/injection queues per NIC. Each endpoint (NI) gets one while they last (then they
  /// share round-robin); an MD marked independent gets a queue of its own while queues last.
  int injection_queues         = 16;
  Ps send_overhead             = 200'000;           ///< NIC command processing per operation at the initiator
  Ps recv_overhead             = 200'000;           ///< NIC processing per incoming request at the target
  Ps pcie_latency              = 250'000;           ///< one host<->NIC crossing
  std::uint64_t pcie_bandwidth = 25'600'000'000ull; ///< bit/s, each direction
  Ps atomic_overhead           = 100'000;           ///< target atomic unit, per operation (read-modify-write)
  /// With a progress thread: its handling of a returning ACK, and of a returning reply (a get's or a
  /// fetching atomic's data), at the initiator, before the operation's counter counts it.
  Ps ack_overhead   = 200'000;
  Ps reply_overhead = 200'000;
  /// Host CPU time of one Portals data-movement call (PtlPut, PtlGet, PtlAtomic, ...) on the
  /// calling thread, before the command reaches the NIC.
  Ps initiate_overhead = 0;
  /// The largest put payload that travels inline with its request. A longer put sends its header
  /// alone and the target's NIC pulls the payload from the initiator with an RDMA read (Portals 4
  /// over InfiniBand). Default: no limit (every put's payload is pushed with its request).
  std::uint64_t inline_size                     = kNoInlineLimit;
  static constexpr std::uint64_t kNoInlineLimit = std::numeric_limits<std::uint64_t>::max();
  /// The adapter's receive buffer on its fabric port, bytes, drained into host memory at
  /// pcie_bandwidth; the leaf switch sends to it only when it has room (credit flow control).
  /// 0: unbounded (the adapter takes every packet at once).
  std::uint64_t rx_buffer = 0;

  static const ParamTable<NicParams>& keys();
};

inline const ParamTable<NicParams>& NicParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<NicParams> table = {
      {.path    = "platform.nic.per",
       .kind    = K::Enum,
       .doc     = "What one NIC serves: node (shared by the node's processes) or pe (own NI, queues, progress engine "
                  "and resource tables per process; PCIe and links stay per node).",
       .field   = field(&NicParams::per),
       .choices = {"node", "pe"},
       .noun    = "NIC scope"},
      {.path    = "platform.nic.progress",
       .kind    = K::Enum,
       .doc     = "Target-side engine: offload (receive engine and atomic unit in parallel) or thread (one progress "
                  "thread per NIC handles requests, ACKs and replies one at a time).",
       .field   = field(&NicParams::progress),
       .choices = {"offload", "thread"},
       .noun    = "progress engine"},
      {.path  = "platform.nic.injection_queues",
       .kind  = K::Int,
       .doc   = "Command/injection queues per NIC.",
       .field = field(&NicParams::injection_queues),
       .min   = 1,
       .max   = 65536},
      {.path  = "platform.nic.send_overhead",
       .kind  = K::Time,
       .doc   = "NIC processing per operation at the initiator.",
       .field = field(&NicParams::send_overhead)},
      {.path  = "platform.nic.recv_overhead",
       .kind  = K::Time,
       .doc   = "NIC processing per incoming request at the target (with platform.nic.progress=thread: the "
                "progress thread's handling of one request).",
       .field = field(&NicParams::recv_overhead)},
      {.path  = "platform.nic.ack_overhead",
       .kind  = K::Time,
       .doc   = "With platform.nic.progress=thread: the initiator's progress thread's handling of one returning "
                "ACK, before the operation's counter counts it (offload NICs count ACKs in hardware).",
       .field = field(&NicParams::ack_overhead)},
      {.path  = "platform.nic.reply_overhead",
       .kind  = K::Time,
       .doc   = "With platform.nic.progress=thread: the initiator's progress thread's handling of one returning "
                "reply (a get's or a fetching atomic's data, once landed), before the counter counts it.",
       .field = field(&NicParams::reply_overhead)},
      {.path  = "platform.nic.pcie_latency",
       .kind  = K::Time,
       .doc   = "One host<->NIC crossing.",
       .field = field(&NicParams::pcie_latency)},
      {.path  = "platform.nic.pcie_bandwidth",
       .kind  = K::Bandwidth,
       .doc   = "Effective host<->NIC bandwidth, each direction.",
       .field = field(&NicParams::pcie_bandwidth),
       .umin  = 1},
      {.path  = "platform.nic.atomic_overhead",
       .kind  = K::Time,
       .doc   = "Target atomic unit, per read-modify-write.",
       .field = field(&NicParams::atomic_overhead)},
      {.path  = "platform.nic.initiate_overhead",
       .kind  = K::Time,
       .doc   = "Host CPU time of one Portals data-movement call, spent on the calling thread's core.",
       .field = field(&NicParams::initiate_overhead)},
      {.path  = "platform.nic.inline_size",
       .kind  = K::Size,
       .doc   = "Largest put payload sent inline with its request; a longer put is pulled by the target's NIC with an "
                "RDMA read (default: no limit, every put is pushed).",
       .field = field(&NicParams::inline_size)},
      {.path  = "platform.nic.rx_buffer",
       .kind  = K::Size,
       .doc   = "The adapter's receive buffer on its fabric port, drained into host memory at pcie_bandwidth: the "
                "switch sends to the node only when it has room (credit flow control). 0: unbounded.",
       .field = field(&NicParams::rx_buffer),
       .umax  = std::uint64_t{1} << 40},
  };
  return table;
}

} // namespace shmemsim::nic
