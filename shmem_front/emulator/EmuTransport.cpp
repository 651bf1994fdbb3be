#include "shmem_front/emulator/EmuTransport.hpp"

#include "shmem_front/emulator/Clock.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace shmemsim::emulator {

using front::AmoOp;
using front::AmoType;
using front::CtxMapping;
using front::TransportCtx;

/// A context's or request slot's counters in the emulator: the CT (completions, counted by the
/// NIC's progress thread) and the issued count (counted by the issuing threads), one pair for a
/// lean context or a request slot (`ct`, `issued`: puts, gets and AMOs), two for a split context
/// (gets and fetching AMOs on `get_ct`, `get_issued`).
struct EmuTransport::Ctrs final : front::Counters {
  int id            = 0;     ///< the number of the context (or slot) they were acquired for (traces)
  bool split        = false; ///< two pairs (a context in the split mapping)
  bool request_slot = false; ///< a request slot's (ops "put_req", ...)
  std::atomic<std::uint64_t> ct{0}, get_ct{0}, issued{0}, get_issued{0};
  std::atomic<bool> fence_needs_quiet{false};
};

EmuTransport::Ctrs* EmuTransport::ctrs(const TransportCtx* ctx)
{
  return static_cast<Ctrs*>(ctx->counters);
}

EmuTransport::EmuTransport(const Config& cfg, Nic& nic, std::function<void(const std::string&)> fatal)
    : cfg_(cfg), nic_(nic), fatal_(std::move(fatal))
{
  cts_used_ = 1; // the target counter of this PE's memory (updates), as the Portals mapping keeps
  std::string limit;
  front::Counters* d = acquire(front::CounterUse::Context, 0, &limit);
  if (d == nullptr)
    throw std::runtime_error("PE " + std::to_string(cfg.rank) + " cannot bind its default context: " + limit +
                             " (raise platform.nic.limits.max_cts / max_mds)");
  default_ = static_cast<Ctrs*>(d);
}

EmuTransport::~EmuTransport() = default;

// ------------------------------------------------------------------ observing

void EmuTransport::set_observer(ShmemObserver* obs, std::function<int()> current_thread)
{
  obs_            = obs;
  current_thread_ = std::move(current_thread);
  if (obs != nullptr)
    name_counters(default_);
}

int EmuTransport::ct_index(const Ctrs* c, bool gets) const
{
  return cfg_.contexts.mapping == CtxMapping::Split ? 2 * c->id + (gets && c->split ? 2 : 1) : c->id + 1;
}

void EmuTransport::name_counters(const Ctrs* c)
{
  if (obs_ == nullptr)
    return;
  nic_.name_counter(&c->ct, ct_index(c, false));
  nic_.name_counter(&c->get_ct, ct_index(c, true));
}

std::uint64_t EmuTransport::issue(const TransportCtx* ctx, Ctrs* c, bool get_side, const char* kind,
                                  std::uint64_t bytes, int target)
{
  // Counted before its message goes: a sibling thread's wait meanwhile waits for it too, and a CT
  // never exceeds its issued count (the issued-count rule, wait()). The count it brings its
  // counter to names it in the trace (lean: puts and gets on one CT).
  std::atomic<std::uint64_t>& issued = c->split && get_side ? c->get_issued : c->issued;
  const std::uint64_t seq            = issued.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (obs_ == nullptr)
    return 0;
  return obs_->op_issued(job_time(cfg_.epoch_ns), cfg_.rank, current_thread_(), ctx->id, ct_index(c, get_side), seq,
                         kind, bytes, target);
}

// ------------------------------------------------------------------ counters (the ContextTable's)

front::CounterSource& EmuTransport::counter_source()
{
  return *this; // a private base: converted here, where it is accessible
}

front::Counters* EmuTransport::default_counters()
{
  return default_;
}

