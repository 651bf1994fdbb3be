#include "sim/portals_model/Ni.hpp"

#include "sim/Simulation.hpp"
#include "sim/portals_model/Atomics.hpp"
#include "sim/portals_model/NiCt.hpp"
#include "sim/portals_model/NiEq.hpp"
#include "sim/portals_model/NiOp.hpp"

#include <algorithm>
#include <memory>
#include <cstring>

namespace shmemsim::portals {

namespace {
/// The index of the first slot of `slots` that `used` says is free: slots.size() if none is.
template <class Slots, class Used> std::size_t first_free(const Slots& slots, Used used)
{
  std::size_t i = 0;
  while (i < slots.size() && used(slots[i]))
    ++i;
  return i;
}
} // namespace

namespace {
/// What an actor blocked in ct_wait waits for, for deadlock and time-limit reports.
struct CtWait final : sim::Waitable {
  int ni, ct;
  std::uint64_t test;
  const CtEvent* ev;
  const char* purpose = nullptr;
  std::string describe_wait() const override
  {
    std::string s = "CT " + std::to_string(ct) + " of endpoint " + std::to_string(ni) + " reaching " +
                    std::to_string(test) + " (success " + std::to_string(ev->success) + ", failure " +
                    std::to_string(ev->failure) + ")";
    return purpose != nullptr ? std::string(purpose) + ": " + s : s;
  }
};
} // namespace

Ni::Ni(sim::Simulation& sim, nic::Nic& nic, int id, int endpoints, const Limits& limits, ResourcePool& pool)
    : sim_(sim), pool_(pool), nic_(nic), id_(id), endpoints_(endpoints), limits_(limits)
{
  default_queue_ = nic_.attach_endpoint();
  pts_.resize(static_cast<std::size_t>(limits_.max_pt_index) + 1);
}

Ni::~Ni()
{
  for (Ct* c : cts_)
    delete c;
  for (Eq* q : eqs_)
    delete q;
}

Status Ni::fail(Status s, std::string why)
{
  last_error_ = std::move(why);
  return s;
}

Ni::Ct* Ni::ct_of(CtHandle h)
{
  if (h.index < 0 || h.index >= static_cast<int>(cts_.size()) || !cts_[static_cast<std::size_t>(h.index)]->used)
    return nullptr;
  return cts_[static_cast<std::size_t>(h.index)];
}

const Ni::Ct* Ni::ct_of(CtHandle h) const
{
  return const_cast<Ni*>(this)->ct_of(h);
}

Ni::Md* Ni::md_of(MdHandle h)
{
  if (h.index < 0 || h.index >= static_cast<int>(mds_.size()) || !mds_[static_cast<std::size_t>(h.index)].used)
    return nullptr;
  return &mds_[static_cast<std::size_t>(h.index)];
}

// ---------------------------------------------------------------- counting events

Status Ni::ct_alloc(CtHandle* out)
{
  if (pool_.cts >= limits_.max_cts) {
    SHMEMSIM_OBSERVE(obs_, limit_hit(sim_.queue().now(), id_, "ct"));
    return fail(Status::NoSpace, "max_cts (" + std::to_string(limits_.max_cts) + ") counting events already allocated");
  }
  const std::size_t i = first_free(cts_, [](const auto& c) { return c->used; });
  if (i == cts_.size())
    cts_.push_back(new Ct);
  *cts_[i]      = Ct{};
  cts_[i]->used = true;
  ++pool_.cts;
  usage_.cts_peak = std::max(usage_.cts_peak, ++usage_.cts);
  out->index      = static_cast<int>(i);
  last_error_.clear();
  return Status::Ok;
}

Status Ni::ct_free(CtHandle h)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return fail(Status::ArgInvalid, "not an allocated counting event");
  if (!c->waiters.empty())
    return fail(Status::InUse, "an actor is waiting on this counting event");
  if (!c->triggered.empty())
    return fail(Status::InUse, std::to_string(c->triggered.size()) +
                                   " triggered operations wait on this counting event (PtlCTCancelTriggered first)");
  c->used = false;
  --usage_.cts;
  --pool_.cts;
  return Status::Ok;
}

