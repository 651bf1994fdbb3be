#include "sim/EventQueue.hpp"

#include "sim/Assert.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>

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
  SHMEMSIM_ASSERT(t >= now(), "event scheduled in the past");
  std::uint32_t slot;
  if (free_slots_.empty()) {
    SHMEMSIM_ASSERT(slots_.size() < UINT32_MAX, "more than 2^32 pending model events");
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(Slot{fn, obj, arg});
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot] = Slot{fn, obj, arg};
  }
  push(Entry{t, next_seq_++, slot});
  if (!in_fire_)
    arm();
}

void EventQueue::push(const Entry& e)
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
  ++count_;
}

void EventQueue::pop_top()
{
  const Entry last = heap_.back();
  heap_.pop_back();
  --count_;
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

/// Pop the earliest event and run it.
void EventQueue::run_top()
{
  const Entry top = heap_.front();
  pop_top();
  const Slot s = slots_[top.slot];
  free_slots_.push_back(top.slot);
  now_ = top.time;
  ++processed_;
  s.fn(s.obj, s.arg);
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
  timer_    = simgrid::kernel::timer::Timer::set(ps_to_seconds(want), [this, want] { fire(want); });
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
