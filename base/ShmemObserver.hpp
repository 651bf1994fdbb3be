// The SHMEM front end's events, for traces and reports: operations issued on contexts, contexts
// made and released, waits on counters (published by a transport: the simulator's Portals
// transport or the emulator's), computation and the library's lock (published by a PE runtime).
// With base/NetworkObserver.hpp and base/PortalsObserver.hpp, the vocabulary both backends publish
// in and the trace recorder implements (traces/Recorder.hpp). Header-only: including it links
// nothing.
#pragma once

#include "base/CtxEvent.hpp"
#include "base/Observe.hpp"
#include "base/Time.hpp"

#include <cstdint>

namespace shmemsim {

class ShmemObserver {
public:
  virtual ~ShmemObserver() = default;

  /// Thread `thr` of PE `pe` issues an operation on context `ctx`, counted on CT `ct` as its
  /// `seq`-th. Returns the operation's trace id (0: none), which the transport hands to the
  /// network with the operation's messages (Portals' user_ptr; the emulator's request), so that
  /// each message is tied to its own operation whichever thread issues what in between.
  virtual std::uint64_t op_issued(Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind,
                                  std::uint64_t bytes, int target) = 0;
  /// Context `ctx` (0: the default) was created, destroyed, refused or shared.
  virtual void ctx_event(Ps t, int pe, int thr, int ctx, int ct, CtxEvent what) = 0;
  /// A thread starts waiting for CT `ct` of context `ctx` to reach `target` (`what`: the call).
  virtual void wait_begin(Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target) = 0;
  /// The wait ends, the counter having reached `target`.
  virtual void wait_end(Ps t, int pe, int thr, std::uint64_t target) = 0;
  /// Computation of a thread from `t`, `dur` long.
  virtual void compute(Ps t, Ps dur, int pe, int thr) = 0;
  /// Waiting for and holding the library's lock, from `t`, `dur` long.
  virtual void lock(Ps t, Ps dur, int pe, int thr) = 0;
  /// Thread `thr` of PE `pe` enters the SHMEM routine `routine` ("shmem_barrier_all"): its
  /// outermost library call (a routine the library calls inside another is not reported).
  virtual void routine_begin(Ps /*t*/, int /*pe*/, int /*thr*/, const char* /*routine*/) {}
  /// The thread returns from the routine of its last routine_begin.
  virtual void routine_end(Ps /*t*/, int /*pe*/, int /*thr*/) {}

  /// An interval from `t` (a computation or a lock) is under way and will be reported, dated `t`,
  /// once its length is known: until the matching interval_closed(t), events before `t` may still
  /// come. Every other event is reported at the time it happens or later, so a recorder that
  /// streams in date order writes events up to min(now, earliest open interval) (traces/Recorder).
  virtual void interval_open(Ps /*t*/) {}
  /// The interval opened at `t` has been reported (or will not be: it was empty).
  virtual void interval_closed(Ps /*t*/) {}
};

/// Keeps an interval from `t` open for the observer (if any) while it lives.
class OpenInterval {
public:
  OpenInterval(ShmemObserver* obs, Ps t) : obs_(obs), t_(t) { SHMEMSIM_OBSERVE(obs_, interval_open(t_)); }
  ~OpenInterval() { SHMEMSIM_OBSERVE(obs_, interval_closed(t_)); }
  OpenInterval(const OpenInterval&)            = delete;
  OpenInterval& operator=(const OpenInterval&) = delete;

private:
  ShmemObserver* obs_;
  Ps t_;
};

} // namespace shmemsim
