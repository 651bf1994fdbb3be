// The recorder: an observer of the models (network and Portals) and of the SHMEM front end that keeps what they report as trace events, and
// writes the trace files of a run (docs/traces.md).
#pragma once

#include "shmem_front/lib/ShmemObserver.hpp"
#include "sim/portals_model/PortalsObserver.hpp"
#include "traces/Trace.hpp"

#include <string>
#include <vector>

namespace shmemsim::traces {

class Recorder final : public portals::PortalsObserver, public front::ShmemObserver {
public:
  explicit Recorder(Level level);

  Level level() const { return trace_.level; }
  /// Header values (scenario, program, seed, limits...).
  void meta(const std::string& key, const std::string& value) { trace_.meta[key] = value; }
  /// Endpoint `pe` runs on `node`.
  void pe(int pe, int node);
  /// A fabric link (recorded at level packets only).
  void link(int id, const std::string& name);

  /// The trace so far, events sorted by date (stable: same-date events keep their order).
  const Trace& finish();
  /// Write DIR/trace.evt, DIR/trace.json (Perfetto) and DIR/trace.paje; returns the files written.
  std::vector<std::string> write(const std::string& dir);

  std::uint64_t msg_issued(sim::Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes) override;
  void msg_injected(sim::Ps t, std::uint64_t msg) override;
  void packet_hop(sim::Ps t, std::uint64_t msg, int link, sim::Ps queued, std::uint32_t bytes) override;
  void msg_delivered(sim::Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth) override;
  void msg_done(sim::Ps t, std::uint64_t msg) override;
  void ct_changed(sim::Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure) override;
  void limit_hit(sim::Ps t, int ep, const char* what) override;
  void op_issued(sim::Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind, std::uint64_t bytes,
                 int target) override;
  void ctx_event(sim::Ps t, int pe, int thr, int ctx, int ct, front::CtxEvent what) override;
  void wait_begin(sim::Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target) override;
  void wait_end(sim::Ps t, int pe, int thr, std::uint64_t target) override;
  void compute(sim::Ps t, sim::Ps dur, int pe, int thr) override;
  void lock(sim::Ps t, sim::Ps dur, int pe, int thr) override;

private:
  Event& add(Type type, sim::Ps t);
  /// An event of thread `thr` of PE `pe`.
  Event& add(Type type, sim::Ps t, int pe, int thr);

  Trace trace_;
  std::vector<Event> head_; ///< pe and link lines (no date)
  std::vector<std::uint64_t> pending_op_; ///< per endpoint: the operation its next messages belong to
  std::uint64_t next_msg_ = 1;
  std::uint64_t next_op_  = 1;
  bool sorted_            = false;
};

} // namespace shmemsim::traces
