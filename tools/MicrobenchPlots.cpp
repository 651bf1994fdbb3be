// `shmemsim microbench`'s plots: latency, bandwidth and message rate against message size, and the
// collectives' latency against the number of PEs.
#include "tools/MicrobenchReport.hpp"

#include "analysis/AxisUnits.hpp"
#include "analysis/Plot.hpp"
#include "tools/SweepPlan.hpp"

#include <filesystem>

namespace shmemsim::tools {

namespace fs = std::filesystem;
using analysis::Quantity;

namespace {

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points; ///< x, y in base units
};

/// One plot; `logy` false draws a linear y axis whose ticks are plain numbers in the unit its label
/// names ("bandwidth (GB/s)"), short enough to stay clear of that label.
std::string draw(const std::vector<Series>& lines, const std::string& title, const std::string& xlabel, Quantity xq,
                 bool logx, const std::string& ylabel, Quantity yq, bool logy)
{
  analysis::Plot p;
  p.x_quantity = xq;
  p.y_quantity = yq;
  for (const Series& s : lines) {
    if (s.points.empty())
      continue;
    p.series.push_back(s.name);
    for (const auto& [x, y] : s.points)
      p.points.push_back({s.name, x, y, 1});
  }
  analysis::PlotOptions opt;
  opt.x = xlabel, opt.y = ylabel, opt.xlabel = xlabel, opt.ylabel = ylabel, opt.title = title;
  opt.logx = logx, opt.logy = logy;
  return analysis::draw_plot(p, opt);
}

Series pair_series(const MicrobenchFigures& f, const std::string& name, double SizeFigures::*field)
{
  Series s{name, {}};
  for (const SizeFigures& z : f.sizes)
    s.points.emplace_back(static_cast<double>(z.size), z.*field);
  return s;
}

Series multi_series(const PesFigures& p, double MultiPairSize::*field)
{
  Series s{"put, " + std::to_string(p.pes / 2) + " pairs summed", {}};
  for (const MultiPairSize& m : p.multi_pair)
    s.points.emplace_back(static_cast<double>(m.size), m.*field);
  return s;
}

} // namespace

std::vector<std::string> write_microbench_plots(const MicrobenchFigures& f, const MicrobenchSetup& s,
                                                const std::string& dir)
{
  const fs::path lat = fs::path(dir) / "latency.svg", bw = fs::path(dir) / "bandwidth.svg",
                 rate    = fs::path(dir) / "rate.svg";
  const std::string pair = " (PE 0 -> PE 1)";
  write_text(lat,
             draw({pair_series(f, "put", &SizeFigures::put_s), pair_series(f, "put + quiet", &SizeFigures::put_quiet_s),
                   pair_series(f, "get", &SizeFigures::get_s)},
                  "latency against message size" + pair, "message size", Quantity::Size, true, "time", Quantity::Time,
                  true));
  std::vector<Series> bws   = {pair_series(f, "put, 1 pair", &SizeFigures::put_bw_Bps),
                               pair_series(f, "get, 1 pair", &SizeFigures::get_bw_Bps)};
  std::vector<Series> rates = {pair_series(f, "put, 1 pair", &SizeFigures::put_rate_per_s)};
  for (const PesFigures& p : f.pes)
    if (p.pes > 2 && !p.multi_pair.empty()) {
      bws.push_back(multi_series(p, &MultiPairSize::put_bw_Bps));
      rates.push_back(multi_series(p, &MultiPairSize::put_rate_per_s));
    }
  const std::string window = " (window " + std::to_string(s.window) + ")";
  write_text(bw, draw(bws, "bandwidth against message size" + window, "message size", Quantity::Size, true, "bandwidth",
                      Quantity::Bandwidth, false));
  write_text(rate, draw(rates, "message rate against message size" + window, "message size", Quantity::Size, true,
                        "puts per second", Quantity::Rate, false));
  std::vector<std::string> out = {lat.string(), bw.string(), rate.string()};
  if (f.pes.empty())
    return out;
  std::vector<Series> coll = {{"barrier", {}}};
  const std::uint64_t size = f.pes.front().collectives.empty() ? 0 : f.pes.front().collectives.begin()->first;
  for (const std::string& c : microbench_collectives())
    coll.push_back({c + " (" + analysis::with_unit(static_cast<double>(size), Quantity::Size) + ")", {}});
  for (const PesFigures& p : f.pes) {
    coll[0].points.emplace_back(p.pes, p.barrier.mean_s);
    const auto at = p.collectives.find(size);
    for (std::size_t i = 0; at != p.collectives.end() && i < microbench_collectives().size(); ++i)
      if (const auto t = at->second.find(microbench_collectives()[i]); t != at->second.end())
        coll[i + 1].points.emplace_back(p.pes, t->second.mean_s);
  }
  const fs::path cp = fs::path(dir) / "collectives.svg";
  write_text(cp, draw(coll, "collective latency against the number of PEs", "PEs", Quantity::Plain, f.pes.size() > 2,
                      "time", Quantity::Time, true));
  out.push_back(cp.string());
  return out;
}

} // namespace shmemsim::tools
