#include "shmem_front/lib/Library.hpp"

#include "base/Assert.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace shmemsim::front {

namespace {
Env g_env;
std::vector<std::unique_ptr<PeState>> g_pes;
TransportCtx* (*g_worker_default)() = nullptr; ///< AsyncSHMEM's (set_worker_default_ctx)
} // namespace

void install(const Env& env)
{
  g_env = env;
  g_pes.clear();
  g_worker_default = nullptr;
}

void set_transport(Transport* t)
{
  g_env.transport = t;
}

const Env& env()
{
  return g_env;
}

Runtime& rt()
{
  return *g_env.runtime;
}

Transport& tp()
{
  return *g_env.transport;
}

PeState& pe_state()
{
  const int me = rt().my_pe();
  if (g_pes.size() <= static_cast<std::size_t>(me))
    g_pes.resize(static_cast<std::size_t>(rt().n_pes()));
  auto& slot = g_pes[static_cast<std::size_t>(me)];
  if (!slot)
    slot = std::make_unique<PeState>();
  return *slot;
}

ContextTable& contexts(PeState& pe)
{
  if (!pe.contexts)
    pe.contexts = std::make_unique<ContextTable>(rt().my_pe(), rt().contexts_on_exhaustion(), tp().counter_source());
  return *pe.contexts;
}

TransportCtx* default_ctx(PeState& pe)
{
  if (g_worker_default != nullptr)
    if (TransportCtx* w = g_worker_default())
      return w;
  return contexts(pe).default_ctx();
}

void set_worker_default_ctx(TransportCtx* (*f)())
{
  g_worker_default = f;
}

TransportRequest* open_request()
{
  return contexts().open_request();
}

void close_request(TransportRequest* r)
{
  ContextTable& table = contexts();
  // Asked first, whatever the answer: a backend's test may report failed operations.
  const bool complete = tp().request_test(r->slot);
  SHMEMSIM_ASSERT(complete || !table.alone_on_slot(r), "a request closed before it completed");
  table.close_request(r);
}

ContextCounts context_counts()
{
  ContextCounts all;
  for (const auto& pe : g_pes)
    if (pe && pe->contexts)
      all.add(pe->contexts->counts());
  return all;
}

const PeState* pe_state_of(int pe)
{
  if (pe < 0 || static_cast<std::size_t>(pe) >= g_pes.size())
    return nullptr;
  return g_pes[static_cast<std::size_t>(pe)].get();
}

PeState::~PeState()
{
  for (shmemsim_ctx* c : live)
    delete c;
  for (shmemsim_ctx* c : destroyed)
    delete c;
}

shmemsim_ctx* register_ctx(PeState& pe, TransportCtx* t, long options)
{
  auto* c    = new shmemsim_ctx;
  c->pe      = rt().my_pe();
  c->options = options;
  c->tctx    = t;
  std::lock_guard lock(pe.contexts_mutex);
  c->seq = ++pe.contexts_made;
  pe.live.insert(c);
  return c;
}

std::vector<shmemsim_ctx*> in_creation_order(std::vector<shmemsim_ctx*> ctxs)
{
  std::sort(ctxs.begin(), ctxs.end(), [](const shmemsim_ctx* a, const shmemsim_ctx* b) { return a->seq < b->seq; });
  return ctxs;
}

bool PeState::is_live(shmemsim_ctx* c) const
{
  std::lock_guard lock(contexts_mutex);
  return live.count(c) != 0;
}

std::vector<shmemsim_ctx*> PeState::borrow_live()
{
  std::lock_guard lock(contexts_mutex);
  std::vector<shmemsim_ctx*> all = in_creation_order({live.begin(), live.end()});
  for (shmemsim_ctx* c : all)
    c->borrowed.fetch_add(1, std::memory_order_acq_rel);
  return all;
}

