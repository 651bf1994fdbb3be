// Synthetic traces for the analysis tests: a builder that issues operations with their messages,
// deliveries and ACKs at given dates, waits, computations, and a small Mandelbrot-like workload
// (fetch-add, compute, put, as in the contexts paper's Listing 3) in three variants.
#pragma once

#include "traces/Trace.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace shmemsim::testing {

using traces::Event;
using traces::Trace;
using traces::Type;

constexpr std::int64_t kUs = 1'000'000; // picoseconds
constexpr std::int64_t kNs = 1'000;

class TraceBuilder {
public:
  struct OpRef {
    std::uint64_t id, seq;
  };

  TraceBuilder() { tr_.level = traces::Level::Ops; }

  void meta(const std::string& k, const std::string& v) { tr_.meta[k] = v; }
  void pe(int pe, int node)
  {
    Event e;
    e.type = Type::Pe, e.pe = pe, e.node = node;
    head_.push_back(e);
  }
  void link(std::uint64_t id, const std::string& name)
  {
    Event e;
    e.type = Type::Link, e.id = id, e.what = name;
    head_.push_back(e);
    tr_.level = traces::Level::Packets;
  }

  /// An operation issued at `t`, one message injected at `inj` (-1: at t), delivered at `dlv`,
  /// acknowledged at `done` (-1: never). Counted on `ct` (its seq is the next issued count).
  OpRef op(std::int64_t t, int pe, int thr, int ctx, int ct, const std::string& kind, std::uint64_t bytes, int target,
           std::int64_t dlv, std::int64_t done, bool ooo = false, std::uint64_t depth = 0, std::int64_t inj = -1)
  {
    Event o;
    o.type = Type::Op, o.t = t, o.id = next_op_++, o.pe = pe, o.thr = thr, o.ctx = ctx, o.ct = ct;
    o.seq = ++issued_[{pe, ct}], o.what = kind, o.bytes = bytes, o.target_pe = target;
    add(o);
    Event m;
    m.type = Type::Msg, m.t = t, m.id = next_msg_++, m.op = o.id, m.src = pe, m.dst = target;
    m.what  = kind.rfind("famo", 0) == 0  ? "fetch_atomic"
              : kind.rfind("amo", 0) == 0 ? "atomic"
              : kind.rfind("get", 0) == 0 ? "get"
                                          : "put";
    m.bytes = bytes;
    add(m);
    Event i;
    i.type = Type::Inj, i.t = inj < 0 ? t : inj, i.id = m.id;
    add(i);
    Event d;
    d.type = Type::Dlv, d.t = dlv, d.id = m.id, d.ooo = ooo, d.depth = depth;
    add(d);
    if (done >= 0) {
      Event a;
      a.type = Type::Done, a.t = done, a.id = m.id;
      add(a);
      Event c;
      c.type = Type::Ct, c.t = done, c.pe = pe, c.ct = ct, c.success = ++acked_[{pe, ct}];
      add(c);
      std::int64_t& latest = latest_done_[{pe, ct}];
      latest               = std::max(latest, done);
    }
    return {o.id, o.seq};
  }
  /// A wait from b to e until `ct` reaches `target` (final target `final_target`, 0: the same).
  void wait(std::int64_t b, std::int64_t e, int pe, int thr, int ctx, int ct, const std::string& what,
            std::uint64_t target, std::uint64_t final_target = 0)
  {
    Event w;
    w.type = Type::Wait, w.t = b, w.pe = pe, w.thr = thr, w.ctx = ctx, w.ct = ct, w.what = what, w.target = target;
    add(w);
    Event x;
    x.type = Type::Wend, x.t = e, x.pe = pe, x.thr = thr, x.target = final_target ? final_target : target;
    add(x);
  }
  /// A wait on `ct` that lasts until every operation issued on it so far is acknowledged.
  std::int64_t wait_all(std::int64_t b, int pe, int thr, int ctx, int ct, const std::string& what)
  {
    const std::uint64_t target = issued_[{pe, ct}];
    const std::int64_t end     = std::max(b, latest_done_[{pe, ct}]);
    wait(b, end, pe, thr, ctx, ct, what, target);
    return end;
  }
  void comp(std::int64_t t, int pe, int thr, std::int64_t dur) { simple(Type::Comp, t, pe, thr, dur); }
  void lock(std::int64_t t, int pe, int thr, std::int64_t dur) { simple(Type::Lock, t, pe, thr, dur); }
  void ctx(std::int64_t t, int pe, int thr, int ctx, int ct, const std::string& what)
  {
    Event e;
    e.type = Type::Ctx, e.t = t, e.pe = pe, e.thr = thr, e.ctx = ctx, e.ct = ct, e.what = what;
    add(e);
  }
  void limit(std::int64_t t, int pe, const std::string& what)
  {
    Event e;
    e.type = Type::Limit, e.t = t, e.pe = pe, e.what = what;
    add(e);
  }
  /// A thread in SHMEM routine `name` from b to e (`call` and `ret` lines).
  void routine(std::int64_t b, std::int64_t e, int pe, int thr, const std::string& name)
  {
    Event c;
    c.type = Type::Call, c.t = b, c.pe = pe, c.thr = thr, c.what = name;
    add(c);
    Event r;
    r.type = Type::Ret, r.t = e, r.pe = pe, r.thr = thr;
    add(r);
  }
  void hop(std::int64_t t, std::uint64_t msg, int link, std::int64_t queued, std::uint64_t bytes)
  {
    Event e;
    e.type = Type::Hop, e.t = t, e.id = msg, e.link = link, e.queued = queued, e.bytes = bytes;
    add(e);
  }
  std::uint64_t issued(int pe, int ct) { return issued_[{pe, ct}]; }

