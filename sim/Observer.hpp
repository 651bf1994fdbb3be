// The observer interface: how the models (fabric, NIC, Portals, the SHMEM front and its runtime)
// publish what happens, for traces and reports. Models never include `traces`; they call an
// Observer if one is attached. With none attached a call site costs one predictable branch, and a
// build with -DSHMEMSIM_OBSERVERS=OFF compiles the call sites out (bench/trace-overhead compares).
//
// Every call passes the simulated date it is about (which may be later than now: a packet that
// will leave a busy port at `start`), endpoints/PEs, threads and contexts as plain integers.
#pragma once

#include "sim/ObserverEvents.hpp"
#include "sim/Time.hpp"

#include <cstdint>

#ifndef SHMEMSIM_OBSERVERS
#define SHMEMSIM_OBSERVERS 1
#endif

#if SHMEMSIM_OBSERVERS
/// Call obs->CALL if an observer is attached: SHMEMSIM_OBSERVE(obs_, msg_done(now, id)).
#define SHMEMSIM_OBSERVE(obs, ...)                                                                                     \
  do {                                                                                                                 \
    if ((obs) != nullptr) [[unlikely]]                                                                                 \
      (obs)->__VA_ARGS__;                                                                                              \
  } while (0)
#else
#define SHMEMSIM_OBSERVE(obs, ...)                                                                                     \
  do {                                                                                                                 \
  } while (0)
#endif

namespace shmemsim::sim {

class Observer {
public:
  virtual ~Observer() = default;

  /// Whether packet hops are wanted (they are many).
  bool wants_packets() const { return packets_; }

  // ---- NIC and fabric
  /// A message was handed to the initiator NIC; returns its trace id (stored in the message).
  virtual std::uint64_t msg_issued(Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes) = 0;
  /// The NIC takes the message off its command queue and starts injecting it.
  virtual void msg_injected(Ps t, std::uint64_t msg) = 0;
  /// A packet of the message enters link `link` at `t`, after queueing `queued` for it.
  virtual void packet_hop(Ps t, std::uint64_t msg, int link, Ps queued, std::uint32_t bytes) = 0;
  /// The message is complete at its target.
  virtual void msg_delivered(Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth) = 0;
  /// Its ACK or reply is visible at the initiator.
  virtual void msg_done(Ps t, std::uint64_t msg) = 0;

  // ---- Portals
  virtual void ct_changed(Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure) = 0;
  /// A resource limit was hit: "ct", "md", "le", "pt".
  virtual void limit_hit(Ps t, int ep, const char* what) = 0;

  // ---- the SHMEM front
  /// Thread `thr` of PE `pe` issues an operation on context `ctx`, counted on CT `ct` as its
  /// `seq`-th; the messages issued next by the PE's endpoint belong to it.
  virtual void op_issued(Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind,
                         std::uint64_t bytes, int target) = 0;
  /// Context `ctx` (0: the default) was created, destroyed, refused or shared.
  virtual void ctx_event(Ps t, int pe, int thr, int ctx, int ct, CtxEvent what) = 0;
  virtual void wait_begin(Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target) = 0;
  virtual void wait_end(Ps t, int pe, int thr, std::uint64_t target) = 0;
  /// Computation of a thread from `t`, `dur` long.
  virtual void compute(Ps t, Ps dur, int pe, int thr) = 0;
  /// Waiting for and holding the library's lock, from `t`, `dur` long.
  virtual void lock(Ps t, Ps dur, int pe, int thr) = 0;

protected:
  bool packets_ = false;
};

} // namespace shmemsim::sim
