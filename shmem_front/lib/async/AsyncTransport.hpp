// The transport the routines see while an AsyncSHMEM runtime runs (AsyncPe.hpp): in front of the
// backend's transport, it applies the runtime design to the calls of the workers' tasks.
// - offload: put, get, AMOs, quiet, fence and a request's wait called by a worker are performed by
//   the PE's communication worker; the calling worker runs other tasks meanwhile. (Contexts are the
//   library's: its ContextTable creates and destroys them on the calling thread.)
// - contexts: the default context, as a worker sees it, is the worker's own context (the library's
//   default_ctx() asks worker_default_ctx() while this transport is installed); a quiet of it
//   completes every worker's context and the default one (tasks of one scope ran on any worker).
// Waiting for an update (wait_until and the like) stays with the calling worker. Calls of other threads, and of PEs without a runtime,
// go straight through.
#pragma once

#include "shmem_front/lib/Seams.hpp"

namespace shmemsim::front::async {

class AsyncPe;

class AsyncTransport final : public Transport {
public:
  explicit AsyncTransport(Transport& inner) : inner_(&inner) {}
  Transport& inner() { return *inner_; }
  void set_inner(Transport& t) { inner_ = &t; }

  CounterSource& counter_source() override { return inner_->counter_source(); }
  void put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe) override;
  void fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond, void* result,
                 int pe, bool blocking) override;
  void quiet(TransportCtx* ctx) override;
  void fence(TransportCtx* ctx) override;
  std::uint64_t updates() override { return inner_->updates(); }
  void wait_for_update(std::uint64_t seen, const char* call) override;
  void wait_for_update_on(std::uint64_t seen, const char* call, const void* what,
                          const WaitNote* note = nullptr) override
  {
    inner_->wait_for_update_on(seen, call, what, note); // as wait_for_update: the caller keeps its worker
  }
  void signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe) override;
  SignalJournal* signal_journal() override { return inner_->signal_journal(); }
  bool request_test(TransportCtx* slot) override { return inner_->request_test(slot); }
  void request_wait(TransportCtx* slot, const char* call) override;

private:
  /// The calling PE's offload runtime when the caller is one of its workers, else null.
  AsyncPe* offloading();
  /// Run `f` on the communication worker (offload) or here.
  template <class F> void perform(F f);

  Transport* inner_;
};

/// Put the forwarding transport in front of the installed one (idempotent), and give the library
/// the workers' default contexts (set_worker_default_ctx).
void install_transport();

} // namespace shmemsim::front::async
