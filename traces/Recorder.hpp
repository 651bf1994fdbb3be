// The recorders: observers of a run's network, Portals mapping and SHMEM front end (the observer
// interfaces of base/, which both backends publish through) that turn what they report into trace
// events (TraceObserver: one translation for both), then write them. A simulated run has one
// Recorder, which streams DIR/trace.evt in date order through a bounded reorder window and
// derives the other trace files from it (docs/traces.md). An emulated run has one PartRecorder
// per PE process, which writes that PE's events to a file of its own as they are reported, by
// any of its threads; the launcher merges the parts (traces/Merge.hpp, docs/emulator.md).
#pragma once

#include "base/PortalsObserver.hpp"
#include "base/ShmemObserver.hpp"
#include "traces/Trace.hpp"

#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <queue>
#include <set>
#include <string>
#include <vector>

namespace shmemsim::traces {

/// The observer calls as trace events, one per call (docs/traces.md's vocabulary); a recorder
/// decides the ids of operations and messages and where the events go (record()).
class TraceObserver : public PortalsObserver, public ShmemObserver {
public:
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
  void routine_begin(Ps t, int pe, int thr, const char* routine) override;
  void routine_end(Ps t, int pe, int thr) override;

protected:
  /// Takes event `e`; gives an operation (Op) or a message (Msg) its id, and returns it (0 for
  /// other events).
  virtual std::uint64_t record(Event&& e) = 0;
};

/// A run's recorder (the simulator): DIR/trace.evt in date order, streamed.
class Recorder final : public TraceObserver {
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

  /// Numbers operations and messages from 1, moves the event into the window and writes what is final.
  std::uint64_t record(Event&& e) override;
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
  std::uint64_t arrivals_ = 0;
  Ps written_upto_        = 0; ///< the date of the last event written (dates never decrease)
  std::multiset<Ps> open_;     ///< starts of the intervals under way (interval_open)
  std::function<Ps()> clock_;
  std::uint64_t next_msg_ = 1;
  std::uint64_t next_op_  = 1;
};

/// One process's part of a trace recorded apart (an emulated PE, level ops): its events written to
/// `path` as they are reported, by any of the process's threads (one lock), never held; merged
/// with the other parts by date afterwards (traces::merge_traces). Dates are those the callers
/// pass, moved on to the part's latest one (a step back of the clock is flattened), except
/// `comp`'s, dated at their start and reported at their end (the merge sorts). Ids are the PE's
/// own: operations (pe + 1) * 2^40 + 1, 2, ...; messages pair_message_id(pe, target, k) for the
/// k-th message to a target, which is how the target's part names their deliveries.
class PartRecorder final : public TraceObserver {
public:
  /// Opens `path` (truncating it) with the header and PE `pe`'s `pe` line (its node `node`);
  /// throws std::runtime_error naming it if it cannot.
  PartRecorder(const std::string& path, int pe, int node);
  /// Writes out what is buffered (the PE's part is over, or it is ending); throws
  /// std::runtime_error naming the file if it cannot.
  void flush();

private:
  std::uint64_t record(Event&& e) override;

  std::mutex mutex_;
  std::ofstream out_;
  std::string path_;
  int pe_;
  Ps last_               = 0; ///< the latest date written
  std::uint64_t next_op_ = 1;
  std::vector<std::uint64_t> sent_; ///< by target: messages issued to it
};

} // namespace shmemsim::traces