Status Ni::ct_get(CtHandle h, CtEvent* ev) const
{
  const Ct* c = ct_of(h);
  if (c == nullptr)
    return Status::ArgInvalid;
  *ev = c->ev;
  return Status::Ok;
}

Status Ni::ct_wait(CtHandle h, std::uint64_t test, CtEvent* ev, const char* purpose)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return fail(Status::ArgInvalid, "not an allocated counting event");
  while (c->ev.success + c->ev.failure < test) {
    sim::Notifier& self = sim_.self_notifier();
    c->waiters.push_back({test, &self});
    CtWait what;
    what.ni      = id_;
    what.ct      = h.index;
    what.test    = test;
    what.ev      = &c->ev;
    what.purpose = purpose;
    self.wait(&what, "PtlCTWait");
    c = ct_of(h);
    if (c == nullptr)
      return fail(Status::ArgInvalid, "counting event freed while waited on");
    std::erase_if(c->waiters, [&](const Ct::Waiter& w) { return w.who == &self; });
  }
  *ev = c->ev;
  return Status::Ok;
}

Status Ni::ct_watch(CtHandle h, std::uint64_t test, sim::Notifier* who, bool* reached)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return fail(Status::ArgInvalid, "not an allocated counting event");
  *reached = c->ev.success + c->ev.failure >= test;
  if (!*reached)
    c->waiters.push_back({test, who});
  return Status::Ok;
}

void Ni::ct_unwatch(CtHandle h, const sim::Notifier* who)
{
  if (Ct* c = ct_of(h))
    std::erase_if(c->waiters, [&](const Ct::Waiter& w) { return w.who == who; });
}

static void wake_reached(std::vector<Ni::Ct::Waiter>& waiters, const CtEvent& ev)
{
  // Take the satisfied waiters out first: a wake issued from an actor lets other actors run,
  // which may add waiters to this very list.
  const std::uint64_t value = ev.success + ev.failure;
  std::vector<sim::Notifier*> wake;
  std::erase_if(waiters, [&](const Ni::Ct::Waiter& w) {
    if (value < w.threshold)
      return false;
    wake.push_back(w.who);
    return true;
  });
  for (sim::Notifier* n : wake)
    n->notify();
}

Status Ni::ct_set(CtHandle h, CtEvent value)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return fail(Status::ArgInvalid, "not an allocated counting event");
  c->ev = value;
  SHMEMSIM_OBSERVE(obs_, ct_changed(sim_.queue().now(), id_, h.index, c->ev.success, c->ev.failure));
  wake_reached(c->waiters, c->ev);
  release_triggered(h);
  return Status::Ok;
}

Status Ni::ct_inc(CtHandle h, CtEvent inc)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return fail(Status::ArgInvalid, "not an allocated counting event");
  c->ev.success += inc.success;
  c->ev.failure += inc.failure;
  SHMEMSIM_OBSERVE(obs_, ct_changed(sim_.queue().now(), id_, h.index, c->ev.success, c->ev.failure));
  wake_reached(c->waiters, c->ev);
  release_triggered(h);
  return Status::Ok;
}

void Ni::count(CtHandle h, bool ok, std::uint64_t bytes, bool count_bytes)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return; // freed meanwhile: the event has nowhere to go
  if (ok)
    c->ev.success += count_bytes ? bytes : 1;
  else
    c->ev.failure += 1;
  SHMEMSIM_OBSERVE(obs_, ct_changed(sim_.queue().now(), id_, h.index, c->ev.success, c->ev.failure));
  if (!c->waiters.empty())
    wake_reached(c->waiters, c->ev);
  if (!c->triggered.empty())
    release_triggered(h);
}

