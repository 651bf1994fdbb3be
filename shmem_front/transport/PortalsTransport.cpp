#include "shmem_front/transport/PortalsTransport.hpp"

#include "shmem_front/transport/Address.hpp"
#include "shmem_front/lib/SignalJournal.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace shmemsim::front {

using portals::AckReq;
using portals::CtEvent;
using portals::Status;

/// A context's or request slot's counters on the Portals model: one CT and one MD (lean, request
/// slots) or a put and a get pair (split), and the operations issued on each.
struct PortalsTransport::Ctrs final : Counters {
  int pe = 0;
  int id = 0; ///< the number of the context (or slot) they were acquired for (traces)
  portals::CtHandle ct, get_ct;
  portals::MdHandle md, get_md;
  /// job.portals.event_queue: the MD of blocking puts above max_volatile_size, on the PE's event
  /// queue (their SEND event is their local completion) and counting their ACKs on `ct`.
  portals::MdHandle event_md;
  std::uint64_t issued = 0, get_issued = 0;
  bool fence_needs_quiet = false;
  bool single_ct         = false; ///< puts and gets counted on one CT whatever the mapping (request slots)
  bool request_slot      = false; ///< a request slot's (ops "put_req", ...)
};

/// One PE: its NI, its target counter, and the counters its ContextTable (the library's) acquired.
struct PortalsTransport::PeNet final : CounterSource {
  PortalsTransport* t = nullptr;
  portals::Ni* ni     = nullptr;
  portals::CtHandle target_ct;
  std::unique_ptr<Ctrs> def;
  std::vector<std::unique_ptr<Ctrs>> ctrs;
  /// Stores its own threads may have made to its symmetric memory (note_local_stores), counted
  /// with the target CT as updates.
  std::uint64_t local_stores = 0;
  /// Its threads blocked in wait_for_update.
  std::vector<sim::Notifier*> update_waiters;
  /// What the last remote write left in its watched synchronization words (collectives' signals).
  SignalJournal journal;
  /// job.portals.event_queue: the PE's event queue (its portal table entries' and its long puts'),
  /// the operations whose SEND event a thread has taken, whether a thread is taking events now,
  /// and the threads waiting for it to take theirs.
  portals::EqHandle eq;
  std::vector<std::uint64_t> sent; ///< tags (hdr_data) of puts whose SEND event was taken
  std::uint64_t event_tags = 0;    ///< the last tag given
  bool draining            = false;
  std::vector<sim::Notifier*> event_waiters;

  // CounterSource
  Counters* default_counters() override { return def.get(); }
  Counters* acquire(CounterUse use, int id, std::string* limit) override
  {
    Ctrs* c = use == CounterUse::Request ? t->make_request_slot(*this, limit)
                                         : t->make_ctx(*this, t->independent_mds_, limit);
    if (c != nullptr)
      c->id = id;
    return c;
  }
  void release(Counters* c) override { t->release(*this, static_cast<Ctrs*>(c)); }
  void ctx_event(int id, const Counters* c, CtxEvent what) override
  {
    if (t->obs_ != nullptr)
      t->obs_->ctx_event(t->now(), ni->id(), t->current_thread_(), id,
                         c != nullptr ? static_cast<const Ctrs*>(c)->ct.index : -1, what);
  }
  void notice(const std::string& line) override
  {
    if (t->notice_)
      t->notice_(line);
  }
};

PortalsTransport::Ctrs* PortalsTransport::ctrs(const TransportCtx* ctx)
{
  return static_cast<Ctrs*>(ctx->counters);
}

namespace {
const std::uint64_t kZero[4] = {0, 0, 0, 0};

portals::Datatype datatype(AmoType t)
{
  switch (t) {
    case AmoType::Int32:
      return portals::Datatype::Int32;
    case AmoType::Int64:
      return portals::Datatype::Int64;
    case AmoType::Uint32:
      return portals::Datatype::Uint32;
    case AmoType::Uint64:
      return portals::Datatype::Uint64;
    case AmoType::Float:
      return portals::Datatype::Float;
    case AmoType::Double:
      return portals::Datatype::Double;
  }
  return portals::Datatype::Uint64;
}

portals::AtomicOp atomic_op(AmoOp op)
{
  switch (op) {
    case AmoOp::Add:
      return portals::AtomicOp::Sum;
    case AmoOp::And:
      return portals::AtomicOp::Band;
    case AmoOp::Or:
      return portals::AtomicOp::Bor;
    case AmoOp::Xor:
      return portals::AtomicOp::Bxor;
    case AmoOp::Swap:
      return portals::AtomicOp::Swap;
    case AmoOp::CompareSwap:
      return portals::AtomicOp::Cswap;
    default:
      return portals::AtomicOp::Sum;
  }
}

} // namespace

