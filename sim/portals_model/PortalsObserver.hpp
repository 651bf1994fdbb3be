// The Portals model's events, for traces and reports: what the network's observer sees (sim/Observer.hpp)
// plus counting events and resource limits. The NIs publish through it; the network hands the
// fabric and the NICs the same object as their own observer.
#pragma once

#include "sim/Observer.hpp"

#include <cstdint>

namespace shmemsim::portals {

class PortalsObserver : public sim::Observer {
public:
  /// CT `ct` of endpoint `ep` now counts `success` successes and `failure` failures.
  virtual void ct_changed(Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure) = 0;
  /// A resource limit was hit: "ct", "md", "le", "pt".
  virtual void limit_hit(Ps t, int ep, const char* what) = 0;
};

} // namespace shmemsim::portals
