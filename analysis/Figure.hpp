// A paper's figure from sweeps: the sweeps' points (results.json of `shmemsim sweep`), a derived
// measure (a rate, a gain over a baseline series, a scaling efficiency), a table of simulated
// values beside the published ones, and an SVG plot with the published points drawn beside ours.
// `shmemsim figure SPEC.json DIR -o OUT.svg` (docs/figures.md describes the spec).
#pragma once

#include "analysis/Plot.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace shmemsim::analysis {

/// How a figure's y values are derived from the measured metric `y` of each point (a time, unless
/// the spec's y_kind says it is a rate).
enum class Derive {
  Value,      ///< y as measured
  Rate,       ///< work / (y * y_scale): e.g. points per second from microseconds (y a time)
  Gain,       ///< percent gain over the baseline series at the same x: (y_base / y - 1) * 100 for a time,
              ///< (y / y_base - 1) * 100 for a rate
  Efficiency, ///< percent scaling efficiency within a series, x0 its smallest x: (y(x0) * x0) / (y(x) * x) * 100
              ///< for a time, (y(x) / x) / (y(x0) / x0) * 100 for a rate
};

/// What the measured metric is: a time (less is better) or a rate (more is better).
enum class YKind { Time, Rate };

/// One sweep read into the figure: which of its variables is x, which names the series.
struct FigureInput {
  std::string dir;           ///< sweep output directory, relative to the base directory
  std::string x;             ///< a sweep variable (its name in results.json)
  std::string series;        ///< a sweep variable naming the series (empty: one series)
  std::string series_prefix; ///< prepended to the series value ("variant " -> "variant 2")
  std::string label;         ///< the series' name when `series` is empty
};

/// A published value: series, x, y (in the derived measure), where it is stated.
struct Published {
  std::string series;
  double x = 0, y = 0;
  std::string source;
};

/// The band the sourced uncertainties give (bench/qdr16-sensitivity/run -o FILE): optional. `file` is
/// under the figure's base directory; `name` picks its `figure_band` entries for this figure.
struct BandSource {
  std::string file, name;
};

/// One band of a figure: the lowest and highest value of a point over the sensitivity's cases.
struct Band {
  std::string series;
  double x = 0, low = 0, high = 0;
};

struct FigureSpec {
  std::string title, xlabel, ylabel;
  std::string y; ///< the metric of each point (a RESULT figure or summary scalar), e.g. "time_us"
  YKind y_kind   = YKind::Time;
  Derive derive  = Derive::Value;
  double work    = 1;   ///< Rate: the work of one run (points, keys...)
  double y_scale = 1;   ///< Rate: seconds per unit of y (1e-6 for microseconds)
  std::string baseline; ///< Gain: the baseline series
  std::vector<FigureInput> inputs;
  std::vector<Published> published;
  BandSource band;  ///< empty file: no band
  std::string note; ///< printed under the table (what the figure measures)
};

/// Reads and checks a spec; throws std::runtime_error naming the file and JSON path.
FigureSpec parse_figure_spec(const nlohmann::json& j, const std::string& file);

struct Figure {
  Plot plot;         ///< derived points and published references
  std::string table; ///< series, x, simulated, published, difference
};

/// Builds the figure from the sweeps under `base` (each input's DIR/results.json); throws
/// std::runtime_error naming the file for missing results or values.
Figure make_figure(const FigureSpec& spec, const std::string& base);

} // namespace shmemsim::analysis
