#include "tools/Limits.hpp"

#include "base/CommandLine.hpp"

#include "analysis/AxisUnits.hpp"
#include "analysis/Index.hpp"
#include "analysis/Report.hpp"
#include "scenarios/Scenario.hpp"
#include "tools/Sweep.hpp"
#include "tools/SweepPlan.hpp"
#include "tools/SweepResults.hpp"
#include "traces/Trace.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;

using json   = nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct LimitsArgs {
  std::string scenario, out, program;
  std::vector<std::string> args, sets;
  std::vector<json> cts{3, 4, 6, 10, 18}, mds, queues;
  std::vector<json> triggered; ///< --triggered: platform.nic.limits.max_triggered_ops values
  std::vector<json> eqs;       ///< --eqs: platform.nic.limits.max_eqs values
  std::vector<json> policies{"fail", "share", "round_robin", "keep_private"};
  std::vector<json> independent; ///< --independent: job.contexts.independent_mds values
  std::string jobs = "1";
  std::string y; ///< --y: the time column's figure (default: see time_figure)
  bool quiet = false;
};

/// --independent: "yes", "no" or both, as job.contexts.independent_mds values.
std::vector<json> yes_no_list(const base::Given& g)
{
  const std::string &opt = g.name, &v = g.value();
  std::vector<json> out;
  std::stringstream in(v);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item != "yes" && item != "no")
      g.fail(opt + " " + v + ": '" + item + "' is neither yes nor no (e.g. yes,no for both)");
    out.push_back(item == "yes");
  }
  if (out.empty())
    g.fail(opt + ": expected yes, no or yes,no");
  return out;
}

std::vector<json> int_list(const base::Given& g, int min)
{
  const std::string &opt = g.name, &v = g.value();
  std::vector<json> out;
  std::stringstream in(v);
  std::string item;
  while (std::getline(in, item, ',')) {
    char* end    = nullptr;
    const long n = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n < min || n > 1000000)
      g.fail(opt + " " + v + ": expected numbers of at least " + std::to_string(min) +
             " separated by commas, e.g. 3,4,8");
    out.emplace_back(n);
  }
  if (out.empty())
    g.fail(opt + ": expected a list, e.g. 3,4,8");
  return out;
}

std::vector<json> policy_list(const base::Given& g)
{
  const std::string& v = g.value();
  std::vector<json> out;
  std::stringstream in(v);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item != "fail" && item != "share" && item != "round_robin" && item != "keep_private")
      g.fail("--policies " + v + ": '" + item + "' is none of fail, share, round_robin, keep_private");
    out.emplace_back(item);
  }
  if (out.empty())
    g.fail("--policies: expected a list, e.g. fail,share");
  return out;
}

