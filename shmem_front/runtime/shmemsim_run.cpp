// shmemsim-run: run an unmodified OpenSHMEM program (built with shmemsim-cc) on a simulated
// cluster. Each PE runs `main` of its own private copy of the program in a SimGrid actor.
#include "shmem_front/lib/SignalText.hpp"
#include "base/CommandLine.hpp"
#include "scenarios/RunBuilder.hpp"
#include "scenarios/Scenario.hpp"
#include "shmem_front/emulator/Launcher.hpp"
#include "shmem_front/interpose/hooks.h"
#include "shmem_front/launcher/ProgramWorkload.hpp"
#include "shmem_front/loader/CrashHandlers.hpp"
#include "shmem_front/loader/MemoryCopies.hpp"
#include "shmem_front/loader/ProgramImage.hpp"
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/runtime/LibcVars.hpp"
#include "shmem_front/runtime/PeRuntime.hpp"
#include "shmem_front/transport/PortalsTransport.hpp"
#include "sim/MapBudget.hpp"
#include "sim/Simulation.hpp"
#include "sim/portals_model/Network.hpp"
#include "traces/Merge.hpp"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

namespace fs = std::filesystem;
using namespace shmemsim;
using namespace shmemsim::front;

namespace {

[[noreturn]] void usage_error(const std::string& msg)
{
  std::fprintf(stderr, "shmemsim-run: %s (see 'shmemsim-run --help')\n", msg.c_str());
  std::exit(2);
}

struct Options {
  int np          = -1;
  int ppn         = -1;
  std::string scenario;
  std::vector<std::string> sets;
  long long seed  = -1;
  std::string sim_time_limit;
  double wall_limit = 3600;
  std::string out;
  std::string trace;
  bool quiet = false;
  bool tag   = false;
  bool emulate = false;
  std::string hosts; ///< --hosts FILE (or another launcher's host-file option, with --emulate)
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

std::string lower(std::string s)
{
  for (char& c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

constexpr const char* kWhyBinding = "simulated cores are shared fairly by their node's PEs and threads, nothing is bound";
constexpr const char* kWhyMapBy   = "only ppr:K:node, node, slot and core mean something here";
constexpr const char* kWhyHostFile = "the nodes are the simulated platform's (--scenario, --set platform.nodes=N)";

/// -x VAR=VALUE, -genv/-env VAR VALUE: a variable for the PEs. Every PE runs in this process and
/// sees its environment (getenv, environ, main's envp; the library reads SHMEM_* through the runtime
/// seam, which reads it too), so the variable is set here, before anything reads it: the
/// launcher's own settings (SHMEM_SYMMETRIC_SIZE, OMP_NUM_THREADS, ...) follow it as well.
/// -x VAR alone exports the launcher's value: the PEs see it already.
void set_pe_variable(Options& o, const base::Given& g, const std::string& var, const char* value)
{
  const std::string& opt = g.name;
  const bool valid = !var.empty() && var.find('=') == std::string::npos &&
                     std::all_of(var.begin(), var.end(), [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); }) &&
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
    const std::string k  = v.substr(a1 + 1, a2 == std::string::npos ? std::string::npos : a2 - a1 - 1);
    const std::string unit = a2 == std::string::npos ? "" : lower(v.substr(a2 + 1, v.find(':', a2 + 1) - a2 - 1));
    if (unit == "node") {
      if (k.empty() || k.size() > 7 || !std::all_of(k.begin(), k.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
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
      .rest("PROGRAM [ARGS...]", "", [&o](const Given& g) {
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
      .option("--set", "KEY=VALUE", "override a scenario key (repeatable), e.g. --set job.compute=none", [&o](const Given& g) {
        if (g.value().find('=') == std::string::npos || g.value().front() == '=')
          g.fail("--set " + g.value() + ": expected KEY=VALUE");
        o.sets.push_back(g.value());
      })
      .option("--seed", "S", "random seed (routing, jitter)", [&o](const Given& g) { o.seed = parse_int(g, 0); })
      .option("--sim-time-limit", "T", "stop when simulated time reaches T (e.g. 10s, 500ms), exit status 4", o.sim_time_limit)
      .option("--wall-time-limit", "SECS", "stop after SECS seconds of real time (default 3600), exit status 4",
              [&o](const Given& g) { o.wall_limit = parse_int(g, 0); })
      .option("--out", "DIR",
              "write DIR/summary.json (deterministic), DIR/scenario.json and the trace (DIR/trace.evt, trace.json for "
              "Perfetto, trace.paje; docs/traces.md)",
              o.out)
      .option("--trace", "LEVEL", "trace detail with --out: off, ops (default, or output.trace), packets", o.trace)
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
      .flag("--quiet", "no summary line on stderr at the end, no progress line on a terminal (the platform line, notices "
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
            [&o](const Given& g) { o.ignored.push_back({g.name, "PEs may always outnumber a simulated node's cores"}); })
      .option("--bind-to, -bind-to", "X", kWhyBinding, [&o](const Given& g) { o.ignored.push_back({g.name + " " + g.value(), kWhyBinding}); })
      .flag("--report-bindings, -report-bindings", kWhyBinding, [&o](const Given& g) { o.ignored.push_back({g.name, kWhyBinding}); })
      .option("-hostfile, --hostfile, -machinefile, --machinefile, -f", "FILE",
              std::string(kWhyHostFile) + "; with --emulate, the same as --hosts FILE", [&o](const Given& g) {
                o.host_file = g.value(); // ignored in a simulation; the emulator's hosts with --emulate (parse)
                o.ignored.push_back({g.name + " " + o.host_file, kWhyHostFile});
              })
      .option("--mca, -mca, --gmca, -gmca", std::vector<std::string>{"KEY", "VALUE"}, "no Open MPI components here",
              [&o](const Given& g) { o.ignored.push_back({g.name + " " + g.values[0] + " " + g.values[1], "no Open MPI components here"}); })
      .flag("-v, --verbose", "no verbose mode; --out DIR records the run",
            [&o](const Given& g) { o.ignored.push_back({g.name, "no verbose mode; --out DIR records the run"}); })
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

std::string self_dir()
{
  return fs::read_symlink("/proc/self/exe").parent_path().string();
}

/// One private copy of the program, loaded.
struct Copy {
  void* handle = nullptr;
  ProgramMain main = nullptr;
  loader::ProgramImage image;
};

/// The temporary directory holding the program copy being loaded, and that copy (empty when
/// none): removed on every exit path, signals included (async-signal-safe).
char g_tmpdir[64];
char g_copy[4096];

void remove_temporaries()
{
  if (g_copy[0] != '\0')
    unlink(g_copy);
  if (g_tmpdir[0] != '\0')
    rmdir(g_tmpdir);
}

/// The most PEs one run holds (each a dlopen'ed copy of the program in this process).
constexpr int kMaxPes = 65536;

/// dlopen of `path`, a private copy of `program` (errors name `program`, not the copy).
void* open_copy(const fs::path& program, const std::string& path)
{
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (handle != nullptr)
    return handle;
  std::string why = dlerror();
  for (auto at = why.find(path); at != std::string::npos; at = why.find(path))
    why.replace(at, path.size(), program.string()); // name the user's file, not our copy
  const char* hint = why.find("undefined symbol") != std::string::npos
                         ? " (nothing loaded defines it; shmemsim-cc reports such symbols when linking: rebuild the "
                           "program with this version of it)"
                         : " (build it with shmemsim-cc; see shmemsim-cc --help)";
  throw scenarios::ScenarioError(program.string() + ": cannot load: " + why + hint);
}

/// PE `index`'s private copy of the program, loaded: in memory when the system allows
/// (`memory`), else a file in `dir`, deleted once loaded.
Copy load_copy(const fs::path& program, const fs::path& dir, int index, loader::MemoryCopies& memory)
{
  Copy c;
  if (const std::string in_memory = memory.next(index); !in_memory.empty()) {
    c.handle = open_copy(program, in_memory);
  } else {
    const fs::path copy = dir / ("pe" + std::to_string(index) + "-" + program.filename().string());
    std::snprintf(g_copy, sizeof g_copy, "%s", copy.c_str());
    std::error_code ec;
    fs::copy_file(program, copy, fs::copy_options::overwrite_existing, ec);
    if (ec)
      throw scenarios::ScenarioError(program.string() + ": cannot copy for PE " + std::to_string(index) + ": " + ec.message());
    try {
      c.handle = open_copy(program, copy.string());
    } catch (...) {
      fs::remove(copy, ec);
      g_copy[0] = '\0';
      throw;
    }
    fs::remove(copy, ec);
    g_copy[0] = '\0';
  }
  if (dlsym(c.handle, "shmemsim_program_entry") == nullptr)
    throw scenarios::ScenarioError(program.string() + ": not a program built by shmemsim-cc (rebuild it with shmemsim-cc)");
  c.main = reinterpret_cast<ProgramMain>(dlsym(c.handle, "main"));
  if (c.main == nullptr)
    throw scenarios::ScenarioError(program.string() + ": has no main function");
  c.image = loader::describe_loaded_program(c.handle);
  return c;
}

// ------------------------------------------------------------------ crashes and watchdog


/// The interposition library's record of the program's own crash handlers (null until loaded).
int (*g_program_handles)(int sig) = nullptr;

void on_crash(int sig)
{
  char line[320];
  PeProcess* pe = nullptr;
  int thread    = 0;
  try {
    pe     = pe_runtime().current();
    thread = pe_runtime().thread_index();
  } catch (...) {
  }
  char who[48];
  if (thread == 0)
    std::snprintf(who, sizeof who, "main thread");
  else
    std::snprintf(who, sizeof who, "thread %d", thread);
  const bool own = g_program_handles != nullptr && g_program_handles(sig) != 0;
  int n;
  if (pe != nullptr)
    n = std::snprintf(line, sizeof line, "shmemsim-run: PE %d (%s) crashed: %s%s%s%s\n", pe->id, who, shmemsim::front::signal_text(sig),
                      pe->routine != nullptr ? " in " : "", pe->routine != nullptr ? pe->routine : "",
                      own ? " (the program's own handler for it was not run)" : "");
  else
    n = std::snprintf(line, sizeof line, "shmemsim-run: crashed outside any PE: %s\n", shmemsim::front::signal_text(sig));
  if (n > 0)
    (void)!write(2, line, static_cast<std::size_t>(n));
  remove_temporaries();
  _exit(128 + sig);
}

/// Ctrl-C, kill: one line, the temporaries removed, status 128 + signal (130, 143, 129).
void on_interrupt(int sig)
{
  const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
  char line[128];
  const int n = std::snprintf(line, sizeof line, "shmemsim-run: interrupted by %s; the run did not finish\n", name);
  if (n > 0)
    (void)!write(2, line, static_cast<std::size_t>(n));
  remove_temporaries();
  _exit(128 + sig);
}

void on_alarm(int)
{
  static const char msg[] =
      "shmemsim-run: wall-clock time limit reached (--wall-time-limit); a PE may be spinning without calling the library\n";
  (void)!write(2, msg, sizeof msg - 1);
  remove_temporaries();
  _exit(4);
}

void install_interrupt_handlers()
{
  struct sigaction stop{};
  stop.sa_handler = on_interrupt;
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(sig, &stop, nullptr);
}

void install_signal_handlers(double wall_limit)
{
  loader::install_crash_handlers(on_crash);
  install_interrupt_handlers();
  if (wall_limit > 0) {
    std::signal(SIGALRM, on_alarm);
    alarm(static_cast<unsigned>(wall_limit));
  }
}

// ------------------------------------------------------------------ conventions

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

/// More PEs on a node than it has cores for programs: one notice line saying how they were placed.
void placement_notice(const scenarios::Scenario& sc, const std::vector<int>& node_of)
{
  const auto& hosts = sc.platform.hosts;
  int cores         = hosts.cores_per_node;
  if (sc.platform.progress_core && cores > 1)
    cores -= 1; // the NIC's progress thread has a core of its own
  std::vector<int> on_node(static_cast<std::size_t>(hosts.nodes), 0);
  for (int node : node_of)
    ++on_node[static_cast<std::size_t>(node)];
  int most = 0, least = 0, used = 0;
  for (int n : on_node)
    if (n > 0) {
      most  = std::max(most, n);
      least = used == 0 ? n : std::min(least, n);
      ++used;
    }
  if (most <= cores)
    return;
  const std::string nodes_text =
      used < hosts.nodes ? std::to_string(used) + " of " + std::to_string(hosts.nodes) + " nodes" : std::to_string(used) + " nodes";
  const std::string cores_text =
      std::to_string(hosts.cores_per_node) + " cores" +
      (cores != hosts.cores_per_node ? " (" + std::to_string(cores) + " for programs, 1 for the NIC's progress thread)" : "");
  const std::string per_node = least == most ? std::to_string(most) + " PEs per node"
                                             : std::to_string(least) + " to " + std::to_string(most) + " PEs per node";
  std::fprintf(stderr, "shmemsim-run: %zu PEs on %s x %s: %s (%s placement) share their node's %d core%s\n",
               node_of.size(), nodes_text.c_str(), cores_text.c_str(), per_node.c_str(),
               sc.job.placement == scenarios::Placement::Block ? "block" : "cyclic", cores, cores == 1 ? "" : "s");
}

// ------------------------------------------------------------------ the run

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
    std::fprintf(stderr, "shmemsim-run: %s: its traffic (%zu pattern%s) is not run: shmemsim-run runs the program; "
                         "shmemsim run runs a scenario's traffic\n",
                 scenario_file.c_str(), doc["traffic"].size(), doc["traffic"].size() == 1 ? "" : "s");
}

/// The one line that says which platform the run is on, and who chose it.
void platform_notice(const Options& o, const scenarios::Scenario& sc)
{
  const scenarios::PlatformParams& p = sc.platform;
  const bool by_set = std::any_of(o.sets.begin(), o.sets.end(), [](const std::string& s) { return s.starts_with("platform.preset="); });
  std::string origin;
  if (p.preset_by_default)
    origin = o.scenario.empty() ? " (the embedded default: no --scenario)"
                                : " (the embedded default: " + o.scenario + " names no platform.preset)";
  else if (!p.preset.empty())
    origin = by_set ? " (--set platform.preset)" : " (from " + o.scenario + ")";
  std::string text = scenarios::describe_platform(p);
  if (!origin.empty()) // after the preset's name
    text.insert(p.preset.size(), origin);
  std::fprintf(stderr, "shmemsim-run: platform: %s\n", text.c_str());
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

/// The symmetric heap per PE: job.symmetric_heap, or SHMEM_SYMMETRIC_SIZE in the specification's
/// form ("512m", "1G", "3.1m": at least the ceiling of number x 2^10/20/30/40). It is what the
/// program can allocate; the library's own reserved block comes on top.
std::uint64_t symmetric_heap_bytes(const scenarios::Scenario& sc)
{
  std::uint64_t heap_bytes = sc.job.symmetric_heap;
  if (const char* env = std::getenv("SHMEM_SYMMETRIC_SIZE")) {
    try {
      heap_bytes = scenarios::parse_symmetric_size(std::string(env));
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "shmemsim-run: SHMEM_SYMMETRIC_SIZE=%s\n", e.what());
      std::exit(2);
    }
  }
  if (heap_bytes > (std::uint64_t{1} << 46))
    usage_error("symmetric heap of " + std::to_string(heap_bytes) +
                " bytes per PE is more than this simulator can reserve (at most 64 TiB)");
  return heap_bytes + kReservedHeap;
}

/// Removes the temporary program copies when the loading ends, normally or by an exception.
struct TemporaryDirectory {
  TemporaryDirectory()
  {
    const char* tmp_root = std::getenv("TMPDIR");
    std::string tmpl = std::string(tmp_root != nullptr && *tmp_root != '\0' ? tmp_root : "/tmp") + "/shmemsim-run-XXXXXX";
    if (tmpl.size() >= sizeof g_tmpdir)
      tmpl = "/tmp/shmemsim-run-XXXXXX";
    const char* dir = mkdtemp(tmpl.data());
    if (dir == nullptr)
      throw scenarios::ScenarioError(std::string("cannot create a temporary directory: ") + std::strerror(errno));
    std::snprintf(g_tmpdir, sizeof g_tmpdir, "%s", dir);
  }
  ~TemporaryDirectory()
  {
    remove_temporaries();
    g_tmpdir[0] = '\0';
  }
  TemporaryDirectory(const TemporaryDirectory&)            = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const char* path() const { return g_tmpdir; }
};

/// The interposition library's pthread_* (what the program copies call): the PEs' simulated threads.
Pthreads interposed_pthreads(void* ih)
{
  Pthreads p;
  const auto get = [ih](auto& fn, const char* name) {
    void* sym = dlsym(ih, name);
    if (sym == nullptr)
      throw scenarios::ScenarioError(std::string("the interposition library lacks ") + name);
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym);
  };
  get(p.create, "pthread_create");
  get(p.join, "pthread_join");
  get(p.self, "pthread_self");
  get(p.mutex_lock, "pthread_mutex_lock");
  get(p.mutex_unlock, "pthread_mutex_unlock");
  get(p.cond_wait, "pthread_cond_wait");
  get(p.cond_signal, "pthread_cond_signal");
  get(p.cond_broadcast, "pthread_cond_broadcast");
  return p;
}

/// After the second PE is loaded (its copy and heap cost what every other PE's will): whether the
/// run fits the system's limit of memory mappings, and with or without guard pages below the
/// actors' stacks. One line and status 2 when it cannot fit; one notice line when the guard pages
/// are left out. Returns whether they stay.
bool plan_stacks(int npes, long before_second, long after_second)
{
  const long limit = sim::max_map_count();
  if (limit < 0 || before_second < 0 || after_second < 0)
    return true;
  const sim::MapPlan plan =
      sim::plan_mappings(limit, after_second, npes, 2, after_second - before_second, sim::kSpareMappings);
  if (!plan.fits) // thrown, not exited: the copies' temporary directory goes
    throw scenarios::ScenarioError(sim::map_limit_advice(plan, limit, npes));
  if (!plan.guards)
    std::fprintf(stderr,
                 "shmemsim-run: %d PEs: no guard page below each thread's stack, to stay within vm.max_map_count (%ld): "
                 "a stack overflow is not caught (sudo sysctl -w vm.max_map_count=%ld keeps them)\n",
                 npes, limit, (plan.need_guarded + 999) / 1000 * 1000);
  return plan.guards;
}

/// Load the interposition library (first, so the program copies bind to this instance), then one
/// private copy of the program and one symmetric heap per PE. `stack_guards`: plan_stacks's answer.
LoadedProgram load_program(const Options& o, const scenarios::Scenario& sc, const std::vector<int>& node_of,
                           std::uint64_t heap_bytes, bool& stack_guards)
{
  const fs::path program = fs::absolute(o.program);
  if (!fs::exists(program))
    usage_error(o.program + ": no such file");
  const std::string interpose = self_dir() + "/../lib/libshmemsim_interpose.so";
  void* ih                    = dlopen(interpose.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (ih == nullptr)
    throw scenarios::ScenarioError(std::string("cannot load the interposition library: ") + dlerror());
  LoadedProgram loaded;
  loaded.install_hooks = reinterpret_cast<void (*)(const shmemsim_hooks*)>(dlsym(ih, "shmemsim_interpose_install"));
  loaded.counter       = WorkCounter{static_cast<unsigned long*>(dlsym(ih, "shmemsim_work")),
                                     static_cast<unsigned long*>(dlsym(ih, "shmemsim_slice_work")),
                                     static_cast<unsigned long*>(dlsym(ih, "shmemsim_instruction_fs")),
                                     static_cast<unsigned long*>(dlsym(ih, "shmemsim_divide_fs")),
                                     static_cast<unsigned long*>(dlsym(ih, "shmemsim_latency_fs")),
                                     static_cast<unsigned long*>(dlsym(ih, "shmemsim_window")),
                                     reinterpret_cast<void (*)()>(dlsym(ih, "shmemsim_flush_work")),
                                     reinterpret_cast<void (*)()>(dlsym(ih, "shmemsim_rearm_work"))};
  loaded.tag_output    = o.tag;
  g_program_handles    = reinterpret_cast<int (*)(int)>(dlsym(ih, "shmemsim_interpose_program_handles"));
  loaded.pthreads      = interposed_pthreads(ih);

  const int npes = static_cast<int>(node_of.size());
  const TemporaryDirectory tmpdir; // load errors throw through here
  loader::MemoryCopies memory(program.string(), npes);
  loaded.pes.resize(static_cast<std::size_t>(npes));
  stack_guards = true;
  long before_second = -1;
  for (int pe = 0; pe < npes; ++pe) {
    if (pe == 1)
      before_second = sim::mappings_in_use();
    const Copy c = load_copy(program, tmpdir.path(), pe, memory);
    void* heap   = loader::map_symmetric_heap(heap_bytes);
    if (heap == MAP_FAILED)
      throw scenarios::ScenarioError("cannot map a symmetric heap of " + std::to_string(heap_bytes) + " bytes for PE " +
                                     std::to_string(pe) + ": " + std::strerror(errno) +
                                     " (lower job.symmetric_heap or SHMEM_SYMMETRIC_SIZE)");
    if (pe == 1)
      stack_guards = plan_stacks(npes, before_second, sim::mappings_in_use());
    PeProcess& p = loaded.pes[static_cast<std::size_t>(pe)];
    p.id         = pe;
    p.node       = node_of[static_cast<std::size_t>(pe)];
    p.main       = c.main;
    p.has_tls    = c.image.has_tls;
    p.handle     = c.handle;
    p.tls_image  = c.image.tls_image;
    p.tls_filesz = c.image.tls_filesz;
    p.tls_memsz  = c.image.tls_memsz;
    p.mem        = PeMemory{c.image.data, c.image.data_size, static_cast<std::byte*>(heap), heap_bytes};
    p.args.push_back(o.program);
    for (const auto& a : sc.job.args)
      p.args.push_back(a);
  }
  return loaded;
}

/// A host file: one host per line (its first word; "#" starts a comment; Open MPI's "slots=N"
/// and the like after it are ignored).
std::vector<std::string> read_host_file(const std::string& path)
{
  std::ifstream in(path);
  if (!in)
    usage_error("--hosts " + path + ": cannot read it");
  std::vector<std::string> hosts;
  std::string line;
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    const std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos)
      continue;
    hosts.push_back(line.substr(b, line.find_first_of(" \t\r", b) - b));
  }
  if (hosts.empty())
    usage_error("--hosts " + path + ": no host in it (one host name or address per line)");
  return hosts;
}

/// Each PE's host: emulator.hosts (or --hosts) in job.placement order; empty when none is given.
std::vector<std::string> pe_hosts(const Options& o, const scenarios::Scenario& sc, int npes)
{
  const std::vector<std::string> hosts = o.hosts.empty() ? sc.emulator.hosts : read_host_file(o.hosts);
  std::vector<std::string> of;
  if (hosts.empty())
    return of;
  const int h   = static_cast<int>(hosts.size());
  const int per = (npes + h - 1) / h;
  for (int pe = 0; pe < npes; ++pe)
    of.push_back(hosts[static_cast<std::size_t>(sc.job.placement == scenarios::Placement::Cyclic ? pe % h : pe / per)]);
  return of;
}

/// --emulate --out DIR: summary.json (the emulated figures), scenario.json and the PEs' traces
/// merged into DIR/trace.evt, trace.json and trace.paje (their own files removed).
/// Returns false (having said why in one line) if a file could not be written or a trace not merged.
bool write_emulated_run(const Options& o, const scenarios::Scenario& sc, const emulator::LaunchSpec& spec,
                        const emulator::LaunchReport& report, int status)
{
  scenarios::RunOutcome r;
  r.exit_code = status;
  std::set<std::string> hosts(spec.pe_hosts.begin(), spec.pe_hosts.end());
  nlohmann::json& s = r.summary;
  s["mode"]         = "emulated";
  s["platform"]     = scenarios::platform_record(sc.platform); // its NIC limits and routing apply
  s["pes"] = s["endpoints"] = spec.job.npes;
  s["nodes"]                = std::max<std::size_t>(1, hosts.size());
  s["wall_time_s"]          = report.wall_seconds;
  s["deliveries"]           = report.deliveries;
  s["out_of_order_deliveries"] = report.out_of_order;
  // Every request is executed once at its target: the requests issued are those delivered.
  s["operations"] = {{"issued", report.deliveries}};
  s["emulator"]   = {{"held_by_injector", report.held}, {"restored_to_order", report.restored}, {"work", report.work}};
  s["exit_status"] = report.exit_status;
  s["status"]      = status;
  s["checks"]      = {{"passed", status == scenarios::kExitOk}, {"failures", nlohmann::json::array()}};
  std::vector<std::string> parts, missing;
  if (!spec.trace_dir.empty())
    for (int pe = 0; pe < spec.job.npes; ++pe)
      parts.push_back(emulator::pe_trace_file(spec.trace_dir, pe));
  bool ok = true;
  try {
    scenarios::write_run_directory(o.out, r, sc, nullptr);
    if (spec.trace_dir.empty())
      return true;
    std::map<std::string, std::string> meta = {{"scenario", sc.source},
                                               {"seed", std::to_string(sc.seed)},
                                               {"pes", std::to_string(spec.job.npes)},
                                               {"nodes", std::to_string(std::max<std::size_t>(1, hosts.size()))},
                                               {"mode", "emulated"},
                                               {"clock", "real"},
                                               {"epoch_ns", std::to_string(report.epoch_ns)},
                                               {"max_cts", std::to_string(spec.job.max_cts)},
                                               {"max_mds", std::to_string(spec.job.max_mds)},
                                               {"max_volatile_size", std::to_string(spec.job.max_volatile_size)},
                                               {"program", sc.job.program}};
    if (status != scenarios::kExitOk) // PEs killed while writing: their last lines may be cut
      for (const std::string& p : parts)
        traces::trim_partial_line(p);
    const traces::Trace tr = traces::merge_traces(parts, meta, &missing);
    const std::vector<std::string> files = traces::write_trace_files(tr, o.out);
    if (!missing.empty())
      std::fprintf(stderr, "shmemsim-run: trace: %zu PE(s) left no trace file (the job ended early), first %s\n", missing.size(),
                   missing[0].c_str());
    if (!o.quiet)
      std::fprintf(stderr, "shmemsim-run: trace (ops, real time): %s, %s (Perfetto), %s (Paje); 'shmemsim report %s' analyses it\n",
                   files[0].c_str(), files[1].c_str(), files[2].c_str(), o.out.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim-run: --out %s: %s\n", o.out.c_str(), e.what());
    ok = false;
  }
  std::error_code ec;
  for (const std::string& p : parts)
    fs::remove(p, ec); // the PEs' own files: merged, or of a job that failed
  return ok;
}

/// `text`'s words (split at white space).
std::vector<std::string> split_words(const std::string& text)
{
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string w; in >> w;)
    words.push_back(w);
  return words;
}

/// --emulate: the same scenario's settings for real processes (shmem_front/emulator).
int run_emulated(const Options& o, const scenarios::Scenario& sc)
{
  if (o.tag || !o.sim_time_limit.empty())
    usage_error("--emulate does not support --tag-output or --sim-time-limit (docs/emulator.md)");
  const traces::Level trace_level = scenarios::trace_level(sc, o.trace, !o.out.empty());
  if (trace_level == traces::Level::Packets)
    usage_error("--emulate: trace level packets: the emulator sees no packets (use ops; docs/emulator.md)");
  const fs::path program = fs::absolute(o.program);
  if (!fs::exists(program))
    usage_error(o.program + ": no such file");
  emulator::LaunchSpec spec;
  emulator::Config& c = spec.job;
  c.npes              = static_cast<int>(scenarios::place_endpoints(sc).size());
  c.heap_bytes        = symmetric_heap_bytes(sc);
  c.boot_host = c.listen_host = sc.emulator.host;
  c.mapping                   = sc.job.contexts_mapping;
  c.on_exhaustion             = sc.job.contexts_on_exhaustion;
  c.max_cts                   = sc.platform.limits.max_cts;
  c.max_mds                   = sc.platform.limits.max_mds;
  c.max_volatile_size         = sc.platform.limits.max_volatile_size;
  c.max_waw_ordered_size      = sc.platform.limits.max_waw_ordered_size;
  c.total_ordering            = sc.platform.limits.total_data_ordering;
  c.collectives[0]            = static_cast<int>(sc.job.collectives.barrier);
  c.collectives[1]            = static_cast<int>(sc.job.collectives.broadcast);
  c.collectives[2]            = static_cast<int>(sc.job.collectives.collect);
  c.collectives[3]            = static_cast<int>(sc.job.collectives.reduce);
  c.latency_ns                = static_cast<std::uint64_t>(sc.emulator.latency / 1000);
  if (sc.emulator.bandwidth != "none") {
    try {
      c.bandwidth_Bps = static_cast<double>(scenarios::parse_bandwidth(sc.emulator.bandwidth)) / 8.0;
    } catch (const std::invalid_argument& e) {
      usage_error(std::string("emulator.bandwidth: ") + e.what() + " (or \"none\")");
    }
  }
  c.jitter_ns                 = static_cast<std::uint64_t>(sc.emulator.jitter / 1000);
  c.reorder_probability       = sc.emulator.reorder_probability;
  c.reorder_depth             = sc.emulator.reorder_max_depth;
  c.reorder_hold_ns           = static_cast<std::uint64_t>(sc.emulator.reorder_max_hold / 1000);
  c.seed                      = sc.seed;
  c.log_decisions             = sc.emulator.log_decisions;
  c.paths                     = sc.emulator.paths;
  c.routing                   = static_cast<int>(sc.platform.fabric.routing);
  spec.pe_hosts               = pe_hosts(o, sc, c.npes);
  spec.ssh_every_host         = sc.emulator.ssh_every_host;
  spec.ssh                    = split_words(sc.emulator.ssh);
  if (spec.ssh.empty())
    usage_error("emulator.ssh: empty (the command that starts a PE on another host, e.g. \"ssh -T\")");
  spec.pe_program             = self_dir() + "/shmemsim-emu-pe";
  spec.program                = program.string();
  spec.args                   = sc.job.args;
  spec.wall_limit             = o.wall_limit;
  spec.stall_timeout          = ps_to_seconds(sc.emulator.stall_timeout);
  spec.quiet                  = o.quiet;
  if (!o.out.empty()) {
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec)
      usage_error("--out " + o.out + ": cannot create directory: " + ec.message());
    if (trace_level != traces::Level::Off)
      spec.trace_dir = fs::absolute(o.out).lexically_normal().string();
  }
  std::fflush(nullptr);
  emulator::LaunchReport report;
  const int status = emulator::launch(spec, &report);
  if (!o.out.empty() && !write_emulated_run(o, sc, spec, report, status) && status == scenarios::kExitOk)
    return scenarios::kExitBadInput;
  return status;
}

int run(const Options& o)
{
  scenarios::Scenario sc = launch_scenario(o);
  if (o.emulate)
    return run_emulated(o, sc);
  scenarios::RunSettings settings;
  if (!o.sim_time_limit.empty()) {
    try {
      settings.time_limit = scenarios::parse_time(o.sim_time_limit);
    } catch (const std::invalid_argument& e) {
      usage_error("--sim-time-limit " + o.sim_time_limit + ": " + e.what());
    }
    settings.time_limit_text = o.sim_time_limit;
  }
  const traces::Level trace_level = scenarios::trace_level(sc, o.trace, !o.out.empty());
  const std::uint64_t heap_bytes  = symmetric_heap_bytes(sc);
  const std::vector<int> node_of  = scenarios::place_endpoints(sc);
  const int npes                  = static_cast<int>(node_of.size());
  // Every PE is a loaded copy of the program with its heap reserved in this one process: bound
  // both before loading (a typo such as -np 1000000 must not grind for hours).
  if (npes > kMaxPes)
    usage_error("-np " + std::to_string(npes) + ": at most " + std::to_string(kMaxPes) +
                " PEs (each is a copy of the program loaded into the simulator's process)");
  if (static_cast<double>(npes) * 2.0 * static_cast<double>(heap_bytes) > static_cast<double>(std::uint64_t{1} << 46))
    usage_error(std::to_string(npes) + " PEs x a symmetric heap of " + std::to_string(heap_bytes) +
                " bytes need more address space than the simulator can reserve (64 TiB, counting alignment): "
                "lower SHMEM_SYMMETRIC_SIZE or job.symmetric_heap");
  LoadedProgram program = load_program(o, sc, node_of, heap_bytes, settings.stack_guards);
  platform_notice(o, sc);
  placement_notice(sc, node_of);

  std::unique_ptr<traces::Recorder> recorder;
  if (trace_level != traces::Level::Off)
    recorder = std::make_unique<traces::Recorder>(trace_level, o.out);
  settings.recorder = recorder.get();
  settings.progress = !o.quiet;
  ProgramWorkload workload(sc, program);
  // PE actors and program copies are not torn down: the process ends with std::_Exit below.
  auto* run = new scenarios::Run(sc, workload, settings);
  const scenarios::RunOutcome r = run->execute();
  std::fflush(nullptr);
  for (const std::string& e : r.errors)
    std::fprintf(stderr, "shmemsim-run: %s\n", e.c_str());
  if (!o.out.empty()) {
    const std::vector<std::string> files = scenarios::write_run_directory(o.out, r, sc, recorder.get());
    if (!o.quiet && !files.empty())
      std::fprintf(stderr, "shmemsim-run: trace (%s): %s, %s (Perfetto), %s (Paje); 'shmemsim report %s' analyses it\n",
                   traces::to_string(trace_level), files[0].c_str(), files[1].c_str(), files[2].c_str(), o.out.c_str());
  }
  if (!o.quiet && r.status == sim::RunStatus::Completed)
    std::fprintf(stderr, "shmemsim-run: %d PEs finished at simulated time %.9f s (%llu model events), exit status %d\n", npes,
                 r.summary["sim_time_s"].get<double>(),
                 static_cast<unsigned long long>(r.summary["events"].get<std::uint64_t>()), r.exit_code);
  const sim::DeferredSlices& slices = run->platform().sim->deferred_slices();
  if (slices.mode() == sim::DeferredSlices::Mode::Check)
    std::fprintf(stderr, "shmemsim-run: SHMEMSIM_DEFER_SLICES=check: %lu time slices would have been deferred, their dates checked\n",
                 slices.deferred_count());
  std::fflush(nullptr);
  std::_Exit(r.exit_code);
}

} // namespace

int main(int argc, char** argv)
{
  const Options o = parse(argc, argv);
  if (o.emulate)
    install_interrupt_handlers(); // until the emulator's launcher takes the signals over
  else
    install_signal_handlers(o.wall_limit);
  adopt_sma_variables();
  try {
    return run(o);
  } catch (const scenarios::ScenarioError& e) {
    std::fprintf(stderr, "shmemsim-run: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim-run: %s\n", e.what());
    return 2;
  }
}
