// shmemsim: run a scenario (a JSON platform + workload) on the simulated network.
#include "analysis/Commands.hpp"
#include "scenarios/RunBuilder.hpp"
#include "scenarios/TrafficWorkload.hpp"
#include "scenarios/Scenario.hpp"
#include "scenarios/Limits.hpp"
#include "scenarios/Microbench.hpp"
#include "scenarios/PlotUnits.hpp"
#include "scenarios/Sweep.hpp"

#include <unistd.h>

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

namespace {

const char* kUsage = R"(usage: shmemsim COMMAND [ARGS]

commands:
  run SCENARIO.json [--set KEY=VALUE ...] [--out DIR] [--trace LEVEL] [--sim-time-limit T] [--quiet] [--perf]
        Run the scenario's workload on its simulated cluster and print the results.
        --set KEY=VALUE  override one key (dotted path; VALUE is JSON if it parses, else a string)
        --out DIR        write DIR/summary.json (deterministic), DIR/scenario.json (every key) and the
                         trace (DIR/trace.evt, trace.json for Perfetto, trace.paje; docs/traces.md)
        --trace LEVEL    trace detail with --out: off, ops (default, or output.trace), packets
        --sim-time-limit T  stop at simulated time T (e.g. 10ms) with status 4, saying what still runs
        --quiet          print nothing but errors (no progress line either)
        --perf           print wall-clock speed (model events and operations per second) on stderr
  validate SCENARIO.json [--set KEY=VALUE ...]
        Check the scenario and print its effective values.
  keys
        List every scenario key with its default and meaning.
  presets
        List the built-in platform presets, one line each: name and description.
  calibrate -o HOST.json [--quick] [--runs N] [--keep DIR]
        Time compute kernels natively and counted, fit this machine's per-instruction, per-divide and
        per-operation-class latency costs, write a scenario of its cores (shmemsim-calibrate; bench/README.md).

On a terminal, a run lasting more than half a second of wall time shows a progress line on stderr.

exit status: 0 ok, 1 a data check failed, 2 bad input, 3 deadlock, 4 simulated-time limit,
  130/143 interrupted (docs/runs.md)
)";

[[noreturn]] void usage_error(const std::string& msg)
{
  std::fprintf(stderr, "shmemsim: %s (see 'shmemsim --help')\n", msg.c_str());
  std::exit(kExitBadInput);
}

struct Args {
  std::string scenario;
  std::vector<std::string> sets;
  std::string out;
  std::string trace;
  std::string time_limit;
  bool quiet = false;
  bool perf  = false;
};

Args parse_args(const std::string& cmd, int argc, char** argv, int first)
{
  Args a;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    auto value      = [&](const char* opt) -> std::string {
      const std::string eq = std::string(opt) + "=";
      if (arg.rfind(eq, 0) == 0)
        return arg.substr(eq.size());
      if (i + 1 >= argc)
        usage_error(std::string(opt) + " needs a value");
      return argv[++i];
    };
    if (arg == "--set" || arg.rfind("--set=", 0) == 0) {
      std::string kv = value("--set");
      if (kv.find('=') == std::string::npos || kv.front() == '=')
        usage_error("--set " + kv + ": expected KEY=VALUE, e.g. --set platform.fabric.routing=adaptive");
      a.sets.push_back(kv);
    } else if ((arg == "--out" || arg.rfind("--out=", 0) == 0) && cmd == "run") {
      a.out = value("--out");
    } else if ((arg == "--trace" || arg.rfind("--trace=", 0) == 0) && cmd == "run") {
      a.trace = value("--trace");
    } else if ((arg == "--sim-time-limit" || arg.rfind("--sim-time-limit=", 0) == 0) && cmd == "run") {
      a.time_limit = value("--sim-time-limit");
    } else if (arg == "--quiet" && cmd == "run") {
      a.quiet = true;
    } else if (arg == "--perf" && cmd == "run") {
      a.perf = true;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      usage_error(cmd + ": unknown option '" + arg + "'");
    } else if (a.scenario.empty()) {
      a.scenario = arg;
    } else {
      usage_error(cmd + ": unexpected argument '" + arg + "' (one scenario file per run)");
    }
  }
  if (a.scenario.empty())
    usage_error(cmd + ": missing SCENARIO.json");
  return a;
}

