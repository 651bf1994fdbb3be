// shmemsim-run: run an unmodified OpenSHMEM program (built with shmemsim-cc) on a simulated
// cluster, or emulated as real processes (--emulate). This main turns the launcher's options (its
// own and other launchers', a base::CommandLine table) and the environment conventions (-x, job.env,
// SMA_ names) into a run request; the run library (run/Program.hpp) does the rest.
#include "base/CommandLine.hpp"
#include "base/Units.hpp"
#include "run/Program.hpp"
#include "scenarios/Scenario.hpp"
#include "shmem_front/launcher/RunRecord.hpp"
#include "shmem_front/runtime/LibcVars.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace shmemsim;
using namespace shmemsim::front;

namespace {

struct Options {
  int np  = -1;
  int ppn = -1;
  std::string scenario;
  std::vector<std::string> sets;
  long long seed = -1;
  std::string sim_time_limit;
  double wall_limit = 3600;
  std::string out;
  std::string trace;
  bool quiet   = false;
  bool tag     = false;
  bool emulate = false;
  bool report  = false;  ///< --report: shmemsim report on the run directory afterwards
  bool diagram = false;  ///< --diagram: DIR/diagram.svg afterwards
  std::string hosts;     ///< --hosts FILE (or another launcher's host-file option, with --emulate)
  std::string host_file; ///< the last -hostfile FILE or the like
  std::string program;
  std::vector<std::string> args;
  /// -x/-genv/-env variables, "NAME=value", in order (recorded in the run's scenario.json).
  std::vector<std::string> env;
  /// Other launchers' options that mean nothing in a simulation, as given, by reason.
  std::vector<std::pair<std::string, std::string>> ignored;
};

int parse_int(const base::Given& g, int min)
{
  long long x = 0;
  if (!base::parse_integer(g.value(), min, 1 << 24, x))
    g.fail(g.name + " " + g.value() + ": expected an integer >= " + std::to_string(min));
  return static_cast<int>(x);
}

/// --wall-time-limit T: a time with its unit, as every time on every command line (a bare number
/// is refused: it reads as seconds to some and as the simulator's picoseconds to others).
double parse_wall_time(const base::Given& g)
{
  try {
    return static_cast<double>(parse_time(g.value())) * 1e-12;
  } catch (const std::invalid_argument&) {
    g.fail(g.name + " " + g.value() + ": expected a time with a unit: ps, ns, us, ms or s (e.g. 60s)");
  }
  return 0;
}

std::string lower(std::string s)
{
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

constexpr const char* kWhyBinding =
    "simulated cores are shared fairly by their node's PEs and threads, nothing is bound";
constexpr const char* kWhyMapBy    = "only ppr:K:node, node, slot and core mean something here";
constexpr const char* kWhyHostFile = "the nodes are the simulated platform's (--scenario, --set platform.nodes=N)";

/// -x VAR=VALUE, -genv/-env VAR VALUE: a variable for the PEs. Every PE runs in this process and
/// sees its environment (getenv, environ, main's envp; the library reads SHMEM_* through the runtime
/// seam, which reads it too), so the variable is set here, before anything reads it: the
/// launcher's own settings (SHMEM_SYMMETRIC_SIZE, OMP_NUM_THREADS, ...) follow it as well.
/// -x VAR alone exports the launcher's value: the PEs see it already.
void set_pe_variable(Options& o, const base::Given& g, const std::string& var, const char* value)
{
  const std::string& opt = g.name;
  const bool valid       = !var.empty() && var.find('=') == std::string::npos &&
                     std::all_of(var.begin(), var.end(),
                                 [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); }) &&
                     !std::isdigit(static_cast<unsigned char>(var.front()));
  if (!valid)
    g.fail(opt + " " + var + (value != nullptr ? std::string("=") + value : "") +
           ": expected an environment variable name (letters, digits, _)");
  if (value != nullptr)
    setenv(var.c_str(), value, 1);
  if (const char* now = std::getenv(var.c_str()))
    o.env.push_back(var + "=" + now);
}

/// Whether the library, the OpenMP runtime or the launcher reads variable `name` (OpenSHMEM's
/// SHMEM_* and deprecated SMA_*, OpenMP's OMP_*): a run record lists those the launcher had.
bool read_by_the_run(const std::string& name)
{
  return name.rfind("SHMEM_", 0) == 0 || name.rfind("SMA_", 0) == 0 || name.rfind("OMP_", 0) == 0;
}

/// job.env: the scenario's variables for the PEs, set unless -x gave the same name (it wins); the
/// scenario then lists every variable the PEs were given, its own and -x's, and those of the
/// launcher's environment that the run reads (SHMEM_*, SMA_*, OMP_*), so that it reruns the run.
void apply_job_env(scenarios::Scenario& sc, const Options& o)
{
  auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  std::vector<std::string> merged;
  for (const std::string& entry : sc.job.env) {
    const std::string name = name_of(entry);
    if (std::none_of(o.env.begin(), o.env.end(), [&](const std::string& x) { return name_of(x) == name; })) {
      setenv(name.c_str(), entry.c_str() + name.size() + 1, 1);
      merged.push_back(entry);
    }
  }
  merged.insert(merged.end(), o.env.begin(), o.env.end());
  // libc's environ through libc_vars(): naming `environ` here would copy-relocate it (LibcVars.hpp).
  for (char** e = *libc_vars().environ_; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e, name = name_of(entry);
    if (read_by_the_run(name) &&
        std::none_of(merged.begin(), merged.end(), [&](const std::string& x) { return name_of(x) == name; }))
      merged.push_back(entry);
  }
  sc.job.env = std::move(merged);
}

/// One line for all the ignored options, grouped by reason.
void ignored_notice(const std::vector<std::pair<std::string, std::string>>& ignored)
{
  if (ignored.empty())
    return;
  std::vector<std::string> reasons;
  for (const auto& [opt, why] : ignored)
    if (std::find(reasons.begin(), reasons.end(), why) == reasons.end())
      reasons.push_back(why);
  std::string line = "shmemsim-run: ignored ";
  for (std::size_t r = 0; r < reasons.size(); ++r) {
    std::string opts;
    for (const auto& [opt, why] : ignored)
      if (why == reasons[r])
        opts += (opts.empty() ? "" : ", ") + opt;
    line += (r == 0 ? "" : "; ") + opts + " (" + reasons[r] + ")";
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

/// --map-by HOW: ppr:K:node is --pes-per-node K; node, slot and core choose job.placement; other
/// values are ignored with a notice.
void map_by(Options& o, const base::Given& g)
{
  const std::string& v  = g.value();
  const std::string how = lower(v.substr(0, v.find(':')));
  if (how == "ppr") {
    // ppr:K:node (K PEs per node), possibly with modifiers after another ':'.
    const std::size_t a1 = v.find(':'), a2 = v.find(':', a1 + 1);
    const std::string k    = v.substr(a1 + 1, a2 == std::string::npos ? std::string::npos : a2 - a1 - 1);
    const std::string unit = a2 == std::string::npos ? "" : lower(v.substr(a2 + 1, v.find(':', a2 + 1) - a2 - 1));
    if (unit == "node") {
      if (k.empty() || k.size() > 7 ||
          !std::all_of(k.begin(), k.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
          std::stoi(k) < 1)
        g.fail(g.name + " " + v + ": expected ppr:K:node with an integer K >= 1");
      o.ppn = std::stoi(k);
    } else
      o.ignored.push_back({g.name + " " + v, kWhyMapBy});
  } else if (how == "node") {
    o.sets.push_back("job.placement=cyclic");
  } else if (how == "slot" || how == "core") {
    o.sets.push_back("job.placement=block");
  } else {
    o.ignored.push_back({g.name + " " + v, kWhyMapBy});
  }
}

/// The launcher's options: its own, then other launchers' that suites' run scripts pass.
base::CommandLine launcher_table(Options& o)
{
  using base::Given;
  base::CommandLine cl("shmemsim-run", "");
  cl.synopsis("[OPTIONS] PROGRAM [ARGS...]")
      .description("Run an OpenSHMEM program built with shmemsim-cc on a simulated cluster. Options stop at PROGRAM:\n"
                   "everything after it belongs to the program (-- ends the options too).")
      .rest("PROGRAM [ARGS...]", "",
            [&o](const Given& g) {
              o.program = g.values.front();
              o.args.assign(g.values.begin() + 1, g.values.end());
            })
      .option("-np, -n, --np", "N", "number of PEs (job.pes)", [&o](const Given& g) { o.np = parse_int(g, 1); })
      .option("--pes-per-node", "K", "PEs per node (default: as many as needed to fit the nodes)",
              [&o](const Given& g) { o.ppn = parse_int(g, 1); })
      .option("--scenario", "FILE.json",
              "platform and job settings (a platform naming no preset, or no --scenario: the embedded qdr-16 "
              "platform; one stderr line names the platform of a run)",
              o.scenario)
      .option("--set", "KEY=VALUE", "override a scenario key (repeatable), e.g. --set job.compute=none",
              [&o](const Given& g) {
                if (g.value().find('=') == std::string::npos || g.value().front() == '=')
                  g.fail("--set " + g.value() + ": expected KEY=VALUE");
                o.sets.push_back(g.value());
              })
      .option("--seed", "S", "random seed (routing, jitter)", [&o](const Given& g) { o.seed = parse_int(g, 0); })
      .option("--sim-time-limit", "T", "stop when simulated time reaches T (e.g. 10s, 500ms), exit status 4",
              o.sim_time_limit)
      .option("--wall-time-limit", "T", "stop after T of real time (e.g. 60s; default 3600s), exit status 4",
              [&o](const Given& g) { o.wall_limit = parse_wall_time(g); })
      .option("--out", "DIR",
              "write DIR/summary.json (deterministic), DIR/scenario.json, the trace (DIR/trace.evt, trace.json for "
              "Perfetto, trace.paje; docs/traces.md), the program's stdout (DIR/output.txt, also printed) and its "
              "RESULT figures (DIR/reported.json)",
              o.out)
      .option("--trace", "LEVEL", "trace detail with --out: off, ops (default, or output.trace), packets", o.trace)
      .flag("--report",
            "with --out: analyse the run when it ends (shmemsim report DIR: DIR/report.json, its summary on stderr)",
            o.report)
      .flag("--diagram",
            "with --out: draw the run's timing diagram when it ends (shmemsim diagram DIR: DIR/diagram.svg)", o.diagram)
      .flag("--tag-output", "prefix every line a PE prints with \"[PE n] \"", o.tag)
      .flag("--emulate",
            "run the PEs as real processes on this machine over TCP instead of simulating them (docs/emulator.md): "
            "real threads, OpenMP and clocks; the emulator.* keys inject delay and reordering; with --out the PEs' "
            "traces (real time, level ops) are merged into DIR/trace.evt; --tag-output is not supported",
            o.emulate)
      .option("--hosts", "FILE",
              "with --emulate: the hosts the PEs run on, one per line (emulator.hosts); -hostfile, --hostfile, "
              "-machinefile, --machinefile and -f mean the same there",
              o.hosts)
      .flag("--quiet",
            "no summary line on stderr at the end, no progress line on a terminal (the platform line, notices "
            "and errors stay)",
            o.quiet)
      .section("other launchers' options (Open MPI, MPICH, SOS oshrun), for suites' run scripts:")
      .option("-N, --npernode, -npernode, -ppn, --ppn", "K", "the same as --pes-per-node K",
              [&o](const Given& g) { o.ppn = parse_int(g, 1); })
      .option("--map-by, -map-by", "HOW",
              "ppr:K:node: the same as --pes-per-node K; node: PEs placed round-robin over the nodes "
              "(job.placement=cyclic); slot or core: in blocks (the default); other values are ignored",
              [&o](const Given& g) { map_by(o, g); })
      .option("-x", "VAR=VALUE",
              "set VAR for the PEs (each PE starts from a copy of the launcher's environment; -x VAR alone passes "
              "the launcher's value, which they see)",
              [&o](const Given& g) {
                const std::string& v = g.value();
                const std::size_t eq = v.find('=');
                set_pe_variable(o, g, v.substr(0, eq), eq == std::string::npos ? nullptr : v.c_str() + eq + 1);
              })
      .option("-genv, -env", std::vector<std::string>{"VAR", "VALUE"}, "the same as -x VAR=VALUE",
              [&o](const Given& g) { set_pe_variable(o, g, g.values[0], g.values[1].c_str()); })
      .section("ignored, with one notice line on stderr:")
      .flag("--oversubscribe, -oversubscribe", "PEs may always outnumber a simulated node's cores",
            [&o](const Given& g) {
              o.ignored.push_back({g.name, "PEs may always outnumber a simulated node's cores"});
            })
      .option("--bind-to, -bind-to", "X", kWhyBinding,
              [&o](const Given& g) {
                o.ignored.push_back({g.name + " " + g.value(), kWhyBinding});
              })
      .flag("--report-bindings, -report-bindings", kWhyBinding,
            [&o](const Given& g) {
              o.ignored.push_back({g.name, kWhyBinding});
            })
      .option("-hostfile, --hostfile, -machinefile, --machinefile, -f", "FILE",
              std::string(kWhyHostFile) + "; with --emulate, the same as --hosts FILE",
              [&o](const Given& g) {
                o.host_file = g.value(); // ignored in a simulation; the emulator's hosts with --emulate (parse)
                o.ignored.push_back({g.name + " " + o.host_file, kWhyHostFile});
              })
      .option("--mca, -mca, --gmca, -gmca", std::vector<std::string>{"KEY", "VALUE"}, "no Open MPI components here",
              [&o](const Given& g) {
                o.ignored.push_back({g.name + " " + g.values[0] + " " + g.values[1], "no Open MPI components here"});
              })
      .flag("-v, --verbose", "no verbose mode; --out DIR records the run",
            [&o](const Given& g) {
              o.ignored.push_back({g.name, "no verbose mode; --out DIR records the run"});
            })
      .epilogue(R"TXT(environment (OpenSHMEM 1.5; the deprecated SMA_ names work too, the SHMEM_ name wins):
  SHMEM_SYMMETRIC_SIZE    symmetric heap per PE (default job.symmetric_heap, 512 MiB): a number with
                          an optional k, m, g or t suffix in either case (2^10..2^40), e.g. 512m, 1G
  SHMEM_VERSION           any value: PE 0 prints the library version at start-up
  SHMEM_INFO              any value: PE 0 prints the version and these variables with their values
  SHMEM_DEBUG             any value: debugging messages on stderr

exit status: the PEs' (the first non-zero one), 2 bad input or misuse of the OpenSHMEM API,
3 deadlock, 4 a time limit was reached, 128+signal if a PE crashed, 130/143 interrupted (docs/runs.md))TXT");
  return cl;
}

Options parse(int argc, char** argv)
{
  Options o;
  try {
    const base::CommandLine cl = launcher_table(o);
    if (!cl.parse(argc - 1, argv + 1))
      std::exit(0); // --help
    if (o.program.empty())
      cl.fail("missing PROGRAM");
    if ((o.report || o.diagram) && o.out.empty())
      cl.fail(std::string(o.report ? "--report" : "--diagram") + ": needs --out DIR (the run directory it analyses)");
    if ((o.report || o.diagram) && o.trace == "off")
      cl.fail(std::string(o.report ? "--report" : "--diagram") + ": needs a trace (not --trace off)");
    if (!o.hosts.empty() && !o.emulate)
      cl.fail("--hosts " + o.hosts + ": needs --emulate (a simulation's nodes are the platform's)");
  } catch (const base::UsageError& e) {
    std::fprintf(stderr, "shmemsim-run: %s\n", e.what());
    std::exit(2);
  }
  if (o.emulate && !o.host_file.empty()) { // the emulator's hosts, not ignored
    if (o.hosts.empty())
      o.hosts = o.host_file;
    std::erase_if(o.ignored, [](const auto& x) { return x.second == kWhyHostFile; });
  }
  ignored_notice(o.ignored);
  return o;
}

/// The OpenSHMEM environment variables' deprecated SMA_ names: read too, the SHMEM_ name wins when
/// both are set (OpenSHMEM 1.5, Environment Variables). The library reads the SHMEM_ names.
void adopt_sma_variables()
{
  for (const char* v : {"VERSION", "INFO", "SYMMETRIC_SIZE", "DEBUG"}) {
    const std::string sma = std::string("SMA_") + v, shmem = std::string("SHMEM_") + v;
    const char* value = std::getenv(sma.c_str());
    if (value != nullptr && std::getenv(shmem.c_str()) == nullptr)
      setenv(shmem.c_str(), value, 1);
  }
}

/// The scenario of a run: --scenario (or the embedded qdr-16 platform) with the command line's
/// settings; the command line gives the program and its PEs. -np beyond nodes x pes_per_node
/// without --pes-per-node spreads the PEs over the nodes.
/// A scenario file's built-in traffic (the `traffic` list, for `shmemsim run`) means nothing to a
/// program run: one notice line says it is not run, rather than ignoring it silently.
void notice_unused_traffic(const std::string& scenario_file)
{
  std::ifstream in(scenario_file);
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (doc.is_object() && doc.contains("traffic") && doc["traffic"].is_array() && !doc["traffic"].empty())
    std::fprintf(stderr,
                 "shmemsim-run: %s: its traffic (%zu pattern%s) is not run: shmemsim-run runs the program; "
                 "shmemsim run runs a scenario's traffic\n",
                 scenario_file.c_str(), doc["traffic"].size(), doc["traffic"].size() == 1 ? "" : "s");
}

scenarios::Scenario launch_scenario(const Options& o)
{
  auto load = [&](const std::vector<std::string>& s) {
    return o.scenario.empty() ? scenarios::parse_scenario("{}", "embedded default", s, scenarios::kProgramPreset)
                              : scenarios::load_scenario(o.scenario, s, scenarios::kProgramPreset);
  };
  std::vector<std::string> sets = o.sets;
  if (o.seed >= 0)
    sets.push_back("seed=" + std::to_string(o.seed));
  sets.push_back("traffic=[]");
  if (o.ppn > 0)
    sets.push_back("job.pes_per_node=" + std::to_string(o.ppn));
  if (o.np > 0) {
    if (o.ppn <= 0) {
      const scenarios::Scenario probe = load(sets);
      const int nodes                 = probe.platform.hosts.nodes;
      if (o.np > nodes * probe.job.pes_per_node)
        sets.push_back("job.pes_per_node=" + std::to_string((o.np + nodes - 1) / nodes));
    }
    sets.push_back("job.pes=" + std::to_string(o.np));
  }
  scenarios::Scenario sc = load(sets);
  if (!o.scenario.empty())
    notice_unused_traffic(o.scenario);
  sc.job.program = o.program;
  sc.job.args    = o.args;
  apply_job_env(sc, o);
  return sc;
}

/// Who chose the run's platform, for the line that names it (after the preset's name).
std::string platform_origin(const Options& o, const scenarios::Scenario& sc)
{
  const scenarios::PlatformParams& p = sc.platform;
  const bool by_set =
      std::any_of(o.sets.begin(), o.sets.end(), [](const std::string& s) { return s.starts_with("platform.preset="); });
  if (p.preset_by_default)
    return o.scenario.empty() ? " (the embedded default: no --scenario)"
                              : " (the embedded default: " + o.scenario + " names no platform.preset)";
  if (!p.preset.empty())
    return by_set ? " (--set platform.preset)" : " (from " + o.scenario + ")";
  return "";
}

/// The run request of the options.
run::Request request_of(const Options& o)
{
  run::Request r;
  r.tool           = "shmemsim-run";
  r.out            = o.out;
  r.trace          = o.trace;
  r.sim_time_limit = o.sim_time_limit;
  r.quiet          = o.quiet;
  r.emulate        = o.emulate;
  r.wall_limit     = o.wall_limit;
  r.tag_output     = o.tag;
  r.hosts_file     = o.hosts;
  return r;
}

} // namespace

int main(int argc, char** argv)
{
  const Options o      = parse(argc, argv);
  run::Request request = request_of(o);
  run::install_signal_handlers(request);
  adopt_sma_variables();
  // Before any PE or thread starts: the copier is a fork of this process.
  OutputRecord record = o.out.empty() ? OutputRecord{} : OutputRecord::start(o.out);
  request.finished    = [&o, &record](int status) {
    record.finish();
    if ((o.report || o.diagram) && !analyse_run(o.out, o.report, o.diagram, o.quiet) && status == 0)
      status = 2;
    return status;
  };
  try {
    request.scenario        = launch_scenario(o);
    request.platform_origin = platform_origin(o, request.scenario);
    return run::run_program(request);
  } catch (const std::exception& e) { // ScenarioError, UsageError (one line each)
    record.finish();
    std::fprintf(stderr, "shmemsim-run: %s\n", e.what());
    return 2;
  }
}
