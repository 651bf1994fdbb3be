// Blocking an actor on the model, and waking it from a model event (in maestro) or from another
// actor. One Notifier per actor; waits may wake spuriously, so callers re-check their condition.
#pragma once

#include <simgrid/forward.h>

#include <cstddef>
#include <string>

namespace shmemsim::sim {

class EventQueue;
class Simulation;

/// Something an actor can wait on; describes the wait for deadlock and time-limit reports.
class Waitable {
public:
  virtual ~Waitable()                       = default;
  virtual std::string describe_wait() const = 0;
};

class Notifier {
public:
  /// `owner` names the waiting party in reports, e.g. "endpoint 3".
  Notifier(Simulation& sim, std::string owner);
  ~Notifier();
  Notifier(const Notifier&)            = delete;
  Notifier& operator=(const Notifier&) = delete;

  /// Actor side: block until notify(). `on` (may be null) says what is awaited, `call` in which
  /// routine (both for reports).
  void wait(const Waitable* on, const char* call);

  /// Wake the actor if it is waiting. From maestro, the wake happens at the current model date.
  void notify();

  /// Internal: called by the event queue for a deferred wake.
  void release_now();

  /// Blocked and not yet woken (a woken actor that has not run yet is not waiting any more).
  bool waiting() const { return waiting_ && !signaled_; }
  /// `*routine` (if set and non-null) names the routine the owner is in, for reports.
  void set_context(const char* const* routine) { context_ = routine; }
  const std::string& owner() const { return owner_; }
  /// "endpoint 3 waits in ct_wait on CT 2 ...", or an empty string if not waiting.
  std::string describe() const;

private:
  Simulation& sim_;
  EventQueue& queue_;
  std::string owner_;
  /// The actor that waits: it suspends itself, a wake resumes it. (Cheaper than an s4u::Semaphore,
  /// whose acquire makes an activity object per wait; the wake order is the same: a resume and a
  /// semaphore release both make the actor runnable at once.)
  simgrid::s4u::Actor* actor_ = nullptr;
  std::size_t pid_            = 0; ///< the owner's SimGrid pid (Simulation's ActorBook)
  const Waitable* on_         = nullptr;
  const char* const* context_ = nullptr;
  const char* call_           = nullptr;
  bool waiting_               = false;
  bool signaled_              = false;
};

} // namespace shmemsim::sim
