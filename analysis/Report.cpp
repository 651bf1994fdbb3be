#include "analysis/Report.hpp"

#include <algorithm>
#include <cstdarg>
#include <set>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <tuple>

namespace shmemsim::analysis {

using json = nlohmann::ordered_json;

// ---------------------------------------------------------------------------------------------
// Intervals
// ---------------------------------------------------------------------------------------------

std::vector<Interval> merge(std::vector<Interval> v)
{
  std::erase_if(v, [](const Interval& i) { return i.e <= i.b; });
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return std::tie(a.b, a.e) < std::tie(b.b, b.e); });
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (!out.empty() && i.b <= out.back().e)
      out.back().e = std::max(out.back().e, i.e);
    else
      out.push_back(i);
  }
  return out;
}

std::int64_t union_length(std::vector<Interval> v)
{
  std::int64_t sum = 0;
  for (const Interval& i : merge(std::move(v)))
    sum += i.length();
  return sum;
}

std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b)
{
  std::vector<Interval> out;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::int64_t lo = std::max(a[i].b, b[j].b), hi = std::min(a[i].e, b[j].e);
    if (lo < hi)
      out.push_back({lo, hi});
    (a[i].e < b[j].e) ? ++i : ++j;
  }
  return out;
}

namespace {

std::int64_t total(const std::vector<Interval>& v)
{
  std::int64_t s = 0;
  for (const Interval& i : v)
    s += i.length();
  return s;
}

/// Fixed bins over [t0, t0 + n*w).
struct Bins {
  std::int64_t t0 = 0, w = 1;
  std::vector<std::int64_t> v;
  void add(const Interval& i)
  {
    if (i.length() <= 0 || v.empty())
      return;
    const auto n = static_cast<std::int64_t>(v.size());
    for (std::int64_t k = std::max<std::int64_t>(0, (i.b - t0) / w); k < n; ++k) {
      const std::int64_t lo = std::max(i.b, t0 + k * w), hi = std::min(i.e, t0 + (k + 1) * w);
      if (lo >= i.e)
        break;
      if (hi > lo)
        v[k] += hi - lo;
    }
  }
  json seconds_json() const
  {
    json a = json::array();
    for (std::int64_t x : v)
      a.push_back(seconds(x));
    return a;
  }
};

struct Tally {
  std::uint64_t ops = 0, bytes = 0;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_kind;
  void add(const OpInfo& o)
  {
    ++ops;
    bytes += o.bytes;
    auto& k = by_kind[o.kind];
    ++k.first;
    k.second += o.bytes;
  }
  json to_json() const
  {
    json j       = {{"ops", ops}, {"bytes", bytes}};
    json& bk     = j["by_kind"] = json::object();
    for (const auto& [k, v] : by_kind)
      bk[k] = {{"ops", v.first}, {"bytes", v.second}};
    return j;
  }
};

/// Waits of one group (a thread, a context of a thread, or all).
struct WaitStats {
  std::uint64_t count = 0, unfinished = 0;
  std::int64_t ps     = 0;
  struct What {
    std::uint64_t count = 0;
    std::int64_t ps     = 0;
    Tally waited;
  };
  std::map<std::string, What> by_what;
  Tally waited;
  void add(const WaitInfo& w, const std::vector<const OpInfo*>& s)
  {
    ++count;
    unfinished += w.unfinished ? 1 : 0;
    ps += w.end - w.begin;
    What& x = by_what[w.what];
    ++x.count;
    x.ps += w.end - w.begin;
    for (const OpInfo* o : s) {
      waited.add(*o);
      x.waited.add(*o);
    }
  }
  json to_json() const
  {
    json j = {{"count", count}, {"seconds", seconds(ps)}, {"unfinished", unfinished}};
    json& bw = j["by_what"] = json::object();
    for (const auto& [k, v] : by_what)
      bw[k] = {{"count", v.count}, {"seconds", seconds(v.ps)}, {"waited_for", v.waited.to_json()}};
    j["waited_for"] = waited.to_json();
    return j;
  }
};

std::optional<double> meta_number(const traces::Trace& tr, const std::string& key)
{
  auto it = tr.meta.find(key);
  if (it == tr.meta.end())
    return std::nullopt;
  char* end      = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  if (end == it->second.c_str() || *end != '\0')
    return std::nullopt;
  return v;
}

json opt_json(const std::optional<double>& v)
{
  if (!v)
    return nullptr;
  if (*v == std::floor(*v) && std::fabs(*v) < 9e15)
    return static_cast<std::int64_t>(*v);
  return *v;
}

} // namespace

