#include "tools/MicrobenchReport.hpp"

#include "analysis/AxisUnits.hpp"
#include "analysis/Plot.hpp"
#include "scenarios/Scenario.hpp"
#include "tools/SweepPlan.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;

using json   = nlohmann::json;
namespace fs = std::filesystem;
using analysis::Quantity;
using analysis::with_unit;

namespace {

/// What each figure measures (docs/microbench.md), by its JSON name.
const std::vector<std::pair<const char*, const char*>>& descriptions()
{
  static const std::vector<std::pair<const char*, const char*>> d = {
      {"put_s", "mean time of one blocking shmem_putmem on PE 0 to PE 1 (returns when the source may be reused)"},
      {"put_quiet_s", "mean time of shmem_putmem + shmem_quiet (the data is at PE 1)"},
      {"get_s", "mean time of one blocking shmem_getmem from PE 1"},
      {"put_bw_Bps", "bytes per second of a stream of shmem_putmem_nbi, a shmem_quiet after every 64 puts"},
      {"put_rate_per_s", "puts per second of the same stream"},
      {"fetch_add_s", "mean time of one shmem_long_atomic_fetch_add (8 bytes)"},
      {"add_s", "mean time of one shmem_long_atomic_add (8 bytes, non-fetching: the call only)"},
      {"pingpong_s", "one-way latency of an 8-byte put: half the round trip of a put ping-pong between PE 0 and PE 1"},
  };
  return d;
}

double* size_field(SizeFigures& s, const std::string& name)
{
  if (name == "put")
    return &s.put_s;
  if (name == "put_quiet")
    return &s.put_quiet_s;
  if (name == "get")
    return &s.get_s;
  if (name == "put_bw")
    return &s.put_bw_Bps;
  if (name == "put_rate")
    return &s.put_rate_per_s;
  return nullptr;
}

} // namespace

MicrobenchFigures parse_microbench_output(const std::string& text, const std::string& source)
{
  std::map<std::uint64_t, SizeFigures> sizes;
  std::map<std::uint64_t, std::set<std::string>> seen;
  std::set<std::string> single;
  MicrobenchFigures f;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    std::istringstream l(line);
    std::string name, extra;
    unsigned long long size = 0;
    double v                = 0;
    if (!(l >> name >> size >> v) || (l >> extra) || !std::isfinite(v) || v <= 0)
      throw ScenarioError(source + ":" + std::to_string(n) + ": not a figure line 'FIGURE SIZE VALUE': '" + line + "'");
    SizeFigures& s = sizes[size];
    s.size         = size;
    if (double* field = size_field(s, name)) {
      *field = v;
      seen[size].insert(name);
    } else if (name == "fetch_add" || name == "add" || name == "pingpong") {
      (name == "fetch_add" ? f.fetch_add_s : name == "add" ? f.add_s : f.pingpong_s) = v;
      single.insert(name);
    } else {
      throw ScenarioError(source + ":" + std::to_string(n) + ": unknown figure '" + name + "'");
    }
  }
  if (single.size() != 3)
    throw ScenarioError(source + ": the fetch_add, add and pingpong figures are not all there (did the run finish?)");
  for (const auto& [size, names] : seen) {
    if (names.size() != 5)
      throw ScenarioError(source + ": size " + std::to_string(size) +
                          " lacks some of put, put_quiet, get, put_bw, put_rate");
    f.sizes.push_back(sizes[size]);
  }
  if (f.sizes.empty())
    throw ScenarioError(source + ": no figures per size (did the run finish?)");
  return f;
}

