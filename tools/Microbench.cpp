#include "tools/Microbench.hpp"

#include "base/CommandLine.hpp"

#include "tools/MicrobenchReport.hpp"
#include "tools/PlotUnits.hpp"
#include "scenarios/Scenario.hpp"
#include "tools/SweepExecutor.hpp"
#include "tools/SweepPlan.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;
using shmemsim::parse_size;

using json   = nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxSize = std::uint64_t{64} << 20;

struct MicrobenchArgs {
  std::string scenario, out;
  std::vector<std::string> sets;
  std::uint64_t min = 8, max = std::uint64_t{1} << 20;
  long iterations  = 100;
  int pes_per_node = 1;
  bool quiet       = false;
};

/// One end of --sizes: a size with a unit, or a number of bytes.
std::uint64_t size_arg(const base::Given& g, const std::string& range, const std::string& text)
{
  try {
    if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos && text.size() < 19)
      return std::stoull(text);
    return parse_size(text);
  } catch (const std::invalid_argument& e) {
    g.fail("--sizes " + range + ": " + e.what());
  }
}

void parse_sizes(const base::Given& g, MicrobenchArgs& a)
{
  const std::string& v   = g.value();
  const std::size_t dots = v.find("..");
  a.min                  = size_arg(g, v, v.substr(0, dots));
  a.max                  = dots == std::string::npos ? a.min : size_arg(g, v, v.substr(dots + 2));
  if (a.min < 1 || a.max > kMaxSize)
    g.fail("--sizes " + v + ": sizes go from 1B to 64MiB");
  if (a.min > a.max)
    g.fail("--sizes " + v + ": the first size is larger than the last (e.g. 8B..1MiB)");
}

