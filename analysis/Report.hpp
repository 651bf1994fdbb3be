// The report of one run (docs/analysis.md lists its keys): ACK-counter waits, thread interference,
// communication/computation overlap, NIC and link use, resources against limits.
#pragma once

#include "analysis/Index.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace shmemsim::analysis {

struct ReportOptions {
  int timeline_bins = 20; ///< bins of the overlap timeline over the run
};

/// The report as JSON (deterministic: the same trace gives the same document).
nlohmann::ordered_json make_report(const Index& ix, const ReportOptions& opt = {});
/// A readable summary of a report, several lines.
std::string format_report(const nlohmann::ordered_json& report);

/// Measure of the union of intervals (each [b, e)).
std::int64_t union_length(std::vector<Interval> v);
/// Sorted, merged, non-empty intervals.
std::vector<Interval> merge(std::vector<Interval> v);
/// Intersection of two merged interval lists.
std::vector<Interval> intersect(const std::vector<Interval>& a, const std::vector<Interval>& b);

} // namespace shmemsim::analysis
