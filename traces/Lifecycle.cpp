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

void LifecycleWalk::visit(const Event& e)
{
  switch (e.type) {
    case Type::Pe:
    case Type::Link:
      break;
    case Type::Ctx:
      ctx(e);
      break;
    case Type::Op:
      lifecycle_.issue(e);
      issued(e);
      break;
    case Type::Msg:
      queued(e, lifecycle_.queue(e));
      break;
    case Type::Inj:
      if (const auto m = lifecycle_.inject(e))
        injected(e, *m);
      break;
    case Type::Hop:
      hop(e);
      break;
    case Type::Dlv:
      if (const auto d = lifecycle_.deliver(e))
        delivered(e, *d);
      break;
    case Type::Done:
      if (const auto c = lifecycle_.complete(e))
        completed(e, *c);
      break;
    case Type::Ct:
      counter(e);
      break;
    case Type::Wait:
      wait_begins(e);
      break;
    case Type::Wend:
      wait_ends(e);
      break;
    case Type::Comp:
      computed(e);
      break;
    case Type::Lock:
      locked(e);
      break;
    case Type::Limit:
      limit(e);
      break;
    case Type::Call:
    case Type::Ret:
      routine(e);
      break;
  }
}

void LifecycleWalk::wait_begins(const Event& e)
{
  auto [it, fresh] = open_waits_.try_emplace({e.pe, e.thr}, e);
  if (fresh) {
    wait_opened(e, nullptr);
    return;
  }
  const Event replaced = it->second;
  it->second           = e;
  wait_opened(e, &replaced);
}

void LifecycleWalk::wait_ends(const Event& e)
{
  auto it = open_waits_.find({e.pe, e.thr});
  if (it == open_waits_.end())
    return;
  const Event begin = it->second;
  open_waits_.erase(it);
  wait_closed(begin, e);
}

void LifecycleWalk::close_open_waits(std::int64_t end)
{
  for (const auto& [k, b] : open_waits_)
    wait_unfinished(b, end);
  open_waits_.clear();
}

} // namespace shmemsim::traces
