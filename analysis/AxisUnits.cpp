#include "analysis/AxisUnits.hpp"

#include "analysis/Svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shmemsim::analysis {

namespace {

bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The display units of a quantity, smallest first.
const std::vector<DisplayUnit>& units_of(Quantity q)
{
  static const std::vector<DisplayUnit> time = {{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  static const std::vector<DisplayUnit> size = {
      {"B", 1}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
  static const std::vector<DisplayUnit> bw = {{"B/s", 1}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}};
  static const std::vector<DisplayUnit> rate = {{"/s", 1}, {"k/s", 1e3}, {"M/s", 1e6}, {"G/s", 1e9}};
  static const std::vector<DisplayUnit> none = {{"", 1}};
  switch (q) {
    case Quantity::Time:
      return time;
    case Quantity::Size:
      return size;
    case Quantity::Bandwidth:
      return bw;
    case Quantity::Rate:
      return rate;
    case Quantity::Plain:
      break;
  }
  return none;
}

std::string short_number(double v, int digits)
{
  char buf[48];
  if (std::fabs(v) < 1e-12)
    v = 0;
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

} // namespace

NameUnit unit_from_name(const std::string& key)
{
  struct Suffix {
    const char* text;
    Quantity q;
    double to_base;
  };
  static const Suffix suffixes[] = {
      {"_per_s", Quantity::Rate, 1},    {"_pps", Quantity::Rate, 1},
      {"_Bps", Quantity::Bandwidth, 1}, {"_bps", Quantity::Bandwidth, 0.125},
      {"_bytes", Quantity::Size, 1},    {"_ps", Quantity::Time, 1e-12},
      {"_ns", Quantity::Time, 1e-9},    {"_us", Quantity::Time, 1e-6},
      {"_ms", Quantity::Time, 1e-3},    {"_s", Quantity::Time, 1},
  };
  for (const Suffix& s : suffixes)
    if (ends_with(key, s.text))
      return {s.q, s.to_base, key.substr(0, key.size() - std::char_traits<char>::length(s.text))};
  return {Quantity::Plain, 1, key};
}

std::string readable_name(const std::string& key)
{
  // The last component that is not an array index ("traffic.0" -> "traffic").
  std::string last = key;
  for (std::size_t end = key.size(); end > 0;) {
    const std::size_t dot = key.rfind('.', end - 1);
    const std::string part =
        key.substr(dot == std::string::npos ? 0 : dot + 1, end - (dot == std::string::npos ? 0 : dot + 1));
    if (!part.empty() && part.find_first_not_of("0123456789") != std::string::npos) {
      last = part;
      break;
    }
    if (dot == std::string::npos)
      break;
    end = dot;
  }
  if (last.rfind("dir:", 0) == 0 || last == "dir")
    return "run directory";
  std::string stem                                         = unit_from_name(last).stem;
  static const std::pair<const char*, const char*> names[] = {
      {"sim_time", "simulated time"}, {"pes", "PEs"}, {"pes_per_node", "PEs per node"}, {"rate", "rate"}};
  for (const auto& [k, v] : names)
    if (stem == k)
      return v;
  for (char& c : stem)
    if (c == '_')
      c = ' ';
  return stem;
}

DisplayUnit display_unit(Quantity q, double max_abs)
{
  const std::vector<DisplayUnit>& units = units_of(q);
  if (!(max_abs > 0)) // no magnitude: the base unit
    return *std::find_if(units.begin(), units.end(), [](const DisplayUnit& d) { return d.size == 1; });
  DisplayUnit u = units[0];
  for (const DisplayUnit& d : units)
    if (d.size <= max_abs * (1 + 1e-9))
      u = d;
  return u;
}

std::string axis_label(const std::string& name, Quantity q, const DisplayUnit& u, bool log)
{
  if (log)
    return name + " (log)";
  if (q == Quantity::Plain || u.name.empty())
    return name;
  return name + " (" + u.name + ")";
}

std::string tick_text(double base_value, Quantity q, const DisplayUnit& u, bool log)
{
  if (q == Quantity::Plain)
    return svg::tick_label(base_value);
  if (log)
    return with_unit(base_value, q);
  return svg::tick_label(base_value / u.size);
}

std::string with_unit(double base_value, Quantity q, int digits)
{
  if (q == Quantity::Plain)
    return short_number(base_value, digits);
  const DisplayUnit u   = display_unit(q, std::fabs(base_value));
  const std::string sep = u.name.rfind('/', 0) == 0 ? "" : " "; // "5/s", but "5 MB/s"
  return short_number(base_value / u.size, digits) + sep + u.name;
}

std::vector<double> log_ticks(double lo, double hi, Quantity q, const std::vector<double>& data)
{
  std::vector<double> v;
  if (q == Quantity::Size) {
    const double l2lo = lo / std::log10(2.0), l2hi = hi / std::log10(2.0);
    const int first = static_cast<int>(std::ceil(l2lo - 1e-9)), last = static_cast<int>(std::floor(l2hi + 1e-9));
    int step = 10;
    for (int s : {1, 2, 4, 5, 10})
      if ((last - first) / s + 1 <= 10) {
        step = s;
        break;
      }
    for (int e = first; e <= last; ++e)
      if (e % step == 0)
        v.push_back(std::ldexp(1.0, e));
  } else {
    const int first = static_cast<int>(std::floor(lo + 1e-9)), last = static_cast<int>(std::floor(hi + 1e-9));
    const bool fine = hi - lo < 3;
    for (int e = first; e <= last; ++e)
      for (double m : fine ? std::vector<double>{1, 2, 5} : std::vector<double>{1}) {
        const double t = m * std::pow(10.0, e);
        if (std::log10(t) >= lo - 1e-9 && std::log10(t) <= hi + 1e-9)
          v.push_back(t);
      }
  }
  if (v.size() < 2) {
    v = data;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return v;
}

} // namespace shmemsim::analysis