// ---------------------------------------------------------------- memory descriptors

Status Ni::md_bind(const MdDesc& d, MdHandle* out)
{
  // A null start with any length is allowed: an MD over the whole address space, offsets being
  // addresses (as OpenSHMEM libraries bind theirs).
  if (d.ct.valid() && ct_of(d.ct) == nullptr)
    return fail(Status::ArgInvalid, "MD names a counting event that is not allocated");
  if (d.eq.valid() && eq_of(d.eq) == nullptr)
    return fail(Status::ArgInvalid, "MD names an event queue that is not allocated");
  if (pool_.mds >= limits_.max_mds) {
    SHMEMSIM_OBSERVE(obs_, limit_hit(sim_.queue().now(), id_, "md"));
    return fail(Status::NoSpace, "max_mds (" + std::to_string(limits_.max_mds) + ") memory descriptors already bound");
  }
  const std::size_t i = first_free(mds_, [](const Md& m) { return m.used; });
  if (i == mds_.size())
    mds_.emplace_back();
  Md& md   = mds_[i];
  md       = Md{};
  md.used  = true;
  md.desc  = d;
  md.queue = default_queue_;
  if ((d.options & MD_INDEPENDENT) != 0) {
    const int q = nic_.claim_queue();
    if (q >= 0) {
      md.queue     = q;
      md.own_queue = true;
    }
  }
  ++pool_.mds;
  usage_.mds_peak = std::max(usage_.mds_peak, ++usage_.mds);
  out->index      = static_cast<int>(i);
  last_error_.clear();
  return Status::Ok;
}

Status Ni::md_release(MdHandle h)
{
  Md* md = md_of(h);
  if (md == nullptr)
    return fail(Status::ArgInvalid, "not a bound memory descriptor");
  if (md->pending > 0)
    return fail(Status::InUse, "operations on this MD are still in flight");
  if (md->own_queue)
    nic_.release_queue(md->queue);
  md->used = false;
  --usage_.mds;
  --pool_.mds;
  return Status::Ok;
}

// ---------------------------------------------------------------- portal table and list entries

Status Ni::pt_alloc(std::uint32_t requested, std::uint32_t* actual)
{
  return pt_alloc(0, EQ_NONE, requested, actual);
}

Status Ni::pt_alloc(std::uint32_t options, EqHandle eq, std::uint32_t requested, std::uint32_t* actual)
{
  if ((options & ~(PT_ONLY_USE_ONCE | PT_FLOWCTRL)) != 0)
    return fail(Status::ArgInvalid, "PtlPTAlloc: unknown options");
  if (eq.valid() && eq_of(eq) == nullptr)
    return fail(Status::ArgInvalid, "PtlPTAlloc: not an allocated event queue");
  if ((options & PT_FLOWCTRL) != 0 && !eq.valid())
    return fail(Status::PtEqNeeded, "PtlPTAlloc: PTL_PT_FLOWCTRL without an event queue");
  std::uint32_t i = requested;
  if (requested == PT_ANY) {
    i = static_cast<std::uint32_t>(first_free(pts_, [](const auto& pt) { return pt.used; }));
    if (i == pts_.size())
      return fail(Status::PtFull, "every portal table entry is allocated");
  } else if (requested >= pts_.size()) {
    return fail(Status::ArgInvalid, "portal index above max_pt_index (" + std::to_string(limits_.max_pt_index) + ")");
  } else if (pts_[requested].used) {
    return fail(Status::PtInUse, "portal table entry " + std::to_string(requested) + " is already allocated");
  }
  pts_[i] = Pt{true, true, options, eq, {}};
  if ((options & PT_FLOWCTRL) != 0) { // a slot for its PTL_EVENT_PT_DISABLED
    ++eq_of(eq)->reserved;
    usage_.eq_slots_peak = std::max(usage_.eq_slots_peak, ++usage_.eq_slots);
  }
  *actual = i;
  last_error_.clear();
  return Status::Ok;
}

