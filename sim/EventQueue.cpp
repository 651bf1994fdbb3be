#include "sim/EventQueue.hpp"

#include "base/Assert.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>

namespace shmemsim::sim {

namespace {
Ps clock_ps()
{
  return seconds_to_ps(simgrid::s4u::Engine::get_clock());
}
} // namespace

EventQueue::~EventQueue()
{
  if (timer_ != nullptr)
    timer_->remove();
}

void EventQueue::schedule(Ps t, Fn fn, void* obj, std::uint64_t arg)
{
  if (t > kHorizon || t < 0) [[unlikely]] { // t < 0: a date that wrapped (cannot happen below the horizon)
    past_horizon_ = true;
    return;
  }
  const Ps n = now();
  SHMEMSIM_ASSERT(t >= n, "event scheduled in the past");
  SHMEMSIM_ASSERT(!slices_deferred_, "no model event is scheduled while a thread's time slices are deferred");
  ahead_[ahead_next_++ & (kAhead - 1)] = t - n;
  place(Entry{t, next_seq_++, fn, obj, arg});
  ++count_;
  if (!in_fire_)
    arm();
}

void EventQueue::place(const Entry& e)
{
  const std::int64_t a = e.time >> shift_;
  if (a <= cur_) {
    heap_push(e);
  } else if (a < epoch_end_) {
    const auto i = static_cast<std::size_t>(a & (kBuckets - 1));
    buckets_[i].push_back(e);
    nonempty_[i >> 6] |= std::uint64_t{1} << (i & 63);
  } else {
    far_.push_back(e);
  }
}

void EventQueue::heap_push(const Entry& e)
{
  // Sift up: new events are usually later than most pending ones, so this stops early.
  std::size_t i = heap_.size();
  heap_.push_back(e);
  Entry* h = heap_.data();
  while (i > 0) {
    const std::size_t parent = (i - 1) >> 2;
    if (!before(e, h[parent]))
      break;
    h[i] = h[parent];
    i    = parent;
  }
  h[i] = e;
}

void EventQueue::heap_pop()
{
  const Entry last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0)
    return;
  // Bottom-up: move the hole at the root down along the smallest children to a leaf, without
  // comparing with `last` (the latest-scheduled entries are usually among the latest dates, so it
  // would go down that far anyway), then sift `last` up from there. Fewer comparisons per level.
  Entry* h      = heap_.data();
  std::size_t i = 0;
  for (;;) {
    const std::size_t first = 4 * i + 1;
    if (first >= n)
      break;
    std::size_t m = first;
    if (first + 4 <= n) {
      const std::size_t a = before(h[first + 1], h[first]) ? first + 1 : first;
      const std::size_t b = before(h[first + 3], h[first + 2]) ? first + 3 : first + 2;
      m                   = before(h[b], h[a]) ? b : a;
    } else {
      for (std::size_t c = first + 1; c < n; ++c)
        if (before(h[c], h[m]))
          m = c;
    }
    h[i] = h[m];
    i    = m;
  }
  while (i > 0) {
    const std::size_t parent = (i - 1) >> 2;
    if (!before(last, h[parent]))
      break;
    h[i] = h[parent];
    i    = parent;
  }
  h[i] = last;
}

void EventQueue::refill()
{
  SHMEMSIM_ASSERT(heap_.empty() && run_pos_ == run_.size() && count_ > 0,
                  "refilling a heap that is not empty, or an empty queue");
  // The next non-empty bucket of this epoch, in bucket order (circular from cur_ + 1).
  for (std::int64_t a = cur_ + 1; a < epoch_end_;) {
    const auto i             = static_cast<std::size_t>(a & (kBuckets - 1));
    const std::uint64_t word = nonempty_[i >> 6] >> (i & 63);
    if (word == 0) {
      a += 64 - static_cast<std::int64_t>(i & 63); // the rest of this word is empty
      continue;
    }
    a += __builtin_ctzll(word);
    if (a >= epoch_end_)
      break;
    const auto j = static_cast<std::size_t>(a & (kBuckets - 1));
    cur_         = a;
    take_run(buckets_[j]);
    nonempty_[j >> 6] &= ~(std::uint64_t{1} << (j & 63));
    return;
  }
  start_epoch();
}

void EventQueue::take_run(std::vector<Entry>& bucket)
{
  // The bucket's storage becomes the run's, and the run's (consumed) storage the bucket's, unless it
  // is much larger than a bucket needs on average (memory stays proportional to the events pending:
  // a burst of events at one date must not leave every bucket at its size).
  run_.clear();
  run_.swap(bucket);
  if (bucket.capacity() > 64 + 4 * count_ / kBuckets)
    std::vector<Entry>().swap(bucket);
  run_pos_ = 0;
  if (!std::is_sorted(run_.begin(), run_.end(), before))
    std::sort(run_.begin(), run_.end(), before);
}

