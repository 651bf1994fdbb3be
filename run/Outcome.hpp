// How a run ends, on either platform: its exit status (one mapping for every run, docs/runs.md),
// its error lines and its summary.json keys.
#pragma once

#include "sim/Simulation.hpp" // sim::RunStatus

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace shmemsim::run {

/// Exit statuses of every run (`shmemsim run`, `shmemsim-run`, simulated or emulated), documented
/// in docs/runs.md. A program's own exit status (its first non-zero PE's) takes the place of
/// kExitOk/kExitCheckFailed; an interrupted run ends with 128 + the signal (130 for SIGINT, 143 for
/// SIGTERM), a crashed PE with 128 + its signal.
enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitBadInput = 2, kExitDeadlock = 3, kExitTimeLimit = 4 };

/// The one mapping from how a simulation ended to the run's exit status: a completed run ends
/// with the workload's own verdict, a deadlock with 3, the simulated-time limit (or the clock's
/// horizon) with 4.
int exit_status(sim::RunStatus status, int workload_verdict);

struct RunOutcome {
  int exit_code         = kExitOk;
  sim::RunStatus status = sim::RunStatus::Completed;
  /// The platform's and the workload's keys; run::execute adds status and checks. A simulation's
  /// is deterministic: no wall-clock figures, dates or paths.
  nlohmann::json summary;
  std::vector<std::string> errors; ///< one line each (failed checks, deadlock report...)
  double wall_seconds     = 0;     ///< for --perf only; never in a simulation's summary
  double run_wall_seconds = 0;     ///< the simulation proper (no setup, no checks)
};

} // namespace shmemsim::run
