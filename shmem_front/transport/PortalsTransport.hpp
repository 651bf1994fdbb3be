// The transport seam on the Portals 4 model: the contexts paper's mapping (DESIGN.md
// "Contexts on the Portals model"). Per PE: portal table entries for static data (PT 0) and the
// symmetric heap (PT 1), counted by one target CT (which wait_until waits on). Per context,
// `lean` (the paper's): one CT, one MD over the whole address space and one issued-operation
// counter; `split`: a put CT+MD and a get CT+MD with their own counters.
#pragma once

#include "shmem_front/lib/PeMemory.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/lib/ShmemObserver.hpp"
#include "sim/portals_model/Network.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace shmemsim::front {

enum class CtxMapping { Lean, Split };
/// What ctx_create does when the NIC's CTs or MDs run out (job.contexts.on_exhaustion):
/// Fail: refuse (SHMEM_CTX_INVALID); Share: share the default context's resources; RoundRobin:
/// share those of the PE's created contexts that own resources, in turn (the default context's if
/// there is none); KeepPrivate: contexts created without SHMEM_CTX_PRIVATE always share the default
/// context's, SHMEM_CTX_PRIVATE ones get their own while they last, then share the default's.
enum class OnExhaustion { Fail, Share, RoundRobin, KeepPrivate };

class PortalsTransport final : public Transport, private portals::WriteWatcher {
public:
  /// `current_pe` says which PE is calling. `memory[pe]` is every PE's symmetric memory.
  PortalsTransport(portals::Network& net, std::vector<PeMemory> memory, CtxMapping mapping, OnExhaustion on_exhaustion,
                   std::function<int()> current_pe, std::function<void(const std::string&)> fatal);
  ~PortalsTransport() override;

  /// Bind every PE's Portals resources (before the PEs start). Throws std::runtime_error if the
  /// limits cannot hold even the default context.
  void setup();

  TransportCtx* ctx_create(long options) override;
  void ctx_destroy(TransportCtx* ctx) override;
  TransportCtx* default_ctx() override;
  void put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe) override;
  void fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond, void* result,
                 int pe, bool blocking) override;
  void quiet(TransportCtx* ctx) override;
  void fence(TransportCtx* ctx) override;
  std::uint64_t updates() override;
  void wait_for_update(std::uint64_t seen, const char* call) override;
  void wait_for_update_on(std::uint64_t seen, const char* call, const void* what, const WaitNote* note = nullptr) override;
  /// The target's NI watches the word (Ni::watch_word) before the atomic add is issued, so the
  /// add, and any later write into the word, is recorded in the target's journal as it lands.
  void signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe) override;
  SignalJournal* signal_journal() override;
  /// Requests (seed 003): each open request gets a request slot of its own, one CT and one MD
  /// (not volatile: the NIC reads a put's source when it injects it) counting the ACKs and
  /// replies of its operations; freed by request_close. When the NIC's CTs or MDs run out, a new
  /// request shares the slot of the PE's oldest open request (or, with none open, the default
  /// context's resources: then quiet completes it too), with one notice line per PE.
  TransportRequest* request_open() override;
  TransportCtx* request_ctx(TransportRequest* r) override;
  bool request_test(TransportRequest* r) override;
  void request_wait(TransportRequest* r, const char* call) override;
  void request_close(TransportRequest* r) override;
  /// A thread of `pe` may have stored to the PE's symmetric memory (it entered the library or its
  /// time slice ended): wake the PE's threads waiting for updates, so they re-check.
  void note_local_stores(int pe);

  /// Report operations, waits and contexts to `obs` (null: nobody); `current_thread` says which
  /// thread of the calling PE is calling (0: its main thread).
  void set_observer(front::ShmemObserver* obs, std::function<int()> current_thread);

  /// Contexts created and refused so far (for reports).
  std::uint64_t contexts_created() const { return created_; }
  std::uint64_t contexts_refused() const { return refused_; }
  /// Contexts created over another context's resources: the default context's, a created one's.
  std::uint64_t contexts_shared_default() const { return shared_default_; }
  std::uint64_t contexts_shared_created() const { return shared_created_; }
  /// Requests opened, those that got a slot (CT + MD) of their own, those that shared one, and the
  /// most slots one PE held at once (the request mechanism's cost in NIC resources).
  std::uint64_t requests_opened() const { return req_opened_; }
  std::uint64_t requests_own() const { return req_own_; }
  std::uint64_t requests_shared() const { return req_shared_; }
  int request_slots_peak() const { return req_slots_peak_; }
  /// `notice` gets one line per PE, the first time a context of the PE is refused or shared.
  void set_notice(std::function<void(const std::string&)> notice) { notice_ = std::move(notice); }
  /// Whether created contexts' MDs carry PTL_MD_INDEPENDENT (job.contexts.independent_mds; default yes).
  void set_independent_mds(bool on) { independent_mds_ = on; }
  /// How reports name a symmetric address (the runtime's Runtime::name_address).
  void set_address_namer(std::function<std::string(const void*)> namer) { name_address_ = std::move(namer); }

