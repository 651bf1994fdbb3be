// The trace: what a run recorded, as a list of events in the compact text format the analysis
// reads (docs/traces.md has the format, one line per event). This header knows the format only:
// it links neither the simulator nor SimGrid, so `analysis` can use it alone.
#pragma once

#include "base/CtxEvent.hpp" // the words of `ctx` events

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace shmemsim::traces {

/// Detail recorded: ops (operations, messages, counters, waits, compute) or also every packet hop.
enum class Level : std::uint8_t { Off, Ops, Packets };
const char* to_string(Level l);
/// "off", "ops" or "packets"; false if `s` is none of them.
bool parse_level(const std::string& s, Level* out);

/// Event types, one per line tag of the compact format.
enum class Type : std::uint8_t {
  Pe,    ///< pe node                          an endpoint (PE) and its node
  Link,  ///< id name                          a fabric link (packets level)
  Ctx,   ///< t pe thr ctx ct what             context created/destroyed/refused/shared (CtxEvent)
  Op,    ///< t id pe thr ctx ct seq kind bytes target   an operation issued by a PE thread
  Msg,   ///< t id op src dst kind bytes       a network message (op 0: not from a PE's call)
  Inj,   ///< t msg                            its first packet leaves the initiator NIC
  Hop,   ///< t msg link queued bytes          a packet enters a link after queueing (packets level)
  Dlv,   ///< t msg ooo depth                  delivered at the target (out of order?, reorder depth)
  Done,  ///< t msg                            its ACK or reply is visible at the initiator
  Ct,    ///< t pe ct success failure          a counting event changed
  Wait,  ///< t pe thr ctx ct what target      a thread starts waiting until the CT reaches target
  Wend,  ///< t pe thr target                  that wait ends (target: the final one, re-read)
  Comp,  ///< t pe thr dur                     computation from t, dur long (as the cores ran it)
  Lock,  ///< t pe thr dur                     waiting for shared cache lines, or for and in a library lock
  Limit, ///< t pe what                        a resource limit was hit (ct, md, le)
  Call,  ///< t pe thr what                    a thread enters a SHMEM routine (what: its name)
  Ret,   ///< t pe thr                         it returns from that routine
};
const char* tag(Type t);

// A `ctx` event's `what` is the word of a CtxEvent (base/CtxEvent.hpp: to_string, parse_ctx_event).

/// One event. Which fields a type uses is listed above (and in docs/traces.md); the others stay
/// at their defaults. Dates and durations are integer picoseconds of simulated time.
struct Event {
  Type type        = Type::Op;
  std::int64_t t   = 0;
  std::uint64_t id = 0;                   ///< op id (Op), message id (Msg, Inj, Hop, Dlv, Done), link id (Link)
  std::uint64_t op = 0;                   ///< Msg: the operation it belongs to (0: none)
  int pe           = -1;                  ///< Pe, Ctx, Op, Ct, Wait, Wend, Comp, Lock, Limit, Call, Ret
  int thr          = -1;                  ///< the PE's thread (0: its main thread)
  int ctx          = -1;                  ///< the PE's context (0: the default one; -1: none, e.g. wait_until)
  int ct           = -1;                  ///< counting event of the PE's NI
  int node         = -1;                  ///< Pe
  int src = -1, dst = -1;                 ///< Msg endpoints
  int link              = -1;             ///< Hop
  std::uint64_t seq     = 0;              ///< Op: the CT's issued count once this op is counted
  std::uint64_t bytes   = 0;              ///< Op, Msg, Hop
  int target_pe         = -1;             ///< Op
  std::uint64_t target  = 0;              ///< Wait, Wend: the count waited for
  std::uint64_t success = 0, failure = 0; ///< Ct
  bool ooo            = false;            ///< Dlv: delivered before an earlier-issued message of the same pair
  std::uint64_t depth = 0;                ///< Dlv: later-issued messages of the pair delivered before it
  std::int64_t queued = 0;                ///< Hop: time the packet queued for the link
  std::int64_t dur    = 0;                ///< Comp, Lock
  std::string what;                       ///< Ctx, Op (kind), Msg (kind), Link (name), Wait, Limit, Call (routine)
};

/// A whole trace: header values and events in the order recorded (dates never decrease).
struct Trace {
  Level level = Level::Ops;
  std::map<std::string, std::string> meta; ///< scenario, program, seed, pes, ...
  std::vector<Event> events;
};

/// Writes one event as a line (with its newline).
void write_event(std::ostream& out, const Event& e);
/// Writes the header lines (format version, level, meta).
void write_header(std::ostream& out, Level level, const std::map<std::string, std::string>& meta);
/// Whether a reader requires dates that never decrease (every trace a run leaves: the analysis
/// relies on it), or takes them in any order (an emulated PE's own part, whose `comp` lines are
/// dated at their start and written at their end: the merge sorts the parts).
enum class DateOrder : std::uint8_t { NonDecreasing, Any };

/// Parses a compact trace; throws std::runtime_error("FILE:LINE: what is wrong") on bad input.
Trace read_trace(std::istream& in, const std::string& name, DateOrder order = DateOrder::NonDecreasing);
Trace read_trace_file(const std::string& path, DateOrder order = DateOrder::NonDecreasing);

/// Reads a compact trace one event at a time (memory independent of its length): the header
/// values (level, meta) as they are met, which is before the first event in the files the
/// recorder writes. Same checks and messages as read_trace.
class TraceReader {
public:
  TraceReader(std::istream& in, std::string name, DateOrder order = DateOrder::NonDecreasing)
      : in_(in), name_(std::move(name)), order_(order)
  {
  }
  /// The next event; false at the end of the input (throws if it was not a trace at all).
  bool next(Event& e);
  Level level() const { return level_; }
  const std::map<std::string, std::string>& meta() const { return meta_; }

private:
  std::istream& in_;
  std::string name_;
  DateOrder order_;
  Level level_ = Level::Ops;
  std::map<std::string, std::string> meta_;
  long lineno_       = 0;
  bool header_       = false;
  bool dated_        = false; ///< an event with a date was read
  std::int64_t last_ = 0;     ///< its date
};

/// Calls `f(event)` on every event of the compact trace file `path`, in order; returns the
/// header values read (the level and meta of a Trace whose events are left empty).
Trace for_each_event(const std::string& path, const std::function<void(const Event&)>& f);

/// Where a writer takes a trace's events from, in order, as often as it needs (one pass each
/// call): calls the function on each event and returns the header values (level, meta; no
/// events). A file read again per pass (events_of_file) or a Trace in memory (events_of).
using EventSource = std::function<Trace(const std::function<void(const Event&)>&)>;
EventSource events_of(const Trace& tr);
EventSource events_of_file(const std::string& path);

/// The node of PE `pe` by the trace's `pe` lines (`pe_node`: PE -> node); the PE itself if they
/// do not say.
int node_of(const std::map<int, int>& pe_node, int pe);

/// The endpoints of a trace, for the views laid out by PE (Perfetto, Paje): each PE's node (its
/// `pe` line) and threads (those its events name; none for a PE that only sends or receives).
struct Endpoints {
  std::map<int, int> pe_node;
  std::map<int, std::set<int>> threads; ///< by PE: every PE of a `pe` line or a message
  int node(int pe) const { return node_of(pe_node, pe); }
  /// Takes in what event `e` says of the endpoints.
  void see(const Event& e);
};

/// `ps` divided by 10^digits, printed exactly with `digits` decimals (locale-free, so files are
/// byte-identical across runs): digits 12 gives seconds, 6 microseconds.
std::string ps_fixed(std::int64_t ps, int digits);

/// The compact trace's file name inside an output directory.
inline constexpr const char* kCompactName = "trace.evt";

} // namespace shmemsim::traces
