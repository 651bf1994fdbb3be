// The trace, indexed for analysis: operations with their messages and completion dates, waits
// paired with their ends, compute and lock intervals per PE thread. Built once from a Trace; the
// report, the diagram and the plots read it.
#pragma once

#include "traces/Trace.hpp"

#include <compare>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace shmemsim::analysis {

/// A PE thread.
struct ThreadKey {
  int pe                                   = 0;
  int thr                                  = 0;
  auto operator<=>(const ThreadKey&) const = default;
};
std::string label(const ThreadKey& k); ///< "PE p / thread t"

/// A half-open date interval [b, e) in picoseconds.
struct Interval {
  std::int64_t b = 0, e = 0;
  std::int64_t length() const { return e > b ? e - b : 0; }
};

struct OpInfo {
  std::uint64_t id   = 0;
  std::int64_t issue = 0;
  int pe = 0, thr = 0, ctx = 0, ct = -1;
  std::uint64_t seq = 0;
  std::string kind;
  std::uint64_t bytes = 0;
  int target_pe       = -1;
  std::vector<std::uint64_t> msgs;
  std::int64_t delivered = -1; ///< latest delivery of its messages (-1: none seen)
  std::int64_t completed = -1; ///< latest `done` of its messages (-1: none seen)
  ThreadKey thread() const { return {pe, thr}; }
};

struct MsgInfo {
  std::uint64_t id = 0, op = 0;
  std::int64_t t = 0, inj = -1, dlv = -1, done = -1;
  int src = -1, dst = -1;
  std::string kind;
  std::uint64_t bytes = 0;
  bool ooo            = false;
  std::uint64_t depth = 0;
};

struct WaitInfo {
  int pe = 0, thr = 0, ctx = -1, ct = -1;
  std::string what;
  std::uint64_t first_target = 0; ///< from `wait`
  std::uint64_t target       = 0; ///< final, from `wend`
  std::int64_t begin = 0, end = 0;
  bool unfinished = false; ///< no `wend`: closed at the end of the trace
  ThreadKey thread() const { return {pe, thr}; }
  /// A wait on a collective the NICs run (`what` is `kind@list`, docs/traces.md).
  bool offloaded() const { return what.find('@') != std::string::npos; }
  /// `what`, without an offloaded collective's list: quiet, ..., barrier, broadcast, reduce.
  std::string kind() const { return what.substr(0, what.find('@')); }
};

/// A SHMEM routine a thread was in: from its `call` to its `ret` (the outermost library call).
struct RoutineInfo {
  int pe = 0, thr = 0;
  std::string name;
  std::int64_t begin = 0, end = 0;
  bool unfinished = false; ///< no `ret`: closed at the end of the trace
  ThreadKey thread() const { return {pe, thr}; }
};

struct HopInfo {
  std::int64_t t = 0, queued = 0;
  std::uint64_t msg = 0, bytes = 0;
  int link = -1;
};

struct Index {
  const traces::Trace* trace = nullptr;
  std::map<int, int> pe_node;                 ///< PE -> node
  std::map<std::uint64_t, std::string> links; ///< link id -> name
  std::map<std::uint64_t, OpInfo> ops;        ///< by id
  std::vector<std::uint64_t> op_order;        ///< op ids in issue order
  std::map<std::uint64_t, MsgInfo> msgs;      ///< by id
  std::vector<WaitInfo> waits;                ///< in begin order
  std::vector<RoutineInfo> routines;          ///< in begin order (traces without `call` lines: none)
  std::vector<HopInfo> hops;
  std::map<ThreadKey, std::vector<Interval>> comps, locks;
  std::set<ThreadKey> threads;         ///< every PE thread that appears
  std::int64_t t_begin = 0, t_end = 0; ///< first and last dates (incl. interval ends)

  /// The node of a PE (the PE itself if the trace did not say).
  int node_of(int pe) const;
  /// The operations a wait waited for: same PE, same CT, seq <= final target, completed after the
  /// wait began. In issue order.
  std::vector<const OpInfo*> waited_for(const WaitInfo& w) const;

  // Per (pe, ct): op ids in seq order, and the longest issue-to-completion time (to bound scans).
  std::map<std::pair<int, int>, std::vector<std::uint64_t>> by_ct;
  std::map<std::pair<int, int>, std::int64_t> max_latency;
  /// Per (pe, ct), in seq order: the latest issue date among the ops up to this one (seq order
  /// and issue order may differ when threads race between counting and issuing).
  std::map<std::pair<int, int>, std::vector<std::int64_t>> issue_prefix_max;
};

/// Indexes a trace (kept by pointer: it must outlive the index). Events naming unknown messages or
/// operations are ignored; waits without an end are closed at the end of the trace.
Index build_index(const traces::Trace& tr);

/// Parses a time with its unit ("10us", "1.5ms", "200ns", "3ps", "2s": base's parse_time) into
/// picoseconds; false for anything else, a bare number included (one rule for every time given).
bool parse_time(const std::string& s, std::int64_t* ps);
/// A readable duration: "12.5 us", "3 ms".
std::string human_time(double seconds);
/// Picoseconds to seconds.
inline double seconds(std::int64_t ps)
{
  return static_cast<double>(ps) * 1e-12;
}

} // namespace shmemsim::analysis
