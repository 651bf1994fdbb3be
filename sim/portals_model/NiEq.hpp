// An event queue's state inside the Portals model (EventQueue.cpp, Ni.cpp): its events with the
// date each becomes visible to the host, whether one was lost, and the actors waiting on it.
#pragma once

#include "sim/Notifier.hpp"
#include "sim/portals_model/Ni.hpp"

#include <cstdint>
#include <deque>
#include <vector>

namespace shmemsim::portals {

struct Ni::Eq {
  struct Posted {
    Event ev;
    Ps visible; ///< when the NIC's write of the event lands in host memory
  };
  bool used              = false;
  std::uint64_t count    = 0; ///< slots asked for (PtlEQAlloc's count)
  std::uint64_t reserved = 0; ///< more slots: one per flow-controlled portal table entry using it
  std::deque<Posted> events;  ///< oldest first
  bool dropped = false;       ///< an event was overwritten since the last one taken
  std::vector<sim::Notifier*> waiters;
};

} // namespace shmemsim::portals
