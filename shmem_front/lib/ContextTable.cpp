#include "shmem_front/lib/ContextTable.hpp"

#include "base/Assert.hpp"

#include <algorithm>

namespace shmemsim::front {

void ContextCounts::add(const ContextCounts& o)
{
  created += o.created;
  refused += o.refused;
  shared_default += o.shared_default;
  shared_created += o.shared_created;
  requests_opened += o.requests_opened;
  requests_own += o.requests_own;
  requests_shared += o.requests_shared;
  request_slots_peak = std::max(request_slots_peak, o.request_slots_peak);
}

ContextTable::ContextTable(int pe, OnExhaustion policy, CounterSource& source)
    : pe_(pe), policy_(policy), source_(source), def_(std::make_unique<ContextRecord>())
{
  def_->counters = source.default_counters();
  SHMEMSIM_ASSERT(def_->counters != nullptr, "a context table needs the default context's counters");
}

ContextTable::~ContextTable() = default;

std::string ContextTable::prefix() const
{
  return "PE " + std::to_string(pe_) + ": ";
}

TransportCtx* ContextTable::create(long options)
{
  std::lock_guard lock(mutex_);
  constexpr long kPrivate = 1L << 1; // SHMEM_CTX_PRIVATE (shmem.h)
  if (policy_ == OnExhaustion::KeepPrivate && (options & kPrivate) == 0)
    return share("not SHMEM_CTX_PRIVATE (contexts.on_exhaustion keep_private)");
  std::string limit;
  if (Counters* k = source_.acquire(CounterUse::Context, next_id_, &limit)) {
    auto c      = std::make_unique<ContextRecord>();
    c->id       = next_id_++;
    c->counters = k;
    ++counts_.created;
    source_.ctx_event(c->id, k, CtxEvent::Create);
    ctxs_.push_back(std::move(c));
    return ctxs_.back().get();
  }
  if (policy_ != OnExhaustion::Fail)
    return share(limit);
  ++counts_.refused;
  if (!noticed_) {
    noticed_ = true;
    source_.notice(prefix() + "a context was refused (SHMEM_CTX_INVALID): " + limit);
  }
  source_.ctx_event(-1, nullptr, CtxEvent::Refuse);
  return nullptr;
}

ContextRecord* ContextTable::share_target()
{
  if (policy_ != OnExhaustion::RoundRobin)
    return def_.get();
  // The pool: the PE's created contexts that own counters and live, in creation order (request
  // slots are no contexts: a context never shares one).
  std::vector<ContextRecord*> pool;
  for (const auto& x : ctxs_)
    if (x->owner == x.get() && !x->destroyed && !x->request_slot)
      pool.push_back(x.get());
  if (pool.empty())
    return def_.get();
  return pool[round_robin_++ % pool.size()];
}

TransportCtx* ContextTable::share(const std::string& why)
{
  auto c      = std::make_unique<ContextRecord>();
  c->owner    = share_target();
  c->counters = c->owner->counters;
  c->id       = next_id_++;
  ++c->owner->sharers;
  const bool on_default = c->owner == def_.get();
  ++(on_default ? counts_.shared_default : counts_.shared_created);
  if (!noticed_) {
    noticed_ = true;
    source_.notice(
        prefix() + "context " + std::to_string(c->id) + " shares " +
        (on_default ? std::string("the default context's") : "context " + std::to_string(c->owner->id) + "'s") +
        " resources: " + why);
  }
  source_.ctx_event(c->id, c->counters, CtxEvent::Share);
  ctxs_.push_back(std::move(c));
  return ctxs_.back().get();
}

void ContextTable::erase(ContextRecord* c)
{
  std::erase_if(ctxs_, [c](const std::unique_ptr<ContextRecord>& x) { return x.get() == c; });
}

void ContextTable::release(ContextRecord* c)
{
  SHMEMSIM_ASSERT(c->owner == c && c->sharers == 0, "releasing a context's counters while others share them");
  source_.release(c->counters);
  erase(c);
}

void ContextTable::destroy(TransportCtx* t)
{
  std::lock_guard lock(mutex_);
  auto* c = static_cast<ContextRecord*>(t); // every TransportCtx the routines hold is a record of their table
  SHMEMSIM_ASSERT(c != def_.get() && !c->request_slot, "destroying the default context or a request slot");
  source_.ctx_event(c->id, c->counters, CtxEvent::Destroy);
  if (c->owner != c) {
    ContextRecord* o = c->owner;
    --o->sharers;
    erase(c);
    if (o->destroyed && o->sharers == 0)
      release(o);
    return;
  }
  if (c->sharers > 0) {
    c->destroyed = true; // its sharers still issue on its counters: released with the last of them
    return;
  }
  release(c);
}

TransportRequest* ContextTable::open_request()
{
  std::lock_guard lock(mutex_);
  auto* r = new TransportRequest;
  ++counts_.requests_opened;
  std::string limit;
  if (Counters* k = source_.acquire(CounterUse::Request, next_id_, &limit)) {
    auto s          = std::make_unique<ContextRecord>();
    s->id           = next_id_++; // numbered with the contexts in traces (ops "put_req", ...)
    s->counters     = k;
    s->request_slot = true;
    r->slot         = s.get();
    req_slots_.push_back(s.get());
    ctxs_.push_back(std::move(s));
    counts_.request_slots_peak = std::max(counts_.request_slots_peak, static_cast<int>(req_slots_.size()));
    ++counts_.requests_own;
  } else {
    // Out of counters: share the oldest open request's slot (its operations started first, so
    // waiting for them too costs least), else the default context's counters.
    ++counts_.requests_shared;
    r->slot = req_slots_.empty() ? def_.get() : req_slots_.front();
    if (!req_noticed_) {
      req_noticed_ = true;
      source_.notice(prefix() + "a request shares " +
                     (r->slot == def_.get() ? std::string("the default context's completion counter")
                                            : "the completion counter of an earlier request") +
                     ": " + limit);
    }
  }
  ++r->slot->req_users;
  return r;
}

bool ContextTable::alone_on_slot(const TransportRequest* r)
{
  std::lock_guard lock(mutex_);
  return r->slot->request_slot && r->slot->req_users <= 1;
}

void ContextTable::close_request(TransportRequest* r)
{
  std::lock_guard lock(mutex_);
  ContextRecord* s = r->slot;
  delete r;
  if (--s->req_users > 0 || !s->request_slot)
    return;
  std::erase(req_slots_, s);
  source_.release(s->counters);
  erase(s);
}

} // namespace shmemsim::front
