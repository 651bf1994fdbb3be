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

std::map<std::string, double> load_run_numbers(const std::string& dir)
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
                             dir + "' and 'shmemsim report " + dir + "'; or give two sweep directories)");
  return out;
}

Comparison compare_runs(const std::string& dir_a, const std::string& dir_b)
{
  Comparison c = compare_numbers(load_run_numbers(dir_a), load_run_numbers(dir_b));
  c.dir_a      = dir_a;
  c.dir_b      = dir_b;
  return c;
}

Comparison compare_numbers(const std::map<std::string, double>& a, const std::map<std::string, double>& b)
{
  Comparison c;
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

namespace {

/// The headline, the table of differing keys and the keys only one side has.
void format_body(std::ostringstream& o, const Comparison& c, bool all, std::size_t top)
{
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
}

} // namespace

std::string format_comparison(const Comparison& c, bool all, std::size_t top)
{
  std::ostringstream o;
  o << "A: " << c.dir_a << "\nB: " << c.dir_b << "\n";
  format_body(o, c, all, top);
  return o.str();
}

namespace {
/// keys, order, differing, only_a, only_b of `c`.
json comparison_body_json(const Comparison& c)
{
  json keys  = json::object();
  json order = json::array();
  for (const CompareRow& r : c.rows) {
    keys[r.key] = {{"a", r.a}, {"b", r.b}, {"ratio", ratio_json(r)}, {"difference", r.b - r.a}};
    order.push_back(r.key);
  }
  return {{"keys", keys}, {"order", order}, {"differing", c.differing}, {"only_a", c.only_a}, {"only_b", c.only_b}};
}
} // namespace

json comparison_json(const Comparison& c)
{
  json j = comparison_body_json(c);
  j["a"] = c.dir_a;
  j["b"] = c.dir_b;
  return j;
}

// ------------------------------------------------------------------ sweeps, point by point

bool is_sweep_directory(const std::string& dir)
{
  return fs::is_regular_file(fs::path(dir) / "sweep.json");
}

namespace {

/// A sweep's point: its values and the directories of its successful runs.
struct SweepPoint {
  std::string key;   ///< the values in a canonical form (names sorted): what matches points
  std::string label; ///< name=value ..., in the sweep's order of variables
  json values;
  std::vector<std::string> ok_runs; ///< run directories whose status is 0
};

struct SweepIndexFile {
  std::vector<std::string> variables;
  std::vector<SweepPoint> points; ///< in the sweep's order
};

/// A swept value as text: a string as it is, a number in its shortest exact form.
std::string value_text(const json& v)
{
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_number())
    return num(v.get<double>());
  return v.dump();
}

/// The run's exit status from its `status` file; -1 when it did not run (no file).
int run_status(const fs::path& run_dir)
{
  std::ifstream in(run_dir / "status");
  int status = -1;
  if (!(in >> status))
    return -1;
  return status;
}

SweepIndexFile load_sweep(const std::string& dir)
{
  if (!fs::is_directory(dir))
    throw std::runtime_error(dir + ": no such directory");
  const fs::path index = fs::path(dir) / "sweep.json";
  std::ifstream in(index);
  const json j   = json::parse(in, nullptr, false);
  const auto bad = [&](const std::string& what) { return std::runtime_error(index.string() + ": " + what); };
  if (j.is_discarded() || !j.is_object())
    throw bad("not valid JSON (a sweep's index, written by 'shmemsim sweep')");
  if (!j.contains("variables") || !j["variables"].is_array() || !j.contains("runs") || !j["runs"].is_array())
    throw bad("no \"variables\" and \"runs\" arrays (a sweep's index, written by 'shmemsim sweep')");
  SweepIndexFile s;
  for (const json& v : j["variables"])
    s.variables.push_back(v.is_string() ? v.get<std::string>() : v.dump());
  std::map<std::int64_t, std::size_t> by_point; // point number -> index in s.points
  for (std::size_t i = 0; i < j["runs"].size(); ++i) {
    const json& r = j["runs"][i];
    if (!r.is_object() || !r.contains("name") || !r["name"].is_string() || !r.contains("point") ||
        !r["point"].is_number_integer() || !r.contains("values") || !r["values"].is_object())
      throw bad("runs[" + std::to_string(i) + "]: expected {\"name\", \"point\", \"values\"}");
    auto [it, added] = by_point.emplace(r["point"].get<std::int64_t>(), s.points.size());
    if (added) {
      SweepPoint p;
      p.values = r["values"];
      for (const auto& [name, v] : p.values.items()) // nlohmann's objects iterate in name order
        p.key += name + "=" + value_text(v) + "\n";
      for (const std::string& name : s.variables)
        if (p.values.contains(name))
          p.label += (p.label.empty() ? "" : " ") + name + "=" + value_text(p.values[name]);
      s.points.push_back(std::move(p));
    }
    const fs::path run_dir = fs::path(dir) / r["name"].get<std::string>();
    if (run_status(run_dir) == 0)
      s.points[it->second].ok_runs.push_back(run_dir.string());
  }
  return s;
}

/// The mean of each numeric key over the runs that have it.
std::map<std::string, double> mean_numbers(const std::vector<std::string>& runs)
{
  std::map<std::string, std::pair<double, std::size_t>> sum;
  for (const std::string& r : runs)
    for (const auto& [k, v] : load_run_numbers(r)) {
      auto& [total, n] = sum[k];
      total += v;
      ++n;
    }
  std::map<std::string, double> mean;
  for (const auto& [k, s] : sum)
    mean[k] = s.second == 1 ? s.first : s.first / static_cast<double>(s.second);
  return mean;
}

std::string joined(const std::vector<std::string>& words)
{
  std::string out;
  for (const std::string& w : words)
    out += (out.empty() ? "" : ", ") + w;
  return out.empty() ? "none" : out;
}

} // namespace

