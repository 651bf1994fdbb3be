#include "analysis/Plot.hpp"

#include "analysis/Svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

RunDocs load_run(const std::string& dir)
{
  if (!fs::is_directory(dir))
    throw std::runtime_error(dir + ": no such directory");
  RunDocs r;
  r.dir = dir;
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
  if (r.docs.empty() || (r.docs.size() == 1 && r.docs[0].first == "reported"))
    throw std::runtime_error(dir + ": no scenario.json, summary.json or report.json (write them with 'shmemsim run --out " + dir +
                             "' and 'shmemsim report " + dir + "')");
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
      char* end         = nullptr;
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

double number(const RunDocs& run, const std::string& key, const char* what)
{
  const std::optional<json> j = value_of(run, key);
  if (!j)
    throw std::runtime_error(run.dir + ": no key '" + key + "' (" + what + ") in its scenario.json, summary.json or report.json");
  if (j->is_number())
    return j->get<double>();
  if (j->is_boolean())
    return j->get<bool>() ? 1 : 0;
  throw std::runtime_error(run.dir + ": key '" + key + "' (" + what + ") is " + j->dump() + ", not a number");
}

const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

/// Averages the runs' y values into points, by series (in order of first appearance) and x.
void average_points(const std::vector<RunDocs>& runs, const PlotOptions& opt, Plot& p)
{
  // (series, x) -> sum of y, count
  std::map<std::string, std::map<double, std::pair<double, int>>> acc;
  for (const RunDocs& r : runs) {
    const double x = number(r, opt.x, "--x"), y = number(r, opt.y, "--y");
    std::string s = opt.series.empty() ? opt.y : "";
    if (!opt.series.empty()) {
      const std::optional<json> j = value_of(r, opt.series);
      if (!j)
        throw std::runtime_error(r.dir + ": no key '" + opt.series + "' (--series) in its scenario.json, summary.json or report.json");
      s = j->is_string() ? j->get<std::string>() : j->dump();
    }
    if ((opt.logx && x <= 0) || (opt.logy && y <= 0))
      throw std::runtime_error(r.dir + ": a logarithmic axis needs positive values (got " + svg::tick_label(opt.logx && x <= 0 ? x : y) + ")");
    if (std::find(p.series.begin(), p.series.end(), s) == p.series.end())
      p.series.push_back(s);
    auto& a = acc[s][x];
    a.first += y;
    ++a.second;
  }
  for (const std::string& s : p.series)
    for (const auto& [x, a] : acc[s])
      p.points.push_back({s, x, a.first / a.second, a.second});
}

std::string points_table(const Plot& p, const PlotOptions& opt)
{
  std::ostringstream t;
  char buf[256];
  const std::string xl = opt.xlabel.empty() ? opt.x : opt.xlabel, yl = opt.ylabel.empty() ? opt.y : opt.ylabel;
  std::snprintf(buf, sizeof buf, "%-24s %16s %16s %5s\n", opt.series.empty() ? "series" : opt.series.c_str(), xl.c_str(), yl.c_str(), "runs");
  t << buf;
  for (const PlotPoint& pt : p.points) {
    std::snprintf(buf, sizeof buf, "%-24s %16.6g %16.6g %5d\n", pt.series.c_str(), pt.x, pt.y, pt.runs);
    t << buf;
  }
  return t.str();
}

/// Tick values: linear axes get nice steps (integers only for integer data: threads, PEs);
/// logarithmic ones decades (or the data's values within one decade).
std::vector<double> axis_ticks(double lo, double hi, bool log, const std::vector<double>& data)
{
  std::vector<double> v;
  if (!log) {
    const bool ints = !data.empty() && std::all_of(data.begin(), data.end(), [](double d) { return d == std::floor(d); });
    for (double t : svg::nice_ticks(lo, hi, 8))
      if (!ints || t == std::floor(t))
        v.push_back(t);
    return v;
  }
  for (int e = static_cast<int>(std::ceil(lo - 1e-9)); e <= static_cast<int>(std::floor(hi + 1e-9)); ++e)
    v.push_back(std::pow(10.0, e));
  if (v.size() < 2) {
    v = data;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return v;
}

/// Draws the plot: frame, axes with ticks and labels, one line per series with its legend.
class PlotSvg {
public:
  PlotSvg(const Plot& p, const PlotOptions& opt)
      : p_(p), opt_(opt), W_(opt.width), H_(opt.height), pw_(W_ - kL - kR), ph_(H_ - kT - kB)
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
    const double xpad = (x1_ - x0_) * 0.03;
    x0_ -= xpad, x1_ += xpad;
  }

  void frame()
  {
    s_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W_) << "\" height=\"" << num(H_) << "\" viewBox=\"0 0 " << num(W_)
       << ' ' << num(H_) << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
    s_ << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    const std::string title = opt_.title.empty() ? (opt_.y + " vs " + opt_.x) : opt_.title;
    s_ << "<text x=\"" << num(kL + pw_ / 2) << "\" y=\"25\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" << esc(title)
       << "</text>\n";
    s_ << "<rect x=\"" << num(kL) << "\" y=\"" << num(kT) << "\" width=\"" << num(pw_) << "\" height=\"" << num(ph_)
       << "\" fill=\"none\" stroke=\"black\"/>\n";
  }

  void axes()
  {
    std::vector<double> xs, ys;
    for (const PlotPoint& pt : p_.points)
      xs.push_back(pt.x), ys.push_back(pt.y);
    s_ << "<g class=\"axes\">\n";
    for (double v : axis_ticks(x0_, x1_, opt_.logx, xs)) {
      const double x = X(v);
      if (x < kL - 0.5 || x > kL + pw_ + 0.5)
        continue;
      s_ << "<line x1=\"" << num(x) << "\" y1=\"" << num(kT) << "\" x2=\"" << num(x) << "\" y2=\"" << num(kT + ph_)
         << "\" stroke=\"#e4e4e4\"/><text x=\"" << num(x) << "\" y=\"" << num(kT + ph_ + 18) << "\" text-anchor=\"middle\">"
         << svg::tick_label(v) << "</text>\n";
    }
    for (double v : axis_ticks(y0_, y1_, opt_.logy, ys)) {
      const double y = Y(v);
      if (y < kT - 0.5 || y > kT + ph_ + 0.5)
        continue;
      s_ << "<line x1=\"" << num(kL) << "\" y1=\"" << num(y) << "\" x2=\"" << num(kL + pw_) << "\" y2=\"" << num(y)
         << "\" stroke=\"#e4e4e4\"/><text x=\"" << num(kL - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
         << svg::tick_label(v) << "</text>\n";
    }
    s_ << "<text x=\"" << num(kL + pw_ / 2) << "\" y=\"" << num(H_ - 15) << "\" text-anchor=\"middle\">"
       << esc(opt_.xlabel.empty() ? opt_.x : opt_.xlabel) << (opt_.logx ? " (log)" : "") << "</text>\n";
    s_ << "<text transform=\"translate(18," << num(kT + ph_ / 2) << ") rotate(-90)\" text-anchor=\"middle\">"
       << esc(opt_.ylabel.empty() ? opt_.y : opt_.ylabel) << (opt_.logy ? " (log)" : "") << "</text>\n</g>\n";
  }

  void series(std::size_t i)
  {
    const char* c = kPalette[i % std::size(kPalette)];
    std::string pts;
    s_ << "<g class=\"series\" data-series=\"" << esc(p_.series[i]) << "\">\n";
    for (const PlotPoint& pt : p_.points)
      if (pt.series == p_.series[i])
        pts += (pts.empty() ? "" : " ") + num(X(pt.x)) + "," + num(Y(pt.y));
    s_ << "<polyline class=\"line\" points=\"" << pts << "\" fill=\"none\" stroke=\"" << c << "\" stroke-width=\"2\"/>\n";
    for (const PlotPoint& pt : p_.points)
      if (pt.series == p_.series[i])
        s_ << "<circle cx=\"" << num(X(pt.x)) << "\" cy=\"" << num(Y(pt.y)) << "\" r=\"3.5\" fill=\"" << c << "\"/>\n";
    const double ly = kT + 10 + 20 * static_cast<double>(i);
    s_ << "<line x1=\"" << num(kL + pw_ + 15) << "\" y1=\"" << num(ly) << "\" x2=\"" << num(kL + pw_ + 40) << "\" y2=\"" << num(ly)
       << "\" stroke=\"" << c << "\" stroke-width=\"2\"/><text x=\"" << num(kL + pw_ + 46) << "\" y=\"" << num(ly + 4) << "\">"
       << esc(p_.series[i]) << "</text>\n</g>\n";
  }

  /// Reference points: hollow diamonds in their series' colour, one legend entry below the series'.
  void references()
  {
    if (p_.references.empty())
      return;
    s_ << "<g class=\"references\">\n";
    for (const PlotPoint& pt : p_.references) {
      const auto it = std::find(p_.series.begin(), p_.series.end(), pt.series);
      const char* c = kPalette[static_cast<std::size_t>(it - p_.series.begin()) % std::size(kPalette)];
      s_ << diamond(X(pt.x), Y(pt.y), c) << "\n";
    }
    const double ly = kT + 10 + 20 * static_cast<double>(p_.series.size());
    s_ << diamond(kL + pw_ + 27, ly, "black") << "<text x=\"" << num(kL + pw_ + 46) << "\" y=\"" << num(ly + 4)
       << "\">published</text>\n</g>\n";
  }

  static std::string diamond(double x, double y, const char* colour)
  {
    const double r = 6;
    return "<polygon points=\"" + num(x) + "," + num(y - r) + " " + num(x + r) + "," + num(y) + " " + num(x) + "," + num(y + r) + " " +
           num(x - r) + "," + num(y) + "\" fill=\"white\" stroke=\"" + colour + "\" stroke-width=\"2\"/>";
  }

  const Plot& p_;
  const PlotOptions& opt_;
  const double W_, H_, pw_, ph_;
  double x0_ = 0, x1_ = 1, y0_ = 0, y1_ = 1;
  std::ostringstream s_;
};

} // namespace

Plot make_plot(const std::vector<RunDocs>& runs, const PlotOptions& opt)
{
  Plot p;
  average_points(runs, opt, p);
  p.table = points_table(p, opt);
  p.svg   = draw_plot(p, opt);
  return p;
}

std::string draw_plot(const Plot& p, const PlotOptions& opt) { return PlotSvg(p, opt).draw(); }

} // namespace shmemsim::analysis