/// The command's table, filling `a`.
base::CommandLine limits_table(LimitsArgs& a)
{
  base::CommandLine cl("shmemsim", "limits");
  cl.synopsis(
        "SCENARIO.json [--cts LIST] [--mds LIST] [--queues LIST] [--triggered LIST] [--eqs LIST] [--policies LIST]\n"
        "         [--independent yes,no] [--y FIGURE] [--set KEY=VALUE ...] [-j N] [-o DIR] [--quiet] PROGRAM [ARGS...]")
      .summary(
          "Run PROGRAM over NIC limits under each contexts policy (docs/limits.md): a generated sweep and its table.")
      .description(R"TXT(Run PROGRAM over NIC limits under each contexts policy (docs/limits.md): a generated sweep of
job.contexts.on_exhaustion (--policies) x platform.nic.limits.max_cts (--cts; the runtime keeps
2 per PE) [x max_mds] [x platform.nic.injection_queues] [x platform.nic.limits.max_triggered_ops]
[x platform.nic.limits.max_eqs] [x job.contexts.independent_mds] in DIR.
Prints per point: contexts created/refused/shared, peak CTs/MDs per endpoint against the limit,
independent injection queues granted, the time (--y FIGURE, else the program's first RESULT figure
with "time" in its name, else its first numeric one, else sim_time_s), thread interference and
the hidden share of communication; writes DIR/limits.md, limits.json, limits.svg (time) and
limits-shared.svg (contexts shared), and the sweep's own files.)TXT")
      .positional("SCENARIO.json", "the platform and job", a.scenario)
      .rest("PROGRAM [ARGS...]",
            "an OpenSHMEM program built with shmemsim-cc, and its arguments (options end at PROGRAM)",
            [&a](const base::Given& g) {
              a.program = g.values.front();
              a.args.assign(g.values.begin() + 1, g.values.end());
            })
      .option("--cts", "LIST", "platform.nic.limits.max_cts values (default 3,4,6,10,18)",
              [&a](const base::Given& g) { a.cts = int_list(g, 1); })
      .option("--mds", "LIST", "platform.nic.limits.max_mds values (default: the scenario's)",
              [&a](const base::Given& g) { a.mds = int_list(g, 1); })
      .option("--queues", "LIST", "platform.nic.injection_queues values (default: the scenario's)",
              [&a](const base::Given& g) { a.queues = int_list(g, 0); })
      .option("--triggered", "LIST",
              "platform.nic.limits.max_triggered_ops values (default: the scenario's); the table then has the "
              "peak of triggered operations pending per endpoint (job.collectives.*=triggered use them)",
              [&a](const base::Given& g) { a.triggered = int_list(g, 0); })
      .option("--eqs", "LIST",
              "platform.nic.limits.max_eqs values (default: the scenario's); the table then has the peak of event "
              "queues per endpoint (job.portals.event_queue=on keeps one per PE)",
              [&a](const base::Given& g) { a.eqs = int_list(g, 0); })
      .option("--policies", "LIST", "job.contexts.on_exhaustion values (default fail,share,round_robin,keep_private)",
              [&a](const base::Given& g) { a.policies = policy_list(g); })
      .option("--independent", "yes,no",
              "job.contexts.independent_mds values: yes,no runs each point with and without the paper's proposed "
              "PTL_MD_INDEPENDENT, side by side",
              [&a](const base::Given& g) { a.independent = yes_no_list(g); })
      .option("--y", "FIGURE", "the figure of the time column", a.y)
      .option("--set", "KEY=VALUE", "override one scenario key (repeatable)",
              [&a](const base::Given& g) { a.sets.push_back(g.value()); })
      .option("-j, --jobs", "N", "N runs at once (default 1)", a.jobs)
      .option("-o, --out", "DIR", "where the sweep and the table go (default limits-NAME for NAME.json)", a.out)
      .flag("--quiet", "no line on stderr for a run that succeeded", a.quiet);
  return cl;
}

/// The arguments after "limits"; false after --help.
bool parse_limits_args(int argc, char** argv, LimitsArgs& a)
{
  const base::CommandLine cl = limits_table(a);
  if (!cl.parse(argc, argv))
    return false;
  if (a.scenario.empty())
    cl.fail("missing SCENARIO.json");
  if (a.program.empty())
    cl.fail("missing PROGRAM (an OpenSHMEM program built with shmemsim-cc)");
  if (a.out.empty())
    a.out = "limits-" + fs::path(a.scenario).stem().string();
  return true;
}

/// The scenario with the sweep over the limits instead of its own (a relative preset file made
/// absolute: the generated scenario lives in DIR).
json limits_scenario(const LimitsArgs& a)
{
  std::ifstream in(a.scenario, std::ios::binary);
  if (!in)
    throw ScenarioError(a.scenario + ": cannot read the scenario");
  json sc = json::parse(in, nullptr, false);
  if (sc.is_discarded() || !sc.is_object())
    throw ScenarioError(a.scenario + ": not a JSON object (check it with 'shmemsim validate')");
  sc.erase("sweep");
  if (sc.contains("platform") && sc["platform"].is_object() && sc["platform"].contains("preset") &&
      sc["platform"]["preset"].is_string()) {
    const std::string p = sc["platform"]["preset"].get<std::string>();
    if (p.size() > 5 && p.ends_with(".json") && fs::path(p).is_relative())
      sc["platform"]["preset"] = (fs::absolute(a.scenario).parent_path() / p).lexically_normal().string();
  }
  json cart = json::array();
  auto var  = [&](const char* key, const char* name, const std::vector<json>& values) {
    if (!values.empty())
      cart.push_back({{"key", key}, {"name", name}, {"values", values}});
  };
  // max_cts first: the plots' x; the policy second: their series.
  var("platform.nic.limits.max_cts", "max_cts", a.cts);
  var("job.contexts.on_exhaustion", "policy", a.policies);
  var("platform.nic.limits.max_mds", "max_mds", a.mds);
  var("platform.nic.injection_queues", "injection_queues", a.queues);
  var("platform.nic.limits.max_triggered_ops", "max_triggered_ops", a.triggered);
  var("platform.nic.limits.max_eqs", "max_eqs", a.eqs);
  var("job.contexts.independent_mds", "independent_mds", a.independent);
  // The time plot (limits.svg) is drawn afterwards, once the program's figures are known.
  json plots  = json::array({{{"x", "max_cts"},
                              {"y", "contexts.shared"},
                              {"series", "policy"},
                              {"file", "limits-shared.svg"},
                              {"title", "contexts shared against max_cts per policy"}}});
  sc["sweep"] = {{"cartesian", cart}, {"plot", plots}};
  return sc;
}

} // namespace

