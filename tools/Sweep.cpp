#include "tools/Sweep.hpp"

#include "base/CommandLine.hpp"

#include "scenarios/Scenario.hpp"
#include "tools/SweepExecutor.hpp"
#include "tools/SweepPlan.hpp"
#include "tools/SweepResults.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;

namespace fs = std::filesystem;

namespace {

struct SweepArgs {
  SweepRequest req;
  int jobs = 1;
  std::string export_file;
  std::string collect;
  bool quiet = false;
};

/// The command's table, filling `a`.
base::CommandLine sweep_table(SweepArgs& a)
{
  base::CommandLine cl("shmemsim", "sweep");
  cl.synopsis("SCENARIO.json [--set KEY=VALUE ...] [-j N] [-o DIR] [--export FILE] [--trace LEVEL]\n"
              "        [--sim-time-limit T] [--quiet] [PROGRAM [ARGS...]]\n"
              "--collect DIR")
      .summary("Run the scenario's sweep (README, Sweeps): every point x repeat as a normal run, N at a time; "
               "results.csv, results.json, points.csv and plots in DIR.")
      .description(R"TXT(Run the scenario's sweep: every point of its `sweep` (scenario keys, program arguments,
environment variables; cartesian or zipped) x `repeat`, each a normal run (shmemsim run, or
shmemsim-run for a PROGRAM or job.program) in DIR/point-NNNN/ (default DIR: sweep-NAME for
NAME.json). Writes DIR/results.csv, results.json (one row per run: swept values, status, the
program's RESULT figures, summary.json's scalars), points.csv (mean/min/max over repeats) and
plots (sweep.plot). One line per finished run on stderr, with an ETA.
--collect DIR collects the results of DIR's runs (made elsewhere from --export's lines) as above.)TXT")
      .positional("SCENARIO.json", "the scenario with a `sweep` section", a.req.scenario)
      .rest("PROGRAM [ARGS...]",
            "the program every run runs with shmemsim-run, and its arguments (options end at PROGRAM)",
            [&a](const base::Given& g) {
              a.req.has_program = true;
              a.req.program     = g.values.front();
              a.req.args.assign(g.values.begin() + 1, g.values.end());
            })
      .option("--set", "KEY=VALUE", "override one scenario key (repeatable)",
              [&a](const base::Given& g) {
                if (g.value().find('=') == std::string::npos || g.value().front() == '=')
                  g.fail("--set " + g.value() + ": expected KEY=VALUE, e.g. --set platform.fabric.routing=adaptive");
                a.req.sets.push_back(g.value());
              })
      .option("-j, --jobs", "N", "N runs at once (default 1)",
              [&a](const base::Given& g) {
                long long n = 0;
                if (!base::parse_integer(g.value(), 1, SweepExecutor::kMaxJobs, n))
                  g.fail("-j " + g.value() + ": expected a number of runs at once, 1 to " +
                         std::to_string(SweepExecutor::kMaxJobs));
                a.jobs = static_cast<int>(n);
              })
      .option("-o, --out", "DIR", "where the runs and results go (default sweep-NAME)", a.req.out)
      .option("--export", "FILE", "write the runs' shell command lines to FILE (one per line) instead of running them",
              a.export_file)
      .option("--collect", "DIR", "collect the results of DIR's runs, made elsewhere from --export's lines", a.collect)
      .option("--trace", "LEVEL", "passed to every run: off, ops or packets",
              [&a](const base::Given& g) {
                if (g.value() != "off" && g.value() != "ops" && g.value() != "packets")
                  g.fail("--trace " + g.value() + ": expected off, ops or packets");
                a.req.trace = g.value();
              })
      .option("--sim-time-limit", "T", "passed to every run", a.req.time_limit)
      .flag("--report",
            "every run is analysed too (its report.json, as 'shmemsim report' writes it): plots reach its "
            "figures (report.KEY, e.g. report.interference.total_s)",
            a.req.report)
      .flag("--quiet", "no line on stderr for a run that succeeded", a.quiet);
  return cl;
}

