#include "run/Simulated.hpp"

#include "run/Run.hpp"
#include "sim/Simulation.hpp"
#include "sim/portals_model/Network.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <unistd.h>

#include <algorithm>
#include <cerrno> // program_invocation_short_name: the progress line's prefix (shmemsim, shmemsim-run)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>

namespace shmemsim::run {

using scenarios::Scenario;
using scenarios::ScenarioError;

nlohmann::json histogram_json(const sim::Histogram& h)
{
  return {{"count", h.count()},
          {"mean_s", h.mean() / static_cast<double>(kPsPerSecond)},
          {"min_s", ps_to_seconds(h.min())},
          {"p50_s", ps_to_seconds(h.quantile(0.5))},
          {"p99_s", ps_to_seconds(h.quantile(0.99))},
          {"max_s", ps_to_seconds(h.max())}};
}

namespace {

int endpoint_count(const Scenario& sc)
{
  return sc.job.pes > 0 ? sc.job.pes : sc.platform.hosts.nodes * sc.job.pes_per_node;
}

} // namespace

std::vector<int> place_endpoints(const Scenario& sc)
{
  const int n     = endpoint_count(sc);
  const int nodes = sc.platform.hosts.nodes;
  std::vector<int> node_of(static_cast<std::size_t>(n));
  for (int ep = 0; ep < n; ++ep)
    node_of[static_cast<std::size_t>(ep)] =
        sc.job.placement == scenarios::Placement::Block ? ep / sc.job.pes_per_node : ep % nodes;
  return node_of;
}

RunSettings simulation_settings(const Request& request)
{
  RunSettings settings;
  if (!request.sim_time_limit.empty()) {
    try {
      settings.time_limit = parse_time(request.sim_time_limit);
    } catch (const std::invalid_argument& e) {
      bad_option(request, "--sim-time-limit " + request.sim_time_limit + ": " + e.what());
    }
    settings.time_limit_text = request.sim_time_limit;
  }
  settings.trace    = trace_level(request.scenario, request.trace, !request.out.empty());
  settings.progress = !request.quiet;
  return settings;
}

int exit_status(sim::RunStatus status, int workload_verdict)
{
  switch (status) {
    case sim::RunStatus::Completed:
      return workload_verdict;
    case sim::RunStatus::Deadlock:
      return kExitDeadlock;
    case sim::RunStatus::TimeLimit:
      return kExitTimeLimit;
  }
  return kExitDeadlock;
}

SimulatedRun::SimulatedRun(const Scenario& sc, std::vector<int> node_of, Workload& workload, RunSettings settings)
    : sc_(sc), workload_(workload), settings_(std::move(settings))
{
  build_models(std::move(node_of));
  if (settings_.recorder != nullptr)
    attach_recorder();
  workload_.setup(models_, settings_.recorder);
}

SimulatedRun::~SimulatedRun() = default;

void SimulatedRun::build_models(std::vector<int> node_of)
{
  models_.node_of       = std::move(node_of);
  sim::HostParams hosts = sc_.platform.hosts;
  if (sc_.platform.progress_core && hosts.cores_per_node > 1)
    hosts.cores_per_node -= 1; // the NIC's progress thread has a core of its own
  models_.program_cores = hosts.cores_per_node;
  // The models size their tables from the scenario: memory can run out here (e.g. millions of
  // injection queues or portal table entries per NIC). Say which keys size them.
  try {
    models_.sim = std::make_unique<sim::Simulation>(hosts, sc_.seed, sc_.platform.noise, settings_.stack_guards);
    models_.net = std::make_unique<portals::Network>(*models_.sim, sc_.platform.fabric, sc_.platform.nic,
                                                     sc_.platform.limits, models_.node_of);
  } catch (const std::bad_alloc&) {
    throw ScenarioError(sc_.source + ": not enough memory to build the platform's model for platform.nodes " +
                        std::to_string(sc_.platform.hosts.nodes) + ", platform.nic.injection_queues " +
                        std::to_string(sc_.platform.nic.injection_queues) + ", platform.nic.limits.max_pt_index " +
                        std::to_string(sc_.platform.limits.max_pt_index) + " and " +
                        std::to_string(models_.node_of.size()) + " endpoints; lower them");
  }
  // Time slices nothing else can observe are deferred (sim/DeferredSlices); SHMEMSIM_DEFER_SLICES=off
  // executes every slice, =check executes the ones it would defer and checks their computed dates.
  const char* defer   = std::getenv("SHMEMSIM_DEFER_SLICES");
  const std::string d = defer != nullptr ? defer : "";
  if (d == "off")
    models_.sim->deferred_slices().set_mode(sim::DeferredSlices::Mode::Off);
  else if (d == "check")
    models_.sim->deferred_slices().set_mode(sim::DeferredSlices::Mode::Check);
  else if (!d.empty() && d != "on")
    throw ScenarioError("SHMEMSIM_DEFER_SLICES=" + d + ": expected on (the default), off or check");
}

void SimulatedRun::attach_recorder()
{
  traces::Recorder& rec = *settings_.recorder;
  portals::Network& net = *models_.net;
  for (const auto& [key, value] : trace_metadata(sc_, models_.node_of.size(), sc_.platform.hosts.nodes))
    rec.meta(key, value);
  rec.meta("cores_per_node", std::to_string(sc_.platform.hosts.cores_per_node));
  rec.meta("link_bandwidth_Bps", std::to_string(sc_.platform.fabric.link_bandwidth / 8));
  rec.meta("mtu", std::to_string(sc_.platform.fabric.mtu));
  for (std::size_t pe = 0; pe < models_.node_of.size(); ++pe)
    rec.pe(static_cast<int>(pe), models_.node_of[pe]);
  if (rec.level() == traces::Level::Packets)
    for (int l = 0; l < net.fabric().link_count(); ++l)
      rec.link(l, net.fabric().link_name(l));
  net.set_observer(&rec);
  workload_.describe(rec);
  // The reorder window is bounded by the simulated clock (events are written as they become
  // final); SHMEMSIM_TRACE_WINDOW=unbounded holds them all until the end, as a check of that.
  const char* window  = std::getenv("SHMEMSIM_TRACE_WINDOW");
  const std::string w = window != nullptr ? window : "";
  if (!w.empty() && w != "bounded" && w != "unbounded")
    throw ScenarioError("SHMEMSIM_TRACE_WINDOW=" + w + ": expected bounded (the default) or unbounded");
  if (w != "unbounded")
    rec.set_clock([sim = models_.sim.get()] { return sim->queue().now(); });
}

// ---- progress line on a terminal (issue 16)
namespace {
/// The status line of a running simulation. SimGrid's signals are process-wide and cannot be
/// disconnected, so they are connected once and forward to the run in progress (if it shows one).
class ProgressLine {
public:
  explicit ProgressLine(sim::Simulation& sim) : sim_(sim), start_(Clock::now()), last_(start_)
  {
    static bool connected = false;
    if (!connected) {
      connected = true;
      simgrid::s4u::Engine::on_time_advance_cb([](double) {
        if (active_ != nullptr)
          active_->tick();
      });
      simgrid::s4u::Actor::on_creation_cb([](simgrid::s4u::Actor&) {
        if (active_ != nullptr)
          ++active_->actors_;
      });
      simgrid::s4u::Actor::on_termination_cb([](simgrid::s4u::Actor const&) {
        if (active_ != nullptr)
          ++active_->finished_;
      });
    }
    active_ = this;
  }
  ~ProgressLine() { active_ = nullptr; }
  ProgressLine(const ProgressLine&)            = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// The end of the run: the status line, if one was shown, becomes a final line.
  void finish()
  {
    active_ = nullptr;
    if (shown_)
      print(true);
  }

private:
  using Clock = std::chrono::steady_clock;

