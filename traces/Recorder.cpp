#include "traces/Recorder.hpp"

#include "traces/Paje.hpp"
#include "traces/Perfetto.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace shmemsim::traces {

Recorder::Recorder(Level level)
{
  trace_.level = level;
  packets_     = level == Level::Packets;
}

Event& Recorder::add(Type type, sim::Ps t)
{
  sorted_ = false;
  Event& e = trace_.events.emplace_back();
  e.type   = type;
  e.t      = t;
  return e;
}

Event& Recorder::add(Type type, sim::Ps t, int pe, int thr)
{
  Event& e = add(type, t);
  e.pe     = pe;
  e.thr    = thr;
  return e;
}

void Recorder::pe(int pe, int node)
{
  Event& e = head_.emplace_back();
  e.type   = Type::Pe;
  e.pe     = pe;
  e.node   = node;
}

void Recorder::link(int id, const std::string& name)
{
  if (trace_.level != Level::Packets)
    return;
  Event& e = head_.emplace_back();
  e.type   = Type::Link;
  e.id     = static_cast<std::uint64_t>(id);
  e.what   = name;
}

std::uint64_t Recorder::msg_issued(sim::Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes)
{
  Event& e = add(Type::Msg, t);
  e.id     = next_msg_++;
  e.src    = src_ep;
  e.dst    = dst_ep;
  e.what   = kind;
  e.bytes  = bytes;
  const auto s = static_cast<std::size_t>(src_ep);
  if (s < pending_op_.size()) {
    e.op           = pending_op_[s];
    pending_op_[s] = 0; // one operation, one message (put_signal issues two operations)
  }
  return e.id;
}

void Recorder::msg_injected(sim::Ps t, std::uint64_t msg)
{
  add(Type::Inj, t).id = msg;
}

void Recorder::packet_hop(sim::Ps t, std::uint64_t msg, int link, sim::Ps queued, std::uint32_t bytes)
{
  Event& e = add(Type::Hop, t);
  e.id     = msg;
  e.link   = link;
  e.queued = queued;
  e.bytes  = bytes;
}

void Recorder::msg_delivered(sim::Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth)
{
  Event& e = add(Type::Dlv, t);
  e.id     = msg;
  e.ooo    = out_of_order;
  e.depth  = depth;
}

void Recorder::msg_done(sim::Ps t, std::uint64_t msg)
{
  add(Type::Done, t).id = msg;
}

void Recorder::ct_changed(sim::Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure)
{
  Event& e  = add(Type::Ct, t);
  e.pe      = ep;
  e.ct      = ct;
  e.success = success;
  e.failure = failure;
}

void Recorder::limit_hit(sim::Ps t, int ep, const char* what)
{
  Event& e = add(Type::Limit, t);
  e.pe     = ep;
  e.what   = what;
}

void Recorder::op_issued(sim::Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind,
                         std::uint64_t bytes, int target)
{
  Event& e    = add(Type::Op, t, pe, thr);
  e.id        = next_op_++;
  e.ctx       = ctx;
  e.ct        = ct;
  e.seq       = seq;
  e.what      = kind;
  e.bytes     = bytes;
  e.target_pe = target;
  const auto p = static_cast<std::size_t>(pe);
  if (pending_op_.size() <= p)
    pending_op_.resize(p + 1, 0);
  pending_op_[p] = e.id;
}

void Recorder::ctx_event(sim::Ps t, int pe, int thr, int ctx, int ct, front::CtxEvent what)
{
  Event& e = add(Type::Ctx, t, pe, thr);
  e.ctx    = ctx;
  e.ct     = ct;
  e.what   = front::to_string(what);
}

void Recorder::wait_begin(sim::Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target)
{
  Event& e = add(Type::Wait, t, pe, thr);
  e.ctx    = ctx;
  e.ct     = ct;
  e.what   = what;
  e.target = target;
}

void Recorder::wait_end(sim::Ps t, int pe, int thr, std::uint64_t target)
{
  add(Type::Wend, t, pe, thr).target = target;
}

void Recorder::compute(sim::Ps t, sim::Ps dur, int pe, int thr)
{
  add(Type::Comp, t, pe, thr).dur = dur;
}

void Recorder::lock(sim::Ps t, sim::Ps dur, int pe, int thr)
{
  add(Type::Lock, t, pe, thr).dur = dur;
}

const Trace& Recorder::finish()
{
  if (!sorted_) {
    // Some events are reported ahead of their date (a packet leaving a busy port later) or after
    // it (a computation, once its length is known): order by date, keeping the report order.
    std::stable_sort(trace_.events.begin(), trace_.events.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
    if (!head_.empty()) {
      trace_.events.insert(trace_.events.begin(), head_.begin(), head_.end());
      head_.clear();
    }
    sorted_ = true;
  }
  return trace_;
}

std::vector<std::string> Recorder::write(const std::string& dir)
{
  const Trace& tr = finish();
  namespace fs    = std::filesystem;
  std::vector<std::string> files;
  const fs::path evt = fs::path(dir) / kCompactName;
  {
    std::ofstream out(evt);
    if (!out)
      throw std::runtime_error("cannot write " + evt.string());
    write_header(out, tr.level, tr.meta);
    for (const Event& e : tr.events)
      write_event(out, e);
    if (!out)
      throw std::runtime_error("cannot write " + evt.string());
  }
  files.push_back(evt.string());
  auto derived = [&](const char* name, void (*writer)(const Trace&, std::ostream&)) {
    const fs::path p = fs::path(dir) / name;
    std::ofstream out(p);
    if (out)
      writer(tr, out);
    if (!out)
      throw std::runtime_error("cannot write " + p.string());
    files.push_back(p.string());
  };
  derived("trace.json", &write_perfetto);
  derived("trace.paje", &write_paje);
  return files;
}

} // namespace shmemsim::traces
