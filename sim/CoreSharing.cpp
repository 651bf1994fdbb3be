#include "sim/CoreSharing.hpp"

#include "base/Assert.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <exception>

namespace sg4 = simgrid::s4u;

namespace shmemsim::sim {

CoreSharing::CoreSharing(std::vector<double> speeds, int cores, double precision)
    : cores_(cores), precision_(precision)
{
  SHMEMSIM_ASSERT(cores >= 1, "a node has at least one core");
  nodes_.resize(speeds.size());
  for (std::size_t i = 0; i < speeds.size(); ++i)
    nodes_[i].speed = speeds[i];
}

CoreSharing::~CoreSharing()
{
  for (Node& nd : nodes_)
    if (nd.timer != nullptr)
      nd.timer->remove();
}

double CoreSharing::rate(const Node& nd) const
{
  return nd.n <= cores_ ? 1.0 : static_cast<double>(cores_) / static_cast<double>(nd.n);
}

void CoreSharing::advance(Node& nd, double now)
{
  if (now > nd.at) {
    nd.v += (now - nd.at) * rate(nd);
    nd.at = now;
  }
}

double CoreSharing::date_of(const Node& nd, double tag) const
{
  return nd.at + (tag - nd.v) / rate(nd);
}

bool CoreSharing::due(const Node& nd, const Exec& e, double now) const
{
  // SimGrid's test for an action's end (double_equals with its timing precision).
  return date_of(nd, e.tag) - now < precision_;
}

bool CoreSharing::reached(const Node& nd, const Exec& e, double now) const
{
  // The virtual time and the tag carry a few rounding errors of the dates' magnitude: an
  // execution never slowed reaches its tag at its sleep's end within far less than this (1e-12
  // of the date: 0.001 ps at 1 ms).
  return date_of(nd, e.tag) - now <= 1e-12 * now + 1e-21;
}

std::size_t CoreSharing::take_slot()
{
  if (free_.empty()) {
    execs_.emplace_back();
    free_.push_back(execs_.size() - 1);
  }
  const std::size_t slot = free_.back();
  free_.pop_back();
  execs_[slot] = Exec{};
  execs_[slot].free = false;
  return slot;
}

bool CoreSharing::before(std::size_t a, std::size_t b) const
{
  const Exec& x = execs_[a];
  const Exec& y = execs_[b];
  return x.tag < y.tag || (x.tag == y.tag && x.seq < y.seq);
}

void CoreSharing::heap_push(Node& nd, std::size_t slot)
{
  nd.heap.push_back(slot);
  std::push_heap(nd.heap.begin(), nd.heap.end(), [this](std::size_t a, std::size_t b) { return before(b, a); });
}

void CoreSharing::heap_pop(Node& nd)
{
  std::pop_heap(nd.heap.begin(), nd.heap.end(), [this](std::size_t a, std::size_t b) { return before(b, a); });
  nd.heap.pop_back();
}

void CoreSharing::leave(Node& nd, double now)
{
  advance(nd, now);
  SHMEMSIM_ASSERT(nd.n > 0, "an execution leaves a node it runs on");
  --nd.n;
}

void CoreSharing::rearm(std::size_t node)
{
  Node& nd = nodes_[node];
  // Executions whose actor was killed while queued leave the heap when they reach its top.
  while (!nd.heap.empty() && execs_[nd.heap.front()].actor == nullptr) {
    const std::size_t slot = nd.heap.front();
    heap_pop(nd);
    execs_[slot].free = true;
    free_.push_back(slot);
  }
  double want = -1;
  if (!nd.heap.empty())
    want = std::max(date_of(nd, execs_[nd.heap.front()].tag), sg4::Engine::get_clock());
  if (nd.timer != nullptr && nd.timer_at == want)
    return;
  if (nd.timer != nullptr) {
    nd.timer->remove();
    armed_.erase({nd.timer_at, node});
    nd.timer    = nullptr;
    nd.timer_at = -1;
  }
  if (want < 0)
    return;
  nd.timer_at = want;
  armed_.emplace(want, node);
  nd.timer = simgrid::kernel::timer::Timer::set(want, [this, node] {
    Node& n = nodes_[node];
    armed_.erase({n.timer_at, node});
    n.timer    = nullptr; // SimGrid deletes a timer once it fired
    n.timer_at = -1;
    end_due(node, sg4::Engine::get_clock());
    rearm(node);
  });
}

void CoreSharing::end_due(std::size_t node, double now)
{
  Node& nd = nodes_[node];
  advance(nd, now);
  while (!nd.heap.empty()) {
    const std::size_t slot = nd.heap.front();
    Exec& e                = execs_[slot];
    if (e.actor != nullptr && !due(nd, e, now))
      break;
    heap_pop(nd);
    if (e.actor == nullptr) { // killed while queued: it left the node then
      e.free = true;
      free_.push_back(slot);
      continue;
    }
    e.queued = false;
    e.done   = true;
    leave(nd, now);
    e.actor->resume(); // the actor frees the slot
  }
}

void CoreSharing::clock_moved(double now)
{
  while (!armed_.empty() && armed_.begin()->first - now < precision_) {
    const std::size_t node = armed_.begin()->second;
    Node& nd               = nodes_[node];
    armed_.erase(armed_.begin());
    nd.timer->remove();
    nd.timer    = nullptr;
    nd.timer_at = -1;
    end_due(node, now);
    rearm(node);
  }
}

void CoreSharing::execute(int node, double flops)
{
  const auto ni = static_cast<std::size_t>(node);
  Node& nd      = nodes_.at(ni);
  if (!(flops > 0)) {
    sg4::this_actor::execute(flops); // nothing to share: SimGrid's (immediate) end, as before
    return;
  }
  // SimGrid's duration of the execution alone on a core: remains / share, one core's speed.
  volatile double quotient = flops / nd.speed;
  const double q           = quotient;
  double now               = sg4::Engine::get_clock();
  advance(nd, now);
  const std::size_t slot = take_slot();
  execs_[slot].tag       = nd.v + q;
  execs_[slot].seq       = next_seq_++;
  execs_[slot].node      = node;
  execs_[slot].actor     = sg4::Actor::self();
  ++nd.n;
  rearm(ni); // the others' share changed
  // An actor killed while inside (unwinding): its execution leaves the node; a queued one is
  // dropped from the heap when it reaches the top (rearm, end_due).
  struct Release {
    CoreSharing& cs;
    std::size_t slot;
    ~Release()
    {
      Exec& e = cs.execs_[slot];
      if (std::uncaught_exceptions() > 0 && !e.done) {
        Node& n = cs.nodes_[static_cast<std::size_t>(e.node)];
        cs.leave(n, sg4::Engine::get_clock());
        e.actor = nullptr;
        if (e.queued) {
          cs.rearm(static_cast<std::size_t>(e.node));
          return; // still in the heap: freed from there
        }
        cs.rearm(static_cast<std::size_t>(e.node));
      }
      e.free = true;
      cs.free_.push_back(slot);
    }
  } release{*this, slot};

  {
    // Its end at full speed, the earliest it can end: exact, with SimGrid's operations, if it was
    // never slowed. A SimGrid sleep (which takes no share of the node's constraint in SimGrid's
    // CPU model: O(1) there) for `q` of at least SimGrid's timing precision; SimGrid lengthens
    // shorter sleeps to the precision, so a shorter one is SimGrid's execution (on a constraint
    // that holds only the node's executions shorter than 1 ns, which end within it).
    if (q >= precision_)
      sg4::this_actor::sleep_for(q);
    else
      sg4::this_actor::execute(flops);
    now = sg4::Engine::get_clock();
    advance(nd, now);
    // Its end at full speed is a date of this model's making, not one at which anything happens
    // in SimGrid's: a slowed execution ends at its own date (or with whatever happens within the
    // precision before it: clock_moved), not at this one.
    if (reached(nd, execs_[slot], now)) {
      execs_[slot].done = true;
      leave(nd, now);
      rearm(ni);
      return;
    }
  }
  execs_[slot].queued = true;
  heap_push(nd, slot);
  rearm(ni);
  while (!execs_[slot].done)
    sg4::this_actor::suspend();
}

} // namespace shmemsim::sim
