// Merging traces recorded apart (the emulator's PEs each write their own file, docs/emulator.md):
// one trace whose events are sorted by date, stable (same-date events keep the order of the parts
// and, within a part, their own), written as the simulator writes a run's trace: DIR/trace.evt,
// trace.json (Perfetto) and trace.paje. Knows the format only (no simulator).
#pragma once

#include "traces/Trace.hpp"

#include <map>
#include <string>
#include <vector>

namespace shmemsim::traces {

/// The events of `parts` (compact traces, read in that order, their dates in any order) as one trace with header values
/// `meta`: `pe` lines first, then the events by date. Clocks of different processes or hosts may
/// disagree slightly, so a message's delivery is dated no earlier than its issue and its
/// completion no earlier than its delivery, and at one date issue, delivery and completion keep
/// that order. A part that does not exist is skipped and named in `missing` (if given); a bad
/// part throws std::runtime_error naming it.
Trace merge_traces(const std::vector<std::string>& parts, const std::map<std::string, std::string>& meta,
                   std::vector<std::string>* missing = nullptr);

/// Cut the file at `path` after its last complete line (a process killed while writing leaves a
/// partial one). A file that does not exist is left alone.
void trim_partial_line(const std::string& path);

/// Write `tr` to DIR/trace.evt, DIR/trace.json (Perfetto) and DIR/trace.paje; returns the files
/// written, in that order. Throws std::runtime_error naming a file it cannot write.
std::vector<std::string> write_trace_files(const Trace& tr, const std::string& dir);

} // namespace shmemsim::traces
