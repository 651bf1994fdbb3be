#include "run/ProgramWorkload.hpp"

#include "shmem_front/lib/async/AsyncSummary.hpp"

#include "shmem_front/lib/ContextTable.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "sim/portals_model/Network.hpp"

#include <cstdio>
#include <stdexcept>

namespace shmemsim::run {

using namespace front;

namespace {
/// The runtime's settings: the job's (its job.* keys, read into sc.job.runtime), the platform's
/// cores and the contexts' exhaustion policy (the runtime never reads scenarios).
RuntimeParams runtime_params(const scenarios::Scenario& sc, const Models& models)
{
  RuntimeParams rp          = sc.job.runtime;
  rp.core_speed             = sc.platform.hosts.core_speed;
  rp.instruction_time       = sc.platform.hosts.instruction_time;
  rp.latency_int            = sc.platform.hosts.latency_int;
  rp.latency_load           = sc.platform.hosts.latency_load;
  rp.latency_fp_add         = sc.platform.hosts.latency_fp_add;
  rp.latency_fp_mul         = sc.platform.hosts.latency_fp_mul;
  rp.divide_time            = sc.platform.hosts.divide_time;
  rp.reorder_window         = sc.platform.hosts.reorder_window;
  const auto& h             = sc.platform.hosts;
  rp.cache                  = front::CacheConfig{.line             = h.cache_line,
                                                 .sizes            = {h.l1_size, h.l2_size, h.l3_size},
                                                 .latencies        = {h.latency_load, h.l2_latency, h.l3_latency},
                                                 .line_times       = {0, h.l2_line_time, h.l3_line_time},
                                                 .store_times      = {0, h.l2_store_time, h.l3_store_time},
                                                 .memory_latency   = h.memory_latency,
                                                 .memory_bandwidth = h.memory_bandwidth,
                                                 .parallelism      = h.memory_parallelism,
                                                 .sampling         = static_cast<unsigned>(h.cache_sampling),
                                                 .tlb_entries      = {static_cast<std::uint64_t>(h.tlb_l1_entries),
                                                                      static_cast<std::uint64_t>(h.tlb_l2_entries)},
                                                 .tlb_hit          = h.tlb_l2_latency,
                                                 .tlb_walk         = h.tlb_walk,
                                                 .tlb_walkers      = h.tlb_walkers};
  rp.program_cores          = models.program_cores;
  rp.contexts_on_exhaustion = sc.job.contexts.on_exhaustion; // the PEs' context tables' policy
  return rp;
}
} // namespace

void ProgramWorkload::describe(traces::Recorder& recorder)
{
  recorder.meta("core_speed", std::to_string(static_cast<long long>(sc_.platform.hosts.core_speed)));
}

void ProgramWorkload::set_cache_lines(PortalsTransport& transport, PeRuntime& runtime, const Models& models)
{
  // Threads are pinned in order: the program cores of a node are divided among its PEs, each PE's
  // threads take its cores in turn (thread t on the (t mod k)-th of its k cores). The NIC's
  // progress core, if any, is the node's last core (the highest socket).
  const std::vector<int>& node_of = models.node_of;
  std::vector<int> on_node(static_cast<std::size_t>(sc_.platform.hosts.nodes), 0);
  std::vector<int> rank(node_of.size());
  for (std::size_t pe = 0; pe < node_of.size(); ++pe)
    rank[pe] = on_node[static_cast<std::size_t>(node_of[pe])]++;
  const int cores = std::max(models.program_cores, 1);
  first_core_.assign(node_of.size(), 0);
  core_count_.assign(node_of.size(), 1);
  for (std::size_t pe = 0; pe < node_of.size(); ++pe) {
    const int k     = std::max(1, cores / std::max(1, on_node[static_cast<std::size_t>(node_of[pe])]));
    core_count_[pe] = k;
    first_core_[pe] = (rank[pe] * k) % cores;
  }
  transport.set_cache_lines(
      std::make_unique<sim::CacheLines>(sc_.platform.hosts, sc_.platform.hosts.cores_per_node),
      [this, &runtime] {
        const auto pe = static_cast<std::size_t>(runtime.my_pe());
        return first_core_[pe] + runtime.thread_index() % core_count_[pe];
      },
      sc_.platform.hosts.cores_per_node - 1);
}

void ProgramWorkload::setup(Models& models, traces::Recorder* recorder)
{
  std::vector<PeMemory> memory;
  memory.reserve(program_.pes.size());
  for (const PeProcess& p : program_.pes)
    memory.push_back(p.mem);
  runtime_ = std::make_unique<PeRuntime>(*models.sim, runtime_params(sc_, models), program_.pes, program_.counter);
  PeRuntime& runtime = *runtime_;
  transport_         = std::make_unique<PortalsTransport>(
      *models.net, std::move(memory), sc_.job.contexts.mapping, [&runtime] { return runtime.my_pe(); },
      [&runtime](const std::string& m) { runtime.fatal(m); });
  PortalsTransport& transport = *transport_;
  transport.set_notice([](const std::string& line) { std::fprintf(stderr, "shmemsim-run: %s\n", line.c_str()); });
  runtime.set_store_listener([&transport](int pe) { transport.note_local_stores(pe); });
  transport.set_address_namer([&runtime](const void* addr) { return runtime.name_address(addr); });
  runtime.load_symbols(sc_.job.program);
  transport.set_independent_mds(sc_.job.contexts.independent_mds);
  transport.set_event_queue(sc_.job.portals_event_queue);
  set_cache_lines(transport, runtime, models);
  try {
    transport.setup();
  } catch (const std::runtime_error& e) {
    throw scenarios::ScenarioError(e.what());
  }
  if (recorder != nullptr) {
    transport.set_observer(recorder, [&runtime] { return runtime.thread_index(); });
    runtime.set_observer(recorder);
  }
  install(Env{&runtime, &transport, &runtime});
  program_.install_hooks(runtime.hooks());
  runtime.set_pthreads(program_.pthreads);
  if (program_.tag_output)
    runtime.tag_output();
}

void ProgramWorkload::start()
{
  runtime_->spawn_all();
}

int ProgramWorkload::verdict(std::vector<std::string>& /*errors: the PEs have said what failed*/)
{
  return runtime_->exit_status();
}

std::string ProgramWorkload::blocked_parties() const
{
  for (const PeProcess& p : program_.pes)
    if (p.finished)
      return "PE still running";
  return "PE";
}

void ProgramWorkload::explain_stop(sim::RunStatus status, std::vector<std::string>& lines)
{
  if (status == sim::RunStatus::TimeLimit) {
    for (const std::string& c : runtime_->computing())
      lines.push_back(c);
    return;
  }
  // PEs that ended while others still expected them (exit() before a barrier, say).
  for (const PeProcess& p : program_.pes)
    if (p.finished)
      lines.push_back("PE " + std::to_string(p.id) + " has ended (exit status " + std::to_string(p.exit_status) + ")");
}

namespace {
/// AsyncSHMEM (seed 001): per PE that ran the runtime, its design and what it counted; the
/// communication worker's utilisation is its busy time over the root task's span (offload).
void summarize_async(nlohmann::json& summary)
{
  const std::vector<async::PeRecord> recs = async::records();
  if (recs.empty())
    return;
  nlohmann::json pes = nlohmann::json::array();
  double busy = 0, span = 0;
  for (const async::PeRecord& r : recs) {
    pes.push_back({{"pe", r.pe},
                   {"runtime", r.contexts ? "contexts" : "offload"},
                   {"workers", r.workers},
                   {"tasks", r.tasks},
                   {"steals", r.steals},
                   {"offloaded_ops", r.offloaded},
                   {"suspensions", r.suspensions},
                   {"comm_busy_s", r.comm_busy_s},
                   {"comm_queue_s", r.comm_queue_s},
                   {"span_s", r.span_s},
                   {"comm_utilisation", r.span_s > 0 ? r.comm_busy_s / r.span_s : 0.0}});
    busy += r.comm_busy_s;
    span += r.span_s;
  }
  summary["async"] = {{"runtime", recs.front().contexts ? "contexts" : "offload"},
                      {"comm_utilisation", span > 0 ? busy / span : 0.0},
                      {"pes", pes}};
}
/// Choice `index` of the key `path` of job.collectives.* (its enum's names, in enumerator order).
std::string algorithm_name(const char* path, int index)
{
  return key_at(front::CollectiveParams::keys(), path).choices.at(static_cast<std::size_t>(index));
}

/// The blocking collectives the PEs called: per kind, the algorithm, the calls, the time inside
/// them and the host CPU time of it (front/runtime/CollectiveTime.hpp; docs/runs.md).
void summarize_collectives(nlohmann::json& summary, const front::CollectiveTimes& times,
                           const front::CollectiveParams& algorithms)
{
  using front::CollectiveKind;
  const std::string algorithm[front::kCollectiveKinds] = {
      algorithm_name("job.collectives.barrier", static_cast<int>(algorithms.barrier)),
      algorithm_name("job.collectives.broadcast", static_cast<int>(algorithms.broadcast)),
      algorithm_name("job.collectives.reduce", static_cast<int>(algorithms.reduce)),
      algorithm_name("job.collectives.collect", static_cast<int>(algorithms.collect)), "pairwise"};
  nlohmann::json out = nlohmann::json::object();
  for (int k = 0; k < front::kCollectiveKinds; ++k) {
    const front::CollectiveTime& t = times.of(static_cast<CollectiveKind>(k));
    if (t.calls == 0)
      continue;
    out[front::CollectiveTimes::name(static_cast<CollectiveKind>(k))] = {
        {"algorithm", algorithm[k]},
        {"calls", t.calls},
        {"inside_s", ps_to_seconds(t.inside)},
        {"host_cpu_s", ps_to_seconds(t.busy)},
        {"host_cpu_per_call_s", ps_to_seconds(t.busy) / static_cast<double>(t.calls)}};
  }
  if (!out.empty())
    summary["collectives"] = out;
}
} // namespace

void ProgramWorkload::summarize(nlohmann::json& summary)
{
  summary["pes"] = program_.pes.size();
  // Counted as the report counts the trace's ctx events: created (own resources), refused, shared.
  const ContextCounts t = context_counts(); // the library's, summed over the PEs
  summary["contexts"]   = {{"created", t.created},
                           {"refused", t.refused},
                           {"shared", t.shared_default + t.shared_created},
                           {"shared_default", t.shared_default},
                           {"shared_created", t.shared_created}};
  // Seed 003's requests: each holds a CT + an MD of its own while outstanding (ContextTable).
  summary["requests"] = {{"opened", t.requests_opened},
                         {"own_counter", t.requests_own},
                         {"shared_counter", t.requests_shared},
                         {"counters_peak_per_pe", t.request_slots_peak}};
  summarize_async(summary);
  summarize_collectives(summary, runtime_->collective_times(), runtime_->collectives());
  // The collectives the NICs ran (job.collectives.*=triggered), beside the triggered operations.
  if (const front::TriggeredSync* o = transport_ != nullptr ? transport_->offloaded() : nullptr) {
    nlohmann::json& t = summary["nic"]["triggered"];
    t["barriers"]     = o->barriers();
    t["broadcasts"]   = o->broadcasts();
    t["reductions"]   = o->reductions();
    t["posted_by_hosts"] = o->posted();
    t["nonblocking"]     = o->nb_calls();
    t["nonblocking_peak_per_pe"] = o->nb_peak();
  }
  nlohmann::json exits = nlohmann::json::array();
  for (const PeProcess& p : program_.pes)
    exits.push_back(p.exit_status);
  summary["exit_status"] = exits;
}

} // namespace shmemsim::run
