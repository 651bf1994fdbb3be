#include "run/Program.hpp"

#include "run/Emulated.hpp"
#include "run/ProgramLoading.hpp"
#include "run/ProgramWorkload.hpp"
#include "run/Run.hpp"
#include "run/Simulated.hpp"
#include "shmem_front/lib/Library.hpp" // kReservedHeap
#include "shmem_front/lib/SignalText.hpp"
#include "shmem_front/loader/CrashHandlers.hpp"
#include "shmem_front/loader/ProgramCopies.hpp"
#include "shmem_front/runtime/PeRuntime.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace shmemsim::run {

using scenarios::ScenarioError;

// ------------------------------------------------------------------ crashes, interrupts, time limit

namespace {

/// The tool's name, for the handlers' lines (a plain array: they are async-signal-safe).
char g_tool[32] = "shmemsim-run";

void on_crash(int sig)
{
  char line[320];
  front::PeProcess* pe = nullptr;
  int thread           = 0;
  try {
    pe     = front::pe_runtime().current();
    thread = front::pe_runtime().thread_index();
  } catch (...) {
  }
  char who[48];
  if (thread == 0)
    std::snprintf(who, sizeof who, "main thread");
  else
    std::snprintf(who, sizeof who, "thread %d", thread);
  const bool own = program_handles(sig);
  int n;
  if (pe != nullptr)
    n = std::snprintf(line, sizeof line, "%s: PE %d (%s) crashed: %s%s%s%s\n", g_tool, pe->id, who,
                      front::signal_text(sig), pe->routine != nullptr ? " in " : "",
                      pe->routine != nullptr ? pe->routine : "",
                      own ? " (the program's own handler for it was not run)" : "");
  else
    n = std::snprintf(line, sizeof line, "%s: crashed outside any PE: %s\n", g_tool, front::signal_text(sig));
  if (n > 0)
    (void)!write(2, line, static_cast<std::size_t>(n));
  loader::remove_temporary_copies();
  _exit(128 + sig);
}

/// Ctrl-C, kill: one line, the temporaries removed, status 128 + signal (130, 143, 129).
void on_interrupt(int sig)
{
  const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
  char line[128];
  const int n = std::snprintf(line, sizeof line, "%s: interrupted by %s; the run did not finish\n", g_tool, name);
  if (n > 0)
    (void)!write(2, line, static_cast<std::size_t>(n));
  loader::remove_temporary_copies();
  _exit(128 + sig);
}

void on_alarm(int)
{
  char line[160];
  const int n = std::snprintf(
      line, sizeof line,
      "%s: wall-clock time limit reached (--wall-time-limit); a PE may be spinning without calling the library\n",
      g_tool);
  if (n > 0)
    (void)!write(2, line, static_cast<std::size_t>(n));
  loader::remove_temporary_copies();
  _exit(4);
}

} // namespace

void install_signal_handlers(const Request& request)
{
  std::snprintf(g_tool, sizeof g_tool, "%s", request.tool.c_str());
  struct sigaction stop {};
  stop.sa_handler = on_interrupt;
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaction(sig, &stop, nullptr);
  if (request.emulate)
    return; // until the emulator's launcher takes the signals over
  loader::install_crash_handlers(on_crash);
  if (request.wall_limit > 0) {
    std::signal(SIGALRM, on_alarm);
    alarm(static_cast<unsigned>(std::ceil(request.wall_limit))); // 500ms: one second, not none
  }
}

// ------------------------------------------------------------------ the PEs and their platform

std::uint64_t symmetric_heap_bytes(const Request& request)
{
  std::uint64_t heap_bytes = request.scenario.job.symmetric_heap;
  if (const char* env = std::getenv("SHMEM_SYMMETRIC_SIZE")) {
    try {
      heap_bytes = parse_symmetric_size(std::string(env));
    } catch (const std::invalid_argument& e) {
      throw ScenarioError(std::string("SHMEM_SYMMETRIC_SIZE=") + e.what());
    }
  }
  if (heap_bytes > (std::uint64_t{1} << 46))
    bad_option(request, "symmetric heap of " + std::to_string(heap_bytes) +
                            " bytes per PE is more than this simulator can reserve (at most 64 TiB)");
  return heap_bytes + front::kReservedHeap;
}

