#include "analysis/Svg.hpp"

#include <cmath>
#include <cstdio>

namespace shmemsim::analysis::svg {

std::string esc(const std::string& s)
{
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      case '\'':
        o += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t')
          o += ' ';
        else
          o += c;
    }
  }
  return o;
}

std::string num(double v)
{
  char buf[48];
  if (std::fabs(v) < 0.005)
    v = 0; // no "-0.00"
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string tick_label(double v)
{
  char buf[48];
  if (std::fabs(v) < 1e-12)
    v = 0;
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::vector<double> nice_ticks(double lo, double hi, int n)
{
  std::vector<double> out;
  if (!(hi > lo) || n < 1)
    return {lo};
  const double raw   = (hi - lo) / n;
  const double mag   = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm  = raw / mag;
  const double step  = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (int i = 0; i < 1000; ++i) {
    const double v = first + i * step;
    if (v > hi + step * 1e-9)
      break;
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  return out;
}

TimeUnit time_unit(std::int64_t span)
{
  if (span < 10'000)
    return {"ps", 1};
  if (span < 10'000'000)
    return {"ns", 1e3};
  if (span < 10'000'000'000)
    return {"us", 1e6};
  if (span < 10'000'000'000'000)
    return {"ms", 1e9};
  return {"s", 1e12};
}

} // namespace shmemsim::analysis::svg
