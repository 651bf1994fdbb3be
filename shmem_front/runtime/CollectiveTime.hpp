// Host CPU time of the collectives (summary `collectives`, docs/runs.md): per collective kind, the
// calls the PEs' threads made to the blocking collective routines, the simulated time they spent
// inside them, and the part of it their cores were busy: what the model charges the calling thread
// there (sim::Simulation::busy_time: each Portals call's initiate_overhead, polls, stalls on shared
// cache lines, a held library lock). The rest of the time inside is waiting without using the core
// (blocked on a counter or on an update of the PE's memory).
#pragma once

#include "base/Time.hpp"

#include <array>
#include <cstdint>

namespace shmemsim::front {

enum class CollectiveKind { Barrier, Broadcast, Reduce, Collect, Alltoall };
inline constexpr int kCollectiveKinds = 5;

struct CollectiveTime {
  std::uint64_t calls = 0;
  Ps inside           = 0; ///< from each call's entry to its return, summed
  Ps busy             = 0; ///< of which the calling thread's core was busy
};

/// Tallies the collective routines' calls, one outermost routine per thread at a time.
class CollectiveTimes {
public:
  /// The kind of the SHMEM routine `routine` ("shmem_barrier_all", "shmem_int_sum_reduce"), or -1
  /// when it is not a blocking collective (seed 003's non-blocking starts, *_req, are not: their
  /// work continues in later calls).
  static int kind_of(const char* routine);
  static const char* name(CollectiveKind k);

  /// A call of kind `kind` (kind_of) returned after `inside`, `busy` of it on its core.
  void add(int kind, Ps inside, Ps busy);
  const CollectiveTime& of(CollectiveKind k) const { return times_[static_cast<std::size_t>(k)]; }

private:
  std::array<CollectiveTime, kCollectiveKinds> times_{};
};

} // namespace shmemsim::front