PortalsTransport::PortalsTransport(portals::Network& net, std::vector<PeMemory> memory, CtxMapping mapping,
                                   std::function<int()> current_pe, std::function<void(const std::string&)> fatal)
    : net_(net), memory_(std::move(memory)), mapping_(mapping), current_pe_(std::move(current_pe)),
      fatal_(std::move(fatal))
{
}

PortalsTransport::~PortalsTransport() = default;

PortalsTransport::PeNet& PortalsTransport::me()
{
  return *pes_[static_cast<std::size_t>(current_pe_())];
}

void PortalsTransport::check(Status s, const char* what)
{
  if (s != Status::Ok)
    fatal_(std::string(what) + " failed in the network model: " + portals::to_string(s) + " (" + me().ni->last_error() +
           ")");
}

void PortalsTransport::set_observer(ShmemObserver* obs, std::function<int()> current_thread)
{
  obs_            = obs;
  current_thread_ = std::move(current_thread);
}

std::uint64_t PortalsTransport::note_op(const TransportCtx* ctx, const Ctrs* c, bool get_side, const char* kind,
                                        std::uint64_t bytes, int target)
{
  if (obs_ == nullptr)
    return 0;
  // The count the operation's completion brings its counter to: the lean mapping counts puts and
  // gets on one CT, the split one on two.
  const bool lean         = mapping_ == CtxMapping::Lean || c->single_ct;
  const std::uint64_t seq = lean ? c->issued + c->get_issued + 1 : (get_side ? c->get_issued : c->issued) + 1;
  const int ct            = get_side ? c->get_ct.index : c->ct.index;
  return obs_->op_issued(now(), c->pe, current_thread_(), ctx->id, ct, seq, kind, bytes, target);
}

PortalsTransport::Ctrs* PortalsTransport::make_ctx(PeNet& p, bool independent, std::string* limit)
{
  auto c   = std::make_unique<Ctrs>();
  c->pe    = p.ni->id();
  auto& ni = *p.ni;
  // Created contexts ask for injection resources of their own (the contexts paper's proposed
  // PTL_MD_INDEPENDENT): the NIC grants a queue while it has spare ones (platform.nic.injection_queues).
  const std::uint32_t vol = portals::MD_VOLATILE | (independent ? portals::MD_INDEPENDENT : 0u);
  auto undo               = [&] {
    if (c->md.index >= 0)
      ni.md_release(c->md);
    if (c->get_md.index >= 0)
      ni.md_release(c->get_md);
    if (c->event_md.index >= 0)
      ni.md_release(c->event_md);
    if (c->ct.valid())
      ni.ct_free(c->ct);
    if (c->get_ct.valid())
      ni.ct_free(c->get_ct);
    return nullptr;
  };
  // Which limit stopped it, for the notice line: a CT allocation or an MD bind failed.
  auto no_ct = [&] {
    if (limit != nullptr)
      *limit = "max_cts (" + std::to_string(ni.limits().max_cts) + ") reached";
    return undo();
  };
  auto no_md = [&] {
    if (limit != nullptr)
      *limit = "max_mds (" + std::to_string(ni.limits().max_mds) + ") reached";
    return undo();
  };
  if (ni.ct_alloc(&c->ct) != Status::Ok)
    return no_ct();
  if (mapping_ == CtxMapping::Lean) {
    portals::MdDesc md{nullptr, UINT64_MAX, portals::MD_EVENT_CT_ACK | portals::MD_EVENT_CT_REPLY | vol, c->ct};
    if (ni.md_bind(md, &c->md) != Status::Ok)
      return no_md();
    c->get_ct = c->ct;
    c->get_md = c->md;
  } else {
    if (ni.ct_alloc(&c->get_ct) != Status::Ok)
      return no_ct();
    if (ni.md_bind(portals::MdDesc{nullptr, UINT64_MAX, portals::MD_EVENT_CT_ACK | vol, c->ct}, &c->md) != Status::Ok)
      return no_md();
    if (ni.md_bind(portals::MdDesc{nullptr, UINT64_MAX, portals::MD_EVENT_CT_REPLY | (vol & portals::MD_INDEPENDENT),
                                   c->get_ct},
                   &c->get_md) != Status::Ok)
      return no_md();
  }
  if (p.eq.valid() && ni.md_bind(portals::MdDesc{nullptr, UINT64_MAX, portals::MD_EVENT_CT_ACK, c->ct, p.eq},
                                 &c->event_md) != Status::Ok)
    return no_md();
  Ctrs* raw = c.get();
  p.ctrs.push_back(std::move(c));
  return raw;
}