int cmd_run(const Args& a)
{
  const Scenario sc = load_scenario(a.scenario, a.sets);
  if (!a.out.empty()) { // before the run, not after it
    std::error_code ec;
    std::filesystem::create_directories(a.out, ec);
    if (ec)
      throw ScenarioError("--out " + a.out + ": cannot create directory: " + ec.message());
  }
  RunSettings settings;
  if (!a.time_limit.empty()) {
    try {
      settings.time_limit = parse_time(a.time_limit);
    } catch (const std::invalid_argument& e) {
      usage_error("--sim-time-limit " + a.time_limit + ": " + e.what());
    }
    settings.time_limit_text = a.time_limit;
  }
  const shmemsim::traces::Level level = trace_level(sc, a.trace, !a.out.empty());
  std::unique_ptr<shmemsim::traces::Recorder> recorder;
  if (level != shmemsim::traces::Level::Off)
    recorder = std::make_unique<shmemsim::traces::Recorder>(level, a.out);
  settings.recorder = recorder.get();
  settings.progress = !a.quiet;
  TrafficWorkload traffic(sc);
  Run run(sc, traffic, settings);
  const RunOutcome r = run.execute();
  if (!a.quiet) {
    std::printf("shmemsim: %s: %d endpoints on %d nodes, seed %llu\n", sc.source.c_str(), r.summary["endpoints"].get<int>(),
                r.summary["nodes"].get<int>(), static_cast<unsigned long long>(sc.seed));
    std::printf("  %-26s %s\n", "platform", describe_platform(sc.platform).c_str());
    std::fputs(format_summary(r.summary).c_str(), stdout);
  }
  for (const std::string& e : r.errors)
    std::fprintf(stderr, "shmemsim: %s\n", e.c_str());
  if (!a.out.empty()) {
    const std::vector<std::string> files = write_run_directory(a.out, r, sc, recorder.get());
    if (!a.quiet) {
      std::printf("  %-26s %s\n", "summary written to", (std::filesystem::path(a.out) / "summary.json").string().c_str());
      if (!files.empty())
        std::printf("  %-26s %s, %s (Perfetto), %s (Paje)\n", (std::string("trace (") + to_string(level) + ")").c_str(),
                    files[0].c_str(), files[1].c_str(), files[2].c_str());
    }
  }
  if (a.perf) {
    const double ev  = static_cast<double>(r.summary["events"].get<std::uint64_t>());
    const double ops = static_cast<double>(r.summary["operations"]["issued"].get<std::uint64_t>());
    std::fprintf(stderr,
                 "perf: wall %.3f s (simulation %.3f s): %.3f M model events/s, %.3f M operations/s in the simulation\n",
                 r.wall_seconds, r.run_wall_seconds, ev / r.run_wall_seconds / 1e6, ops / r.run_wall_seconds / 1e6);
  }
  std::fflush(stdout);
  return r.exit_code;
}

} // namespace

// ---- --help on each command, unknown options refused (issue 16)
namespace {
/// This command's part of kUsage: its line and the more indented lines after it.
std::string command_usage(const std::string& cmd)
{
  const std::string text = kUsage;
  std::size_t from       = text.find("\n  " + cmd + "\n");
  if (from == std::string::npos)
    from = text.find("\n  " + cmd + " ");
  if (from == std::string::npos)
    return "usage: shmemsim " + cmd + "\n";
  std::size_t to = text.find('\n', from + 1);
  while (to != std::string::npos && text.compare(to + 1, 4, "    ") == 0)
    to = text.find('\n', to + 1);
  return "usage: shmemsim " + text.substr(from + 3, to == std::string::npos ? std::string::npos : to - from - 2);
}

bool wants_help(int argc, char** argv)
{
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
      return true;
  return false;
}

/// keys, presets: no arguments at all.
void no_arguments(const std::string& cmd, int argc, char** argv)
{
  if (argc > 2) {
    const std::string arg = argv[2];
    usage_error(cmd + ": " + (!arg.empty() && arg[0] == '-' ? "unknown option '" : "unexpected argument '") + arg + "'");
  }
}
} // namespace
// ---- end of --help on each command

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

