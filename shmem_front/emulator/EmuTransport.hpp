// The transport seam over the emulator's software NIC (docs/emulator.md): the simulator's Portals
// mapping (shmem_front/transport/PortalsTransport) with real messages. Per context a counter of
// completions (the CT: ACKs and REPLYs) and of issued operations, lean (one pair) or split (puts
// and gets apart); quiet and blocking operations wait until the CT equals the issued count, re-read
// after every wake (the issued-count rule: with threads sharing the context, their own operation
// is complete then, whoever else issued meanwhile); small puts (up to
// max_volatile_size) complete at issue; fence is a quiet unless total data ordering holds.
// Which counters a context or a request uses, and what happens beyond max_cts / max_mds
// (job.contexts.on_exhaustion), is the library's (the PE's ContextTable,
// shmem_front/lib/ContextTable.hpp), as in the simulator: this transport acquires and releases
// counters for it as the PE's CounterSource.
#pragma once

#include "base/ShmemObserver.hpp"
#include "shmem_front/emulator/Config.hpp"
#include "shmem_front/emulator/Nic.hpp"
#include "shmem_front/lib/Seams.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shmemsim::emulator {

class EmuTransport final : public front::Transport, private front::CounterSource {
public:
  /// Throws std::runtime_error if the limits cannot hold the default context.
  EmuTransport(const Config& cfg, Nic& nic, std::function<void(const std::string&)> fatal);
  ~EmuTransport() override;

  /// Report operations, contexts and waits to `obs` (null: nobody), as the Portals transport
  /// does; `current_thread` tells which thread of this PE is calling (0: its main thread). CT
  /// numbers: 0 this PE's memory (updates), then per context or request slot with counters of its
  /// own (id k) k+1, or in the split mapping 2k+1 (and 2k+2 for a context's gets); the NIC is
  /// told them (Nic::name_counter) for its counters' events.
  void set_observer(ShmemObserver* obs, std::function<int()> current_thread);

  /// This PE's counters: the default context's (acquired at construction), then per context or
  /// request slot while max_cts and max_mds allow.
  front::CounterSource& counter_source() override;
  void put(front::TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void get(front::TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void amo(front::TransportCtx* ctx, front::AmoOp op, front::AmoType t, void* dest, const void* value, int pe) override;
  void fetch_amo(front::TransportCtx* ctx, front::AmoOp op, front::AmoType t, void* dest, const void* value,
                 const void* cond, void* result, int pe, bool blocking) override;
  void quiet(front::TransportCtx* ctx) override;
  void fence(front::TransportCtx* ctx) override;
  std::uint64_t updates() override;
  void wait_for_update(std::uint64_t seen, const char* call) override;
  /// A waiting routine's note (WaitNote) is made at each short wait and kept while it waits, for
  /// the heartbeats (wait_note).
  void wait_for_update_on(std::uint64_t seen, const char* call, const void* what,
                          const front::WaitNote* note = nullptr) override;
  /// The signal is an AMO marked kSignalOp: the target's NIC records it in its signal journal.
  void signal(front::TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe) override;
  front::SignalJournal* signal_journal() override;
  /// The note of the wait in progress, empty if none (any thread).
  std::string wait_note();
  /// Requests (seed 003), as the Portals transport keeps them: a request slot is a CT + issued
  /// counter (one CT and one MD of the limits, puts and gets counted together whatever the
  /// mapping). request_test reads the counter without blocking.
  bool request_test(front::TransportCtx* slot) override;
  void request_wait(front::TransportCtx* slot, const char* call) override;

private:
  struct Ctrs;
  static Ctrs* ctrs(const front::TransportCtx* ctx);
  // CounterSource (called by the PE's ContextTable, under its lock)
  front::Counters* default_counters() override;
  front::Counters* acquire(front::CounterUse use, int id, std::string* limit) override;
  void release(front::Counters* c) override;
  void ctx_event(int id, const front::Counters* c, CtxEvent what) override;
  void notice(const std::string& line) override;

  Header request(MsgType type, const void* addr, std::size_t n);
  /// A non-fetching AMO (`signal`: marked as a collective's signal).
  void send_amo(front::TransportCtx* ctx, front::AmoOp op, front::AmoType t, void* dest, const void* value, int pe,
                bool signal);
  void wait(Ctrs* c, bool gets_only, const char* what);
  /// The trace's number of `c`'s CT (`gets`: its get counter in the split mapping).
  int ct_index(const Ctrs* c, bool gets) const;
  void name_counters(const Ctrs* c);
  /// Count an operation about to be issued on `ctx` (on `c`'s issued count) and report it; returns
  /// its id in the trace (0: no observer).
  std::uint64_t issue(const front::TransportCtx* ctx, Ctrs* c, bool get_side, const char* kind, std::uint64_t bytes,
                      int target);
  /// Whether every operation issued on `c` is complete (never blocks).
  bool reached(const Ctrs* c) const;

  Config cfg_;
  Nic& nic_;
  std::function<void(const std::string&)> fatal_;
  std::vector<std::unique_ptr<Ctrs>> ctrs_; ///< the counters acquired (the default context's first)
  Ctrs* default_ = nullptr;                 ///< the default context's
  int cts_used_ = 0, mds_used_ = 0;
  ShmemObserver* obs_ = nullptr;
  std::function<int()> current_thread_;
  std::mutex note_mutex_;
  std::string wait_note_;
};

} // namespace shmemsim::emulator