void PortalsTransport::setup()
{
  for (int pe = 0; pe < net_.endpoints(); ++pe) {
    auto p            = std::make_unique<PeNet>();
    p->t              = this;
    p->ni             = &net_.ni(pe);
    auto& ni          = *p->ni;
    const PeMemory& m = memory_.at(static_cast<std::size_t>(pe));
    std::uint32_t pt;
    portals::LeHandle le;
    // With an event queue, as Sandia OpenSHMEM's Portals 4 transport sets up (transport_portals4.c):
    // one EQ of 2048 events per PE (shmem_transport_portals4_event_slots) on both portal table
    // entries, whose list entries post no success or link events (only failures would reach it).
    std::uint32_t opts = portals::LE_OP_PUT | portals::LE_OP_GET | portals::LE_EVENT_CT_COMM;
    if (event_queue_) {
      opts |= portals::LE_EVENT_SUCCESS_DISABLE | portals::LE_EVENT_LINK_DISABLE;
      if (ni.eq_alloc(kEventSlots, &p->eq) != Status::Ok)
        throw std::runtime_error("PE " + std::to_string(pe) +
                                 " cannot allocate its event queue (job.portals.event_queue): " + ni.last_error() +
                                 " (raise platform.nic.limits.max_eqs)");
    }
    if (ni.ct_alloc(&p->target_ct) != Status::Ok || ni.pt_alloc(0, p->eq, 0, &pt) != Status::Ok ||
        ni.pt_alloc(0, p->eq, 1, &pt) != Status::Ok ||
        ni.le_append(0, portals::LeDesc{m.data, m.data_size, opts, p->target_ct}, &le) != Status::Ok ||
        ni.le_append(1, portals::LeDesc{m.heap, m.heap_size, opts, p->target_ct}, &le) != Status::Ok)
      throw std::runtime_error("PE " + std::to_string(pe) +
                               " cannot set up its symmetric memory in the Portals model: " + ni.last_error() +
                               " (raise platform.nic.limits)");
    Ctrs* d = make_ctx(*p, false);
    if (d == nullptr)
      throw std::runtime_error("PE " + std::to_string(pe) + " cannot bind its default context: " + ni.last_error() +
                               " (raise platform.nic.limits.max_cts / max_mds)");
    // The default context's counters live apart from the others.
    p->def = std::move(p->ctrs.back());
    p->ctrs.pop_back();
    pes_.push_back(std::move(p));
  }
}

CounterSource& PortalsTransport::counter_source()
{
  return me();
}

void PortalsTransport::release(PeNet& p, Ctrs* c)
{
  auto& ni = *p.ni;
  ni.md_release(c->md);
  if (c->event_md.index >= 0)
    ni.md_release(c->event_md);
  if (mapping_ == CtxMapping::Split && !c->single_ct) {
    ni.md_release(c->get_md);
    ni.ct_free(c->get_ct);
  }
  ni.ct_free(c->ct);
  std::erase_if(p.ctrs, [c](const std::unique_ptr<Ctrs>& x) { return x.get() == c; });
}

void PortalsTransport::target_of(const void* a, std::size_t n, std::uint32_t* pt, std::uint64_t* offset)
{
  const PeMemory& m = memory_[static_cast<std::size_t>(current_pe_())];
  const auto* p     = static_cast<const std::byte*>(a);
  if (p >= m.data && p + n <= m.data + m.data_size) {
    *pt     = 0;
    *offset = static_cast<std::uint64_t>(p - m.data);
    return;
  }
  if (p >= m.heap && p + n <= m.heap + m.heap_size) {
    *pt     = 1;
    *offset = static_cast<std::uint64_t>(p - m.heap);
    return;
  }
  fatal_("address " + std::to_string(addr(a)) + " is not symmetric");
}