void EventQueue::start_epoch()
{
  SHMEMSIM_ASSERT(!far_.empty(), "events pending but neither in the buckets nor past them");
  // Bucket width: a power of two such that the epoch covers about 90 % of the far events, judged on
  // a sample of at most 64 of them taken at fixed positions (deterministic, and the order of events
  // does not depend on the width anyway).
  Ps lo = far_.front().time;
  for (const Entry& e : far_)
    lo = std::min(lo, e.time);
  Ps sample[64];
  const std::size_t n    = far_.size();
  const std::size_t take = std::min<std::size_t>(n, 64);
  for (std::size_t k = 0; k < take; ++k)
    sample[k] = far_[k * n / take].time - lo;
  const std::size_t q = take * 9 / 10;
  std::nth_element(sample, sample + q, sample + take);
  // With few events pending (a few per PE), the pending ones span less than how far ahead of its
  // date an event schedules the next (a hop, a PCIe crossing): an epoch covering only them ends
  // before the events scheduled meanwhile, which all go past it (`far_`) and are dealt out again
  // by the next epoch, an epoch every dozen events. So the epoch also covers twice the distance
  // ahead at which the last kAhead events were scheduled (its 90th percentile).
  Ps ahead[kAhead];
  std::copy(std::begin(ahead_), std::end(ahead_), ahead);
  constexpr std::size_t qa = kAhead * 9 / 10;
  std::nth_element(ahead, ahead + qa, ahead + kAhead);
  const Ps span = std::max(sample[q], 2 * ahead[qa]) + 1;
  int s         = 0;
  while (((span - 1) >> s) >= kBuckets - 1)
    ++s;
  shift_     = s;
  cur_       = lo >> s;
  epoch_end_ = cur_ + kBuckets;
  spare_.clear();
  spare_.swap(far_);
  run_.clear();
  run_pos_ = 0;
  for (const Entry& e : spare_) {
    if ((e.time >> s) == cur_)
      run_.push_back(e); // far_ is not sorted: sorted below
    else
      place(e);
  }
  if (!std::is_sorted(run_.begin(), run_.end(), before))
    std::sort(run_.begin(), run_.end(), before);
  SHMEMSIM_ASSERT(!run_.empty(), "a new epoch starts with the earliest event in its first bucket");
}

/// Pop the earliest event and run it.
void EventQueue::run_top()
{
  const Entry* next = peek();
  const Entry top   = *next;
  pop_peeked(next);
  now_ = top.time;
  ++processed_;
  top.fn(top.obj, top.arg);
}

void EventQueue::arm()
{
  Ps want;
  if (!deferred_.empty())
    want = now_;
  else if (const Entry* k = peek())
    want = k->time;
  else
    return;
  if (timer_ != nullptr) {
    if (timer_at_ <= want)
      return;
    timer_->remove();
  }
  timer_at_ = want;
  // A date of `now` read back from picoseconds can fall one rounding step before SimGrid's double
  // clock (an event scheduled with zero delay, e.g. platform.nic.pcie_latency 0): SimGrid refuses a
  // timer in the past, so such a timer is set at the clock itself, the same instant.
  const double at = std::max(ps_to_seconds(want), simgrid::s4u::Engine::get_clock());
  timer_          = simgrid::kernel::timer::Timer::set(at, [this, want] { fire(want); });
}

bool EventQueue::defer_wake(Notifier* n)
{
  if (!in_fire_)
    return false;
  if (now_ <= fire_clock_) {
    // The actor runs at SimGrid's current date: no event past that date may be processed first.
    woke_in_batch_ = true;
    return false;
  }
  deferred_.push_back(n);
  stop_batch_ = true;
  return true;
}

void EventQueue::fire(Ps due)
{
  timer_   = nullptr;
  in_fire_ = true;
  // Past 2^53 ps (about 2.5 hours) a picosecond date does not survive the round trip through
  // SimGrid's double clock: the timer set for `due` may fire at a clock that reads a few ps
  // earlier. It is the same instant; without this, the events at `due` would never be due.
  const Ps clock = std::max(clock_ps(), due);
  clock_         = clock_ps();
  fire_clock_    = clock;
  now_           = std::max(now_, clock);
  woke_in_batch_ = false;
  if (!deferred_.empty()) {
    std::vector<Notifier*> wakes;
    wakes.swap(deferred_);
    for (Notifier* n : wakes)
      n->release_now();
    woke_in_batch_ = true;
  }
  stop_batch_ = false;
  while (const Entry* next = peek()) {
    const Ps t = next->time;
    if (t > clock) {
      // Look ahead only while no actor can act before t: none inside a SimGrid activity, and no
      // other SimGrid timer due first.
      if (!lookahead_ || activities_ != 0 || woke_in_batch_ || (time_limit_ > 0 && t > time_limit_))
        break;
      const double other = simgrid::kernel::timer::Timer::next();
      if (other >= 0 && seconds_to_ps(other) <= t)
        break;
    }
    run_top();
    if (stop_batch_)
      break;
  }
  in_fire_ = false;
  arm();
}

void EventQueue::drain()
{
  in_fire_    = true;
  fire_clock_ = INT64_MAX; // no actor is left: every wake is immediate
  for (Notifier* n : deferred_)
    n->release_now();
  deferred_.clear();
  if (timer_ != nullptr) {
    timer_->remove();
    timer_ = nullptr;
  }
  while (!empty())
    run_top();
  in_fire_ = false;
}

} // namespace shmemsim::sim
