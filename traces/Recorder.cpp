#include "traces/Recorder.hpp"

#include "traces/Paje.hpp"
#include "traces/Perfetto.hpp"

#include "base/Assert.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace shmemsim::traces {

Recorder::Recorder(Level level, const std::string& dir) : level_(level)
{
  packets_ = level == Level::Packets; // the fabric reports packet hops only then
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  path_ = (fs::path(dir) / kCompactName).string();
  // Written as DIR/trace.evt.part and renamed at the end: a run that dies leaves no trace.evt
  // that would pass for a whole one.
  out_.open(part(), std::ios::binary | std::ios::trunc);
  if (!out_)
    throw std::runtime_error("cannot write " + part() + (ec ? ": " + ec.message() : std::string()));
}

void Recorder::meta(const std::string& key, const std::string& value)
{
  SHMEMSIM_ASSERT(!head_written_, "trace header values are set before the first event is written");
  meta_[key] = value;
}

Event& Recorder::add(Type type, Ps t)
{
  SHMEMSIM_ASSERT(!building_live_ && !finished_, "one trace event at a time, before finish()");
  building_      = Event{};
  building_.type = type;
  building_.t    = t;
  building_live_ = true;
  return building_;
}

Event& Recorder::add(Type type, Ps t, int pe, int thr)
{
  Event& e = add(type, t);
  e.pe     = pe;
  e.thr    = thr;
  return e;
}

void Recorder::commit()
{
  SHMEMSIM_ASSERT(building_live_, "an event is built before it is committed");
  building_live_ = false;
  // The watermark below guarantees that no event is reported before one already written.
  SHMEMSIM_ASSERT(building_.t >= written_upto_, "trace events arrive no earlier than the reorder window's watermark");
  window_.push(Held{std::move(building_), arrivals_++});
  if (!clock_)
    return;
  // Every event is reported at its date or later, except the intervals under way (interval_open).
  Ps watermark = clock_();
  if (!open_.empty())
    watermark = std::min(watermark, *open_.begin());
  flush(watermark);
}

void Recorder::write_head()
{
  if (head_written_)
    return;
  head_written_ = true;
  write_header(out_, level_, meta_);
  for (const Event& e : head_)
    write_event(out_, e);
  head_.clear();
  head_.shrink_to_fit();
}

void Recorder::flush(Ps upto)
{
  if (window_.empty() || window_.top().e.t > upto)
    return;
  write_head();
  while (!window_.empty() && window_.top().e.t <= upto) {
    const Event& e = window_.top().e;
    written_upto_  = e.t;
    write_event(out_, e);
    window_.pop();
  }
  if (!out_)
    throw std::runtime_error("cannot write " + part());
}

void Recorder::interval_open(Ps t)
{
  open_.insert(t);
}

void Recorder::interval_closed(Ps t)
{
  auto it = open_.find(t);
  SHMEMSIM_ASSERT(it != open_.end(), "an interval closes after it opened");
  open_.erase(it);
}

void Recorder::pe(int pe, int node)
{
  SHMEMSIM_ASSERT(!head_written_, "pe lines are recorded before the first event is written");
  Event& e = head_.emplace_back();
  e.type   = Type::Pe;
  e.pe     = pe;
  e.node   = node;
}

void Recorder::link(int id, const std::string& name)
{
  if (level_ != Level::Packets)
    return;
  SHMEMSIM_ASSERT(!head_written_, "link lines are recorded before the first event is written");
  Event& e = head_.emplace_back();
  e.type   = Type::Link;
  e.id     = static_cast<std::uint64_t>(id);
  e.what   = name;
}

std::uint64_t Recorder::msg_issued(Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes,
                                   std::uint64_t op)
{
  Event& e = add(Type::Msg, t);
  e.id     = next_msg_++;
  e.src    = src_ep;
  e.dst    = dst_ep;
  e.what   = kind;
  e.bytes  = bytes;
  e.op     = op; // the operation's own id, carried with it through the network model (user_ptr)
  const std::uint64_t id = e.id;
  commit();
  return id;
}

void Recorder::msg_injected(Ps t, std::uint64_t msg)
{
  add(Type::Inj, t).id = msg;
  commit();
}

void Recorder::packet_hop(Ps t, std::uint64_t msg, int link, Ps queued, std::uint32_t bytes)
{
  Event& e = add(Type::Hop, t);
  e.id     = msg;
  e.link   = link;
  e.queued = queued;
  e.bytes  = bytes;
  commit();
}

void Recorder::msg_delivered(Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth)
{
  Event& e = add(Type::Dlv, t);
  e.id     = msg;
  e.ooo    = out_of_order;
  e.depth  = depth;
  commit();
}

void Recorder::msg_done(Ps t, std::uint64_t msg)
{
  add(Type::Done, t).id = msg;
  commit();
}

void Recorder::ct_changed(Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure)
{
  Event& e  = add(Type::Ct, t);
  e.pe      = ep;
  e.ct      = ct;
  e.success = success;
  e.failure = failure;
  commit();
}

void Recorder::limit_hit(Ps t, int ep, const char* what)
{
  Event& e = add(Type::Limit, t);
  e.pe     = ep;
  e.what   = what;
  commit();
}

std::uint64_t Recorder::op_issued(Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind,
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
  const std::uint64_t id = e.id;
  commit();
  return id;
}

void Recorder::ctx_event(Ps t, int pe, int thr, int ctx, int ct, CtxEvent what)
{
  Event& e = add(Type::Ctx, t, pe, thr);
  e.ctx    = ctx;
  e.ct     = ct;
  e.what   = to_string(what);
  commit();
}

void Recorder::wait_begin(Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target)
{
  Event& e = add(Type::Wait, t, pe, thr);
  e.ctx    = ctx;
  e.ct     = ct;
  e.what   = what;
  e.target = target;
  commit();
}

void Recorder::wait_end(Ps t, int pe, int thr, std::uint64_t target)
{
  add(Type::Wend, t, pe, thr).target = target;
  commit();
}

void Recorder::compute(Ps t, Ps dur, int pe, int thr)
{
  add(Type::Comp, t, pe, thr).dur = dur;
  commit();
}

void Recorder::lock(Ps t, Ps dur, int pe, int thr)
{
  add(Type::Lock, t, pe, thr).dur = dur;
  commit();
}

std::string Recorder::finish()
{
  if (!finished_) {
    SHMEMSIM_ASSERT(!building_live_, "no event is half built at the end");
    finished_ = true;
    write_head();
    flush(std::numeric_limits<Ps>::max());
    out_.close();
    if (!out_)
      throw std::runtime_error("cannot write " + part());
    std::error_code ec;
    std::filesystem::rename(part(), path_, ec);
    if (ec)
      throw std::runtime_error("cannot rename " + part() + " to " + path_ + ": " + ec.message());
  }
  return path_;
}

std::vector<std::string> Recorder::write()
{
  namespace fs = std::filesystem;
  const std::string evt = finish();
  std::vector<std::string> files{evt};
  // Made from trace.evt, read again per pass: the trace is never held in memory.
  const EventSource events = events_of_file(evt);
  auto derived             = [&](const char* name, void (*writer)(const EventSource&, std::ostream&)) {
    const fs::path p = fs::path(evt).parent_path() / name;
    std::ofstream out(p);
    if (out)
      writer(events, out);
    if (!out)
      throw std::runtime_error("cannot write " + p.string());
    files.push_back(p.string());
  };
  derived("trace.json", &write_perfetto);
  derived("trace.paje", &write_paje);
  return files;
}

} // namespace shmemsim::traces
