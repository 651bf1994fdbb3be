// Paje trace of a trace (the textual format pajeng and ViTE read): containers Node > PE > Thread
// and Node > NIC; thread states compute / wait / lock; links for messages (issuing thread -> target
// PE) and their ACKs; variables for CT values, outstanding operations and NIC queues. Dates in
// seconds, printed from integer picoseconds (byte-identical for the same trace).
#pragma once

#include "traces/Trace.hpp"

#include <iosfwd>

namespace shmemsim::traces {

void write_paje(const Trace& tr, std::ostream& out);
/// The same from any source of events, in two passes (containers and end date, then events):
/// timed lines wait in a window only until no earlier one can come (the earliest open wait).
void write_paje(const EventSource& events, std::ostream& out);

} // namespace shmemsim::traces