void PortalsTransport::wait(Ctrs* c, bool gets_only, const char* what)
{
  // Wait until the counter reaches the number of operations issued on the context, re-read after
  // every wake: other threads may issue on a shared context meanwhile, and the counter cannot
  // tell whose operation completed. So a blocking operation completes everything pending on the
  // context (the contexts paper's lean mapping, and the interference it measures).
  auto& ni = *me().ni;
  CtEvent ev;
  const bool lean = mapping_ == CtxMapping::Lean || c->single_ct;
  const int thr   = obs_ != nullptr ? current_thread_() : 0;
  auto reach      = [&](portals::CtHandle ct, const std::uint64_t& issued, const char* purpose) {
    SHMEMSIM_OBSERVE(obs_, wait_begin(now(), c->pe, thr, c->id, ct.index, what, issued));
    do
      ni.ct_wait(ct, issued, &ev, purpose);
    while (ev.success + ev.failure < issued);
    SHMEMSIM_OBSERVE(obs_, wait_end(now(), c->pe, thr, issued));
  };
  if (lean) {
    const std::uint64_t first = c->issued + c->get_issued;
    SHMEMSIM_OBSERVE(obs_, wait_begin(now(), c->pe, thr, c->id, c->ct.index, what, first));
    do
      ni.ct_wait(c->ct, c->issued + c->get_issued, &ev, "the completion of its operations on a context");
    while (ev.success + ev.failure < c->issued + c->get_issued);
    SHMEMSIM_OBSERVE(obs_, wait_end(now(), c->pe, thr, c->issued + c->get_issued));
  } else {
    if (!gets_only)
      reach(c->ct, c->issued, "the completion of its puts on a context");
    if (ev.failure == 0)
      reach(c->get_ct, c->get_issued, "the completion of its gets on a context");
  }
  if (ev.failure > 0)
    fatal_(std::to_string(ev.failure) + " remote operations failed at their target");
}

void PortalsTransport::put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking)
{
  Ctrs* c  = ctrs(ctx);
  auto& ni = *me().ni;
  std::uint32_t pt;
  std::uint64_t off;
  target_of(dest, n, &pt, &off);
  const std::uint64_t op = note_op(ctx, c, false, blocking ? "put" : c->request_slot ? "put_req" : "put_nbi", n, pe);
  // The issued count goes up before the Portals call (the paper, section 4): a quiet by a
  // sibling thread meanwhile waits for this put too. Puts ask for an operation-completed ACK,
  // counted on the context's CT, as Portals-SHMEM did for every put.
  ++c->issued;
  const auto& lim = ni.limits();
  // job.portals.event_queue: a blocking put the NIC reads by DMA goes from the event MD and
  // completes locally at its SEND event, as in Sandia OpenSHMEM (its ACK still counts on the CT).
  const bool by_event        = blocking && n > lim.max_volatile_size && c->event_md.index >= 0;
  const portals::MdHandle md = by_event ? c->event_md : c->md;
  // Its tag goes as hdr_data (user_ptr ties the message to the operation in traces; Sandia
  // OpenSHMEM tags with user_ptr).
  const std::uint64_t tag = by_event ? ++me().event_tags : 0;
  initiate(*c, md, pe);
  check(ni.put(md, addr(src), n, AckReq::OcAck, pe, pt, off, op, tag), "PtlPut");
  if (!lim.total_data_ordering || n > lim.max_waw_ordered_size)
    c->fence_needs_quiet = true;
  // Small puts are buffered (volatile): complete locally at once. Larger ones wait for the ACK
  // counter to reach the issued count, completing everything pending on the context.
  if (by_event)
    wait_send_event(me(), tag);
  else if (blocking && n > lim.max_volatile_size)
    wait(c, false, "put");
}

void PortalsTransport::wait_send_event(PeNet& p, std::uint64_t tag)
{
  struct TakerWait final : sim::Waitable {
    std::string describe_wait() const override { return "another thread of its PE taking events from its event queue"; }
  };
  for (;;) {
    if (auto it = std::find(p.sent.begin(), p.sent.end(), tag); it != p.sent.end()) {
      p.sent.erase(it);
      return;
    }
    sim::Notifier& self = net_.simulation().self_notifier();
    if (p.draining) { // another thread takes the events: it wakes us after each
      p.event_waiters.push_back(&self);
      TakerWait what;
      self.wait(&what, "shmem_put");
      std::erase(p.event_waiters, &self);
      continue;
    }
    p.draining = true;
    portals::Event ev;
    const Status s = p.ni->eq_wait(p.eq, &ev, "a blocking put's local completion (its SEND event)");
    p.draining     = false;
    if (s != Status::Ok)
      fatal_(std::string("PtlEQWait on the PE's event queue returned ") + portals::to_string(s) +
             (s == Status::EqDropped ? " (events were lost)" : ""));
    if (ev.ni_fail_type != portals::NiFail::Ok)
      fatal_(std::string("a put failed: ") + portals::to_string(ev.ni_fail_type));
    p.sent.push_back(ev.hdr_data);
    const std::vector<sim::Notifier*> wake = p.event_waiters;
    for (sim::Notifier* n : wake)
      n->notify();
  }
}