front::Counters* EmuTransport::acquire(front::CounterUse use, int id, std::string* limit)
{
  // Resources as the Portals mapping takes them: a lean context or a request slot one CT + one
  // MD, a split context two of each.
  const bool split = use == front::CounterUse::Context && cfg_.contexts.mapping == CtxMapping::Split;
  const int need   = split ? 2 : 1;
  if (cts_used_ + need > cfg_.limits.max_cts) {
    *limit = "max_cts (" + std::to_string(cfg_.limits.max_cts) + ") reached";
    return nullptr;
  }
  if (mds_used_ + need > cfg_.limits.max_mds) {
    *limit = "max_mds (" + std::to_string(cfg_.limits.max_mds) + ") reached";
    return nullptr;
  }
  cts_used_ += need;
  mds_used_ += need;
  auto c          = std::make_unique<Ctrs>();
  c->id           = id;
  c->split        = split;
  c->request_slot = use == front::CounterUse::Request;
  name_counters(c.get());
  ctrs_.push_back(std::move(c));
  return ctrs_.back().get();
}

void EmuTransport::release(front::Counters* k)
{
  auto* c        = static_cast<Ctrs*>(k);
  const int need = c->split ? 2 : 1;
  cts_used_ -= need;
  mds_used_ -= need;
  std::erase_if(ctrs_, [c](const std::unique_ptr<Ctrs>& x) { return x.get() == c; });
}

void EmuTransport::ctx_event(int id, const front::Counters* c, CtxEvent what)
{
  SHMEMSIM_OBSERVE(obs_, ctx_event(job_time(cfg_.epoch_ns), cfg_.rank, current_thread_(), id,
                                   c != nullptr ? ct_index(static_cast<const Ctrs*>(c), false) : -1, what));
}

void EmuTransport::notice(const std::string& line)
{
  std::fprintf(stderr, "shmemsim-run: %s\n", line.c_str());
}

// ------------------------------------------------------------------ requests

bool EmuTransport::request_test(TransportCtx* slot)
{
  return reached(ctrs(slot));
}

void EmuTransport::request_wait(TransportCtx* slot, const char* call)
{
  wait(ctrs(slot), false, call);
}

// ------------------------------------------------------------------ operations

Header EmuTransport::request(MsgType type, const void* addr, std::size_t n)
{
  Header h;
  h.type = type;
  if (!nic_.translate(addr, n, &h.seg, &h.offset))
    fatal_("address " + std::to_string(reinterpret_cast<std::uintptr_t>(addr)) + " (" + std::to_string(n) +
           " bytes) is not symmetric");
  h.len = n;
  return h;
}

void EmuTransport::put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking)
{
  if (pe == cfg_.rank) { // this PE's own memory: a store, counted as an update
    std::memmove(dest, src, n);
    nic_.note_update();
    return;
  }
  Ctrs* c                = ctrs(ctx);
  Header h               = request(MsgType::Put, dest, n);
  h.cookie               = reinterpret_cast<std::uint64_t>(&c->ct);
  const std::uint64_t op = issue(ctx, c, false, blocking ? "put" : c->request_slot ? "put_req" : "put_nbi", n, pe);
  // A blocking put up to max_volatile_size copies `src` (reusable on return); above it, it waits
  // for its ACK below, so what the socket or ring does not take at once is sent from `src` in
  // place; so is a non-blocking put's, whose source the program leaves unchanged until the
  // quiet that completes it (OpenSHMEM's put_nbi): a large stream is not copied twice.
  const bool waits = blocking && n > cfg_.limits.max_volatile_size;
  nic_.send_request(pe, h, src, n, op, true, waits || !blocking ? Nic::Payload::InPlace : Nic::Payload::Copy);
  if (!cfg_.limits.total_data_ordering || n > cfg_.limits.max_waw_ordered_size)
    c->fence_needs_quiet.store(true, std::memory_order_relaxed);
  if (waits)
    wait(c, false, "put");
}

void EmuTransport::get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking)
{
  if (pe == cfg_.rank) {
    std::memmove(dest, src, n);
    return;
  }
  Ctrs* c                = ctrs(ctx);
  Header h               = request(MsgType::Get, src, n);
  h.cookie               = reinterpret_cast<std::uint64_t>(c->split ? &c->get_ct : &c->ct);
  h.dest                 = reinterpret_cast<std::uint64_t>(dest);
  const std::uint64_t op = issue(ctx, c, true, blocking ? "get" : c->request_slot ? "get_req" : "get_nbi", n, pe);
  nic_.send_request(pe, h, nullptr, 0, op);
  if (blocking)
    wait(c, true, "get");
}

