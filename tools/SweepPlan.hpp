// A sweep's runs: every point x repeat as a normal run's command line (`shmemsim run` for traffic,
// `shmemsim-run` for a program), its directory, seed, environment, and the sweep's index
// (DIR/sweep.json), which is all that collecting results needs.
#pragma once

#include "tools/SweepSpec.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace shmemsim::tools {

/// What `shmemsim sweep` was asked for.
struct SweepRequest {
  std::string scenario;          ///< the scenario file, as given
  std::vector<std::string> sets; ///< --set KEY=VALUE, passed to every run
  std::string out;               ///< the sweep's directory
  std::string trace;             ///< --trace LEVEL for every run (empty: the scenario's)
  std::string time_limit;        ///< --sim-time-limit for every run (empty: none)
  bool report      = false;      ///< --report: every run writes its report.json too
  bool has_program = false;      ///< a program was given on the command line
  std::string program;
  std::vector<std::string> args;
  std::string bin_dir; ///< where shmemsim and shmemsim-run are
};

/// One run: a point's repeat.
struct SweepRun {
  std::string name; ///< "point-0007", or "point-0007-r1" when repeat > 1
  std::size_t point  = 0;
  int repeat         = 0;
  std::uint64_t seed = 0;
  std::vector<nlohmann::json> values; ///< one per variable
  std::string dir;                    ///< absolute
  std::vector<std::string> argv;      ///< absolute paths
  std::vector<std::pair<std::string, std::string>> env;

  /// The run as one shell line: it runs in its directory, writes stdout.txt, stderr.txt and its
  /// exit status in `status` (what a local run writes too).
  std::string shell() const;
  /// DIR/point.json: everything needed to run it again.
  nlohmann::json record() const;
};

/// The sweep: its variables' names, its plots and its runs (DIR/sweep.json).
struct SweepIndex {
  std::string dir;
  std::string scenario; ///< absolute
  int repeat = 1;
  std::vector<std::string> names;
  std::vector<bool> numeric; ///< per variable: every value is a number
  std::vector<SweepPlot> plots;
  std::vector<SweepRun> runs;

  nlohmann::json to_json() const;
  /// Reads DIR/sweep.json (--collect). Throws ScenarioError naming the file.
  static SweepIndex read(const std::string& dir);
};

/// Loads the scenario, parses its sweep, expands the points and checks each one's scenario.
/// Throws ScenarioError (one line naming the file, the JSON path or the point).
SweepIndex plan_sweep(const SweepRequest& req);

/// Writes DIR/sweep.json and each run's directory with its point.json (a run directory left by an
/// earlier sweep is emptied first). Throws ScenarioError when a directory cannot be made.
void prepare_sweep(const SweepIndex& index);

/// `s` quoted for a POSIX shell (unchanged when it needs no quoting).
std::string shell_quote(const std::string& s);

/// Writes `text` to `p` (replacing it); throws ScenarioError naming the file if it cannot.
void write_text(const std::filesystem::path& p, const std::string& text);

} // namespace shmemsim::tools