void PortalsTransport::get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking)
{
  Ctrs* c  = ctrs(ctx);
  auto& ni = *me().ni;
  std::uint32_t pt;
  std::uint64_t off;
  target_of(src, n, &pt, &off);
  const std::uint64_t op = note_op(ctx, c, true, blocking ? "get" : c->request_slot ? "get_req" : "get_nbi", n, pe);
  ++c->get_issued;
  initiate(*c, c->get_md, pe);
  check(ni.get(c->get_md, addr(dest), n, pe, pt, off, op), "PtlGet");
  if (blocking)
    wait(c, true, "get");
}

void PortalsTransport::amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe)
{
  const std::size_t size = amo_size(t);
  if (op == AmoOp::Set) {
    // An aligned put of one element is atomic. On a request slot it must not wait: the caller
    // keeps `value` alive until the request completes (the MD is not volatile).
    put(ctx, dest, value, size, pe, !ctrs(ctx)->request_slot);
    return;
  }
  Ctrs* c  = ctrs(ctx);
  auto& ni = *me().ni;
  std::uint32_t pt;
  std::uint64_t off;
  target_of(dest, size, &pt, &off);
  const std::uint64_t id = note_op(ctx, c, false, c->request_slot ? "amo_req" : "amo", size, pe);
  ++c->issued;
  initiate(*c, c->md, pe);
  check(ni.atomic(c->md, addr(value), size, AckReq::OcAck, pe, pt, off, atomic_op(op), datatype(t), id), "PtlAtomic");
  c->fence_needs_quiet = true;
}

void PortalsTransport::signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe)
{
  std::uint32_t pt;
  std::uint64_t off;
  target_of(word, sizeof *word, &pt, &off);
  const PeMemory& m = memory_.at(static_cast<std::size_t>(pe));
  std::byte* at     = (pt == 0 ? m.data : m.heap) + off;
  pes_.at(static_cast<std::size_t>(pe))->ni->watch_word(reinterpret_cast<const std::uint64_t*>(at), this);
  amo(ctx, AmoOp::Add, AmoType::Uint64, word, &value, pe);
}

SignalJournal* PortalsTransport::signal_journal()
{
  return &me().journal;
}

void PortalsTransport::watched_write(Ps t, int target, int initiator, const std::uint64_t* word,
                                     const std::uint64_t* before)
{
  pes_.at(static_cast<std::size_t>(target))->journal.remote(word, ps_to_seconds(t), initiator, before, *word);
}

void PortalsTransport::fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value,
                                 const void* cond, void* result, int pe, bool blocking)
{
  const std::size_t size = amo_size(t);
  Ctrs* c                = ctrs(ctx);
  auto& ni               = *me().ni;
  std::uint32_t pt;
  std::uint64_t off;
  target_of(dest, size, &pt, &off);
  const bool floating    = t == AmoType::Float || t == AmoType::Double;
  const std::uint64_t id = note_op(ctx, c, true,
                                   blocking          ? "famo"
                                   : c->request_slot ? "famo_req"
                                                     : "famo_nbi",
                                   size, pe);
  ++c->get_issued;
  // A fetching atomic names two MDs (the result's and the operand's); a fetch reads into one.
  initiate(*c, c->get_md, pe, op == AmoOp::Fetch && floating ? portals::MdHandle{} : c->md);
  Status s;
  if (op == AmoOp::Fetch && floating) {
    s = ni.get(c->get_md, addr(result), size, pe, pt, off, id); // an aligned element read is atomic
  } else if (op == AmoOp::Fetch) {
    s = ni.fetch_atomic(c->get_md, addr(result), c->md, addr(kZero), size, pe, pt, off, portals::AtomicOp::Bor,
                        datatype(t), id);
  } else if (op == AmoOp::Swap || op == AmoOp::CompareSwap) {
    s = ni.swap(c->get_md, addr(result), c->md, addr(value), size, pe, pt, off, cond, atomic_op(op), datatype(t), id);
  } else {
    s = ni.fetch_atomic(c->get_md, addr(result), c->md, addr(value), size, pe, pt, off, atomic_op(op), datatype(t), id);
  }
  check(s, "a fetching atomic");
  c->fence_needs_quiet = true;
  if (blocking)
    wait(c, true, "amo");
}

void PortalsTransport::set_cache_lines(std::unique_ptr<sim::CacheLines> lines, std::function<int()> current_core,
                                       int progress_core)
{
  // Free transfers never make anyone wait: no model to consult on every call then.
  lines_         = lines != nullptr && lines->costs_time() ? std::move(lines) : nullptr;
  current_core_  = std::move(current_core);
  progress_core_ = progress_core;
  for (int pe = 0; pe < net_.endpoints(); ++pe)
    net_.ni(pe).set_completion_listener(lines_ == nullptr ? std::function<void(int)>{}
                                                          : [this, pe](int md) { progress_completed(pe, md); });
}

