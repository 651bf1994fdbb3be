// A Portals 4 network interface (one per endpoint/process) over the NIC model: CTs, EQs, MDs,
// portal table entries with non-matching list entries, and the data movement operations.
// Resource limits return PTL_NO_SPACE, never abort. Data really moves: bytes land in target
// memory at delivery time and atomics really compute.
#pragma once

#include "sim/Notifier.hpp"
#include "sim/nic/DeliveryHandler.hpp"
#include "sim/nic/Nic.hpp"
#include "base/PortalsObserver.hpp"
#include "sim/portals_model/Types.hpp"

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace shmemsim::sim {
class Simulation;
}

namespace shmemsim::portals {

/// PT_ANY for pt_alloc.
inline constexpr std::uint32_t PT_ANY = 0xFFFFFFFFu;

/// Resources in use right now and their peaks (for reports against limits).
struct NiUsage {
  int cts = 0, cts_peak = 0;
  int mds = 0, mds_peak = 0;
  int les = 0, les_peak = 0;
  std::uint64_t volatile_puts = 0;       ///< puts completed locally at issue (buffered)
  std::uint64_t dma_puts      = 0;       ///< puts whose payload the NIC read by DMA
  int triggered = 0, triggered_peak = 0; ///< triggered operations waiting on a threshold
  std::uint64_t triggered_fired  = 0;    ///< triggered operations released (their threshold reached)
  std::uint64_t triggered_failed = 0;    ///< released ones whose operation failed (e.g. its MD was released)
  int eqs = 0, eqs_peak = 0;             ///< event queues allocated
  std::uint64_t eq_slots = 0, eq_slots_peak = 0; ///< their event slots (counts asked for + PT_DISABLED reserves)
  std::uint64_t events_posted     = 0;           ///< full events written into event queues
  std::uint64_t events_dropped    = 0;           ///< of these, overwritten before they were taken (PTL_EQ_DROPPED)
  std::uint64_t pt_disabled       = 0;           ///< portal table entries disabled by flow control
  std::uint64_t pt_disabled_drops = 0;           ///< messages dropped at a disabled portal table entry
};

/// The CT, MD and list-entry tables the limits count against: one per NIC (shared by the NIs of a
/// node with platform.nic.per = node, one per NI with pe).
struct ResourcePool {
  int cts = 0, mds = 0, les = 0, triggered = 0, eqs = 0;
};

/// Told of writes into watched target memory (Ni::watch_word).
class WriteWatcher {
public:
  virtual ~WriteWatcher() = default;
  /// A put or atomic from endpoint `initiator` landed at `t` in the watched 8-byte `word` of
  /// endpoint `target`'s memory: the word holds the result now; `before` is what it held before an
  /// atomic (null for a put).
  virtual void watched_write(Ps t, int target, int initiator, const std::uint64_t* word,
                             const std::uint64_t* before) = 0;
};

class Ni final : public nic::DeliveryHandler {
public:
  Ni(sim::Simulation& sim, nic::Nic& nic, int id, int endpoints, const Limits& limits, ResourcePool& pool);
  ~Ni() override;
  Ni(const Ni&)            = delete;
  Ni& operator=(const Ni&) = delete;

  int id() const { return id_; }
  int node() const { return nic_.node(); }
  const Limits& limits() const { return limits_; }
  /// Host CPU time each data-movement call costs its caller (the caller spends it: see
  /// platform.nic.initiate_overhead); the NI itself never blocks the caller.
  Ps initiate_overhead() const { return nic_.initiate_overhead(); }
  /// `f(md)` is called when this NI's progress thread (platform.nic.progress thread only) has
  /// handled a returning ACK or reply of an operation on MD `md`: the moment it releases the MD's
  /// reference and returns the request buffer to the NI's pool (shared lines: docs/model.md).
  void set_completion_listener(std::function<void(int md)> f) { completion_ = std::move(f); }
  const NiUsage& usage() const { return usage_; }

