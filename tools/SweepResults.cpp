#include "tools/SweepResults.hpp"

#include "scenarios/Scenario.hpp"
#include "tools/SweepExecutor.hpp"
#include "tools/SweepPlan.hpp"
#include "base/Assert.hpp"
#include "base/ResultLines.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace shmemsim::tools {

using scenarios::Scenario;

using json   = nlohmann::json;
namespace fs = std::filesystem;

namespace {

json read_json(const fs::path& p)
{
  std::ifstream in(p);
  if (!in)
    return nullptr;
  json j = json::parse(in, nullptr, false);
  return j.is_discarded() ? json(nullptr) : j;
}

/// Scalars of `j` by dotted key: objects and arrays of objects are walked; arrays of scalars
/// (per-PE statuses, failure lines) are left out.
void flatten(const json& j, const std::string& prefix, std::map<std::string, json>& out)
{
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(*it, prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (j[i].is_object())
        flatten(j[i], prefix + "." + std::to_string(i), out);
  } else if (!j.is_null()) {
    out[prefix] = j;
  }
}

std::string csv_cell(const json& v)
{
  if (v.is_null())
    return "";
  const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.find_first_of(",\"\n\r") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

} // namespace

json parse_reported(std::istream& in)
{
  json r = json::object();
  for (const ResultFigure& f : parse_result_lines(in))
    r[f.name] = f.kind == ResultFigure::Kind::Integer  ? json(f.integer)
                : f.kind == ResultFigure::Kind::Number ? json(f.number)
                                                       : json(f.text);
  return r;
}

SweepResults SweepResults::collect(const SweepIndex& index)
{
  SweepResults s;
  s.index_ = index;
  std::set<std::string> rep, sum;
  for (const SweepRun& run : index.runs) {
    SweepRunResult r;
    const fs::path d(run.dir);
    if (std::ifstream st(d / "status"); st)
      st >> r.status;
    if (r.status != 0)
      r.error = r.status < 0 ? "not run (no status file)" : first_error_line(run.dir);
    if (std::ifstream out(d / "stdout.txt"); out) {
      r.reported = parse_reported(out);
      write_text(d / "reported.json", r.reported.dump(2) + "\n");
    }
    r.summary  = read_json(d / "summary.json");
    r.scenario = read_json(d / "scenario.json");
    flatten(r.summary, "", r.scalars);
    for (const auto& [k, v] : r.reported.items())
      rep.insert(k);
    for (const auto& [k, v] : r.scalars)
      sum.insert(k);
    s.runs_.push_back(std::move(r));
  }
  s.reported_.assign(rep.begin(), rep.end());
  s.summary_.assign(sum.begin(), sum.end());
  for (const std::string& k : s.reported_)
    s.reported_numeric_.push_back(std::any_of(s.runs_.begin(), s.runs_.end(), [&](const SweepRunResult& r) {
      return r.reported.contains(k) && r.reported[k].is_number();
    }));
  for (const std::string& k : s.summary_)
    s.summary_numeric_.push_back(std::any_of(s.runs_.begin(), s.runs_.end(), [&](const SweepRunResult& r) {
      const auto it = r.scalars.find(k);
      return it != r.scalars.end() && it->second.is_number();
    }));
  return s;
}

std::size_t SweepResults::failed() const
{
  return static_cast<std::size_t>(
      std::count_if(runs_.begin(), runs_.end(), [](const SweepRunResult& r) { return r.status != 0; }));
}

std::vector<std::vector<std::size_t>> SweepResults::by_point() const
{
  std::vector<std::vector<std::size_t>> p;
  for (std::size_t i = 0; i < index_.runs.size(); ++i) {
    const std::size_t point = index_.runs[i].point;
    if (p.size() <= point)
      p.resize(point + 1);
    p[point].push_back(i);
  }
  return p;
}

json SweepResults::stats(const std::vector<std::size_t>& runs, const std::string& metric, bool reported) const
{
  double sum = 0, lo = 0, hi = 0;
  int n = 0;
  for (std::size_t i : runs) {
    const SweepRunResult& r = runs_[i];
    if (r.status != 0)
      continue;
    const json* v = nullptr;
    if (reported && r.reported.contains(metric))
      v = &r.reported[metric];
    if (!reported)
      if (const auto it = r.scalars.find(metric); it != r.scalars.end())
        v = &it->second;
    if (v == nullptr || !v->is_number())
      continue;
    const double x = v->get<double>();
    lo             = n == 0 ? x : std::min(lo, x);
    hi             = n == 0 ? x : std::max(hi, x);
    sum += x;
    ++n;
  }
  if (n == 0)
    return nullptr;
  return json{{"mean", sum / n}, {"min", lo}, {"max", hi}, {"n", n}};
}

namespace {
const std::set<std::string> kOwnColumns = {"run", "point", "repeat", "seed", "status", "error", "runs", "failed"};
}

std::string SweepResults::summary_column(const std::string& name) const
{
  const bool taken =
      kOwnColumns.count(name) != 0 || std::find(index_.names.begin(), index_.names.end(), name) != index_.names.end();
  return taken ? "summary." + name : name;
}

std::string SweepResults::reported_column(const std::string& name) const
{
  const bool taken = kOwnColumns.count(name) != 0 || std::binary_search(summary_.begin(), summary_.end(), name) ||
                     std::find(index_.names.begin(), index_.names.end(), name) != index_.names.end();
  return taken ? "reported." + name : name;
}

std::string SweepResults::csv_runs() const
{
  std::ostringstream o;
  o << "run,point,repeat,seed";
  for (const std::string& n : index_.names)
    o << "," << csv_cell(n);
  o << ",status,error";
  for (const std::string& n : reported_)
    o << "," << csv_cell(reported_column(n));
  for (const std::string& n : summary_)
    o << "," << csv_cell(summary_column(n));
  o << "\n";
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    const SweepRun& run     = index_.runs[i];
    const SweepRunResult& r = runs_[i];
    o << run.name << "," << run.point << "," << run.repeat << "," << run.seed;
    for (const json& v : run.values)
      o << "," << csv_cell(v);
    o << "," << (r.status < 0 ? std::string() : std::to_string(r.status)) << "," << csv_cell(r.error);
    for (const std::string& n : reported_)
      o << "," << (r.reported.contains(n) ? csv_cell(r.reported[n]) : "");
    for (const std::string& n : summary_) {
      const auto it = r.scalars.find(n);
      o << "," << (it != r.scalars.end() ? csv_cell(it->second) : "");
    }
    o << "\n";
  }
  return o.str();
}