namespace {
/// The library objects a data-movement call updates with locked instructions, by kind.
enum class Line : std::uint64_t { Counters = 1, MdRef = 2, BufPool = 3, SendQueue = 4 };
std::uint64_t line_key(Line kind, int pe, int index)
{
  return static_cast<std::uint64_t>(kind) << 56 | static_cast<std::uint64_t>(static_cast<std::uint32_t>(pe)) << 24 |
         static_cast<std::uint32_t>(index);
}
} // namespace

void PortalsTransport::initiate(const Ctrs& c, portals::MdHandle md, int dest, portals::MdHandle md2)
{
  // The initiator's side of a Portals call runs on the calling thread and occupies its core.
  sim::Simulation& sim = net_.simulation();
  const Ps overhead    = me().ni->initiate_overhead();
  if (lines_ == nullptr) {
    sim.busy_for(overhead);
    return;
  }
  // The shared objects the call updates with locked instructions, in the order the Portals 4
  // reference implementation over InfiniBand does (docs/model.md, "Shared cache lines"): before its
  // own work, the context's issued counter (the SHMEM library's atomic add), the MDs' reference
  // counts (taken when the handle is looked up) and the NI's buffer pool (a request buffer);
  // after it, the connection's send queue (its lock, around the work request's post) and the MDs'
  // reference counts again (released).
  const std::uint64_t before[] = {line_key(Line::Counters, c.pe, c.ct.index), line_key(Line::MdRef, c.pe, md.index),
                                  md2.index >= 0 ? line_key(Line::MdRef, c.pe, md2.index) : 0,
                                  line_key(Line::BufPool, c.pe, 0)};
  const std::uint64_t after[]  = {line_key(Line::SendQueue, c.pe, dest), line_key(Line::MdRef, c.pe, md.index),
                                 md2.index >= 0 ? line_key(Line::MdRef, c.pe, md2.index) : 0};
  const int core               = current_core_();
  update_lines(c.pe, core, before);
  sim.busy_for(overhead);
  update_lines(c.pe, core, after);
}

void PortalsTransport::post_calls(int pe, portals::MdHandle md, portals::MdHandle md2, int calls, int incs)
{
  // A call that posts an operation, triggered or not, is the reference implementation's PtlPut up
  // to the point where it hands the request on (ptl_move.c: the triggered forms park it on the
  // trigger's CT instead of sending it): it takes its MD's reference and a request buffer from the
  // NI's pool, the line every data-movement call of the PE's threads updates too. The send queue's
  // lock is taken when the request goes out, by the NIC's side (released triggered operations), and
  // no SHMEM context's issued counter is touched. A counter increment updates only the
  // collective's own CT. All calls of one collective step are charged together: the lines first
  // (a line the thread already holds costs nothing again), then the calls' initiation costs.
  sim::Simulation& sim = net_.simulation();
  const Ps busy        = static_cast<Ps>(calls + incs) * net_.ni(pe).initiate_overhead();
  if (lines_ == nullptr || calls == 0) {
    sim.busy_for(busy);
    return;
  }
  const int core = current_core_();
  std::vector<std::uint64_t> before;
  before.reserve(3 * static_cast<std::size_t>(calls));
  for (int i = 0; i < calls; ++i) {
    before.push_back(line_key(Line::MdRef, pe, md.index));
    if (md2.index >= 0)
      before.push_back(line_key(Line::MdRef, pe, md2.index));
    before.push_back(line_key(Line::BufPool, pe, 0));
  }
  update_lines(pe, core, before);
  sim.busy_for(busy);
  const std::uint64_t after[] = {line_key(Line::MdRef, pe, md.index),
                                 md2.index >= 0 ? line_key(Line::MdRef, pe, md2.index) : 0};
  update_lines(pe, core, after);
}

void PortalsTransport::update_lines(int pe, int core, std::span<const std::uint64_t> lines)
{
  sim::Simulation& sim = net_.simulation();
  sim.settle();
  const Ps t0 = now();
  Ps t        = t0;
  for (std::uint64_t line : lines)
    if (line != 0)
      t = lines_->update(line, core, t);
  if (t == t0)
    return;
  const OpenInterval open(obs_, t0); // reported below, dated t0
  sim.spin_for(t - t0);              // the core stalls until its lines arrive
  SHMEMSIM_OBSERVE(obs_, lock(t0, now() - t0, pe, current_thread_()));
}