  /// The trace: `pe`/`link` lines first, then events by date (stable: same-date events keep the
  /// order they were added in).
  Trace build() const
  {
    Trace t               = tr_;
    std::vector<Event> ev = events_;
    std::stable_sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
    std::map<std::pair<int, int>, std::uint64_t> count; // CT values in date order
    for (Event& e : ev)
      if (e.type == Type::Ct)
        e.success = ++count[{e.pe, e.ct}];
    t.events = head_;
    t.events.insert(t.events.end(), ev.begin(), ev.end());
    return t;
  }

private:
  void add(const Event& e) { events_.push_back(e); }
  void simple(Type type, std::int64_t t, int pe, int thr, std::int64_t dur)
  {
    Event e;
    e.type = type, e.t = t, e.pe = pe, e.thr = thr, e.dur = dur;
    add(e);
  }
  Trace tr_;
  std::vector<Event> head_, events_;
  std::uint64_t next_op_ = 1, next_msg_ = 1;
  std::map<std::pair<int, int>, std::uint64_t> issued_, acked_;
  std::map<std::pair<int, int>, std::int64_t> latest_done_; ///< latest ACK of the ops issued so far
};

/// Variants of the Mandelbrot-like workload (the contexts paper's Figures 2 and 3).
enum class Variant { Shared, CtxPerThread, Nbi };
inline const char* to_string(Variant v)
{
  return v == Variant::Shared ? "no-contexts" : v == Variant::CtxPerThread ? "contexts" : "contexts-nbi";
}

/// `pes` PEs on `pes` nodes, `threads` threads on PE 0 doing `iters` rounds of: fetch-add on the
/// next PE (blocking), compute, put of 4 KiB to that PE (blocking, or nbi completed by the next
/// fetch-add's wait). Shared: every thread on the default context (CT 0); otherwise CT thr+1.
/// Dates follow a simple latency model and are computed in global time order, so every wait ends
/// exactly when the CT reaches its target.
inline Trace mandelbrot_like(Variant v, int threads, int iters, int pes = 3)
{
  TraceBuilder b;
  b.meta("scenario", std::string("mandelbrot-like-") + to_string(v));
  b.meta("max_volatile_size", "64");
  b.meta("max_cts", "16");
  for (int p = 0; p < pes; ++p)
    b.pe(p, p);
  const std::int64_t lat = 1500 * kNs, put_extra = 800 * kNs;
  struct Th {
    std::int64_t t = 0;
    int step = 0, iter = 0, dest = 1;
  };
  std::vector<Th> th(threads);
  for (int i = 0; i < threads; ++i) {
    th[i].t    = i * 300 * kNs;
    th[i].dest = 1 + i % (pes - 1);
    if (v != Variant::Shared)
      b.ctx(0, 0, i, i + 1, i + 1, "create");
  }
  for (;;) {
    int k = -1;
    for (int i = 0; i < threads; ++i)
      if (th[i].iter < iters && (k < 0 || th[i].t < th[k].t))
        k = i;
    if (k < 0)
      break;
    Th& s        = th[k];
    const int ct = v == Variant::Shared ? 0 : k + 1, ctx = v == Variant::Shared ? 0 : k + 1;
    if (s.step == 0) { // fetch-add, blocking
      b.op(s.t, 0, k, ctx, ct, "famo", 8, s.dest, s.t + lat, s.t + 2 * lat);
      s.t    = b.wait_all(s.t + 50 * kNs, 0, k, ctx, ct, "amo");
      s.step = 1;
    } else if (s.step == 1) { // compute
      const std::int64_t d = (4 + (s.iter * 7 + k * 3) % 5) * kUs;
      b.comp(s.t, 0, k, d);
      s.t += d;
      s.step = 2;
    } else { // put
      if (v == Variant::Nbi) {
        b.op(s.t, 0, k, ctx, ct, "put_nbi", 4096, s.dest, s.t + lat + put_extra, s.t + 2 * lat + put_extra);
        s.t += 100 * kNs;
      } else {
        b.op(s.t, 0, k, ctx, ct, "put", 4096, s.dest, s.t + lat + put_extra, s.t + 2 * lat + put_extra);
        s.t = b.wait_all(s.t + 50 * kNs, 0, k, ctx, ct, "put");
      }
      s.dest = 1 + (s.dest % (pes - 1));
      s.step = 0;
      ++s.iter;
    }
  }
  for (int i = 0; i < threads; ++i) {
    const int ct = v == Variant::Shared ? 0 : i + 1;
    th[i].t      = b.wait_all(th[i].t, 0, i, v == Variant::Shared ? 0 : i + 1, ct, "quiet");
    if (v != Variant::Shared)
      b.ctx(th[i].t, 0, i, i + 1, i + 1, "destroy");
  }
  return b.build();
}

} // namespace shmemsim::testing
