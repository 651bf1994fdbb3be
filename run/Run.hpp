// A run from its request to its finished run directory, on either platform (docs/runs.md):
// run::execute runs the platform's workload and is the one writer of summary.json, scenario.json
// and, through the platform, the trace files; trace_metadata is the one source of the trace
// header's values.
#pragma once

#include "run/Outcome.hpp"
#include "run/Platform.hpp"
#include "run/Request.hpp"
#include "traces/Trace.hpp"

#include <map>
#include <string>
#include <vector>

namespace shmemsim::run {

/// The trace level of a run: `option` (--trace) if given, else output.trace if the run has an
/// output directory, else off. Throws ScenarioError naming a bad --trace value, or --trace
/// without an output directory.
traces::Level trace_level(const scenarios::Scenario& sc, const std::string& option, bool has_out);

/// The trace header's values every run has (docs/traces.md): scenario, seed, pes, nodes, the NIC
/// limits the report reads (max_cts, max_mds, max_volatile_size) and the program, if any. Each
/// platform adds its own (the simulated: cores and links; the emulated: mode, clock, epoch).
std::map<std::string, std::string> trace_metadata(const scenarios::Scenario& sc, std::size_t pes, int nodes);

/// Creates the run directory `dir`. Throws ScenarioError naming it if it cannot be made.
void create_run_directory(const std::string& dir);

/// Writes DIR/summary.json and DIR/scenario.json (every key, resolved; for a program, job.program,
/// job.args and job.env as run). Throws std::runtime_error naming a file that cannot be written.
void write_run_directory(const std::string& dir, const RunOutcome& outcome, const scenarios::Scenario& sc);

/// A run that has ended, and what was written of it.
struct Finished {
  RunOutcome outcome;                   ///< its summary has status and checks
  std::vector<std::string> trace_files; ///< trace.evt, trace.json, trace.paje (none when not traced)
  std::string write_error;              ///< "--out DIR: why" when the run directory could not be written
  /// The exit status: the outcome's, or 2 when it was 0 but the run directory could not be written.
  int status() const { return write_error.empty() || outcome.exit_code != kExitOk ? outcome.exit_code : kExitBadInput; }
};

/// Runs the platform's workload to its end; adds the summary's status and checks; with a run
/// directory (request.out), writes summary.json, scenario.json and the trace files there. Prints
/// nothing of its own (the platform may: notices, its progress line).
Finished execute(const Request& request, Platform& platform);

/// A human-readable report of a simulation's summary (`shmemsim run`).
std::string format_summary(const nlohmann::json& summary);

} // namespace shmemsim::run
