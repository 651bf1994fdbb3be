#include "analysis/Index.hpp"

#include "base/Units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <tuple>

namespace shmemsim::analysis {

using traces::Type;

std::string label(const ThreadKey& k)
{
  return "PE " + std::to_string(k.pe) + " / thread " + std::to_string(k.thr);
}

int Index::node_of(int pe) const
{
  return traces::node_of(pe_node, pe);
}

std::vector<const OpInfo*> Index::waited_for(const WaitInfo& w) const
{
  std::vector<const OpInfo*> out;
  if (w.ct < 0)
    return out;
  auto it = by_ct.find({w.pe, w.ct});
  if (it == by_ct.end())
    return out;
  const std::int64_t lat = max_latency.at({w.pe, w.ct});
  const auto& ids        = it->second;
  const auto& latest     = issue_prefix_max.at({w.pe, w.ct});
  // Ops are in seq order: walk back from the last one with seq <= target until no op at or below
  // this one can have been issued late enough to complete after the wait began.
  auto hi = std::upper_bound(ids.begin(), ids.end(), w.target,
                             [&](std::uint64_t target, std::uint64_t id) { return target < ops.at(id).seq; });
  for (auto i = hi; i != ids.begin();) {
    --i;
    if (latest[static_cast<std::size_t>(i - ids.begin())] + lat <= w.begin)
      break;
    const OpInfo& o = ops.at(*i);
    if (o.completed > w.begin)
      out.push_back(&o);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Index build_index(const traces::Trace& tr)
{
  Index ix;
  ix.trace   = &tr;
  bool first = true;
  auto see   = [&](std::int64_t t) {
    if (first) {
      ix.t_begin = ix.t_end = t;
      first                 = false;
    }
    ix.t_begin = std::min(ix.t_begin, t);
    ix.t_end   = std::max(ix.t_end, t);
  };
  std::map<ThreadKey, WaitInfo> open_waits;
  std::map<ThreadKey, RoutineInfo> open_routines;
  for (const traces::Event& e : tr.events) {
    // Routine spans do not widen the trace's span (the report's figures are those of the
    // operations, waits and intervals): they only add names to what the threads did.
    if (e.type == Type::Call) {
      open_routines[{e.pe, e.thr}] = RoutineInfo{e.pe, e.thr, e.what, e.t, e.t, false};
      continue;
    }
    if (e.type == Type::Ret) {
      if (auto it = open_routines.find({e.pe, e.thr}); it != open_routines.end()) {
        it->second.end = e.t;
        ix.routines.push_back(std::move(it->second));
        open_routines.erase(it);
      }
      continue;
    }
    if (e.type != Type::Pe && e.type != Type::Link)
      see(e.t);
    switch (e.type) {
      case Type::Pe:
        ix.pe_node[e.pe] = e.node;
        break;
      case Type::Link:
        ix.links[e.id] = e.what;
        break;
      case Type::Ctx:
      case Type::Ct:
      case Type::Limit:
      case Type::Call: // taken above
      case Type::Ret:
        break;
      case Type::Op: {
        OpInfo o;
        o.id = e.id, o.issue = e.t, o.pe = e.pe, o.thr = e.thr, o.ctx = e.ctx, o.ct = e.ct, o.seq = e.seq;
        o.kind = e.what, o.bytes = e.bytes, o.target_pe = e.target_pe;
        ix.threads.insert({e.pe, e.thr});
        if (ix.ops.emplace(e.id, o).second)
          ix.op_order.push_back(e.id);
        break;
      }
      case Type::Msg: {
        MsgInfo m;
        m.id = e.id, m.op = e.op, m.t = e.t, m.src = e.src, m.dst = e.dst, m.kind = e.what, m.bytes = e.bytes;
        ix.msgs[e.id] = m;
        if (auto it = ix.ops.find(e.op); it != ix.ops.end())
          it->second.msgs.push_back(e.id);
        break;
      }
      case Type::Inj:
        if (auto it = ix.msgs.find(e.id); it != ix.msgs.end())
          it->second.inj = e.t;
        break;
      case Type::Hop:
        ix.hops.push_back({e.t, e.queued, e.id, e.bytes, e.link});
        break;
      case Type::Dlv:
        if (auto it = ix.msgs.find(e.id); it != ix.msgs.end()) {
          it->second.dlv   = e.t;
          it->second.ooo   = e.ooo;
          it->second.depth = e.depth;
          if (auto o = ix.ops.find(it->second.op); o != ix.ops.end())
            o->second.delivered = std::max(o->second.delivered, e.t);
        }
        break;
      case Type::Done:
        if (auto it = ix.msgs.find(e.id); it != ix.msgs.end()) {
          it->second.done = e.t;
          if (auto o = ix.ops.find(it->second.op); o != ix.ops.end())
            o->second.completed = std::max(o->second.completed, e.t);
        }
        break;
      case Type::Wait: {
        WaitInfo w;
        w.pe = e.pe, w.thr = e.thr, w.ctx = e.ctx, w.ct = e.ct, w.what = e.what;
        w.first_target = w.target = e.target;
        w.begin = w.end = e.t;
        ix.threads.insert({e.pe, e.thr});
        open_waits[{e.pe, e.thr}] = w;
        break;
      }
      case Type::Wend: {
        auto it = open_waits.find({e.pe, e.thr});
        if (it == open_waits.end())
          break;
        it->second.end    = e.t;
        it->second.target = e.target;
        ix.waits.push_back(it->second);
        open_waits.erase(it);
        break;
      }
      case Type::Comp:
      case Type::Lock:
        ix.threads.insert({e.pe, e.thr});
        (e.type == Type::Comp ? ix.comps : ix.locks)[{e.pe, e.thr}].push_back({e.t, e.t + e.dur});
        see(e.t + e.dur);
        break;
    }
  }
  for (auto& [k, w] : open_waits) {
    w.end        = ix.t_end;
    w.unfinished = true;
    ix.waits.push_back(w);
  }
  std::stable_sort(ix.waits.begin(), ix.waits.end(), [](const WaitInfo& a, const WaitInfo& b) {
    return std::tie(a.begin, a.pe, a.thr) < std::tie(b.begin, b.pe, b.thr);
  });
  for (auto& [k, r] : open_routines) {
    r.end        = std::max(r.begin, ix.t_end);
    r.unfinished = true;
    ix.routines.push_back(std::move(r));
  }
  std::stable_sort(ix.routines.begin(), ix.routines.end(), [](const RoutineInfo& a, const RoutineInfo& b) {
    return std::tie(a.begin, a.pe, a.thr) < std::tie(b.begin, b.pe, b.thr);
  });
  for (std::uint64_t id : ix.op_order) {
    const OpInfo& o = ix.ops.at(id);
    if (o.ct < 0)
      continue;
    ix.by_ct[{o.pe, o.ct}].push_back(id);
    std::int64_t& lat = ix.max_latency[{o.pe, o.ct}];
    lat               = std::max(lat, o.completed - o.issue);
  }
  for (auto& [key, ids] : ix.by_ct) {
    std::stable_sort(ids.begin(), ids.end(),
                     [&](std::uint64_t a, std::uint64_t b) { return ix.ops.at(a).seq < ix.ops.at(b).seq; });
    std::vector<std::int64_t>& latest = ix.issue_prefix_max[key];
    for (std::uint64_t id : ids)
      latest.push_back(std::max(latest.empty() ? ix.ops.at(id).issue : latest.back(), ix.ops.at(id).issue));
  }
  return ix;
}

bool parse_time(const std::string& s, std::int64_t* ps)
{
  // One rule for every time on every command line and in scenarios: a number with its unit
  // (base/Units: ps, ns, us, ms, s). A bare number is refused, as --sim-time-limit refuses it.
  try {
    *ps = static_cast<std::int64_t>(shmemsim::parse_time(s));
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

std::string human_time(double s)
{
  char buf[64];
  const double a = std::fabs(s);
  if (a == 0)
    return "0 s";
  if (a >= 1)
    std::snprintf(buf, sizeof buf, "%.4g s", s);
  else if (a >= 1e-3)
    std::snprintf(buf, sizeof buf, "%.4g ms", s * 1e3);
  else if (a >= 1e-6)
    std::snprintf(buf, sizeof buf, "%.4g us", s * 1e6);
  else if (a >= 1e-9)
    std::snprintf(buf, sizeof buf, "%.4g ns", s * 1e9);
  else
    std::snprintf(buf, sizeof buf, "%.4g ps", s * 1e12);
  return buf;
}

} // namespace shmemsim::analysis
