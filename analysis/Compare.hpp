// shmemsim compare: the differences of two run directories' result files (summary.json,
// report.json, reported.json), key by key. Reads files only.
#pragma once

#include <nlohmann/json.hpp>

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

/// B/A (null when A is 0: infinite or undefined).
nlohmann::json ratio_json(const CompareRow& r);

/// The aligned text table (differing keys, then how many are equal; `all`: the equal ones too).
std::string format_comparison(const Comparison& c, bool all);
/// {"a": DIR, "b": DIR, "keys": {KEY: {"a", "b", "ratio", "difference"}}, "only_a": [...], "only_b": [...]}.
nlohmann::json comparison_json(const Comparison& c);

} // namespace shmemsim::analysis
