#include "shmem_front/emulator/EmuTransport.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace shmemsim::front {
/// A context's counters in the emulator: the CT (completions, counted by the NIC's progress
/// thread) and the issued count (counted by the issuing threads), one pair in the lean mapping
/// (`ct`, `issued`: puts, gets and AMOs), two in the split mapping (gets and fetching AMOs on
/// `get_ct`, `get_issued`).
struct TransportCtx {
  int id              = 0;
  TransportCtx* owner = this; ///< where operations are issued and counted (another context if shared)
  std::atomic<std::uint64_t> ct{0}, get_ct{0}, issued{0}, get_issued{0};
  std::atomic<bool> fence_needs_quiet{false};
  int sharers    = 0;
  bool destroyed = false;
};
} // namespace shmemsim::front

namespace shmemsim::emulator {

using front::AmoOp;
using front::AmoType;
using front::TransportCtx;

EmuTransport::EmuTransport(const Config& cfg, Nic& nic, std::function<void(const std::string&)> fatal)
    : cfg_(cfg), nic_(nic), fatal_(std::move(fatal))
{
  cts_used_ = 1; // the target counter of this PE's memory (updates), as the Portals mapping keeps
  std::string limit;
  TransportCtx* d = make_ctx(&limit);
  if (d == nullptr)
    throw std::runtime_error("PE " + std::to_string(cfg.rank) + " cannot bind its default context: " + limit +
                             " (raise platform.nic.limits.max_cts / max_mds)");
  def_ = std::move(ctxs_.back());
  ctxs_.pop_back();
}

EmuTransport::~EmuTransport() = default;

// ------------------------------------------------------------------ tracing

void EmuTransport::set_tracer(Tracer* t)
{
  tracer_ = t;
  if (t != nullptr)
    name_counters(def_.get());
}

int EmuTransport::ct_index(const TransportCtx* c, bool gets) const
{
  return cfg_.split ? 2 * c->id + (gets ? 2 : 1) : c->id + 1;
}

void EmuTransport::name_counters(const TransportCtx* c)
{
  if (tracer_ == nullptr)
    return;
  tracer_->name_counter(&c->ct, ct_index(c, false));
  tracer_->name_counter(&c->get_ct, ct_index(c, true));
}

std::uint64_t EmuTransport::issue(const TransportCtx* ctx, TransportCtx* c, bool get_side, const char* kind,
                                  std::uint64_t bytes, int target)
{
  // Counted before its message goes: a sibling thread's wait meanwhile waits for it too, and a CT
  // never exceeds its issued count (the issued-count rule, wait()). The count it brings its
  // counter to names it in the trace (lean: puts and gets on one CT).
  std::atomic<std::uint64_t>& issued = cfg_.split && get_side ? c->get_issued : c->issued;
  const std::uint64_t seq            = issued.fetch_add(1, std::memory_order_acq_rel) + 1;
  if (tracer_ == nullptr)
    return 0;
  return tracer_->op(ctx->id, ct_index(c, get_side), seq, kind, bytes, target);
}

void EmuTransport::note_ctx(const TransportCtx* ctx, front::CtxEvent what)
{
  if (tracer_ != nullptr)
    tracer_->ctx(ctx->id, ct_index(ctx->owner, false), what);
}

TransportCtx* EmuTransport::make_ctx(std::string* limit)
{
  // Resources as the Portals mapping takes them: lean one CT + one MD, split two of each.
  const int need = cfg_.split ? 2 : 1;
  if (cts_used_ + need > cfg_.max_cts) {
    *limit = "max_cts (" + std::to_string(cfg_.max_cts) + ") reached";
    return nullptr;
  }
  if (mds_used_ + need > cfg_.max_mds) {
    *limit = "max_mds (" + std::to_string(cfg_.max_mds) + ") reached";
    return nullptr;
  }
  cts_used_ += need;
  mds_used_ += need;
  ctxs_.push_back(std::make_unique<TransportCtx>());
  return ctxs_.back().get();
}

TransportCtx* EmuTransport::default_ctx()
{
  return def_.get();
}

TransportCtx* EmuTransport::ctx_create(long options)
{
  std::lock_guard lock(mutex_);
  constexpr long kPrivate = 1L << 1; // SHMEM_CTX_PRIVATE (shmem.h)
  if (cfg_.on_exhaustion == CtxPolicy::KeepPrivate && (options & kPrivate) == 0)
    return make_shared_ctx("not SHMEM_CTX_PRIVATE (contexts.on_exhaustion keep_private)");
  std::string limit;
  if (TransportCtx* c = make_ctx(&limit)) {
    c->id = next_id_++;
    name_counters(c);
    note_ctx(c, front::CtxEvent::Create);
    return c;
  }
  if (cfg_.on_exhaustion != CtxPolicy::Fail)
    return make_shared_ctx(limit);
  notice_once("a context was refused (SHMEM_CTX_INVALID): " + limit);
  if (tracer_ != nullptr)
    tracer_->ctx(-1, -1, front::CtxEvent::Refuse);
  return nullptr;
}

TransportCtx* EmuTransport::share_target()
{
  if (cfg_.on_exhaustion != CtxPolicy::RoundRobin)
    return def_.get();
  std::vector<TransportCtx*> pool;
  for (const auto& x : ctxs_)
    if (x->owner == x.get() && !x->destroyed)
      pool.push_back(x.get());
  if (pool.empty())
    return def_.get();
  return pool[round_robin_++ % pool.size()];
}

TransportCtx* EmuTransport::make_shared_ctx(const std::string& why)
{
  auto shared   = std::make_unique<TransportCtx>();
  shared->owner = share_target();
  shared->id    = next_id_++;
  ++shared->owner->sharers;
  const bool on_default = shared->owner == def_.get();
  notice_once("context " + std::to_string(shared->id) + " shares " +
              (on_default ? std::string("the default context's") : "context " + std::to_string(shared->owner->id) + "'s") +
              " resources: " + why);
  ctxs_.push_back(std::move(shared));
  note_ctx(ctxs_.back().get(), front::CtxEvent::Share);
  return ctxs_.back().get();
}

void EmuTransport::notice_once(const std::string& line)
{
  if (noticed_)
    return;
  noticed_ = true;
  std::fprintf(stderr, "shmemsim-run: PE %d: %s\n", cfg_.rank, line.c_str());
}

void EmuTransport::release(TransportCtx* c)
{
  const int need = cfg_.split ? 2 : 1;
  cts_used_ -= need;
  mds_used_ -= need;
  std::erase_if(ctxs_, [c](const std::unique_ptr<TransportCtx>& x) { return x.get() == c; });
}

void EmuTransport::ctx_destroy(TransportCtx* c)
{
  quiet(c); // a context's operations complete before it goes (OpenSHMEM 1.5, shmem_ctx_destroy)
  std::lock_guard lock(mutex_);
  note_ctx(c, front::CtxEvent::Destroy);
  if (c->owner != c) {
    TransportCtx* o = c->owner;
    --o->sharers;
    std::erase_if(ctxs_, [c](const std::unique_ptr<TransportCtx>& x) { return x.get() == c; });
    if (o->destroyed && o->sharers == 0)
      release(o);
    return;
  }
  if (c->sharers > 0) {
    c->destroyed = true;
    return;
  }
  release(c);
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
  TransportCtx* c = ctx->owner;
  Header h        = request(MsgType::Put, dest, n);
  h.cookie        = reinterpret_cast<std::uint64_t>(&c->ct);
  const std::uint64_t op = issue(ctx, c, false, blocking ? "put" : "put_nbi", n, pe);
  // `src` is copied or sent: reusable on return; but a blocking put above max_volatile_size waits
  // for its ACK below, so what the socket does not take at once is sent from `src` in place.
  const bool waits = blocking && n > cfg_.max_volatile_size;
  nic_.send_request(pe, h, src, n, op, true, waits ? Nic::Payload::InPlace : Nic::Payload::Copy);
  if (!cfg_.total_ordering || n > cfg_.max_waw_ordered_size)
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
  TransportCtx* c = ctx->owner;
  Header h        = request(MsgType::Get, src, n);
  h.cookie        = reinterpret_cast<std::uint64_t>(cfg_.split ? &c->get_ct : &c->ct);
  h.dest          = reinterpret_cast<std::uint64_t>(dest);
  const std::uint64_t op = issue(ctx, c, true, blocking ? "get" : "get_nbi", n, pe);
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
  TransportCtx* c = ctx->owner;
  Header h        = request(MsgType::Amo, dest, size);
  h.len           = 0;
  h.op            = static_cast<std::uint8_t>(static_cast<std::uint8_t>(op) | (signal ? kSignalOp : 0));
  h.dtype         = static_cast<std::uint8_t>(t);
  std::memcpy(&h.value[0], value, size);
  h.cookie = reinterpret_cast<std::uint64_t>(&c->ct);
  const std::uint64_t op_id = issue(ctx, c, false, "amo", size, pe);
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
  TransportCtx* c = ctx->owner;
  Header h        = request(MsgType::FetchAmo, dest, size);
  h.len           = 0;
  h.op            = static_cast<std::uint8_t>(op);
  h.dtype         = static_cast<std::uint8_t>(t);
  h.value[0]      = v[0];
  h.value[1]      = v[1];
  h.dest          = reinterpret_cast<std::uint64_t>(result);
  h.cookie        = reinterpret_cast<std::uint64_t>(cfg_.split ? &c->get_ct : &c->ct);
  const std::uint64_t op_id = issue(ctx, c, true, blocking ? "famo" : "famo_nbi", size, pe);
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

void EmuTransport::wait(TransportCtx* c, bool gets_only, const char* what)
{
  // Until the counter reaches the number of operations issued on the context, re-read after every
  // wake (caught_up): a blocking operation completes everything pending on its counter, its own
  // operation included (the contexts paper's mapping, and the interference it measures).
  auto reach = [&](const std::atomic<std::uint64_t>& ct, const std::atomic<std::uint64_t>& issued, bool gets) {
    if (tracer_ != nullptr)
      tracer_->wait_begin(c->id, ct_index(c, gets), what != nullptr ? what : "wait",
                          issued.load(std::memory_order_acquire));
    std::uint64_t reached = 0;
    if (!caught_up(ct, issued, &reached))
      nic_.wait_until([&] { return caught_up(ct, issued, &reached); });
    if (tracer_ != nullptr)
      tracer_->wait_end(reached);
  };
  if (!cfg_.split) {
    reach(c->ct, c->issued, false);
    return;
  }
  if (!gets_only)
    reach(c->ct, c->issued, false);
  reach(c->get_ct, c->get_issued, true);
}

bool EmuTransport::reached(const TransportCtx* c) const
{
  std::uint64_t count = 0;
  if (!cfg_.split)
    return caught_up(c->ct, c->issued, &count);
  return caught_up(c->ct, c->issued, &count) && caught_up(c->get_ct, c->get_issued, &count);
}

front::TransportRequest* EmuTransport::request_open()
{
  std::lock_guard lock(mutex_);
  std::string limit;
  TransportCtx* c = make_ctx(&limit);
  if (c == nullptr) {
    notice_once("a request's operations go on the default context (quiet completes them too): " + limit);
    c = def_.get();
  } else {
    c->id = next_id_++;
    name_counters(c);
  }
  return reinterpret_cast<front::TransportRequest*>(c);
}

TransportCtx* EmuTransport::request_ctx(front::TransportRequest* r)
{
  return reinterpret_cast<TransportCtx*>(r);
}

bool EmuTransport::request_test(front::TransportRequest* r)
{
  return reached(reinterpret_cast<TransportCtx*>(r));
}

void EmuTransport::request_wait(front::TransportRequest* r, const char* call)
{
  wait(reinterpret_cast<TransportCtx*>(r), false, call);
}

void EmuTransport::request_close(front::TransportRequest* r)
{
  TransportCtx* c = reinterpret_cast<TransportCtx*>(r);
  if (c != def_.get())
    ctx_destroy(c);
}

void EmuTransport::quiet(TransportCtx* ctx)
{
  TransportCtx* c = ctx->owner;
  wait(c, false, "quiet");
  c->fence_needs_quiet.store(false, std::memory_order_relaxed);
}

void EmuTransport::fence(TransportCtx* ctx)
{
  // Total data ordering (the receiver executes each pair's requests in issue order): nothing to
  // do for puts up to max_waw_ordered_size. Otherwise a quiet, as the Portals mapping must.
  if (ctx->owner->fence_needs_quiet.load(std::memory_order_relaxed))
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
  if (tracer_ != nullptr)
    tracer_->wait_begin(-1, 0, "wait_until", seen + 1);
  nic_.wait_update(seen, std::chrono::microseconds(1000));
  if (tracer_ != nullptr)
    tracer_->wait_end(nic_.updates());
}

} // namespace shmemsim::emulator