void EmuTransport::amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe)
{
  send_amo(ctx, op, t, dest, value, pe, false);
}

void EmuTransport::signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe)
{
  send_amo(ctx, AmoOp::Add, AmoType::Uint64, word, &value, pe, true);
}

front::SignalJournal* EmuTransport::signal_journal()
{
  return &nic_.signal_journal();
}

void EmuTransport::send_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe, bool signal)
{
  const std::size_t size = front::amo_size(t);
  if (pe == cfg_.rank) {
    std::uint64_t v[2] = {0, 0}, old = 0;
    std::memcpy(&v[0], value, size);
    execute_amo_at(dest, op, t, v, &old);
    nic_.note_update();
    return;
  }
  Ctrs* c  = ctrs(ctx);
  Header h = request(MsgType::Amo, dest, size);
  h.len    = 0;
  h.op     = static_cast<std::uint8_t>(static_cast<std::uint8_t>(op) | (signal ? kSignalOp : 0));
  h.dtype  = static_cast<std::uint8_t>(t);
  std::memcpy(&h.value[0], value, size);
  h.cookie                  = reinterpret_cast<std::uint64_t>(&c->ct);
  const std::uint64_t op_id = issue(ctx, c, false, c->request_slot ? "amo_req" : "amo", size, pe);
  nic_.send_request(pe, h, nullptr, 0, op_id, true);
  c->fence_needs_quiet.store(true, std::memory_order_relaxed);
}

void EmuTransport::fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond,
                             void* result, int pe, bool blocking)
{
  const std::size_t size = front::amo_size(t);
  std::uint64_t v[2]     = {0, 0};
  if (value != nullptr)
    std::memcpy(&v[0], value, size);
  if (cond != nullptr)
    std::memcpy(&v[1], cond, size);
  if (pe == cfg_.rank) {
    execute_amo_at(dest, op, t, v, result);
    if (op != AmoOp::Fetch)
      nic_.note_update();
    return;
  }
  Ctrs* c                   = ctrs(ctx);
  Header h                  = request(MsgType::FetchAmo, dest, size);
  h.len                     = 0;
  h.op                      = static_cast<std::uint8_t>(op);
  h.dtype                   = static_cast<std::uint8_t>(t);
  h.value[0]                = v[0];
  h.value[1]                = v[1];
  h.dest                    = reinterpret_cast<std::uint64_t>(result);
  h.cookie                  = reinterpret_cast<std::uint64_t>(c->split ? &c->get_ct : &c->ct);
  const std::uint64_t op_id = issue(ctx, c, true,
                                    blocking          ? "famo"
                                    : c->request_slot ? "famo_req"
                                                      : "famo_nbi",
                                    size, pe);
  nic_.send_request(pe, h, nullptr, 0, op_id);
  c->fence_needs_quiet.store(true, std::memory_order_relaxed);
  if (blocking)
    wait(c, true, "amo");
}

namespace {
/// The issued-count rule (the contexts paper's Portals mapping; PortalsTransport::wait): a counter
/// shared by several threads cannot tell whose operation completed, but when the CT equals the
/// issued count read AFTER it, every operation issued so far -- the waiter's own included -- has
/// completed. Read in that order: every completion counted at the CT's load belongs to an
/// operation counted as issued before (issue() counts before the message goes; the message, its
/// answer and the progress thread's count follow it through the sockets), so CT >= a later
/// issued count means they are equal. A snapshot of the issued count taken once is not enough:
/// completions of operations siblings issue later bring the CT to it too, and a fetching call
/// would return before its own reply (which then lands in a stack frame that is gone).
/// On success `*reached` is the count waited for.
bool caught_up(const std::atomic<std::uint64_t>& ct, const std::atomic<std::uint64_t>& issued, std::uint64_t* reached)
{
  // Acquire: the progress thread writes a reply's data, then counts it (acq_rel): the data of
  // every completion counted so far is visible to this thread once the load returns.
  const std::uint64_t done = ct.load(std::memory_order_acquire);
  if (done < issued.load(std::memory_order_acquire))
    return false;
  *reached = done;
  return true;
}
} // namespace