Status Ni::pt_free(std::uint32_t pt)
{
  if (pt >= pts_.size() || !pts_[pt].used)
    return fail(Status::ArgInvalid, "PtlPTFree: portal table entry " + std::to_string(pt) + " is not allocated");
  if (!pts_[pt].list.empty())
    return fail(Status::PtInUse, "PtlPTFree: portal table entry " + std::to_string(pt) + " still has " +
                                   std::to_string(pts_[pt].list.size()) + " list entries");
  if ((pts_[pt].options & PT_FLOWCTRL) != 0)
    if (Eq* q = eq_of(pts_[pt].eq)) {
      --q->reserved;
      --usage_.eq_slots;
    }
  pts_[pt] = Pt{};
  last_error_.clear();
  return Status::Ok;
}

Status Ni::le_append(std::uint32_t pt, const LeDesc& d, LeHandle* out, std::uint64_t user_ptr)
{
  if (pt >= pts_.size() || !pts_[pt].used)
    return fail(Status::ArgInvalid, "not an allocated portal table entry");
  if (d.start == nullptr && d.length > 0)
    return fail(Status::ArgInvalid, "LE start is null");
  if (d.ct.valid() && ct_of(d.ct) == nullptr)
    return fail(Status::ArgInvalid, "LE names a counting event that is not allocated");
  if (pool_.les >= limits_.max_entries) {
    SHMEMSIM_OBSERVE(obs_, limit_hit(sim_.queue().now(), id_, "le"));
    return fail(Status::NoSpace,
                "max_entries (" + std::to_string(limits_.max_entries) + ") list entries already appended");
  }
  const std::size_t i = first_free(les_, [](const Le& e) { return e.used; });
  if (i == les_.size())
    les_.emplace_back();
  les_[i] = Le{true, d, pt, user_ptr};
  pts_[pt].list.push_back(static_cast<int>(i));
  ++pool_.les;
  usage_.les_peak = std::max(usage_.les_peak, ++usage_.les);
  out->index      = static_cast<int>(i);
  if (pts_[pt].eq.valid() && (d.options & LE_EVENT_LINK_DISABLE) == 0) {
    Event ev;
    ev.type     = EventKind::Link;
    ev.user_ptr = user_ptr;
    ev.pt_index = pt;
    ev.start    = d.start;
    // The append travels to the NIC as a command; the NIC then writes the event.
    post(pts_[pt].eq, ev, sim_.queue().now() + nic_.params().pcie_latency);
  }
  last_error_.clear();
  return Status::Ok;
}

Status Ni::le_unlink(LeHandle h)
{
  if (h.index < 0 || h.index >= static_cast<int>(les_.size()) || !les_[static_cast<std::size_t>(h.index)].used)
    return fail(Status::ArgInvalid, "not an appended list entry");
  Le& le = les_[static_cast<std::size_t>(h.index)];
  std::erase(pts_[le.pt].list, h.index);
  le.used = false;
  --usage_.les;
  --pool_.les;
  return Status::Ok;
}

// ---------------------------------------------------------------- data movement

Status Ni::check_common(Md* md, std::uint64_t local_offset, std::uint64_t length, int target, const char* what)
{
  if (md == nullptr)
    return fail(Status::ArgInvalid, std::string(what) + ": not a bound memory descriptor");
  if (local_offset > md->desc.length || length > md->desc.length - local_offset)
    return fail(Status::ArgInvalid, std::string(what) + ": local_offset + length exceeds the MD");
  if (length > limits_.max_msg_size)
    return fail(Status::ArgInvalid, std::string(what) + ": length exceeds max_msg_size");
  if (target < 0 || target >= endpoints_)
    return fail(Status::ArgInvalid, std::string(what) + ": target " + std::to_string(target) +
                                        " is not an endpoint (0.." + std::to_string(endpoints_ - 1) + ")");
  return Status::Ok;
}