std::string SweepResults::csv_points() const
{
  std::ostringstream o;
  o << "point";
  for (const std::string& n : index_.names)
    o << "," << csv_cell(n);
  o << ",runs,failed";
  auto header = [&](const std::vector<std::string>& names, const std::vector<bool>& numeric, bool reported) {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (numeric[k])
        for (const char* s : {".mean", ".min", ".max"})
          o << "," << csv_cell((reported ? reported_column(names[k]) : summary_column(names[k])) + s);
  };
  header(reported_, reported_numeric_, true);
  header(summary_, summary_numeric_, false);
  o << "\n";
  for (const std::vector<std::size_t>& runs : by_point()) {
    SHMEMSIM_ASSERT(!runs.empty(), "every point has a run");
    const SweepRun& first = index_.runs[runs.front()];
    o << first.name.substr(0, first.name.find("-r"));
    for (const json& v : first.values)
      o << "," << csv_cell(v);
    o << "," << runs.size() << ","
      << std::count_if(runs.begin(), runs.end(), [&](std::size_t i) { return runs_[i].status != 0; });
    auto row = [&](const std::vector<std::string>& names, const std::vector<bool>& numeric, bool reported) {
      for (std::size_t k = 0; k < names.size(); ++k) {
        if (!numeric[k])
          continue;
        const json s = stats(runs, names[k], reported);
        for (const char* f : {"mean", "min", "max"})
          o << "," << (s.is_null() ? "" : csv_cell(s[f]));
      }
    };
    row(reported_, reported_numeric_, true);
    row(summary_, summary_numeric_, false);
    o << "\n";
  }
  return o.str();
}

json SweepResults::json_all() const
{
  json runs = json::array(), points = json::array();
  auto values = [&](const SweepRun& run) {
    json v = json::object();
    for (std::size_t k = 0; k < index_.names.size(); ++k)
      v[index_.names[k]] = run.values[k];
    return v;
  };
  for (std::size_t i = 0; i < runs_.size(); ++i) {
    const SweepRun& run     = index_.runs[i];
    const SweepRunResult& r = runs_[i];
    json scalars            = json::object();
    for (const auto& [k, v] : r.scalars)
      scalars[k] = v;
    runs.push_back({{"run", run.name},
                    {"point", run.point},
                    {"repeat", run.repeat},
                    {"seed", run.seed},
                    {"values", values(run)},
                    {"status", r.status < 0 ? json(nullptr) : json(r.status)},
                    {"error", r.error},
                    {"reported", r.reported},
                    {"summary", scalars}});
  }
  for (const std::vector<std::size_t>& ids : by_point()) {
    const SweepRun& first = index_.runs[ids.front()];
    json st               = json::object();
    for (std::size_t k = 0; k < reported_.size(); ++k)
      if (reported_numeric_[k])
        if (json s = stats(ids, reported_[k], true); !s.is_null())
          st[reported_[k]] = s;
    for (std::size_t k = 0; k < summary_.size(); ++k)
      if (summary_numeric_[k] && !st.contains(summary_[k]))
        if (json s = stats(ids, summary_[k], false); !s.is_null())
          st[summary_[k]] = s;
    const auto failed = std::count_if(ids.begin(), ids.end(), [&](std::size_t i) { return runs_[i].status != 0; });
    points.push_back(
        {{"point", first.point}, {"values", values(first)}, {"runs", ids.size()}, {"failed", failed}, {"stats", st}});
  }
  return json{{"variables", index_.names}, {"repeat", index_.repeat}, {"runs", runs}, {"points", points}};
}

void SweepResults::write() const
{
  const fs::path d(index_.dir);
  write_text(d / "results.csv", csv_runs());
  write_text(d / "points.csv", csv_points());
  write_text(d / "results.json", json_all().dump(2) + "\n");
}

} // namespace shmemsim::tools