private:
  struct PeNet;
  PeNet& me();
  /// Portal index and offset of the calling PE's symmetric address `addr` (n bytes).
  void target_of(const void* addr, std::size_t n, std::uint32_t* pt, std::uint64_t* offset);
  /// Null when a limit stops it; `limit` then names it ("max_cts (4) reached").
  TransportCtx* make_ctx(PeNet& p, long options, bool independent, std::string* limit = nullptr);
  /// The context a new shared one issues on (policy RoundRobin: created ones in turn).
  TransportCtx* share_target(PeNet& p);
  TransportCtx* make_shared_ctx(PeNet& p, const std::string& why);
  void release(PeNet& p, TransportCtx* c);
  void notice_once(PeNet& p, const std::string& line);
  void check(portals::Status s, const char* what);
  /// A request slot: one CT + one non-volatile MD; null when a limit stops it (`limit` says which).
  TransportCtx* make_request_slot(PeNet& p, std::string* limit);
  /// Whether every operation issued on `c` is complete (never blocks).
  bool complete(TransportCtx* c);
  void wait(TransportCtx* c, bool gets_only, const char* what);
  void quiet_as(TransportCtx* ctx, const char* what);
  /// Spend the host CPU time of one Portals data-movement call on the calling thread.
  void initiate();
  /// Tell the observer about an operation about to be issued on `ctx` (counted on `c`).
  std::uint64_t note_op(const TransportCtx* ctx, const TransportCtx* c, bool get_side, const char* kind, std::uint64_t bytes, int target);
  void note_ctx(const TransportCtx* ctx, front::CtxEvent what);
  sim::Ps now() { return net_.simulation().queue().now(); }
  /// portals::WriteWatcher: into the target PE's signal journal.
  void watched_write(sim::Ps t, int target, int initiator, const std::uint64_t* word,
                     const std::uint64_t* before) override;

  portals::Network& net_;
  std::vector<PeMemory> memory_;
  CtxMapping mapping_;
  OnExhaustion on_exhaustion_;
  std::function<int()> current_pe_;
  std::function<void(const std::string&)> fatal_;
  std::vector<std::unique_ptr<PeNet>> pes_;
  std::uint64_t created_ = 0;
  std::uint64_t refused_ = 0;
  std::uint64_t shared_default_ = 0, shared_created_ = 0;
  std::uint64_t req_opened_ = 0, req_own_ = 0, req_shared_ = 0;
  int req_slots_peak_ = 0;
  std::function<void(const std::string&)> notice_;
  std::function<std::string(const void*)> name_address_;
  bool independent_mds_ = true;
  front::ShmemObserver* obs_ = nullptr;
  std::function<int()> current_thread_;
};

} // namespace shmemsim::front
