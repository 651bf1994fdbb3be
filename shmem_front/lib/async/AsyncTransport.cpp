#include "shmem_front/lib/async/AsyncTransport.hpp"

#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/async/AsyncPe.hpp"

#include <algorithm>
#include <memory>

namespace shmemsim::front::async {

namespace {
std::unique_ptr<AsyncTransport> g_forwarder;

template <class F> void trampoline(void* f)
{
  (*static_cast<F*>(f))();
}

/// The calling PE's contexts runtime when the caller is one of its workers (its number in `w`).
AsyncPe* contexts_worker(int* w)
{
  AsyncPe* a = current();
  if (a == nullptr || a->design() != AsyncDesign::Contexts)
    return nullptr;
  *w = a->my_worker();
  return *w >= 0 ? a : nullptr;
}

/// The default context of the calling thread when it is a worker of the PE's contexts runtime:
/// the worker's own (null otherwise: the PE's).
TransportCtx* worker_default_ctx()
{
  int w = -1;
  if (AsyncPe* a = contexts_worker(&w))
    return a->worker_ctx(w);
  return nullptr;
}
} // namespace

void install_transport()
{
  Transport* now = env().transport;
  if (g_forwarder && now == g_forwarder.get())
    return;
  if (!g_forwarder)
    g_forwarder = std::make_unique<AsyncTransport>(*now);
  else
    g_forwarder->set_inner(*now); // a new run installed a new backend
  set_transport(g_forwarder.get());
  set_worker_default_ctx(&worker_default_ctx);
}

AsyncPe* AsyncTransport::offloading()
{
  AsyncPe* a = current();
  if (a == nullptr || a->design() != AsyncDesign::Offload || a->is_comm_worker() || a->my_worker() < 0)
    return nullptr;
  return a;
}

template <class F> void AsyncTransport::perform(F f)
{
  if (AsyncPe* a = offloading())
    a->offload(&trampoline<F>, &f);
  else
    f();
}

void AsyncTransport::put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking)
{
  perform([&] { inner_->put(ctx, dest, src, n, pe, blocking); });
}

void AsyncTransport::get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking)
{
  perform([&] { inner_->get(ctx, dest, src, n, pe, blocking); });
}

void AsyncTransport::amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe)
{
  perform([&] { inner_->amo(ctx, op, t, dest, value, pe); });
}

void AsyncTransport::signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe)
{
  perform([&] { inner_->signal(ctx, word, value, pe); });
}

void AsyncTransport::fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond,
                               void* result, int pe, bool blocking)
{
  perform([&] { inner_->fetch_amo(ctx, op, t, dest, value, cond, result, pe, blocking); });
}

namespace {
/// Whether `ctx` is the default context as a worker of a contexts runtime sees it (its slot's).
bool is_worker_default(AsyncPe* a, TransportCtx* ctx)
{
  const auto& mine = a->worker_ctxs();
  return std::find(mine.begin(), mine.end(), ctx) != mine.end();
}
} // namespace

void AsyncTransport::quiet(TransportCtx* ctx)
{
  int w = -1;
  if (AsyncPe* a = contexts_worker(&w); a != nullptr && is_worker_default(a, ctx)) {
    // The default context of a task: its scope's tasks, and itself before a suspension, may have
    // issued on any slot's context.
    for (TransportCtx* c : a->worker_ctxs())
      inner_->quiet(c);
    inner_->quiet(contexts().default_ctx());
    return;
  }
  perform([&] { inner_->quiet(ctx); });
}

void AsyncTransport::fence(TransportCtx* ctx)
{
  int w = -1;
  if (AsyncPe* a = contexts_worker(&w); a != nullptr && is_worker_default(a, ctx)) {
    // A suspended task may resume on another slot: order every slot's context.
    for (TransportCtx* c : a->worker_ctxs())
      inner_->fence(c);
    inner_->fence(contexts().default_ctx());
    return;
  }
  perform([&] { inner_->fence(ctx); });
}

void AsyncTransport::request_wait(TransportCtx* slot, const char* call)
{
  perform([&] { inner_->request_wait(slot, call); });
}

void AsyncTransport::wait_for_update(std::uint64_t seen, const char* call)
{
  // A task waiting for its memory to change (wait_until, collectives) keeps its worker: handing
  // the slot over takes the runtime's lock, and a lock is a synchronization point that the
  // simulator counts as an update (stores of the thread become visible), which would end the
  // wait at once, again and again (docs/extensions-async.md).
  inner_->wait_for_update(seen, call);
}

} // namespace shmemsim::front::async
