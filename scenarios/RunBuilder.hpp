// The run builder: the one place that turns a validated scenario into a run and a run into its
// results. scenario -> platform models (Simulation, Network) -> trace recorder -> workload (a
// traffic pattern set, or an OpenSHMEM program on the PE runtime) -> run -> exit status, error
// lines and summary.json, the same for `shmemsim run` and `shmemsim-run` (docs/runs.md).
#pragma once

#include "scenarios/Scenario.hpp"
#include "sim/Simulation.hpp"
#include "traces/Recorder.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace shmemsim::portals {
class Network;
}

namespace shmemsim::scenarios {

/// Exit statuses of every run (`shmemsim run`, `shmemsim-run`), documented in docs/runs.md. A
/// program's own exit status (its first non-zero PE's) takes the place of kExitOk/kExitCheckFailed;
/// an interrupted run ends with 128 + the signal (130 for SIGINT, 143 for SIGTERM).
enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitBadInput = 2, kExitDeadlock = 3, kExitTimeLimit = 4 };

/// The one mapping from how the simulation ended to the run's exit status: a completed run ends
/// with the workload's own verdict, a deadlock with 3, the simulated-time limit (or the clock's
/// horizon) with 4.
int exit_status(sim::RunStatus status, int workload_verdict);

/// The built models of a scenario's platform.
struct Platform {
  std::vector<int> node_of; ///< endpoint (PE) -> node
  int program_cores = 0;    ///< cores per node left to programs (one fewer with platform.progress_core)
  std::unique_ptr<sim::Simulation> sim;
  std::unique_ptr<portals::Network> net;
};

/// What runs on the platform. Implemented by the traffic patterns (scenarios/TrafficWorkload) and
/// by the OpenSHMEM program launcher (shmem_front/launcher/ProgramWorkload).
class Workload {
public:
  virtual ~Workload() = default;
  /// Add the workload's own trace header entries (after the platform's).
  virtual void describe(traces::Recorder&) {}
  /// Allocate its resources on the built platform and attach `recorder` (may be null) to its own
  /// publishers. Throws ScenarioError for failures the scenario causes.
  virtual void setup(Platform& platform, traces::Recorder* recorder) = 0;
  /// Start its actors.
  virtual void start() = 0;
  /// After a completed run: its verdict (0, 1 for a failed data check, or a program's status),
  /// adding one line per failure to `errors`.
  virtual int verdict(std::vector<std::string>& errors) = 0;
  /// Who can be blocked in a deadlock report: "actor", "PE still running"...
  virtual std::string blocked_parties() const = 0;
  /// Extra lines for a deadlock or time-limit report (before the simulation's blocked list for a
  /// time limit, after it for a deadlock).
  virtual void explain_stop(sim::RunStatus, std::vector<std::string>& /*lines*/) {}
  /// Its own keys of summary.json.
  virtual void summarize(nlohmann::json& summary) = 0;
};

/// How to run, beyond the scenario.
struct RunSettings {
  Ps time_limit = 0;            ///< simulated-time limit (0: none)
  std::string time_limit_text;       ///< as the user wrote it, for the report
  traces::Recorder* recorder = nullptr;
  /// A status line on stderr while the run lasts (simulated time, model events/s, actors
  /// finished), if stderr is a terminal: at most 4 updates per wall-clock second, from 0.5 s of
  /// wall time on, ended with a final line. The CLIs set it unless --quiet. Wall-clock time only
  /// decides whether to print; the simulation does not depend on it.
  bool progress = false;
  /// Guard pages below the actors' stacks (sim::Simulation): off only when the run would not fit
  /// vm.max_map_count with them (shmemsim-run plans it: sim/MapBudget.hpp).
  bool stack_guards = true;
};

struct RunOutcome {
  int exit_code = kExitOk;
  sim::RunStatus status = sim::RunStatus::Completed;
  nlohmann::json summary;          ///< deterministic: no wall-clock figures, dates or paths
  std::vector<std::string> errors; ///< one line each (failed checks, deadlock report...)
  double wall_seconds = 0;         ///< for --perf only; never in the summary
  double run_wall_seconds = 0;     ///< the simulation proper (no setup, no checks)
};

/// Endpoint -> node placement (job.placement, job.pes_per_node).
std::vector<int> place_endpoints(const Scenario& sc);

/// The trace level of a run: `option` (--trace) if given, else output.trace if the run has an
/// output directory, else off. Throws ScenarioError naming a bad --trace value, or --trace
/// without an output directory.
traces::Level trace_level(const Scenario& sc, const std::string& option, bool has_out);

/// A run: the platform built from the scenario, the workload set up on it.
class Run {
public:
  /// Build the platform's models and set the workload up on them. Throws ScenarioError naming the
  /// keys to lower if memory runs out, or the workload's setup failure.
  Run(const Scenario& sc, Workload& workload, RunSettings settings);
  ~Run();
  Run(const Run&)            = delete;
  Run& operator=(const Run&) = delete;

  /// Start the workload, run to the end, and judge: exit status, error lines, summary.
  RunOutcome execute();

  Platform& platform() { return platform_; }

private:
  void build_platform();
  void attach_recorder();
  void report_stop(sim::RunStatus status, RunOutcome& out);
  nlohmann::json platform_summary();

  const Scenario& sc_;
  Workload& workload_;
  RunSettings settings_;
  Platform platform_;
};

/// Write a run directory: summary.json, scenario.json (every key, resolved) and, if recorded, the
/// traces. Returns the trace files written (none without a recorder). Throws std::runtime_error
/// naming a file that cannot be written.
std::vector<std::string> write_run_directory(const std::string& dir, const RunOutcome& outcome, const Scenario& sc,
                                             traces::Recorder* recorder);

/// A human-readable report of a summary.
std::string format_summary(const nlohmann::json& summary);

} // namespace shmemsim::scenarios
