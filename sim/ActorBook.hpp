// What every actor started by Simulation::spawn is doing, as far as the simulation's clock is
// concerned: running (or runnable at the current date), waiting on its Notifier (only somebody
// else can wake it), or inside a SimGrid activity (an execution or a sleep) that cannot end before
// a known date. Simulation uses it to tell when an actor computing time slices is alone: nothing
// else can act before a given date (DeferredSlices).
#pragma once

#include <cstddef>
#include <vector>

namespace shmemsim::sim {

class ActorBook {
public:
  /// An actor is being created (runnable at once, before it first runs and calls started()).
  void expect_start() { ++running_; }
  /// The new actor runs.
  void started(std::size_t pid);
  /// The actor ended (normally or killed, in any state).
  void ended(std::size_t pid);
  /// The running actor blocks on its Notifier; woken() when somebody resumes it.
  void waits(std::size_t pid);
  void woken(std::size_t pid);
  /// The running actor enters a SimGrid activity that cannot end before `earliest_end` (seconds of
  /// SimGrid's clock); `computing`: an execution (it shares its node's cores). resumed() after it.
  void timed(std::size_t pid, double earliest_end, bool computing);
  void resumed(std::size_t pid);

  /// No actor runs or is inside an activity: each one left waits on its Notifier (or none is left).
  bool all_waiting() const { return running_ == 0 && timed_.empty(); }
  /// `pid` runs and every other actor waits or is inside an activity.
  bool alone(std::size_t pid) const
  {
    return running_ == 1 && pid < states_.size() && states_[pid].what == What::Running;
  }
  /// Executions in progress (of actors other than a running one: they are inside them).
  int computing() const { return computing_; }
  /// The earliest date at which an activity may end (negative: none is in progress).
  double earliest_end() const;

  /// Marks an actor as inside an activity for a scope (also when it is killed in it: unwinding).
  class Timed {
  public:
    Timed(ActorBook& book, std::size_t pid, double earliest_end, bool computing) : book_(book), pid_(pid)
    {
      book_.timed(pid, earliest_end, computing);
    }
    ~Timed() { book_.resumed(pid_); }
    Timed(const Timed&)            = delete;
    Timed& operator=(const Timed&) = delete;

  private:
    ActorBook& book_;
    std::size_t pid_;
  };

private:
  enum class What : unsigned char { Gone, Running, Waiting, Timed };
  struct State {
    What what        = What::Gone;
    bool computing   = false;
    std::size_t slot = 0; ///< index in timed_ while Timed
    double earliest  = 0; ///< while Timed
  };
  State& at(std::size_t pid);
  void leave_timed(State& s);

  std::vector<State> states_;      ///< by SimGrid pid
  std::vector<std::size_t> timed_; ///< pids inside an activity
  int computing_ = 0;              ///< executions in progress
  int running_   = 0;
};

} // namespace shmemsim::sim