json make_report(const Index& ix, const ReportOptions& opt)
{
  const traces::Trace& tr = *ix.trace;
  json r;
  const std::int64_t span = ix.t_end - ix.t_begin;

  // --- the trace ---
  {
    json t = {{"level", traces::to_string(tr.level)},
              {"events", tr.events.size()},
              {"begin_s", seconds(ix.t_begin)},
              {"end_s", seconds(ix.t_end)},
              {"span_s", seconds(span)},
              {"pes", ix.pe_node.size()},
              {"threads", ix.threads.size()},
              {"operations", ix.ops.size()},
              {"messages", ix.msgs.size()}};
    json& m = t["meta"] = json::object();
    for (const auto& [k, v] : tr.meta)
      m[k] = v;
    r["trace"] = t;
  }

  // --- waits and interference ---
  std::map<ThreadKey, WaitStats> wait_thread;
  std::map<std::pair<ThreadKey, int>, WaitStats> wait_ctx;
  WaitStats wait_all;
  std::map<ThreadKey, std::int64_t> interf;                               // suffered by victim
  std::map<ThreadKey, std::map<int, std::int64_t>> interf_from;           // victim -> culprit thr -> ps
  std::map<ThreadKey, std::int64_t> interf_caused;                        // caused by culprit
  for (const WaitInfo& w : ix.waits) {
    const std::vector<const OpInfo*> s = ix.waited_for(w);
    wait_thread[w.thread()].add(w, s);
    wait_ctx[{w.thread(), w.ctx}].add(w, s);
    wait_all.add(w, s);
    if (s.empty())
      continue;
    std::int64_t own = w.begin;
    std::vector<const OpInfo*> others;
    for (const OpInfo* o : s) {
      if (o->thr == w.thr)
        own = std::max(own, o->completed);
      else
        others.push_back(o);
    }
    const std::int64_t start = std::max(w.begin, own);
    if (start >= w.end || others.empty())
      continue;
    std::stable_sort(others.begin(), others.end(),
                     [](const OpInfo* a, const OpInfo* b) { return std::tie(a->completed, a->id) < std::tie(b->completed, b->id); });
    std::int64_t cursor = start;
    for (const OpInfo* o : others) {
      const std::int64_t c = std::clamp(o->completed, start, w.end);
      if (c > cursor) {
        interf[w.thread()] += c - cursor;
        interf_from[w.thread()][o->thr] += c - cursor;
        interf_caused[o->thread()] += c - cursor;
        cursor = c;
      }
    }
  }

  // --- overlap ---
  const int nbins      = std::max(1, opt.timeline_bins);
  const std::int64_t w = std::max<std::int64_t>(1, (span + nbins - 1) / nbins);
  Bins all_hidden{ix.t_begin, w, std::vector<std::int64_t>(nbins, 0)};
  Bins all_exposed = all_hidden;
  std::int64_t all_hidden_ps = 0, all_exposed_ps = 0;

  std::map<ThreadKey, std::vector<Interval>> comm;
  std::map<ThreadKey, Tally> issued;
  for (std::uint64_t id : ix.op_order) {
    const OpInfo& o = ix.ops.at(id);
    issued[o.thread()].add(o);
    if (o.completed > o.issue)
      comm[o.thread()].push_back({o.issue, o.completed});
  }
  std::map<ThreadKey, std::vector<Interval>> waits_iv;
  for (const WaitInfo& x : ix.waits)
    waits_iv[x.thread()].push_back({x.begin, x.end});

  json threads = json::array();
  for (const ThreadKey& k : ix.threads) {
    json t = {{"pe", k.pe}, {"thread", k.thr}, {"label", label(k)}};
    t["operations"] = issued[k].to_json();
    json wj         = wait_thread[k].to_json();
    json bc         = json::array();
    for (const auto& [key, ws] : wait_ctx)
      if (key.first == k) {
        json c = {{"ctx", key.second}};
        c.update(ws.to_json());
        bc.push_back(c);
      }
    wj["by_context"] = bc;
    t["waits"]       = wj;
    t["interference_s"] = seconds(interf[k]);
    json& by = t["interference_by_thread_s"] = json::object();
    for (const auto& [culprit, ps] : interf_from[k])
      by[std::to_string(culprit)] = seconds(ps);
    t["interference_caused_s"] = seconds(interf_caused[k]);

    const auto cm = merge(comm[k]);
    const auto cp = merge(ix.comps.count(k) ? ix.comps.at(k) : std::vector<Interval>{});
    const auto wt = merge(waits_iv[k]);
    const auto hidden = intersect(cm, cp), exposed = intersect(cm, wt);
    Bins bh{ix.t_begin, w, std::vector<std::int64_t>(nbins, 0)}, be = bh;
    for (const Interval& i : hidden) {
      bh.add(i);
      all_hidden.add(i);
    }
    for (const Interval& i : exposed) {
      be.add(i);
      all_exposed.add(i);
    }
    const std::int64_t h = total(hidden), x = total(exposed);
    all_hidden_ps += h;
    all_exposed_ps += x;
    t["overlap"] = {{"communication_s", seconds(total(cm))},
                    {"compute_s", seconds(total(cp))},
                    {"wait_s", seconds(total(wt))},
                    {"hidden_s", seconds(h)},
                    {"exposed_s", seconds(x)},
                    {"ratio", h + x > 0 ? static_cast<double>(h) / static_cast<double>(h + x) : 0.0},
                    {"timeline", {{"hidden_s", bh.seconds_json()}, {"exposed_s", be.seconds_json()}}}};
    t["lock_s"] = seconds(ix.locks.count(k) ? union_length(ix.locks.at(k)) : 0);
    threads.push_back(t);
  }

  r["waits"] = wait_all.to_json();
  {
    std::int64_t sum = 0;
    for (const auto& [k, v] : interf)
      sum += v;
    json m = json::object();
    std::map<int, std::vector<int>> pe_threads;
    for (const ThreadKey& k : ix.threads)
      pe_threads[k.pe].push_back(k.thr);
    for (const auto& [pe, thrs] : pe_threads) {
      json rows = json::object();
      for (int v : thrs) {
        json row = json::object();
        for (int c : thrs)
          if (c != v) {
            auto it = interf_from.find({pe, v});
            std::int64_t ps = 0;
            if (it != interf_from.end() && it->second.count(c))
              ps = it->second.at(c);
            row[std::to_string(c)] = seconds(ps);
          }
        rows[std::to_string(v)] = row;
      }
      m[std::to_string(pe)] = rows;
    }
    r["interference"] = {{"total_s", seconds(sum)}, {"matrix_s", m}};
  }
  r["overlap"] = {{"hidden_s", seconds(all_hidden_ps)},
                  {"exposed_s", seconds(all_exposed_ps)},
                  {"ratio", all_hidden_ps + all_exposed_ps > 0
                                ? static_cast<double>(all_hidden_ps) / static_cast<double>(all_hidden_ps + all_exposed_ps)
                                : 0.0},
                  {"timeline",
                   {{"bins", nbins},
                    {"start_s", seconds(ix.t_begin)},
                    {"bin_s", seconds(w)},
                    {"hidden_s", all_hidden.seconds_json()},
                    {"exposed_s", all_exposed.seconds_json()}}}};
  r["threads"] = threads;

  // --- network ---
  {
    struct Nic {
      std::uint64_t messages = 0, bytes = 0, ooo = 0, injected = 0;
      std::int64_t queued = 0, max_queued = 0;
      std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_kind;
    };
    std::map<int, Nic> nics;
    std::uint64_t deliveries = 0, ooo = 0, overtaken = 0, depth_max = 0, depth_sum = 0, bytes = 0;
    std::int64_t nic_queued = 0;
    for (const auto& [id, m] : ix.msgs) {
      Nic& n = nics[ix.node_of(m.src)];
      ++n.messages;
      n.bytes += m.bytes;
      bytes += m.bytes;
      auto& bk = n.by_kind[m.kind];
      ++bk.first;
      bk.second += m.bytes;
      if (m.inj >= 0) {
        ++n.injected;
        n.queued += m.inj - m.t;
        n.max_queued = std::max(n.max_queued, m.inj - m.t);
        nic_queued += m.inj - m.t;
      }
      if (m.dlv >= 0) {
        ++deliveries;
        if (m.ooo) {
          ++ooo;
          ++n.ooo;
        }
        if (m.depth > 0) { // overtaken by `depth` later-issued messages of its pair
          ++overtaken;
          depth_sum += m.depth;
        }
        depth_max = std::max(depth_max, m.depth);
      }
    }
    json nj = json::array();
    for (const auto& [node, n] : nics) {
      json bk = json::object();
      for (const auto& [k, v] : n.by_kind)
        bk[k] = {{"messages", v.first}, {"bytes", v.second}};
      nj.push_back({{"node", node},
                    {"messages", n.messages},
                    {"bytes", n.bytes},
                    {"by_kind", bk},
                    {"out_of_order", n.ooo},
                    {"contention",
                     {{"queued_s", seconds(n.queued)},
                      {"mean_queued_s", n.injected ? seconds(n.queued) / static_cast<double>(n.injected) : 0.0},
                      {"max_queued_s", seconds(n.max_queued)}}}});
    }
    const std::optional<double> bw = meta_number(tr, "link_bandwidth_Bps");
    struct Link {
      std::uint64_t packets = 0, bytes = 0;
      std::int64_t queued = 0, max_queued = 0;
    };
    std::map<int, Link> links;
    std::int64_t link_queued = 0;
    for (const HopInfo& h : ix.hops) {
      Link& l = links[h.link];
      ++l.packets;
      l.bytes += h.bytes;
      l.queued += h.queued;
      l.max_queued = std::max(l.max_queued, h.queued);
      link_queued += h.queued;
    }
    json lj = json::array();
    for (const auto& [id, l] : links) {
      auto nm = ix.links.find(static_cast<std::uint64_t>(id));
      json u  = nullptr;
      if (bw && *bw > 0 && span > 0)
        u = static_cast<double>(l.bytes) / (*bw * seconds(span));
      lj.push_back({{"id", id},
                    {"name", nm == ix.links.end() ? std::string("-") : nm->second},
                    {"packets", l.packets},
                    {"bytes", l.bytes},
                    {"utilization", u},
                    {"contention", {{"queued_s", seconds(l.queued)}, {"max_queued_s", seconds(l.max_queued)}}}});
    }
    r["network"] = {{"messages", ix.msgs.size()},
                    {"bytes", bytes},
                    {"deliveries", deliveries},
                    {"out_of_order", ooo},
                    {"overtaken", overtaken},
                    {"reorder_depth",
                     {{"max", depth_max}, {"mean", overtaken ? static_cast<double>(depth_sum) / static_cast<double>(overtaken) : 0.0}}},
                    {"contention", {{"nic_queued_s", seconds(nic_queued)}, {"link_queued_s", seconds(link_queued)}}},
                    {"link_bandwidth_Bps", opt_json(bw)},
                    {"nics", nj},
                    {"links", lj}};
  }

  // --- resources against limits ---
  {
    struct Pe {
      std::uint64_t created = 0, destroyed = 0, refused = 0, shared = 0, peak = 0;
      std::set<int> live;
      std::map<std::string, std::uint64_t> limits;
    };
    std::map<int, Pe> pes;
    for (const auto& [pe, node] : ix.pe_node)
      pes[pe];
    std::map<std::string, std::uint64_t> limit_events;
    for (const traces::Event& e : tr.events) {
      if (e.type == traces::Type::Ctx) {
        Pe& p = pes[e.pe];
        if (e.what == "create") {
          ++p.created;
          p.live.insert(e.ctx);
          p.peak = std::max<std::uint64_t>(p.peak, p.live.size());
        } else if (e.what == "destroy") {
          ++p.destroyed;
          p.live.erase(e.ctx);
        } else if (e.what == "refuse") {
          ++p.refused;
        } else if (e.what == "share") {
          ++p.shared;
        }
      } else if (e.type == traces::Type::Limit) {
        ++pes[e.pe].limits[e.what];
        ++limit_events[e.what];
      }
    }
    json pj = json::array();
    for (const auto& [pe, p] : pes) {
      json le = json::object();
      for (const auto& [k, v] : p.limits)
        le[k] = v;
      pj.push_back({{"pe", pe},
                    {"node", ix.node_of(pe)},
                    {"contexts",
                     {{"created", p.created}, {"destroyed", p.destroyed}, {"refused", p.refused}, {"shared", p.shared}, {"peak_in_use", p.peak}}},
                    {"limit_events", le}});
    }
    json le = json::object();
    for (const auto& [k, v] : limit_events)
      le[k] = v;
    const std::optional<double> vol = meta_number(tr, "max_volatile_size");
    std::uint64_t vn = 0, vb = 0, bn = 0, bb = 0;
    for (std::uint64_t id : ix.op_order) {
      const OpInfo& o = ix.ops.at(id);
      if (o.kind != "put" && o.kind != "put_nbi")
        continue;
      if (vol && static_cast<double>(o.bytes) <= *vol)
        ++vn, vb += o.bytes;
      else
        ++bn, bb += o.bytes;
    }
    json puts = nullptr;
    if (vol)
      puts = {{"volatile", {{"ops", vn}, {"bytes", vb}}}, {"buffered", {{"ops", bn}, {"bytes", bb}}}};
    r["resources"] = {{"limits",
                       {{"max_cts", opt_json(meta_number(tr, "max_cts"))},
                        {"max_mds", opt_json(meta_number(tr, "max_mds"))},
                        {"max_volatile_size", opt_json(vol)}}},
                      {"pes", pj},
                      {"limit_events", le},
                      {"puts", puts},
                      {"puts_total", {{"ops", vn + bn}, {"bytes", vb + bb}}}};
  }
  return r;
}

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

