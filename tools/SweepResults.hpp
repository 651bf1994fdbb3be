// A sweep's results, collected from its run directories: each run's status, error line, the
// scalars of its summary.json and the figures the program reported ("RESULT name=value" lines on
// its stdout), one row per run (results.csv, results.json) and per point over its repeats (mean,
// min, max: points.csv).
#pragma once

#include "tools/SweepPlan.hpp"

#include <nlohmann/json.hpp>

#include <istream>
#include <map>
#include <string>
#include <vector>

namespace shmemsim::tools {

/// The figures of a program's output: every line "RESULT name=value [name=value ...]" (after an
/// optional "[PE n] " tag). A value that reads as a number is one, else it is a string; a name given
/// again takes its last value. Names: letters, digits, _ . : - (not starting with a digit).
nlohmann::json parse_reported(std::istream& in);

struct SweepRunResult {
  int status = -1;                                    ///< the run's exit status; -1: not run (no `status` file)
  std::string error;                                  ///< its first stderr line when it failed
  nlohmann::json reported = nlohmann::json::object(); ///< the program's figures
  nlohmann::json summary;                             ///< summary.json, null if absent
  nlohmann::json scenario;                            ///< scenario.json, null if absent
  std::map<std::string, nlohmann::json> scalars;      ///< summary.json's scalars by dotted key
};

class SweepResults {
public:
  /// Reads every run's directory; writes each run's reported.json (its figures) there.
  static SweepResults collect(const SweepIndex& index);

  const SweepIndex& index() const { return index_; }
  const std::vector<SweepRunResult>& runs() const { return runs_; }
  /// Runs that did not end with status 0 (or did not run).
  std::size_t failed() const;
  /// The figures' names, sorted (the program's first, then the summary's).
  const std::vector<std::string>& reported_names() const { return reported_; }

  /// DIR/results.csv, DIR/results.json, DIR/points.csv. Throws ScenarioError when a file cannot be written.
  void write() const;

private:
  std::string csv_runs() const;
  std::string csv_points() const;
  /// A program figure's column: its name, or "reported.NAME" when the name is also a column of the
  /// run's own (run, point, repeat, seed, status, error, runs, failed), a swept variable's or a
  /// summary figure's: every column name of a CSV file is distinct.
  std::string reported_column(const std::string& name) const;
  /// A summary figure's column: its name, or "summary.NAME" when the name is also one of the run's
  /// own columns or a swept variable's (the summary's `status` beside the run's).
  std::string summary_column(const std::string& name) const;
  nlohmann::json json_all() const;
  /// Per point (in order): its runs' indices.
  std::vector<std::vector<std::size_t>> by_point() const;
  /// mean, min, max, n of `metric` over the point's successful runs; null if none has it.
  nlohmann::json stats(const std::vector<std::size_t>& runs, const std::string& metric, bool reported) const;

  SweepIndex index_;
  std::vector<SweepRunResult> runs_;
  std::vector<std::string> reported_, summary_; ///< column names
  std::vector<bool> reported_numeric_, summary_numeric_;
};

/// Draws the sweep's plots (its `plot` entries, or by default the first program figure or sim_time_s
/// against the first numeric variable, one line per value of the second) with analysis::make_plot.
/// Returns one line per problem; `written` gets the files drawn.
std::vector<std::string> draw_sweep_plots(const SweepResults& results, std::vector<std::string>& written);

} // namespace shmemsim::tools
