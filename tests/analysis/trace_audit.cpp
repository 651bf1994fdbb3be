// shmemsim_trace_audit DIR: checks a real run's trace against itself and against the figures made
// from it, by a recomputation that shares no code with analysis/ (it reads trace.evt with the
// format's reader only, and each figure is computed by its definition in docs/analysis.md, by
// plain scans):
//  1. attribution: every message of an operation goes from the operation's PE to its target, is
//     of its kind, issued no earlier than the operation, and every operation of a finished run has
//     exactly one such message (the Portals mapping issues one per SHMEM operation); a put may also
//     have one `rdma_read` (its target pulling the payload: docs/model.md), from its target to its
//     PE, issued after its request;
//  2. report.json (from `shmemsim report DIR`): per thread the operations issued, the waits, the
//     operations each wait waited for, interference suffered and caused, the overlap of
//     communication with computation, the lock time; the totals;
//  3. out-of-order delivery: recounted per (source, destination) pair from the order of issue and
//     of delivery, against each delivery's flags in the trace, summary.json and report.json.
// Prints one line per mismatch (the first 20) and exits 1, else one summary line and exits 0.
#include "base/NetworkObserver.hpp"
#include "traces/Trace.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using shmemsim::traces::Event;
using shmemsim::traces::Type;

struct Op {
  std::uint64_t id = 0;
  std::int64_t t = 0, completed = 0;
  int pe = 0, thr = 0, ct = -1, target = -1;
  std::uint64_t seq = 0, bytes = 0;
  std::string kind;
  std::vector<std::uint64_t> msgs;
};
struct Msg {
  std::uint64_t id = 0, op = 0;
  std::int64_t t = 0;
  int src = 0, dst = 0;
  std::string kind;
  bool delivered = false, ooo = false;
  std::uint64_t depth = 0;
};
struct Wait {
  int pe = 0, thr = 0, ct = -1;
  std::int64_t b = 0, e = 0;
  std::uint64_t target = 0;
};
using Thread = std::pair<int, int>;
struct Span {
  std::int64_t b, e;
};

int failures = 0;
void fail(const std::string& line)
{
  if (++failures <= 20)
    std::printf("trace_audit: %s\n", line.c_str());
}

/// The NIC message kinds a SHMEM operation kind may produce.
bool kind_matches(const std::string& op, const std::string& msg)
{
  const std::string base = op.substr(0, op.find('_'));
  if (base == "put")
    return msg == "put";
  if (base == "get")
    return msg == "get";
  if (base == "amo")
    return msg == "atomic";
  if (base == "famo") // fetch-add & co., swaps, and a floating-point fetch read by a get
    return msg == "fetch_atomic" || msg == "swap" || msg == "get";
  return false;
}

std::int64_t union_length(std::vector<Span> v)
{
  std::sort(v.begin(), v.end(), [](const Span& a, const Span& b) { return std::tie(a.b, a.e) < std::tie(b.b, b.e); });
  std::int64_t sum = 0, cur_b = 0, cur_e = 0;
  bool open = false;
  for (const Span& s : v) {
    if (s.e <= s.b)
      continue;
    if (open && s.b <= cur_e) {
      cur_e = std::max(cur_e, s.e);
      continue;
    }
    if (open)
      sum += cur_e - cur_b;
    cur_b = s.b, cur_e = s.e, open = true;
  }
  return sum + (open ? cur_e - cur_b : 0);
}

/// Length of the intersection of two sets of spans, by a sweep over their end points.
std::int64_t overlap_length(const std::vector<Span>& a, const std::vector<Span>& b)
{
  std::vector<std::tuple<std::int64_t, int, int>> pts; // date, +1/-1, which set
  for (const Span& s : a)
    if (s.e > s.b)
      pts.emplace_back(s.b, 1, 0), pts.emplace_back(s.e, -1, 0);
  for (const Span& s : b)
    if (s.e > s.b)
      pts.emplace_back(s.b, 1, 1), pts.emplace_back(s.e, -1, 1);
  std::sort(pts.begin(), pts.end());
  int in[2]         = {0, 0};
  std::int64_t last = 0, sum = 0;
  for (const auto& [t, d, w] : pts) {
    if (in[0] > 0 && in[1] > 0)
      sum += t - last;
    in[w] += d;
    last = t;
  }
  return sum;
}

struct Run {
  std::map<std::uint64_t, Op> ops;
  std::map<std::uint64_t, Msg> msgs;
  std::vector<Wait> waits;
  std::map<Thread, std::vector<Span>> comps, locks;
  std::set<Thread> threads;
  std::int64_t t_end = 0;
  std::uint64_t ooo = 0, overtaken = 0, depth_max = 0;
};

