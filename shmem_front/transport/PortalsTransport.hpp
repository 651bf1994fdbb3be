// The transport seam on the Portals 4 model: the contexts paper's mapping (docs/design.md,
// "Contexts on the Portals model"). Per PE: portal table entries for static data (PT 0) and the
// symmetric heap (PT 1), counted by one target CT (which wait_until waits on). Per context,
// `lean` (the paper's): one CT, one MD over the whole address space and one issued-operation
// counter; `split`: a put CT+MD and a get CT+MD with their own counters. Which counters a context
// or a request uses, and what happens when they run out, is the library's (each PE's ContextTable,
// shmem_front/lib/ContextTable.hpp): this transport acquires and releases them for it through the
// PE's CounterSource.
#pragma once

#include "shmem_front/lib/PeMemory.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/transport/TriggeredSync.hpp"
#include "base/ShmemObserver.hpp"
#include "sim/portals_model/Network.hpp"
#include "sim/CacheLines.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

namespace shmemsim::front {

class PortalsTransport final : public Transport, private portals::WriteWatcher {
public:
  /// `current_pe` says which PE is calling. `memory[pe]` is every PE's symmetric memory.
  PortalsTransport(portals::Network& net, std::vector<PeMemory> memory, CtxMapping mapping,
                   std::function<int()> current_pe, std::function<void(const std::string&)> fatal);
  ~PortalsTransport() override;

  /// Bind every PE's Portals resources (before the PEs start). Throws std::runtime_error if the
  /// limits cannot hold even the default context.
  void setup();

  /// The calling PE's: its default context's CT and MD (bound by setup), then per context the
  /// mapping's CTs and MDs, per request slot one CT and one MD, while the NI's limits allow.
  CounterSource& counter_source() override;
  void put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe) override;
  void fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond, void* result,
                 int pe, bool blocking) override;
  void quiet(TransportCtx* ctx) override;
  void fence(TransportCtx* ctx) override;
  std::uint64_t updates() override;
  void wait_for_update(std::uint64_t seen, const char* call) override;
  void wait_for_update_on(std::uint64_t seen, const char* call, const void* what,
                          const WaitNote* note = nullptr) override;
  /// The target's NI watches the word (Ni::watch_word) before the atomic add is issued, so the
  /// add, and any later write into the word, is recorded in the target's journal as it lands.
  void signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe) override;
  SignalJournal* signal_journal() override;
  /// Requests (seed 003): a request slot is one CT and one MD (not volatile: the NIC reads a put's
  /// source when it injects it) counting the ACKs and replies of its operations. The test reads
  /// the CT; the wait waits on it only when the test says no.
  bool request_test(TransportCtx* slot) override;
  void request_wait(TransportCtx* slot, const char* call) override;
  /// job.collectives.barrier=triggered: the NICs run the barrier (TriggeredSync.hpp).
  bool offloaded_sync(const PeList& members, int me) override;
  std::uint64_t offloaded_sync_start(const PeList& members, int me) override;
  bool offloaded_sync_test(std::uint64_t id) override;
  void offloaded_sync_wait(std::uint64_t id) override;
  /// job.collectives.broadcast=triggered: the NICs forward the data (TriggeredSync.hpp).
  const char* offloaded_broadcast(const PeList& members, int me, void* dest, const void* source, std::size_t bytes,
                                  int root) override;
  /// job.collectives.reduce=triggered: the NICs' atomic units combine (TriggeredSync.hpp).
  const char* offloaded_reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest, const void* source,
                               std::size_t count) override;
  void offloaded_release(const PeList& members, int me) override;
  /// The collectives the NICs ran (null: none).
  std::uint64_t offloaded_broadcast_start(const PeList& members, int me, void* dest, const void* source,
                                          std::size_t bytes, int root, const char** why) override;
  std::uint64_t offloaded_reduce_start(const PeList& members, int me, RedOp op, RedElem e, void* dest,
                                       const void* source, std::size_t count, const char** why) override;
  bool offloaded_call_test(std::uint64_t id) override;
  void offloaded_call_wait(std::uint64_t id) override;
  const TriggeredSync* offloaded() const { return offloaded_.get(); }
  /// A thread of `pe` may have stored to the PE's symmetric memory (it entered the library or its
  /// time slice ended): wake the PE's threads waiting for updates, so they re-check.
  void note_local_stores(int pe);

  /// Report operations, waits and contexts to `obs` (null: nobody); `current_thread` says which
  /// thread of the calling PE is calling (0: its main thread).
  void set_observer(ShmemObserver* obs, std::function<int()> current_thread);

  /// The nodes' shared cache lines (sim/CacheLines.hpp; one model serves every node, its keys
  /// name the PE), the core the calling thread runs on, within its node, and the core of the
  /// NICs' progress threads. Without them the Portals calls update no shared lines.
  void set_cache_lines(std::unique_ptr<sim::CacheLines> lines, std::function<int()> current_core, int progress_core);

  /// `notice` gets the context tables' notice lines (one per PE the first time a context is
  /// refused or shared, one the first time a request shares a slot).
  void set_notice(std::function<void(const std::string&)> notice) { notice_ = std::move(notice); }
  /// Whether created contexts' MDs carry PTL_MD_INDEPENDENT (job.contexts.independent_mds; default yes).
  void set_independent_mds(bool on) { independent_mds_ = on; }
  /// job.portals.event_queue (before setup): one event queue per PE on its portal table entries, and
  /// blocking puts above max_volatile_size complete locally at their SEND event (Sandia OpenSHMEM's
  /// Portals 4 transport) instead of at their ACK.
  void set_event_queue(bool on) { event_queue_ = on; }
  /// The events of the event queue per PE: Sandia OpenSHMEM's shmem_transport_portals4_event_slots
  /// (2048, src/transport_portals4.c).
  static constexpr std::uint64_t kEventSlots = 2048;
  /// How reports name a symmetric address (the runtime's Runtime::name_address).
  void set_address_namer(std::function<std::string(const void*)> namer) { name_address_ = std::move(namer); }

