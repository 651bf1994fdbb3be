#include "tools/PlotUnits.hpp"

#include "scenarios/Scenario.hpp"

#include <stdexcept>

namespace shmemsim::tools {

using scenarios::key_kind;
using scenarios::Scenario;
using shmemsim::parse_bandwidth;
using shmemsim::parse_size;
using shmemsim::parse_time;

namespace {

using analysis::Quantity;
using analysis::UnitValue;

/// `text` read as a value of `kind` in base units; nullopt when it is not one.
std::optional<UnitValue> parse_as(ParamKind kind, const std::string& text)
{
  try {
    switch (kind) {
      case ParamKind::Time:
        return UnitValue{Quantity::Time, static_cast<double>(parse_time(text)) * 1e-12};
      case ParamKind::Size:
        return UnitValue{Quantity::Size, static_cast<double>(parse_size(text))};
      case ParamKind::Bandwidth:
        return UnitValue{Quantity::Bandwidth, static_cast<double>(parse_bandwidth(text)) / 8};
      default:
        return std::nullopt;
    }
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

std::optional<UnitValue> read(const std::string& key, const nlohmann::json& value)
{
  const std::string path              = key.rfind("scenario.", 0) == 0 ? key.substr(9) : key;
  const std::optional<ParamKind> kind = key_kind(path);
  const bool united = kind && (*kind == ParamKind::Time || *kind == ParamKind::Size || *kind == ParamKind::Bandwidth);
  if (kind == ParamKind::Size &&
      value.is_number()) // a size may be a bare number of bytes; times and bandwidths need units
    return UnitValue{Quantity::Size, value.get<double>()};
  if (!value.is_string())
    return std::nullopt;
  const std::string text = value.get<std::string>();
  if (united)
    return parse_as(*kind, text);
  for (ParamKind k : {ParamKind::Bandwidth, ParamKind::Time, ParamKind::Size})
    if (std::optional<UnitValue> u = parse_as(k, text))
      return u;
  return std::nullopt;
}

} // namespace

analysis::UnitReader scenario_unit_reader()
{
  return read;
}

} // namespace shmemsim::tools
