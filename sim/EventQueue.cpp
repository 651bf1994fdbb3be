#include "sim/EventQueue.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <cassert>
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

Ps EventQueue::now() const
{
  if (in_fire_)
    return now_;
  return std::max(now_, clock_ps());
}

void EventQueue::schedule(Ps t, Fn fn, void* obj, std::uint64_t arg)
{
  assert(t >= now() && "event scheduled in the past");
  std::uint32_t slot;
  if (free_slots_.empty()) {
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.push_back(Payload{fn, obj, arg});
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    slots_[slot] = Payload{fn, obj, arg};
  }
  heap_.push_back(Key{t, next_seq_++, slot});
  sift_up(heap_.size() - 1);
  if (!in_fire_)
    arm();
}

void EventQueue::sift_up(std::size_t i)
{
  const Key k = heap_[i];
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!before(k, heap_[parent]))
      break;
    heap_[i] = heap_[parent];
    i        = parent;
  }
  heap_[i] = k;
}

void EventQueue::sift_down(std::size_t i)
{
  const std::size_t n = heap_.size();
  const Key k         = heap_[i];
  while (true) {
    const std::size_t first = 4 * i + 1;
    if (first >= n)
      break;
    std::size_t best  = first;
    const std::size_t last = std::min(first + 4, n);
    for (std::size_t c = first + 1; c < last; ++c)
      if (before(heap_[c], heap_[best]))
        best = c;
    if (!before(heap_[best], k))
      break;
    heap_[i] = heap_[best];
    i        = best;
  }
  heap_[i] = k;
}

/// Pop the earliest event and run it.
void EventQueue::run_top()
{
  const Key top = heap_.front();
  heap_.front() = heap_.back();
  heap_.pop_back();
  if (!heap_.empty())
    sift_down(0);
  const Payload p = slots_[top.slot];
  free_slots_.push_back(top.slot);
  now_ = top.time;
  ++processed_;
  p.fn(p.obj, p.arg);
}

void EventQueue::arm()
{
  Ps want;
  if (!deferred_.empty())
    want = now_;
  else if (!heap_.empty())
    want = heap_.front().time;
  else
    return;
  if (timer_ != nullptr) {
    if (timer_at_ <= want)
      return;
    timer_->remove();
  }
  timer_at_ = want;
  timer_    = simgrid::kernel::timer::Timer::set(ps_to_seconds(want), [this] { fire(); });
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

void EventQueue::fire()
{
  timer_   = nullptr;
  in_fire_ = true;
  const Ps clock = clock_ps();
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
  while (!heap_.empty()) {
    const Ps t = heap_.front().time;
    if (t > clock) {
      // Look ahead only while no actor can act before t: none inside a SimGrid activity, and no
      // other SimGrid timer due first.
      if (!lookahead_ || activities_ != 0 || woke_in_batch_)
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
  while (!heap_.empty())
    run_top();
  in_fire_ = false;
}

} // namespace shmemsim::sim
