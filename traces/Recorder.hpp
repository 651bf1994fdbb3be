// The recorder: an observer of the models (network and Portals) and of the SHMEM front end that
// turns what they report into trace events and streams them to the run's trace.evt in date order
// through a bounded reorder window, then derives the other trace files from it (docs/traces.md).
#pragma once

#include "shmem_front/lib/ShmemObserver.hpp"
#include "sim/portals_model/PortalsObserver.hpp"
#include "traces/Trace.hpp"

#include <fstream>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <vector>

namespace shmemsim::traces {

class Recorder final : public portals::PortalsObserver, public front::ShmemObserver {
public:
  /// Records at `level` into DIR/trace.evt, written as the run goes (the directory is created;
  /// throws std::runtime_error naming the file if it cannot be written).
  Recorder(Level level, const std::string& dir);

  Level level() const { return level_; }
  /// Header values (scenario, program, seed, limits...): only before the first event is written.
  void meta(const std::string& key, const std::string& value);
  /// Endpoint `pe` runs on `node` (only before the first event is written).
  void pe(int pe, int node);
  /// A fabric link (recorded at level packets only; only before the first event is written).
  void link(int id, const std::string& name);
  /// The simulated time now: events dated up to min(now, the earliest open interval) are final
  /// and written out. Without a clock every event stays in memory until finish().
  void set_clock(std::function<Ps()> now) { clock_ = std::move(now); }

  /// Writes the events still held and closes DIR/trace.evt; returns its path.
  std::string finish();
  /// finish(), then DIR/trace.json (Perfetto) and DIR/trace.paje made from trace.evt; returns the
  /// files written (trace.evt first).
  std::vector<std::string> write();

  /// Events held in memory now, and at most during the run (the reorder window).
  std::size_t held() const { return window_.size(); }

  std::uint64_t msg_issued(Ps t, const char* kind, int src_ep, int dst_ep, std::uint64_t bytes,
                           std::uint64_t op) override;
  void msg_injected(Ps t, std::uint64_t msg) override;
  void packet_hop(Ps t, std::uint64_t msg, int link, Ps queued, std::uint32_t bytes) override;
  void msg_delivered(Ps t, std::uint64_t msg, bool out_of_order, std::uint64_t depth) override;
  void msg_done(Ps t, std::uint64_t msg) override;
  void ct_changed(Ps t, int ep, int ct, std::uint64_t success, std::uint64_t failure) override;
  void limit_hit(Ps t, int ep, const char* what) override;
  std::uint64_t op_issued(Ps t, int pe, int thr, int ctx, int ct, std::uint64_t seq, const char* kind,
                          std::uint64_t bytes, int target) override;
  void ctx_event(Ps t, int pe, int thr, int ctx, int ct, CtxEvent what) override;
  void wait_begin(Ps t, int pe, int thr, int ctx, int ct, const char* what, std::uint64_t target) override;
  void wait_end(Ps t, int pe, int thr, std::uint64_t target) override;
  void compute(Ps t, Ps dur, int pe, int thr) override;
  void lock(Ps t, Ps dur, int pe, int thr) override;
  void interval_open(Ps t) override;
  void interval_closed(Ps t) override;

private:
  /// An event waiting in the reorder window; `seq` is its arrival rank (ties keep report order).
  struct Held {
    Event e;
    std::uint64_t seq;
  };
  struct Later {
    bool operator()(const Held& a, const Held& b) const { return a.e.t != b.e.t ? a.e.t > b.e.t : a.seq > b.seq; }
  };

  Event& add(Type type, Ps t);
  /// An event of thread `thr` of PE `pe`.
  Event& add(Type type, Ps t, int pe, int thr);
  /// Moves the event built by add() into the window and writes what is final.
  void commit();
  /// Writes the window's events dated up to `upto`, in (date, arrival) order.
  void flush(Ps upto);
  void write_head();
  std::string part() const { return path_ + ".part"; }

  Level level_;
  std::string path_; ///< DIR/trace.evt (written as DIR/trace.evt.part until finish())
  std::ofstream out_;
  std::map<std::string, std::string> meta_;
  std::vector<Event> head_; ///< pe and link lines (no date), written first
  bool head_written_ = false;
  bool finished_     = false;
  std::priority_queue<Held, std::vector<Held>, Later> window_;
  Event building_;                 ///< the event add() returned, until commit()
  bool building_live_ = false;
  std::uint64_t arrivals_ = 0;
  Ps written_upto_   = 0;     ///< the date of the last event written (dates never decrease)
  std::multiset<Ps> open_;    ///< starts of the intervals under way (interval_open)
  std::function<Ps()> clock_;
  std::uint64_t next_msg_ = 1;
  std::uint64_t next_op_  = 1;
};

} // namespace shmemsim::traces
