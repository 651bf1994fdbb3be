#include "shmem_front/emulator/Tracer.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace shmemsim::emulator {

namespace {
thread_local int t_thread = -1;

std::uint64_t realtime_ns()
{
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}
} // namespace

Tracer::Tracer(const std::string& path, std::uint64_t epoch_ns, int pe, int node)
    : out_(path, std::ios::binary | std::ios::trunc), path_(path), epoch_ns_(epoch_ns), pe_(pe)
{
  if (!out_)
    throw std::runtime_error("cannot write the trace file " + path);
  traces::write_header(out_, traces::Level::Ops, {});
  traces::Event e;
  e.type = traces::Type::Pe;
  e.pe   = pe;
  e.node = node;
  traces::write_event(out_, e);
}

int Tracer::thread()
{
  if (t_thread < 0)
    t_thread = next_thread_.fetch_add(1, std::memory_order_relaxed);
  return t_thread;
}

void Tracer::set_main_thread()
{
  t_thread = 0;
}

traces::Event Tracer::event(traces::Type type)
{
  traces::Event e;
  e.type = type;
  e.pe   = pe_;
  return e;
}

std::int64_t Tracer::advance_locked()
{
  // Dated under the lock, never before the previous event: the file's dates never decrease (a
  // clock step back is flattened).
  last_ = std::max(last_, now_ps());
  return last_;
}

std::int64_t Tracer::now_ps() const
{
  const std::uint64_t now = realtime_ns();
  return now > epoch_ns_ ? static_cast<std::int64_t>(now - epoch_ns_) * 1000 : 0;
}

void Tracer::write(const traces::Event& ev)
{
  std::lock_guard lock(mutex_);
  traces::Event e = ev;
  e.t             = advance_locked();
  traces::write_event(out_, e);
}

std::uint64_t Tracer::op(int ctx, int ct, std::uint64_t seq, const char* kind, std::uint64_t bytes, int target)
{
  traces::Event e = event(traces::Type::Op);
  {
    std::lock_guard lock(mutex_);
    e.id = (static_cast<std::uint64_t>(pe_ + 1) << 40) | next_op_++;
  }
  e.thr       = thread();
  e.ctx       = ctx;
  e.ct        = ct;
  e.seq       = seq;
  e.what      = kind;
  e.bytes     = bytes;
  e.target_pe = target;
  write(e);
  return e.id;
}

void Tracer::msg(std::uint64_t id, std::uint64_t op, int dst, const char* kind, std::uint64_t bytes)
{
  traces::Event e = event(traces::Type::Msg);
  e.pe            = -1;
  e.id            = id;
  e.op            = op;
  e.src           = pe_;
  e.dst           = dst;
  e.what          = kind;
  e.bytes         = bytes;
  write(e);
}

void Tracer::delivered(std::uint64_t id, bool ooo, std::uint64_t depth)
{
  traces::Event e = event(traces::Type::Dlv);
  e.pe            = -1;
  e.id            = id;
  e.ooo           = ooo;
  e.depth         = depth;
  write(e);
}

void Tracer::done(std::uint64_t id)
{
  traces::Event e = event(traces::Type::Done);
  e.pe            = -1;
  e.id            = id;
  write(e);
}

void Tracer::ct(int ct, std::uint64_t success)
{
  traces::Event e = event(traces::Type::Ct);
  e.ct            = ct;
  e.success       = success;
  write(e);
}

void Tracer::ctx(int ctx, int ct, CtxEvent what)
{
  traces::Event e = event(traces::Type::Ctx);
  e.thr           = thread();
  e.ctx           = ctx;
  e.ct            = ct;
  e.what          = to_string(what);
  write(e);
}

void Tracer::wait_begin(int ctx, int ct, const char* what, std::uint64_t target)
{
  traces::Event e = event(traces::Type::Wait);
  e.thr           = thread();
  e.ctx           = ctx;
  e.ct            = ct;
  e.what          = what;
  e.target        = target;
  write(e);
}

void Tracer::compute(std::int64_t begin)
{
  traces::Event e = event(traces::Type::Comp);
  e.thr           = thread();
  std::lock_guard lock(mutex_);
  const std::int64_t end = advance_locked();
  if (begin >= end)
    return; // nothing measurable
  e.t   = begin; // the one kind of line dated before the file's previous one: the merge sorts
  e.dur = end - begin;
  traces::write_event(out_, e);
}

void Tracer::wait_end(std::uint64_t target)
{
  traces::Event e = event(traces::Type::Wend);
  e.thr           = thread();
  e.target        = target;
  write(e);
}

void Tracer::name_counter(const void* counter, int ct)
{
  std::lock_guard lock(mutex_);
  counters_[reinterpret_cast<std::uint64_t>(counter)] = ct;
}

int Tracer::counter_index(std::uint64_t cookie)
{
  std::lock_guard lock(mutex_);
  auto it = counters_.find(cookie);
  return it == counters_.end() ? -1 : it->second;
}

void Tracer::flush()
{
  std::lock_guard lock(mutex_);
  out_.flush();
  if (!out_)
    throw std::runtime_error("cannot write the trace file " + path_);
}

} // namespace shmemsim::emulator