std::string ht(const json& v) { return human_time(v.get<double>()); }

std::string by_what_text(const json& bw)
{
  std::string s;
  for (const auto& [k, v] : bw.items()) {
    if (!s.empty())
      s += ", ";
    s += k + " " + std::to_string(v["count"].get<std::uint64_t>()) + " / " + ht(v["seconds"]);
  }
  return s;
}

/// The threads with the largest value at `path` (> 0), at most `n`, largest first (ties: in
/// report order); `more` gets how many others have a value > 0.
std::vector<const json*> top_threads(const json& r, const std::vector<std::string>& path, std::size_t n, std::size_t* more)
{
  std::vector<std::pair<double, const json*>> v;
  for (const json& th : r["threads"]) {
    const json* x = &th;
    for (const std::string& k : path)
      x = &(*x)[k];
    if (x->get<double>() > 0)
      v.emplace_back(x->get<double>(), &th);
  }
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<const json*> out;
  for (std::size_t i = 0; i < v.size() && i < n; ++i)
    out.push_back(v[i].second);
  *more = v.size() - out.size();
  return out;
}

constexpr std::size_t kTop = 10; // threads listed per section of the summary

} // namespace

std::string format_report(const json& r)
{
  std::size_t more = 0;
  auto and_more    = [&](std::ostringstream& o) {
    if (more)
      o << "  ... and " << more << " more threads (report.json has them all)\n";
  };
  std::ostringstream o;
  const json& t = r["trace"];
  o << fmt("trace: level %s, %llu events, %llu PEs, %llu threads, %llu operations, %llu messages, span %s\n",
           t["level"].get<std::string>().c_str(), t["events"].get<unsigned long long>(), t["pes"].get<unsigned long long>(),
           t["threads"].get<unsigned long long>(), t["operations"].get<unsigned long long>(),
           t["messages"].get<unsigned long long>(), ht(t["span_s"]).c_str());

  const json& w = r["waits"];
  o << fmt("ACK-counter waits: %llu, %s in total", w["count"].get<unsigned long long>(), ht(w["seconds"]).c_str());
  if (w["count"].get<std::uint64_t>() > 0)
    o << " (" << by_what_text(w["by_what"]) << ")";
  o << "\n";
  for (const json* thp : top_threads(r, {"waits", "seconds"}, kTop, &more)) {
    const json& th = *thp;
    const json& tw = th["waits"];
    o << fmt("  %-22s %llu waits, %s (%s); waited for %llu ops, %llu bytes\n", th["label"].get<std::string>().c_str(),
             tw["count"].get<unsigned long long>(), ht(tw["seconds"]).c_str(), by_what_text(tw["by_what"]).c_str(),
             tw["waited_for"]["ops"].get<unsigned long long>(), tw["waited_for"]["bytes"].get<unsigned long long>());
  }

  and_more(o);
  o << "thread interference (waiting for other threads' operations): " << ht(r["interference"]["total_s"]) << "\n";
  for (const json* thp : top_threads(r, {"interference_s"}, kTop, &more)) {
    const json& th = *thp;
    // The three largest culprits.
    std::vector<std::pair<double, std::string>> culprits;
    for (const auto& [k, v] : th["interference_by_thread_s"].items())
      if (v.get<double>() > 0)
        culprits.emplace_back(v.get<double>(), k);
    std::stable_sort(culprits.begin(), culprits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string from;
    for (std::size_t i = 0; i < culprits.size() && i < 3; ++i)
      from += (from.empty() ? "" : ", ") + std::string("thread ") + culprits[i].second + ": " + human_time(culprits[i].first);
    if (culprits.size() > 3)
      from += fmt(", %zu more threads", culprits.size() - 3);
    o << fmt("  %-22s %s (from %s)\n", th["label"].get<std::string>().c_str(), ht(th["interference_s"]).c_str(), from.c_str());
  }
  and_more(o);

  const json& ov = r["overlap"];
  o << fmt("overlap of communication: hidden behind compute %s, exposed in waits %s, ratio %.2f\n", ht(ov["hidden_s"]).c_str(),
           ht(ov["exposed_s"]).c_str(), ov["ratio"].get<double>());
  for (const json* thp : top_threads(r, {"overlap", "communication_s"}, kTop, &more)) {
    const json& th = *thp;
    const json& x  = th["overlap"];
    o << fmt("  %-22s ratio %.2f (hidden %s, exposed %s, communicating %s, computing %s)\n", th["label"].get<std::string>().c_str(),
             x["ratio"].get<double>(), ht(x["hidden_s"]).c_str(), ht(x["exposed_s"]).c_str(), ht(x["communication_s"]).c_str(),
             ht(x["compute_s"]).c_str());
  }

  and_more(o);
  const json& n = r["network"];
  o << fmt("network: %llu messages, %llu bytes, %llu delivered, %llu out of order, %llu overtaken (reorder depth max %llu, mean "
           "%.2f)\n",
           n["messages"].get<unsigned long long>(), n["bytes"].get<unsigned long long>(), n["deliveries"].get<unsigned long long>(),
           n["out_of_order"].get<unsigned long long>(), n["overtaken"].get<unsigned long long>(),
           n["reorder_depth"]["max"].get<unsigned long long>(), n["reorder_depth"]["mean"].get<double>());
  for (const json& nic : n["nics"])
    o << fmt("  NIC of node %-4d %llu messages, %llu bytes; contention: queued %s in total (mean %s, max %s)\n", nic["node"].get<int>(),
             nic["messages"].get<unsigned long long>(), nic["bytes"].get<unsigned long long>(), ht(nic["contention"]["queued_s"]).c_str(),
             ht(nic["contention"]["mean_queued_s"]).c_str(), ht(nic["contention"]["max_queued_s"]).c_str());
  if (!n["links"].empty()) {
    std::vector<const json*> links;
    for (const json& l : n["links"])
      links.push_back(&l);
    std::stable_sort(links.begin(), links.end(),
                     [](const json* a, const json* b) { return (*a)["bytes"].get<std::uint64_t>() > (*b)["bytes"].get<std::uint64_t>(); });
    o << fmt("  links: %zu used; busiest:\n", links.size());
    for (std::size_t i = 0; i < links.size() && i < 5; ++i) {
      const json& l = *links[i];
      std::string u = l["utilization"].is_null() ? "utilization unknown (no link_bandwidth_Bps)"
                                                  : fmt("utilization %.1f%%", 100 * l["utilization"].get<double>());
      o << fmt("    %-20s %llu bytes in %llu packets, %s, contention: packets queued %s in total (max %s)\n",
               l["name"].get<std::string>().c_str(), l["bytes"].get<unsigned long long>(), l["packets"].get<unsigned long long>(),
               u.c_str(), ht(l["contention"]["queued_s"]).c_str(), ht(l["contention"]["max_queued_s"]).c_str());
    }
  }

  const json& rs = r["resources"];
  std::string lim;
  for (const auto& [k, v] : rs["limits"].items())
    lim += (lim.empty() ? "" : ", ") + k + " " + (v.is_null() ? std::string("unknown") : v.dump());
  o << "resources: limits " << lim << "\n";
  for (const json& p : rs["pes"]) {
    const json& c = p["contexts"];
    std::string le;
    for (const auto& [k, v] : p["limit_events"].items())
      le += fmt(", %s limit hit %llu times", k.c_str(), v.get<unsigned long long>());
    if (c["created"].get<std::uint64_t>() + c["refused"].get<std::uint64_t>() + c["shared"].get<std::uint64_t>() == 0 && le.empty())
      continue;
    o << fmt("  PE %-4d contexts created %llu, destroyed %llu, refused %llu, shared %llu, peak in use %llu%s\n", p["pe"].get<int>(),
             c["created"].get<unsigned long long>(), c["destroyed"].get<unsigned long long>(), c["refused"].get<unsigned long long>(),
             c["shared"].get<unsigned long long>(), c["peak_in_use"].get<unsigned long long>(), le.c_str());
  }
  if (!rs["puts"].is_null())
    o << fmt("  puts: %llu volatile (%llu bytes), %llu buffered (%llu bytes)\n", rs["puts"]["volatile"]["ops"].get<unsigned long long>(),
             rs["puts"]["volatile"]["bytes"].get<unsigned long long>(), rs["puts"]["buffered"]["ops"].get<unsigned long long>(),
             rs["puts"]["buffered"]["bytes"].get<unsigned long long>());
  else
    o << fmt("  puts: %llu (volatile or buffered unknown: no max_volatile_size in the trace)\n",
             rs["puts_total"]["ops"].get<unsigned long long>());
  return o.str();
}

} // namespace shmemsim::analysis
