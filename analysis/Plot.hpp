// Plots across runs: a metric against a parameter, one line per variant (the contexts paper's
// Figures 4-6). Each run is a directory written by `shmemsim run --out` / `shmemsim-run --out`
// (scenario.json, summary.json) and possibly `shmemsim report` (report.json).
#pragma once

#include "analysis/AxisUnits.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shmemsim::analysis {

/// One run directory's documents, by file stem: "scenario", "summary", "report", "reported" (the
/// program's RESULT figures, written by shmemsim sweep).
struct RunDocs {
  std::string dir;
  std::vector<std::pair<std::string, nlohmann::json>> docs;
  /// A sweep run's variables named apart from the scenario key they set ("size" for
  /// traffic.size): name -> key, so that their values read in that key's unit.
  std::map<std::string, std::string> variable_keys;
};

/// The scenario keys a sweep's named variables set (name -> key): the {"key": K, "name": N}
/// objects of the scenario file's "sweep" object. Empty if the file cannot be read.
std::map<std::string, std::string> sweep_variable_keys(const std::string& scenario_file);
/// Reads DIR/scenario.json, DIR/summary.json, DIR/report.json (those present; at least one),
/// DIR/reported.json if present, and a sweep run's variables (DIR/point.json's values) as "point"
/// (with the keys they set, from the sweep's DIR/../sweep.json and its scenario).
/// Throws std::runtime_error naming the file on bad JSON or a missing directory.
RunDocs load_run(const std::string& dir);

/// Looks up a dotted key (array elements by number: "traffic.0.duration_s"). A first component
/// "point", "scenario", "summary", "report" or "reported" names the file; otherwise they are tried
/// in the order point (a sweep's variables), summary, report, scenario, reported. Null if absent.
const nlohmann::json* lookup(const RunDocs& run, const std::string& key);

/// A key's value: as lookup(), or from the run directory's name: "dir" (the name itself) or
/// "dir:REGEX" (POSIX extended; the first group's match, a number if it reads as one).
std::optional<nlohmann::json> value_of(const RunDocs& run, const std::string& key);

/// How the runs that share an x and a series make one point: the median with a bar from the
/// minimum to the maximum, or the mean with a bar of one (sample) standard deviation either side.
enum class Spread { MinMax, StdDev };

struct PlotOptions {
  std::string x, y, series; ///< keys (series may be empty: one line)
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  int width = 800, height = 500;
  Spread spread = Spread::MinMax;
  /// Reads keys whose values carry units (scenario keys of kind Time, Size, Bandwidth); unset: the
  /// keys' name suffixes alone say their units (AxisUnits.hpp).
  UnitReader units;
};

struct PlotPoint {
  std::string series;
  double x = 0, y = 0;
  int runs = 0; ///< runs behind this point
  /// The error bar (several runs): min..max or y -+ stddev; NaN when there is none.
  double lo = std::numeric_limits<double>::quiet_NaN(), hi = std::numeric_limits<double>::quiet_NaN();
};

struct Plot {
  std::vector<std::string> series; ///< in order of first appearance
  std::vector<PlotPoint> points;   ///< by series, then x; in the base units of their quantities
  Quantity x_quantity = Quantity::Plain, y_quantity = Quantity::Plain;
  /// Reference values drawn beside the lines (e.g. a paper's published points): hollow diamonds
  /// in their series' colour, one legend entry "published". Their series must be in `series`.
  std::vector<PlotPoint> references;
  std::string svg;
  std::string table; ///< the points, as text
};

/// Throws std::runtime_error ("DIR: no key 'job.threads' in ...") for a missing or non-numeric key.
Plot make_plot(const std::vector<RunDocs>& runs, const PlotOptions& opt);

/// The SVG of a plot whose series and points (and references) are already computed.
std::string draw_plot(const Plot& p, const PlotOptions& opt);

} // namespace shmemsim::analysis
