#include "traces/Lifecycle.hpp"

namespace shmemsim::traces {

void MessageLifecycle::issue(const Event& e)
{
  ops_[e.id] = OpState{Op{e.pe, e.thr, e.target_pe, e.t}};
  ++outstanding_[{e.pe, e.thr}];
}

std::optional<MessageLifecycle::Op> MessageLifecycle::op_of(std::uint64_t op) const
{
  auto it = ops_.find(op);
  if (it == ops_.end())
    return std::nullopt;
  return it->second.op;
}

std::optional<MessageLifecycle::Op> MessageLifecycle::queue(const Event& e)
{
  MsgState& m = msgs_[e.id];
  m           = MsgState{Msg{e.op, e.src, e.dst, endpoints_.node(e.src), e.what}};
  ++queued_[m.msg.node];
  auto o = ops_.find(e.op);
  if (o == ops_.end())
    return std::nullopt;
  ++o->second.pending;
  return o->second.op;
}

std::optional<MessageLifecycle::Msg> MessageLifecycle::inject(const Event& e)
{
  auto m = msgs_.find(e.id);
  if (m == msgs_.end() || m->second.msg.injected)
    return std::nullopt;
  m->second.msg.injected = true;
  --queued_[m->second.msg.node];
  ++in_flight_[m->second.msg.node];
  return m->second.msg;
}

std::optional<MessageLifecycle::Delivery> MessageLifecycle::deliver(const Event& e)
{
  auto m = msgs_.find(e.id);
  if (m == msgs_.end())
    return std::nullopt;
  const Msg& msg = m->second.msg;
  --(msg.injected ? in_flight_ : queued_)[msg.node]; // never injected: queued until delivered
  Delivery d{msg, op_of(msg.op)};
  m->second.delivered = true;
  retire(m);
  return d;
}

std::optional<MessageLifecycle::Completion> MessageLifecycle::complete(const Event& e)
{
  auto m = msgs_.find(e.id);
  if (m == msgs_.end())
    return std::nullopt;
  m->second.done = true;
  Completion c{m->second.msg, std::nullopt};
  if (auto o = ops_.find(m->second.msg.op); o != ops_.end()) {
    OpState& op = o->second;
    c.op        = op.op;
    if (--op.pending <= 0 && !op.counted_done) {
      op.counted_done = true;
      c.op_completed  = true;
      --outstanding_[{op.op.pe, op.op.thr}];
    }
  }
  retire(m);
  return c;
}

void MessageLifecycle::retire(std::map<std::uint64_t, MsgState>::iterator m)
{
  if (!m->second.delivered || !m->second.done)
    return;
  auto o = ops_.find(m->second.msg.op);
  msgs_.erase(m);
  if (o != ops_.end() && o->second.pending <= 0 && o->second.counted_done)
    ops_.erase(o);
}

} // namespace shmemsim::traces
