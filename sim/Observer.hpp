// The observer interface of the bottom layer: how the fabric and the NICs publish what happens,
// for traces and reports. Each layer above declares its own events in an interface of its own
// (portals::PortalsObserver extends this one; the SHMEM front end's front::ShmemObserver is
// separate), so this layer knows nothing of Portals or SHMEM. Models never include `traces`; they
// call an observer if one is attached. With none attached a call site costs one predictable
// branch, and a build with -DSHMEMSIM_OBSERVERS=OFF compiles the call sites out
// (bench/trace-overhead compares).
//
// Every call passes the simulated date it is about (which may be later than now: a packet that
// will leave a busy port at `start`), endpoints/PEs, threads and contexts as plain integers.
#pragma once

#include "base/Observe.hpp"
#include "base/Time.hpp"

#include <cstdint>

namespace shmemsim::sim {

class Observer {
public:
  virtual ~Observer() = default;

  /// Whether packet hops are wanted (they are many).
  bool wants_packets() const { return packets_; }

  /// A message was handed to the initiator NIC; returns its trace id (stored in the message).
  /// `op` is the tag its initiator gave the operation (Portals' user_ptr: the trace id of the
  /// SHMEM operation it belongs to), 0 for none.
  virtual std::uint64_t msg_issued(Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes,
                                   std::uint64_t op) = 0;
  /// The NIC takes the message off its command queue and starts injecting it.
  virtual void msg_injected(Ps t, std::uint64_t msg) = 0;
  /// A packet of the message enters link `link` at `t`, after queueing `queued` for it.
  virtual void packet_hop(Ps t, std::uint64_t msg, int link, Ps queued, std::uint32_t bytes) = 0;
  /// The message is complete at its target.
  virtual void msg_delivered(Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth) = 0;
  /// Its ACK or reply is visible at the initiator.
  virtual void msg_done(Ps t, std::uint64_t msg) = 0;

protected:
  bool packets_ = false;
};

} // namespace shmemsim::sim