namespace {

/// A value at a dotted path of `j`, null when absent.
json at_path(const json& j, const std::string& path)
{
  const json* at   = &j;
  std::size_t from = 0;
  while (true) {
    const std::size_t dot = path.find('.', from);
    const std::string k   = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    if (!at->is_object() || !at->contains(k))
      return nullptr;
    at = &(*at)[k];
    if (dot == std::string::npos)
      return *at;
    from = dot + 1;
  }
}

json read_json_file(const fs::path& p)
{
  std::ifstream in(p, std::ios::binary);
  return in ? json::parse(in, nullptr, false) : json(nullptr);
}

/// Thread interference (seconds) and the hidden share of communication from a run's trace; nulls
/// without a trace.
void trace_figures(const fs::path& dir, json& row)
{
  row["interference_s"] = nullptr;
  row["hidden_share"]   = nullptr;
  if (!fs::exists(dir / "trace.evt"))
    return;
  try {
    const traces::Trace tr        = traces::read_trace_file((dir / "trace.evt").string());
    const analysis::Index ix      = analysis::build_index(tr);
    const analysis::Report report = analysis::make_report(ix);
    row["interference_s"]         = static_cast<double>(report.interference.total_ps) * 1e-12;
    const std::int64_t all        = report.overlap.hidden_ps + report.overlap.exposed_ps;
    if (all > 0)
      row["hidden_share"] = static_cast<double>(report.overlap.hidden_ps) / static_cast<double>(all);
  } catch (const std::exception&) {
    // An unreadable trace (a crashed run): the figures stay unknown.
  }
}

/// The time column's figure: `y` if given, else the programs' first numeric RESULT figure (in name
/// order) with "time" in its name, else their first numeric one, else sim_time_s.
std::string time_figure(const json& results, const std::string& y)
{
  if (!y.empty())
    return y;
  std::string first, timed;
  for (const json& r : results["runs"])
    for (auto it = r["reported"].begin(); it != r["reported"].end(); ++it)
      if (it->is_number()) {
        if (first.empty() || it.key() < first)
          first = it.key();
        if (it.key().find("time") != std::string::npos && (timed.empty() || it.key() < timed))
          timed = it.key();
      }
  return !timed.empty() ? timed : !first.empty() ? first : "sim_time_s";
}

/// One row per run of the sweep's results.json.
json limits_rows(const std::string& out, const std::string& y)
{
  const json results = read_json_file(fs::path(out) / "results.json");
  if (!results.is_object())
    throw ScenarioError(out + "/results.json: missing or not JSON");
  const std::string figure = time_figure(results, y);
  json rows                = json::array();
  for (const json& r : results["runs"]) {
    const fs::path dir = fs::path(out) / r["run"].get<std::string>();
    const json sc      = read_json_file(dir / "scenario.json");
    const json& s      = r["summary"];
    auto sum           = [&](const char* k) { return s.contains(k) ? s[k] : json(nullptr); };
    json row           = {{"run", r["run"]}, {"policy", r["values"]["policy"]}, {"status", r["status"]}};
    // A swept value from the sweep (a failed run may have no scenario.json), the others from the run.
    auto limit = [&](const char* name, const char* key) {
      return r["values"].contains(name) ? r["values"][name] : at_path(sc, key);
    };
    row["max_cts"]            = limit("max_cts", "platform.nic.limits.max_cts");
    row["max_mds"]            = limit("max_mds", "platform.nic.limits.max_mds");
    row["injection_queues"]   = limit("injection_queues", "platform.nic.injection_queues");
    row["independent_mds"]    = limit("independent_mds", "job.contexts.independent_mds");
    row["created"]            = sum("contexts.created");
    row["refused"]            = sum("contexts.refused");
    row["shared"]             = sum("contexts.shared");
    row["cts_peak"]           = sum("nic.cts_peak_per_endpoint");
    row["mds_peak"]           = sum("nic.mds_peak_per_endpoint");
    row["independent_queues"] = sum("nic.independent_queues");
    row["max_triggered_ops"]  = limit("max_triggered_ops", "platform.nic.limits.max_triggered_ops");
    row["triggered_peak"]     = sum("nic.triggered.peak_pending_per_endpoint");
    row["triggered_swept"]    = r["values"].contains("max_triggered_ops");
    row["max_eqs"]            = limit("max_eqs", "platform.nic.limits.max_eqs");
    row["eqs_peak"]           = sum("nic.event_queues.peak_per_endpoint");
    row["eqs_swept"]          = r["values"].contains("max_eqs");
    row["time_name"]          = figure;
    row["time"]               = figure == "sim_time_s" ? sum("sim_time_s") : r["reported"].value(figure, json(nullptr));
    trace_figures(dir, row);
    rows.push_back(row);
  }
  return rows;
}

std::string cell(const json& v)
{
  if (v.is_null())
    return "-";
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_number_float()) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
    return buf;
  }
  return v.dump();
}

