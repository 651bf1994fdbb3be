// Engine glue: one SimGrid engine, one host per node, the model's event queue, seeded RNG
// streams, actors, and the end-of-run verdict (completed, deadlock, simulated-time limit).
#pragma once

#include "sim/ActorBook.hpp"
#include "sim/CoreSharing.hpp"
#include "sim/DeferredSlices.hpp"
#include "sim/EventQueue.hpp"
#include "sim/HostParams.hpp"
#include "sim/MapBudget.hpp"
#include "sim/Noise.hpp"
#include "sim/Rng.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace simgrid::s4u {
class Engine;
class Host;
} // namespace simgrid::s4u

namespace shmemsim::sim {

class Notifier;

enum class RunStatus { Completed, Deadlock, TimeLimit };

/// Simulation::spawn cannot give a new actor a stack: the process's memory mappings would pass
/// vm.max_map_count (sim/MapBudget.hpp). what() is one line saying so.
class NoRoomForStack : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// RNG purposes: each gets its own stream derived from the scenario seed (Noise: one per thread,
/// see detours_for).
enum class RngPurpose : std::uint64_t { Routing = 1, Jitter = 2, Traffic = 3, Noise = 4 };

class Simulation {
public:
  /// Only one Simulation may exist in a process (SimGrid's engine is a singleton). `noise`: the
  /// operating-system noise of the nodes' threads (sim/Noise.hpp). `stack_guards`: SimGrid puts a
  /// guard page below every actor's stack (an overflow then crashes cleanly), at the cost of a
  /// second memory mapping per actor (sim/MapBudget.hpp).
  Simulation(const HostParams& hosts, std::uint64_t seed, const NoiseParams& noise = {}, bool stack_guards = true);
  ~Simulation();
  Simulation(const Simulation&)            = delete;
  Simulation& operator=(const Simulation&) = delete;

  EventQueue& queue() { return queue_; }
  std::uint64_t seed() const { return seed_; }
  Rng rng(RngPurpose p) const { return Rng::stream(seed_, static_cast<std::uint64_t>(p)); }
  const NoiseParams& noise() const { return noise_; }
  /// The detours of one thread of the platform, `key` naming it: its own phase, from the seed.
  /// Actors' threads are keyed by their SimGrid pid (1, 2, ... in spawn order); other threads
  /// (a NIC's progress thread) use keys from kNoiseKeyOthers on.
  Detours detours_for(std::uint64_t key) const;
  static constexpr std::uint64_t kNoiseKeyOthers = std::uint64_t{1} << 40;
  /// Detours taken so far by every actor (NICs count their own), and the time they took.
  std::uint64_t actor_detours() const;
  Ps actor_detour_time() const;
  int node_count() const { return static_cast<int>(hosts_.size()); }
  simgrid::s4u::Host* host(int node) const { return hosts_.at(static_cast<std::size_t>(node)); }

  /// Start an actor running `code` on `node`. `name` names it in reports ("endpoint 3"). Throws
  /// NoRoomForStack, before anything else, when its stack would pass the mapping limit.
  void spawn(const std::string& name, int node, std::function<void()> code);

  /// The calling actor's notifier (actors started with spawn() have one).
  Notifier& self_notifier();

  /// Run until every actor has ended (then drain in-flight model events), a deadlock, or
  /// `time_limit` (0: none).
  RunStatus run(Ps time_limit = 0);

  /// After a Deadlock or TimeLimit: one line per blocked party, saying what it waits for.
  const std::vector<std::string>& blocked() const { return blocked_; }
  /// Date of the last thing that happened (actor or model event); after a deadlock, the date it
  /// began, with or without a time limit.
  Ps end_time() const;
  /// The calling actor blocks on its Notifier or ends: the last date an actor did something (a
  /// deadlock that a time limit outlasts began then).
  void note_actor_stop();