/// Per (source, destination) pair: which messages are issued (in id order: the order of issue)
/// and delivered; a delivery is out of order if an earlier-issued message of the pair is not yet
/// delivered, its depth the number of later-issued ones already delivered.
struct PairOrder {
  std::set<std::uint64_t> undelivered, delivered;
};

Run read_run(const std::string& path)
{
  Run r;
  std::map<Thread, Wait> open;
  std::map<std::pair<int, int>, PairOrder> pairs;
  shmemsim::traces::for_each_event(path, [&](const Event& e) {
    if (e.type != Type::Pe && e.type != Type::Link)
      r.t_end = std::max(r.t_end, e.t);
    switch (e.type) {
      case Type::Op: {
        Op o;
        o.id = e.id, o.t = e.t, o.pe = e.pe, o.thr = e.thr, o.ct = e.ct, o.target = e.target_pe, o.seq = e.seq;
        o.bytes = e.bytes, o.kind = e.what;
        r.threads.insert({e.pe, e.thr});
        if (!r.ops.emplace(e.id, o).second)
          fail("operation " + std::to_string(e.id) + " recorded twice");
        break;
      }
      case Type::Msg: {
        Msg m;
        m.id = e.id, m.op = e.op, m.t = e.t, m.src = e.src, m.dst = e.dst, m.kind = e.what;
        r.msgs[e.id] = m;
        if (m.kind != shmemsim::kRdmaReadKind) // a pulled put's read is no request of the pair
          pairs[{e.src, e.dst}].undelivered.insert(e.id);
        if (e.op == 0)
          fail("message " + std::to_string(e.id) + " belongs to no operation");
        else if (auto o = r.ops.find(e.op); o == r.ops.end())
          fail("message " + std::to_string(e.id) + " names operation " + std::to_string(e.op) +
               ", not issued before it");
        else
          o->second.msgs.push_back(e.id);
        break;
      }
      case Type::Dlv: {
        Msg& m = r.msgs.at(e.id);
        if (m.kind == shmemsim::kRdmaReadKind) {
          if (e.ooo || e.depth != 0)
            fail("message " + std::to_string(e.id) + ": a read flagged out of order or overtaken");
          m.delivered = true;
          break;
        }
        PairOrder& p     = pairs.at({m.src, m.dst});
        const bool ooo   = *p.undelivered.begin() != e.id;
        const auto depth = static_cast<std::uint64_t>(std::distance(p.delivered.upper_bound(e.id), p.delivered.end()));
        if (ooo != e.ooo || depth != e.depth)
          fail("message " + std::to_string(e.id) + ": delivered " + (ooo ? "out of order" : "in order") + " at depth " +
               std::to_string(depth) + " by the dates, the trace says " + (e.ooo ? "out of order" : "in order") +
               " at depth " + std::to_string(e.depth));
        p.undelivered.erase(e.id);
        p.delivered.insert(e.id);
        m.delivered = true;
        r.ooo += ooo ? 1 : 0;
        r.overtaken += depth > 0 ? 1 : 0;
        r.depth_max = std::max(r.depth_max, depth);
        break;
      }
      case Type::Done: {
        Msg& m = r.msgs.at(e.id);
        if (auto o = r.ops.find(m.op); o != r.ops.end())
          o->second.completed = std::max(o->second.completed, e.t);
        break;
      }
      case Type::Wait:
        r.threads.insert({e.pe, e.thr});
        open[{e.pe, e.thr}] = Wait{e.pe, e.thr, e.ct, e.t, e.t, e.target};
        break;
      case Type::Wend: {
        auto it = open.find({e.pe, e.thr});
        if (it == open.end()) {
          fail("PE " + std::to_string(e.pe) + " thread " + std::to_string(e.thr) + ": a wait ends that never began");
          break;
        }
        it->second.e      = e.t;
        it->second.target = e.target;
        r.waits.push_back(it->second);
        open.erase(it);
        break;
      }
      case Type::Comp:
      case Type::Lock:
        r.threads.insert({e.pe, e.thr});
        (e.type == Type::Comp ? r.comps : r.locks)[{e.pe, e.thr}].push_back({e.t, e.t + e.dur});
        r.t_end = std::max(r.t_end, e.t + e.dur);
        break;
      default:
        break;
    }
  });
  for (auto& [k, w] : open) { // a wait the run's end cut short
    w.e = r.t_end;
    r.waits.push_back(w);
  }
  return r;
}

