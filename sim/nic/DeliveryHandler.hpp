// What the NIC asks of the layer above (the Portals model) at each endpoint. The NIC owns the
// timing; the handler owns the semantics. Implemented by sim/portals_model, so the include arrow
// still points down.
#pragma once

#include "sim/nic/Message.hpp"

#include <cstddef>

namespace shmemsim::nic {

class DeliveryHandler {
public:
  virtual ~DeliveryHandler() = default;

  // ---- target side (handler of m.dst_ep) ----
  /// The request's header reached the target: find where it goes. Sets m.target_ok,
  /// m.target_base (may stay null on failure) and m.mlength.
  virtual void target_resolve(Message& m) = 0;
  /// Apply an atomic operation to m.target_base with the request payload; for fetching forms
  /// write the previous contents (m.length bytes) to `fetched`.
  virtual void target_atomic(Message& m, std::byte* fetched) = 0;
  /// All request data landed (or the atomic executed): count it at the target.
  virtual void target_complete(Message& m) = 0;

  // ---- initiator side (handler of m.src_ep) ----
  /// The request payload has been read from the initiator's memory (buffer reusable).
  virtual void initiator_sent(Message& m) = 0;
  /// The ACK came back (m.target_ok says whether the target accepted the operation).
  virtual void initiator_acked(Message& m) = 0;
  /// The reply's data landed at m.reply_dest.
  virtual void initiator_replied(Message& m) = 0;
  /// The NIC is done with the message; the handler may destroy it.
  virtual void release(Message* m) = 0;
};

} // namespace shmemsim::nic
