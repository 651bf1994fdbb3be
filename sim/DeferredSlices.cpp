#include "sim/DeferredSlices.hpp"

#include "sim/ActorBook.hpp"
#include "base/Assert.hpp"
#include "sim/EventQueue.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>

namespace shmemsim::sim {

namespace {
/// The operations below must be done in double precision one at a time, as SimGrid does them.
double add(double a, double b)
{
  volatile double r = a + b;
  return r;
}
double sub(double a, double b)
{
  volatile double r = a - b;
  return r;
}
} // namespace

DeferredSlices::DeferredSlices(ActorBook& book, EventQueue& queue, double core_speed)
    : book_(book), queue_(queue), speed_(core_speed)
{
  // SimGrid ends together the activities whose dates are within its timing precision of each
  // other: keep well clear of that before anything else's date.
  margin_ = std::max(1e-9, 10 * simgrid_timing_precision());
}

double simgrid_timing_precision()
{
  for (const char* key : {"surf/precision", "precision/timing"}) {
    try {
      return simgrid::config::get_value<double>(key);
    } catch (const std::exception&) {
    }
  }
  return 1e-9;
}

double DeferredSlices::exec_end(double t, double flops, double speed)
{
  volatile double q = flops / speed; // remains / share
  return sleep_end(t, q);
}

double DeferredSlices::sleep_end(double t, double d)
{
  const double date  = add(t, d);
  const double delta = sub(date, t);
  return add(t, delta);
}

double DeferredSlices::quiet_until(std::size_t pid) const
{
  // Another execution in progress: SimGrid recomputes its end date (in floating point, from its
  // remaining work) when an execution starts or ends on its node, so the slices' executions could
  // not be left out. (Other executions are slices of the same length, or shorter: they end before
  // the slice anyway, except in measured mode.)
  if (!book_.alone(pid) || book_.computing() > 0)
    return -1;
  double quiet       = ps_to_seconds(EventQueue::kHorizon);
  const double other = book_.earliest_end();
  if (other >= 0)
    quiet = std::min(quiet, other);
  const double timer = simgrid::kernel::timer::Timer::next(); // the event queue's among them
  if (timer >= 0)
    quiet = std::min(quiet, timer);
  // A run with a time limit stops when the clock is within 1e-5 s of it (EngineImpl::run).
  if (queue_.time_limit() > 0)
    quiet = std::min(quiet, ps_to_seconds(queue_.time_limit()) - 1e-4);
  return quiet - margin_;
}

bool DeferredSlices::defer(std::size_t pid, double flops)
{
  return defer_slice(pid, flops, [this, flops](double t) { return exec_end(t, flops, speed_); });
}

bool DeferredSlices::defer_sleep(std::size_t pid, double seconds)
{
  return defer_slice(pid, seconds, [seconds](double t) { return sleep_end(t, seconds); });
}

template <class EndOf> bool DeferredSlices::defer_slice(std::size_t pid, double amount, EndOf end_of)
{
  checked_ = -1;
  if (mode_ == Mode::Off || amount <= 0)
    return false;
  const bool chained = until_ >= 0;
  SHMEMSIM_ASSERT(!chained || pid == pid_, "only the actor whose slices are deferred runs");
  const double clock = simgrid::s4u::Engine::get_clock();
  const double t     = chained ? until_ : clock;
  const double end   = end_of(t);
  const double quiet = chained ? quiet_ : quiet_until(pid);
  if (!(end < quiet))
    return false;
  // A long run is settled now and then, so that SimGrid's clock (the progress line) moves.
  if (chained && run_ >= kMaxRun)
    return false;
  // The sleep that settles the run of slices must land exactly on its end.
  const double start = chained ? start_ : clock;
  if (sleep_end(start, sub(end, start)) != end)
    return false;
  if (mode_ == Mode::Check) {
    checked_ = end;
    ++deferred_;
    return false;
  }
  if (!chained) {
    start_ = clock;
    quiet_ = quiet;
    pid_   = pid;
    queue_.set_slices_deferred(true);
    run_ = 0;
  }
  until_ = end;
  ++run_;
  ++deferred_;
  return true;
}

void DeferredSlices::executed()
{
  if (checked_ < 0)
    return;
  const double clock = simgrid::s4u::Engine::get_clock();
  if (clock != checked_) {
    std::fprintf(
        stderr, "shmemsim: SHMEMSIM_DEFER_SLICES=check: a time slice ended at %.17g s, its deferral computed %.17g s\n",
        clock, checked_);
    std::abort();
  }
  checked_ = -1;
}

double DeferredSlices::take()
{
  const double end = until_;
  until_           = -1;
  quiet_           = -1;
  queue_.set_slices_deferred(false);
  return end;
}

void DeferredSlices::settled(double end)
{
  SHMEMSIM_ASSERT(simgrid::s4u::Engine::get_clock() == end,
                  "the sleep that settles deferred time slices ends at their computed end");
}

} // namespace shmemsim::sim
