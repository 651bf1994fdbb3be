// Small helpers shared by the SVG writers (timing diagram, plots): escaping, number formatting,
// axis ticks. Every number is printed with fixed precision so the output is byte-identical.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::analysis::svg {

/// Text escaped for XML character data and attribute values.
std::string esc(const std::string& s);
/// A coordinate: fixed, two decimals.
std::string num(double v);
/// A tick label: shortest of %g with up to 6 significant digits.
std::string tick_label(double v);
/// About `n` "nice" tick values (1, 2, 5 x 10^k steps) covering [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int n);
/// A time unit for a span in picoseconds: its name ("us") and its size in picoseconds.
struct TimeUnit {
  const char* name;
  double ps;
};
TimeUnit time_unit(std::int64_t span_ps);

} // namespace shmemsim::analysis::svg