  void tick()
  {
    const auto now = Clock::now();
    if (now - start_ < std::chrono::milliseconds(500) || now - last_ < std::chrono::milliseconds(250))
      return;
    last_ = now;
    print(false);
  }

  void print(bool final)
  {
    const double wall   = std::chrono::duration<double>(Clock::now() - start_).count();
    const double events = static_cast<double>(sim_.queue().events_processed());
    const double sim_s  = ps_to_seconds(sim_.end_time());
    char line[256];
    std::snprintf(line, sizeof line, "%s: %s %.9g s simulated, %.3f M model events/s, %zu of %zu actors finished%s",
                  program_invocation_short_name, final ? "run ended:" : "running:", sim_s,
                  wall > 0 ? events / wall / 1e6 : 0.0, finished_, actors_, final ? "" : " ...");
    // \r and erase-line: each update overwrites the previous one; the final line ends it.
    std::fprintf(stderr, "\r\033[K%s%s", line, final ? "\n" : "");
    std::fflush(stderr);
    shown_ = true;
  }

  static inline ProgressLine* active_ = nullptr;
  sim::Simulation& sim_;
  Clock::time_point start_, last_;
  std::size_t actors_ = 0, finished_ = 0;
  bool shown_ = false;
};
} // namespace
// ---- end of progress line

RunOutcome SimulatedRun::execute()
{
  const auto wall0 = std::chrono::steady_clock::now();
  RunOutcome out;
  std::unique_ptr<ProgressLine> progress;
  if (settings_.progress && ::isatty(2) == 1)
    progress = std::make_unique<ProgressLine>(*models_.sim);
  workload_.start();
  const auto run0      = std::chrono::steady_clock::now();
  out.status           = models_.sim->run(settings_.time_limit);
  out.run_wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
  if (progress)
    progress->finish();

  int verdict = kExitOk;
  if (out.status == sim::RunStatus::Completed)
    verdict = workload_.verdict(out.errors);
  else
    report_stop(out.status, out);
  out.exit_code = exit_status(out.status, verdict);

  out.summary = platform_summary();
  workload_.summarize(out.summary);
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return out;
}

void SimulatedRun::report_stop(sim::RunStatus status, RunOutcome& out)
{
  sim::Simulation& sim = *models_.sim;
  char when[64];
  std::snprintf(when, sizeof when, "%.9f", ps_to_seconds(sim.end_time()));
  std::vector<std::string> extra;
  workload_.explain_stop(status, extra);
  if (status == sim::RunStatus::Deadlock) {
    out.errors.push_back(std::string("deadlock at simulated time ") + when + " s: every " +
                         workload_.blocked_parties() + " is blocked");
    for (const std::string& b : sim.blocked())
      out.errors.push_back("  " + b);
    for (const std::string& e : extra)
      out.errors.push_back("  " + e);
    return;
  }
  if (sim.queue().past_horizon())
    out.errors.push_back("simulated time reached the clock's horizon (4e6 s, about 46 days of picoseconds in 63 bits); "
                         "the run stops there; still running:");
  else
    out.errors.push_back("simulated-time limit of " + settings_.time_limit_text + " reached; still running:");
  for (const std::string& e : extra)
    out.errors.push_back("  " + e);
  for (const std::string& b : sim.blocked())
    out.errors.push_back("  " + b);
}

nlohmann::json SimulatedRun::platform_summary()
{
  sim::Simulation& sim       = *models_.sim;
  portals::Network& net      = *models_.net;
  const Ps end               = sim.end_time();
  const nic::NicStats t      = net.totals();
  const sim::FabricStats& fs = net.fabric().stats();
  const double sim_s         = ps_to_seconds(end);

  nlohmann::json s;
  s["sim_time_s"]              = sim_s;
  s["events"]                  = sim.queue().events_processed();
  s["deliveries"]              = t.deliveries;
  s["out_of_order_deliveries"] = t.out_of_order;
  s["operations"]              = {{"issued", t.messages},
                                  {"failed_at_target", t.failed_deliveries},
                                  {"acks_received", t.acks_received},
                                  {"replies_received", t.replies_received}};
  s["latency"]                 = {{"delivery", histogram_json(net.latency().delivery)},
                                  {"completion", histogram_json(net.latency().completion)}};
  s["bandwidth"]               = {{"payload_bytes", t.bytes_delivered},
                                  {"aggregate_Bps", sim_s > 0 ? static_cast<double>(t.bytes_delivered) / sim_s : 0.0},
                                  {"busiest_port_utilization",
                     end > 0 ? static_cast<double>(net.fabric().max_port_busy()) / static_cast<double>(end) : 0.0}};
  s["fabric"]                  = {
                       {"switches", net.fabric().switch_count()},
                       {"packets", fs.packets},
                       {"wire_bytes", fs.wire_bytes},
                       {"hops", fs.hops},
                       {"reordered_packets", fs.reordered_packets},
                       {"mean_queueing_per_hop_s", fs.hops > 0 ? ps_to_seconds(fs.queueing_total) / static_cast<double>(fs.hops) : 0.0}};
  if (const auto& f = net.fabric().params(); f.topology == sim::Topology::Dragonfly)
    s["fabric"]["dragonfly"] = {{"routing", f.dragonfly.routing == sim::DragonflyRouting::Minimal ? "minimal"
                                            : f.dragonfly.routing == sim::DragonflyRouting::Valiant ? "valiant"
                                                                                                    : "ugal"},
                                {"nonminimal_packets", fs.nonminimal_packets},
                                {"global_hops", fs.global_hops},
                                {"max_switch_hops", fs.max_switch_hops}};
  if (const auto& f = net.fabric().params(); f.topology == sim::Topology::Dragonfly && net.fabric().credit_mode())
    s["fabric"]["dragonfly"]["virtual_channels"] = f.dragonfly.virtual_channels();
  if (net.fabric().credit_mode())
    s["fabric"]["flow_control"] = {{"credit_stalls", fs.credit_stalls},
                                   {"credit_wait_s", ps_to_seconds(fs.credit_wait_total)}};
  portals::NiUsage peak;
  for (int ep = 0; ep < net.endpoints(); ++ep) {
    const auto& u = net.ni(ep).usage();
    peak.cts_peak = std::max(peak.cts_peak, u.cts_peak);
    peak.mds_peak = std::max(peak.mds_peak, u.mds_peak);
    peak.les_peak = std::max(peak.les_peak, u.les_peak);
    peak.volatile_puts += u.volatile_puts;
    peak.dma_puts += u.dma_puts;
    peak.triggered_peak = std::max(peak.triggered_peak, u.triggered_peak);
    peak.triggered_fired += u.triggered_fired;
    peak.triggered_failed += u.triggered_failed;
    peak.eqs_peak      = std::max(peak.eqs_peak, u.eqs_peak);
    peak.eq_slots_peak = std::max(peak.eq_slots_peak, u.eq_slots_peak);
    peak.events_posted += u.events_posted;
    peak.events_dropped += u.events_dropped;
    peak.pt_disabled += u.pt_disabled;
    peak.pt_disabled_drops += u.pt_disabled_drops;
  }
  s["nic"] = {{"injection_queue_wait_s", ps_to_seconds(t.queue_wait)},
              {"independent_queues", t.independent_queues},
              {"packets_held_for_ordering", t.held_packets},
              {"volatile_puts", peak.volatile_puts},
              {"dma_puts", peak.dma_puts},
              {"cts_peak_per_endpoint", peak.cts_peak},
              {"mds_peak_per_endpoint", peak.mds_peak},
              {"entries_peak_per_endpoint", peak.les_peak}};
  if (peak.triggered_fired > 0 || peak.triggered_peak > 0) // only runs that used triggered operations
    s["nic"]["triggered"] = {{"released", peak.triggered_fired},
                             {"failed", peak.triggered_failed},
                             {"peak_pending_per_endpoint", peak.triggered_peak}};
  if (peak.eqs_peak > 0) // only runs that used event queues
    s["nic"]["event_queues"] = {
        {"peak_per_endpoint", peak.eqs_peak},  {"slots_peak_per_endpoint", peak.eq_slots_peak},
        {"events_posted", peak.events_posted}, {"events_dropped", peak.events_dropped},
        {"pt_disabled", peak.pt_disabled},     {"dropped_at_disabled_pt", peak.pt_disabled_drops}};
  s["endpoints"] = net.endpoints();
  s["nodes"]     = net.nodes();
  s["platform"]  = scenarios::platform_record(sc_.platform);
  return s;
}

SimulatedPlatform::SimulatedPlatform(const Request& request, std::vector<int> node_of, Workload& workload,
                                     RunSettings settings)
    : level_(settings.trace)
{
  if (!request.out.empty())
    create_run_directory(request.out);
  if (settings.trace != traces::Level::Off)
    recorder_ = std::make_unique<traces::Recorder>(settings.trace, request.out);
  settings.recorder = recorder_.get();
  run_ = std::make_unique<SimulatedRun>(request.scenario, std::move(node_of), workload, std::move(settings));
}

SimulatedPlatform::~SimulatedPlatform() = default;

RunOutcome SimulatedPlatform::run()
{
  return run_->execute();
}

std::vector<std::string> SimulatedPlatform::write_trace(const std::string& /*dir: the recorder's, the same*/)
{
  if (recorder_ == nullptr)
    return {};
  return recorder_->write(); // into the directory it was made for (the run's --out)
}

std::string SimulatedPlatform::trace_description() const
{
  return traces::to_string(level_);
}

} // namespace shmemsim::run