namespace {
/// Operations are recycled: a run allocates only as many as are ever in flight at once. Every
/// operation ever made is owned here (freed at exit, in flight or not); the pool lists the free ones.
std::vector<nic::Message*>& op_pool()
{
  static std::vector<nic::Message*> pool;
  return pool;
}
} // namespace

Ni::Op* Ni::new_op(nic::OpKind kind, Md& md, int md_index, std::uint64_t local_offset, std::uint64_t length, int target,
                   std::uint32_t pt, std::uint64_t remote_offset, std::uint64_t user_ptr)
{
  Op* op;
  static std::vector<std::unique_ptr<Op>> all; // every operation ever made (see op_pool)
  if (op_pool().empty()) {
    op = all.emplace_back(std::make_unique<Op>()).get();
  } else {
    op = static_cast<Op*>(op_pool().back());
    op_pool().pop_back();
    *op = Op{};
  }
  op->kind          = kind;
  op->initiator     = this;
  op->src_ep        = id_;
  op->dst_ep        = target;
  op->length        = length;
  op->pt            = pt;
  op->remote_offset = remote_offset;
  op->queue         = md.queue;
  op->user_ptr      = user_ptr;
  op->ordered =
      limits_.total_data_ordering && (md.desc.options & MD_UNORDERED) == 0 && length <= limits_.max_waw_ordered_size;
  if (kind == nic::OpKind::Get)
    op->get_md = md_index;
  else
    op->md = md_index;
  ++md.pending;
  last_error_.clear();
  return op;
}

/// The address at `offset` of an MD (a null start means the whole address space).
static std::byte* address(const MdDesc& md, std::uint64_t offset)
{
  return reinterpret_cast<std::byte*>(reinterpret_cast<std::uintptr_t>(md.start) + offset);
}

/// Take the request payload: copied now if the MD is volatile and the message small enough
/// (the buffer is reusable at once), else read by the NIC's DMA as it injects the packets.
static bool capture_payload(nic::Message& m, const MdDesc& md, const std::byte* src, std::uint64_t length,
                            const Limits& limits, bool atomic_operand = false)
{
  m.source = src;
  // Small atomic operands are part of the command (up to 32 bytes), like volatile puts.
  if (((md.options & MD_VOLATILE) != 0 && length <= limits.max_volatile_size) || (atomic_operand && length <= 32)) {
    m.alloc_request();
    std::memcpy(m.request_data(), src, length);
    m.inline_payload = true;
  }
  return m.inline_payload;
}

Status Ni::put(MdHandle h, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target, std::uint32_t pt,
               std::uint64_t remote_offset, std::uint64_t user_ptr, std::uint64_t hdr_data)
{
  Md* md = md_of(h);
  if (Status s = check_common(md, local_offset, length, target, "PtlPut"); s != Status::Ok)
    return s;
  Op* op            = new_op(nic::OpKind::Put, *md, h.index, local_offset, length, target, pt, remote_offset, user_ptr);
  op->ack_requested = ack != AckReq::NoAck;
  op->ack           = ack;
  op->hdr_data      = hdr_data;
  if (capture_payload(*op, md->desc, address(md->desc, local_offset), length, limits_))
    ++usage_.volatile_puts;
  else
    ++usage_.dma_puts;
  nic_.submit(op);
  return Status::Ok;
}

Status Ni::get(MdHandle h, std::uint64_t local_offset, std::uint64_t length, int target, std::uint32_t pt,
               std::uint64_t remote_offset, std::uint64_t user_ptr)
{
  Md* md = md_of(h);
  if (Status s = check_common(md, local_offset, length, target, "PtlGet"); s != Status::Ok)
    return s;
  Op* op         = new_op(nic::OpKind::Get, *md, h.index, local_offset, length, target, pt, remote_offset, user_ptr);
  op->reply_dest = address(md->desc, local_offset);
  nic_.submit(op);
  return Status::Ok;
}

