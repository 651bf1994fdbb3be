// report.json: the Report written with the keys docs/analysis.md lists, times in seconds.
#include "analysis/Report.hpp"

#include <string>

namespace shmemsim::analysis {

using json = nlohmann::ordered_json;

namespace {

json seconds_json(const std::vector<std::int64_t>& bins)
{
  json a = json::array();
  for (std::int64_t x : bins)
    a.push_back(seconds(x));
  return a;
}

/// {"KIND": {"<n_key>": n, "bytes": b}, ...}
json by_kind_json(const std::map<std::string, Count>& by_kind, const char* n_key)
{
  json j = json::object();
  for (const auto& [k, c] : by_kind)
    j[k] = {{n_key, c.n}, {"bytes", c.bytes}};
  return j;
}

/// {"KEY": count, ...}
json counts_json(const std::map<std::string, std::uint64_t>& counts)
{
  json j = json::object();
  for (const auto& [k, v] : counts)
    j[k] = v;
  return j;
}

json tally_json(const OpTally& t)
{
  json j       = {{"ops", t.all.n}, {"bytes", t.all.bytes}};
  j["by_kind"] = by_kind_json(t.by_kind, "ops");
  return j;
}

json waits_json(const WaitStats& w)
{
  json j   = {{"count", w.count}, {"seconds", seconds(w.ps)}, {"unfinished", w.unfinished}};
  json& bw = j["by_what"] = json::object();
  for (const auto& [k, v] : w.by_what)
    bw[k] = {{"count", v.count}, {"seconds", seconds(v.ps)}, {"waited_for", tally_json(v.waited)}};
  if (!w.by_collective.empty()) {
    json& bc = j["by_collective"] = json::object();
    for (const auto& [k, v] : w.by_collective)
      bc[k] = {{"count", v.count}, {"seconds", seconds(v.ps)}};
  }
  j["waited_for"] = tally_json(w.waited);
  return j;
}

json trace_json(const TraceSummary& t)
{
  json j  = {{"level", traces::to_string(t.level)},
             {"events", t.events},
             {"begin_s", seconds(t.begin)},
             {"end_s", seconds(t.end)},
             {"span_s", seconds(t.end - t.begin)},
             {"pes", t.pes},
             {"threads", t.threads},
             {"operations", t.operations},
             {"messages", t.messages}};
  json& m = j["meta"] = json::object();
  for (const auto& [k, v] : t.meta)
    m[k] = v;
  return j;
}

json thread_json(const ThreadReport& t)
{
  json j          = {{"pe", t.key.pe}, {"thread", t.key.thr}, {"label", label(t.key)}};
  j["operations"] = tally_json(t.operations);
  json wj         = waits_json(t.waits);
  json bc         = json::array();
  for (const auto& [ctx, ws] : t.waits_by_context) {
    json c = {{"ctx", ctx}};
    c.update(waits_json(ws));
    bc.push_back(c);
  }
  wj["by_context"]    = bc;
  j["waits"]          = wj;
  j["interference_s"] = seconds(t.interference_ps);
  json& by = j["interference_by_thread_s"] = json::object();
  for (const auto& [culprit, ps] : t.interference_by_thread_ps)
    by[std::to_string(culprit)] = seconds(ps);
  j["interference_caused_s"]     = seconds(t.interference_caused_ps);
  const ThreadReport::Overlap& o = t.overlap;
  j["overlap"]                   = {
                        {"communication_s", seconds(o.communication_ps)},
                        {"compute_s", seconds(o.compute_ps)},
                        {"wait_s", seconds(o.wait_ps)},
                        {"hidden_s", seconds(o.hidden_ps)},
                        {"exposed_s", seconds(o.exposed_ps)},
                        {"ratio", overlap_ratio(o.hidden_ps, o.exposed_ps)},
                        {"timeline", {{"hidden_s", seconds_json(o.hidden_bins)}, {"exposed_s", seconds_json(o.exposed_bins)}}}};
  j["lock_s"] = seconds(t.lock_ps);
  return j;
}

json interference_json(const InterferenceReport& r)
{
  json m = json::object();
  for (const auto& [pe, rows] : r.matrix_ps) {
    json rj = json::object();
    for (const auto& [victim, row] : rows) {
      json cj = json::object();
      for (const auto& [culprit, ps] : row)
        cj[std::to_string(culprit)] = seconds(ps);
      rj[std::to_string(victim)] = cj;
    }
    m[std::to_string(pe)] = rj;
  }
  return {{"total_s", seconds(r.total_ps)}, {"matrix_s", m}};
}

json overlap_json(const OverlapReport& o)
{
  return {{"hidden_s", seconds(o.hidden_ps)},
          {"exposed_s", seconds(o.exposed_ps)},
          {"ratio", overlap_ratio(o.hidden_ps, o.exposed_ps)},
          {"timeline",
           {{"bins", o.bins},
            {"start_s", seconds(o.start)},
            {"bin_s", seconds(o.bin_width)},
            {"hidden_s", seconds_json(o.hidden_bins)},
            {"exposed_s", seconds_json(o.exposed_bins)}}}};
}

json network_json(const NetworkReport& net)
{
  json nj = json::array();
  for (const NicReport& n : net.nics)
    nj.push_back({{"node", n.node},
                  {"messages", n.messages},
                  {"bytes", n.bytes},
                  {"by_kind", by_kind_json(n.by_kind, "messages")},
                  {"out_of_order", n.out_of_order},
                  {"contention",
                   {{"queued_s", seconds(n.queued_ps)},
                    {"mean_queued_s", n.mean_queued_s()},
                    {"max_queued_s", seconds(n.max_queued_ps)}}}});
  json lj = json::array();
  for (const LinkReport& l : net.links)
    lj.push_back({{"id", l.id},
                  {"name", l.name},
                  {"packets", l.packets},
                  {"bytes", l.bytes},
                  {"utilization", l.utilization ? json(*l.utilization) : json(nullptr)},
                  {"contention", {{"queued_s", seconds(l.queued_ps)}, {"max_queued_s", seconds(l.max_queued_ps)}}}});
  return {
      {"messages", net.messages},
      {"bytes", net.bytes},
      {"deliveries", net.deliveries},
      {"out_of_order", net.out_of_order},
      {"overtaken", net.overtaken},
      {"reorder_depth", {{"max", net.depth_max}, {"mean", net.depth_mean()}}},
      {"contention", {{"nic_queued_s", seconds(net.nic_queued_ps)}, {"link_queued_s", seconds(net.link_queued_ps)}}},
      {"link_bandwidth_Bps", meta_value_json(net.link_bandwidth_Bps)},
      {"nics", nj},
      {"links", lj}};
}

json count_json(const Count& c)
{
  return {{"ops", c.n}, {"bytes", c.bytes}};
}

json resources_json(const ResourcesReport& res)
{
  json pj = json::array();
  for (const PeResources& p : res.pes)
    pj.push_back({{"pe", p.pe},
                  {"node", p.node},
                  {"contexts",
                   {{"created", p.created},
                    {"destroyed", p.destroyed},
                    {"refused", p.refused},
                    {"shared", p.shared},
                    {"peak_in_use", p.peak_in_use}}},
                  {"limit_events", counts_json(p.limit_events)}});
  json puts = nullptr;
  if (res.max_volatile_size)
    puts = {{"volatile", count_json(res.volatile_puts)}, {"buffered", count_json(res.buffered_puts)}};
  Count all = res.volatile_puts;
  all.n += res.buffered_puts.n;
  all.bytes += res.buffered_puts.bytes;
  json limits = json::object();
  for (const auto& [key, value] : res.limits())
    limits[key] = meta_value_json(value);
  return {{"limits", limits},
          {"pes", pj},
          {"limit_events", counts_json(res.limit_events)},
          {"puts", puts},
          {"puts_total", count_json(all)}};
}

} // namespace

json report_json(const Report& r)
{
  json j;
  j["trace"]        = trace_json(r.trace);
  j["waits"]        = waits_json(r.waits);
  j["interference"] = interference_json(r.interference);
  j["overlap"]      = overlap_json(r.overlap);
  json threads      = json::array();
  for (const ThreadReport& t : r.threads)
    threads.push_back(thread_json(t));
  j["threads"]   = threads;
  j["network"]   = network_json(r.network);
  j["resources"] = resources_json(r.resources);
  return j;
}

} // namespace shmemsim::analysis