void EmuTransport::wait(Ctrs* c, bool gets_only, const char* what)
{
  // Until the counter reaches the number of operations issued on the context, re-read after every
  // wake (caught_up): a blocking operation completes everything pending on its counter, its own
  // operation included (the contexts paper's mapping, and the interference it measures).
  const int thr = obs_ != nullptr ? current_thread_() : 0;
  auto reach    = [&](const std::atomic<std::uint64_t>& ct, const std::atomic<std::uint64_t>& issued, bool gets) {
    SHMEMSIM_OBSERVE(obs_, wait_begin(job_time(cfg_.epoch_ns), cfg_.rank, thr, c->id, ct_index(c, gets),
                                      what != nullptr ? what : "wait", issued.load(std::memory_order_acquire)));
    std::uint64_t reached = 0;
    if (!caught_up(ct, issued, &reached))
      nic_.wait_until([&] { return caught_up(ct, issued, &reached); });
    SHMEMSIM_OBSERVE(obs_, wait_end(job_time(cfg_.epoch_ns), cfg_.rank, thr, reached));
  };
  if (!c->split) {
    reach(c->ct, c->issued, false);
    return;
  }
  if (!gets_only)
    reach(c->ct, c->issued, false);
  reach(c->get_ct, c->get_issued, true);
}

bool EmuTransport::reached(const Ctrs* c) const
{
  std::uint64_t count = 0;
  if (!c->split)
    return caught_up(c->ct, c->issued, &count);
  return caught_up(c->ct, c->issued, &count) && caught_up(c->get_ct, c->get_issued, &count);
}

void EmuTransport::quiet(TransportCtx* ctx)
{
  Ctrs* c = ctrs(ctx);
  wait(c, false, "quiet");
  c->fence_needs_quiet.store(false, std::memory_order_relaxed);
}

void EmuTransport::fence(TransportCtx* ctx)
{
  // Total data ordering (the receiver executes each pair's requests in issue order): nothing to
  // do for puts up to max_waw_ordered_size. Otherwise a quiet, as the Portals mapping must.
  if (ctrs(ctx)->fence_needs_quiet.load(std::memory_order_relaxed))
    quiet(ctx);
}

std::uint64_t EmuTransport::updates()
{
  return nic_.updates();
}

void EmuTransport::wait_for_update_on(std::uint64_t seen, const char* call, const void* /*what*/,
                                      const front::WaitNote* note)
{
  // What the waiting routine adds to a report, while it waits (a note is made again at each of
  // these short waits: it may change as messages land).
  std::string now = note != nullptr ? note->note() : std::string();
  {
    std::lock_guard<std::mutex> g(note_mutex_);
    wait_note_.swap(now);
  }
  wait_for_update(seen, call);
  std::lock_guard<std::mutex> g(note_mutex_);
  wait_note_.clear();
}

std::string EmuTransport::wait_note()
{
  std::lock_guard<std::mutex> g(note_mutex_);
  return wait_note_;
}

void EmuTransport::wait_for_update(std::uint64_t seen, const char* /*call*/)
{
  // Stores by this PE's own threads are not messages: come back after a short while so that the
  // caller re-checks its condition (1 ms; a message wakes it at once).
  const int thr = obs_ != nullptr ? current_thread_() : 0;
  SHMEMSIM_OBSERVE(obs_, wait_begin(job_time(cfg_.epoch_ns), cfg_.rank, thr, -1, 0, "wait_until", seen + 1));
  nic_.wait_update(seen, std::chrono::microseconds(1000));
  SHMEMSIM_OBSERVE(obs_, wait_end(job_time(cfg_.epoch_ns), cfg_.rank, thr, nic_.updates()));
}

} // namespace shmemsim::emulator
