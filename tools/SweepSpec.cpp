#include "tools/SweepSpec.hpp"

#include "scenarios/Scenario.hpp"
#include "base/Assert.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;

using json = nlohmann::json;

namespace {

/// `v` as JSON, cut to 80 characters, for messages.
std::string show(const json& v)
{
  std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 80)
    s = s.substr(0, 77) + "...";
  return s;
}

std::string join(const std::vector<std::string>& v)
{
  std::string r;
  for (const std::string& s : v)
    r += (r.empty() ? "" : ", ") + s;
  return r;
}

bool is_env_name(const std::string& s)
{
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (c != '_' && !std::isalnum(static_cast<unsigned char>(c)))
      return false;
  return true;
}

constexpr std::size_t kMaxRangeValues = 100000;

/// `x` to 15 significant digits: a range's 0.1 steps give 0.3, not 0.30000000000000004.
double round15(double x)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", x);
  return std::strtod(buf, nullptr);
}

} // namespace

/// Reads the specification, naming the JSON path of every problem.
class SweepSpec::Parser {
public:
  Parser(SweepSpec& out, std::string source) : out_(out), source_(std::move(source)) {}

  void parse(const json& spec)
  {
    if (spec.is_null())
      return;
    if (!spec.is_object())
      fail("sweep", "expected an object {\"cartesian\": [...], \"zip\": [...], \"plot\": {...}}, got " + show(spec));
    only_keys(spec, "sweep", {"cartesian", "zip", "plot"});
    if (const auto it = spec.find("cartesian"); it != spec.end()) {
      if (!it->is_array())
        fail("sweep.cartesian",
             "expected an array of variables ({\"key\": ..., \"values\": [...]}) or {\"zip\": [...]}, got " +
                 show(*it));
      for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string p = "sweep.cartesian[" + std::to_string(i) + "]";
        const json& e       = (*it)[i];
        if (e.is_object() && e.contains("zip")) {
          only_keys(e, p, {"zip"});
          zip(e["zip"], p + ".zip");
        } else {
          out_.dims_.push_back({variable(e, p)});
        }
      }
    }
    if (const auto it = spec.find("zip"); it != spec.end())
      zip(*it, "sweep.zip");
    if (const auto it = spec.find("plot"); it != spec.end())
      plots(*it);
    check_total();
    check_plot_axes();
  }