  /// Actor helpers: simulated computation on the actor's host, and sleeping. Every helper that
  /// stands for the running thread's own work (execute, execute_slice, sleep_slice, busy_for,
  /// spin_for) is lengthened by the detours that fall during it (noise()); sleep_for is not.
  void execute(double flops);
  /// A time slice of `flops` of the running thread's computation: executed, or deferred when
  /// nothing else can act before it ends (DeferredSlices). Same dates either way.
  void execute_slice(double flops);
  /// A time slice in which the running thread sleeps `duration` (a spin-wait's poll when
  /// computation is free): slept, or deferred like execute_slice.
  void sleep_slice(Ps duration);
  /// The running thread is busy for `duration` without occupying a simulated core (a poll, the
  /// hold of a lock): sleep_for, lengthened by its detours.
  void spin_for(Ps duration);
  /// Bring SimGrid's clock to the end of the calling actor's deferred time slices, if any: before
  /// anything that reads the clock (the blocking helpers here and in Notifier do it themselves).
  void settle()
  {
    if (slices_.pending())
      settle_deferred();
  }
  DeferredSlices& deferred_slices() { return slices_; }
  /// What every actor does (running, waiting, inside an activity until at least some date).
  ActorBook& actors() { return actors_; }
  void sleep_for(Ps duration);
  /// Occupy the actor's core for `duration` at full speed (an execution of duration x the host's
  /// core speed: slower when the node's cores are oversubscribed). Nothing happens for 0.
  void busy_for(Ps duration);
  /// Let the other runnable actors run first (sched_yield).
  void yield();
  /// The time the calling actor has been busy so far through busy_for and spin_for (its own work
  /// outside computation: Portals calls, polls, stalls on shared lines, a held lock), as asked
  /// (without detours, which are the operating system's): what the PE runtime charges to the
  /// SHMEM routines as host CPU time (summary `collectives`, docs/runs.md).
  Ps busy_time() const;

  /// Called around every point where an actor may be switched out (Notifier waits, execute,
  /// sleep_for): `before` in the actor about to block, `after` once it runs again. The PE runtime
  /// uses them to keep per-PE process state (getopt variables, errno) private.
  using SwitchHook = void (*)(void* ctx);
  void set_switch_hooks(SwitchHook before, SwitchHook after, void* ctx)
  {
    before_block_ = before;
    after_resume_ = after;
    hook_ctx_     = ctx;
  }
  void before_block() const
  {
    if (before_block_ != nullptr)
      before_block_(hook_ctx_);
  }
  void after_resume() const
  {
    if (after_resume_ != nullptr)
      after_resume_(hook_ctx_);
  }

  /// before_block() now, after_resume() at scope exit, also when the actor is killed (unwinding).
  class SwitchGuard {
  public:
    explicit SwitchGuard(const Simulation& s) : s_(s) { s_.before_block(); }
    ~SwitchGuard() { s_.after_resume(); }
    SwitchGuard(const SwitchGuard&)            = delete;
    SwitchGuard& operator=(const SwitchGuard&) = delete;

  private:
    const Simulation& s_;
  };

  void register_notifier(Notifier* n);
  void unregister_notifier(Notifier* n);

private:
  void collect_blocked();
  void settle_deferred();
  /// An execution of `flops` on the calling actor's core, its node's cores shared (CoreSharing; no
  /// detours added).
  void execute_raw(double flops);
  /// The calling actor's detours during `busy` of its execution (0 without noise).
  Ps detours(Ps busy);
  /// The same for `flops` of computation, in flops.
  double detour_flops(double flops);
  /// The calling actor's SimGrid pid.
  static std::size_t self_pid();
  /// Adds `d` to the calling actor's busy_time().
  void count_busy(Ps d);

  std::uint64_t seed_;
  NoiseParams noise_;
  std::vector<std::optional<Detours>> detours_by_pid_;
  std::vector<Ps> busy_by_pid_; ///< busy_time() of each actor
  std::unique_ptr<simgrid::s4u::Engine> engine_;
  std::vector<simgrid::s4u::Host*> hosts_;
  std::unordered_map<const simgrid::s4u::Host*, int> node_of_host_;
  std::unique_ptr<CoreSharing> cores_; ///< the sharing of each node's cores among its executions
  EventQueue queue_;
  ActorBook actors_;
  MapBudget stacks_;
  DeferredSlices slices_;
  double core_speed_;
  std::vector<Notifier*> notifiers_;
  std::vector<Notifier*> by_pid_;
  std::vector<std::string> blocked_;
  bool deadlock_           = false;
  Ps last_actor_stop_      = 0;  ///< note_actor_stop()
  Ps deadlock_at_          = -1; ///< a deadlock found when the time limit ended the run: when it began
  Ps completed_at_         = -1; ///< a run that a time limit did not stop: when it ended
  SwitchHook before_block_ = nullptr;
  SwitchHook after_resume_ = nullptr;
  void* hook_ctx_          = nullptr;
};

} // namespace shmemsim::sim