void check_attribution(const Run& r, bool finished)
{
  for (const auto& [id, o] : r.ops) {
    const std::string name = "operation " + std::to_string(id) + " (" + o.kind + " of PE " + std::to_string(o.pe) +
                             " thread " + std::to_string(o.thr) + " to PE " + std::to_string(o.target) + ")";
    std::size_t requests = 0, reads = 0;
    for (std::uint64_t mid : o.msgs) {
      const Msg& m = r.msgs.at(mid);
      if (m.kind == shmemsim::kRdmaReadKind) { // the target pulls a put's payload, after its request
        ++reads;
        if (o.kind.rfind("put", 0) != 0 || m.src != o.target || m.dst != o.pe || requests == 0)
          fail(name + ": its read " + std::to_string(mid) + " (from " + std::to_string(m.src) + " to " +
               std::to_string(m.dst) + ") is not a pull of its put's payload");
        continue;
      }
      ++requests;
      if (m.src != o.pe || m.dst != o.target)
        fail(name + ": its message " + std::to_string(mid) + " goes from " + std::to_string(m.src) + " to " +
             std::to_string(m.dst));
      if (!kind_matches(o.kind, m.kind))
        fail(name + ": its message " + std::to_string(mid) + " is a " + m.kind);
      if (m.t < o.t)
        fail(name + ": its message " + std::to_string(mid) + " is issued before it");
    }
    if (finished && (requests != 1 || reads > 1))
      fail(name + " has " + std::to_string(requests) + " request messages and " + std::to_string(reads) +
           " reads, expected 1 and at most 1");
  }
}

/// Per thread, what the report must say, recomputed from the definitions (docs/analysis.md).
struct ThreadFigures {
  std::uint64_t ops = 0, op_bytes = 0, waits = 0, waited_ops = 0;
  std::int64_t wait_ps = 0, interference_ps = 0, caused_ps = 0, lock_ps = 0;
  std::int64_t communication_ps = 0, compute_ps = 0, hidden_ps = 0, exposed_ps = 0;
  std::map<int, std::int64_t> by_culprit;
};

std::map<Thread, ThreadFigures> recompute(const Run& r)
{
  std::map<Thread, ThreadFigures> f;
  std::map<Thread, std::vector<Span>> comm, waiting;
  for (const auto& [id, o] : r.ops) {
    ThreadFigures& t = f[{o.pe, o.thr}];
    ++t.ops;
    t.op_bytes += o.bytes;
    if (o.completed > o.t)
      comm[{o.pe, o.thr}].push_back({o.t, o.completed});
  }
  for (const Wait& w : r.waits) {
    ThreadFigures& t = f[{w.pe, w.thr}];
    ++t.waits;
    t.wait_ps += w.e - w.b;
    waiting[{w.pe, w.thr}].push_back({w.b, w.e});
    if (w.ct < 0)
      continue;
    // Waited for: the operations counted on the CT up to the target that completed after it began.
    std::int64_t own = w.b;
    std::vector<const Op*> others;
    for (const auto& [id, o] : r.ops) {
      if (o.pe != w.pe || o.ct != w.ct || o.seq > w.target || o.completed <= w.b)
        continue;
      ++t.waited_ops;
      if (o.thr == w.thr)
        own = std::max(own, o.completed);
      else
        others.push_back(&o);
    }
    // Interference: from when its own operations were done, the time until the last of the
    // others' completed, each stretch charged to the thread whose operation ended it.
    const std::int64_t start = std::max(w.b, own);
    std::sort(others.begin(), others.end(),
              [](const Op* a, const Op* b) { return std::tie(a->completed, a->id) < std::tie(b->completed, b->id); });
    std::int64_t reached = start;
    for (const Op* o : others) {
      const std::int64_t c = std::min(o->completed, w.e);
      if (c <= reached)
        continue;
      t.interference_ps += c - reached;
      t.by_culprit[o->thr] += c - reached;
      f[{o->pe, o->thr}].caused_ps += c - reached;
      reached = c;
    }
  }
  for (const Thread& k : r.threads) {
    ThreadFigures& t   = f[k];
    const auto cp      = r.comps.count(k) ? r.comps.at(k) : std::vector<Span>{};
    t.communication_ps = union_length(comm[k]);
    t.compute_ps       = union_length(cp);
    t.hidden_ps        = overlap_length(comm[k], cp);
    t.exposed_ps       = overlap_length(comm[k], waiting[k]);
    t.lock_ps          = r.locks.count(k) ? union_length(r.locks.at(k)) : 0;
  }
  return f;
}

void same_seconds(const std::string& what, double reported, std::int64_t ps)
{
  const double want = static_cast<double>(ps) * 1e-12;
  if (std::fabs(reported - want) > 1e-15 + 1e-9 * std::fabs(want))
    fail(what + ": report " + std::to_string(reported) + " s, recomputed " + std::to_string(want) + " s");
}

void same_count(const std::string& what, std::uint64_t reported, std::uint64_t want)
{
  if (reported != want)
    fail(what + ": report " + std::to_string(reported) + ", recomputed " + std::to_string(want));
}

