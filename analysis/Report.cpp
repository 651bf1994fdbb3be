#include "analysis/Report.hpp"

#include "base/NetworkObserver.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <tuple>

namespace shmemsim::analysis {

// ---------------------------------------------------------------------------------------------
// Intervals
// ---------------------------------------------------------------------------------------------

std::vector<Interval> merge(std::vector<Interval> v)
{
  std::erase_if(v, [](const Interval& i) { return i.e <= i.b; });
  std::sort(v.begin(), v.end(),
            [](const Interval& a, const Interval& b) { return std::tie(a.b, a.e) < std::tie(b.b, b.e); });
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

// ---------------------------------------------------------------------------------------------
// The parts of a report
// ---------------------------------------------------------------------------------------------

void OpTally::add(const OpInfo& o)
{
  all.add(o.bytes);
  by_kind[o.kind].add(o.bytes);
}

void WaitStats::add(const WaitInfo& w, const std::vector<const OpInfo*>& waited_for)
{
  ++count;
  unfinished += w.unfinished ? 1 : 0;
  ps += w.end - w.begin;
  What& x = by_what[w.kind()];
  ++x.count;
  x.ps += w.end - w.begin;
  if (w.offloaded()) {
    What& c = by_collective[w.what];
    ++c.count;
    c.ps += w.end - w.begin;
  }
  for (const OpInfo* o : waited_for) {
    waited.add(*o);
    x.waited.add(*o);
  }
}

double overlap_ratio(std::int64_t hidden_ps, std::int64_t exposed_ps)
{
  return hidden_ps + exposed_ps > 0 ? static_cast<double>(hidden_ps) / static_cast<double>(hidden_ps + exposed_ps)
                                    : 0.0;
}

double NicReport::mean_queued_s() const
{
  return injected ? seconds(queued_ps) / static_cast<double>(injected) : 0.0;
}

double NetworkReport::depth_mean() const
{
  return overtaken ? static_cast<double>(depth_sum) / static_cast<double>(overtaken) : 0.0;
}

std::vector<std::pair<const char*, std::optional<double>>> ResourcesReport::limits() const
{
  return {{"max_cts", max_cts}, {"max_mds", max_mds}, {"max_volatile_size", max_volatile_size}};
}

nlohmann::ordered_json meta_value_json(const std::optional<double>& v)
{
  if (!v)
    return nullptr;
  if (*v == std::floor(*v) && std::fabs(*v) < 9e15)
    return static_cast<std::int64_t>(*v);
  return *v;
}

namespace {

std::int64_t total(const std::vector<Interval>& v)
{
  std::int64_t s = 0;
  for (const Interval& i : v)
    s += i.length();
  return s;
}

/// Fixed bins over [t0, t0 + n*w): how much of each bin intervals cover.
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
};

/// A #meta value as a number (none if absent or not a number).
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

TraceSummary summarize_trace(const Index& ix)
{
  const traces::Trace& tr = *ix.trace;
  TraceSummary t;
  t.level      = tr.level;
  t.events     = tr.events.size();
  t.pes        = ix.pe_node.size();
  t.threads    = ix.threads.size();
  t.operations = ix.ops.size();
  t.messages   = ix.msgs.size();
  t.begin      = ix.t_begin;
  t.end        = ix.t_end;
  t.meta       = tr.meta;
  return t;
}

/// Charges the interference of one wait (docs/analysis.md, "Thread interference"): the part of
/// [max(begin, own completions), end] spent until other threads' operations completed, segment by
/// segment to the thread whose operation ended the segment.
void charge_interference(const WaitInfo& w, const std::vector<const OpInfo*>& waited_for,
                         std::map<ThreadKey, ThreadReport>& threads)
{
  std::int64_t own = w.begin;
  std::vector<const OpInfo*> others;
  for (const OpInfo* o : waited_for) {
    if (o->thr == w.thr)
      own = std::max(own, o->completed);
    else
      others.push_back(o);
  }
  const std::int64_t start = std::max(w.begin, own);
  if (start >= w.end || others.empty())
    return;
  std::stable_sort(others.begin(), others.end(), [](const OpInfo* a, const OpInfo* b) {
    return std::tie(a->completed, a->id) < std::tie(b->completed, b->id);
  });
  ThreadReport& victim = threads[w.thread()];
  std::int64_t cursor  = start;
  for (const OpInfo* o : others) {
    const std::int64_t c = std::clamp(o->completed, start, w.end);
    if (c > cursor) {
      victim.interference_ps += c - cursor;
      victim.interference_by_thread_ps[o->thr] += c - cursor;
      threads[o->thread()].interference_caused_ps += c - cursor;
      cursor = c;
    }
  }
}

/// Every wait into the waits of all threads, of its thread and of its thread's context; and the
/// interference it suffered.
void tally_waits(const Index& ix, WaitStats& all, std::map<ThreadKey, ThreadReport>& threads)
{
  for (const WaitInfo& w : ix.waits) {
    const std::vector<const OpInfo*> s = ix.waited_for(w);
    ThreadReport& t                    = threads[w.thread()];
    t.waits.add(w, s);
    t.waits_by_context[w.ctx].add(w, s);
    all.add(w, s);
    if (!s.empty())
      charge_interference(w, s, threads);
  }
}

/// Per thread: operations issued, overlap of communication with computation and waits (binned
/// into the run's timeline), time waiting for shared lines or a library lock.
void analyse_overlap(const Index& ix, OverlapReport& all, std::map<ThreadKey, ThreadReport>& threads)
{
  std::map<ThreadKey, std::vector<Interval>> comm, waits;
  for (std::uint64_t id : ix.op_order) {
    const OpInfo& o = ix.ops.at(id);
    threads[o.thread()].operations.add(o);
    if (o.completed > o.issue)
      comm[o.thread()].push_back({o.issue, o.completed});
  }
  for (const WaitInfo& x : ix.waits)
    waits[x.thread()].push_back({x.begin, x.end});

  Bins all_hidden{all.start, all.bin_width, std::vector<std::int64_t>(static_cast<std::size_t>(all.bins), 0)};
  Bins all_exposed = all_hidden;
  for (const ThreadKey& k : ix.threads) {
    ThreadReport::Overlap& ov = threads[k].overlap;
    const auto cm             = merge(comm[k]);
    const auto cp             = merge(ix.comps.count(k) ? ix.comps.at(k) : std::vector<Interval>{});
    const auto wt             = merge(waits[k]);
    const auto hidden = intersect(cm, cp), exposed = intersect(cm, wt);
    Bins bh = Bins{all.start, all.bin_width, std::vector<std::int64_t>(static_cast<std::size_t>(all.bins), 0)}, be = bh;
    for (const Interval& i : hidden) {
      bh.add(i);
      all_hidden.add(i);
    }
    for (const Interval& i : exposed) {
      be.add(i);
      all_exposed.add(i);
    }
    ov.communication_ps = total(cm);
    ov.compute_ps       = total(cp);
    ov.wait_ps          = total(wt);
    ov.hidden_ps        = total(hidden);
    ov.exposed_ps       = total(exposed);
    ov.hidden_bins      = std::move(bh.v);
    ov.exposed_bins     = std::move(be.v);
    all.hidden_ps += ov.hidden_ps;
    all.exposed_ps += ov.exposed_ps;
    threads[k].lock_ps = ix.locks.count(k) ? union_length(ix.locks.at(k)) : 0;
  }
  all.hidden_bins  = std::move(all_hidden.v);
  all.exposed_bins = std::move(all_exposed.v);
}

/// The bins of the overlap timeline: `bins` of equal width over the trace's span.
OverlapReport overlap_timeline(const Index& ix, const ReportOptions& opt)
{
  OverlapReport o;
  o.bins      = std::max(1, opt.timeline_bins);
  o.start     = ix.t_begin;
  o.bin_width = std::max<std::int64_t>(1, (ix.t_end - ix.t_begin + o.bins - 1) / o.bins);
  return o;
}

/// Total interference and the per-PE victim x culprit matrix over every pair of distinct threads.
InterferenceReport interference_matrix(const std::vector<ThreadReport>& threads)
{
  InterferenceReport r;
  std::map<int, std::vector<const ThreadReport*>> by_pe;
  for (const ThreadReport& t : threads) {
    r.total_ps += t.interference_ps;
    by_pe[t.key.pe].push_back(&t);
  }
  for (const auto& [pe, ts] : by_pe) {
    auto& rows = r.matrix_ps[pe];
    for (const ThreadReport* v : ts) {
      auto& row = rows[v->key.thr];
      for (const ThreadReport* c : ts)
        if (c != v) {
          auto it         = v->interference_by_thread_ps.find(c->key.thr);
          row[c->key.thr] = it == v->interference_by_thread_ps.end() ? 0 : it->second;
        }
    }
  }
  return r;
}

/// Messages by initiator NIC (queueing there), deliveries out of order and reorder depth.
void tally_messages(const Index& ix, NetworkReport& net)
{
  std::map<int, NicReport> nics;
  net.messages = ix.msgs.size();
  for (const auto& [id, m] : ix.msgs) {
    NicReport& n = nics[ix.node_of(m.src)];
    ++n.messages;
    n.bytes += m.bytes;
    net.bytes += m.bytes;
    n.by_kind[m.kind].add(m.bytes);
    if (m.inj >= 0) {
      ++n.injected;
      n.queued_ps += m.inj - m.t;
      n.max_queued_ps = std::max(n.max_queued_ps, m.inj - m.t);
      net.nic_queued_ps += m.inj - m.t;
    }
    if (m.dlv >= 0 && m.kind != kRdmaReadKind) { // a pulled put's read is no request delivered
      ++net.deliveries;
      if (m.ooo) {
        ++net.out_of_order;
        ++n.out_of_order;
      }
      if (m.depth > 0) { // overtaken by `depth` later-issued messages of its pair
        ++net.overtaken;
        net.depth_sum += m.depth;
      }
      net.depth_max = std::max(net.depth_max, m.depth);
    }
  }
  for (auto& [node, n] : nics) {
    n.node = node;
    net.nics.push_back(std::move(n));
  }
}

/// Packets by link (level packets): bytes, queueing, utilization over the trace's span.
void tally_links(const Index& ix, NetworkReport& net)
{
  std::map<int, LinkReport> links;
  for (const HopInfo& h : ix.hops) {
    LinkReport& l = links[h.link];
    ++l.packets;
    l.bytes += h.bytes;
    l.queued_ps += h.queued;
    l.max_queued_ps = std::max(l.max_queued_ps, h.queued);
    net.link_queued_ps += h.queued;
  }
  const std::optional<double>& bw = net.link_bandwidth_Bps;
  const std::int64_t span         = ix.t_end - ix.t_begin;
  for (auto& [id, l] : links) {
    auto nm = ix.links.find(static_cast<std::uint64_t>(id));
    l.id    = id;
    l.name  = nm == ix.links.end() ? std::string("-") : nm->second;
    if (bw && *bw > 0 && span > 0)
      l.utilization = static_cast<double>(l.bytes) / (*bw * seconds(span));
    net.links.push_back(std::move(l));
  }
}

NetworkReport analyse_network(const Index& ix)
{
  NetworkReport net;
  net.link_bandwidth_Bps = meta_number(*ix.trace, "link_bandwidth_Bps");
  tally_messages(ix, net);
  tally_links(ix, net);
  return net;
}

/// Per PE: contexts created, destroyed, refused and shared (and the peak in use), limits hit.
void count_contexts_and_limits(const Index& ix, ResourcesReport& res)
{
  struct Pe {
    PeResources r;
    std::set<int> live;
  };
  std::map<int, Pe> pes;
  for (const auto& [pe, node] : ix.pe_node)
    pes[pe];
  for (const traces::Event& e : ix.trace->events) {
    if (e.type == traces::Type::Ctx) {
      Pe& p = pes[e.pe];
      CtxEvent what{};
      if (!parse_ctx_event(e.what, &what))
        continue;
      switch (what) {
        case CtxEvent::Create:
          ++p.r.created;
          p.live.insert(e.ctx);
          p.r.peak_in_use = std::max<std::uint64_t>(p.r.peak_in_use, p.live.size());
          break;
        case CtxEvent::Destroy:
          ++p.r.destroyed;
          p.live.erase(e.ctx);
          break;
        case CtxEvent::Refuse:
          ++p.r.refused;
          break;
        case CtxEvent::Share:
          ++p.r.shared;
          break;
      }
    } else if (e.type == traces::Type::Limit) {
      ++pes[e.pe].r.limit_events[e.what];
      ++res.limit_events[e.what];
    }
  }
  for (auto& [pe, p] : pes) {
    p.r.pe   = pe;
    p.r.node = ix.node_of(pe);
    res.pes.push_back(std::move(p.r));
  }
}

/// Puts at most max_volatile_size bytes (volatile: complete locally at once) and the others
/// (request puts always: their buffers are read by DMA).
void split_puts(const Index& ix, ResourcesReport& res)
{
  const std::optional<double>& vol = res.max_volatile_size;
  for (std::uint64_t id : ix.op_order) {
    const OpInfo& o = ix.ops.at(id);
    if (o.kind == "put_req") { // seed 003's request puts: their MD is never volatile (docs/extensions.md)
      res.buffered_puts.add(o.bytes);
      continue;
    }
    if (o.kind != "put" && o.kind != "put_nbi")
      continue;
    if (vol && static_cast<double>(o.bytes) <= *vol)
      res.volatile_puts.add(o.bytes);
    else
      res.buffered_puts.add(o.bytes);
  }
}

ResourcesReport analyse_resources(const Index& ix)
{
  ResourcesReport res;
  res.max_cts           = meta_number(*ix.trace, "max_cts");
  res.max_mds           = meta_number(*ix.trace, "max_mds");
  res.max_volatile_size = meta_number(*ix.trace, "max_volatile_size");
  count_contexts_and_limits(ix, res);
  split_puts(ix, res);
  return res;
}

} // namespace

Report make_report(const Index& ix, const ReportOptions& opt)
{
  Report r;
  r.trace   = summarize_trace(ix);
  r.overlap = overlap_timeline(ix, opt);
  std::map<ThreadKey, ThreadReport> threads;
  tally_waits(ix, r.waits, threads);
  analyse_overlap(ix, r.overlap, threads);
  for (const ThreadKey& k : ix.threads) {
    ThreadReport& t = threads[k];
    t.key           = k;
    r.threads.push_back(std::move(t));
  }
  r.interference = interference_matrix(r.threads);
  r.network      = analyse_network(ix);
  r.resources    = analyse_resources(ix);
  return r;
}

} // namespace shmemsim::analysis
