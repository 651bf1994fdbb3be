// shmemsim: run a scenario (a JSON platform + workload) on the simulated network (its options into a
// run request: run/), and the other commands (sweeps, analysis, keys, presets, calibrate).
#include "analysis/Commands.hpp"
#include "base/CommandLine.hpp"
#include "run/Run.hpp"
#include "run/Simulated.hpp"
#include "run/TrafficWorkload.hpp"
#include "scenarios/Scenario.hpp"
#include "tools/Limits.hpp"
#include "tools/Microbench.hpp"
#include "tools/PlotUnits.hpp"
#include "tools/Sweep.hpp"
#include "tools/SweepSpec.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

using namespace shmemsim::scenarios;
namespace base = shmemsim::base;
namespace run  = shmemsim::run;
using run::kExitBadInput;

namespace {

[[noreturn]] void usage_error(const std::string& msg)
{
  std::fprintf(stderr, "shmemsim: %s (see 'shmemsim --help')\n", msg.c_str());
  std::exit(kExitBadInput);
}

/// A scenario for `run` or `validate`, its `sweep` object checked as `shmemsim sweep` checks it
/// (one run ignores the sweep, but a mistake in it is the scenario's and is said at once).
Scenario load_checked(const std::string& file, const std::vector<std::string>& sets)
{
  Scenario sc = load_scenario(file, sets);
  if (!sc.sweep.is_null())
    (void)shmemsim::tools::SweepSpec::parse(sc.sweep, sc.source);
  return sc;
}

struct Args {
  std::string scenario;
  std::vector<std::string> sets;
  std::string out;
  std::string trace;
  std::string time_limit;
  bool quiet  = false;
  bool perf   = false;
  bool report = false;
};

/// `shmemsim run` and `shmemsim validate` (`cmd`): the scenario and --set; run's other options.
base::CommandLine run_table(const std::string& cmd, Args& a)
{
  base::CommandLine cl("shmemsim", cmd);
  const bool run = cmd == "run";
  cl.synopsis(
        run ? "SCENARIO.json [--set KEY=VALUE ...] [--out DIR] [--trace LEVEL] [--sim-time-limit T] [--quiet] [--perf]"
            : "SCENARIO.json [--set KEY=VALUE ...]")
      .summary(run ? "Run the scenario's workload on its simulated cluster and print the results."
                   : "Check the scenario and print its effective values.")
      .positional("SCENARIO.json", "the platform and the workload (docs/runs.md; `shmemsim keys` lists every key)",
                  a.scenario)
      .unexpected("one scenario file per run")
      .option("--set", "KEY=VALUE",
              "override one key (dotted path; VALUE is JSON if it parses, else a string); repeatable",
              [&a](const base::Given& g) {
                if (g.value().find('=') == std::string::npos || g.value().front() == '=')
                  g.fail("--set " + g.value() + ": expected KEY=VALUE, e.g. --set platform.fabric.routing=adaptive");
                a.sets.push_back(g.value());
              });
  if (run)
    cl.description("Run the scenario's workload on its simulated cluster and print the results.\n"
                   "On a terminal, a run lasting more than half a second of wall time shows a progress line on stderr.")
        .option("--out", "DIR",
                "write DIR/summary.json (deterministic), DIR/scenario.json (every key) and the trace (DIR/trace.evt, "
                "trace.json for Perfetto, trace.paje; docs/traces.md)",
                a.out)
        .option("--trace", "LEVEL", "trace detail with --out: off, ops (default, or output.trace), packets", a.trace)
        .option("--sim-time-limit", "T", "stop at simulated time T (e.g. 10ms) with status 4, saying what still runs",
                a.time_limit)
        .flag("--report", "with --out: analyse the run when it ends (shmemsim report DIR: DIR/report.json)", a.report)
        .flag("--quiet", "print nothing but errors (no progress line either)", a.quiet)
        .flag("--perf", "print wall-clock speed (model events and operations per second) on stderr", a.perf)
        .epilogue("exit status: 0 ok, 1 a data check failed, 2 bad input, 3 deadlock, 4 simulated-time limit,\n"
                  "  130/143 interrupted (docs/runs.md)");
  else
    cl.description("Check the scenario and print its effective values (every key, as JSON).");
  return cl;
}

/// The arguments of run and validate; false after --help.
bool parse_args(const std::string& cmd, int argc, char** argv, Args& a)
{
  const base::CommandLine cl = run_table(cmd, a);
  if (!cl.parse(argc, argv))
    return false;
  if (a.scenario.empty())
    cl.fail("missing SCENARIO.json");
  if (a.report && a.out.empty())
    cl.fail("--report: needs --out DIR (the run directory it analyses)");
  if (a.report && a.trace == "off")
    cl.fail("--report: needs a trace (not --trace off)");
  return true;
}

/// --report: `shmemsim report DIR` on the finished run (status 2 if it cannot, the run's otherwise).
int run_report(const Args& a, int status)
{
  if (!std::filesystem::exists(std::filesystem::path(a.out) / "trace.evt")) {
    std::fprintf(stderr, "shmemsim: run: --report: %s/trace.evt was not written (the run wrote no trace)\n",
                 a.out.c_str());
    return status == 0 ? kExitBadInput : status;
  }
  std::vector<std::string> words = {a.out};
  if (a.quiet)
    words.push_back("--quiet");
  std::vector<char*> argv;
  for (std::string& w : words)
    argv.push_back(w.data());
  argv.push_back(nullptr);
  const int r = shmemsim::analysis::run_command("report", static_cast<int>(words.size()), argv.data(),
                                                shmemsim::tools::scenario_unit_reader());
  std::fflush(stdout);
  return status != 0 ? status : r;
}

int cmd_run(const Args& a)
{
  run::Request request;
  request.scenario       = load_checked(a.scenario, a.sets);
  request.command        = "run";
  request.out            = a.out;
  request.trace          = a.trace;
  request.sim_time_limit = a.time_limit;
  request.quiet          = a.quiet;
  run::TrafficWorkload traffic(request.scenario);
  run::SimulatedPlatform platform(request, run::place_endpoints(request.scenario), traffic,
                                  run::simulation_settings(request));
  const run::Finished f    = run::execute(request, platform);
  const run::RunOutcome& r = f.outcome;
  const Scenario& sc       = request.scenario;
  if (!a.quiet) {
    std::printf("shmemsim: %s: %d endpoints on %d nodes, seed %llu\n", sc.source.c_str(),
                r.summary["endpoints"].get<int>(), r.summary["nodes"].get<int>(),
                static_cast<unsigned long long>(sc.seed));
    std::printf("  %-26s %s\n", "platform", describe_platform(sc.platform).c_str());
    std::fputs(run::format_summary(r.summary).c_str(), stdout);
  }
  for (const std::string& e : r.errors)
    std::fprintf(stderr, "shmemsim: %s\n", e.c_str());
  if (!f.write_error.empty())
    std::fprintf(stderr, "shmemsim: %s\n", f.write_error.c_str());
  else if (!a.out.empty() && !a.quiet) {
    std::printf("  %-26s %s\n", "summary written to", (std::filesystem::path(a.out) / "summary.json").string().c_str());
    if (!f.trace_files.empty())
      std::printf("  %-26s %s, %s (Perfetto), %s (Paje)\n", ("trace (" + platform.trace_description() + ")").c_str(),
                  f.trace_files[0].c_str(), f.trace_files[1].c_str(), f.trace_files[2].c_str());
  }
  if (a.perf) {
    const double ev  = static_cast<double>(r.summary["events"].get<std::uint64_t>());
    const double ops = static_cast<double>(r.summary["operations"]["issued"].get<std::uint64_t>());
    std::fprintf(
        stderr, "perf: wall %.3f s (simulation %.3f s): %.3f M model events/s, %.3f M operations/s in the simulation\n",
        r.wall_seconds, r.run_wall_seconds, ev / r.run_wall_seconds / 1e6, ops / r.run_wall_seconds / 1e6);
  }
  std::fflush(stdout);
  if (a.report && f.write_error.empty())
    return run_report(a, f.status());
  return f.status();
}

} // namespace

