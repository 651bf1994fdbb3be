// One PE's communication contexts and request slots, above the transport's counters: which
// counters a SHMEM context or a non-blocking request issues on, and what happens when the NIC's
// CTs or MDs run out (job.contexts.on_exhaustion, docs/limits.md; requests: docs/extensions.md).
// The table owns the context and request-slot numbers, sharing, the exhaustion policy, the
// round-robin turn, the request slots, the one notice line per PE and kind, and the context
// events of traces. A backend (PortalsTransport, EmuTransport) only acquires and releases counters
// through its CounterSource, and reports "none left" with the limit that stopped it.
#pragma once

#include "base/CtxEvent.hpp"
#include "shmem_front/lib/Seams.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shmemsim::front {

/// One set of completion counters of a backend (its CTs, MDs and issued counts): what a context
/// or a request issues on and waits for. Each backend derives its own; the table hands them round.
struct Counters {
  virtual ~Counters() = default;
};

/// What counters are acquired for: a context (the mapping's CTs and MDs) or a request slot (one
/// CT and one MD, not volatile, puts and gets counted together whatever the mapping).
enum class CounterUse { Context, Request };

/// What a ContextTable needs from its backend, for one PE.
class CounterSource {
public:
  virtual ~CounterSource() = default;
  /// Counters for `use`, numbered `id` in traces; null when none are left: `*limit` then names
  /// the limit that stopped it ("max_cts (4) reached").
  virtual Counters* acquire(CounterUse use, int id, std::string* limit) = 0;
  /// No context or request issues on `c` any more: give its resources back.
  virtual void release(Counters* c) = 0;
  /// A context event for the observer or the trace: context `id` counting on `counters` (a
  /// refused context: id -1, counters null).
  virtual void ctx_event(int id, const Counters* counters, CtxEvent what) = 0;
  /// One notice line ("PE 3: context 5 shares ..."), for the user.
  virtual void notice(const std::string& line) = 0;
};

/// One communication context (or request slot) of a PE. Backends read `id` and `counters`; the
/// rest is the table's.
struct TransportCtx {
  int id              = 0;       ///< numbers the PE's contexts and request slots in traces (0: the default one)
  Counters* counters  = nullptr; ///< where its operations are issued and counted (its owner's)
  TransportCtx* owner = this;    ///< the context whose counters it uses (itself unless shared)
  int sharers         = 0;       ///< contexts issuing on its counters
  bool destroyed      = false;   ///< destroyed while shared: its counters live on for its sharers
  bool request_slot   = false;   ///< a request slot (never a context, never shared by one)
  int req_users       = 0;       ///< open requests issuing on it
};

/// One open request: the slot its operations are issued on.
struct TransportRequest {
  TransportCtx* slot = nullptr;
};

/// What a PE's table did, for summaries (summary.json's `contexts` and `requests`).
struct ContextCounts {
  std::uint64_t created = 0, refused = 0, shared_default = 0, shared_created = 0;
  std::uint64_t requests_opened = 0, requests_own = 0, requests_shared = 0;
  int request_slots_peak = 0; ///< the most request slots held at once

  /// Sums, and the larger peak (several PEs' tables).
  void add(const ContextCounts& o);
};

class ContextTable {
public:
  /// `default_counters`: the default context's, acquired by the backend before (they are never
  /// released through the table).
  ContextTable(int pe, OnExhaustion policy, CounterSource& source, Counters* default_counters);
  ~ContextTable();
  ContextTable(const ContextTable&)            = delete;
  ContextTable& operator=(const ContextTable&) = delete;

  TransportCtx* default_ctx() { return def_.get(); }
  /// A context with `options` (SHMEM_CTX_* bits): counters of its own, or shared ones as the
  /// policy says; null when refused (policy Fail).
  TransportCtx* create(long options);
  /// Counters are released with the last context using them.
  void destroy(TransportCtx* c);
  /// A request: a slot of its own while counters last, else the oldest open request's slot, else
  /// the default context (then a quiet completes it too). Never fails.
  TransportRequest* open_request();
  /// Releases `r` (and its slot with its last request). The caller checked completion.
  void close_request(TransportRequest* r);

  const ContextCounts& counts() const { return counts_; }

private:
  TransportCtx* share(const std::string& why);
  TransportCtx* share_target();
  void release(TransportCtx* c);
  void erase(TransportCtx* c);
  std::string prefix() const;

  int pe_;
  OnExhaustion policy_;
  CounterSource& source_;
  std::mutex mutex_; ///< a backend of real threads creates and destroys from several at once
  std::unique_ptr<TransportCtx> def_;
  std::vector<std::unique_ptr<TransportCtx>> ctxs_; ///< created contexts and request slots, in creation order
  std::vector<TransportCtx*> req_slots_;            ///< the request slots, oldest first
  int next_id_             = 1;
  std::size_t round_robin_ = 0;                ///< the next created context to share (OnExhaustion::RoundRobin)
  bool noticed_ = false, req_noticed_ = false; ///< the notice line about contexts, about requests, said
  ContextCounts counts_;
};

} // namespace shmemsim::front
