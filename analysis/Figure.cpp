#include "analysis/Figure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace shmemsim::analysis {

using json = nlohmann::json;

namespace {

/// Reads spec fields with errors naming the file and the JSON path.
class SpecReader {
public:
  explicit SpecReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const
  {
    throw std::runtime_error(file_ + ": " + path + ": " + what);
  }

  std::string str(const json& o, const std::string& key, const std::string& path, bool required) const
  {
    if (!o.contains(key)) {
      if (required)
        fail(path + "." + key, "missing (a string)");
      return "";
    }
    if (!o[key].is_string())
      fail(path + "." + key, "must be a string, not " + o[key].dump());
    return o[key].get<std::string>();
  }

  double number(const json& o, const std::string& key, const std::string& path, double def, bool required) const
  {
    if (!o.contains(key)) {
      if (required)
        fail(path + "." + key, "missing (a number)");
      return def;
    }
    if (!o[key].is_number())
      fail(path + "." + key, "must be a number, not " + o[key].dump());
    return o[key].get<double>();
  }

  void only(const json& o, const std::string& path, std::initializer_list<const char*> keys) const
  {
    if (!o.is_object())
      fail(path, "must be an object");
    for (const auto& [k, v] : o.items())
      if (std::none_of(keys.begin(), keys.end(), [&](const char* a) { return k == a; })) {
        std::string valid;
        for (const char* a : keys)
          valid += std::string(valid.empty() ? "" : ", ") + a;
        fail(path.empty() ? k : path + "." + k, "unknown key (valid: " + valid + ")");
      }
  }

private:
  std::string file_;
};

Derive parse_derive(const SpecReader& r, const std::string& word)
{
  if (word.empty() || word == "value")
    return Derive::Value;
  if (word == "rate")
    return Derive::Rate;
  if (word == "gain")
    return Derive::Gain;
  if (word == "efficiency")
    return Derive::Efficiency;
  r.fail("derive", "'" + word + "' is not one of value, rate, gain, efficiency");
}

/// A JSON value as a series name: strings as they are, numbers as written.
std::string word_of(const json& v)
{
  return v.is_string() ? v.get<std::string>() : v.dump();
}

/// (series -> x -> mean metric) of one input's sweep.
using Curves = std::map<std::string, std::map<double, double>>;

void read_input(const FigureSpec& spec, const FigureInput& in, const std::string& base, Curves& curves,
                std::vector<std::string>& order)
{
  const std::string file = base + "/" + in.dir + "/results.json";
  std::ifstream f(file);
  if (!f)
    throw std::runtime_error(file + ": cannot read (run the sweep first)");
  json j;
  try {
    j = json::parse(f);
  } catch (const json::exception&) {
    throw std::runtime_error(file + ": not valid JSON");
  }
  if (!j.contains("points") || !j["points"].is_array())
    throw std::runtime_error(file + ": no points (not written by shmemsim sweep?)");
  for (const json& pt : j["points"]) {
    const json& values = pt.at("values");
    if (!values.contains(in.x) || !values[in.x].is_number())
      throw std::runtime_error(file + ": point " + pt.at("point").dump() + " has no numeric variable '" + in.x + "'");
    if (!in.series.empty() && !values.contains(in.series))
      throw std::runtime_error(file + ": point " + pt.at("point").dump() + " has no variable '" + in.series + "'");
    const std::string series = in.series.empty() ? in.label : in.series_prefix + word_of(values[in.series]);
    const json* st           = pt.contains("stats") && pt["stats"].contains(spec.y) ? &pt["stats"][spec.y] : nullptr;
    if (st == nullptr || !st->contains("mean") || !(*st)["mean"].is_number())
      throw std::runtime_error(file + ": point " + pt.at("point").dump() + " has no value of '" + spec.y +
                               "' (did its run fail, or does the program not report it?)");
    if (std::find(order.begin(), order.end(), series) == order.end())
      order.push_back(series);
    curves[series][values[in.x].get<double>()] = (*st)["mean"].get<double>();
  }
}

/// The derived value of `series` at `x`; NaN when it cannot be derived (no baseline there).
double derive(const FigureSpec& spec, const Curves& c, const std::string& series, double x, double y)
{
  switch (spec.derive) {
    case Derive::Value:
      return y;
    case Derive::Rate:
      return spec.work / (y * spec.y_scale);
    case Derive::Gain: {
      const auto b = c.find(spec.baseline);
      if (b == c.end() || b->second.count(x) == 0)
        return std::nan("");
      const double base = b->second.at(x);
      return (spec.y_kind == YKind::Rate ? y / base - 1 : base / y - 1) * 100;
    }
    case Derive::Efficiency: {
      const auto& pts     = c.at(series);
      const auto [x0, y0] = *pts.begin();
      return (spec.y_kind == YKind::Rate ? (y / x) / (y0 / x0) : (y0 * x0) / (y * x)) * 100;
    }
  }
  return y;
}

std::string fmt(double v)
{
  char b[64];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

const Band* band_of(const std::vector<Band>& bands, const std::string& series, double x)
{
  for (const Band& b : bands)
    if (b.series == series && b.x == x)
      return &b;
  return nullptr;
}

std::string make_table(const FigureSpec& spec, const Plot& plot, const std::vector<Band>& bands)
{
  std::ostringstream t;
  char line[512];
  const bool with_band = !spec.band.file.empty();
  std::snprintf(line, sizeof line, "%-28s %8s %14s %14s %12s %16s  %s\n", "series", "x", "simulated", "published",
                "sim - pub", with_band ? "sourced band" : "", "source");
  t << line;
  for (const PlotPoint& pt : plot.points) {
    const Published* pub = nullptr;
    for (const Published& p : spec.published)
      if (p.series == pt.series && p.x == pt.x)
        pub = &p;
    const Band* b = band_of(bands, pt.series, pt.x);
    std::snprintf(line, sizeof line, "%-28s %8s %14s %14s %12s %16s  %s\n", pt.series.c_str(), fmt(pt.x).c_str(),
                  fmt(pt.y).c_str(), pub ? fmt(pub->y).c_str() : "", pub ? fmt(pt.y - pub->y).c_str() : "",
                  b ? (fmt(b->low) + ".." + fmt(b->high)).c_str() : "", pub ? pub->source.c_str() : "");
    t << line;
  }
  return t.str();
}

/// The spec's band entries from its band file under `base`; `note` says where they come from, or
/// that the file is not there (the figure is drawn without them).
std::vector<Band> read_bands(const FigureSpec& spec, const std::string& base, std::string& note)
{
  std::vector<Band> out;
  if (spec.band.file.empty())
    return out;
  const std::string path = base + "/" + spec.band.file;
  std::ifstream in(path);
  if (!in) {
    note = "sourced band: no " + path + " (scripts/paper-figure --band, or bench/qdr16-sensitivity/run -o it)";
    return out;
  }
  json j;
  try {
    j = json::parse(in);
  } catch (const json::exception& e) {
    throw std::runtime_error(path + ": not JSON (" + std::string(e.what()) + ")");
  }
  if (!j.contains("figure_band") || !j["figure_band"].is_array())
    throw std::runtime_error(path + ": figure_band: missing (a list of {figure, series, x, low, high})");
  for (const json& e : j["figure_band"]) {
    if (!e.is_object() || !e.contains("figure") || !e.contains("series") || !e.contains("x") || !e.contains("low") ||
        !e.contains("high") || !e["x"].is_number() || !e["low"].is_number() || !e["high"].is_number())
      throw std::runtime_error(path + ": figure_band: every entry needs figure, series, x, low and high");
    if (e["figure"] == spec.band.name)
      out.push_back(
          {e["series"].get<std::string>(), e["x"].get<double>(), e["low"].get<double>(), e["high"].get<double>()});
  }
  note = "sourced band: " + j.value("band_source", std::string("(no band_source)")) + " (" + path + ")";
  return out;
}

} // namespace

FigureSpec parse_figure_spec(const json& j, const std::string& file)
{
  const SpecReader r(file);
  r.only(j, "",
         {"description", "title", "xlabel", "ylabel", "y", "y_kind", "derive", "work", "y_scale", "baseline", "inputs",
          "published", "band", "note"});
  FigureSpec s;
  s.title                = r.str(j, "title", "", false);
  s.xlabel               = r.str(j, "xlabel", "", false);
  s.ylabel               = r.str(j, "ylabel", "", false);
  s.y                    = r.str(j, "y", "", true);
  const std::string kind = r.str(j, "y_kind", "", false);
  if (!kind.empty() && kind != "time" && kind != "rate")
    r.fail("y_kind", "'" + kind + "' is not one of time, rate");
  s.y_kind = kind == "rate" ? YKind::Rate : YKind::Time;
  s.derive = parse_derive(r, r.str(j, "derive", "", false));
  if (s.derive == Derive::Rate && s.y_kind == YKind::Rate)
    r.fail("derive", "rate derives a rate from a time: y_kind rate is one already (use value)");
  s.work     = r.number(j, "work", "", 1, s.derive == Derive::Rate);
  s.y_scale  = r.number(j, "y_scale", "", 1, false);
  s.baseline = r.str(j, "baseline", "", s.derive == Derive::Gain);
  s.note     = r.str(j, "note", "", false);
  if (s.work <= 0 || s.y_scale <= 0)
    r.fail("work", "work and y_scale must be positive");
  if (!j.contains("inputs") || !j["inputs"].is_array() || j["inputs"].empty())
    r.fail("inputs", "missing (a non-empty list of sweeps)");
  for (std::size_t i = 0; i < j["inputs"].size(); ++i) {
    const json& o          = j["inputs"][i];
    const std::string path = "inputs[" + std::to_string(i) + "]";
    r.only(o, path, {"dir", "x", "series", "series_prefix", "label"});
    FigureInput in{r.str(o, "dir", path, true), r.str(o, "x", path, true), r.str(o, "series", path, false),
                   r.str(o, "series_prefix", path, false), r.str(o, "label", path, false)};
    if (in.series.empty() && in.label.empty())
      r.fail(path, "needs a 'series' variable or a 'label'");
    s.inputs.push_back(in);
  }
  if (j.contains("published")) {
    if (!j["published"].is_array())
      r.fail("published", "must be a list");
    for (std::size_t i = 0; i < j["published"].size(); ++i) {
      const json& o          = j["published"][i];
      const std::string path = "published[" + std::to_string(i) + "]";
      r.only(o, path, {"series", "x", "y", "source"});
      s.published.push_back({r.str(o, "series", path, true), r.number(o, "x", path, 0, true),
                             r.number(o, "y", path, 0, true), r.str(o, "source", path, true)});
    }
  }
  if (j.contains("band")) {
    const json& b = j["band"];
    r.only(b, "band", {"file", "name"});
    s.band = {r.str(b, "file", "band", true), r.str(b, "name", "band", true)};
  }
  return s;
}

Figure make_figure(const FigureSpec& spec, const std::string& base)
{
  Curves curves;
  std::vector<std::string> order;
  for (const FigureInput& in : spec.inputs)
    read_input(spec, in, base, curves, order);
  Figure f;
  for (const std::string& s : order) {
    if (spec.derive == Derive::Gain && s == spec.baseline)
      continue; // its gain over itself is zero by definition
    f.plot.series.push_back(s);
    for (const auto& [x, y] : curves.at(s)) {
      const double v = derive(spec, curves, s, x, y);
      if (!std::isnan(v))
        f.plot.points.push_back({s, x, v, 1});
    }
  }
  if (spec.derive == Derive::Gain && curves.count(spec.baseline) == 0)
    throw std::runtime_error("figure: the baseline series '" + spec.baseline + "' is in no input");
  for (const Published& p : spec.published) {
    if (std::find(f.plot.series.begin(), f.plot.series.end(), p.series) == f.plot.series.end())
      throw std::runtime_error("figure: published value for series '" + p.series + "', which no input has");
    f.plot.references.push_back({p.series, p.x, p.y, 0});
  }
  std::string band_note;
  const std::vector<Band> bands = read_bands(spec, base, band_note);
  for (PlotPoint& pt : f.plot.points)
    if (const Band* b = band_of(bands, pt.series, pt.x)) {
      pt.lo = std::min(b->low, pt.y);
      pt.hi = std::max(b->high, pt.y);
    }
  f.table = make_table(spec, f.plot, bands);
  if (!band_note.empty())
    f.table += band_note + "\n";
  PlotOptions opt;
  opt.title  = spec.title;
  opt.xlabel = spec.xlabel;
  opt.ylabel = spec.ylabel;
  opt.x      = "x";
  opt.y      = spec.y;
  opt.width  = 900;
  f.plot.svg = draw_plot(f.plot, opt);
  return f;
}

} // namespace shmemsim::analysis