namespace {
/// keys, presets, --version: no arguments at all.
base::CommandLine no_arguments(const std::string& cmd, const std::string& summary)
{
  base::CommandLine cl("shmemsim", cmd);
  cl.summary(summary).description(summary);
  return cl;
}

base::CommandLine keys_table()
{
  return no_arguments("keys", "List every scenario key with its default and meaning.");
}
base::CommandLine presets_table()
{
  return no_arguments("presets", "List the built-in platform presets, one line each: name and description.");
}

struct CalibrateArgs {
  std::string out, runs, keep;
  bool quick = false;
};

/// shmemsim calibrate: checked here, then run by the script installed beside this program.
base::CommandLine calibrate_table(CalibrateArgs& a)
{
  base::CommandLine cl("shmemsim", "calibrate");
  cl.synopsis("-o HOST.json [--quick] [--runs N] [--keep DIR]")
      .summary(
          "Time compute kernels natively and counted, fit this machine's per-instruction, per-divide and "
          "per-operation-class latency costs, write a scenario of its cores (shmemsim-calibrate; bench/README.md).")
      .description("Times compute kernels natively and counted, fits this machine's platform.latency.* (chain\n"
                   "latencies per operation class), platform.divide_time and platform.instruction_time, prints the\n"
                   "table, and writes HOST.json: a scenario of this machine's cores (on the qdr-16 preset's network)\n"
                   "for shmemsim-run --scenario HOST.json (bench/README.md gives the method).")
      .option("-o, --output", "FILE", "the scenario to write", a.out)
      .flag("--quick", "small problem sizes, one native run each (a smoke test: the figures are noisy)", a.quick)
      .option("--runs", "N", "native runs per kernel, the fastest counts (default 15)",
              [&a](const base::Given& g) {
                long long n = 0;
                if (!base::parse_integer(g.value(), 1, 1000000, n))
                  g.fail("--runs " + g.value() + ": expected a positive integer");
                a.runs = g.value();
              })
      .option("--keep", "DIR", "build and run in DIR and keep it (default: a temporary directory)", a.keep);
  return cl;
}

[[noreturn]] void exec_calibrate(const CalibrateArgs& a)
{
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::vector<std::string> words{(self.parent_path() / "shmemsim-calibrate").string(), "-o", a.out};
  if (a.quick)
    words.push_back("--quick");
  if (!a.runs.empty())
    words.insert(words.end(), {"--runs", a.runs});
  if (!a.keep.empty())
    words.insert(words.end(), {"--keep", a.keep});
  std::vector<char*> args;
  for (std::string& w : words)
    args.push_back(w.data());
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  std::fprintf(stderr, "shmemsim: calibrate: cannot run %s: %s\n", args[0], std::strerror(errno));
  std::exit(kExitBadInput);
}

int calibrate_command(int argc, char** argv)
{
  CalibrateArgs a;
  const base::CommandLine cl = calibrate_table(a);
  if (!cl.parse(argc, argv))
    return 0;
  if (a.out.empty())
    cl.fail("missing -o FILE (the scenario to write)");
  exec_calibrate(a);
}

/// `shmemsim --help`: every command's synopsis and summary; `shmemsim COMMAND --help` gives the rest.
void print_help()
{
  Args a;
  CalibrateArgs c;
  std::printf("usage: shmemsim COMMAND [ARGS]\n\n"
              "commands ('shmemsim COMMAND --help' prints a command's arguments and options):\n%s%s%s%s%s",
              run_table("run", a).listing().c_str(), run_table("validate", a).listing().c_str(),
              keys_table().listing().c_str(), presets_table().listing().c_str(), calibrate_table(c).listing().c_str());
  std::printf("\nsweeps (README, Sweeps):\n%s%s%s", shmemsim::tools::sweep_usage().c_str(),
              shmemsim::tools::limits_usage().c_str(), shmemsim::tools::microbench_usage().c_str());
  std::printf("\nanalysis commands (read a run directory's trace.evt and JSON files):\n%s",
              shmemsim::analysis::usage().c_str());
  std::fputs(R"TXT(
options, the same for every command (README, "Command-line conventions"): --opt VALUE or --opt=VALUE;
  -j N or -jN for one-letter options; -- ends the options; -h or --help prints the command's usage.
  A mistake is one line on stderr naming the command and the option, and status 2.

On a terminal, a run lasting more than half a second of wall time shows a progress line on stderr.

exit status: 0 ok, 1 a data check failed, 2 bad input, 3 deadlock, 4 simulated-time limit,
  130/143 interrupted (docs/runs.md)
)TXT",
             stdout);
}
} // namespace

