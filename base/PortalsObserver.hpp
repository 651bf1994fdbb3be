// The Portals mapping's events, for traces and reports: what the network's observer sees
// (base/NetworkObserver.hpp) plus counting events and resource limits. The simulated Portals
// model's NIs publish through it (the network hands the fabric and the NICs the same object as
// their own observer), and so does the emulator's software NIC, which keeps the same mapping
// (its CTs: the contexts' completion counters).
#pragma once

#include "base/NetworkObserver.hpp"

#include <cstdint>

namespace shmemsim {

class PortalsObserver : public NetworkObserver {
public:
  /// CT `ct` of endpoint `ep` now counts `success` successes and `failure` failures.
  virtual void ct_changed(Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure) = 0;
  /// A resource limit was hit: "ct", "md", "le", "pt".
  virtual void limit_hit(Ps t, int ep, const char* what) = 0;
};

} // namespace shmemsim