/// The time column's title: the figure's readable name, its unit and that it is the run's
/// ("time (us, run)" for time_us, "simulated time (s, run)" for sim_time_s).
std::string time_title(const std::string& figure)
{
  const analysis::NameUnit u = analysis::unit_from_name(figure);
  const std::string unit     = u.stem.size() < figure.size() ? figure.substr(u.stem.size() + 1) : std::string();
  return analysis::readable_name(figure) + " (" + (unit.empty() ? "" : unit + ", ") + "run)";
}

/// The hidden share as a percentage ("3.608").
std::string percent_cell(const json& v)
{
  return v.is_number() ? cell(json(v.get<double>() * 100)) : cell(v);
}

/// The rows as a Markdown table (aligned, so that it reads on a terminal too). Each figure's
/// column says its unit and what it covers: the run (summed over its PEs or threads) or one PE.
std::string limits_table(const json& rows)
{
  const std::string time                  = time_title(rows.empty() ? "time" : rows[0]["time_name"].get<std::string>());
  const std::vector<std::string> head_all = {"policy",
                                             "max_cts",
                                             "max_mds",
                                             "queues",
                                             "status",
                                             "ctx created (run)",
                                             "refused (run)",
                                             "shared (run)",
                                             "indep. MDs",
                                             "CTs peak/limit (1 PE)",
                                             "MDs peak/limit (1 PE)",
                                             "indep. queues (run)",
                                             time,
                                             "interference (s, sum of threads)",
                                             "hidden (% of comm.)"};
  // Triggered operations get a column when they were swept or used.
  bool triggered = false;
  for (const json& r : rows)
    triggered = triggered || r.value("triggered_swept", false) || !r["triggered_peak"].is_null();
  // So do event queues.
  bool eqs = false;
  for (const json& r : rows)
    eqs = eqs || r.value("eqs_swept", false) || !r["eqs_peak"].is_null();
  std::vector<std::string> head = head_all;
  if (eqs)
    head.insert(head.begin() + 12, "EQs peak/limit (1 PE)");
  if (triggered)
    head.insert(head.begin() + 12, "triggered peak/limit (1 PE)");
  std::vector<std::vector<std::string>> cells;
  for (const json& r : rows)
    cells.push_back({cell(r["policy"]), cell(r["max_cts"]), cell(r["max_mds"]), cell(r["injection_queues"]),
                     cell(r["status"]), cell(r["created"]), cell(r["refused"]), cell(r["shared"]),
                     r["independent_mds"].is_boolean() ? (r["independent_mds"].get<bool>() ? "yes" : "no")
                                                       : cell(r["independent_mds"]),
                     cell(r["cts_peak"]) + "/" + cell(r["max_cts"]), cell(r["mds_peak"]) + "/" + cell(r["max_mds"]),
                     cell(r["independent_queues"]), cell(r["time"]), cell(r["interference_s"]),
                     percent_cell(r["hidden_share"])});
  if (triggered)
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const json& r = rows[i];
      cells[i].insert(
          cells[i].begin() + 12,
          (r["triggered_peak"].is_null() && r["status"] == 0 ? std::string("0") : cell(r["triggered_peak"])) + "/" +
              cell(r["max_triggered_ops"]));
    }
  if (eqs)
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const json& r = rows[i];
      cells[i].insert(cells[i].begin() + 12 + (triggered ? 1 : 0),
                      (r["eqs_peak"].is_null() && r["status"] == 0 ? std::string("0") : cell(r["eqs_peak"])) + "/" +
                          cell(r["max_eqs"]));
    }
  std::vector<std::size_t> w(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    w[c] = head[c].size();
    for (const auto& line : cells)
      w[c] = std::max(w[c], line[c].size());
  }
  std::ostringstream o;
  auto line = [&](const std::vector<std::string>& v) {
    o << "|";
    for (std::size_t c = 0; c < v.size(); ++c)
      o << " " << v[c] << std::string(w[c] - v[c].size(), ' ') << " |";
    o << "\n";
  };
  line(head);
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < head.size(); ++c)
    rule.push_back(std::string(w[c], '-'));
  line(rule);
  for (const auto& l : cells)
    line(l);
  return o.str();
}

