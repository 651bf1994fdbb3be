// Units on the plots' axes: what a plotted key measures (a time, a size, a bandwidth, a rate),
// found from its name's suffix or from the scenario's key tables, and how an axis of it is
// labelled: SI-scaled units ("time (us)", "bandwidth (GB/s)"), ticks with units on log axes
// ("1 KiB", "64 KiB", "1 MiB"), powers of 2 for sizes and of 10 otherwise.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shmemsim::analysis {

/// What a key measures. Base units: seconds, bytes, bytes per second, events per second.
enum class Quantity { Plain, Time, Size, Bandwidth, Rate };

/// A value read in its quantity's base unit.
struct UnitValue {
  Quantity quantity = Quantity::Plain;
  double base       = 0;
};

/// Reads a key's value that carries a unit its name does not say (a scenario key of kind Time,
/// Size or Bandwidth: "1.3us", "4KiB", "32Gbps"); nullopt when the key or value is not one. The
/// scenario layer supplies it from its key tables (analysis does not link the models).
using UnitReader = std::function<std::optional<UnitValue>(const std::string& key, const nlohmann::json& value)>;

/// The unit a key's name carries: suffixes _s, _ms, _us, _ns, _ps (times), _bytes (sizes), _Bps
/// (bytes/s), _bps (bits/s), _per_s and _pps (rates: events or points per second). Returns the quantity and the factor from the stored
/// value to the base unit ({Plain, 1} when the name carries none).
struct NameUnit {
  Quantity quantity = Quantity::Plain;
  double to_base    = 1;
  std::string stem; ///< the name without the suffix ("sim_time" for "sim_time_s")
};
NameUnit unit_from_name(const std::string& key);

/// A key as an axis title or legend name: its last named component without its unit suffix,
/// words apart ("traffic.0.half_round_trip_s" -> "half round trip", "sim_time_s" -> "simulated
/// time", "scenario.job.pes_per_node" -> "PEs per node").
std::string readable_name(const std::string& key);

/// One display unit of a quantity: its name and its size in base units ("us", 1e-6).
struct DisplayUnit {
  std::string name;
  double size = 1;
};

/// The unit an axis of `q` shows for values up to `max_abs` (base units): the largest whose size is
/// at most max_abs (binary prefixes for sizes, SI ones otherwise).
DisplayUnit display_unit(Quantity q, double max_abs);

/// "NAME (UNIT)" for a linear axis, "NAME (log)" for a logarithmic one (its ticks carry units);
/// NAME alone when the quantity is Plain and the axis linear.
std::string axis_label(const std::string& name, Quantity q, const DisplayUnit& u, bool log);

/// A tick's text: the value in `u` on a linear axis ("2.5"), or with its own unit on a log axis of a
/// quantity ("64 KiB", "10 us").
std::string tick_text(double base_value, Quantity q, const DisplayUnit& u, bool log);

/// A value with its own unit, for tables ("1.745 us", "3.2 GB/s", "64 KiB"; a plain number for
/// Plain), with up to `digits` significant digits.
std::string with_unit(double base_value, Quantity q, int digits = 4);

/// Tick values (base units) of a logarithmic axis over [lo, hi] (log10 of base units): powers of 2
/// for sizes (every 1, 2, 4, 5 or 10 octaves), of 10 otherwise (with 2 and 5 between when the axis
/// spans less than three decades); the data's values when fewer than two would show.
std::vector<double> log_ticks(double lo, double hi, Quantity q, const std::vector<double>& data);

} // namespace shmemsim::analysis
