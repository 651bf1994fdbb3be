#include "tools/Microbench.hpp"

#include "base/CommandLine.hpp"

#include "tools/MicrobenchReport.hpp"
#include "tools/PlotUnits.hpp"
#include "scenarios/Scenario.hpp"
#include "tools/SweepExecutor.hpp"
#include "tools/SweepPlan.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;
using shmemsim::parse_size;

using json   = nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxSize     = std::uint64_t{64} << 20;
constexpr std::uint64_t kMaxCollSize = std::uint64_t{1} << 20;

constexpr long kMaxPes = 4096;

struct MicrobenchArgs {
  std::string scenario, out;
  std::vector<std::string> sets;
  std::uint64_t min = 8, max = std::uint64_t{1} << 20;
  std::uint64_t coll_min = 8, coll_max = 8;
  long iterations  = 100;
  long window      = 64;
  int pes_per_node = 1;
  std::vector<int> pes; ///< --pes: the runs of the multi-pair streams and the collectives
  bool emulate = false, osu = false, quiet = false;
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

/// --sizes or --coll-sizes MIN..MAX into `min` and `max`, each from `lowest` to `highest` bytes.
void parse_sizes(const base::Given& g, std::uint64_t& min, std::uint64_t& max, std::uint64_t lowest,
                 std::uint64_t highest, const char* range)
{
  const std::string& v   = g.value();
  const std::size_t dots = v.find("..");
  min                    = size_arg(g, v, v.substr(0, dots));
  max                    = dots == std::string::npos ? min : size_arg(g, v, v.substr(dots + 2));
  if (min < lowest || max > highest)
    g.fail(g.name + " " + v + ": sizes go from " + range);
  if (min > max)
    g.fail(g.name + " " + v + ": the first size is larger than the last (e.g. 8B..1MiB)");
}

/// --pes LIST: PE counts from 2, comma-separated, without repeats.
void parse_pes(const base::Given& g, MicrobenchArgs& a)
{
  a.pes.clear();
  std::string item;
  std::istringstream in(g.value());
  while (std::getline(in, item, ',')) {
    long long n = 0;
    if (!base::parse_integer(item, 2, kMaxPes, n))
      g.fail("--pes " + g.value() + ": '" + item + "' is not a number of PEs from 2 to " + std::to_string(kMaxPes) +
             " (e.g. --pes 2,4,8)");
    if (std::find(a.pes.begin(), a.pes.end(), static_cast<int>(n)) != a.pes.end())
      g.fail("--pes " + g.value() + ": " + item + " is given twice");
    a.pes.push_back(static_cast<int>(n));
  }
  if (a.pes.empty())
    g.fail("--pes " + g.value() + ": expected numbers of PEs, e.g. --pes 2,4,8");
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
              "             [--iterations N] [--window N] [--pes N,N,...] [--coll-sizes MIN..MAX]\n"
              "             [--pes-per-node 1|2] [--emulate] [--osu] [--quiet]")
      .summary("OSU-style microbenchmarks (docs/microbench.md): latency, bandwidth and message rate against message "
               "size, every atomic, multi-pair streams and collectives against the number of PEs.")
      .description(R"TXT(OSU-style microbenchmarks (docs/microbench.md). Between PE 0 and PE 1: put, put + quiet and
get latency, put and get bandwidth and put message rate against message size (doubling from
MIN to MAX; streams of --window operations per quiet), the latency of every 64-bit atomic
(results checked) and the one-way latency of a put ping-pong. With --pes N,...: a run on each
number of PEs for the multi-pair put streams (N/2 pairs, N even) and the latency of barrier,
broadcast, reduce, collect, fcollect and alltoall (--coll-sizes). Every figure is simulated time
of the benchmark's own timed loop (computation not simulated: job.compute=none unless --set
says otherwise); with --emulate the same program runs as real processes (shmemsim-run --emulate)
and the figures are wall-clock time. Builds the shipped program with shmemsim-cc and runs it with
shmemsim-run, one PE per node (--pes-per-node 2: two). Prints the table (--osu: OSU-style text)
and writes DIR/microbench.md, microbench.json, osu.txt, latency.svg, bandwidth.svg, rate.svg
(and collectives.svg with --pes), and the runs' directories DIR/run, DIR/run-pes-N.)TXT")
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
              [&a](const base::Given& g) { parse_sizes(g, a.min, a.max, 1, kMaxSize, "1B to 64MiB"); })
      .option("--iterations", "N",
              "timed operations per latency figure (default 100); the bandwidth stream of each size is up to that many "
              "windows, at most 4 MiB beyond the first window",
              [&a](const base::Given& g) { a.iterations = int_arg(g, 1, 1000000); })
      .option("--window", "N", "operations in flight per shmem_quiet in the bandwidth and rate streams (default 64)",
              [&a](const base::Given& g) { a.window = int_arg(g, 1, 65536); })
      .option("--pes", "N,N,...",
              "numbers of PEs (from 2) to run the multi-pair streams (even numbers) and the collectives on; one run "
              "each (default: none)",
              [&a](const base::Given& g) { parse_pes(g, a); })
      .option("--coll-sizes", "MIN..MAX",
              "the collectives' sizes per PE, doubling from a multiple of 8 bytes (default 8B..8B; up to 1MiB)",
              [&a](const base::Given& g) {
                parse_sizes(g, a.coll_min, a.coll_max, 8, kMaxCollSize, "8B to 1MiB");
                if (a.coll_min % 8 != 0)
                  g.fail("--coll-sizes " + g.value() +
                         ": the first size is not a multiple of 8 bytes (64-bit elements)");
              })
      .option("--pes-per-node", "1|2", "1 (default): every PE on a node of its own; 2: two PEs per node",
              [&a](const base::Given& g) { a.pes_per_node = static_cast<int>(int_arg(g, 1, 2)); })
      .flag("--emulate", "run the same program emulated (shmemsim-run --emulate): real processes, wall-clock time",
            a.emulate)
      .flag("--osu", "print the OSU-style text (DIR/osu.txt) instead of the table", a.osu)
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

