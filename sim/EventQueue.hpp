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
  Ps now() const;

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
  // A calendar queue: keys (date, sequence, payload) go into buckets of 2^kBucketShift ps
  // covering a window of kBuckets buckets from the current one; a bitmap finds the next
  // non-empty bucket; keys beyond the window wait in a heap until the window reaches them. The
  // bucket being drained is kept sorted, so events pop in exact (date, sequence) order.
  struct Key {
    Ps time;
    std::uint64_t seq;
    Fn fn; ///< the payload travels with its key: no second memory access per event
    void* obj;
    std::uint64_t arg;
  };
  static bool before(const Key& a, const Key& b) { return a.time != b.time ? a.time < b.time : a.seq < b.seq; }
  static constexpr int kBucketShift    = 10;      // 1.024 ns
  static constexpr std::size_t kBuckets = 1 << 16; // a window of about 67 us

  void arm();
  /// The timer set for date `due` fired (SimGrid's double clock may read a few ps earlier).
  void fire(Ps due);
  void run_top();
  void push_key(const Key& k);
  /// Earliest key, or nullptr if empty. Never moves the window (only popping does), so an actor
  /// may still schedule at the current date after a peek.
  const Key* peek();
  bool empty() const { return count_ == 0; }

  std::vector<std::vector<Key>> buckets_ = std::vector<std::vector<Key>>(kBuckets);
  std::vector<std::uint64_t> nonempty_   = std::vector<std::uint64_t>(kBuckets / 64, 0);
  std::int64_t cur_bucket_    = 0;  ///< absolute bucket of the last popped event: the window's start
  std::int64_t sorted_bucket_ = -1; ///< absolute bucket kept sorted ascending, popped from sorted_head_
  std::size_t sorted_head_    = 0;
  std::int64_t peeked_bucket_ = -1; ///< where peek() found the earliest key (-1: in far_)
  std::vector<Key> far_;            ///< min-heap of keys beyond the window
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