void PortalsTransport::progress_completed(int pe, int md)
{
  // In the model's event (the progress thread's handling ends now): the reference implementation's
  // progress thread drops the MD reference the call took and returns the request buffer to the NI's
  // pool, with locked instructions on the lines the program threads update in their calls. The line
  // then sits in the progress core's cache, and the next call that updates it waits for its transfer
  // (initiate). The progress thread's own waits for these lines are not charged to it.
  if (md < 0)
    return;
  const Ps t = now();
  lines_->update(line_key(Line::BufPool, pe, 0), progress_core_,
                 lines_->update(line_key(Line::MdRef, pe, md), progress_core_, t));
}

void PortalsTransport::quiet(TransportCtx* ctx)
{
  quiet_as(ctx, "quiet");
}

void PortalsTransport::quiet_as(TransportCtx* ctx, const char* what)
{
  Ctrs* c = ctrs(ctx);
  wait(c, false, what);
  c->fence_needs_quiet = false;
}

void PortalsTransport::fence(TransportCtx* ctx)
{
  // With total data ordering, puts up to max_waw_ordered_size already arrive in order: nothing to
  // do. Otherwise order by completing everything (a quiet), as the Portals mapping must.
  if (ctrs(ctx)->fence_needs_quiet)
    quiet_as(ctx, "fence");
}

std::uint64_t PortalsTransport::updates()
{
  PeNet& p = me();
  CtEvent ev;
  p.ni->ct_get(p.target_ct, &ev);
  return ev.success + ev.failure + p.local_stores;
}

namespace {
/// What a thread blocked in wait_for_update waits for, for deadlock and time-limit reports.
struct UpdateWait final : sim::Waitable {
  int ni = 0, ct = 0;
  std::uint64_t test   = 0;
  const portals::Ni* n = nullptr;
  portals::CtHandle h;
  const void* object = nullptr; ///< the symmetric object waited on (null: the library's own wait)
  const std::function<std::string(const void*)>* namer = nullptr;
  const WaitNote* note                                 = nullptr; ///< what the waiting routine adds (null: nothing)
  std::string describe_wait() const override
  {
    CtEvent ev;
    const_cast<portals::Ni*>(n)->ct_get(h, &ev);
    std::string of = "its symmetric memory";
    if (object != nullptr) {
      char addr[32];
      std::snprintf(addr, sizeof addr, "%p", object);
      const std::string name = namer != nullptr && *namer ? (*namer)(object) : std::string();
      of                     = name.empty() ? std::string("its symmetric memory at ") + addr : name + " (" + addr + ")";
    }
    std::string s = "an update of " + of + " by another PE or thread: CT " + std::to_string(ct) + " of endpoint " +
                    std::to_string(ni) + " reaching " + std::to_string(test) + " (success " +
                    std::to_string(ev.success) + ", failure " + std::to_string(ev.failure) + ")";
    const std::string more = note != nullptr ? note->note() : std::string();
    return more.empty() ? s : s + ". " + more;
  }
};
} // namespace

void PortalsTransport::wait_for_update(std::uint64_t seen, const char* call)
{
  wait_for_update_on(seen, call, nullptr);
}

void PortalsTransport::wait_for_update_on(std::uint64_t seen, const char* /*call*/, const void* object,
                                          const WaitNote* note)
{
  PeNet& p      = me();
  const int thr = obs_ != nullptr ? current_thread_() : 0;
  SHMEMSIM_OBSERVE(obs_, wait_begin(now(), p.ni->id(), thr, -1, p.target_ct.index, "wait_until", seen + 1));
  sim::Notifier& self = net_.simulation().self_notifier();
  // Woken by the target CT (a delivery from another PE) or by a store of a sibling thread.
  while (updates() <= seen) {
    const std::uint64_t ct_test = seen + 1 - p.local_stores; // updates() <= seen: no wrap
    bool reached                = false;
    check(p.ni->ct_watch(p.target_ct, ct_test, &self, &reached), "PtlCTWait");
    if (reached)
      break;
    p.update_waiters.push_back(&self);
    UpdateWait what;
    what.ni     = p.ni->id();
    what.ct     = p.target_ct.index;
    what.test   = ct_test;
    what.n      = p.ni;
    what.h      = p.target_ct;
    what.object = object;
    what.namer  = &name_address_;
    what.note   = note;
    self.wait(&what, "PtlCTWait");
    p.ni->ct_unwatch(p.target_ct, &self);
    std::erase(p.update_waiters, &self);
  }
  SHMEMSIM_OBSERVE(obs_, wait_end(now(), p.ni->id(), thr, seen + 1));
}

// ---------------------------------------------------------------- requests (seed 003)

