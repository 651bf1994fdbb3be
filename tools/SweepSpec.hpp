// A sweep's specification: the scenario's `sweep` object (and `repeat`), parsed and checked, and
// its expansion into points. What a point runs is tools/SweepPlan's business.
//
//   "sweep": {
//     "cartesian": [VAR or {"zip": [VAR, ...]}, ...],   every combination, the last varies fastest
//     "zip": [VAR, ...],                                 lists advancing together: one more dimension
//     "plot": PLOT or [PLOT, ...]
//   }
//   VAR  = {"key": "platform.fabric.link_latency" | "arg": "-t" | "arg": 2 | "env": "OMP_NUM_THREADS",
//           "values": [...] | "range": {"from": 1, "to": 11, "step": 1} | {"from": 1, "to": 64, "times": 2},
//           "name": "column name"}
//   PLOT = {"x": NAME, "y": METRIC, "series": NAME, "file": "plot.svg", "title": "...", "logx": bool, "logy": bool,
//           "errors": "minmax" | "stddev"}
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::tools {

/// One swept variable: what it sets, under which name its values appear in the results, and its
/// values in order.
struct SweepVariable {
  enum class Target { Key, Arg, Env };
  Target target = Target::Key;
  /// Key: the dotted scenario path; Arg: the option ("-t": its value is the next argument; "--n=": one
  /// argument "--n=VALUE"), empty for a position; Env: the variable's name.
  std::string of;
  int position = -1; ///< Arg by position: index in the program's arguments
  std::string name;  ///< column name in the results (default: `of`, "arg:-t", "arg:2", "env:VAR")
  std::string path;  ///< JSON path of its specification, for messages ("sweep.cartesian[1]")
  std::vector<nlohmann::json> values;
};

/// One plot the sweep draws over its runs (analysis::make_plot).
struct SweepPlot {
  std::string x, y, series; ///< keys: a variable's name, a program figure, a summary or scenario key
  std::string file = "plot.svg";
  std::string title;
  bool logx = false, logy = false;
  std::string path = {}; ///< JSON path of its specification, for messages ("sweep.plot[1]")
  /// Repeats' error bars: "minmax" (median, min..max) or "stddev" (mean -+ one standard deviation).
  std::string errors = "minmax";
};

class SweepSpec {
public:
  /// Parses `spec` (null: no sweep, a single point). Throws ScenarioError, one line:
  /// "SOURCE: sweep.cartesian[1].values: PROBLEM".
  static SweepSpec parse(const nlohmann::json& spec, const std::string& source);

  const std::vector<SweepVariable>& variables() const { return vars_; }
  const std::vector<SweepPlot>& plots() const { return plots_; }
  /// Number of points: the product of the dimensions' lengths.
  std::size_t point_count() const;
  /// Point `i`'s value of every variable (in variables() order). Dimensions in order, the last
  /// varying fastest; a zipped group advances its variables together.
  std::vector<nlohmann::json> point(std::size_t i) const;

  /// The most runs (points x repeat) one sweep holds.
  static constexpr std::size_t kMaxRuns = 1000000;

private:
  class Parser;
  std::vector<SweepVariable> vars_;
  std::vector<std::vector<std::size_t>> dims_; ///< each dimension: the variables it advances (zip: several)
  std::vector<SweepPlot> plots_;
};

/// Repeat `r`'s seed from the point's `seed`: r = 0 keeps it; r > 0 mixes both (SplitMix64), below 2^53
/// so that JSON readers keep it exact.
std::uint64_t derive_seed(std::uint64_t seed, int r);

/// A value as text: strings as they are, other values as JSON.
std::string value_text(const nlohmann::json& v);

} // namespace shmemsim::tools