/// The shmemsim-run command line of one run of the benchmark: `pes` PEs, the program's `parts`,
/// into `run_dir`.
std::vector<std::string> run_command_line(const MicrobenchArgs& a, const fs::path& bin, const fs::path& run_dir,
                                          const fs::path& program, int pes, const std::string& parts)
{
  std::vector<std::string> v = {(bin / "shmemsim-run").string()};
  if (a.emulate)
    v.push_back("--emulate");
  v.insert(v.end(), {"-np", std::to_string(pes), "--pes-per-node", std::to_string(a.pes_per_node)});
  if (!a.scenario.empty())
    v.insert(v.end(), {"--scenario", fs::absolute(a.scenario).string()});
  v.insert(v.end(), {"--set", "job.compute=none"});
  for (const std::string& s : a.sets)
    v.insert(v.end(), {"--set", s});
  v.insert(v.end(), {"--out", run_dir.string(), "--trace", "off", "--quiet", "--", program.string(), parts,
                     std::to_string(a.iterations), std::to_string(a.min), std::to_string(a.max),
                     std::to_string(a.window), std::to_string(a.coll_min), std::to_string(a.coll_max)});
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

namespace {

/// Runs the program on 2 PEs (pair, atomics), then on each --pes count (multi for an even count,
/// coll), and reads their figures; a failed step's status (non-zero) in `status`.
MicrobenchFigures run_all(const MicrobenchArgs& a, const fs::path& bin, const fs::path& dir, int& status)
{
  const fs::path program = dir / "build" / "shmem_microbench";
  MicrobenchFigures f;
  status = run_step((dir / "run").string(), run_command_line(a, bin, dir / "run", program, 2, "pair,atomics"));
  if (status != 0) {
    status = step_failed("the run", (dir / "run").string(), status);
    return f;
  }
  parse_pair_output(read_text(dir / "run" / "stdout.txt"), (dir / "run" / "stdout.txt").string(), f);
  for (int pes : a.pes) {
    const fs::path run = dir / ("run-pes-" + std::to_string(pes));
    if (!a.quiet)
      std::fprintf(stderr, "shmemsim: microbench: %d PEs, in %s\n", pes, run.c_str());
    status = run_step(run.string(), run_command_line(a, bin, run, program, pes, pes % 2 == 0 ? "multi,coll" : "coll"));
    if (status != 0) {
      status = step_failed(("the run on " + std::to_string(pes) + " PEs").c_str(), run.string(), status);
      return f;
    }
    f.pes.push_back(parse_pes_output(read_text(run / "stdout.txt"), (run / "stdout.txt").string(), pes));
  }
  return f;
}

} // namespace

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
    std::fprintf(stderr, "shmemsim: microbench: building %s, then running it%s in %s\n", source.c_str(),
                 a.emulate ? " emulated" : "", (dir / "run").c_str());
  if (int st = run_step((dir / "build").string(),
                        {(bin / "shmemsim-cc").string(), "-O2", "-o", program.string(), source.string()});
      st != 0)
    return step_failed("building the benchmark", (dir / "build").string(), st);
  int status                = 0;
  const MicrobenchFigures f = run_all(a, bin, dir, status);
  if (status != 0)
    return status;
  MicrobenchSetup s;
  s.scenario              = a.scenario.empty() ? "(none: the embedded qdr-16 platform)" : a.scenario;
  s.sets                  = a.sets;
  s.iterations            = a.iterations;
  s.window                = a.window;
  s.pes_per_node          = a.pes_per_node;
  s.emulated              = a.emulate;
  s.nodes                 = nodes_used(read_json(dir / "run" / "scenario.json"));
  s.platform              = platform_figures(dir / "run");
  const std::string table = microbench_table(f, s), osu = microbench_osu_text(f, s);
  write_text(dir / "microbench.md", table);
  write_text(dir / "microbench.json", microbench_json(f, s).dump(2) + "\n");
  write_text(dir / "osu.txt", osu);
  std::string written = (fs::path(a.out) / "microbench.md").string() + ", " +
                        (fs::path(a.out) / "microbench.json").string() + ", " + (fs::path(a.out) / "osu.txt").string();
  for (const std::string& plot : write_microbench_plots(f, s, dir.string()))
    written += ", " + (fs::path(a.out) / fs::path(plot).filename()).string();
  std::fputs((a.osu ? osu : table).c_str(), stdout);
  std::printf("microbench: written %s\n", written.c_str());
  return 0;
}

} // namespace shmemsim::tools
