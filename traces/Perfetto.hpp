// Chrome trace-event JSON of a trace, for Perfetto (ui.perfetto.dev) and chrome://tracing:
// a process per PE (a track per thread, plus "incoming" for deliveries), a process per NIC
// (queueing and in-flight messages), a "fabric" process with a track per link (level packets),
// flow arrows issue -> delivery -> ACK, counter tracks for CT values and outstanding operations.
// Timestamps are microseconds printed from integer picoseconds: the output is byte-identical for
// the same trace.
#pragma once

#include "traces/Trace.hpp"

#include <iosfwd>

namespace shmemsim::traces {

void write_perfetto(const Trace& tr, std::ostream& out);
/// The same from any source of events, in two passes (tracks, then events): the memory it needs
/// is the tracks and the operations and messages under way, not the trace.
void write_perfetto(const EventSource& events, std::ostream& out);

/// Perfetto pids of the non-PE processes (PE p has pid p).
inline constexpr int kPerfettoNicPid    = 1000000; ///< + node
inline constexpr int kPerfettoFabricPid = 2000000;
/// The tid of a PE's "incoming" track (deliveries at that PE).
inline constexpr int kPerfettoIncomingTid = 1000000;

} // namespace shmemsim::traces