long int_arg(const base::Given& g, long lo, long hi)
{
  long long n = 0;
  if (!base::parse_integer(g.value(), lo, hi, n))
    g.fail(g.name + " " + g.value() + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<long>(n);
}

/// The command's table, filling `a`.
base::CommandLine microbench_table(MicrobenchArgs& a)
{
  base::CommandLine cl("shmemsim", "microbench");
  cl.synopsis("[--scenario FILE.json] [--set KEY=VALUE ...] [-o DIR] [--sizes MIN..MAX]\n"
              "             [--iterations N] [--pes-per-node 1|2] [--quiet]")
      .summary("OSU-style microbenchmarks between two PEs (docs/microbench.md): latency, bandwidth and message rate "
               "against message size, AMO latency.")
      .description(R"TXT(OSU-style microbenchmarks between two PEs, in one run (docs/microbench.md): put, put + quiet
and get latency, put bandwidth and message rate against message size (doubling from MIN to
MAX), 8-byte fetch-add and add latency, and the one-way latency of a put ping-pong. Every figure
is simulated time of the benchmark's own timed loop (computation not simulated: job.compute=none
unless --set says otherwise). Builds the shipped program with shmemsim-cc and runs it with
shmemsim-run, PE 0 and PE 1 on two nodes (--pes-per-node 2: on one node). Prints the table and
writes DIR/microbench.md, microbench.json, latency.svg, bandwidth.svg and rate.svg (log-log
against size), and the run's directory DIR/run.)TXT")
      .option("--scenario", "FILE.json", "the platform and job settings (default: the embedded qdr-16 platform)",
              a.scenario)
      .option("--set", "KEY=VALUE", "override one scenario key (repeatable)",
              [&a](const base::Given& g) {
                if (g.value().find('=') == std::string::npos || g.value().front() == '=')
                  g.fail("--set " + g.value() + ": expected KEY=VALUE, e.g. --set platform.fabric.link_latency=1us");
                a.sets.push_back(g.value());
              })
      .option("-o, --out", "DIR", "where to write (default microbench, or microbench-NAME for --scenario NAME.json)",
              a.out)
      .option("--sizes", "MIN..MAX",
              "message sizes, doubling from MIN while at most MAX (default 8B..1MiB, at most 64MiB)",
              [&a](const base::Given& g) { parse_sizes(g, a); })
      .option("--iterations", "N",
              "timed operations per latency figure (default 100); the bandwidth stream of each size is up to that many "
              "windows of 64 puts, at most 4 MiB beyond the first window",
              [&a](const base::Given& g) { a.iterations = int_arg(g, 1, 1000000); })
      .option("--pes-per-node", "1|2", "1 (default): PE 0 and PE 1 on two nodes; 2: on one node",
              [&a](const base::Given& g) { a.pes_per_node = static_cast<int>(int_arg(g, 1, 2)); })
      .flag("--quiet", "no progress line on stderr", a.quiet)
      .unexpected("the scenario is given with --scenario FILE.json");
  return cl;
}

/// The arguments after "microbench"; false after --help.
bool parse_microbench_args(int argc, char** argv, MicrobenchArgs& a)
{
  const base::CommandLine cl = microbench_table(a);
  if (!cl.parse(argc, argv))
    return false;
  if (!a.scenario.empty() && !fs::is_regular_file(a.scenario))
    cl.fail("--scenario " + a.scenario + ": no such file");
  if (a.out.empty())
    a.out = a.scenario.empty() ? "microbench" : "microbench-" + fs::path(a.scenario).stem().string();
  return true;
}

/// The directory holding shmemsim's executables (the one this program runs from).
fs::path bin_dir()
{
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw ScenarioError("microbench: cannot find the shmemsim executable's directory: " + ec.message());
  return self.parent_path();
}

/// Runs one command in `dir` (its output in DIR/stdout.txt and stderr.txt); returns its status.
int run_step(const std::string& dir, std::vector<std::string> argv)
{
  fs::create_directories(dir);
  SweepRun r;
  r.name     = fs::path(dir).filename().string();
  r.dir      = dir;
  r.argv     = std::move(argv);
  int status = -1;
  SweepExecutor(1).run({r}, [&](std::size_t, int st, double) { status = st; });
  return status;
}

/// The shmemsim-run command line of the benchmark.
std::vector<std::string> run_command_line(const MicrobenchArgs& a, const fs::path& bin, const fs::path& dir,
                                          const fs::path& program)
{
  std::vector<std::string> v = {(bin / "shmemsim-run").string(), "-np", "2", "--pes-per-node",
                                std::to_string(a.pes_per_node)};
  if (!a.scenario.empty())
    v.insert(v.end(), {"--scenario", fs::absolute(a.scenario).string()});
  v.insert(v.end(), {"--set", "job.compute=none"});
  for (const std::string& s : a.sets)
    v.insert(v.end(), {"--set", s});
  v.insert(v.end(), {"--out", (dir / "run").string(), "--trace", "off", "--quiet", "--", program.string(),
                     std::to_string(a.iterations), std::to_string(a.min), std::to_string(a.max)});
  return v;
}

std::string read_text(const fs::path& p)
{
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

json read_json(const fs::path& p)
{
  std::ifstream in(p, std::ios::binary);
  return in ? json::parse(in, nullptr, false) : json(nullptr);
}

/// The platform's key figures from the run's resolved scenario.json (with base-unit copies).
json platform_figures(const fs::path& run_dir)
{
  const json sc = read_json(run_dir / "scenario.json");
  json out      = json::object();
  if (!sc.is_object() || !sc.contains("platform"))
    return out;
  const json& p                    = sc["platform"];
  out["preset"]                    = p.contains("preset") && p["preset"].is_string() ? p["preset"] : json("");
  const analysis::UnitReader units = scenario_unit_reader();
  for (const char* key :
       {"fabric.link_bandwidth", "fabric.link_latency", "fabric.switch_latency", "fabric.mtu", "nic.pcie_bandwidth"}) {
    const std::string k(key);
    const std::size_t dot = k.find('.');
    if (!p.contains(k.substr(0, dot)) || !p[k.substr(0, dot)].contains(k.substr(dot + 1)))
      continue;
    const json& v          = p[k.substr(0, dot)][k.substr(dot + 1)];
    const std::string name = k.substr(dot + 1);
    out[name]              = v;
    if (const auto u = units("platform." + k, v))
      out[name + (u->quantity == analysis::Quantity::Time   ? "_s"
                  : u->quantity == analysis::Quantity::Size ? "_bytes"
                                                            : "_Bps")] = u->base;
  }
  return out;
}

/// The nodes PE 0 and PE 1 ran on, from the run's resolved job keys: one when both fit a node in
/// block placement, else two.
int nodes_used(const json& sc)
{
  if (!sc.is_object() || !sc.contains("job") || !sc["job"].is_object())
    return 0;
  const json& job = sc["job"];
  const int ppn =
      job.contains("pes_per_node") && job["pes_per_node"].is_number_integer() ? job["pes_per_node"].get<int>() : 0;
  const bool block = job.value("placement", json("block")) == "block";
  return ppn <= 0 ? 0 : block && ppn >= 2 ? 1 : 2;
}

/// A failed step: its first error line (and where the rest is); returns the status to exit with.
int step_failed(const char* what, const std::string& dir, int status)
{
  const std::string line = first_error_line(dir);
  std::fprintf(stderr, "shmemsim: microbench: %s failed (status %d)%s%s; see %s/stderr.txt\n", what, status,
               line.empty() ? "" : ": ", line.c_str(), dir.c_str());
  return status == 2 ? 2 : 1;
}

} // namespace

std::string microbench_usage()
{
  MicrobenchArgs a;
  return microbench_table(a).listing();
}

int microbench_command(int argc, char** argv)
{
  MicrobenchArgs a;
  if (!parse_microbench_args(argc, argv, a))
    return 0;
  const fs::path bin    = bin_dir();
  const fs::path source = bin.parent_path() / "share" / "shmemsim" / "microbench" / "shmem_microbench.c";
  if (!fs::exists(source))
    throw ScenarioError("microbench: the benchmark program is not installed: no " + source.string());
  std::error_code ec;
  fs::create_directories(a.out, ec);
  if (ec)
    throw ScenarioError("microbench: -o " + a.out + ": cannot create the directory: " + ec.message());
  const fs::path dir = fs::absolute(a.out), program = dir / "build" / "shmem_microbench";
  if (!a.quiet)
    std::fprintf(stderr, "shmemsim: microbench: building %s, then running it in %s\n", source.c_str(),
                 (dir / "run").c_str());
  if (int st = run_step((dir / "build").string(),
                        {(bin / "shmemsim-cc").string(), "-O2", "-o", program.string(), source.string()});
      st != 0)
    return step_failed("building the benchmark", (dir / "build").string(), st);
  if (int st = run_step((dir / "run").string(), run_command_line(a, bin, dir, program)); st != 0)
    return step_failed("the run", (dir / "run").string(), st);
  const MicrobenchFigures f =
      parse_microbench_output(read_text(dir / "run" / "stdout.txt"), (dir / "run" / "stdout.txt").string());
  MicrobenchSetup s;
  s.scenario              = a.scenario.empty() ? "(none: the embedded qdr-16 platform)" : a.scenario;
  s.sets                  = a.sets;
  s.iterations            = a.iterations;
  s.pes_per_node          = a.pes_per_node;
  s.nodes                 = nodes_used(read_json(dir / "run" / "scenario.json"));
  s.platform              = platform_figures(dir / "run");
  const std::string table = microbench_table(f, s);
  write_text(dir / "microbench.md", table);
  write_text(dir / "microbench.json", microbench_json(f, s).dump(2) + "\n");
  write_microbench_plots(f, dir.string());
  std::fputs(table.c_str(), stdout);
  std::printf("microbench: written %s, %s, %s, %s, %s\n", (fs::path(a.out) / "microbench.md").c_str(),
              (fs::path(a.out) / "microbench.json").c_str(), (fs::path(a.out) / "latency.svg").c_str(),
              (fs::path(a.out) / "bandwidth.svg").c_str(), (fs::path(a.out) / "rate.svg").c_str());
  return 0;
}

} // namespace shmemsim::tools
