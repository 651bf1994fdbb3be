// Building a simulated cluster from a validated scenario, running its workload, and the summary.
#pragma once

#include "scenarios/Scenario.hpp"
#include "traces/Recorder.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace shmemsim::portals {
class Network;
}

namespace shmemsim::scenarios {

/// Exit codes of `shmemsim run` (also documented in the README).
enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitBadInput = 2, kExitDeadlock = 3, kExitTimeLimit = 4 };

struct RunOutcome {
  int exit_code = kExitOk;
  nlohmann::json summary;          ///< deterministic: no wall-clock figures, dates or paths
  std::vector<std::string> errors; ///< one line each (failed checks, deadlock report...)
  double wall_seconds = 0;         ///< for --perf only; never in the summary
  double run_wall_seconds = 0;     ///< the simulation proper (no setup, no checks)
};

/// Endpoint -> node placement (job.placement, job.pes_per_node).
std::vector<int> place_endpoints(const Scenario& sc);

/// Run the scenario's traffic on its platform, recording into `recorder` if given. Throws
/// ScenarioError for setup failures caused by the scenario (e.g. limits too small for the pattern).
RunOutcome run_scenario(const Scenario& sc, traces::Recorder* recorder = nullptr);

/// The trace level of a run: `option` (--trace) if given, else output.trace if the run has an
/// output directory, else off. Throws ScenarioError naming a bad --trace value, or --trace
/// without an output directory.
traces::Level trace_level(const Scenario& sc, const std::string& option, bool has_out);
/// Fill the recorder's header (scenario, seed, platform limits, PEs and their nodes, links) and
/// attach it to the network's models.
void attach_recorder(traces::Recorder& recorder, const Scenario& sc, portals::Network& net, const std::vector<int>& node_of);

/// A human-readable report of a summary.
std::string format_summary(const nlohmann::json& summary);

} // namespace shmemsim::scenarios
