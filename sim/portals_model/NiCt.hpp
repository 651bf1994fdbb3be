// A counting event's state inside the Portals model (Ni.cpp, Triggered.cpp): its value, the actors
// waiting on it, and the triggered operations it holds.
#pragma once

#include "sim/Notifier.hpp"
#include "sim/portals_model/Ni.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace shmemsim::portals {

struct Ni::Ct {
  struct Waiter {
    std::uint64_t threshold;
    sim::Notifier* who;
  };
  bool used = false;
  CtEvent ev;
  std::vector<Waiter> waiters;
  /// Triggered operations by threshold; a multimap keeps equal thresholds in the order issued.
  std::multimap<std::uint64_t, std::function<Status()>> triggered;
};

} // namespace shmemsim::portals