/// DIR/limits.svg: `figure` against max_cts, one line per policy (the sweep's plotter over its
/// runs). Returns 1 when it cannot be drawn (one line on stderr), else 0.
int draw_time_plot(const std::string& out, const std::string& figure)
{
  SweepIndex x = SweepIndex::read(out);
  SweepPlot p;
  p.x      = "max_cts";
  p.y      = figure;
  p.series = "policy";
  p.file   = "limits.svg";
  p.title  = figure + " against max_cts per policy";
  x.plots  = {p};
  std::vector<std::string> written;
  const std::vector<std::string> problems = draw_sweep_plots(SweepResults::collect(x), written);
  for (const std::string& e : problems)
    std::fprintf(stderr, "shmemsim: limits: plot %s\n", e.c_str());
  return problems.empty() ? 0 : 1;
}

} // namespace

std::string limits_usage()
{
  LimitsArgs a;
  return limits_table(a).listing();
}

int limits_command(int argc, char** argv)
{
  LimitsArgs a;
  if (!parse_limits_args(argc, argv, a))
    return 0;
  const json sc = limits_scenario(a);
  std::error_code ec;
  fs::create_directories(a.out, ec);
  if (ec)
    throw ScenarioError(a.out + ": cannot create the directory: " + ec.message());
  const fs::path generated = fs::path(a.out) / "limits-scenario.json";
  write_text(generated, sc.dump(2) + "\n");
  // The sweep over the limits, as `shmemsim sweep` runs it (every run traced: interference, overlap).
  std::vector<std::string> sweep = {generated.string(), "-j", a.jobs, "-o", a.out, "--trace", "ops"};
  for (const std::string& s : a.sets)
    sweep.insert(sweep.end(), {"--set", s});
  if (a.quiet)
    sweep.push_back("--quiet");
  sweep.push_back("--");
  sweep.push_back(a.program);
  sweep.insert(sweep.end(), a.args.begin(), a.args.end());
  std::vector<char*> sargv;
  for (std::string& s : sweep)
    sargv.push_back(s.data());
  const int status = sweep_command(static_cast<int>(sargv.size()), sargv.data());
  const json rows  = limits_rows(a.out, a.y);
  const int plots  = draw_time_plot(a.out, rows.empty() ? "sim_time_s" : rows[0]["time_name"].get<std::string>());
  const std::string table = limits_table(rows);
  write_text(fs::path(a.out) / "limits.md", table);
  write_text(fs::path(a.out) / "limits.json", json{{"rows", rows}}.dump(2) + "\n");
  std::fputs(table.c_str(), stdout);
  std::printf("shmemsim: limits: table in %s, %s; plots %s, %s\n", (fs::path(a.out) / "limits.md").c_str(),
              (fs::path(a.out) / "limits.json").c_str(), (fs::path(a.out) / "limits.svg").c_str(),
              (fs::path(a.out) / "limits-shared.svg").c_str());
  return status != 0 ? status : plots;
}

} // namespace shmemsim::tools
