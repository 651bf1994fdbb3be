// ptl_ni_limits_t as the NI grants them (platform.nic.limits.* and platform.nic.features.* keys)
// and their declared keys (Params.hpp). Portals vocabulary, on the floor both NIC implementations
// include: the simulator's Portals model (sim/portals_model) and the emulator's software NIC
// (shmem_front/emulator: max_cts, max_mds, max_volatile_size, max_waw_ordered_size,
// total_data_ordering), which receives the struct whole in its configuration.
#pragma once

#include "base/Params.hpp"

#include <cstdint>

namespace shmemsim::portals {

struct Limits {
  int max_entries                     = 16384; ///< list entries per NI
  int max_mds                         = 1024;
  int max_cts                         = 1024;
  int max_triggered_ops               = 1024; ///< pending triggered operations per NIC
  int max_eqs                         = 1024; ///< event queues per NIC
  int max_pt_index                    = 63;
  std::uint64_t max_msg_size          = std::uint64_t{1} << 32;
  std::uint64_t max_atomic_size       = 512;
  std::uint64_t max_fetch_atomic_size = 32;
  std::uint64_t max_waw_ordered_size  = 64;
  std::uint64_t max_volatile_size     = 64;
  bool total_data_ordering            = false; ///< PTL_TOTAL_DATA_ORDERING feature

  static const ParamTable<Limits>& keys();
};

inline const ParamTable<Limits>& Limits::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<Limits> table = {
      {.path  = "platform.nic.limits.max_cts",
       .kind  = K::Int,
       .doc   = "Counting events per NIC (per node with platform.nic.per = node). An OpenSHMEM PE's "
                "runtime keeps 2 (its target counter and its default context's CT; split mapping: 3), so a PE can "
                "create max_cts - 2 contexts (split: (max_cts - 3) / 2); beyond that job.contexts.on_exhaustion "
                "decides (fail, share, round_robin, keep_private).",
       .field = field(&Limits::max_cts)},
      {.path  = "platform.nic.limits.max_mds",
       .kind  = K::Int,
       .doc   = "Memory descriptors per NIC (per node with platform.nic.per = node). An OpenSHMEM PE's "
                "runtime keeps 1 (its default context's MD; split mapping: 2), so a PE can create max_mds - 1 "
                "contexts (split: (max_mds - 2) / 2); beyond that job.contexts.on_exhaustion decides.",
       .field = field(&Limits::max_mds)},
      {.path  = "platform.nic.limits.max_entries",
       .kind  = K::Int,
       .doc   = "List entries per NI.",
       .field = field(&Limits::max_entries)},
      {.path  = "platform.nic.limits.max_pt_index",
       .kind  = K::Int,
       .doc   = "Highest portal table index.",
       .field = field(&Limits::max_pt_index),
       .max   = 65535},
      {.path  = "platform.nic.limits.max_volatile_size",
       .kind  = K::Size,
       .doc   = "Largest put from a volatile MD (completes locally at once).",
       .field = field(&Limits::max_volatile_size)},
      {.path  = "platform.nic.limits.max_atomic_size",
       .kind  = K::Size,
       .doc   = "Largest atomic operation.",
       .field = field(&Limits::max_atomic_size)},
      {.path  = "platform.nic.limits.max_fetch_atomic_size",
       .kind  = K::Size,
       .doc   = "Largest fetching atomic operation.",
       .field = field(&Limits::max_fetch_atomic_size)},
      {.path  = "platform.nic.limits.max_waw_ordered_size",
       .kind  = K::Size,
       .doc   = "Largest put kept in write-after-write order (with total_data_ordering).",
       .field = field(&Limits::max_waw_ordered_size)},
      {.path  = "platform.nic.limits.max_msg_size",
       .kind  = K::Size,
       .doc   = "Largest message.",
       .field = field(&Limits::max_msg_size)},
      {.path  = "platform.nic.limits.max_triggered_ops",
       .kind  = K::Int,
       .doc   = "Triggered operations (PtlTriggeredPut, Get, Atomic, CTInc, CTSet) a NIC holds at once, waiting "
                "for their counting event's threshold (per node with platform.nic.per = node); one more is "
                "refused with PTL_NO_SPACE. Default 1024: the Portals 4 reference implementation's "
                "PTL_LIM_MAX_TRIGGERED_OPS.",
       .field = field(&Limits::max_triggered_ops)},
      {.path  = "platform.nic.limits.max_eqs",
       .kind  = K::Int,
       .doc   = "Event queues per NIC (per node with platform.nic.per = node); one more PtlEQAlloc is refused with "
                "PTL_NO_SPACE. An OpenSHMEM PE keeps 1 with job.portals.event_queue = true (Sandia OpenSHMEM's "
                "event queue on its data portal table entries), none otherwise. Default 1024: the Portals 4 reference implementation's "
                "PTL_LIM_MAX_EQS (src/ib/ptl_param.c).",
       .field = field(&Limits::max_eqs)},
      {.path  = "platform.nic.features.total_data_ordering",
       .kind  = K::Bool,
       .doc   = "PTL_TOTAL_DATA_ORDERING: puts up to max_waw_ordered_size arrive in order.",
       .field = field(&Limits::total_data_ordering)},
  };
  return table;
}

} // namespace shmemsim::portals