void PeState::give_back(const std::vector<shmemsim_ctx*>& borrowed)
{
  for (shmemsim_ctx* c : borrowed)
    c->borrowed.fetch_sub(1, std::memory_order_acq_rel);
}

bool PeState::retire_ctx(shmemsim_ctx* c)
{
  {
    std::lock_guard lock(contexts_mutex);
    if (live.erase(c) == 0)
      return false;
    destroyed.insert(c);
  }
  while (c->borrowed.load(std::memory_order_acquire) != 0)
    rt().poll_pause(); // a sibling thread's shmem_clear_lock is quieting it
  return true;
}

std::string hex(const void* p)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

void debug(const Entry& e, const std::string& what)
{
  static const bool on = std::getenv("SHMEM_DEBUG") != nullptr;
  if (on)
    std::fprintf(stderr, "shmemsim debug: PE %d: %s: %s\n", rt().my_pe(), e.routine(), what.c_str());
}

Entry::Entry(const char* routine, bool before_init) : routine_(routine)
{
  if (g_env.runtime == nullptr) {
    std::fprintf(stderr, "shmemsim: %s called outside shmemsim-run (compile with shmemsim-cc, run with shmemsim-run)\n",
                 routine);
    std::fflush(stderr);
    std::_Exit(2);
  }
  if (g_env.accounting != nullptr)
    g_env.accounting->enter(routine);
  pe_ = &pe_state();
  if (!before_init && !pe_->initialized)
    fail(pe_->finalized ? "called after shmem_finalize" : "called before shmem_init");
}

Entry::~Entry()
{
  if (g_env.accounting != nullptr)
    g_env.accounting->leave();
}

void Entry::fail(const std::string& what) const
{
  rt().fatal(std::string(routine_) + ": " + what);
  std::abort(); // fatal does not return
}

void Entry::check_pe(int pe) const
{
  const int n = rt().n_pes();
  if (pe < 0 || pe >= n)
    fail("invalid PE " + std::to_string(pe) + "; the job has " + std::to_string(n) + " PEs (0.." +
         std::to_string(n - 1) + ")");
}

void Entry::check_symmetric(const void* addr, std::size_t n, const char* what) const
{
  // A zero-length access touches no memory: any pointer (NULL included) is valid.
  if (n == 0 || rt().is_symmetric(addr, n))
    return;
  if (rt().is_symmetric(addr, 1))
    fail(std::string(what) + " " + hex(addr) + " (" + std::to_string(n) +
         " bytes) is out of bounds: it runs past the end of the symmetric region it starts in");
  fail(std::string(what) + " " + hex(addr) + " (" + std::to_string(n) +
       " bytes) is not symmetric: not within the static data or the symmetric heap of the program");
}

TransportCtx* Entry::ctx(shmemsim_ctx* handle) const
{
  const bool multiple = pe_->thread_level == 3; // SHMEM_THREAD_MULTIPLE
  if (handle == reinterpret_cast<shmemsim_ctx*>(std::uintptr_t{1})) {
    TransportCtx* t = default_ctx(*pe_);
    if (multiple)
      rt().library_lock(t); // the default context is shared by every thread
    return t;
  }
  if (handle == nullptr)
    fail("SHMEM_CTX_INVALID is not a usable context (shmem_ctx_create failed?)");
  bool live = false, destroyed = false;
  {
    std::lock_guard lock(pe_->contexts_mutex);
    live      = pe_->live.count(handle) != 0;
    destroyed = !live && pe_->destroyed.count(handle) != 0;
  }
  if (live) {
    // SHMEM_CTX_PRIVATE or SHMEM_CTX_SERIALIZED contexts need no internal synchronization.
    if (multiple && (handle->options & 3L) == 0)
      rt().library_lock(handle->tctx);
    return handle->tctx;
  }
  if (destroyed)
    fail("context " + hex(handle) + " was destroyed");
  fail("context " + hex(handle) + " is not a context of this PE");
}

} // namespace shmemsim::front
