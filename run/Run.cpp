#include "run/Run.hpp"

#include "base/CommandLine.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace shmemsim::run {

void bad_option(const Request& request, const std::string& what)
{
  const std::string& cmd = request.command;
  throw base::UsageError((cmd.empty() ? "" : cmd + ": ") + what + " (see '" + request.tool +
                         (cmd.empty() ? "" : " " + cmd) + " --help')");
}

traces::Level trace_level(const scenarios::Scenario& sc, const std::string& option, bool has_out)
{
  traces::Level level = traces::Level::Off;
  if (!option.empty()) {
    if (!traces::parse_level(option, &level))
      throw scenarios::ScenarioError("--trace " + option + ": unknown trace level (expected off, ops or packets)");
    if (level != traces::Level::Off && !has_out)
      throw scenarios::ScenarioError("--trace " + option + " needs --out DIR (where the trace files go)");
    return level;
  }
  if (!has_out)
    return traces::Level::Off;
  traces::parse_level(sc.output_trace, &level);
  return level;
}

std::map<std::string, std::string> trace_metadata(const scenarios::Scenario& sc, std::size_t pes, int nodes)
{
  std::map<std::string, std::string> meta = {
      {"scenario", sc.source},
      {"seed", std::to_string(sc.seed)},
      {"pes", std::to_string(pes)},
      {"nodes", std::to_string(nodes)},
      {"max_cts", std::to_string(sc.platform.limits.max_cts)},
      {"max_mds", std::to_string(sc.platform.limits.max_mds)},
      {"max_volatile_size", std::to_string(sc.platform.limits.max_volatile_size)}};
  if (!sc.job.program.empty())
    meta["program"] = sc.job.program;
  return meta;
}

void create_run_directory(const std::string& dir)
{
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw scenarios::ScenarioError("--out " + dir + ": cannot create directory: " + ec.message());
}

namespace {
void write_file(const std::filesystem::path& p, const std::string& text)
{
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(errno));
}
} // namespace

void write_run_directory(const std::string& dir, const RunOutcome& outcome, const scenarios::Scenario& sc)
{
  const std::filesystem::path d(dir);
  std::error_code ec;
  std::filesystem::create_directories(d, ec);
  if (ec)
    throw std::runtime_error("cannot create directory: " + ec.message());
  write_file(d / "summary.json", outcome.summary.dump(2) + "\n");
  nlohmann::json resolved = sc.resolved;
  if (!sc.job.program.empty()) { // shmemsim-run: the program and arguments it ran, so the file reruns it
    resolved["job"]["program"] = sc.job.program;
    resolved["job"]["args"]    = sc.job.args;
    resolved["job"]["env"]     = sc.job.env;
  }
  write_file(d / "scenario.json", resolved.dump(2) + "\n");
}

Finished execute(const Request& request, Platform& platform)
{
  Finished f;
  f.outcome           = platform.run();
  RunOutcome& r       = f.outcome;
  r.summary["status"] = r.exit_code;
  r.summary["checks"] = {{"passed", r.exit_code == kExitOk}, {"failures", r.errors}};
  if (request.out.empty())
    return f;
  try {
    write_run_directory(request.out, r, request.scenario);
    f.trace_files = platform.write_trace(request.out);
  } catch (const std::exception& e) {
    f.write_error = "--out " + request.out + ": " + e.what();
  }
  return f;
}

namespace {
std::string human_time(double s)
{
  char buf[64];
  if (s == 0)
    return "0 s";
  if (s < 1e-6)
    std::snprintf(buf, sizeof buf, "%.3f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}
std::string human_rate(double bps)
{
  char buf[64];
  if (bps >= 1e9)
    std::snprintf(buf, sizeof buf, "%.3f GB/s", bps / 1e9);
  else if (bps >= 1e6)
    std::snprintf(buf, sizeof buf, "%.3f MB/s", bps / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.3f kB/s", bps / 1e3);
  return buf;
}
} // namespace

std::string format_summary(const nlohmann::json& s)
{
  std::ostringstream o;
  char line[256];
  auto row = [&](const char* k, const std::string& v) {
    std::snprintf(line, sizeof line, "  %-26s %s\n", k, v.c_str());
    o << line;
  };
  row("simulated time", human_time(s["sim_time_s"].get<double>()));
  row("model events", std::to_string(s["events"].get<std::uint64_t>()));
  const auto del = s["deliveries"].get<std::uint64_t>();
  const auto ooo = s["out_of_order_deliveries"].get<std::uint64_t>();
  std::snprintf(line, sizeof line, "%llu (%llu out of order, %.2f %%)", static_cast<unsigned long long>(del),
                static_cast<unsigned long long>(ooo),
                del > 0 ? 100.0 * static_cast<double>(ooo) / static_cast<double>(del) : 0.0);
  row("deliveries", line);
  row("reordered packets", std::to_string(s["fabric"]["reordered_packets"].get<std::uint64_t>()));
  if (const auto fc = s["fabric"].find("flow_control"); fc != s["fabric"].end())
    row("credit stalls", std::to_string((*fc)["credit_stalls"].get<std::uint64_t>()) + " (output ports waited " +
                             human_time((*fc)["credit_wait_s"].get<double>()) + " for room, summed)");
  for (const char* which : {"delivery", "completion"}) {
    const auto& h = s["latency"][which];
    std::string v = "mean " + human_time(h["mean_s"].get<double>()) + ", p50 " + human_time(h["p50_s"].get<double>()) +
                    ", p99 " + human_time(h["p99_s"].get<double>()) + ", max " + human_time(h["max_s"].get<double>());
    row((std::string(which) + " latency").c_str(), v);
  }
  std::snprintf(line, sizeof line, "%llu B (%s aggregate, busiest port %.1f %% busy)",
                static_cast<unsigned long long>(s["bandwidth"]["payload_bytes"].get<std::uint64_t>()),
                human_rate(s["bandwidth"]["aggregate_Bps"].get<double>()).c_str(),
                100.0 * s["bandwidth"]["busiest_port_utilization"].get<double>());
  row("payload delivered", line);
  for (const auto& t : s["traffic"]) {
    std::string v = std::to_string(t["operations"].get<std::uint64_t>()) + " ops in " +
                    human_time(t["duration_s"].get<double>()) + ", " + human_rate(t["bandwidth_Bps"].get<double>());
    if (t.contains("half_round_trip_s"))
      v += ", half round trip " + human_time(t["half_round_trip_s"].get<double>());
    v += t["verified"].is_null() ? ", data not checked"
                                 : (t["verified"].get<bool>() ? ", data verified" : ", DATA CHECK FAILED");
    row(("traffic " + t["pattern"].get<std::string>()).c_str(), v);
  }
  row("checks", s["checks"]["passed"].get<bool>() ? "passed" : "FAILED");
  return o.str();
}

} // namespace shmemsim::run
