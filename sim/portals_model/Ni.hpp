// A Portals 4 network interface (one per endpoint/process) over the NIC model: CTs, MDs,
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
};

/// The CT, MD and list-entry tables the limits count against: one per NIC (shared by the NIs of a
/// node with platform.nic.per = node, one per NI with pe).
struct ResourcePool {
  int cts = 0, mds = 0, les = 0, triggered = 0;
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

  // Portal table and non-matching list entries (PtlPTAlloc, PtlPTFree, PtlLEAppend, PtlLEUnlink).
  Status pt_alloc(std::uint32_t requested, std::uint32_t* actual);
  /// PtlPTFree: PtInUse while list entries are still appended to it.
  Status pt_free(std::uint32_t pt);
  Status le_append(std::uint32_t pt, const LeDesc& le, LeHandle* handle);
  Status le_unlink(LeHandle le);

  // Data movement (PtlPut, PtlGet, PtlAtomic, PtlFetchAtomic, PtlSwap). `target` is an endpoint.
  // `user_ptr` is the caller's tag for the operation, as in Portals: the model hands it to its
  // observer with the operation's message (a trace ties the message to the SHMEM operation).
  Status put(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target, std::uint32_t pt,
             std::uint64_t remote_offset, std::uint64_t user_ptr = 0);
  Status get(MdHandle md, std::uint64_t local_offset, std::uint64_t length, int target, std::uint32_t pt,
             std::uint64_t remote_offset, std::uint64_t user_ptr = 0);
  Status atomic(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target, std::uint32_t pt,
                std::uint64_t remote_offset, AtomicOp op, Datatype dt, std::uint64_t user_ptr = 0);
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
    std::uint32_t pt = 0;
  };
  struct Pt {
    bool used = false;
    std::vector<int> list; ///< priority list, in append order
  };
  struct Op;

  Status fail(Status s, std::string why);
  Ct* ct_of(CtHandle h);
  const Ct* ct_of(CtHandle h) const;
  Md* md_of(MdHandle h);
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
