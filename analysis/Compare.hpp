// shmemsim compare: the differences of two run directories' result files (summary.json,
// report.json, reported.json), key by key; or of two sweep directories (sweep.json), point by
// point, the points matched by their swept values. Reads files only.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace shmemsim::analysis {

struct CompareRow {
  std::string key; ///< "summary.sim_time_s", "report.interference.total_s", "reported.rate"...
  double a = 0, b = 0;
};

struct Comparison {
  std::string dir_a, dir_b;
  std::vector<CompareRow> rows;    ///< numeric keys in both: differing ones first, by |log(B/A)| descending
  std::size_t differing = 0;       ///< rows[0, differing) differ
  std::vector<std::string> only_a; ///< numeric keys only in A (sorted)
  std::vector<std::string> only_b;
};

/// Compare two run directories. Throws std::runtime_error naming a missing directory, a directory
/// with none of the files, or a file that is not valid JSON.
Comparison compare_runs(const std::string& dir_a, const std::string& dir_b);

/// The same comparison of two maps of numeric keys (the dotted keys of load_run_numbers).
Comparison compare_numbers(const std::map<std::string, double>& a, const std::map<std::string, double>& b);

/// A run directory's numeric keys: every numeric leaf of its summary.json, report.json and
/// reported.json, by dotted key prefixed with the file's stem. Throws std::runtime_error naming a
/// missing directory, a directory with none of the files, or a file that is not valid JSON.
std::map<std::string, double> load_run_numbers(const std::string& dir);

/// Whether `dir` is a sweep's output directory (it has the sweep's index, sweep.json).
bool is_sweep_directory(const std::string& dir);

/// One point present in both sweeps: its swept values and its figures side by side (each side's
/// figure: the mean over the point's successful runs, its repeats).
struct PointComparison {
  std::string label;                  ///< "latency=100ns size=8" (A's variables, in A's order)
  nlohmann::json values;              ///< {"latency": "100ns", "size": 8}
  std::size_t runs_a = 0, runs_b = 0; ///< successful runs averaged on each side
  Comparison c;                       ///< dir_a/dir_b: the point's first run directory on each side
};

struct SweepComparison {
  std::string dir_a, dir_b;
  std::vector<std::string> variables_a, variables_b;
  std::vector<PointComparison> points; ///< points in both with a successful run on each side, in A's order
  std::vector<std::string> only_a;     ///< labels of the points only A has
  std::vector<std::string> only_b;
  std::vector<std::string> no_runs; ///< "LABEL: no successful run in A" (points in both, not compared)
};

/// Compare two sweep directories point by point (points matched by their swept values: names and
/// values). A point one sweep has and the other not is listed, not an error. Throws
/// std::runtime_error naming a directory that is missing or has no valid sweep.json, or a run's
/// file that is not valid JSON.
SweepComparison compare_sweeps(const std::string& dir_a, const std::string& dir_b);

/// select_keys for every point.
void select_keys(SweepComparison& c, const std::string& pattern);

/// Per point, its label and then format_comparison's table (headline, the differing keys, `top` >
/// 0: the first `top` of them per point); then the points only one side has.
std::string format_sweep_comparison(const SweepComparison& c, bool all, std::size_t top = 0);
/// {"a", "b", "variables_a", "variables_b", "points": [{"label", "values", "runs_a", "runs_b",
/// "keys", "order", "differing", "only_a", "only_b"}], "only_a", "only_b", "no_runs"}.
nlohmann::json sweep_comparison_json(const SweepComparison& c);

/// B/A (null when A is 0: infinite or undefined).
nlohmann::json ratio_json(const CompareRow& r);

/// Keep only the keys `pattern` finds (std::regex_search, ECMAScript) in rows and in only_a/only_b.
/// Throws std::runtime_error for a bad pattern.
void select_keys(Comparison& c, const std::string& pattern);

/// The run's headline figures, shown first: its simulated time, the program's own figures
/// (reported.*), deliveries, out-of-order deliveries, aggregate bandwidth, interference, overlap.
bool is_headline(const std::string& key);

/// The aligned text table: the headline keys both runs have, then the differing keys (`top` > 0:
/// the first `top` of them), then how many are equal (`all`: the equal ones too), then the keys only
/// one side has (the first 20 of each unless `all`).
std::string format_comparison(const Comparison& c, bool all, std::size_t top = 0);
/// {"a": DIR, "b": DIR, "keys": {KEY: {"a", "b", "ratio", "difference"}}, "only_a": [...], "only_b": [...]}.
nlohmann::json comparison_json(const Comparison& c);

} // namespace shmemsim::analysis