SweepComparison compare_sweeps(const std::string& dir_a, const std::string& dir_b)
{
  const SweepIndexFile a = load_sweep(dir_a);
  const SweepIndexFile b = load_sweep(dir_b);
  SweepComparison c;
  c.dir_a       = dir_a;
  c.dir_b       = dir_b;
  c.variables_a = a.variables;
  c.variables_b = b.variables;
  std::map<std::string, const SweepPoint*> in_b;
  for (const SweepPoint& p : b.points)
    in_b.emplace(p.key, &p);
  std::map<std::string, bool> matched;
  for (const SweepPoint& pa : a.points) {
    const auto it = in_b.find(pa.key);
    if (it == in_b.end()) {
      c.only_a.push_back(pa.label);
      continue;
    }
    matched[pa.key]      = true;
    const SweepPoint& pb = *it->second;
    if (pa.ok_runs.empty() || pb.ok_runs.empty()) {
      c.no_runs.push_back(pa.label + ": no successful run in " +
                          (pa.ok_runs.empty() && pb.ok_runs.empty() ? "A or B"
                           : pa.ok_runs.empty()                     ? "A"
                                                                    : "B"));
      continue;
    }
    PointComparison pc;
    pc.label   = pa.label;
    pc.values  = pa.values;
    pc.runs_a  = pa.ok_runs.size();
    pc.runs_b  = pb.ok_runs.size();
    pc.c       = compare_numbers(mean_numbers(pa.ok_runs), mean_numbers(pb.ok_runs));
    pc.c.dir_a = pa.ok_runs.front();
    pc.c.dir_b = pb.ok_runs.front();
    c.points.push_back(std::move(pc));
  }
  for (const SweepPoint& pb : b.points)
    if (!matched.count(pb.key))
      c.only_b.push_back(pb.label);
  return c;
}

void select_keys(SweepComparison& c, const std::string& pattern)
{
  for (PointComparison& p : c.points)
    select_keys(p.c, pattern);
}

std::string format_sweep_comparison(const SweepComparison& c, bool all, std::size_t top)
{
  std::ostringstream o;
  o << "A: " << c.dir_a << " (sweep of " << joined(c.variables_a) << ")\nB: " << c.dir_b << " (sweep of "
    << joined(c.variables_b) << ")\n";
  if (c.variables_a != c.variables_b)
    o << "the sweeps vary different variables: only points with the same values of the same variables match\n";
  std::size_t differing = 0;
  for (const PointComparison& p : c.points) {
    o << "\npoint " << p.label << " (mean of " << p.runs_a << " run" << (p.runs_a == 1 ? "" : "s") << " in A, "
      << p.runs_b << " in B)\n";
    format_body(o, p.c, all, top);
    differing += p.c.differing > 0 ? 1 : 0;
  }
  o << "\n"
    << c.points.size() << " point" << (c.points.size() == 1 ? "" : "s") << " compared, " << differing
    << " with differing keys\n";
  auto list = [&](const char* what, const std::vector<std::string>& labels) {
    if (labels.empty())
      return;
    o << what << " (" << labels.size() << "):";
    for (const std::string& l : labels)
      o << " [" << l << "]";
    o << "\n";
  };
  list("points only in A", c.only_a);
  list("points only in B", c.only_b);
  for (const std::string& l : c.no_runs)
    o << "not compared: " << l << "\n";
  return o.str();
}

json sweep_comparison_json(const SweepComparison& c)
{
  json points = json::array();
  for (const PointComparison& p : c.points) {
    json j      = comparison_body_json(p.c);
    j["label"]  = p.label;
    j["values"] = p.values;
    j["runs_a"] = p.runs_a;
    j["runs_b"] = p.runs_b;
    points.push_back(std::move(j));
  }
  return {{"a", c.dir_a},     {"b", c.dir_b},       {"variables_a", c.variables_a}, {"variables_b", c.variables_b},
          {"points", points}, {"only_a", c.only_a}, {"only_b", c.only_b},           {"no_runs", c.no_runs}};
}

} // namespace shmemsim::analysis