Status Ni::atomic(MdHandle h, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target,
                  std::uint32_t pt, std::uint64_t remote_offset, AtomicOp aop, Datatype dt, std::uint64_t user_ptr,
                  std::uint64_t hdr_data)
{
  Md* md = md_of(h);
  if (Status s = check_common(md, local_offset, length, target, "PtlAtomic"); s != Status::Ok)
    return s;
  if (const char* why = check_atomic(AtomicCall::Atomic, aop, dt, length, limits_); *why != '\0')
    return fail(Status::ArgInvalid, std::string("PtlAtomic ") + to_string(aop) + " on " + to_string(dt) + ": " + why);
  Op* op = new_op(nic::OpKind::Atomic, *md, h.index, local_offset, length, target, pt, remote_offset, user_ptr);
  op->ack_requested = ack != AckReq::NoAck;
  op->ack           = ack;
  op->hdr_data      = hdr_data;
  op->op            = aop;
  op->dt            = dt;
  capture_payload(*op, md->desc, address(md->desc, local_offset), length, limits_, true);
  nic_.submit(op);
  return Status::Ok;
}

Status Ni::fetch_atomic(MdHandle get_h, std::uint64_t get_offset, MdHandle put_h, std::uint64_t put_offset,
                        std::uint64_t length, int target, std::uint32_t pt, std::uint64_t remote_offset, AtomicOp aop,
                        Datatype dt, std::uint64_t user_ptr)
{
  Md* gmd = md_of(get_h);
  Md* pmd = md_of(put_h);
  if (Status s = check_common(gmd, get_offset, length, target, "PtlFetchAtomic (get_md)"); s != Status::Ok)
    return s;
  if (Status s = check_common(pmd, put_offset, length, target, "PtlFetchAtomic (put_md)"); s != Status::Ok)
    return s;
  if (const char* why = check_atomic(AtomicCall::FetchAtomic, aop, dt, length, limits_); *why != '\0')
    return fail(Status::ArgInvalid,
                std::string("PtlFetchAtomic ") + to_string(aop) + " on " + to_string(dt) + ": " + why);
  Op* op = new_op(nic::OpKind::FetchAtomic, *pmd, put_h.index, put_offset, length, target, pt, remote_offset, user_ptr);
  op->get_md = get_h.index;
  ++gmd->pending;
  op->reply_dest = address(gmd->desc, get_offset);
  op->op         = aop;
  op->dt         = dt;
  capture_payload(*op, pmd->desc, address(pmd->desc, put_offset), length, limits_, true);
  nic_.submit(op);
  return Status::Ok;
}

Status Ni::swap(MdHandle get_h, std::uint64_t get_offset, MdHandle put_h, std::uint64_t put_offset,
                std::uint64_t length, int target, std::uint32_t pt, std::uint64_t remote_offset, const void* operand,
                AtomicOp aop, Datatype dt, std::uint64_t user_ptr)
{
  Md* gmd = md_of(get_h);
  Md* pmd = md_of(put_h);
  if (Status s = check_common(gmd, get_offset, length, target, "PtlSwap (get_md)"); s != Status::Ok)
    return s;
  if (Status s = check_common(pmd, put_offset, length, target, "PtlSwap (put_md)"); s != Status::Ok)
    return s;
  if (const char* why = check_atomic(AtomicCall::Swap, aop, dt, length, limits_); *why != '\0')
    return fail(Status::ArgInvalid, std::string("PtlSwap ") + to_string(aop) + " on " + to_string(dt) + ": " + why);
  if (aop != AtomicOp::Swap && operand == nullptr)
    return fail(Status::ArgInvalid, std::string("PtlSwap ") + to_string(aop) + " needs an operand");
  Op* op     = new_op(nic::OpKind::Swap, *pmd, put_h.index, put_offset, length, target, pt, remote_offset, user_ptr);
  op->get_md = get_h.index;
  ++gmd->pending;
  op->reply_dest = address(gmd->desc, get_offset);
  op->op         = aop;
  op->dt         = dt;
  if (aop != AtomicOp::Swap) {
    op->has_compare = true;
    std::memcpy(op->compare, operand, datatype_size(dt));
  }
  capture_payload(*op, pmd->desc, address(pmd->desc, put_offset), length, limits_, true);
  nic_.submit(op);
  return Status::Ok;
}

