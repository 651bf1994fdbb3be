// shmemsim: run a scenario (a JSON platform + workload) on the simulated network.
#include "analysis/Commands.hpp"
#include "scenarios/Run.hpp"
#include "scenarios/Scenario.hpp"

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
  run SCENARIO.json [--set KEY=VALUE ...] [--out DIR] [--trace LEVEL] [--quiet] [--perf]
        Run the scenario's workload on its simulated cluster and print the results.
        --set KEY=VALUE  override one key (dotted path; VALUE is JSON if it parses, else a string)
        --out DIR        write DIR/summary.json (deterministic), DIR/scenario.json (every key) and the
                         trace (DIR/trace.evt, trace.json for Perfetto, trace.paje; docs/traces.md)
        --trace LEVEL    trace detail with --out: off, ops (default, or output.trace), packets
        --quiet          print nothing but errors
        --perf           print wall-clock speed (model events and operations per second) on stderr
  validate SCENARIO.json [--set KEY=VALUE ...]
        Check the scenario and print its effective values.
  keys  List every scenario key with its default and meaning.
  presets
        List the built-in platform presets.

exit status: 0 ok, 1 a data check failed, 2 bad input, 3 deadlock, 4 simulated-time limit
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

void write_file(const std::filesystem::path& p, const std::string& text)
{
  std::ofstream f(p, std::ios::binary);
  f << text;
  if (!f)
    throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(errno));
}

int cmd_run(const Args& a)
{
  const Scenario sc = load_scenario(a.scenario, a.sets);
  if (!a.out.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.out, ec);
    if (ec)
      throw ScenarioError("--out " + a.out + ": cannot create directory: " + ec.message());
  }
  const shmemsim::traces::Level level = trace_level(sc, a.trace, !a.out.empty());
  std::unique_ptr<shmemsim::traces::Recorder> recorder;
  if (level != shmemsim::traces::Level::Off)
    recorder = std::make_unique<shmemsim::traces::Recorder>(level);
  const RunOutcome r = run_scenario(sc, recorder.get());
  if (!a.quiet) {
    std::printf("shmemsim: %s: %d endpoints on %d nodes, seed %llu\n", sc.source.c_str(), r.summary["endpoints"].get<int>(),
                r.summary["nodes"].get<int>(), static_cast<unsigned long long>(sc.seed));
    std::fputs(format_summary(r.summary).c_str(), stdout);
  }
  for (const std::string& e : r.errors)
    std::fprintf(stderr, "shmemsim: %s\n", e.c_str());
  if (!a.out.empty()) {
    const std::filesystem::path dir(a.out);
    write_file(dir / "summary.json", r.summary.dump(2) + "\n");
    write_file(dir / "scenario.json", sc.resolved.dump(2) + "\n");
    if (!a.quiet)
      std::printf("  %-26s %s\n", "summary written to", (dir / "summary.json").string().c_str());
    if (recorder != nullptr) {
      const std::vector<std::string> files = recorder->write(a.out);
      if (!a.quiet)
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
      std::fputs(kUsage, stdout);
      std::printf("\nanalysis commands (read a run directory's trace.evt and JSON files):\n%s", shmemsim::analysis::usage());
      return 0;
    }
    if (cmd == "--version") {
      std::puts("shmemsim 0.1.0");
      return 0;
    }
    if (cmd == "keys") {
      std::fputs(describe_keys().c_str(), stdout);
      return 0;
    }
    if (cmd == "presets") {
      for (const std::string& p : preset_names())
        std::puts(p.c_str());
      return 0;
    }
    if (shmemsim::analysis::is_command(cmd))
      return shmemsim::analysis::run_command(cmd, argc - 2, argv + 2);
    if (cmd == "run")
      return cmd_run(parse_args(cmd, argc, argv, 2));
    if (cmd == "validate") {
      const Args a      = parse_args(cmd, argc, argv, 2);
      const Scenario sc = load_scenario(a.scenario, a.sets);
      std::printf("%s\n", sc.resolved.dump(2).c_str());
      return 0;
    }
    usage_error("unknown command '" + cmd + "'; choose run, validate, keys, presets, report, diagram or plot");
  } catch (const ScenarioError& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
    return kExitBadInput;
  }
}