/// The arguments after "sweep"; false after --help.
bool parse_sweep_args(int argc, char** argv, SweepArgs& a)
{
  const base::CommandLine cl = sweep_table(a);
  if (!cl.parse(argc, argv))
    return false;
  if (!a.collect.empty() && (!a.req.scenario.empty() || !a.export_file.empty()))
    cl.fail("--collect DIR takes no scenario and no --export: it reads DIR/sweep.json");
  if (a.collect.empty() && a.req.scenario.empty())
    cl.fail("missing SCENARIO.json");
  if (a.req.report && a.req.trace == "off")
    cl.fail("--report: needs the runs' traces (not --trace off)");
  if (a.req.out.empty() && a.collect.empty())
    a.req.out = "sweep-" + fs::path(a.req.scenario).stem().string();
  std::error_code ec;
  a.req.bin_dir = fs::read_symlink("/proc/self/exe", ec).parent_path().string();
  if (ec)
    throw ScenarioError("sweep: cannot find the shmemsim executable's directory: " + ec.message());
  return true;
}

std::string duration(double s)
{
  char buf[64];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}

/// Collects the runs' results, writes the tables and plots, reports failures.
int finish(const SweepIndex& x)
{
  const SweepResults res = SweepResults::collect(x);
  res.write();
  std::vector<std::string> plots;
  const std::vector<std::string> problems = draw_sweep_plots(res, plots);
  const fs::path d(x.dir);
  std::printf("shmemsim: sweep: %zu runs; results in %s, %s, %s\n", x.runs.size(), (d / "results.csv").c_str(),
              (d / "points.csv").c_str(), (d / "results.json").c_str());
  for (const std::string& p : plots)
    std::printf("shmemsim: sweep: plot %s\n", p.c_str());
  std::fflush(stdout);
  for (const std::string& p : problems)
    std::fprintf(stderr, "shmemsim: sweep: plot %s\n", p.c_str());
  for (std::size_t i = 0; i < res.runs().size(); ++i)
    if (res.runs()[i].status != 0)
      std::fprintf(stderr, "shmemsim: sweep: %s failed (%s): %s\n", x.runs[i].name.c_str(),
                   res.runs()[i].status < 0 ? "not run" : ("status " + std::to_string(res.runs()[i].status)).c_str(),
                   res.runs()[i].error.empty() ? "(nothing on stderr)" : res.runs()[i].error.c_str());
  if (res.failed() > 0)
    std::fprintf(stderr, "shmemsim: sweep: %zu of %zu runs failed\n", res.failed(), x.runs.size());
  return res.failed() > 0 || !problems.empty() ? 1 : 0;
}

int export_runs(const SweepIndex& x, const std::string& file)
{
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  for (const SweepRun& r : x.runs)
    out << r.shell() << "\n";
  if (!out.flush())
    throw ScenarioError("--export " + file + ": cannot write");
  std::printf("shmemsim: sweep: %zu runs written to %s (one shell line each); then: shmemsim sweep --collect %s\n",
              x.runs.size(), file.c_str(), x.dir.c_str());
  return 0;
}

} // namespace

std::string sweep_usage()
{
  SweepArgs a;
  return sweep_table(a).listing();
}

int sweep_command(int argc, char** argv)
{
  SweepArgs a;
  if (!parse_sweep_args(argc, argv, a))
    return 0;
  if (!a.collect.empty())
    return finish(SweepIndex::read(a.collect));
  const SweepIndex x = plan_sweep(a.req);
  prepare_sweep(x);
  if (!a.export_file.empty())
    return export_runs(x, a.export_file);
  if (!a.quiet)
    std::fprintf(stderr, "shmemsim: sweep: %zu runs in %s, %d at a time\n", x.runs.size(), x.dir.c_str(), a.jobs);
  const auto start = std::chrono::steady_clock::now();
  std::size_t done = 0;
  SweepExecutor(a.jobs).run(x.runs, [&](std::size_t i, int status, double wall) {
    ++done;
    if (a.quiet && status == 0)
      return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double eta     = elapsed / static_cast<double>(done) * static_cast<double>(x.runs.size() - done);
    std::string what     = status == 0 ? "done" : "FAILED (status " + std::to_string(status) + ")";
    std::string line     = first_error_line(x.runs[i].dir);
    if (line.empty())
      line = "(nothing on stderr)";
    std::fprintf(stderr, "[%zu/%zu] %s %s in %s, ETA %s%s%s\n", done, x.runs.size(), x.runs[i].name.c_str(),
                 what.c_str(), duration(wall).c_str(), duration(eta).c_str(), status == 0 ? "" : ": ",
                 status == 0 ? "" : line.c_str());
  });
  return finish(x);
}

} // namespace shmemsim::tools
