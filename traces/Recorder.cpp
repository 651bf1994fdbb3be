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

// ------------------------------------------------------------------ the observer calls as events

namespace {
Event event(Type type, Ps t)
{
  Event e;
  e.type = type;
  e.t    = t;
  return e;
}

/// An event of thread `thr` of PE `pe`.
Event event(Type type, Ps t, int pe, int thr)
{
  Event e = event(type, t);
  e.pe    = pe;
  e.thr   = thr;
  return e;
}
} // namespace

std::uint64_t TraceObserver::msg_issued(Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes,
                                        std::uint64_t op)
{
  Event e = event(Type::Msg, t);
  e.src   = src_ep;
  e.dst   = dst_ep;
  e.what  = kind;
  e.bytes = bytes;
  e.op    = op; // the operation's own id, carried with it through the network (user_ptr)
  return record(std::move(e));
}

void TraceObserver::msg_injected(Ps t, std::uint64_t msg)
{
  Event e = event(Type::Inj, t);
  e.id    = msg;
  record(std::move(e));
}

void TraceObserver::packet_hop(Ps t, std::uint64_t msg, int link, Ps queued, std::uint32_t bytes)
{
  Event e  = event(Type::Hop, t);
  e.id     = msg;
  e.link   = link;
  e.queued = queued;
  e.bytes  = bytes;
  record(std::move(e));
}

void TraceObserver::msg_delivered(Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth)
{
  Event e = event(Type::Dlv, t);
  e.id    = msg;
  e.ooo   = out_of_order;
  e.depth = depth;
  record(std::move(e));
}

void TraceObserver::msg_done(Ps t, std::uint64_t msg)
{
  Event e = event(Type::Done, t);
  e.id    = msg;
  record(std::move(e));
}

void TraceObserver::ct_changed(Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure)
{
  Event e   = event(Type::Ct, t);
  e.pe      = ep;
  e.ct      = ct;
  e.success = success;
  e.failure = failure;
  record(std::move(e));
}

void TraceObserver::limit_hit(Ps t, int ep, const char* what)
{
  Event e = event(Type::Limit, t);
  e.pe    = ep;
  e.what  = what;
  record(std::move(e));
}

std::uint64_t TraceObserver::op_issued(Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind,
                                       std::uint64_t bytes, int target)
{
  Event e     = event(Type::Op, t, pe, thr);
  e.ctx       = ctx;
  e.ct        = ct;
  e.seq       = seq;
  e.what      = kind;
  e.bytes     = bytes;
  e.target_pe = target;
  return record(std::move(e));
}

void TraceObserver::ctx_event(Ps t, int pe, int thr, int ctx, int ct, CtxEvent what)
{
  Event e = event(Type::Ctx, t, pe, thr);
  e.ctx   = ctx;
  e.ct    = ct;
  e.what  = to_string(what);
  record(std::move(e));
}

void TraceObserver::wait_begin(Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target)
{
  Event e  = event(Type::Wait, t, pe, thr);
  e.ctx    = ctx;
  e.ct     = ct;
  e.what   = what;
  e.target = target;
  record(std::move(e));
}

void TraceObserver::wait_end(Ps t, int pe, int thr, std::uint64_t target)
{
  Event e  = event(Type::Wend, t, pe, thr);
  e.target = target;
  record(std::move(e));
}

void TraceObserver::compute(Ps t, Ps dur, int pe, int thr)
{
  Event e = event(Type::Comp, t, pe, thr);
  e.dur   = dur;
  record(std::move(e));
}

void TraceObserver::lock(Ps t, Ps dur, int pe, int thr)
{
  Event e = event(Type::Lock, t, pe, thr);
  e.dur   = dur;
  record(std::move(e));
}

void TraceObserver::routine_begin(Ps t, int pe, int thr, const char* routine)
{
  Event e = event(Type::Call, t, pe, thr);
  e.what  = routine;
  record(std::move(e));
}

void TraceObserver::routine_end(Ps t, int pe, int thr)
{
  record(event(Type::Ret, t, pe, thr));
}

// ------------------------------------------------------------------ Recorder: a run's trace, in date order

Recorder::Recorder(Level level, const std::string& dir) : level_(level)
{
  packets_     = level == Level::Packets; // the fabric reports packet hops only then
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

std::uint64_t Recorder::record(Event&& e)
{
  SHMEMSIM_ASSERT(!finished_, "trace events come before finish()");
  // The watermark below guarantees that no event is reported before one already written.
  SHMEMSIM_ASSERT(e.t >= written_upto_, "trace events arrive no earlier than the reorder window's watermark");
  if (e.type == Type::Op)
    e.id = next_op_++;
  else if (e.type == Type::Msg)
    e.id = next_msg_++;
  const std::uint64_t id = e.type == Type::Op || e.type == Type::Msg ? e.id : 0;
  window_.push(Held{std::move(e), arrivals_++});
  if (clock_) {
    // Every event is reported at its date or later, except the intervals under way (interval_open).
    Ps watermark = clock_();
    if (!open_.empty())
      watermark = std::min(watermark, *open_.begin());
    flush(watermark);
  }
  return id;
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

std::string Recorder::finish()
{
  if (!finished_) {
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
  namespace fs          = std::filesystem;
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

// ------------------------------------------------------------------ PartRecorder: one emulated PE's part

PartRecorder::PartRecorder(const std::string& path, int pe, int node)
    : out_(path, std::ios::binary | std::ios::trunc), path_(path), pe_(pe)
{
  if (!out_)
    throw std::runtime_error("cannot write the trace file " + path);
  write_header(out_, Level::Ops, {});
  Event e;
  e.type = Type::Pe;
  e.pe   = pe;
  e.node = node;
  write_event(out_, e);
}

std::uint64_t PartRecorder::record(Event&& e)
{
  std::lock_guard lock(mutex_);
  if (e.type == Type::Comp) {
    // Dated at its start, reported at its end: the one kind of line dated before the part's
    // previous one (the merge sorts).
    last_ = std::max(last_, e.t + e.dur);
  } else {
    last_ = std::max(last_, e.t); // the part's dates never decrease (a clock step back is flattened)
    e.t   = last_;
  }
  if (e.type == Type::Op) {
    e.id = (static_cast<std::uint64_t>(pe_ + 1) << 40) | next_op_++;
  } else if (e.type == Type::Msg) {
    SHMEMSIM_ASSERT(e.src == pe_ && e.dst >= 0, "a PE's part records the messages that PE issues");
    if (static_cast<std::size_t>(e.dst) >= sent_.size())
      sent_.resize(static_cast<std::size_t>(e.dst) + 1, 0);
    e.id = pair_message_id(e.src, e.dst, ++sent_[static_cast<std::size_t>(e.dst)]);
  }
  write_event(out_, e);
  return e.type == Type::Op || e.type == Type::Msg ? e.id : 0;
}

void PartRecorder::flush()
{
  std::lock_guard lock(mutex_);
  out_.flush();
  if (!out_)
    throw std::runtime_error("cannot write the trace file " + path_);
}

} // namespace shmemsim::traces
