#include "run/Emulated.hpp"

#include "run/Program.hpp"
#include "run/ProgramLoading.hpp"
#include "run/Run.hpp"
#include "run/Simulated.hpp" // place_endpoints
#include "sim/Histogram.hpp"
#include "traces/Merge.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace fs = std::filesystem;

namespace shmemsim::run {

namespace {

/// A host file: one host per line (its first word; "#" starts a comment; Open MPI's "slots=N"
/// and the like after it are ignored).
std::vector<std::string> read_host_file(const Request& request, const std::string& path)
{
  std::ifstream in(path);
  if (!in)
    bad_option(request, "--hosts " + path + ": cannot read it");
  std::vector<std::string> hosts;
  std::string line;
  while (std::getline(in, line)) {
    line                = line.substr(0, line.find('#'));
    const std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos)
      continue;
    hosts.push_back(line.substr(b, line.find_first_of(" \t\r", b) - b));
  }
  if (hosts.empty())
    bad_option(request, "--hosts " + path + ": no host in it (one host name or address per line)");
  return hosts;
}

/// Each PE's host: emulator.hosts (or --hosts) in job.placement order; empty when none is given.
std::vector<std::string> pe_hosts(const Request& request, int npes)
{
  const scenarios::Scenario& sc = request.scenario;
  const std::vector<std::string> hosts =
      request.hosts_file.empty() ? sc.emulator.hosts : read_host_file(request, request.hosts_file);
  std::vector<std::string> of;
  if (hosts.empty())
    return of;
  const int h   = static_cast<int>(hosts.size());
  const int per = (npes + h - 1) / h;
  for (int pe = 0; pe < npes; ++pe)
    of.push_back(hosts[static_cast<std::size_t>(sc.job.placement == scenarios::Placement::Cyclic ? pe % h : pe / per)]);
  return of;
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

} // namespace

emulator::Config emulator_config(const Request& request, int npes, std::uint64_t heap_bytes)
{
  const scenarios::Scenario& sc = request.scenario;
  try {
    static_cast<void>(sc.emulator.bandwidth_bps()); // the PEs read it: refused here, before any starts
  } catch (const std::invalid_argument& e) {
    bad_option(request, std::string("emulator.bandwidth: ") + e.what() + " (or \"none\")");
  }
  emulator::Config c;
  c.npes       = npes;
  c.heap_bytes = heap_bytes;
  c.boot_host = c.listen_host = sc.emulator.host;
  c.seed                      = sc.seed;
  c.routing                   = sc.platform.fabric.routing;
  c.limits                    = sc.platform.limits;
  c.contexts                  = sc.job.contexts;
  c.collectives               = sc.job.runtime.collectives;
  c.emulator                  = sc.emulator;
  return c;
}

EmulatedPlatform::EmulatedPlatform(const Request& request) : request_(request)
{
  const scenarios::Scenario& sc = request.scenario;
  if (request.tag_output || !request.sim_time_limit.empty())
    bad_option(request, "--emulate does not support --tag-output or --sim-time-limit (docs/emulator.md)");
  const traces::Level level = trace_level(sc, request.trace, !request.out.empty());
  if (level == traces::Level::Packets)
    bad_option(request, "--emulate: trace level packets: the emulator sees no packets (use ops; docs/emulator.md)");
  const fs::path program = fs::absolute(sc.job.program);
  if (!fs::exists(program))
    bad_option(request, sc.job.program + ": no such file");
  const int npes       = static_cast<int>(place_endpoints(sc).size());
  spec_.job            = emulator_config(request, npes, symmetric_heap_bytes(request));
  spec_.pe_hosts       = pe_hosts(request, npes);
  spec_.ssh_every_host = sc.emulator.ssh_every_host;
  spec_.ssh            = split_words(sc.emulator.ssh);
  if (spec_.ssh.empty())
    bad_option(request, "emulator.ssh: empty (the command that starts a PE on another host, e.g. \"ssh -T\")");
  spec_.pe_program    = self_dir() + "/shmemsim-emu-pe";
  spec_.program       = program.string();
  spec_.args          = sc.job.args;
  spec_.wall_limit    = request.wall_limit;
  spec_.stall_timeout = ps_to_seconds(sc.emulator.stall_timeout);
  spec_.quiet         = request.quiet;
  if (!request.out.empty()) {
    create_run_directory(request.out);
    if (level != traces::Level::Off)
      spec_.trace_dir = fs::absolute(request.out).lexically_normal().string();
  }
  const std::set<std::string> hosts(spec_.pe_hosts.begin(), spec_.pe_hosts.end());
  nodes_ = static_cast<int>(std::max<std::size_t>(1, hosts.size()));
}

EmulatedPlatform::~EmulatedPlatform()
{
  std::error_code ec;
  for (const std::string& p : pe_trace_files())
    fs::remove(p, ec); // the PEs' own files: merged, or of a job that failed
}

std::vector<std::string> EmulatedPlatform::pe_trace_files() const
{
  std::vector<std::string> parts;
  if (!spec_.trace_dir.empty())
    for (int pe = 0; pe < spec_.job.npes; ++pe)
      parts.push_back(emulator::pe_trace_file(spec_.trace_dir, pe));
  return parts;
}

void EmulatedPlatform::merge_trace()
{
  if (spec_.trace_dir.empty())
    return;
  std::map<std::string, std::string> meta =
      trace_metadata(request_.scenario, static_cast<std::size_t>(spec_.job.npes), nodes_);
  meta["mode"]                         = "emulated";
  meta["clock"]                        = "real";
  meta["epoch_ns"]                     = std::to_string(report_.epoch_ns);
  const std::vector<std::string> parts = pe_trace_files();
  if (status_ != kExitOk) // PEs killed while writing: their last lines may be cut
    for (const std::string& p : parts)
      traces::trim_partial_line(p);
  try {
    trace_  = traces::merge_traces(parts, meta, &missing_);
    traced_ = true;
  } catch (const std::exception& e) {
    merge_error_ = e.what(); // write_trace reports it, as a run directory's error
  }
}

void EmulatedPlatform::summarize_shared(nlohmann::json& s) const
{
  const double time_s = report_.wall_seconds;
  // The run's time under the simulated summary's name: here real (wall-clock) seconds.
  s["sim_time_s"]              = time_s;
  s["deliveries"]              = report_.deliveries;
  s["out_of_order_deliveries"] = report_.out_of_order;
  // Requests are executed or the job fails (a bad request ends it): none fails at its target.
  s["operations"]    = {{"issued", report_.requests},
                        {"failed_at_target", 0},
                        {"acks_received", report_.acks},
                        {"replies_received", report_.replies}};
  const auto payload = report_.work.count("payload_bytes") ? report_.work.at("payload_bytes") : 0;
  // No modelled port: TCP carries the data (null, as no figure).
  s["bandwidth"] = {{"payload_bytes", payload},
                    {"aggregate_Bps", time_s > 0 ? static_cast<double>(payload) / time_s : 0.0},
                    {"busiest_port_utilization", nullptr}};
  if (!traced_)
    return; // no trace (output.trace off): the latencies are not known
  // As the simulated NIC measures them: from a request's issue to its delivery at the target, and
  // to its ACK or REPLY counted at the initiator (the merged trace's real dates).
  sim::Histogram delivery, completion;
  std::unordered_map<std::uint64_t, std::int64_t> issued;
  for (const traces::Event& e : trace_.events) {
    if (e.type == traces::Type::Msg) {
      issued[e.id] = e.t;
    } else if (e.type == traces::Type::Dlv || e.type == traces::Type::Done) {
      const auto it = issued.find(e.id);
      if (it != issued.end())
        (e.type == traces::Type::Dlv ? delivery : completion).add(e.t - it->second);
    }
  }
  s["latency"] = {{"delivery", histogram_json(delivery)}, {"completion", histogram_json(completion)}};
}

RunOutcome EmulatedPlatform::run()
{
  std::fflush(nullptr);
  status_ = emulator::launch(spec_, &report_);
  merge_trace();
  RunOutcome r;
  r.exit_code       = status_;
  nlohmann::json& s = r.summary;
  s["mode"]         = "emulated";
  s["platform"]     = scenarios::platform_record(request_.scenario.platform); // its NIC limits and routing apply
  s["pes"] = s["endpoints"] = spec_.job.npes;
  s["nodes"]                = nodes_;
  s["wall_time_s"]          = report_.wall_seconds;
  summarize_shared(s);
  s["emulator"] = {{"held_by_injector", report_.held}, {"restored_to_order", report_.restored}, {"work", report_.work}};
  s["exit_status"] = report_.exit_status;
  return r;
}

std::vector<std::string> EmulatedPlatform::write_trace(const std::string& dir)
{
  if (!merge_error_.empty())
    throw std::runtime_error(merge_error_);
  if (!traced_)
    return {};
  const std::vector<std::string> files = traces::write_trace_files(trace_, dir);
  if (!missing_.empty())
    std::fprintf(stderr, "%s: trace: %zu PE(s) left no trace file (the job ended early), first %s\n",
                 request_.tool.c_str(), missing_.size(), missing_[0].c_str());
  return files;
}

} // namespace shmemsim::run