namespace {

/// More PEs on a node than it has cores for programs: one notice line saying how they were placed.
void placement_notice(const Request& request, const std::vector<int>& node_of)
{
  const scenarios::Scenario& sc = request.scenario;
  const auto& hosts             = sc.platform.hosts;
  int cores                     = hosts.cores_per_node;
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
  const std::string nodes_text = used < hosts.nodes
                                     ? std::to_string(used) + " of " + std::to_string(hosts.nodes) + " nodes"
                                     : std::to_string(used) + " nodes";
  const std::string cores_text =
      std::to_string(hosts.cores_per_node) + " cores" +
      (cores != hosts.cores_per_node ? " (" + std::to_string(cores) + " for programs, 1 for the NIC's progress thread)"
                                     : "");
  const std::string per_node = least == most ? std::to_string(most) + " PEs per node"
                                             : std::to_string(least) + " to " + std::to_string(most) + " PEs per node";
  std::fprintf(stderr, "%s: %zu PEs on %s x %s: %s (%s placement) share their node's %d core%s\n", request.tool.c_str(),
               node_of.size(), nodes_text.c_str(), cores_text.c_str(), per_node.c_str(),
               sc.job.placement == scenarios::Placement::Block ? "block" : "cyclic", cores, cores == 1 ? "" : "s");
}

/// The one line that says which platform the run is on, and who chose it.
void platform_notice(const Request& request)
{
  const scenarios::PlatformParams& p = request.scenario.platform;
  std::string text                   = scenarios::describe_platform(p);
  if (!request.platform_origin.empty()) // after the preset's name
    text.insert(p.preset.size(), request.platform_origin);
  std::fprintf(stderr, "%s: platform: %s\n", request.tool.c_str(), text.c_str());
}

/// The launcher's lines after a run: its error lines, a run directory it could not write, the
/// trace files. Returns the exit status.
int report(const Request& request, const Finished& f, const Platform& platform)
{
  std::fflush(nullptr);
  const char* tool = request.tool.c_str();
  for (const std::string& e : f.outcome.errors)
    std::fprintf(stderr, "%s: %s\n", tool, e.c_str());
  if (!f.write_error.empty())
    std::fprintf(stderr, "%s: %s\n", tool, f.write_error.c_str());
  if (!request.quiet && !f.trace_files.empty())
    std::fprintf(stderr, "%s: trace (%s): %s, %s (Perfetto), %s (Paje); 'shmemsim report %s' analyses it\n", tool,
                 platform.trace_description().c_str(), f.trace_files[0].c_str(), f.trace_files[1].c_str(),
                 f.trace_files[2].c_str(), request.out.c_str());
  return f.status();
}

int run_emulated(const Request& request)
{
  EmulatedPlatform platform(request);
  const Finished f = execute(request, platform);
  return report(request, f, platform);
}

[[noreturn]] void run_simulated(const Request& request)
{
  RunSettings settings           = simulation_settings(request);
  const std::uint64_t heap_bytes = symmetric_heap_bytes(request);
  std::vector<int> node_of       = place_endpoints(request.scenario);
  const int npes                 = static_cast<int>(node_of.size());
  // Every PE is a loaded copy of the program with its heap reserved in this one process: bound
  // both before loading (a typo such as -np 1000000 must not grind for hours).
  if (npes > kMaxPes)
    bad_option(request, "-np " + std::to_string(npes) + ": at most " + std::to_string(kMaxPes) +
                            " PEs (each is a copy of the program loaded into the simulator's process)");
  if (static_cast<double>(npes) * 2.0 * static_cast<double>(heap_bytes) > static_cast<double>(std::uint64_t{1} << 46))
    bad_option(request,
               std::to_string(npes) + " PEs x a symmetric heap of " + std::to_string(heap_bytes) +
                   " bytes need more address space than the simulator can reserve (64 TiB, counting alignment): "
                   "lower SHMEM_SYMMETRIC_SIZE or job.symmetric_heap");
  LoadedProgram program = load_program(request, node_of, heap_bytes, settings.stack_guards);
  platform_notice(request);
  placement_notice(request, node_of);

  ProgramWorkload workload(request.scenario, program);
  // PE actors and program copies are not torn down: the process ends with std::_Exit below.
  auto* platform      = new SimulatedPlatform(request, std::move(node_of), workload, std::move(settings));
  const Finished f    = execute(request, *platform);
  int status          = report(request, f, *platform);
  const RunOutcome& r = f.outcome;
  if (!request.quiet && r.status == sim::RunStatus::Completed)
    std::fprintf(stderr, "%s: %d PEs finished at simulated time %.9f s (%llu model events), exit status %d\n",
                 request.tool.c_str(), npes, r.summary["sim_time_s"].get<double>(),
                 static_cast<unsigned long long>(r.summary["events"].get<std::uint64_t>()), r.exit_code);
  const sim::DeferredSlices& slices = platform->simulation().models().sim->deferred_slices();
  if (slices.mode() == sim::DeferredSlices::Mode::Check)
    std::fprintf(stderr,
                 "%s: SHMEMSIM_DEFER_SLICES=check: %lu time slices would have been deferred, their dates checked\n",
                 request.tool.c_str(), slices.deferred_count());
  std::fflush(nullptr);
  if (request.finished)
    status = request.finished(status);
  std::fflush(nullptr);
  std::_Exit(status);
}

} // namespace

int run_program(const Request& request)
{
  if (request.emulate) {
    const int status = run_emulated(request);
    return request.finished ? request.finished(status) : status;
  }
  run_simulated(request);
}

} // namespace shmemsim::run
