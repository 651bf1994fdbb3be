#include "analysis/Compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <regex>
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

void select_keys(Comparison& c, const std::string& pattern)
{
  std::regex re;
  try {
    re = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw std::runtime_error("--keys: '" + pattern + "' is not a regular expression (" + e.what() + ")");
  }
  const auto keep = [&](const std::string& k) { return std::regex_search(k, re); };
  std::vector<CompareRow> rows;
  std::size_t differing = 0;
  for (std::size_t i = 0; i < c.rows.size(); ++i)
    if (keep(c.rows[i].key)) {
      rows.push_back(c.rows[i]);
      differing += i < c.differing ? 1 : 0;
    }
  c.rows      = std::move(rows);
  c.differing = differing;
  for (auto* only : {&c.only_a, &c.only_b})
    only->erase(std::remove_if(only->begin(), only->end(), [&](const std::string& k) { return !keep(k); }),
                only->end());
}

bool is_headline(const std::string& key)
{
  static const char* const kHeadline[] = {"summary.sim_time_s",
                                          "summary.deliveries",
                                          "summary.out_of_order_deliveries",
                                          "summary.bandwidth.aggregate_Bps",
                                          "report.interference.total_s",
                                          "report.overlap.ratio"};
  return key.rfind("reported.", 0) == 0 ||
         std::any_of(std::begin(kHeadline), std::end(kHeadline), [&](const char* k) { return key == k; });
}

namespace {

/// Rows as aligned columns, under a header.
void table(std::ostringstream& o, const std::vector<const CompareRow*>& rows)
{
  std::vector<std::vector<std::string>> cells{{"key", "A", "B", "B/A", "B-A"}};
  for (const CompareRow* r : rows) {
    const json ratio = ratio_json(*r);
    cells.push_back({r->key, num(r->a), num(r->b), ratio.is_null() ? "-" : num(ratio.get<double>()), num(r->b - r->a)});
  }
  std::vector<std::size_t> width(5, 0);
  for (const auto& row : cells)
    for (std::size_t k = 0; k < row.size(); ++k)
      width[k] = std::max(width[k], row[k].size());
  for (const auto& row : cells) {
    o << row[0] << std::string(width[0] - row[0].size(), ' ');
    for (std::size_t k = 1; k < row.size(); ++k)
      o << "  " << std::string(width[k] - row[k].size(), ' ') << row[k];
    o << "\n";
  }
}

} // namespace

std::string format_comparison(const Comparison& c, bool all, std::size_t top)
{
  std::ostringstream o;
  o << "A: " << c.dir_a << "\nB: " << c.dir_b << "\n";
  std::vector<const CompareRow*> headline;
  for (const CompareRow& r : c.rows)
    if (is_headline(r.key))
      headline.push_back(&r);
  std::sort(headline.begin(), headline.end(), [](const CompareRow* x, const CompareRow* y) { return x->key < y->key; });
  if (!headline.empty()) {
    o << "headline\n";
    table(o, headline);
    o << "\n";
  }
  std::size_t shown = all ? c.rows.size() : c.differing;
  if (top > 0)
    shown = std::min(shown, top);
  std::vector<const CompareRow*> rows;
  for (std::size_t i = 0; i < shown; ++i)
    rows.push_back(&c.rows[i]);
  if (rows.empty())
    o << "no numeric key differs\n";
  else
    table(o, rows);
  o << c.differing << " of " << c.rows.size() << " numeric keys differ";
  if (top > 0 && shown < (all ? c.rows.size() : c.differing))
    o << " (the first " << shown << " shown: --top)";
  else if (!all && c.differing < c.rows.size())
    o << " (--all lists the equal ones too)";
  o << "\n";
  auto list = [&](const char* which, const std::vector<std::string>& keys) {
    if (keys.empty())
      return;
    // A long list is cut unless --all asked for everything: --json has them all.
    constexpr std::size_t kListed = 20;
    const std::size_t listed      = all ? keys.size() : std::min(keys.size(), kListed);
    o << "only in " << which << " (" << keys.size() << "):";
    for (std::size_t i = 0; i < listed; ++i)
      o << " " << keys[i];
    if (listed < keys.size())
      o << " ... and " << keys.size() - listed << " more (--all or --json lists them)";
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
