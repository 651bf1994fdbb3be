// The model's own event queue, on SimGrid's clock (docs/design.md, "Key decisions").
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

#include "base/Time.hpp"

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

  EventQueue()                             = default;
  EventQueue(const EventQueue&)            = delete;
  EventQueue& operator=(const EventQueue&) = delete;
  ~EventQueue();

  /// Schedule fn(obj, arg) at date t (>= now()).
  void schedule(Ps t, Fn fn, void* obj, std::uint64_t arg = 0);

  /// Schedule obj->Method(arg) at date t.
  template <auto Method, class T> void schedule(Ps t, T* obj, std::uint64_t arg = 0)
  {
    schedule(
        t, [](void* o, std::uint64_t a) { (static_cast<T*>(o)->*Method)(a); }, obj, arg);
  }

  /// Current model date: the date of the event being processed, or SimGrid's clock in an actor.
  Ps now() const { return in_fire_ ? now_ : (now_ > clock_ ? now_ : clock_); }
  /// SimGrid's clock moved to `clock` (Simulation follows Engine::on_time_advance): now() reads this
  /// copy instead of asking SimGrid and converting its double clock at every call.
  void set_clock(Ps clock) { clock_ = clock; }

  std::uint64_t events_processed() const { return processed_; }
  std::size_t pending() const { return count_; }
  /// Nothing is scheduled: no event, no deferred wake.
  bool idle() const { return count_ == 0 && deferred_.empty(); }
  Ps last_event_time() const { return now_; }

  /// Allow or forbid look-ahead (for tests comparing both; on by default).
  void set_lookahead(bool on) { lookahead_ = on; }
  /// The run's simulated-time limit (0: none): look-ahead never processes an event past it, so a
  /// run stopped there has done nothing later.
  void set_time_limit(Ps limit) { time_limit_ = limit; }
  Ps time_limit() const { return time_limit_; }
  /// A thread's time slices are deferred (DeferredSlices): its clock is behind, nothing may be
  /// scheduled until they are settled.
  void set_slices_deferred(bool on) { slices_deferred_ = on; }

  /// Number of actors inside a SimGrid activity; look-ahead is only legal at zero.
  void activity_begin() { ++activities_; }
  void activity_end() { --activities_; }

  /// Called by Notifier from maestro: true if the wake must be deferred to the current model date.
  bool defer_wake(Notifier* n);

  /// Process every remaining event without SimGrid (after the last actor ended).
  void drain();

  /// Latest date of an event: 4e18 ps (4e6 s, about 46 days of simulated time). Any single delay
  /// a scenario gives is at most 1e6 s (base/Params.hpp), and one step of a model adds a few of
  /// them to the date of the event it runs in, so dates computed from events up to the horizon
  /// stay below 2^63 ps (about 9.2e6 s). An event past it is not scheduled, the run stops there
  /// (Simulation::run) and reports it (past_horizon()).
  static constexpr Ps kHorizon = 4'000'000 * kPsPerSecond;
  /// An event (or a sleep) was refused because its date was past kHorizon.
  bool past_horizon() const { return past_horizon_; }
  void refuse_past_horizon() { past_horizon_ = true; }

