// The sweep's plots: analysis::make_plot (the plotter of `shmemsim plot`) over the sweep's runs.
#include "analysis/Plot.hpp"
#include "tools/PlotUnits.hpp"
#include "tools/SweepResults.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace shmemsim::tools {

using json   = nlohmann::json;
namespace fs = std::filesystem;

namespace {

/// A run's documents for the plotter: its variables' values first (a dotted name nests, so that
/// lookup finds it), then the program's figures, summary.json and scenario.json.
analysis::RunDocs run_docs(const SweepResults& res, std::size_t i)
{
  const SweepRun& run     = res.index().runs[i];
  const SweepRunResult& r = res.runs()[i];
  json values             = json::object();
  for (std::size_t k = 0; k < res.index().names.size(); ++k) {
    const std::string& name = res.index().names[k];
    json* at                = &values;
    std::size_t from        = 0;
    for (std::size_t dot = name.find('.'); dot != std::string::npos; from = dot + 1, dot = name.find('.', from)) {
      at = &(*at)[name.substr(from, dot - from)];
      if (!at->is_object())
        *at = json::object();
    }
    (*at)[name.substr(from)] = run.values[k];
  }
  analysis::RunDocs d;
  d.dir = run.dir;
  d.docs.emplace_back("values", values);
  d.docs.emplace_back("reported", r.reported);
  if (!r.summary.is_null())
    d.docs.emplace_back("summary", r.summary);
  // --report: the run's analysis, read here only (its figures are too many for results.csv).
  if (std::ifstream report(fs::path(run.dir) / "report.json"); report) {
    json doc = json::parse(report, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_discarded())
      d.docs.emplace_back("report", std::move(doc));
  }
  if (!r.scenario.is_null())
    d.docs.emplace_back("scenario", r.scenario);
  return d;
}

/// The default plot: the first program figure (else sim_time_s) against the first numeric
/// variable, one line per value of the next variable; none when no variable is numeric.
std::vector<SweepPlot> default_plots(const SweepResults& res)
{
  const SweepIndex& x = res.index();
  for (std::size_t k = 0; k < x.names.size(); ++k) {
    if (!x.numeric[k])
      continue;
    SweepPlot p;
    p.x = x.names[k];
    for (std::size_t s = 0; s < x.names.size(); ++s)
      if (s != k) {
        p.series = x.names[s];
        break;
      }
    return {p};
  }
  return {};
}

} // namespace

std::vector<std::string> draw_sweep_plots(const SweepResults& res, std::vector<std::string>& written)
{
  std::vector<std::string> problems;
  std::vector<analysis::RunDocs> runs;
  // Variables named apart from the keys they set keep those keys' units on the axes.
  const std::map<std::string, std::string> keys = analysis::sweep_variable_keys(res.index().scenario);
  for (std::size_t i = 0; i < res.runs().size(); ++i)
    if (res.runs()[i].status == 0) {
      runs.push_back(run_docs(res, i));
      runs.back().variable_keys = keys;
    }
  std::vector<SweepPlot> plots = res.index().plots.empty() ? default_plots(res) : res.index().plots;
  if (runs.empty())
    return problems;
  for (const SweepPlot& p : plots) {
    analysis::PlotOptions opt;
    opt.x      = p.x;
    opt.y      = !p.y.empty() ? p.y : !res.reported_names().empty() ? res.reported_names().front() : "sim_time_s";
    opt.series = p.series;
    opt.title  = p.title;
    opt.logx   = p.logx;
    opt.logy   = p.logy;
    opt.units  = scenario_unit_reader();
    opt.spread = p.errors == "stddev" ? analysis::Spread::StdDev : analysis::Spread::MinMax;
    const fs::path file = fs::path(res.index().dir) / p.file;
    try {
      const analysis::Plot plot = analysis::make_plot(runs, opt);
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << plot.svg;
      if (!out.flush())
        throw std::runtime_error("cannot write");
      written.push_back(file.string());
    } catch (const std::exception& e) {
      problems.push_back(file.string() + ": " + e.what());
    }
  }
  return problems;
}

} // namespace shmemsim::tools