std::string microbench_table(const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  std::ostringstream o;
  char buf[256];
  o << "microbench: PE 0 -> PE 1, "
    << (s.nodes == 1   ? "on one node"
        : s.nodes == 2 ? "on two nodes"
                       : "nodes not recorded")
    << ", " << s.iterations << " iterations; simulated time of each timed loop (docs/microbench.md)\n";
  o << "scenario: " << s.scenario;
  for (const std::string& set : s.sets)
    o << " --set " << set;
  o << "\n\n";
  std::snprintf(buf, sizeof buf, "| %9s | %11s | %11s | %11s | %13s | %12s |\n", "size", "put", "put+quiet", "get",
                "put bandwidth", "message rate");
  o << buf << "|-----------|-------------|-------------|-------------|---------------|--------------|\n";
  for (const SizeFigures& z : f.sizes) {
    std::snprintf(buf, sizeof buf, "| %9s | %11s | %11s | %11s | %13s | %12s |\n",
                  with_unit(static_cast<double>(z.size), Quantity::Size).c_str(),
                  with_unit(z.put_s, Quantity::Time).c_str(), with_unit(z.put_quiet_s, Quantity::Time).c_str(),
                  with_unit(z.get_s, Quantity::Time).c_str(), with_unit(z.put_bw_Bps, Quantity::Bandwidth).c_str(),
                  with_unit(z.put_rate_per_s, Quantity::Rate).c_str());
    o << buf;
  }
  o << "\n8-byte atomics: fetch-add " << with_unit(f.fetch_add_s, Quantity::Time) << ", add (non-fetching) "
    << with_unit(f.add_s, Quantity::Time) << "; put ping-pong, one way: " << with_unit(f.pingpong_s, Quantity::Time)
    << "\n";
  return o.str();
}

json microbench_json(const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  json what = json::object();
  for (const auto& [k, d] : descriptions())
    what[k] = d;
  json sizes = json::array();
  for (const SizeFigures& z : f.sizes)
    sizes.push_back({{"size_bytes", z.size},
                     {"put_s", z.put_s},
                     {"put_quiet_s", z.put_quiet_s},
                     {"get_s", z.get_s},
                     {"put_bw_Bps", z.put_bw_Bps},
                     {"put_rate_per_s", z.put_rate_per_s}});
  return {
      {"scenario", s.scenario},
      {"sets", s.sets},
      {"iterations", s.iterations},
      {"pes", 2},
      {"pes_per_node", s.pes_per_node},
      {"nodes_used", s.nodes},
      {"platform", s.platform},
      {"measures",
       "simulated time of the benchmark's own timed loops (clock_gettime in the program), computation not simulated "
       "unless job.compute is set"},
      {"figures", what},
      {"sizes", sizes},
      {"atomics", {{"size_bytes", 8}, {"fetch_add_s", f.fetch_add_s}, {"add_s", f.add_s}}},
      {"pingpong_s", f.pingpong_s}};
}

namespace {

/// One log-log plot against message size; `lines`: series name and the figure of each size.
std::string size_plot(const MicrobenchFigures& f, const std::string& title, const std::string& ylabel, Quantity yq,
                      const std::vector<std::pair<std::string, double SizeFigures::*>>& lines)
{
  analysis::Plot p;
  p.x_quantity = Quantity::Size;
  p.y_quantity = yq;
  for (const auto& [name, field] : lines) {
    p.series.push_back(name);
    for (const SizeFigures& z : f.sizes)
      p.points.push_back({name, static_cast<double>(z.size), z.*field, 1});
  }
  analysis::PlotOptions opt;
  opt.x = "size_bytes", opt.y = ylabel, opt.xlabel = "message size", opt.ylabel = ylabel, opt.title = title;
  opt.logx = opt.logy = true;
  return analysis::draw_plot(p, opt);
}

} // namespace

std::vector<std::string> write_microbench_plots(const MicrobenchFigures& f, const std::string& dir)
{
  const fs::path lat = fs::path(dir) / "latency.svg", bw = fs::path(dir) / "bandwidth.svg",
                 rate = fs::path(dir) / "rate.svg";
  write_text(lat, size_plot(f, "latency against message size (PE 0 -> PE 1)", "time", Quantity::Time,
                            {{"put", &SizeFigures::put_s},
                             {"put + quiet", &SizeFigures::put_quiet_s},
                             {"get", &SizeFigures::get_s}}));
  write_text(bw, size_plot(f, "put bandwidth against message size", "bandwidth", Quantity::Bandwidth,
                           {{"put_nbi stream", &SizeFigures::put_bw_Bps}}));
  write_text(rate, size_plot(f, "message rate against message size", "puts per second", Quantity::Rate,
                             {{"put_nbi stream", &SizeFigures::put_rate_per_s}}));
  return {lat.string(), bw.string(), rate.string()};
}

} // namespace shmemsim::tools
