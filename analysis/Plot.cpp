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
  for (const char* stem : {"summary", "report", "scenario"}) {
    const fs::path p = fs::path(dir) / (std::string(stem) + ".json");
    if (!fs::exists(p))
      continue;
    std::ifstream in(p);
    json j = json::parse(in, nullptr, false);
    if (j.is_discarded())
      throw std::runtime_error(p.string() + ": not valid JSON");
    r.docs.emplace_back(stem, std::move(j));
  }
  if (r.docs.empty())
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

} // namespace

Plot make_plot(const std::vector<RunDocs>& runs, const PlotOptions& opt)
{
  Plot p;
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

  // The table.
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
    p.table = t.str();
  }

  // The SVG.
  const double W = opt.width, H = opt.height, L = 80, R = 190, T = 45, B = 60;
  const double pw = W - L - R, ph = H - T - B;
  auto tx = [&](double v) { return opt.logx ? std::log10(v) : v; };
  auto ty = [&](double v) { return opt.logy ? std::log10(v) : v; };
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (!p.points.empty()) {
    x0 = x1 = tx(p.points[0].x);
    y0 = y1 = ty(p.points[0].y);
    for (const PlotPoint& pt : p.points) {
      x0 = std::min(x0, tx(pt.x)), x1 = std::max(x1, tx(pt.x));
      y0 = std::min(y0, ty(pt.y)), y1 = std::max(y1, ty(pt.y));
    }
  }
  if (!opt.logy && y0 > 0)
    y0 = 0; // linear y axes start at zero, as the paper's figures do
  if (x1 - x0 <= 0)
    x0 -= 0.5, x1 += 0.5;
  if (y1 - y0 <= 0)
    y1 += std::max(1.0, std::fabs(y1) * 0.1);
  const double ypad = (y1 - y0) * 0.05;
  y1 += ypad;
  const double xpad = (x1 - x0) * 0.03;
  x0 -= xpad, x1 += xpad;
  auto X = [&](double v) { return L + (tx(v) - x0) * pw / (x1 - x0); };
  auto Y = [&](double v) { return T + ph - (ty(v) - y0) * ph / (y1 - y0); };

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W) << "\" height=\"" << num(H) << "\" viewBox=\"0 0 " << num(W) << ' '
    << num(H) << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  const std::string title = opt.title.empty() ? (opt.y + " vs " + opt.x) : opt.title;
  s << "<text x=\"" << num(L + pw / 2) << "\" y=\"25\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">" << esc(title)
    << "</text>\n";
  s << "<rect x=\"" << num(L) << "\" y=\"" << num(T) << "\" width=\"" << num(pw) << "\" height=\"" << num(ph)
    << "\" fill=\"none\" stroke=\"black\"/>\n";

  // Ticks: linear axes get nice steps; logarithmic ones decades (or the data's values within one).
  auto ticks = [&](double lo, double hi, bool log, const std::vector<double>& data) {
    std::vector<double> v;
    if (!log) {
      // Integer data (threads, PEs) gets integer ticks only.
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
  };
  std::vector<double> xs, ys;
  for (const PlotPoint& pt : p.points)
    xs.push_back(pt.x), ys.push_back(pt.y);
  s << "<g class=\"axes\">\n";
  for (double v : ticks(x0, x1, opt.logx, xs)) {
    const double x = X(v);
    if (x < L - 0.5 || x > L + pw + 0.5)
      continue;
    s << "<line x1=\"" << num(x) << "\" y1=\"" << num(T) << "\" x2=\"" << num(x) << "\" y2=\"" << num(T + ph)
      << "\" stroke=\"#e4e4e4\"/><text x=\"" << num(x) << "\" y=\"" << num(T + ph + 18) << "\" text-anchor=\"middle\">"
      << svg::tick_label(v) << "</text>\n";
  }
  for (double v : ticks(y0, y1, opt.logy, ys)) {
    const double y = Y(v);
    if (y < T - 0.5 || y > T + ph + 0.5)
      continue;
    s << "<line x1=\"" << num(L) << "\" y1=\"" << num(y) << "\" x2=\"" << num(L + pw) << "\" y2=\"" << num(y)
      << "\" stroke=\"#e4e4e4\"/><text x=\"" << num(L - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
      << svg::tick_label(v) << "</text>\n";
  }
  s << "<text x=\"" << num(L + pw / 2) << "\" y=\"" << num(H - 15) << "\" text-anchor=\"middle\">"
    << esc(opt.xlabel.empty() ? opt.x : opt.xlabel) << (opt.logx ? " (log)" : "") << "</text>\n";
  s << "<text transform=\"translate(18," << num(T + ph / 2) << ") rotate(-90)\" text-anchor=\"middle\">"
    << esc(opt.ylabel.empty() ? opt.y : opt.ylabel) << (opt.logy ? " (log)" : "") << "</text>\n</g>\n";

  for (std::size_t i = 0; i < p.series.size(); ++i) {
    const char* c = kPalette[i % std::size(kPalette)];
    std::string pts;
    s << "<g class=\"series\" data-series=\"" << esc(p.series[i]) << "\">\n";
    for (const PlotPoint& pt : p.points)
      if (pt.series == p.series[i])
        pts += (pts.empty() ? "" : " ") + num(X(pt.x)) + "," + num(Y(pt.y));
    s << "<polyline class=\"line\" points=\"" << pts << "\" fill=\"none\" stroke=\"" << c << "\" stroke-width=\"2\"/>\n";
    for (const PlotPoint& pt : p.points)
      if (pt.series == p.series[i])
        s << "<circle cx=\"" << num(X(pt.x)) << "\" cy=\"" << num(Y(pt.y)) << "\" r=\"3.5\" fill=\"" << c << "\"/>\n";
    const double ly = T + 10 + 20 * static_cast<double>(i);
    s << "<line x1=\"" << num(L + pw + 15) << "\" y1=\"" << num(ly) << "\" x2=\"" << num(L + pw + 40) << "\" y2=\"" << num(ly)
      << "\" stroke=\"" << c << "\" stroke-width=\"2\"/><text x=\"" << num(L + pw + 46) << "\" y=\"" << num(ly + 4) << "\">"
      << esc(p.series[i]) << "</text>\n</g>\n";
  }
  s << "</svg>\n";
  p.svg = s.str();
  return p;
}

} // namespace shmemsim::analysis