namespace {
/// Ctrl-C, kill: one line and status 128 + signal (130, 143), not SimGrid's silent status 1.
void on_interrupt(int sig)
{
  const char* msg = sig == SIGINT ? "shmemsim: interrupted by SIGINT; the run did not finish\n"
                                  : "shmemsim: interrupted by SIGTERM; the run did not finish\n";
  (void)!write(2, msg, std::strlen(msg));
  _exit(128 + sig);
}
} // namespace

int main(int argc, char** argv)
{
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  if (argc < 2)
    usage_error("missing command");
  const std::string cmd = argv[1];
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      if (argc > 2)
        usage_error(std::string(argv[2]).rfind('-', 0) == 0 ? "unknown option '" + std::string(argv[2]) + "'"
                                                            : "unexpected argument '" + std::string(argv[2]) + "'");
      print_help();
      return 0;
    }
    if (cmd == "--version") {
      if (argc > 2)
        usage_error(std::string(argv[2]).rfind('-', 0) == 0 ? "unknown option '" + std::string(argv[2]) + "'"
                                                            : "unexpected argument '" + std::string(argv[2]) + "'");
      std::printf("shmemsim %s\n", base::version());
      return 0;
    }
    if (cmd == "keys") {
      if (keys_table().parse(argc - 2, argv + 2))
        std::fputs(describe_keys().c_str(), stdout);
      return 0;
    }
    if (cmd == "presets") {
      if (presets_table().parse(argc - 2, argv + 2))
      {
        int width = 0; // the longest name, so the descriptions line up
        for (const std::string& p : preset_names())
          width = std::max(width, static_cast<int>(p.size()));
        for (const std::string& p : preset_names())
          std::printf("%-*s  %s\n", width, p.c_str(), preset_description(p).c_str());
      }
      return 0;
    }
    if (cmd == "calibrate")
      return calibrate_command(argc - 2, argv + 2);
    if (shmemsim::analysis::is_command(cmd))
      return shmemsim::analysis::run_command(cmd, argc - 2, argv + 2, shmemsim::tools::scenario_unit_reader());
    if (cmd == "run") {
      Args a;
      return parse_args(cmd, argc - 2, argv + 2, a) ? cmd_run(a) : 0;
    }
    if (cmd == "sweep") // tools/Sweep.cpp
      return shmemsim::tools::sweep_command(argc - 2, argv + 2);
    if (cmd == "limits") // tools/Limits.cpp, docs/limits.md: a generated sweep over NIC limits
      return shmemsim::tools::limits_command(argc - 2, argv + 2);
    if (cmd == "microbench") // tools/Microbench.cpp, docs/microbench.md
      return shmemsim::tools::microbench_command(argc - 2, argv + 2);
    if (cmd == "validate") {
      Args a;
      if (!parse_args(cmd, argc - 2, argv + 2, a))
        return 0;
      const Scenario sc = load_checked(a.scenario, a.sets);
      std::printf("%s\n", sc.resolved.dump(2).c_str());
      return 0;
    }
    usage_error(
        "unknown command '" + cmd +
        "'; choose run, sweep, limits, microbench, validate, keys, presets, calibrate, report, diagram, plot, figure or compare");
  } catch (const ScenarioError& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
    return kExitBadInput;
  }
}