// ---- shmemsim calibrate: the script installed beside this program does the work.
namespace {
[[noreturn]] void exec_calibrate(int argc, char** argv)
{
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const std::string script         = (self.parent_path() / "shmemsim-calibrate").string();
  std::vector<char*> args{const_cast<char*>(script.c_str())};
  for (int i = 2; i < argc; ++i)
    args.push_back(argv[i]);
  args.push_back(nullptr);
  ::execv(script.c_str(), args.data());
  std::fprintf(stderr, "shmemsim: calibrate: cannot run %s: %s\n", script.c_str(), std::strerror(errno));
  std::exit(kExitBadInput);
}
} // namespace
// ---- end of shmemsim calibrate

int main(int argc, char** argv)
{
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  if (argc < 2)
    usage_error("missing command");
  const std::string cmd = argv[1];
  try {
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
      std::fputs(kUsage, stdout);
      std::printf("\nsweeps (README, Sweeps):\n%s", shmemsim::scenarios::sweep_usage());
      std::printf("%s", shmemsim::scenarios::limits_usage()); // shmemsim limits (docs/limits.md)
      std::printf("%s", shmemsim::scenarios::microbench_usage()); // shmemsim microbench (docs/microbench.md)
      std::printf("\nanalysis commands (read a run directory's trace.evt and JSON files):\n%s", shmemsim::analysis::usage());
      return 0;
    }
    if (cmd == "--version") {
      no_arguments(cmd, argc, argv);
      std::puts("shmemsim 0.1.0");
      return 0;
    }
    if ((cmd == "run" || cmd == "validate" || cmd == "keys" || cmd == "presets") && wants_help(argc, argv)) {
      std::fputs(command_usage(cmd).c_str(), stdout);
      return 0;
    }
    if (cmd == "keys") {
      no_arguments(cmd, argc, argv);
      std::fputs(describe_keys().c_str(), stdout);
      return 0;
    }
    if (cmd == "presets") {
      no_arguments(cmd, argc, argv);
      for (const std::string& p : preset_names())
        std::printf("%-10s %s\n", p.c_str(), preset_description(p).c_str());
      return 0;
    }
    if (cmd == "calibrate")
      exec_calibrate(argc, argv);
    if (shmemsim::analysis::is_command(cmd))
      return shmemsim::analysis::run_command(cmd, argc - 2, argv + 2, shmemsim::scenarios::scenario_unit_reader());
    if (cmd == "run")
      return cmd_run(parse_args(cmd, argc, argv, 2));
    if (cmd == "sweep") // scenarios/Sweep.cpp
      return shmemsim::scenarios::sweep_command(argc - 2, argv + 2);
    // ---- shmemsim limits (scenarios/Limits.cpp, docs/limits.md): a generated sweep over NIC limits
    if (cmd == "limits")
      return shmemsim::scenarios::limits_command(argc - 2, argv + 2);
    // ---- end of shmemsim limits
    // ---- shmemsim microbench (scenarios/Microbench.cpp, docs/microbench.md)
    if (cmd == "microbench")
      return shmemsim::scenarios::microbench_command(argc - 2, argv + 2);
    // ---- end of shmemsim microbench
    if (cmd == "validate") {
      const Args a      = parse_args(cmd, argc, argv, 2);
      const Scenario sc = load_scenario(a.scenario, a.sets);
      std::printf("%s\n", sc.resolved.dump(2).c_str());
      return 0;
    }
    usage_error("unknown command '" + cmd + "'; choose run, sweep, limits, microbench, validate, keys, presets, calibrate, report, diagram, plot, figure or compare");
  } catch (const ScenarioError& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
    return kExitBadInput;
  }
}