// ---------------------------------------------------------------- NIC callbacks: target side

void Ni::target_resolve(nic::Message& m)
{
  Op& op         = static_cast<Op&>(m);
  op.target_ok   = false;
  op.mlength     = 0;
  op.target_base = nullptr;
  op.fail        = NiFail::Dropped;
  if (op.pt >= pts_.size() || !pts_[op.pt].used)
    return; // PTL_NI_DROPPED: nothing to deliver into
  if (!pts_[op.pt].enabled || ((pts_[op.pt].options & PT_FLOWCTRL) != 0 && flow_control_trips(pts_[op.pt]))) {
    if (pts_[op.pt].enabled)
      disable_by_flow_control(op.pt, op);
    op.fail = NiFail::PtDisabled;
    ++usage_.pt_disabled_drops;
    return;
  }
  if (pts_[op.pt].list.empty())
    return; // PTL_NI_DROPPED
  const int le_index = pts_[op.pt].list.front();
  Le& le             = les_[static_cast<std::size_t>(le_index)];
  std::uint32_t need = 0;
  switch (op.kind) {
    case nic::OpKind::Put:
    case nic::OpKind::Atomic:
      need = LE_OP_PUT;
      break;
    case nic::OpKind::Get:
      need = LE_OP_GET;
      break;
    case nic::OpKind::FetchAtomic:
    case nic::OpKind::Swap:
      need = LE_OP_PUT | LE_OP_GET;
      break;
  }
  if ((le.desc.options & need) != need) {
    op.fail = NiFail::OpViolation;
    return;
  }
  const std::uint64_t avail = le.desc.length > op.remote_offset ? le.desc.length - op.remote_offset : 0;
  std::uint64_t mlength     = op.length;
  if (op.length > avail) {
    const bool atomic_kind = op.kind != nic::OpKind::Put && op.kind != nic::OpKind::Get;
    if (atomic_kind || (le.desc.options & LE_NO_TRUNCATE) != 0)
      return;        // does not fit
    mlength = avail; // truncated
  }
  op.target_ok   = true;
  op.fail        = NiFail::Ok;
  op.mlength     = mlength;
  op.target_base = static_cast<std::byte*>(le.desc.start) + op.remote_offset;
  op.le_ct       = le.desc.ct;
  op.le_options  = le.desc.options;
  op.le_user_ptr = le.user_ptr;
  op.le_unlinked = (le.desc.options & LE_USE_ONCE) != 0;
  if (op.le_unlinked)
    le_unlink(LeHandle{le_index});
}

void Ni::target_atomic(nic::Message& m, std::byte* fetched)
{
  Op& op = static_cast<Op&>(m);
  if (watched_.empty()) {
    apply_atomic(op.op, op.dt, op.target_base, op.request_data(), op.has_compare ? op.compare : nullptr, fetched,
                 op.length);
    return;
  }
  // The watched words the atomic touches, with what they held before it.
  struct Before {
    const std::uint64_t* word;
    std::uint64_t value;
  };
  std::vector<Before> before;
  for_watched(op.target_base, op.length, [&](const std::uint64_t* w) { before.push_back({w, *w}); });
  apply_atomic(op.op, op.dt, op.target_base, op.request_data(), op.has_compare ? op.compare : nullptr, fetched,
               op.length);
  for (const Before& b : before)
    watcher_->watched_write(sim_.queue().now(), id_, op.src_ep, b.word, &b.value);
}

