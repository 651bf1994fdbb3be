// The model's own event queue, on SimGrid's clock (DESIGN.md "Key decisions").
//
// Model events (injection, hops, delivery, ACK, CT increment) are ordered by
// (time in integer picoseconds, sequence number) and drive ONE re-armed SimGrid kernel timer.
// Callbacks run in maestro: they may wake actors (through Notifier), never block.
//
// Look-ahead: when no actor is inside a SimGrid activity (an Exec or a sleep, counted with
// ActivityGuard), nothing but this queue can make time advance, so the queue keeps processing
// later events within one timer firing, saving a SimGrid round trip per distinct date. The first
// event that wakes an actor at a date later than SimGrid's clock stops the batch; the wake is
// deferred and delivered when the timer fires at that date. Results are identical with and
// without look-ahead (tested).
#pragma once

#include "sim/Time.hpp"

#include <cstdint>
#include <vector>

namespace simgrid::kernel::timer {
class Timer;
}

namespace shmemsim::sim {

class Notifier;

class EventQueue {
public:
  using Fn = void (*)(void* obj, std::uint64_t arg);

  EventQueue() = default;
  EventQueue(const EventQueue&)            = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  ~EventQueue();

  /// Schedule fn(obj, arg) at date t (>= now()).
  void schedule(Ps t, Fn fn, void* obj, std::uint64_t arg = 0);

  /// Schedule obj->Method(arg) at date t.
  template <auto Method, class T> void schedule(Ps t, T* obj, std::uint64_t arg = 0)
  {
    schedule(t, [](void* o, std::uint64_t a) { (static_cast<T*>(o)->*Method)(a); }, obj, arg);
  }

  /// Current model date: the date of the event being processed, or SimGrid's clock in an actor.
  Ps now() const { return in_fire_ ? now_ : (now_ > clock_ ? now_ : clock_); }
  /// SimGrid's clock moved to `clock` (Simulation follows Engine::on_time_advance): now() reads this
  /// copy instead of asking SimGrid and converting its double clock at every call.
  void set_clock(Ps clock) { clock_ = clock; }

  std::uint64_t events_processed() const { return processed_; }
  std::size_t pending() const { return count_; }
  Ps last_event_time() const { return now_; }

  /// Allow or forbid look-ahead (for tests comparing both; on by default).
  void set_lookahead(bool on) { lookahead_ = on; }
  /// The run's simulated-time limit (0: none): look-ahead never processes an event past it, so a
  /// run stopped there has done nothing later.
  void set_time_limit(Ps limit) { time_limit_ = limit; }

  /// Number of actors inside a SimGrid activity; look-ahead is only legal at zero.
  void activity_begin() { ++activities_; }
  void activity_end() { --activities_; }

  /// Called by Notifier from maestro: true if the wake must be deferred to the current model date.
  bool defer_wake(Notifier* n);

  /// Process every remaining event without SimGrid (after the last actor ended).
  void drain();

  /// Latest date of an event: 4e18 ps (4e6 s, about 46 days of simulated time). Any single delay
  /// a scenario gives is at most 1e6 s (sim/Params.hpp), and one step of a model adds a few of
  /// them to the date of the event it runs in, so dates computed from events up to the horizon
  /// stay below 2^63 ps (about 9.2e6 s). An event past it is not scheduled, the run stops there
  /// (Simulation::run) and reports it (past_horizon()).
  static constexpr Ps kHorizon = 4'000'000 * kPsPerSecond;
  /// An event (or a sleep) was refused because its date was past kHorizon.
  bool past_horizon() const { return past_horizon_; }
  void refuse_past_horizon() { past_horizon_ = true; }

private:
  // A 4-ary min-heap of small entries (date, sequence, slot) ordered by (date, sequence); the
  // payload (fn, obj, arg) waits in a slot of a recycled slab. Exact (date, sequence) order, so the
  // order of events never depends on the data structure. Memory is the peak number of pending
  // events, whatever the length of the run. (Measured in bench/README.md: it replaced a calendar
  // queue of per-bucket vectors that cost 3-4 times more instructions per event.)
  struct Entry {
    Ps time;
    std::uint64_t seq;
    std::uint32_t slot;
  };
  struct Slot {
    Fn fn;
    void* obj;
    std::uint64_t arg;
  };
  /// (date, sequence) order, compared as one 128-bit number (dates are never negative): branch-free.
  static bool before(const Entry& a, const Entry& b)
  {
    __extension__ using U128 = unsigned __int128;
    return ((static_cast<U128>(a.time) << 64) | a.seq) < ((static_cast<U128>(b.time) << 64) | b.seq);
  }

  void arm();
  /// The timer set for date `due` fired (SimGrid's double clock may read a few ps earlier).
  void fire(Ps due);
  void run_top();
  void push(const Entry& e);
  /// Remove the earliest entry (the heap is not empty).
  void pop_top();
  /// Earliest entry, or nullptr if empty. An actor may still schedule at the current date after a peek.
  const Entry* peek() const { return heap_.empty() ? nullptr : &heap_.front(); }
  bool empty() const { return heap_.empty(); }

  std::vector<Entry> heap_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::size_t count_ = 0;
  std::uint64_t next_seq_  = 0;
  std::uint64_t processed_ = 0;
  Ps now_                  = 0;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  Ps timer_at_             = 0;
  bool lookahead_          = true;
  Ps time_limit_           = 0;
  bool past_horizon_       = false;
  bool in_fire_            = false;
  bool stop_batch_         = false;
  bool woke_in_batch_      = false;
  Ps fire_clock_           = 0;
  Ps clock_                = 0; ///< SimGrid's clock in picoseconds (set_clock)
  int activities_          = 0;
  std::vector<Notifier*> deferred_;
};

/// Marks an actor as inside a SimGrid activity (compute, sleep) for the look-ahead rule.
class ActivityGuard {
public:
  explicit ActivityGuard(EventQueue& q) : q_(q) { q_.activity_begin(); }
  ~ActivityGuard() { q_.activity_end(); }
  ActivityGuard(const ActivityGuard&)            = delete;
  ActivityGuard& operator=(const ActivityGuard&) = delete;

private:
  EventQueue& q_;
};

} // namespace shmemsim::sim
