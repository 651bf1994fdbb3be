// Time slices of computation that nothing else can observe, without a SimGrid execution each.
//
// A thread that computes without calling the library is charged every compute quantum (a time
// slice, ComputeAccounting): an execution on its node's cores, so that the other actors and the
// network run in between. Each execution costs SimGrid about as much CPU as 2 us of the program's
// own work. When nothing else in the simulation can act before a slice ends -- every other actor
// waits on its Notifier or is inside an activity that cannot end before then, no timer (the model's
// event queue, the run's time limit) is due, and no other execution is in progress -- the
// slice is deferred: the thread goes on computing, and the end date SimGrid would have given the
// execution is computed here, with SimGrid's own floating-point operations (see exec_end). When a
// slice cannot be deferred, or before the thread does anything else that blocks or reads the clock
// (settle), one sleep brings SimGrid's clock to exactly the deferred date. Nothing else acts in
// between, so every date, result and trace is the one the executions give (checked: tests compare
// runs with deferral on and off byte for byte, and SHMEMSIM_DEFER_SLICES=check executes every
// slice it would defer and asserts that SimGrid's clock then reads the computed date).
#pragma once

#include <cstddef>

namespace shmemsim::sim {

class ActorBook;
class EventQueue;

class DeferredSlices {
public:
  enum class Mode { On, Off, Check };

  DeferredSlices(ActorBook& book, EventQueue& queue, double core_speed);

  void set_mode(Mode m) { mode_ = m; }
  Mode mode() const { return mode_; }

  /// The running actor `pid` computes a slice of `flops`: true if it was deferred (its
  /// time has passed as far as the actor can tell), false if the caller must execute it (after
  /// settle(), which the caller does anyway before blocking).
  bool defer(std::size_t pid, double flops);
  /// The same for a slice in which the actor sleeps `seconds` (a spin-wait's poll when computation
  /// is free).
  bool defer_sleep(std::size_t pid, double seconds);
  /// After the caller executed a slice: in Check mode, if it would have been deferred, SimGrid's
  /// clock must read the date computed for it.
  void executed();
  /// Deferred slices are pending: SimGrid's clock must be brought to their end (a sleep) before
  /// the actor blocks or reads the clock.
  bool pending() const { return until_ >= 0; }
  std::size_t pending_actor() const { return pid_; }
  /// The pending slices' end; they are no longer pending (the caller sleeps until the date, then
  /// calls settled with it).
  double take();
  /// The caller slept until `end` (from take): SimGrid's clock must read it.
  void settled(double end);

  /// SimGrid 3.32's end of an execution of `flops` started at `t` alone on a core of `speed`:
  /// Model::next_occurring_event_lazy dates it t + remains / share (the share is the core's speed:
  /// the variable's bound, one core), EngineImpl::solve advances the clock by that date minus now.
  static double exec_end(double t, double flops, double speed);
  /// The same for a sleep of `d` from `t` (its date is start + max duration; an execution's is
  /// start + remains / share, so exec_end is sleep_end of that quotient).
  static double sleep_end(double t, double d);

  /// Slices deferred (in Check mode: checked) and settles (sleeps) so far.
  unsigned long deferred_count() const { return deferred_; }

private:
  /// Defer the slice of `amount` (flops, seconds; nothing to defer if not positive) that ends at
  /// end_of(t) if it starts at t.
  template <class EndOf> bool defer_slice(std::size_t pid, double amount, EndOf end_of);
  /// The date before which nothing but `pid` can act (negative: something can act now).
  double quiet_until(std::size_t pid) const;

  ActorBook& book_;
  EventQueue& queue_;
  double speed_;
  double margin_; ///< kept before the next date anything else may happen (seconds)
  Mode mode_                             = Mode::On;
  double start_                          = -1; ///< SimGrid's clock when the deferred run of slices began
  double until_                          = -1; ///< the deferred slices' end (negative: none pending)
  double quiet_                          = -1; ///< while slices are deferred: nothing else acts before this date
  std::size_t pid_                       = 0;
  unsigned long run_                     = 0; ///< slices in the pending run
  static constexpr unsigned long kMaxRun = 65536;
  double checked_                        = -1; ///< Check mode: the date the executed slice must end at
  unsigned long deferred_                = 0;
};

/// SimGrid's timing precision, seconds: it ends together the activities whose dates are within it
/// of each other (SimGrid 3.32 calls the key surf/precision, later versions precision/timing; 1e-9
/// s by default).
double simgrid_timing_precision();

} // namespace shmemsim::sim