  // Counting events (PtlCTAlloc, PtlCTFree, PtlCTGet, PtlCTWait, PtlCTSet, PtlCTInc).
  Status ct_alloc(CtHandle* ct);
  Status ct_free(CtHandle ct);
  Status ct_get(CtHandle ct, CtEvent* ev) const;
  /// Block the calling actor until success + failure >= test. `purpose` (optional) says what the
  /// counter stands for, in deadlock and time-limit reports.
  Status ct_wait(CtHandle ct, std::uint64_t test, CtEvent* ev, const char* purpose = nullptr);
  /// The non-blocking half of ct_wait, for callers that wait on several things at once: if the CT
  /// has reached `test`, set `*reached`; else notify `who` once when it does (ct_unwatch withdraws).
  Status ct_watch(CtHandle ct, std::uint64_t test, sim::Notifier* who, bool* reached);
  void ct_unwatch(CtHandle ct, const sim::Notifier* who);
  Status ct_set(CtHandle ct, CtEvent value);
  Status ct_inc(CtHandle ct, CtEvent increment);

  // Memory descriptors (PtlMDBind, PtlMDRelease).
  Status md_bind(const MdDesc& md, MdHandle* handle);
  Status md_release(MdHandle md);

  // Event queues (PtlEQAlloc, PtlEQFree, PtlEQGet, PtlEQWait, PtlEQPoll; EventQueue.cpp). An EQ
  // holds `count` events; a full one overwrites its oldest event, and the next event taken returns
  // EqDropped. Each flow-controlled portal table entry using it reserves one more slot for its
  // PTL_EVENT_PT_DISABLED. An event is visible to the host when the NIC's write of it lands
  // (Nic::write_event); until then get/wait/poll do not see it.
  Status eq_alloc(std::uint64_t count, EqHandle* eq);
  /// ArgInvalid if not allocated; InUse while an MD or portal table entry names it (the
  /// specification leaves that to the user; the model refuses rather than write into freed memory).
  /// Actors waiting on it return Interrupted.
  Status eq_free(EqHandle eq);
  /// Ok or EqDropped with the oldest event; EqEmpty if none is visible or an actor waits on the EQ.
  Status eq_get(EqHandle eq, Event* ev);
  /// Block the calling actor until an event is visible; Ok or EqDropped, Interrupted if freed.
  Status eq_wait(EqHandle eq, Event* ev, const char* purpose = nullptr);
  /// Wait up to `timeout` (model time; TIME_FOREVER: no limit; 0: just look) for an event on any of
  /// `n` EQs, looked at round-robin from where the last poll left off; `*which` says whose it is.
  /// EqEmpty when the timeout passed.
  Status eq_poll(const EqHandle* eqs, unsigned n, Ps timeout, Event* ev, int* which, const char* purpose = nullptr);

  // Portal table and non-matching list entries (PtlPTAlloc, PtlPTFree, PtlPTDisable, PtlPTEnable,
  // PtlLEAppend, PtlLEUnlink). Target events of the entry go to its EQ (EQ_NONE: none). With
  // PT_FLOWCTRL (which needs an EQ: PtEqNeeded) a message that finds the EQ full or no list entry
  // disables the entry instead: it is dropped (the initiator sees NiFail::PtDisabled), and
  // PTL_EVENT_PT_DISABLED is posted; messages meet a disabled entry until pt_enable.
  Status pt_alloc(std::uint32_t requested, std::uint32_t* actual);
  Status pt_alloc(std::uint32_t options, EqHandle eq, std::uint32_t requested, std::uint32_t* actual);
  /// PtlPTFree: PtInUse while list entries are still appended to it.
  Status pt_free(std::uint32_t pt);
  Status pt_disable(std::uint32_t pt);
  Status pt_enable(std::uint32_t pt);
  /// `user_ptr` is handed back in the entry's target events.
  Status le_append(std::uint32_t pt, const LeDesc& le, LeHandle* handle, std::uint64_t user_ptr = 0);
  Status le_unlink(LeHandle le);

