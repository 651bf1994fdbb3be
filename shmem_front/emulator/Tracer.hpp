// One emulated PE's trace (docs/emulator.md, "Traces"): the events of docs/traces.md written as
// they happen to a file of this PE's own (the launcher merges the PEs' files into DIR/trace.evt).
// Dates are real picoseconds from the job-wide epoch (CLOCK_REALTIME at the launcher's start), so
// the PEs' files -- even from several hosts with synchronized clocks -- share one time axis. Each
// file's dates never decrease (taken under the file's lock). Message ids name (initiator, target,
// the pair's request sequence), so the target and the initiator agree on them without sending
// them. Uses only the trace format (traces/Trace.hpp): no simulator.
#pragma once

#include "traces/Trace.hpp"

#include <atomic>
#include <cstdint>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

namespace shmemsim::emulator {

class Tracer {
public:
  /// Opens `path` (truncating it); throws std::runtime_error naming it if it cannot.
  Tracer(const std::string& path, std::uint64_t epoch_ns, int pe, int node);

  /// The id of the message `seq` (the pair's request sequence, from 1) from `src` to `dst`.
  static std::uint64_t message_id(int src, int dst, std::uint64_t seq)
  {
    return (static_cast<std::uint64_t>(src) << 48) | (static_cast<std::uint64_t>(dst) << 32) | seq;
  }

  /// The calling thread's number in this PE: 0 for the one that called set_main_thread(), the
  /// others 1, 2, ... in the order they first record an event.
  int thread();
  void set_main_thread();

  /// An operation issued on context `ctx` (counted on CT `ct` as its `seq`-th); returns its id.
  std::uint64_t op(int ctx, int ct, std::uint64_t seq, const char* kind, std::uint64_t bytes, int target);
  void msg(std::uint64_t id, std::uint64_t op, int dst, const char* kind, std::uint64_t bytes);
  void delivered(std::uint64_t id, bool ooo, std::uint64_t depth);
  void done(std::uint64_t id);
  /// A counter changed: `ct` of this PE now counts `success`.
  void ct(int ct, std::uint64_t success);
  void ctx(int ctx, int ct, CtxEvent what);
  void wait_begin(int ctx, int ct, const char* what, std::uint64_t target);
  void wait_end(std::uint64_t target);
  /// The calling thread computed (ran the program's own code, outside the library) from `begin`
  /// (a date of now_ps()) until now: a `comp` event dated `begin`, written now.
  void compute(std::int64_t begin);
  /// Now, in picoseconds from the job's epoch (the dates of this PE's events).
  std::int64_t now_ps() const;

  /// The CT index a completion counter (an initiator's cookie) stands for.
  void name_counter(const void* counter, int ct);
  int counter_index(std::uint64_t cookie);

  /// Write out what is buffered (the PE's part is over, or it is ending).
  void flush();

private:
  traces::Event event(traces::Type type);
  /// Writes `e` dated now (never before the file's previous date).
  void write(const traces::Event& e);
  /// Now, moved on to the file's latest date (mutex_ held): what events are dated.
  std::int64_t advance_locked();

  std::mutex mutex_;
  std::ofstream out_;
  std::string path_;
  std::uint64_t epoch_ns_;
  int pe_;
  std::int64_t last_ = 0;
  std::uint64_t next_op_ = 1;
  std::atomic<int> next_thread_{1};
  std::map<std::uint64_t, int> counters_;
};

} // namespace shmemsim::emulator