PortalsTransport::Ctrs* PortalsTransport::make_request_slot(PeNet& p, std::string* limit)
{
  auto& ni = *p.ni;
  auto c   = std::make_unique<Ctrs>();
  c->pe    = ni.id();
  if (ni.ct_alloc(&c->ct) != Status::Ok) {
    *limit = "max_cts (" + std::to_string(ni.limits().max_cts) + ") reached";
    return nullptr;
  }
  // Not volatile: a request's buffers are not reusable until it completes (seed 003), so the NIC
  // reads a put's source when it injects it, as it does for every put above max_volatile_size.
  portals::MdDesc md{nullptr, UINT64_MAX, portals::MD_EVENT_CT_ACK | portals::MD_EVENT_CT_REPLY, c->ct};
  if (ni.md_bind(md, &c->md) != Status::Ok) {
    ni.ct_free(c->ct);
    *limit = "max_mds (" + std::to_string(ni.limits().max_mds) + ") reached";
    return nullptr;
  }
  c->get_ct       = c->ct;
  c->get_md       = c->md;
  c->single_ct    = true;
  c->request_slot = true;
  Ctrs* raw       = c.get();
  p.ctrs.push_back(std::move(c));
  return raw;
}

bool PortalsTransport::complete(const Ctrs* c)
{
  auto& ni = *me().ni;
  CtEvent ev;
  ni.ct_get(c->ct, &ev);
  if (ev.failure > 0)
    fatal_(std::to_string(ev.failure) + " remote operations failed at their target");
  if (mapping_ == CtxMapping::Lean || c->single_ct)
    return ev.success >= c->issued + c->get_issued;
  if (ev.success < c->issued)
    return false;
  ni.ct_get(c->get_ct, &ev);
  return ev.success >= c->get_issued;
}

bool PortalsTransport::request_test(TransportCtx* slot)
{
  return complete(ctrs(slot));
}

void PortalsTransport::request_wait(TransportCtx* slot, const char* call)
{
  if (!complete(ctrs(slot)))
    wait(ctrs(slot), false, call);
}

void PortalsTransport::note_local_stores(int pe)
{
  PeNet& p = *pes_[static_cast<std::size_t>(pe)];
  ++p.local_stores;
  if (p.update_waiters.empty())
    return;
  // A wake issued from an actor lets other actors run, which may change the list: copy it.
  const std::vector<sim::Notifier*> wake = p.update_waiters;
  for (sim::Notifier* n : wake)
    n->notify();
}

} // namespace shmemsim::front

namespace shmemsim::front {

TriggeredSync& PortalsTransport::offload()
{
  if (offloaded_ == nullptr) {
    offloaded_ = std::make_unique<TriggeredSync>(net_, memory_, fatal_);
    offloaded_->observe(obs_, current_thread_);
    offloaded_->charge_with([this](int pe, portals::MdHandle md, portals::MdHandle md2, int calls, int incs) {
      post_calls(pe, md, md2, calls, incs);
    });
  }
  return *offloaded_;
}

bool PortalsTransport::offloaded_sync(const PeList& members, int me)
{
  offload().run(members, me);
  return true;
}

std::uint64_t PortalsTransport::offloaded_sync_start(const PeList& members, int me)
{
  return offload().start_barrier(members, me);
}

bool PortalsTransport::offloaded_sync_test(std::uint64_t id)
{
  return offload().test_barrier(id);
}

void PortalsTransport::offloaded_sync_wait(std::uint64_t id)
{
  offload().wait_barrier(id);
}

const char* PortalsTransport::offloaded_broadcast(const PeList& members, int me, void* dest, const void* source,
                                                  std::size_t bytes, int root)
{
  return offload().broadcast(members, me, dest, source, bytes, root);
}

const char* PortalsTransport::offloaded_reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest,
                                               const void* source, std::size_t count)
{
  return offload().reduce(members, me, op, e, dest, source, count);
}

std::uint64_t PortalsTransport::offloaded_broadcast_start(const PeList& members, int me, void* dest,
                                                         const void* source, std::size_t bytes, int root,
                                                         const char** why)
{
  return offload().start_broadcast(members, me, dest, source, bytes, root, why);
}

std::uint64_t PortalsTransport::offloaded_reduce_start(const PeList& members, int me, RedOp op, RedElem e, void* dest,
                                                      const void* source, std::size_t count, const char** why)
{
  return offload().start_reduce(members, me, op, e, dest, source, count, why);
}

bool PortalsTransport::offloaded_call_test(std::uint64_t id)
{
  return offload().test_call(id);
}

void PortalsTransport::offloaded_call_wait(std::uint64_t id)
{
  offload().wait_call(id);
}

void PortalsTransport::offloaded_release(const PeList& members, int me)
{
  if (offloaded_ != nullptr)
    offloaded_->release(members, me);
}

} // namespace shmemsim::front
