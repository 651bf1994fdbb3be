#include "analysis/Compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

namespace shmemsim::analysis {

namespace fs = std::filesystem;
using json   = nlohmann::json;

namespace {

constexpr const char* kFiles[] = {"summary", "report", "reported"};

/// Every numeric leaf of `j` (booleans excluded), by dotted path (array elements by index).
void flatten(const json& j, const std::string& path, std::map<std::string, double>& out)
{
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(*it, path + "." + it.key(), out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      flatten(j[i], path + "." + std::to_string(i), out);
  } else if (j.is_number()) {
    out[path] = j.get<double>();
  }
}

std::map<std::string, double> load_numbers(const std::string& dir)
{
  if (!fs::is_directory(dir))
    throw std::runtime_error(dir + ": no such directory");
  std::map<std::string, double> out;
  bool any = false;
  for (const char* stem : kFiles) {
    const fs::path p = fs::path(dir) / (std::string(stem) + ".json");
    if (!fs::exists(p))
      continue;
    std::ifstream in(p);
    const json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
      throw std::runtime_error(p.string() + ": not valid JSON");
    flatten(j, stem, out);
    any = true;
  }
  if (!any)
    throw std::runtime_error(dir +
                             ": no summary.json, report.json or reported.json (write them with 'shmemsim run --out " +
                             dir + "' and 'shmemsim report " + dir + "')");
  return out;
}

/// |log(B/A)|: 0 for equal values, infinite when exactly one is 0 or the signs differ.
double distance(const CompareRow& r)
{
  if (r.a == r.b)
    return 0;
  if (r.a == 0 || r.b == 0 || (r.a < 0) != (r.b < 0))
    return std::numeric_limits<double>::infinity();
  return std::fabs(std::log(r.b / r.a));
}

std::string num(double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

} // namespace

Comparison compare_runs(const std::string& dir_a, const std::string& dir_b)
{
  const std::map<std::string, double> a = load_numbers(dir_a);
  const std::map<std::string, double> b = load_numbers(dir_b);
  Comparison c;
  c.dir_a = dir_a;
  c.dir_b = dir_b;
  for (const auto& [k, v] : a) {
    auto it = b.find(k);
    if (it == b.end())
      c.only_a.push_back(k);
    else
      c.rows.push_back({k, v, it->second});
  }
  for (const auto& [k, v] : b)
    if (!a.count(k))
      c.only_b.push_back(k);
  // Largest relative change first; ties (and equal keys) in key order.
  std::stable_sort(c.rows.begin(), c.rows.end(),
                   [](const CompareRow& x, const CompareRow& y) { return distance(x) > distance(y); });
  c.differing = static_cast<std::size_t>(
      std::count_if(c.rows.begin(), c.rows.end(), [](const CompareRow& r) { return r.a != r.b; }));
  return c;
}

json ratio_json(const CompareRow& r)
{
  if (r.a == 0)
    return r.b == 0 ? json(1.0) : json(nullptr);
  return r.b / r.a;
}

std::string format_comparison(const Comparison& c, bool all)
{
  const std::size_t shown = all ? c.rows.size() : c.differing;
  std::vector<std::vector<std::string>> cells{{"key", "A", "B", "B/A", "B-A"}};
  for (std::size_t i = 0; i < shown; ++i) {
    const CompareRow& r = c.rows[i];
    const json ratio    = ratio_json(r);
    cells.push_back({r.key, num(r.a), num(r.b), ratio.is_null() ? "-" : num(ratio.get<double>()), num(r.b - r.a)});
  }
  std::vector<std::size_t> width(5, 0);
  for (const auto& row : cells)
    for (std::size_t k = 0; k < row.size(); ++k)
      width[k] = std::max(width[k], row[k].size());
  std::ostringstream o;
  o << "A: " << c.dir_a << "\nB: " << c.dir_b << "\n";
  if (shown == 0) {
    o << "no numeric key differs\n";
  } else {
    for (const auto& row : cells) {
      o << row[0] << std::string(width[0] - row[0].size(), ' ');
      for (std::size_t k = 1; k < row.size(); ++k)
        o << "  " << std::string(width[k] - row[k].size(), ' ') << row[k];
      o << "\n";
    }
  }
  o << c.differing << " of " << c.rows.size() << " numeric keys differ";
  if (!all && c.differing < c.rows.size())
    o << " (--all lists the equal ones too)";
  o << "\n";
  auto list = [&](const char* which, const std::vector<std::string>& keys) {
    if (keys.empty())
      return;
    o << "only in " << which << " (" << keys.size() << "):";
    for (const std::string& k : keys)
      o << " " << k;
    o << "\n";
  };
  list("A", c.only_a);
  list("B", c.only_b);
  return o.str();
}

json comparison_json(const Comparison& c)
{
  json keys  = json::object();
  json order = json::array();
  for (const CompareRow& r : c.rows) {
    keys[r.key] = {{"a", r.a}, {"b", r.b}, {"ratio", ratio_json(r)}, {"difference", r.b - r.a}};
    order.push_back(r.key);
  }
  return {{"a", c.dir_a},       {"b", c.dir_b},      {"keys", keys}, {"order", order}, {"differing", c.differing},
          {"only_a", c.only_a}, {"only_b", c.only_b}};
}

} // namespace shmemsim::analysis
