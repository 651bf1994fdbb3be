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
