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
  heap_.push_back(Event{t, next_seq_++, fn, obj, arg});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  if (!in_fire_)
    arm();
}

EventQueue::Event EventQueue::pop()
{
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  Event e = heap_.back();
  heap_.pop_back();
  return e;
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
    Event e = pop();
    now_    = e.time;
    ++processed_;
    e.fn(e.obj, e.arg);
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
  while (!heap_.empty()) {
    Event e = pop();
    now_    = e.time;
    ++processed_;
    e.fn(e.obj, e.arg);
  }
  in_fire_ = false;
}

} // namespace shmemsim::sim