private:
  /// A plot's x axis needs numbers: a swept variable on it must have only numeric values.
  void check_plot_axes() const
  {
    for (const SweepPlot& p : out_.plots_)
      for (const SweepVariable& v : out_.vars_)
        if (p.x == v.name &&
            !std::all_of(v.values.begin(), v.values.end(), [](const json& j) { return j.is_number(); }))
          fail(p.path + ".x",
               "\"" + p.x + "\" has values that are not numbers (" + v.values.front().dump() +
                   "); a plot's x axis needs numbers (give the values as numbers, or make it the series)");
  }

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const
  {
    throw ScenarioError(source_ + ": " + path + ": " + problem);
  }

  void only_keys(const json& obj, const std::string& path, const std::vector<std::string>& valid) const
  {
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (std::find(valid.begin(), valid.end(), it.key()) == valid.end())
        fail(path + "." + it.key(), "unknown key; valid keys here: " + join(valid));
  }

  void zip(const json& list, const std::string& path)
  {
    if (!list.is_array() || list.empty())
      fail(path, "expected a non-empty array of variables whose values advance together, got " + show(list));
    std::vector<std::size_t> dim;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string p = path + "[" + std::to_string(i) + "]";
      dim.push_back(variable(list[i], p));
      const std::size_t n0 = out_.vars_[dim.front()].values.size(), n = out_.vars_[dim.back()].values.size();
      if (n != n0)
        fail(p, std::to_string(n) + " values, but " + path + "[0] has " + std::to_string(n0) +
                    "; zipped variables advance together and need as many values each");
    }
    out_.dims_.push_back(std::move(dim));
  }

  /// One variable; returns its index.
  std::size_t variable(const json& v, const std::string& path)
  {
    if (!v.is_object())
      fail(path, "expected a variable {\"key\"|\"arg\"|\"env\": ..., \"values\": [...]}, got " + show(v));
    only_keys(v, path, {"key", "arg", "env", "values", "range", "name"});
    SweepVariable var;
    var.path        = path;
    const int kinds = static_cast<int>(v.contains("key")) + v.contains("arg") + v.contains("env");
    if (kinds != 1)
      fail(path, "give exactly one of key (a scenario key), arg (a program argument) or env (an environment variable)");
    target(v, path, var);
    if (v.contains("values") == v.contains("range"))
      fail(path, "give exactly one of values (an array) or range ({\"from\", \"to\", \"step\" or \"times\"})");
    if (v.contains("values"))
      values(v["values"], path + ".values", var);
    else
      range(v["range"], path + ".range", var);
    if (const auto it = v.find("name"); it != v.end()) {
      if (!it->is_string() || it->get<std::string>().empty())
        fail(path + ".name", "expected a non-empty string (the variable's column in the results), got " + show(*it));
      var.name = it->get<std::string>();
    }
    for (const SweepVariable& o : out_.vars_) {
      if (o.name == var.name)
        fail(path + ".name",
             "\"" + var.name + "\" is also the name of " + o.path + "; give each variable its own name");
      if (o.target == var.target && o.of == var.of && o.position == var.position)
        fail(path, "sets the same " +
                       std::string(var.target == SweepVariable::Target::Key ? "key" : "argument or variable") + " as " +
                       o.path);
    }
    out_.vars_.push_back(std::move(var));
    return out_.vars_.size() - 1;
  }

  void target(const json& v, const std::string& path, SweepVariable& var) const
  {
    if (const auto it = v.find("key"); it != v.end()) {
      var.target = SweepVariable::Target::Key;
      if (!it->is_string() || it->get<std::string>().empty())
        fail(path + ".key", "expected a dotted scenario key (e.g. \"platform.fabric.link_latency\"), got " + show(*it));
      var.of = it->get<std::string>();
      if (var.of == "sweep" || var.of.rfind("sweep.", 0) == 0 || var.of == "repeat")
        fail(path + ".key", "\"" + var.of + "\" describes the sweep itself and cannot be swept");
      var.name = var.of;
    } else if (const auto it = v.find("arg"); it != v.end()) {
      var.target = SweepVariable::Target::Arg;
      if (it->is_number_integer() && it->get<std::int64_t>() >= 0 && it->get<std::int64_t>() < 100000) {
        var.position = static_cast<int>(it->get<std::int64_t>());
        var.name     = "arg:" + std::to_string(var.position);
      } else if (it->is_string() && !it->get<std::string>().empty()) {
        var.of   = it->get<std::string>();
        var.name = "arg:" + var.of;
      } else {
        fail(path + ".arg",
             "expected an option (\"-t\": the argument after it; \"--size=\": one argument --size=VALUE) "
             "or a position (0 is the first argument), got " +
                 show(*it));
      }
    } else {
      const json& e = v["env"];
      var.target    = SweepVariable::Target::Env;
      if (!e.is_string() || !is_env_name(e.get<std::string>()))
        fail(path + ".env", "expected an environment variable name (letters, digits, _), got " + show(e));
      var.of   = e.get<std::string>();
      var.name = "env:" + var.of;
    }
  }

  void values(const json& list, const std::string& path, SweepVariable& var) const
  {
    if (!list.is_array() || list.empty())
      fail(path, "expected a non-empty array of values, got " + show(list));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& e   = list[i];
      const bool text = e.is_string() || e.is_number() || e.is_boolean();
      if (var.target != SweepVariable::Target::Key && !text)
        fail(path + "[" + std::to_string(i) + "]", "expected a string, number or boolean (a program argument or "
                                                   "environment value is text), got " +
                                                       show(e));
      if (e.is_null())
        fail(path + "[" + std::to_string(i) + "]", "null is not a value; give the key's value");
      var.values.push_back(e);
    }
  }

  /// {"from", "to", "step"} (arithmetic, `to` included when reached) or {"from", "to", "times"}
  /// (geometric); integers stay integers.
  void range(const json& r, const std::string& path, SweepVariable& var) const
  {
    if (!r.is_object())
      fail(path, "expected {\"from\": 1, \"to\": 11, \"step\": 1} or {\"from\": 1, \"to\": 64, \"times\": 2}, got " +
                     show(r));
    only_keys(r, path, {"from", "to", "step", "times"});
    for (const char* k : {"from", "to"})
      if (!r.contains(k) || !r[k].is_number())
        fail(path + "." + k, r.contains(k) ? "expected a number, got " + show(r[k])
                                           : std::string("missing; a range needs from and to"));
    if (r.contains("step") && r.contains("times"))
      fail(path, "give step (arithmetic) or times (geometric), not both");
    const char* by  = r.contains("times") ? "times" : "step";
    const json by_v = r.contains(by) ? r[by] : json(1);
    if (!by_v.is_number())
      fail(path + "." + by, "expected a number, got " + show(by_v));
    const bool ints   = r["from"].is_number_integer() && r["to"].is_number_integer() && by_v.is_number_integer();
    const double from = r["from"].get<double>(), to = r["to"].get<double>(), s = by_v.get<double>();
    if (std::string(by) == "step") {
      if (s == 0 || !std::isfinite(s) || (to - from) / s < 0)
        fail(path + ".step", show(by_v) + " never gets from " + show(r["from"]) + " to " + show(r["to"]) +
                                 "; expected a step of the sign of to - from, not 0");
      const double n = std::floor((to - from) / s + 1e-9) + 1;
      if (n > kMaxRangeValues)
        fail(path, "has " + show(json(n)) + " values; at most " + std::to_string(kMaxRangeValues));
      for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
        var.values.push_back(
            ints ? json(r["from"].get<std::int64_t>() + static_cast<std::int64_t>(i) * by_v.get<std::int64_t>())
                 : json(round15(from + static_cast<double>(i) * s)));
      return;
    }
    if (!(from > 0) || !(s > 1) || !std::isfinite(s) || to < from)
      fail(path, "a geometric range needs 0 < from <= to and times > 1, got from " + show(r["from"]) + ", to " +
                     show(r["to"]) + ", times " + show(by_v));
    double x = from;
    for (std::int64_t xi = ints ? r["from"].get<std::int64_t>() : 0; x <= to * (1 + 1e-12);) {
      var.values.push_back(ints ? json(xi) : json(x));
      if (var.values.size() > kMaxRangeValues)
        fail(path, "has more than " + std::to_string(kMaxRangeValues) + " values");
      x *= s;
      if (ints)
        xi *= by_v.get<std::int64_t>();
    }
  }

  void plots(const json& p)
  {
    if (p.is_object()) {
      out_.plots_.push_back(plot(p, "sweep.plot", "plot.svg"));
      return;
    }
    if (!p.is_array() || p.empty())
      fail("sweep.plot",
           "expected a plot {\"x\": ..., \"y\": ..., \"series\": ...} or an array of them, got " + show(p));
    for (std::size_t i = 0; i < p.size(); ++i)
      out_.plots_.push_back(plot(p[i], "sweep.plot[" + std::to_string(i) + "]", "plot-" + std::to_string(i) + ".svg"));
  }

  SweepPlot plot(const json& p, const std::string& path, const std::string& file) const
  {
    if (!p.is_object())
      fail(path, "expected {\"x\": NAME, \"y\": METRIC, \"series\": NAME}, got " + show(p));
    only_keys(p, path, {"x", "y", "series", "file", "title", "logx", "logy", "errors"});
    SweepPlot r;
    r.file    = file;
    r.path    = path;
    auto text = [&](const char* k, std::string& into, bool required) {
      if (!p.contains(k)) {
        if (required)
          fail(path + "." + k, "missing; a plot needs x (a swept variable's name or a key)");
        return;
      }
      if (!p[k].is_string() || p[k].get<std::string>().empty())
        fail(path + "." + k, "expected a non-empty string, got " + show(p[k]));
      into = p[k].get<std::string>();
    };
    text("x", r.x, true);
    text("y", r.y, false);
    text("series", r.series, false);
    text("title", r.title, false);
    text("file", r.file, false);
    if (r.file.find('/') != std::string::npos || r.file.size() < 5 || r.file.substr(r.file.size() - 4) != ".svg")
      fail(path + ".file",
           "\"" + r.file + "\" is not a file name ending in .svg (it is written in the sweep's directory)");
    for (const char* k : {"logx", "logy"})
      if (p.contains(k)) {
        if (!p[k].is_boolean())
          fail(path + "." + k, "expected true or false, got " + show(p[k]));
        (std::string(k) == "logx" ? r.logx : r.logy) = p[k].get<bool>();
      }
    text("errors", r.errors, false);
    if (r.errors != "minmax" && r.errors != "stddev")
      fail(path + ".errors",
           "\"" + r.errors + "\" is neither minmax (median, min to max) nor stddev (mean -+ one standard deviation)");
    return r;
  }

  void check_total() const
  {
    double n = 1;
    for (const auto& d : out_.dims_)
      n *= static_cast<double>(out_.vars_[d.front()].values.size());
    if (n > static_cast<double>(kMaxRuns))
      fail("sweep", "has " + show(json(n)) + " points; at most " + std::to_string(kMaxRuns));
  }

  SweepSpec& out_;
  std::string source_;
};

SweepSpec SweepSpec::parse(const json& spec, const std::string& source)
{
  SweepSpec s;
  Parser(s, source).parse(spec);
  return s;
}

std::size_t SweepSpec::point_count() const
{
  std::size_t n = 1;
  for (const auto& d : dims_)
    n *= vars_[d.front()].values.size();
  return n;
}

std::vector<json> SweepSpec::point(std::size_t i) const
{
  SHMEMSIM_ASSERT(i < point_count(), "sweep point index out of range");
  std::vector<json> v(vars_.size());
  for (std::size_t d = dims_.size(); d-- > 0;) {
    const std::size_t len = vars_[dims_[d].front()].values.size();
    for (std::size_t var : dims_[d])
      v[var] = vars_[var].values[i % len];
    i /= len;
  }
  return v;
}

std::uint64_t derive_seed(std::uint64_t seed, int r)
{
  if (r == 0)
    return seed;
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(r);
  z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return z & ((std::uint64_t{1} << 53) - 1);
}

std::string value_text(const json& v)
{
  return v.is_string() ? v.get<std::string>() : v.dump();
}

} // namespace shmemsim::tools
