// Portals 4 event queues (Ni.hpp): PtlEQAlloc, PtlEQFree, PtlEQGet, PtlEQWait, PtlEQPoll, the full
// events the NI posts at the initiator (SEND, ACK, REPLY) and the target (PUT, GET, ATOMIC,
// FETCH_ATOMIC, LINK, AUTO_UNLINK), and flow control on portal table entries (PT_DISABLED).
//
// An EQ is circular, as the specification says: a full one overwrites its oldest event, and the
// next event taken returns PTL_EQ_DROPPED. The NIC writes each event into host memory by DMA
// (Nic::write_event): the host sees it when that write lands, after the data of its operation.
#include "sim/Simulation.hpp"
#include "sim/portals_model/Ni.hpp"
#include "sim/portals_model/NiEq.hpp"
#include "sim/portals_model/NiOp.hpp"

#include <algorithm>
#include <string>

namespace shmemsim::portals {

namespace {

/// Bytes of one event record as the NIC writes it: one 64-byte line. The Portals 4 reference
/// implementation's shared-memory NI packs its event (ptl_internal_event_t, src/shmem/include/
/// ptl_internal_EQ.h) into 55 bytes, i.e. one 64-byte cache line / PCIe write.
constexpr std::uint64_t kEventRecordBytes = 64;

/// What an actor blocked in eq_wait or eq_poll waits for, for deadlock and time-limit reports.
struct EqWaitWhat final : sim::Waitable {
  int ni = 0;
  std::vector<int> eqs;
  const char* purpose = nullptr;
  std::string describe_wait() const override
  {
    std::string s = "an event in event queue";
    s += eqs.size() > 1 ? "s " : " ";
    for (std::size_t i = 0; i < eqs.size(); ++i)
      s += (i > 0 ? ", " : "") + std::to_string(eqs[i]);
    s += " of endpoint " + std::to_string(ni);
    return purpose != nullptr ? std::string(purpose) + ": " + s : s;
  }
};

} // namespace

const char* to_string(EventKind k)
{
  static const char* const names[] = {
      "PTL_EVENT_GET",  "PTL_EVENT_PUT", "PTL_EVENT_ATOMIC",      "PTL_EVENT_FETCH_ATOMIC", "PTL_EVENT_REPLY",
      "PTL_EVENT_SEND", "PTL_EVENT_ACK", "PTL_EVENT_PT_DISABLED", "PTL_EVENT_LINK",         "PTL_EVENT_AUTO_UNLINK"};
  return names[static_cast<int>(k)];
}

const char* to_string(NiFail f)
{
  static const char* const names[] = {"PTL_NI_OK",           "PTL_NI_DROPPED", "PTL_NI_PERM_VIOLATION",
                                      "PTL_NI_OP_VIOLATION", "PTL_NI_SEGV",    "PTL_NI_PT_DISABLED",
                                      "PTL_NI_UNDELIVERABLE"};
  return names[static_cast<int>(f)];
}

Ni::Eq* Ni::eq_of(EqHandle h)
{
  if (h.index < 0 || h.index >= static_cast<int>(eqs_.size()) || !eqs_[static_cast<std::size_t>(h.index)]->used)
    return nullptr;
  return eqs_[static_cast<std::size_t>(h.index)];
}

// ---------------------------------------------------------------- allocation

Status Ni::eq_alloc(std::uint64_t count, EqHandle* out)
{
  if (count == 0)
    return fail(Status::ArgInvalid, "PtlEQAlloc: an event queue of 0 events");
  if (pool_.eqs >= limits_.max_eqs) {
    SHMEMSIM_OBSERVE(obs_, limit_hit(sim_.queue().now(), id_, "eq"));
    return fail(Status::NoSpace, "max_eqs (" + std::to_string(limits_.max_eqs) + ") event queues already allocated");
  }
  std::size_t i = 0;
  while (i < eqs_.size() && eqs_[i]->used)
    ++i;
  if (i == eqs_.size())
    eqs_.push_back(new Eq);
  *eqs_[i]       = Eq{};
  eqs_[i]->used  = true;
  eqs_[i]->count = count;
  ++pool_.eqs;
  usage_.eqs_peak = std::max(usage_.eqs_peak, ++usage_.eqs);
  usage_.eq_slots += count;
  usage_.eq_slots_peak = std::max(usage_.eq_slots_peak, usage_.eq_slots);
  out->index           = static_cast<int>(i);
  last_error_.clear();
  return Status::Ok;
}

Status Ni::eq_free(EqHandle h)
{
  Eq* q = eq_of(h);
  if (q == nullptr)
    return fail(Status::ArgInvalid, "PtlEQFree: not an allocated event queue");
  for (std::size_t m = 0; m < mds_.size(); ++m)
    if (mds_[m].used && mds_[m].desc.eq == h)
      return fail(Status::InUse, "PtlEQFree: memory descriptor " + std::to_string(m) + " still uses this event queue");
  for (std::size_t p = 0; p < pts_.size(); ++p)
    if (pts_[p].used && pts_[p].eq == h)
      return fail(Status::InUse, "PtlEQFree: portal table entry " + std::to_string(p) + " still uses this event queue");
  usage_.eq_slots -= q->count + q->reserved;
  q->used = false;
  --usage_.eqs;
  --pool_.eqs;
  // Whoever waits on it returns PTL_INTERRUPTED (they find it freed when they run).
  const std::vector<sim::Notifier*> wake = std::move(q->waiters);
  q->waiters.clear();
  q->events.clear();
  for (sim::Notifier* n : wake)
    n->notify();
  last_error_.clear();
  return Status::Ok;
}

// ---------------------------------------------------------------- posting

void Ni::post(EqHandle h, const Event& ev, Ps at_nic, bool reserved)
{
  Eq* q = eq_of(h);
  if (q == nullptr)
    return; // freed while an operation using it was in flight: the event has nowhere to go
  const std::uint64_t room = reserved ? q->count + q->reserved : q->count;
  while (!q->events.empty() && q->events.size() >= room) {
    q->events.pop_front(); // circular: the oldest is overwritten
    q->dropped = true;
    ++usage_.events_dropped;
  }
  const Ps visible = nic_.write_event(std::max<Ps>(at_nic, 0), kEventRecordBytes);
  q->events.push_back({ev, visible});
  ++usage_.events_posted;
  if (!q->waiters.empty())
    sim_.queue().schedule<&Ni::eq_visible>(visible, this, static_cast<std::uint64_t>(h.index));
}

void Ni::eq_visible(std::uint64_t index)
{
  Eq* q = eq_of(EqHandle{static_cast<int>(index)});
  if (q == nullptr)
    return;
  // The waiters take themselves off the list when they run; a wake that finds the event taken
  // by another makes its actor wait again.
  const std::vector<sim::Notifier*> wake = q->waiters;
  for (sim::Notifier* n : wake)
    n->notify();
}

void Ni::poll_timeout(std::uint64_t id)
{
  for (auto it = poll_timers_.begin(); it != poll_timers_.end(); ++it)
    if (it->first == id) {
      sim::Notifier* n = it->second;
      poll_timers_.erase(it);
      n->notify();
      return;
    }
}

// ---------------------------------------------------------------- taking events

Status Ni::take(Eq& q, Event* ev)
{
  if (q.events.empty() || q.events.front().visible > sim_.queue().now())
    return Status::EqEmpty;
  *ev = q.events.front().ev;
  q.events.pop_front();
  const bool dropped = q.dropped;
  q.dropped          = false;
  return dropped ? Status::EqDropped : Status::Ok;
}

Status Ni::eq_get(EqHandle h, Event* ev)
{
  Eq* q = eq_of(h);
  if (q == nullptr || ev == nullptr)
    return fail(Status::ArgInvalid, "PtlEQGet: not an allocated event queue");
  last_error_.clear();
  if (!q->waiters.empty())
    return Status::EqEmpty; // another actor waits in PtlEQWait / PtlEQPoll: the event is its
  return take(*q, ev);
}

Status Ni::eq_wait(EqHandle h, Event* ev, const char* purpose)
{
  if (eq_of(h) == nullptr || ev == nullptr)
    return fail(Status::ArgInvalid, "PtlEQWait: not an allocated event queue");
  for (;;) {
    if (Status s = take(*eq_of(h), ev); s != Status::EqEmpty) {
      last_error_.clear();
      return s;
    }
    if (!poll_block(&h, 1, TIME_FOREVER, purpose))
      return fail(Status::Interrupted, "PtlEQWait: the event queue was freed while waited on");
  }
}

Status Ni::eq_poll(const EqHandle* eqs, unsigned n, Ps timeout, Event* ev, int* which, const char* purpose)
{
  if (eqs == nullptr || n == 0 || ev == nullptr || which == nullptr)
    return fail(Status::ArgInvalid, "PtlEQPoll: no event queue given");
  if (timeout < 0 && timeout != TIME_FOREVER)
    return fail(Status::ArgInvalid, "PtlEQPoll: negative timeout");
  for (unsigned i = 0; i < n; ++i)
    if (eq_of(eqs[i]) == nullptr)
      return fail(Status::ArgInvalid, "PtlEQPoll: handle " + std::to_string(i) + " is not an allocated event queue");
  const Ps deadline = timeout == TIME_FOREVER ? TIME_FOREVER : sim_.queue().now() + timeout;
  for (;;) {
    for (unsigned i = 0; i < n; ++i) {
      const unsigned k = (poll_cursor_ + i) % n;
      if (Status s = take(*eq_of(eqs[k]), ev); s != Status::EqEmpty) {
        poll_cursor_ = k + 1; // round-robin, as the specification's implementation note asks
        *which       = static_cast<int>(k);
        last_error_.clear();
        return s;
      }
    }
    if (deadline != TIME_FOREVER && sim_.queue().now() >= deadline)
      return fail(Status::EqEmpty, "PtlEQPoll: no event before the timeout");
    if (!poll_block(eqs, n, deadline, purpose))
      return fail(Status::Interrupted, "PtlEQPoll: an event queue was freed while waited on");
  }
}

bool Ni::poll_block(const EqHandle* eqs, unsigned n, Ps deadline, const char* purpose)
{
  sim::Notifier& self = sim_.self_notifier();
  EqWaitWhat what;
  what.ni      = id_;
  what.purpose = purpose;
  for (unsigned i = 0; i < n; ++i) {
    Eq* q = eq_of(eqs[i]);
    q->waiters.push_back(&self);
    what.eqs.push_back(eqs[i].index);
    if (!q->events.empty()) // posted, not visible yet: wake when it is
      sim_.queue().schedule<&Ni::eq_visible>(q->events.front().visible, this, static_cast<std::uint64_t>(eqs[i].index));
  }
  std::uint64_t timer = 0;
  if (deadline != TIME_FOREVER) {
    timer = ++next_timer_;
    poll_timers_.emplace_back(timer, &self);
    sim_.queue().schedule<&Ni::poll_timeout>(deadline, this, timer);
  }
  self.wait(&what, n == 1 && deadline == TIME_FOREVER ? "PtlEQWait" : "PtlEQPoll");
  std::erase_if(poll_timers_, [&](const auto& t) { return t.first == timer; });
  bool alive = true;
  for (unsigned i = 0; i < n; ++i) {
    Eq* q = eq_of(eqs[i]);
    if (q == nullptr)
      alive = false;
    else
      std::erase(q->waiters, &self);
  }
  return alive;
}

// ---------------------------------------------------------------- flow control

bool Ni::flow_control_trips(const Pt& pt)
{
  // Resource exhaustion: no room in the entry's EQ (checked before matching, as the NIC cannot know
  // which entry's event options will apply), or no list entry to take the message.
  const Eq* q = eq_of(pt.eq);
  return pt.list.empty() || q == nullptr || q->events.size() >= q->count;
}

void Ni::disable_by_flow_control(std::uint32_t pt_index, const nic::Message& m)
{
  Pt& pt     = pts_[pt_index];
  pt.enabled = false;
  ++usage_.pt_disabled;
  Event ev;
  ev.type         = EventKind::PtDisabled;
  ev.initiator    = m.src_ep;
  ev.pt_index     = pt_index;
  ev.rlength      = m.length;
  ev.ni_fail_type = NiFail::PtDisabled;
  if (!pt.list.empty()) {
    const Le& le = les_[static_cast<std::size_t>(pt.list.front())];
    if ((le.desc.options & LE_EVENT_FLOWCTRL_DISABLE) != 0)
      return;
    ev.user_ptr = le.user_ptr;
  }
  post(pt.eq, ev, sim_.queue().now(), /*reserved=*/true);
}

Status Ni::pt_disable(std::uint32_t pt)
{
  if (pt >= pts_.size() || !pts_[pt].used)
    return fail(Status::ArgInvalid, "PtlPTDisable: not an allocated portal table entry");
  pts_[pt].enabled = false; // no PTL_EVENT_PT_DISABLED: the caller knows
  last_error_.clear();
  return Status::Ok;
}

Status Ni::pt_enable(std::uint32_t pt)
{
  if (pt >= pts_.size() || !pts_[pt].used)
    return fail(Status::ArgInvalid, "PtlPTEnable: not an allocated portal table entry");
  pts_[pt].enabled = true;
  last_error_.clear();
  return Status::Ok;
}

// ---------------------------------------------------------------- the events of operations

void Ni::initiator_event(EventKind kind, const Op& op, int md_index, bool ok)
{
  const MdDesc& d = mds_[static_cast<std::size_t>(md_index)].desc;
  if (!d.eq.valid() || (ok && (d.options & MD_EVENT_SUCCESS_DISABLE) != 0) ||
      (kind == EventKind::Send && (d.options & MD_EVENT_SEND_DISABLE) != 0))
    return;
  Event ev;
  ev.type             = kind;
  ev.user_ptr         = op.user_ptr;
  ev.hdr_data         = op.hdr_data;
  ev.rlength          = op.length;
  ev.mlength          = kind == EventKind::Send ? op.length : (ok ? op.mlength : 0);
  ev.remote_offset    = op.remote_offset;
  ev.initiator        = id_;
  ev.pt_index         = op.pt;
  ev.ni_fail_type     = ok ? NiFail::Ok : op.fail;
  ev.atomic_operation = op.op;
  ev.atomic_type      = op.dt;
  post(d.eq, ev, sim_.queue().now() - nic_.params().pcie_latency);
}

void Ni::target_events(const Op& op)
{
  if (op.pt >= pts_.size() || !pts_[op.pt].used || !pts_[op.pt].eq.valid())
    return;
  const EqHandle eq = pts_[op.pt].eq;
  // The NIC writes the event after the operation's data, which just landed: it had it one
  // crossing ago.
  const Ps at = sim_.queue().now() - nic_.params().pcie_latency;
  if ((op.le_options & (LE_EVENT_COMM_DISABLE | LE_EVENT_SUCCESS_DISABLE)) == 0) {
    Event ev;
    switch (op.kind) {
      case nic::OpKind::Put:
        ev.type = EventKind::Put;
        break;
      case nic::OpKind::Get:
        ev.type = EventKind::Get;
        break;
      case nic::OpKind::Atomic:
        ev.type = EventKind::Atomic;
        break;
      case nic::OpKind::FetchAtomic:
      case nic::OpKind::Swap:
        ev.type = EventKind::FetchAtomic;
        break;
    }
    ev.start            = op.target_base;
    ev.user_ptr         = op.le_user_ptr;
    ev.hdr_data         = op.hdr_data;
    ev.rlength          = op.length;
    ev.mlength          = op.mlength;
    ev.remote_offset    = op.remote_offset;
    ev.initiator        = op.src_ep;
    ev.pt_index         = op.pt;
    ev.atomic_operation = op.op;
    ev.atomic_type      = op.dt;
    post(eq, ev, at);
  }
  if (op.le_unlinked && (op.le_options & LE_EVENT_UNLINK_DISABLE) == 0) {
    Event ev;
    ev.type      = EventKind::AutoUnlink;
    ev.user_ptr  = op.le_user_ptr;
    ev.initiator = op.src_ep;
    ev.pt_index  = op.pt;
    post(eq, ev, at);
  }
}

} // namespace shmemsim::portals