private:
  struct Ctrs;
  struct PeNet;
  PeNet& me();
  static Ctrs* ctrs(const TransportCtx* ctx);
  /// The offloaded collectives, made at their first use.
  TriggeredSync& offload();
  /// Portal index and offset of the calling PE's symmetric address `addr` (n bytes).
  void target_of(const void* addr, std::size_t n, std::uint32_t* pt, std::uint64_t* offset);
  /// A context's counters; null when a limit stops it: `limit` then names it ("max_cts (4) reached").
  Ctrs* make_ctx(PeNet& p, bool independent, std::string* limit = nullptr);
  void release(PeNet& p, Ctrs* c);
  void check(portals::Status s, const char* what);
  /// A request slot: one CT + one non-volatile MD; null when a limit stops it (`limit` says which).
  Ctrs* make_request_slot(PeNet& p, std::string* limit);
  /// Whether every operation issued on `c` is complete (never blocks).
  bool complete(const Ctrs* c);
  void wait(Ctrs* c, bool gets_only, const char* what);
  /// Until the SEND event of the put tagged `tag` (its hdr_data) is taken from the PE's event queue, by
  /// this thread or another of the PE.
  void wait_send_event(PeNet& p, std::uint64_t tag);
  void quiet_as(TransportCtx* ctx, const char* what);
  /// Spend the host CPU time of one Portals data-movement call on the calling thread, on context
  /// `c` with MD `md` (and `md2`, if valid) towards PE `dest`, with the shared lines it updates.
  void initiate(const Ctrs& c, portals::MdHandle md, int dest, portals::MdHandle md2 = {});
  /// The calling thread of `pe`, on `core`, updates `lines` (0: none) one after the other
  /// (sim/CacheLines.hpp).
  void update_lines(int pe, int core, std::span<const std::uint64_t> lines);
  /// The offloaded collectives' Portals calls on PE `pe` (TriggeredSync::HostCalls).
  void post_calls(int pe, portals::MdHandle md, portals::MdHandle md2, int calls, int incs);
  /// PE `pe`'s progress thread handled an ACK or reply of an operation on MD `md`: it updates the
  /// MD's reference count and the NI's buffer pool from its own core.
  void progress_completed(int pe, int md);
  /// Tell the observer about an operation about to be issued on `ctx` (counted on `c`).
  std::uint64_t note_op(const TransportCtx* ctx, const Ctrs* c, bool get_side, const char* kind, std::uint64_t bytes,
                        int target);
  Ps now() { return net_.simulation().queue().now(); }
  /// portals::WriteWatcher: into the target PE's signal journal.
  void watched_write(Ps t, int target, int initiator, const std::uint64_t* word, const std::uint64_t* before) override;

  portals::Network& net_;
  std::vector<PeMemory> memory_;
  CtxMapping mapping_;
  std::function<int()> current_pe_;
  std::function<void(const std::string&)> fatal_;
  std::vector<std::unique_ptr<PeNet>> pes_;
  std::function<void(const std::string&)> notice_;
  std::unique_ptr<TriggeredSync> offloaded_; ///< made at the first offloaded collective
  std::function<std::string(const void*)> name_address_;
  bool independent_mds_ = true;
  bool event_queue_     = false;
  ShmemObserver* obs_   = nullptr;
  std::function<int()> current_thread_;
  std::unique_ptr<sim::CacheLines> lines_;
  std::function<int()> current_core_;
  int progress_core_ = 0;
};

} // namespace shmemsim::front