  // Data movement (PtlPut, PtlGet, PtlAtomic, PtlFetchAtomic, PtlSwap). `target` is an endpoint.
  // `user_ptr` is the caller's tag for the operation, as in Portals: the model hands it to its
  // observer with the operation's message (a trace ties the message to the SHMEM operation).
  // `hdr_data` travels in the header to the target's event.
  Status put(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target, std::uint32_t pt,
             std::uint64_t remote_offset, std::uint64_t user_ptr = 0, std::uint64_t hdr_data = 0);
  Status get(MdHandle md, std::uint64_t local_offset, std::uint64_t length, int target, std::uint32_t pt,
             std::uint64_t remote_offset, std::uint64_t user_ptr = 0);
  Status atomic(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target, std::uint32_t pt,
                std::uint64_t remote_offset, AtomicOp op, Datatype dt, std::uint64_t user_ptr = 0,
                std::uint64_t hdr_data = 0);
  Status fetch_atomic(MdHandle get_md, std::uint64_t get_offset, MdHandle put_md, std::uint64_t put_offset,
                      std::uint64_t length, int target, std::uint32_t pt, std::uint64_t remote_offset, AtomicOp op,
                      Datatype dt, std::uint64_t user_ptr = 0);
  Status swap(MdHandle get_md, std::uint64_t get_offset, MdHandle put_md, std::uint64_t put_offset,
              std::uint64_t length, int target, std::uint32_t pt, std::uint64_t remote_offset, const void* operand,
              AtomicOp op, Datatype dt, std::uint64_t user_ptr = 0);

  // Triggered operations (PtlTriggeredPut, PtlTriggeredGet, PtlTriggeredAtomic, PtlTriggeredCTInc,
  // PtlTriggeredCTSet, PtlCTCancelTriggered; Triggered.cpp). Each is the operation of the same name
  // held by the NIC until CT `trig` counts `threshold` (success + failure, equal or greater); it is
  // then issued by the NIC at that moment, with its buffer as it is then, and costs the host
  // nothing more. One whose threshold is already reached proceeds at once. Operations released
  // together go in threshold order, then in the order they were issued. Arguments are checked when
  // the call is made (ArgInvalid); beyond limits.max_triggered_ops pending operations, NoSpace.
  Status triggered_put(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target,
                       std::uint32_t pt, std::uint64_t remote_offset, CtHandle trig, std::uint64_t threshold,
                       std::uint64_t user_ptr = 0);
  Status triggered_get(MdHandle md, std::uint64_t local_offset, std::uint64_t length, int target, std::uint32_t pt,
                       std::uint64_t remote_offset, CtHandle trig, std::uint64_t threshold, std::uint64_t user_ptr = 0);
  Status triggered_atomic(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target,
                          std::uint32_t pt, std::uint64_t remote_offset, AtomicOp op, Datatype dt, CtHandle trig,
                          std::uint64_t threshold, std::uint64_t user_ptr = 0);
  Status triggered_ct_inc(CtHandle ct, CtEvent increment, CtHandle trig, std::uint64_t threshold);
  Status triggered_ct_set(CtHandle ct, CtEvent value, CtHandle trig, std::uint64_t threshold);
  /// PtlCTCancelTriggered: the operations waiting on `ct` are destroyed, never issued; the CT's
  /// value is left as it is.
  Status ct_cancel_triggered(CtHandle ct);

  /// Why the last call returned an error (for messages), empty after success.
  const std::string& last_error() const { return last_error_; }
  /// Report counting events and limits to `obs` (null: nobody).
  void set_observer(PortalsObserver* obs) { obs_ = obs; }

  /// Watchpoints on this endpoint's memory (an instrument of the simulator, not of Portals):
  /// every put or atomic that lands in the aligned 8-byte `word` is told to `watcher` after it
  /// landed. For reports only: watching changes no date.
  void watch_word(const std::uint64_t* word, WriteWatcher* watcher);

  // nic::DeliveryHandler
  void target_resolve(nic::Message& m) override;
  void target_atomic(nic::Message& m, std::byte* fetched) override;
  void target_complete(nic::Message& m) override;
  void initiator_sent(nic::Message& m) override;
  void initiator_acked(nic::Message& m) override;
  void initiator_replied(nic::Message& m) override;
  void release(nic::Message* m) override;

