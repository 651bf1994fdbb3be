// The network's events, for traces and reports: what a backend's network (the simulated fabric
// and NICs, or the emulator's software NIC) publishes about messages and packet hops. One of the
// three observer interfaces both backends publish through (base/PortalsObserver.hpp extends it
// with counting events and limits; base/ShmemObserver.hpp has the SHMEM front end's events), kept
// on floor 0 so that the simulator's models and the emulator alike include them, and the trace
// recorder (traces/Recorder.hpp) implements them knowing neither. Publishers never include
// `traces`; they call an observer if one is attached (SHMEMSIM_OBSERVE). With none attached a
// call site costs one predictable branch, and a build with -DSHMEMSIM_OBSERVERS=OFF compiles the
// call sites out (bench/trace-overhead compares).
//
// Every call passes the date it is about (which may be later than now: a packet that will leave a
// busy port at `start`), endpoints/PEs, threads and contexts as plain integers.
#pragma once

#include "base/Observe.hpp"
#include "base/Time.hpp"

#include <cstdint>

namespace shmemsim {

class NetworkObserver {
public:
  virtual ~NetworkObserver() = default;

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

/// The message kind of the RDMA read by which a put's target pulls its payload (docs/model.md,
/// "Pulled puts"): a message the target sends for the operation, to its initiator. It is no request
/// of the pair's numbering: its delivery (`dlv`, the initiator's NIC has read the data) is never
/// out of order and is no delivery of summary.json's count.
inline constexpr const char* kRdmaReadKind = "rdma_read";

/// The trace id of the `k`-th message (k from 1) from endpoint `src` to `dst` when a trace is
/// recorded apart by processes that share no counter (the emulator's PEs, traces::PartRecorder):
/// the initiator's part names its messages so and the target names their deliveries so, without
/// sending the id.
constexpr std::uint64_t pair_message_id(int src, int dst, std::uint64_t k)
{
  return (static_cast<std::uint64_t>(src) << 48) | (static_cast<std::uint64_t>(dst) << 32) | k;
}

} // namespace shmemsim