template <class F> void Ni::for_watched(const std::byte* start, std::uint64_t length, F f) const
{
  const auto base = reinterpret_cast<std::uintptr_t>(start);
  for (auto it = watched_.lower_bound(base >= 7 ? base - 7 : 0); it != watched_.end() && *it < base + length; ++it)
    f(reinterpret_cast<const std::uint64_t*>(*it));
}

void Ni::target_complete(nic::Message& m)
{
  Op& op = static_cast<Op&>(m);
  // A put's data has landed (atomics were told by target_atomic), before the count wakes anyone.
  if (!watched_.empty() && op.target_ok && op.kind == nic::OpKind::Put && op.mlength != 0)
    for_watched(op.target_base, op.mlength, [&](const std::uint64_t* w) {
      watcher_->watched_write(sim_.queue().now(), id_, op.src_ep, w, nullptr);
    });
  if (op.target_ok && (op.le_options & LE_EVENT_CT_COMM) != 0)
    count(op.le_ct, true, op.mlength, (op.le_options & LE_EVENT_CT_BYTES) != 0);
  if (op.target_ok)
    target_events(op);
}

void Ni::watch_word(const std::uint64_t* word, WriteWatcher* watcher)
{
  SHMEMSIM_ASSERT(reinterpret_cast<std::uintptr_t>(word) % 8 == 0, "a watched word is not 8-byte aligned");
  SHMEMSIM_ASSERT(watcher_ == nullptr || watcher_ == watcher, "an NI's watched words have one watcher");
  watcher_ = watcher;
  watched_.insert(reinterpret_cast<std::uintptr_t>(word));
}

// ---------------------------------------------------------------- NIC callbacks: initiator side

void Ni::initiator_sent(nic::Message& m)
{
  Op& op = static_cast<Op&>(m);
  if (op.kind == nic::OpKind::Get || op.md < 0)
    return;
  const MdDesc& d = mds_[static_cast<std::size_t>(op.md)].desc;
  if ((d.options & MD_EVENT_CT_SEND) != 0)
    count(d.ct, true, op.length, (d.options & MD_EVENT_CT_BYTES) != 0);
  initiator_event(EventKind::Send, op, op.md, true);
}

void Ni::initiator_acked(nic::Message& m)
{
  Op& op          = static_cast<Op&>(m);
  const MdDesc& d = mds_[static_cast<std::size_t>(op.md)].desc;
  if ((d.options & MD_EVENT_CT_ACK) != 0)
    count(d.ct, op.target_ok, op.mlength, (d.options & MD_EVENT_CT_BYTES) != 0);
  if (op.ack == AckReq::Ack) // only PTL_ACK_REQ asks for a full event
    initiator_event(EventKind::Ack, op, op.md, op.target_ok);
  if (completion_ && nic_.has_progress_thread())
    completion_(op.md);
}

void Ni::initiator_replied(nic::Message& m)
{
  Op& op          = static_cast<Op&>(m);
  const MdDesc& d = mds_[static_cast<std::size_t>(op.get_md)].desc;
  if ((d.options & MD_EVENT_CT_REPLY) != 0)
    count(d.ct, op.target_ok, op.mlength, (d.options & MD_EVENT_CT_BYTES) != 0);
  initiator_event(EventKind::Reply, op, op.get_md, op.target_ok);
  if (completion_ && nic_.has_progress_thread())
    completion_(op.get_md);
}

void Ni::release(nic::Message* m)
{
  Op* op = static_cast<Op*>(m);
  if (op->md >= 0)
    --mds_[static_cast<std::size_t>(op->md)].pending;
  if (op->get_md >= 0)
    --mds_[static_cast<std::size_t>(op->get_md)].pending;
  op->clear_payloads();
  op_pool().push_back(op);
}

} // namespace shmemsim::portals
