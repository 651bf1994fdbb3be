// The simulated platform (docs/runs.md): scenario -> platform models (Simulation, Network) ->
// optional trace recorder -> a workload set up and started on the models -> run -> verdict and
// summary keys. Its workloads: the scenario's traffic patterns (run/TrafficWorkload) and an
// OpenSHMEM program on the PE runtime (run/ProgramWorkload).
#pragma once

#include "run/Platform.hpp"
#include "run/Request.hpp"
#include "sim/Histogram.hpp"
#include "sim/Simulation.hpp"
#include "traces/Recorder.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace shmemsim::portals {
class Network;
}

namespace shmemsim::run {

/// The built models of a scenario's platform.
struct Models {
  std::vector<int> node_of; ///< endpoint (PE) -> node
  int program_cores = 0;    ///< cores per node left to programs (one fewer with platform.progress_core)
  std::unique_ptr<sim::Simulation> sim;
  std::unique_ptr<portals::Network> net;
};

/// What runs on the simulated platform. Implemented by the traffic patterns (run/TrafficWorkload)
/// and by an OpenSHMEM program (run/ProgramWorkload).
class Workload {
public:
  virtual ~Workload() = default;
  /// Add the workload's own trace header entries (after the platform's).
  virtual void describe(traces::Recorder&) {}
  /// Allocate its resources on the built models and attach `recorder` (may be null) to its own
  /// publishers. Throws ScenarioError for failures the scenario causes.
  virtual void setup(Models& models, traces::Recorder* recorder) = 0;
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

/// How to simulate, beyond the scenario.
struct RunSettings {
  Ps time_limit = 0;                               ///< simulated-time limit (0: none)
  std::string time_limit_text;                     ///< as the user wrote it, for the report
  traces::Level trace        = traces::Level::Off; ///< a recorder at this level unless off
  traces::Recorder* recorder = nullptr;            ///< set by SimulatedPlatform when traced
  /// A status line on stderr while the run lasts (simulated time, model events/s, actors
  /// finished), if stderr is a terminal: at most 4 updates per wall-clock second, from 0.5 s of
  /// wall time on, ended with a final line. Set unless --quiet. Wall-clock time only decides
  /// whether to print; the simulation does not depend on it.
  bool progress = false;
  /// Guard pages below the actors' stacks (sim::Simulation): off only when the run would not fit
  /// vm.max_map_count with them (a program's loading plans it: sim/MapBudget.hpp).
  bool stack_guards = true;
};

/// The request's simulation settings: its time limit (bad_option names a bad --sim-time-limit),
/// its trace level (run::trace_level) and the progress line (unless quiet).
RunSettings simulation_settings(const Request& request);

/// Endpoint -> node placement (job.placement, job.pes_per_node).
std::vector<int> place_endpoints(const scenarios::Scenario& sc);

/// A latency histogram as summary.json's latency blocks give it, in both platforms: count, mean_s,
/// min_s, p50_s, p99_s, max_s.
nlohmann::json histogram_json(const sim::Histogram& h);

/// A simulation: the models built from the scenario, the workload set up on them.
class SimulatedRun {
public:
  /// Build the models with endpoints at `node_of` and set the workload up on them. Throws
  /// ScenarioError naming the keys to lower if memory runs out, or the workload's setup failure.
  SimulatedRun(const scenarios::Scenario& sc, std::vector<int> node_of, Workload& workload, RunSettings settings);
  ~SimulatedRun();
  SimulatedRun(const SimulatedRun&)            = delete;
  SimulatedRun& operator=(const SimulatedRun&) = delete;

  /// Start the workload, run to the end, and judge: exit status, error lines, summary keys.
  RunOutcome execute();

  Models& models() { return models_; }

private:
  void build_models(std::vector<int> node_of);
  void attach_recorder();
  void report_stop(sim::RunStatus status, RunOutcome& out);
  nlohmann::json platform_summary();

  const scenarios::Scenario& sc_;
  Workload& workload_;
  RunSettings settings_;
  Models models_;
};

/// The simulated platform: a workload on the request's scenario's models, traced when the
/// settings say so (its recorder writes DIR/trace.evt as the run goes).
class SimulatedPlatform final : public Platform {
public:
  /// Creates the run directory (if any) and the recorder, builds the models with endpoints at
  /// `node_of` and sets `workload` up on them. `request` and `workload` outlive the platform.
  SimulatedPlatform(const Request& request, std::vector<int> node_of, Workload& workload, RunSettings settings);
  ~SimulatedPlatform() override;

  RunOutcome run() override;
  std::vector<std::string> write_trace(const std::string& dir) override;
  std::string trace_description() const override;

  SimulatedRun& simulation() { return *run_; }

private:
  traces::Level level_;
  std::unique_ptr<traces::Recorder> recorder_;
  std::unique_ptr<SimulatedRun> run_;
};

} // namespace shmemsim::run