  struct Ct; ///< a counting event with its waiters (internal)
  struct Eq; ///< an event queue with its events and waiters (internal)

private:
  struct Md {
    bool used = false;
    MdDesc desc;
    int queue             = 0;
    bool own_queue        = false;
    std::uint64_t pending = 0;
  };
  struct Le {
    bool used = false;
    LeDesc desc;
    std::uint32_t pt       = 0;
    std::uint64_t user_ptr = 0;
  };
  struct Pt {
    bool used             = false;
    bool enabled          = true;
    std::uint32_t options = 0;
    EqHandle eq           = EQ_NONE;
    std::vector<int> list; ///< priority list, in append order
  };
  struct Op;

  Status fail(Status s, std::string why);
  Ct* ct_of(CtHandle h);
  const Ct* ct_of(CtHandle h) const;
  Md* md_of(MdHandle h);
  Eq* eq_of(EqHandle h);
  /// Write `ev` into EQ `h` (none: nothing) as the NIC has it at `at_nic`; `reserved`: a
  /// PTL_EVENT_PT_DISABLED, which takes a slot its portal table entry reserved.
  void post(EqHandle h, const Event& ev, Ps at_nic, bool reserved = false);
  /// Take the oldest visible event of `q` (Ok, EqDropped or EqEmpty).
  Status take(Eq& q, Event* ev);
  /// Wake the actors waiting on EQ `index` (scheduled for when an event becomes visible).
  void eq_visible(std::uint64_t index);
  /// Wake the eq_poll whose timer is `id`, if it still waits.
  void poll_timeout(std::uint64_t id);
  /// Block in eq_poll until notified, with a timer for `deadline` (TIME_FOREVER: none); false if
  /// one of the EQs was freed meanwhile.
  bool poll_block(const EqHandle* eqs, unsigned n, Ps deadline, const char* purpose);
  /// Flow control at the target: whether the message on `pt` (flow-controlled) must disable it.
  bool flow_control_trips(const Pt& pt);
  /// Disable `pt` under flow control, posting PTL_EVENT_PT_DISABLED for the message `m`.
  void disable_by_flow_control(std::uint32_t pt, const nic::Message& m);
  // The events of a delivered message, at the target and at the initiator.
  void target_events(const Op& op);
  void initiator_event(EventKind kind, const Op& op, int md, bool ok);
  void count(CtHandle h, bool ok, std::uint64_t bytes, bool count_bytes);
  /// Hold `issue` until CT `trig` reaches `threshold` (or run it now if it has): the common part
  /// of the triggered operations; `what` names the call in errors.
  Status hold_until(CtHandle trig, std::uint64_t threshold, const char* what, std::function<Status()> issue);
  /// Issue the operations waiting on CT `h` whose threshold its count has reached.
  void release_triggered(CtHandle h);
  /// The checks data movement calls make on their arguments, for a triggered call.
  Status check_triggered_target(MdHandle md, std::uint64_t local_offset, std::uint64_t length, int target,
                                const char* what);
  Status check_common(Md* md, std::uint64_t local_offset, std::uint64_t length, int target, const char* what);
  /// f(word) for each watched word that [start, start + length) touches.
  template <class F> void for_watched(const std::byte* start, std::uint64_t length, F f) const;
  Op* new_op(nic::OpKind kind, Md& md, int md_index, std::uint64_t local_offset, std::uint64_t length, int target,
             std::uint32_t pt, std::uint64_t remote_offset, std::uint64_t user_ptr);

  sim::Simulation& sim_;
  ResourcePool& pool_;
  nic::Nic& nic_;
  std::function<void(int md)> completion_;
  int id_;
  int endpoints_;
  Limits limits_;
  int default_queue_;
  std::vector<Ct*> cts_;
  std::vector<Eq*> eqs_;
  std::uint64_t next_timer_ = 0;
  std::vector<std::pair<std::uint64_t, sim::Notifier*>> poll_timers_; ///< eq_poll timers pending
  unsigned poll_cursor_ = 0;                                          ///< where eq_poll looks first
  std::vector<Md> mds_;
  std::vector<Le> les_;
  std::vector<Pt> pts_;
  NiUsage usage_;
  std::string last_error_;
  PortalsObserver* obs_ = nullptr;
  std::set<std::uintptr_t> watched_; ///< watched words' addresses
  WriteWatcher* watcher_ = nullptr;
};

} // namespace shmemsim::portals
