#include "analysis/Plot.hpp"

#include "analysis/Svg.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace shmemsim::analysis {

using nlohmann::json;
using svg::esc;
using svg::num;
namespace fs = std::filesystem;

std::map<std::string, std::string> sweep_variable_keys(const std::string& scenario_file)
{
  std::map<std::string, std::string> keys;
  std::ifstream in(scenario_file);
  const json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("sweep"))
    return keys;
  const std::function<void(const json&)> walk = [&](const json& v) {
    if (v.is_object()) {
      const auto k = v.find("key"), n = v.find("name");
      if (k != v.end() && n != v.end() && k->is_string() && n->is_string())
        keys[n->get<std::string>()] = k->get<std::string>();
      for (const auto& [name, sub] : v.items())
        walk(sub);
    } else if (v.is_array()) {
      for (const json& sub : v)
        walk(sub);
    }
  };
  walk(j["sweep"]);
  return keys;
}

RunDocs load_run(const std::string& dir)
{
  if (!fs::is_directory(dir))
    throw std::runtime_error(dir + ": no such directory");
  RunDocs r;
  r.dir = dir;
  // A sweep's run: its point's variables (point.json's values) come first, so that a bare key such
  // as "threads" is the swept variable, not a key of the same name deeper in the run's files.
  if (const fs::path p = fs::path(dir) / "point.json"; fs::exists(p)) {
    std::ifstream in(p);
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
      throw std::runtime_error(p.string() + ": not valid JSON");
    if (j.contains("values") && j["values"].is_object())
      r.docs.emplace_back("point", std::move(j["values"]));
    // The sweep's index names its scenario, whose variables say the keys they set.
    fs::path run_dir = dir;
    if (run_dir.filename().empty()) // "DIR/"
      run_dir = run_dir.parent_path();
    std::ifstream sweep(run_dir.parent_path() / "sweep.json");
    const json index = json::parse(sweep, nullptr, false);
    if (!index.is_discarded() && index.is_object() && index.contains("scenario") && index["scenario"].is_string())
      r.variable_keys = sweep_variable_keys(index["scenario"].get<std::string>());
  }
  for (const char* stem : {"summary", "report", "scenario", "reported"}) {
    const fs::path p = fs::path(dir) / (std::string(stem) + ".json");
    if (!fs::exists(p))
      continue;
    std::ifstream in(p);
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
      throw std::runtime_error(p.string() + ": not valid JSON");
    r.docs.emplace_back(stem, std::move(j));
  }
  const bool results = std::any_of(r.docs.begin(), r.docs.end(), [](const auto& d) {
    return d.first == "summary" || d.first == "report" || d.first == "scenario";
  });
  if (!results)
    throw std::runtime_error(dir +
                             ": no scenario.json, summary.json or report.json (write them with 'shmemsim run --out " +
                             dir + "' and 'shmemsim report " + dir + "')");
  return r;
}

