// The report of one run (docs/analysis.md lists its keys): ACK-counter waits, thread interference,
// communication/computation overlap, NIC and link use, resources against limits.
//
// make_report() computes a Report, a typed result with integer picoseconds; report_json() writes
// it as report.json and format_report() as the readable summary, both from the same struct.
#pragma once

#include "analysis/Index.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shmemsim::analysis {

struct ReportOptions {
  int timeline_bins = 20; ///< bins of the overlap timeline over the run
};

/// A count of items and their bytes.
struct Count {
  std::uint64_t n = 0, bytes = 0;
  void add(std::uint64_t b)
  {
    ++n;
    bytes += b;
  }
};

/// Operations: in total and by kind (put, put_nbi, get, ...).
struct OpTally {
  Count all;
  std::map<std::string, Count> by_kind;
  void add(const OpInfo& o);
};

/// The ACK-counter waits of one group (all threads, a thread, a context of a thread).
struct WaitStats {
  struct What {
    std::uint64_t count = 0;
    std::int64_t ps     = 0;
    OpTally waited;
  };
  std::uint64_t count = 0, unfinished = 0;
  std::int64_t ps = 0;
  std::map<std::string, What> by_what;       ///< quiet, fence, put, get, amo, wait_until; barrier, broadcast, reduce
  std::map<std::string, What> by_collective; ///< waits on collectives the NICs run, by `kind@list`
  OpTally waited;                            ///< the operations waited for
  void add(const WaitInfo& w, const std::vector<const OpInfo*>& waited_for);
};

/// hidden / (hidden + exposed), 0 when both are 0.
double overlap_ratio(std::int64_t hidden_ps, std::int64_t exposed_ps);

struct TraceSummary {
  traces::Level level = traces::Level::Ops;
  std::size_t events = 0, pes = 0, threads = 0, operations = 0, messages = 0;
  std::int64_t begin = 0, end = 0;
  std::map<std::string, std::string> meta;
};

/// One PE thread's part of the report.
struct ThreadReport {
  ThreadKey key;
  OpTally operations; ///< issued
  WaitStats waits;
  std::map<int, WaitStats> waits_by_context;             ///< ctx -1: wait_until
  std::int64_t interference_ps = 0;                      ///< suffered
  std::map<int, std::int64_t> interference_by_thread_ps; ///< culprit thread -> suffered from it
  std::int64_t interference_caused_ps = 0;
  struct Overlap {
    std::int64_t communication_ps = 0, compute_ps = 0, wait_ps = 0, hidden_ps = 0, exposed_ps = 0;
    std::vector<std::int64_t> hidden_bins, exposed_bins; ///< on the bins of OverlapReport
  } overlap;
  std::int64_t lock_ps = 0;
};

struct InterferenceReport {
  std::int64_t total_ps = 0;
  /// PE -> victim thread -> culprit thread -> ps, every pair of distinct threads of the PE.
  std::map<int, std::map<int, std::map<int, std::int64_t>>> matrix_ps;
};

struct OverlapReport {
  std::int64_t hidden_ps = 0, exposed_ps = 0;
  int bins           = 1;
  std::int64_t start = 0, bin_width = 1;
  std::vector<std::int64_t> hidden_bins, exposed_bins;
};

struct NicReport {
  int node               = 0;
  std::uint64_t messages = 0, bytes = 0, out_of_order = 0, injected = 0;
  std::map<std::string, Count> by_kind; ///< messages by the NIC's kind
  std::int64_t queued_ps = 0, max_queued_ps = 0;
  double mean_queued_s() const;
};

struct LinkReport {
  int id = 0;
  std::string name;
  std::uint64_t packets = 0, bytes = 0;
  std::optional<double> utilization; ///< unknown without the link bandwidth
  std::int64_t queued_ps = 0, max_queued_ps = 0;
};

struct NetworkReport {
  std::size_t messages = 0;
  std::uint64_t bytes = 0, deliveries = 0, out_of_order = 0, overtaken = 0, depth_max = 0, depth_sum = 0;
  std::int64_t nic_queued_ps = 0, link_queued_ps = 0;
  std::optional<double> link_bandwidth_Bps;
  std::vector<NicReport> nics;   ///< by node
  std::vector<LinkReport> links; ///< by id
  double depth_mean() const;     ///< over the overtaken deliveries
};

struct PeResources {
  int pe = 0, node = 0;
  std::uint64_t created = 0, destroyed = 0, refused = 0, shared = 0, peak_in_use = 0;
  std::map<std::string, std::uint64_t> limit_events;
};

struct ResourcesReport {
  std::optional<double> max_cts, max_mds, max_volatile_size; ///< from the trace's #meta
  std::vector<PeResources> pes;
  std::map<std::string, std::uint64_t> limit_events;
  Count volatile_puts, buffered_puts; ///< the split is known with max_volatile_size only
  /// The limits, in report order: max_cts, max_mds, max_volatile_size.
  std::vector<std::pair<const char*, std::optional<double>>> limits() const;
};

struct Report {
  TraceSummary trace;
  WaitStats waits;
  InterferenceReport interference;
  OverlapReport overlap;
  std::vector<ThreadReport> threads; ///< in ThreadKey order
  NetworkReport network;
  ResourcesReport resources;
};

/// The report of an indexed trace (deterministic: the same trace gives the same report).
Report make_report(const Index& ix, const ReportOptions& opt = {});
/// The report as report.json.
nlohmann::ordered_json report_json(const Report& r);
/// A readable summary of a report, several lines.
std::string format_report(const Report& r);
/// A number from the trace's #meta as JSON: an integer when it is one, null when unknown.
nlohmann::ordered_json meta_value_json(const std::optional<double>& v);

/// Measure of the union of intervals (each [b, e)).
std::int64_t union_length(std::vector<Interval> v);
/// Sorted, merged, non-empty intervals.
std::vector<Interval> merge(std::vector<Interval> v);
/// Intersection of two merged interval lists.
std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b);

} // namespace shmemsim::analysis
