#include "sim/Simulation.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <algorithm>
#include <csignal>
#include <exception>
#include <stdexcept>

namespace sg4 = simgrid::s4u;

namespace shmemsim::sim {

namespace {
bool g_alive = false;
// Raw contexts (the fastest here) switch stacks behind AddressSanitizer's back; sanitized builds
// use one system thread per actor instead (still one running at a time), which it understands.
#if defined(SHMEMSIM_SANITIZED)
constexpr const char* kContextFactory = "--cfg=contexts/factory:thread";
#else
constexpr const char* kContextFactory = "--cfg=contexts/factory:raw";
#endif
} // namespace

Simulation::Simulation(const HostParams& hp, std::uint64_t seed, const NoiseParams& noise, bool stack_guards)
    : seed_(seed), noise_(noise), stacks_(stack_guards), slices_(actors_, queue_, hp.core_speed),
      core_speed_(hp.core_speed)
{
  if (g_alive)
    throw std::logic_error("only one Simulation may exist in a process");
  g_alive = true;
  // SimGrid's own chatter stays off: every message users see comes from shmemsim.
  std::vector<std::string> args = {
      "shmemsim",      "--log=root.thres:critical", "--log=ker_engine.app:file:/dev/null", "--log=ker_engine.add:no",
      kContextFactory, "--cfg=contexts/nthreads:1"};
  if (!stack_guards)
    args.emplace_back("--cfg=contexts/guard-size:0");
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  // SimGrid's engine installs a SIGINT handler of its own (it exits with status 1): keep the
  // handlers the tool installed (they name the signal and exit with 128 + signal).
  struct sigaction before_int {
  }, before_term{};
  sigaction(SIGINT, nullptr, &before_int);
  sigaction(SIGTERM, nullptr, &before_term);
  engine_ = std::make_unique<sg4::Engine>(&argc, argv.data());
  sigaction(SIGINT, &before_int, nullptr);
  sigaction(SIGTERM, &before_term, nullptr);

  auto* zone = sg4::create_full_zone("cluster");
  for (int i = 0; i < hp.nodes; ++i) {
    auto* h = zone->create_host("node-" + std::to_string(i), hp.core_speed);
    h->set_core_count(hp.cores_per_node);
    h->seal();
    node_of_host_.emplace(h, i);
    hosts_.push_back(h);
  }
  zone->seal();
  // Executions share their node's cores in the model's own processor sharing (sim/CoreSharing.hpp),
  // not SimGrid's CPU model; activities whose ends fall within SimGrid's timing precision of each
  // other end together there as in SimGrid.
  const double precision = simgrid_timing_precision();
  std::vector<double> speeds;
  for (const auto* h : hosts_)
    speeds.push_back(h->get_speed());
  cores_ = std::make_unique<CoreSharing>(std::move(speeds), hp.cores_per_node, precision);

  // The event queue keeps SimGrid's clock in picoseconds: the engine says when it moves.
  queue_.set_clock(seconds_to_ps(sg4::Engine::get_clock()));
  sg4::Engine::on_time_advance_cb([this](double) {
    const double now = sg4::Engine::get_clock();
    queue_.set_clock(seconds_to_ps(now));
    cores_->clock_moved(now);
  });
  sg4::Engine::on_deadlock_cb([this] {
    deadlock_ = true;
    collect_blocked();
  });
}

Simulation::~Simulation()
{
  g_alive = false;
}

void Simulation::spawn(const std::string& name, int node, std::function<void()> code)
{
  if (!stacks_.take_stack())
    throw NoRoomForStack("no room for " + name +
                         "'s stack: the process's memory mappings would pass vm.max_map_count (" +
                         std::to_string(stacks_.limit()) + ")");
  settle();
  actors_.expect_start(); // runnable from now on, though it runs later
  sg4::Actor::create(name, host(node), [this, name, code = std::move(code)] {
    const auto pid = static_cast<std::size_t>(sg4::this_actor::get_pid());
    actors_.started(pid);
    Notifier self(*this, name);
    if (by_pid_.size() <= pid)
      by_pid_.resize(pid + 1, nullptr);
    by_pid_[pid] = &self;
    struct Clear {
      Simulation& sim;
      std::size_t pid;
      ~Clear()
      {
        if (std::uncaught_exceptions() == 0)
          sim.settle(); // an actor ends at the end of its computation
        sim.note_actor_stop();
        sim.by_pid_[pid] = nullptr;
        sim.actors_.ended(pid);
      }
    } clear{*this, pid};
    code();
  });
}

Notifier& Simulation::self_notifier()
{
  const auto pid = static_cast<std::size_t>(sg4::this_actor::get_pid());
  if (pid >= by_pid_.size() || by_pid_[pid] == nullptr)
    throw std::logic_error("blocking model call outside an actor started by Simulation::spawn");
  return *by_pid_[pid];
}

void Simulation::collect_blocked()
{
  blocked_.clear();
  for (const Notifier* n : notifiers_)
    if (n->waiting())
      blocked_.push_back(n->describe());
}

void Simulation::note_actor_stop()
{
  last_actor_stop_ = std::max(last_actor_stop_, seconds_to_ps(sg4::Engine::get_clock()));
}

RunStatus Simulation::run(Ps time_limit)
{
  queue_.set_time_limit(time_limit);
  if (time_limit > 0)
    engine_->run_until(ps_to_seconds(time_limit));
  else
    engine_->run();
  // Past the event queue's horizon, where picosecond dates could overflow, nothing was scheduled.
  if (queue_.past_horizon()) {
    collect_blocked();
    return RunStatus::TimeLimit;
  }
  if (deadlock_)
    return RunStatus::Deadlock;
  if (engine_->get_actor_count() > 0) {
    collect_blocked();
    // SimGrid runs the clock on to the limit when nothing is left to do before it, and reports no
    // deadlock: when every actor left waits on its Notifier and no event or wake is scheduled,
    // nothing could ever wake them. A deadlock, then, that began when the last actor stopped.
    if (actors_.all_waiting() && queue_.idle()) {
      deadlock_    = true;
      deadlock_at_ = std::max(last_actor_stop_, queue_.last_event_time());
      return RunStatus::Deadlock;
    }
    return RunStatus::TimeLimit;
  }
  queue_.drain();
  if (queue_.past_horizon())
    return RunStatus::TimeLimit;
  // run_until() runs the clock on to the limit after the last actor ended: the run ended at its
  // last actor's end or its last model event.
  if (time_limit > 0)
    completed_at_ = std::max(last_actor_stop_, queue_.last_event_time());
  return RunStatus::Completed;
}

Ps Simulation::end_time() const
{
  if (deadlock_at_ >= 0)
    return deadlock_at_;
  if (completed_at_ >= 0)
    return completed_at_;
  return std::max(seconds_to_ps(sg4::Engine::get_clock()), queue_.last_event_time());
}

std::size_t Simulation::self_pid()
{
  return static_cast<std::size_t>(sg4::this_actor::get_pid());
}

Detours Simulation::detours_for(std::uint64_t key) const
{
  // One stream per thread: the purpose's number with the key above it (never 1..3, the others).
  return Detours(noise_, Rng::stream(seed_, static_cast<std::uint64_t>(RngPurpose::Noise) | (key << 8)));
}

std::uint64_t Simulation::actor_detours() const
{
  std::uint64_t n = 0;
  for (const auto& d : detours_by_pid_)
    if (d)
      n += d->count();
  return n;
}

Ps Simulation::actor_detour_time() const
{
  Ps t = 0;
  for (const auto& d : detours_by_pid_)
    if (d)
      t += d->time();
  return t;
}

Ps Simulation::detours(Ps busy)
{
  if (!noise_.enabled)
    return 0;
  const std::size_t pid = self_pid();
  if (detours_by_pid_.size() <= pid)
    detours_by_pid_.resize(pid + 1);
  auto& d = detours_by_pid_[pid];
  if (!d)
    d = detours_for(pid);
  return d->during(busy);
}

double Simulation::detour_flops(double flops)
{
  if (!noise_.enabled || flops <= 0)
    return 0;
  // The execution's own time at full speed: the thread's execution clock counts its work.
  const Ps busy = seconds_to_ps(flops / core_speed_);
  return ps_to_seconds(detours(busy)) * core_speed_;
}

void Simulation::execute(double flops)
{
  execute_raw(flops + detour_flops(flops));
}

void Simulation::execute_raw(double flops)
{
  settle();
  const double clock = sg4::Engine::get_clock();
  ActivityGuard guard(queue_);
  SwitchGuard sw(*this);
  // It cannot end earlier than at full speed (one core: the execution's bound).
  ActorBook::Timed timed(actors_, self_pid(), clock + flops / core_speed_, true);
  cores_->execute(node_of_host_.at(sg4::this_actor::get_host()), flops);
}

void Simulation::execute_slice(double flops)
{
  const std::size_t pid = self_pid();
  flops += detour_flops(flops);
  if (slices_.defer(pid, flops))
    return;
  execute_raw(flops);
  slices_.executed();
}

void Simulation::sleep_slice(Ps duration)
{
  duration += detours(duration);
  if (slices_.defer_sleep(self_pid(), ps_to_seconds(duration)))
    return;
  sleep_for(duration);
  slices_.executed();
}

void Simulation::settle_deferred()
{
  const std::size_t pid = slices_.pending_actor();
  const double end      = slices_.take();
  {
    ActivityGuard guard(queue_);
    SwitchGuard sw(*this);
    ActorBook::Timed timed(actors_, pid, end, false);
    sg4::this_actor::sleep_until(end);
  }
  slices_.settled(end);
}

void Simulation::sleep_for(Ps duration)
{
  settle();
  ActivityGuard guard(queue_);
  SwitchGuard sw(*this);
  const Ps now = queue_.now();
  if (duration > EventQueue::kHorizon - now) { // the clock stops at the horizon (EventQueue::kHorizon)
    queue_.refuse_past_horizon();
    duration = std::max<Ps>(0, EventQueue::kHorizon - now);
  }
  const double seconds = ps_to_seconds(duration);
  ActorBook::Timed timed(actors_, self_pid(), sg4::Engine::get_clock() + seconds, false);
  sg4::this_actor::sleep_for(seconds);
}

void Simulation::count_busy(Ps d)
{
  const std::size_t pid = self_pid();
  if (busy_by_pid_.size() <= pid)
    busy_by_pid_.resize(pid + 1, 0);
  busy_by_pid_[pid] += d;
}

Ps Simulation::busy_time() const
{
  const std::size_t pid = self_pid();
  return pid < busy_by_pid_.size() ? busy_by_pid_[pid] : 0;
}

void Simulation::busy_for(Ps duration)
{
  if (duration <= 0)
    return;
  count_busy(duration);
  execute_raw(ps_to_seconds(duration + detours(duration)) * sg4::this_actor::get_host()->get_speed());
}

void Simulation::spin_for(Ps duration)
{
  if (duration > 0)
    count_busy(duration);
  sleep_for(duration + detours(duration));
}

void Simulation::yield()
{
  settle();
  SwitchGuard sw(*this);
  sg4::this_actor::yield();
}

void Simulation::register_notifier(Notifier* n)
{
  notifiers_.push_back(n);
}

void Simulation::unregister_notifier(Notifier* n)
{
  notifiers_.erase(std::remove(notifiers_.begin(), notifiers_.end(), n), notifiers_.end());
}

} // namespace shmemsim::sim
