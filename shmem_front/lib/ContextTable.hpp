// One PE's communication contexts and request slots, above the transport seam: which counters a
// SHMEM context or a non-blocking request issues on, and what happens when the NIC's CTs or MDs run
// out (job.contexts.on_exhaustion, docs/limits.md; requests: docs/extensions.md). The library keeps
// one table per PE (Library.hpp, PeState) and its routines create, destroy, open and close through
// it. The table owns the context and request-slot records and numbers, sharing, the exhaustion
// policy, the round-robin turn, the request slots, the one notice line per PE and kind, the
// context events of traces and the counts of summaries. A backend (PortalsTransport,
// EmuTransport) only acquires and releases counters through the PE's CounterSource (Seams.hpp),
// and reports "none left" with the limit that stopped it.
#pragma once

#include "shmem_front/lib/Seams.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shmemsim::front {

/// One context (or request slot) of a PE as its table keeps it: what a transport sees
/// (TransportCtx: its number and counters) and the table's bookkeeping.
struct ContextRecord final : TransportCtx {
  ContextRecord* owner = this;  ///< the context whose counters it uses (itself unless shared)
  int sharers          = 0;     ///< contexts issuing on its counters
  bool destroyed       = false; ///< destroyed while shared: its counters live on for its sharers
  bool request_slot    = false; ///< a request slot (never a context, never shared by one)
  int req_users        = 0;     ///< open requests issuing on it
};

/// One open request: the slot its operations are issued on.
struct TransportRequest {
  ContextRecord* slot = nullptr;
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
  /// PE `pe`'s table over its backend's counters (`source`: the default context's counters are
  /// its default_counters(), never released through the table).
  ContextTable(int pe, OnExhaustion policy, CounterSource& source);
  ~ContextTable();
  ContextTable(const ContextTable&)            = delete;
  ContextTable& operator=(const ContextTable&) = delete;

  TransportCtx* default_ctx() { return def_.get(); }
  /// A context with `options` (SHMEM_CTX_* bits): counters of its own, or shared ones as the
  /// policy says; null when refused (policy Fail).
  TransportCtx* create(long options);
  /// Counters are released with the last context using them. The caller completed its operations.
  void destroy(TransportCtx* c);
  /// A request: a slot of its own while counters last, else the oldest open request's slot, else
  /// the default context (then a quiet completes it too). Never fails.
  TransportRequest* open_request();
  /// Whether `r` is the only request on a slot of its own: closing it needs its operations
  /// complete (on a shared slot others' may still be in flight).
  bool alone_on_slot(const TransportRequest* r);
  /// Releases `r` (and its slot with its last request). The caller checked completion.
  void close_request(TransportRequest* r);

  const ContextCounts& counts() const { return counts_; }

private:
  TransportCtx* share(const std::string& why);
  ContextRecord* share_target();
  void release(ContextRecord* c);
  void erase(ContextRecord* c);
  std::string prefix() const;

  int pe_;
  OnExhaustion policy_;
  CounterSource& source_;
  std::mutex mutex_; ///< a backend of real threads creates and destroys from several at once
  std::unique_ptr<ContextRecord> def_;
  std::vector<std::unique_ptr<ContextRecord>> ctxs_; ///< created contexts and request slots, in creation order
  std::vector<ContextRecord*> req_slots_;            ///< the request slots, oldest first
  int next_id_             = 1;
  std::size_t round_robin_ = 0;                ///< the next created context to share (OnExhaustion::RoundRobin)
  bool noticed_ = false, req_noticed_ = false; ///< the notice line about contexts, about requests, said
  ContextCounts counts_;
};

} // namespace shmemsim::front