private:
  // Two levels, so that the structure touched per event stays small whatever the number pending:
  // the current time bucket is a sorted run (often sorted already: many events of a bucket share
  // one date and were scheduled in sequence order) plus a 4-ary min-heap of the events scheduled
  // into it after it became current;
  // the next kBuckets - 1 buckets of this epoch are unsorted arrays the events are appended to; the
  // events past the epoch wait in one unsorted array (`far_`). When both are empty, the next
  // non-empty bucket is sorted into the run; when the epoch's buckets are all used, a new epoch starts at
  // the earliest far event, with a bucket width (a power of two of picoseconds) chosen so that the
  // epoch covers about nine tenths of the far events (the last ones are the stragglers), and the far
  // events are dealt out again. Each event is appended once or twice and sorted once, with others of its bucket.
  // Exact (date, sequence) order, so the order of events never depends on the structure. Measured in
  // bench/README.md: it replaced a 4-ary heap of every pending event, whose pops at 65 k pending
  // events touched 8-16 cache lines each, which had replaced a calendar queue of 65,536 buckets.
  struct Entry {
    Ps time;
    std::uint64_t seq;
    Fn fn;
    void* obj;
    std::uint64_t arg;
  };
  static constexpr int kBucketBits       = 10;
  static constexpr std::int64_t kBuckets = std::int64_t{1} << kBucketBits;
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
  /// File an entry: heap, bucket or far array (does not count it).
  void place(const Entry& e);
  void heap_push(const Entry& e);
  /// Remove the earliest entry of the heap (not empty).
  void heap_pop();
  /// The run and the heap are empty and events are pending: make the next bucket the run, starting
  /// an epoch if needed.
  void refill();
  void start_epoch();
  /// Make `bucket` the run (sorted), leaving the bucket empty.
  void take_run(std::vector<Entry>& bucket);
  /// Earliest entry, or nullptr if empty. An actor may still schedule at the current date after a peek.
  const Entry* peek()
  {
    if (run_pos_ == run_.size() && heap_.empty()) {
      if (count_ == 0)
        return nullptr;
      refill();
    }
    if (run_pos_ == run_.size())
      return &heap_.front();
    if (heap_.empty() || before(run_[run_pos_], heap_.front()))
      return &run_[run_pos_];
    return &heap_.front();
  }
  /// Remove the entry peek() returned.
  void pop_peeked(const Entry* e)
  {
    if (run_pos_ < run_.size() && e == &run_[run_pos_])
      ++run_pos_;
    else
      heap_pop();
    --count_;
  }
  bool empty() const { return count_ == 0; }

  // The current bucket (up to cur_): its events in date order (run_, consumed from run_pos_), and
  // the events scheduled into it since, in a heap.
  std::vector<Entry> run_;
  std::size_t run_pos_ = 0;
  std::vector<Entry> heap_;
  /// bucket a (cur_ < a < epoch_end_) at a mod kBuckets
  std::vector<std::vector<Entry>> buckets_ = std::vector<std::vector<Entry>>(kBuckets);
  /// bit i: buckets_[i] is not empty
  std::vector<std::uint64_t> nonempty_ = std::vector<std::uint64_t>(kBuckets / 64);
  std::vector<Entry> far_;                    ///< bucket a >= epoch_end_
  std::vector<Entry> spare_;                  ///< far_'s previous storage, reused
  int shift_                            = 0;  ///< bucket of date t: t >> shift_
  std::int64_t cur_                     = -1; ///< the bucket in the heap
  std::int64_t epoch_end_               = 0;  ///< first bucket past this epoch
  std::size_t count_                    = 0;
  std::uint64_t next_seq_               = 0;
  std::uint64_t processed_              = 0;
  Ps now_                               = 0;
  simgrid::kernel::timer::Timer* timer_ = nullptr;
  Ps timer_at_                          = 0;
  bool lookahead_                       = true;
  Ps time_limit_                        = 0;
  bool past_horizon_                    = false;
  bool slices_deferred_                 = false;
  bool in_fire_                         = false;
  bool stop_batch_                      = false;
  bool woke_in_batch_                   = false;
  Ps fire_clock_                        = 0;
  Ps clock_                             = 0; ///< SimGrid's clock in picoseconds (set_clock)
  int activities_                       = 0;
  std::vector<Notifier*> deferred_;
  /// How far ahead of the model's date the last kAhead events were scheduled (a ring), for the
  /// epochs' width (start_epoch).
  static constexpr std::size_t kAhead = 64;
  Ps ahead_[kAhead]                   = {};
  std::uint64_t ahead_next_           = 0;
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