void check_report(const Run& r, const nlohmann::json& rep)
{
  const auto figures = recompute(r);
  std::set<Thread> seen;
  std::int64_t total = 0;
  for (const auto& tj : rep.at("threads")) {
    const Thread k{tj.at("pe").get<int>(), tj.at("thread").get<int>()};
    seen.insert(k);
    const std::string who = "PE " + std::to_string(k.first) + " thread " + std::to_string(k.second);
    auto it               = figures.find(k);
    if (it == figures.end()) {
      fail(who + " is in the report but did nothing in the trace");
      continue;
    }
    const ThreadFigures& t = it->second;
    total += t.interference_ps;
    same_count(who + " operations", tj.at("operations").at("ops").get<std::uint64_t>(), t.ops);
    same_count(who + " operation bytes", tj.at("operations").at("bytes").get<std::uint64_t>(), t.op_bytes);
    same_count(who + " waits", tj.at("waits").at("count").get<std::uint64_t>(), t.waits);
    same_seconds(who + " wait time", tj.at("waits").at("seconds").get<double>(), t.wait_ps);
    same_count(who + " operations waited for", tj.at("waits").at("waited_for").at("ops").get<std::uint64_t>(),
               t.waited_ops);
    same_seconds(who + " interference", tj.at("interference_s").get<double>(), t.interference_ps);
    same_seconds(who + " interference caused", tj.at("interference_caused_s").get<double>(), t.caused_ps);
    for (const auto& [culprit, ps] : t.by_culprit) {
      const auto& by      = tj.at("interference_by_thread_s");
      const std::string c = std::to_string(culprit);
      same_seconds(who + " interference by thread " + c, by.contains(c) ? by.at(c).get<double>() : 0.0, ps);
    }
    const auto& ov = tj.at("overlap");
    same_seconds(who + " communication", ov.at("communication_s").get<double>(), t.communication_ps);
    same_seconds(who + " computation", ov.at("compute_s").get<double>(), t.compute_ps);
    same_seconds(who + " hidden communication", ov.at("hidden_s").get<double>(), t.hidden_ps);
    same_seconds(who + " exposed communication", ov.at("exposed_s").get<double>(), t.exposed_ps);
    same_seconds(who + " lock time", tj.at("lock_s").get<double>(), t.lock_ps);
  }
  for (const Thread& k : r.threads)
    if (!seen.count(k))
      fail("PE " + std::to_string(k.first) + " thread " + std::to_string(k.second) +
           " is in the trace, not in the report");
  same_seconds("total interference", rep.at("interference").at("total_s").get<double>(), total);
  const auto& net = rep.at("network");
  same_count("report: messages", net.at("messages").get<std::uint64_t>(), r.msgs.size());
  same_count("report: out-of-order deliveries", net.at("out_of_order").get<std::uint64_t>(), r.ooo);
  same_count("report: overtaken deliveries", net.at("overtaken").get<std::uint64_t>(), r.overtaken);
  same_count("report: maximal reorder depth", net.at("reorder_depth").at("max").get<std::uint64_t>(), r.depth_max);
}

nlohmann::json read_json(const std::string& path)
{
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path + ": cannot open");
  return nlohmann::json::parse(in);
}

} // namespace

int main(int argc, char** argv)
{
  if (argc != 2) {
    std::fprintf(stderr, "usage: shmemsim_trace_audit RUN_DIR (with trace.evt, summary.json, report.json)\n");
    return 2;
  }
  const std::string dir = argv[1];
  try {
    const Run r                  = read_run(dir + "/trace.evt");
    const nlohmann::json summary = read_json(dir + "/summary.json");
    const nlohmann::json report  = read_json(dir + "/report.json");
    check_attribution(r, summary.contains("status") && summary.at("status").is_number() &&
                             summary.at("status").get<int>() == 0);
    check_report(r, report);
    if (summary.contains("out_of_order_deliveries"))
      same_count("summary.json: out-of-order deliveries", summary.at("out_of_order_deliveries").get<std::uint64_t>(),
                 r.ooo);
    else
      fail("summary.json has no out_of_order_deliveries");
    std::uint64_t waited = 0, in_order = 0;
    for (const auto& [k, t] : recompute(r))
      waited += t.waited_ops;
    for (const auto& [id, m] : r.msgs)
      in_order += m.delivered ? 1 : 0;
    if (failures > 0) {
      std::printf("trace_audit: %d mismatches\n", failures);
      return 1;
    }
    std::printf("trace_audit: %zu operations, %zu messages (%llu delivered, %llu out of order), %zu waits for %llu "
                "operations, %zu threads: consistent\n",
                r.ops.size(), r.msgs.size(), static_cast<unsigned long long>(in_order),
                static_cast<unsigned long long>(r.ooo), r.waits.size(), static_cast<unsigned long long>(waited),
                r.threads.size());
  } catch (const std::exception& e) {
    std::printf("trace_audit: %s\n", e.what());
    return 1;
  }
  return 0;
}