namespace {

const json* walk(const json& doc, const std::vector<std::string>& parts, std::size_t first)
{
  const json* j = &doc;
  for (std::size_t i = first; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (j->is_object()) {
      auto it = j->find(p);
      if (it == j->end())
        return nullptr;
      j = &*it;
    } else if (j->is_array()) {
      char* end             = nullptr;
      const unsigned long n = std::strtoul(p.c_str(), &end, 10);
      if (p.empty() || *end != '\0' || n >= j->size())
        return nullptr;
      j = &(*j)[n];
    } else {
      return nullptr;
    }
  }
  return j;
}

std::vector<std::string> split(const std::string& key)
{
  std::vector<std::string> parts;
  std::string cur;
  for (char c : key) {
    if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

} // namespace

const json* lookup(const RunDocs& run, const std::string& key)
{
  const std::vector<std::string> parts = split(key);
  for (const auto& [stem, doc] : run.docs)
    if (parts[0] == stem && parts.size() > 1)
      return walk(doc, parts, 1);
  for (const auto& [stem, doc] : run.docs)
    if (const json* j = walk(doc, parts, 0))
      return j;
  return nullptr;
}

std::optional<json> value_of(const RunDocs& run, const std::string& key)
{
  if (key == "dir" || key.rfind("dir:", 0) == 0) {
    std::string name = fs::path(run.dir).filename().string();
    if (name.empty())
      name = fs::path(run.dir).parent_path().filename().string(); // "DIR/"
    if (key == "dir")
      return json(name);
    std::regex re;
    try {
      re = std::regex(key.substr(4), std::regex::extended);
    } catch (const std::regex_error& e) {
      throw std::runtime_error("key '" + key + "': bad regular expression: " + e.what());
    }
    std::smatch m;
    if (!std::regex_search(name, m, re))
      return std::nullopt;
    const std::string v = m.size() > 1 ? m[1].str() : m[0].str();
    char* end           = nullptr;
    const double d      = std::strtod(v.c_str(), &end);
    if (!v.empty() && *end == '\0')
      return json(d);
    return json(v);
  }
  if (const json* j = lookup(run, key))
    return *j;
  return std::nullopt;
}

namespace {

/// The last component of a dotted key ("total_s" of "report.interference.total_s").
std::string last_part(const std::string& key)
{
  const std::size_t dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

/// A key's value in the base unit of its quantity: through the unit reader (values that carry
/// their unit), else a number scaled by its name's suffix.
UnitValue number(const RunDocs& run, const std::string& key, const char* what, const PlotOptions& opt)
{
  const std::optional<json> j = value_of(run, key);
  if (!j)
    throw std::runtime_error(run.dir + ": no key '" + key + "' (" + what +
                             ") in its scenario.json, summary.json or report.json");
  // A sweep variable reads as the scenario key it sets ("size" as traffic.size: bytes).
  const std::string bare = key.rfind("point.", 0) == 0    ? key.substr(6)
                           : key.rfind("values.", 0) == 0 ? key.substr(7)
                                                          : key;
  const auto var         = run.variable_keys.find(bare);
  if (opt.units)
    if (const std::optional<UnitValue> u = opt.units(var != run.variable_keys.end() ? var->second : key, *j))
      return *u;
  const NameUnit n = unit_from_name(last_part(key));
  if (j->is_number())
    return {n.quantity, j->get<double>() * n.to_base};
  if (j->is_boolean())
    return {Quantity::Plain, j->get<bool>() ? 1.0 : 0.0};
  std::string shown = j->dump();
  if (shown.size() > 80) // values echoed in errors are cut (an array of per-thread figures can be kilobytes)
    shown = shown.substr(0, 77) + "...";
  throw std::runtime_error(run.dir + ": key '" + key + "' (" + what + ") is " + shown + ", not a number");
}

// A series' style: a colour, a marker and a dash pattern that go together (slot k has the k-th of
// each), so that two series drawn on top of each other stay apart by their markers and dashes.
const char* kPalette[]       = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr std::size_t kSlots = std::size(kPalette);
const char* kDashes[kSlots]  = {"", "7,3", "2,3", "9,3,2,3", "4,4", "12,4", "2,6", "7,3,2,3,2,3", "14,3", "5,2,1,2"};
enum class Marker { Circle, Square, Triangle, Diamond, TriangleDown, Plus, Cross, Pentagon, Star, Bar };

/// The slot a series prefers, from its identity (not its place in one plot): the integer its name
/// ends with ("variant 3", "threads = 4", "2"), else a hash of its name. Companion plots of the
/// same series give them the same style.
std::size_t preferred_slot(const std::string& name)
{
  std::size_t end = name.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(name[end - 1])))
    --end;
  if (end < name.size() && name.size() - end < 9)
    return static_cast<std::size_t>(std::stol(name.substr(end))) % kSlots;
  std::uint32_t h = 2166136261u; // FNV-1a
  for (unsigned char c : name)
    h = (h ^ c) * 16777619u;
  return h % kSlots;
}

/// The slots of a plot's series: each its preferred one, or the next free one when another series
/// of the plot has it (series taken in order of their names, so the result is the plot's own).
std::map<std::string, std::size_t> style_slots(const std::vector<std::string>& series)
{
  std::vector<std::string> names = series;
  std::sort(names.begin(), names.end());
  std::map<std::string, std::size_t> slots;
  std::vector<bool> used(kSlots, false);
  for (const std::string& n : names) {
    std::size_t k = preferred_slot(n);
    for (std::size_t i = 0; i < kSlots && used[k]; ++i)
      k = (k + 1) % kSlots;
    used[k]  = true; // more series than slots: they share
    slots[n] = k;
  }
  return slots;
}

/// A marker's SVG at (x, y), in `colour` (hollow ones filled white).
std::string marker_svg(std::size_t slot, double x, double y, const char* colour)
{
  const double r = 4;
  const auto pts = [](std::initializer_list<std::pair<double, double>> ps) {
    std::string o;
    for (const auto& [px, py] : ps)
      o += (o.empty() ? "" : " ") + num(px) + "," + num(py);
    return o;
  };
  const std::string solid  = "\" fill=\"" + std::string(colour) + "\"/>";
  const std::string hollow = "\" fill=\"white\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.5\"/>";
  switch (static_cast<Marker>(slot % kSlots)) {
    case Marker::Circle:
      return "<circle class=\"marker\" cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"3.5" + solid;
    case Marker::Square:
      return "<rect class=\"marker\" x=\"" + num(x - r) + "\" y=\"" + num(y - r) + "\" width=\"" + num(2 * r) +
             "\" height=\"" + num(2 * r) + hollow;
    case Marker::Triangle:
      return "<polygon class=\"marker\" points=\"" + pts({{x, y - r - 1}, {x + r + 1, y + r}, {x - r - 1, y + r}}) +
             solid;
    case Marker::Diamond:
      return "<polygon class=\"marker\" points=\"" +
             pts({{x, y - r - 1}, {x + r + 1, y}, {x, y + r + 1}, {x - r - 1, y}}) + hollow;
    case Marker::TriangleDown:
      return "<polygon class=\"marker\" points=\"" + pts({{x, y + r + 1}, {x + r + 1, y - r}, {x - r - 1, y - r}}) +
             hollow;
    case Marker::Plus:
      return "<path class=\"marker\" d=\"M" + num(x - r - 1) + "," + num(y) + "h" + num(2 * r + 2) + "M" + num(x) +
             "," + num(y - r - 1) + "v" + num(2 * r + 2) + "\" stroke=\"" + colour + "\" stroke-width=\"2\"/>";
    case Marker::Cross:
      return "<path class=\"marker\" d=\"M" + num(x - r) + "," + num(y - r) + "l" + num(2 * r) + "," + num(2 * r) +
             "M" + num(x - r) + "," + num(y + r) + "l" + num(2 * r) + "," + num(-2 * r) + "\" stroke=\"" + colour +
             "\" stroke-width=\"2\"/>";
    case Marker::Pentagon:
      return "<polygon class=\"marker\" points=\"" +
             pts({{x, y - r - 1}, {x + r + 1, y - 1}, {x + r - 1, y + r}, {x - r + 1, y + r}, {x - r - 1, y - 1}}) +
             solid;
    case Marker::Star:
      return "<polygon class=\"marker\" points=\"" +
             pts({{x, y - r - 2},
                  {x + 1.5, y - 1.5},
                  {x + r + 2, y - 1.5},
                  {x + 2.5, y + 1.5},
                  {x + 3.5, y + r + 2},
                  {x, y + 3},
                  {x - 3.5, y + r + 2},
                  {x - 2.5, y + 1.5},
                  {x - r - 2, y - 1.5},
                  {x - 1.5, y - 1.5}}) +
             hollow;
    case Marker::Bar:
      return "<rect class=\"marker\" x=\"" + num(x - 1.5) + "\" y=\"" + num(y - r - 1) + "\" width=\"3\" height=\"" +
             num(2 * r + 2) + solid;
  }
  return "";
}

/// One point from the y values of the runs that share its series and x (opt.spread).
PlotPoint summarize(const std::string& series, double x, std::vector<double> ys, Spread spread)
{
  PlotPoint pt{series, x, 0, static_cast<int>(ys.size())};
  std::sort(ys.begin(), ys.end());
  const std::size_t n = ys.size();
  if (spread == Spread::MinMax) {
    pt.y  = n % 2 == 1 ? ys[n / 2] : (ys[n / 2 - 1] + ys[n / 2]) / 2;
    pt.lo = ys.front(), pt.hi = ys.back();
  } else {
    double sum = 0, sq = 0;
    for (double y : ys)
      sum += y;
    pt.y = sum / static_cast<double>(n);
    for (double y : ys)
      sq += (y - pt.y) * (y - pt.y);
    const double sd = n > 1 ? std::sqrt(sq / static_cast<double>(n - 1)) : 0;
    pt.lo = pt.y - sd, pt.hi = pt.y + sd;
  }
  if (n == 1)
    pt.lo = pt.hi = std::numeric_limits<double>::quiet_NaN();
  return pt;
}

/// The runs' points, by series (in order of first appearance) and x: one point per (series, x), with
/// an error bar over the runs that share it (never a silent average).
void collect_points(const std::vector<RunDocs>& runs, const PlotOptions& opt, Plot& p)
{
  std::map<std::string, std::map<double, std::vector<double>>> ys; // series -> x -> y of each run
  for (const RunDocs& r : runs) {
    const UnitValue x = number(r, opt.x, "--x", opt), y = number(r, opt.y, "--y", opt);
    if (p.x_quantity == Quantity::Plain)
      p.x_quantity = x.quantity;
    if (p.y_quantity == Quantity::Plain)
      p.y_quantity = y.quantity;
    std::string s = opt.series.empty() ? opt.y : "";
    if (!opt.series.empty()) {
      const std::optional<json> j = value_of(r, opt.series);
      if (!j)
        throw std::runtime_error(r.dir + ": no key '" + opt.series +
                                 "' (--series) in its scenario.json, summary.json or report.json");
      s = j->is_string() ? j->get<std::string>() : j->dump();
    }
    if ((opt.logx && x.base <= 0) || (opt.logy && y.base <= 0))
      throw std::runtime_error(r.dir + ": a logarithmic axis needs positive values (got " +
                               svg::tick_label(opt.logx && x.base <= 0 ? x.base : y.base) + ")");
    if (std::find(p.series.begin(), p.series.end(), s) == p.series.end())
      p.series.push_back(s);
    ys[s][x.base].push_back(y.base);
  }
  for (const std::string& s : p.series)
    for (const auto& [x, v] : ys[s])
      p.points.push_back(summarize(s, x, v, opt.spread));
}

/// An axis's name: the option's label, else the key as a readable name (its unit goes in
/// brackets after it, axis_label).
std::string axis_name(const std::string& label, const std::string& key, Quantity /*q*/)
{
  return label.empty() ? readable_name(key) : label;
}

/// A series' legend entry: "NAME = VALUE" for a series key ("threads = 2"), the metric's name
/// for the one line of a plot without one.
std::string legend_text(const std::string& series, const PlotOptions& opt)
{
  if (opt.series.empty())
    return series == opt.y ? readable_name(opt.y) : series;
  return readable_name(opt.series) + " = " + series;
}

std::string points_table(const Plot& p, const PlotOptions& opt)
{
  const bool bars = std::any_of(p.points.begin(), p.points.end(), [](const PlotPoint& pt) { return pt.runs > 1; });
  const bool sd   = opt.spread == Spread::StdDev;
  std::ostringstream t;
  char buf[512];
  const std::string xl = axis_name(opt.xlabel, opt.x, p.x_quantity), yl = axis_name(opt.ylabel, opt.y, p.y_quantity);
  std::snprintf(buf, sizeof buf, "%-24s %16s %16s %5s", opt.series.empty() ? "series" : opt.series.c_str(), xl.c_str(),
                (bars ? (sd ? "mean " : "median ") + yl : yl).c_str(), "runs");
  t << buf;
  if (bars)
    t << (sd ? "        -stddev         +stddev" : "             min             max");
  t << "\n";
  for (const PlotPoint& pt : p.points) {
    std::snprintf(buf, sizeof buf, "%-24s %16s %16s %5d", pt.series.c_str(), with_unit(pt.x, p.x_quantity, 6).c_str(),
                  with_unit(pt.y, p.y_quantity, 6).c_str(), pt.runs);
    t << buf;
    if (bars && pt.runs > 1) {
      std::snprintf(buf, sizeof buf, " %15s %15s", with_unit(pt.lo, p.y_quantity, 6).c_str(),
                    with_unit(pt.hi, p.y_quantity, 6).c_str());
      t << buf;
    }
    t << "\n";
  }
  return t.str();
}

/// Tick values (base units) of a linear axis over [lo, hi]: nice steps in the axis's display unit
/// (integers only for plain integer data: threads, PEs).
std::vector<double> linear_ticks(double lo, double hi, Quantity q, const DisplayUnit& u,
                                 const std::vector<double>& data)
{
  std::vector<double> v;
  const bool ints = q == Quantity::Plain && !data.empty() &&
                    std::all_of(data.begin(), data.end(), [](double d) { return d == std::floor(d); });
  for (double t : svg::nice_ticks(lo / u.size, hi / u.size, 8))
    if (!ints || t == std::floor(t))
      v.push_back(t * u.size);
  return v;
}

/// Draws the plot: frame, axes with ticks and labels, one line per series with its legend.
class PlotSvg {
public:
  PlotSvg(const Plot& p, const PlotOptions& opt)
      : p_(p), opt_(opt), W_(opt.width), H_(opt.height), pw_(W_ - kL - kR), ph_(H_ - kT - kB),
        slots_(style_slots(p.series))
  {
    fit_ranges();
  }

  std::string draw()
  {
    frame();
    axes();
    for (std::size_t i = 0; i < p_.series.size(); ++i)
      series(i);
    references();
    s_ << "</svg>\n";
    return s_.str();
  }

private:
  static constexpr double kL = 80, kR = 190, kT = 45, kB = 60;

  double tx(double v) const { return opt_.logx ? std::log10(v) : v; }
  double ty(double v) const { return opt_.logy ? std::log10(v) : v; }
  double X(double v) const { return kL + (tx(v) - x0_) * pw_ / (x1_ - x0_); }
  double Y(double v) const { return kT + ph_ - (ty(v) - y0_) * ph_ / (y1_ - y0_); }

  /// The data ranges (in axis units), padded; linear y axes start at zero, as the paper's figures do.
  void fit_ranges()
  {
    if (!p_.points.empty()) {
      x0_ = x1_ = tx(p_.points[0].x);
      y0_ = y1_ = ty(p_.points[0].y);
      for (const std::vector<PlotPoint>* v : {&p_.points, &p_.references})
        for (const PlotPoint& pt : *v) {
          x0_ = std::min(x0_, tx(pt.x)), x1_ = std::max(x1_, tx(pt.x));
          y0_ = std::min(y0_, ty(pt.y)), y1_ = std::max(y1_, ty(pt.y));
          if (has_bar(pt)) {
            if (!opt_.logy || pt.lo > 0)
              y0_ = std::min(y0_, ty(pt.lo));
            y1_ = std::max(y1_, ty(pt.hi));
          }
        }
    }
    if (!opt_.logy && y0_ > 0)
      y0_ = 0;
    if (x1_ - x0_ <= 0)
      x0_ -= 0.5, x1_ += 0.5;
    if (y1_ - y0_ <= 0)
      y1_ += std::max(1.0, std::fabs(y1_) * 0.1);
    const double ypad = (y1_ - y0_) * 0.05;
    y1_ += ypad;
    if (opt_.logy) // a linear axis starts at zero; a log one keeps its lowest points off the frame
      y0_ -= ypad;
    const double xpad = (x1_ - x0_) * 0.03;
    x0_ -= xpad, x1_ += xpad;
  }

  void frame()
  {
    s_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W_) << "\" height=\"" << num(H_)
       << "\" viewBox=\"0 0 " << num(W_) << ' ' << num(H_)
       << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
    s_ << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    const std::string title =
        opt_.title.empty() ? (readable_name(opt_.y) + " vs " + readable_name(opt_.x)) : opt_.title;
    s_ << "<text x=\"" << num(kL + pw_ / 2)
       << "\" y=\"25\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" << esc(title) << "</text>\n";
    s_ << "<rect x=\"" << num(kL) << "\" y=\"" << num(kT) << "\" width=\"" << num(pw_) << "\" height=\"" << num(ph_)
       << "\" fill=\"none\" stroke=\"black\"/>\n";
  }

  /// Several runs' spread, or a band a figure gives (single runs have NaN bounds).
  static bool has_bar(const PlotPoint& pt) { return std::isfinite(pt.lo) && std::isfinite(pt.hi); }

  /// The axis's ticks (base units): readable powers on log axes, nice steps of its unit otherwise.
  std::vector<double> ticks(double lo, double hi, bool log, Quantity q, const DisplayUnit& u,
                            const std::vector<double>& data) const
  {
    return log ? log_ticks(lo, hi, q, data) : linear_ticks(lo, hi, q, u, data);
  }

  void axes()
  {
    std::vector<double> xs, ys;
    for (const PlotPoint& pt : p_.points)
      xs.push_back(pt.x), ys.push_back(pt.y);
    const Quantity xq = p_.x_quantity, yq = p_.y_quantity;
    const DisplayUnit xu = display_unit(xq, std::max(std::fabs(x0_), std::fabs(x1_)));
    const DisplayUnit yu = display_unit(yq, std::max(std::fabs(y0_), std::fabs(y1_)));
    s_ << "<g class=\"axes\">\n";
    for (double v : ticks(x0_, x1_, opt_.logx, xq, xu, xs)) {
      const double x = X(v);
      if (x < kL - 0.5 || x > kL + pw_ + 0.5)
        continue;
      s_ << "<line x1=\"" << num(x) << "\" y1=\"" << num(kT) << "\" x2=\"" << num(x) << "\" y2=\"" << num(kT + ph_)
         << "\" stroke=\"#e4e4e4\"/><text x=\"" << num(x) << "\" y=\"" << num(kT + ph_ + 18)
         << "\" text-anchor=\"middle\">" << esc(tick_text(v, xq, xu, opt_.logx)) << "</text>\n";
    }
    for (double v : ticks(y0_, y1_, opt_.logy, yq, yu, ys)) {
      const double y = Y(v);
      if (y < kT - 0.5 || y > kT + ph_ + 0.5)
        continue;
      s_ << "<line x1=\"" << num(kL) << "\" y1=\"" << num(y) << "\" x2=\"" << num(kL + pw_) << "\" y2=\"" << num(y)
         << "\" stroke=\"#e4e4e4\"/><text x=\"" << num(kL - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
         << esc(tick_text(v, yq, yu, opt_.logy)) << "</text>\n";
    }
    s_ << "<text x=\"" << num(kL + pw_ / 2) << "\" y=\"" << num(H_ - 15) << "\" text-anchor=\"middle\">"
       << esc(axis_label(axis_name(opt_.xlabel, opt_.x, xq), xq, xu, opt_.logx)) << "</text>\n";
    s_ << "<text transform=\"translate(18," << num(kT + ph_ / 2) << ") rotate(-90)\" text-anchor=\"middle\">"
       << esc(axis_label(axis_name(opt_.ylabel, opt_.y, yq), yq, yu, opt_.logy)) << "</text>\n</g>\n";
  }

  /// A vertical bar from lo to hi with caps (a log axis clips a bar that reaches zero or below).
  void error_bar(const PlotPoint& pt, const char* colour)
  {
    const double x = X(pt.x), bottom = kT + ph_;
    const double y_lo = opt_.logy && pt.lo <= 0 ? bottom : std::min(bottom, Y(pt.lo)), y_hi = Y(pt.hi);
    s_ << "<path class=\"error-bar\" d=\"M" << num(x) << "," << num(y_lo) << "V" << num(y_hi) << "M" << num(x - 4)
       << "," << num(y_lo) << "h8M" << num(x - 4) << "," << num(y_hi) << "h8\" fill=\"none\" stroke=\"" << colour
       << "\" stroke-width=\"1.2\"/>\n";
  }

  std::size_t slot(const std::string& series) const { return slots_.at(series); }

  /// A series: its line in its colour and dash pattern, its markers, its legend entry (the same
  /// three, so that a reader tells the series apart without colour).
  void series(std::size_t i)
  {
    const std::size_t k = slot(p_.series[i]);
    const char* c       = kPalette[k];
    const std::string dash =
        *kDashes[k] != '\0' ? std::string(" stroke-dasharray=\"") + kDashes[k] + "\"" : std::string();
    std::string pts;
    s_ << "<g class=\"series\" data-series=\"" << esc(p_.series[i]) << "\">\n";
    for (const PlotPoint& pt : p_.points)
      if (pt.series == p_.series[i])
        pts += (pts.empty() ? "" : " ") + num(X(pt.x)) + "," + num(Y(pt.y));
    s_ << "<polyline class=\"line\" points=\"" << pts << "\" fill=\"none\" stroke=\"" << c << "\" stroke-width=\"2\""
       << dash << "/>\n";
    for (const PlotPoint& pt : p_.points)
      if (pt.series == p_.series[i]) {
        if (has_bar(pt))
          error_bar(pt, c);
        s_ << marker_svg(k, X(pt.x), Y(pt.y), c) << "\n";
      }
    const double ly = kT + 10 + 20 * static_cast<double>(i);
    s_ << "<line x1=\"" << num(kL + pw_ + 12) << "\" y1=\"" << num(ly) << "\" x2=\"" << num(kL + pw_ + 42) << "\" y2=\""
       << num(ly) << "\" stroke=\"" << c << "\" stroke-width=\"2\"" << dash << "/>"
       << marker_svg(k, kL + pw_ + 27, ly, c) << "<text class=\"legend\" x=\"" << num(kL + pw_ + 48) << "\" y=\""
       << num(ly + 4) << "\">" << esc(legend_text(p_.series[i], opt_)) << "</text>\n</g>\n";
  }

  /// Reference points: hollow diamonds in their series' colour, one legend entry below the series'.
  void references()
  {
    if (p_.references.empty())
      return;
    s_ << "<g class=\"references\">\n";
    for (const PlotPoint& pt : p_.references) {
      const auto it = slots_.find(pt.series);
      const char* c = it != slots_.end() ? kPalette[it->second] : "black";
      s_ << diamond(X(pt.x), Y(pt.y), c) << "\n";
    }
    const double ly = kT + 10 + 20 * static_cast<double>(p_.series.size());
    s_ << diamond(kL + pw_ + 27, ly, "black") << "<text x=\"" << num(kL + pw_ + 46) << "\" y=\"" << num(ly + 4)
       << "\">published</text>\n</g>\n";
  }

  static std::string diamond(double x, double y, const char* colour)
  {
    const double r = 6;
    return "<polygon points=\"" + num(x) + "," + num(y - r) + " " + num(x + r) + "," + num(y) + " " + num(x) + "," +
           num(y + r) + " " + num(x - r) + "," + num(y) + "\" fill=\"white\" stroke=\"" + colour +
           "\" stroke-width=\"2\"/>";
  }

  const Plot& p_;
  const PlotOptions& opt_;
  const double W_, H_, pw_, ph_;
  double x0_ = 0, x1_ = 1, y0_ = 0, y1_ = 1;
  const std::map<std::string, std::size_t> slots_; ///< series -> style slot
  std::ostringstream s_;
};

} // namespace

Plot make_plot(const std::vector<RunDocs>& runs, const PlotOptions& opt)
{
  Plot p;
  collect_points(runs, opt, p);
  p.table = points_table(p, opt);
  p.svg   = draw_plot(p, opt);
  return p;
}

std::string draw_plot(const Plot& p, const PlotOptions& opt)
{
  return PlotSvg(p, opt).draw();
}

} // namespace shmemsim::analysis
