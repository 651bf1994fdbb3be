// A run request: what a front end (`shmemsim run`, `shmemsim-run`) makes of its options, and all
// the run library needs to go from it to a finished run directory (docs/runs.md).
#pragma once

#include "scenarios/Scenario.hpp"

#include <functional>
#include <string>

namespace shmemsim::run {

struct Request {
  /// The validated scenario. A program run's job.program, job.args and job.env are set: the
  /// program and arguments as given, the variables the PEs were given (scenario.json records them).
  scenarios::Scenario scenario;
  std::string tool = "shmemsim"; ///< the executable: prefix of its lines ("shmemsim-run")
  std::string command;           ///< its subcommand ("run"), or "" (shmemsim-run)
  std::string out;               ///< the run directory (--out; empty: none)
  std::string trace;             ///< --trace LEVEL (empty: output.trace with a run directory)
  std::string sim_time_limit;    ///< --sim-time-limit as written (empty: none)
  bool quiet = false;            ///< no progress line and no closing lines (errors and notices stay)

  // A program's run (shmemsim-run)
  bool emulate      = false; ///< real processes over TCP (EmulatedPlatform) instead of the simulator
  double wall_limit = 0;     ///< --wall-time-limit, seconds of real time (0: none)
  bool tag_output   = false; ///< --tag-output: "[PE n] " before each line a PE prints
  std::string hosts_file;    ///< --hosts FILE: the emulated PEs' hosts (empty: emulator.hosts)
  /// Who chose the platform, for the notice line that names it: " (from s.json)", " (the embedded
  /// default: no --scenario)", " (--set platform.preset)"; inserted after the preset's name.
  std::string platform_origin;
  /// Called once with the run's exit status when the run is over and its directory written, before
  /// the process ends (a simulated run ends it with _Exit): the front end's own last steps
  /// (shmemsim-run: the program's output record, --report, --diagram). Returns the status to end with.
  std::function<int(int)> finished;
};

/// A mistake in the request's options: throws base::UsageError with one line naming the command
/// ("run: --sim-time-limit x: ... (see 'shmemsim run --help')"); the front end prints it after
/// its name and ends with status 2.
[[noreturn]] void bad_option(const Request& request, const std::string& what);

} // namespace shmemsim::run
