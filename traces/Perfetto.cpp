#include "traces/Perfetto.hpp"
#include "traces/Lifecycle.hpp"

#include <cstdio>
#include <map>
#include <ostream>
#include <set>
#include <string>

namespace shmemsim::traces {

namespace {

/// Microseconds with 6 decimals from integer picoseconds.
std::string us(std::int64_t ps)
{
  return ps_fixed(ps, 6);
}

std::string str(const std::string& s)
{
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += c;
    }
  }
  return o + "\"";
}

/// The trace-event writer: one JSON object per call, comma-separated.
struct Writer {
  std::ostream& out;
  bool first = true;
  void event(const std::string& body)
  {
    out << (first ? "\n" : ",\n") << '{' << body << '}';
    first = false;
  }
  void meta(int pid, int tid, const char* what, const std::string& name)
  {
    std::string b = "\"ph\":\"M\",\"pid\":" + std::to_string(pid);
    if (tid >= 0)
      b += ",\"tid\":" + std::to_string(tid);
    event(b + ",\"name\":\"" + what + "\",\"args\":{\"name\":" + str(name) + "}");
  }
  void sort_index(int pid, int index)
  {
    event("\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
          ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + std::to_string(index) + "}");
  }
  void slice(int pid, int tid, std::int64_t t, std::int64_t dur, const std::string& cat, const std::string& name,
             const std::string& args)
  {
    event("\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + us(t) +
          ",\"dur\":" + us(dur) + ",\"cat\":" + str(cat) + ",\"name\":" + str(name) + ",\"args\":{" + args + "}");
  }
  void flow(char ph, std::uint64_t id, int pid, int tid, std::int64_t t, const std::string& name)
  {
    event(std::string("\"ph\":\"") + ph + "\",\"id\":" + std::to_string(id) + ",\"pid\":" + std::to_string(pid) +
          ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + us(t) + ",\"cat\":\"flow\",\"name\":" + str(name) +
          (ph == 'f' ? ",\"bp\":\"e\"" : ""));
  }
  /// A nestable async slice on a NIC: `flight` false for the queueing of message `msg`, true for
  /// its flight (distinct numeric ids: 2 msg and 2 msg + 1).
  void async(char ph, std::uint64_t msg, bool flight, int pid, std::int64_t t, const std::string& name)
  {
    event(std::string("\"ph\":\"") + ph + "\",\"cat\":\"" + (flight ? "in_flight" : "queued") +
          "\",\"id\":" + std::to_string(2 * msg + (flight ? 1 : 0)) + ",\"pid\":" + std::to_string(pid) +
          ",\"tid\":0,\"ts\":" + us(t) + ",\"name\":" + str(name));
  }
  void counter(int pid, std::int64_t t, const std::string& name, const std::string& args)
  {
    event("\"ph\":\"C\",\"pid\":" + std::to_string(pid) + ",\"ts\":" + us(t) + ",\"name\":" + str(name) +
          ",\"args\":{" + args + "}");
  }
  void instant(int pid, int tid, std::int64_t t, const std::string& name, const std::string& args)
  {
    event("\"ph\":\"i\",\"s\":\"t\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
          ",\"ts\":" + us(t) + ",\"name\":" + str(name) + ",\"args\":{" + args + "}");
  }
};

std::string kv(const char* k, long long v)
{
  return std::string("\"") + k + "\":" + std::to_string(v);
}
std::string kvu(const char* k, unsigned long long v)
{
  return std::string("\"") + k + "\":" + std::to_string(v);
}

/// The "otherData" object: the trace's #meta values.
void write_other_data(const Trace& header, std::ostream& out)
{
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{";
  bool first = true;
  for (const auto& [k, v] : header.meta) {
    out << (first ? "" : ",") << str(k) << ':' << str(v);
    first = false;
  }
  out << "},";
}

/// The processes and tracks: every PE and its threads, every NIC, every link.
struct Tracks : Endpoints {
  std::set<int> nodes; ///< of the PEs' `pe` lines and of the messages' initiators
  std::map<std::uint64_t, std::string> links;
  int nic_of(int pe) const { return node(pe); }
};

/// The tracks (first pass over the events); `header` gets the trace's level and meta.
Tracks collect_tracks(const EventSource& events, Trace* header)
{
  Tracks k;
  std::set<int> initiators;
  *header = events([&](const Event& e) {
    k.see(e);
    if (e.type == Type::Pe)
      k.nodes.insert(e.node);
    else if (e.type == Type::Link)
      k.links[e.id] = e.what;
    else if (e.type == Type::Msg)
      initiators.insert(e.src);
  });
  for (int pe : initiators) // once every `pe` line is known
    k.nodes.insert(k.nic_of(pe));
  return k;
}

/// Names and orders the processes and tracks.
void declare_tracks(Writer& w, const Tracks& k)
{
  for (const auto& [pe, thrs] : k.threads) {
    w.meta(pe, -1, "process_name", "PE " + std::to_string(pe));
    w.sort_index(pe, pe);
    for (int t : thrs)
      w.meta(pe, t, "thread_name", "thread " + std::to_string(t));
    w.meta(pe, kPerfettoIncomingTid, "thread_name", "incoming (deliveries)");
  }
  for (int n : k.nodes) {
    w.meta(kPerfettoNicPid + n, -1, "process_name", "NIC of node " + std::to_string(n));
    w.sort_index(kPerfettoNicPid + n, kPerfettoNicPid + n);
  }
  if (!k.links.empty()) {
    w.meta(kPerfettoFabricPid, -1, "process_name", "fabric links");
    w.sort_index(kPerfettoFabricPid, kPerfettoFabricPid);
    for (const auto& [id, name] : k.links)
      w.meta(kPerfettoFabricPid, static_cast<int>(id), "thread_name", name);
  }
}

/// Turns the trace's events, in order, into slices, flows and counters on the tracks.
class EventWriter : public LifecycleWalk {
public:
  EventWriter(Writer& w, const Tracks& tracks) : LifecycleWalk(tracks), w_(w), tracks_(tracks) {}

private:
  void outstanding_counter(int pe, int thr, std::int64_t t)
  {
    w_.counter(pe, t, "outstanding ops, thread " + std::to_string(thr), kv("ops", lifecycle().outstanding(pe, thr)));
  }
  void nic_counters(int node, std::int64_t t)
  {
    w_.counter(kPerfettoNicPid + node, t, "messages",
               kv("queued", lifecycle().queued(node)) + "," + kv("in_flight", lifecycle().in_flight(node)));
  }

  void ctx(const Event& e) override
  {
    w_.instant(e.pe, e.thr < 0 ? 0 : e.thr, e.t, "context " + e.what, kv("ctx", e.ctx) + "," + kv("ct", e.ct));
  }

  void issued(const Event& e) override
  {
    w_.slice(e.pe, e.thr, e.t, 0, "op", e.what,
             kvu("id", e.id) + "," + kv("ctx", e.ctx) + "," + kv("ct", e.ct) + "," + kvu("seq", e.seq) + "," +
                 kvu("bytes", e.bytes) + "," + kv("target", e.target_pe));
    outstanding_counter(e.pe, e.thr, e.t);
  }

  void queued(const Event& e, const std::optional<MessageLifecycle::Op>& op) override
  {
    const int node = lifecycle().node(e.src);
    nic_counters(node, e.t);
    w_.async('b', e.id, false, kPerfettoNicPid + node, e.t, "queued " + e.what);
    if (op && e.src == op->pe) // not a message the target sends for the operation (a pulled put's read)
      w_.flow('s', 2 * e.id, op->pe, op->thr, op->issue, "message");
  }

  void injected(const Event& e, const MessageLifecycle::Msg& m) override
  {
    nic_counters(m.node, e.t);
    w_.async('e', e.id, false, kPerfettoNicPid + m.node, e.t, "queued " + m.kind);
    w_.async('b', e.id, true, kPerfettoNicPid + m.node, e.t, "in flight " + m.kind);
  }

  void hop(const Event& e) override
  {
    link_bytes_[e.link] += e.bytes;
    w_.instant(kPerfettoFabricPid, e.link, e.t, "packet",
               kvu("msg", e.id) + "," + kv("queued_ps", e.queued) + "," + kvu("bytes", e.bytes));
    auto name = tracks_.links.find(static_cast<std::uint64_t>(e.link));
    w_.counter(kPerfettoFabricPid, e.t,
               "bytes on " + (name != tracks_.links.end() ? name->second : std::to_string(e.link)),
               kvu("bytes", link_bytes_[e.link]));
  }

  void delivered(const Event& e, const MessageLifecycle::Delivery& d) override
  {
    const MessageLifecycle::Msg& m = d.msg;
    // never injected: queued until delivered
    w_.async('e', e.id, m.injected, kPerfettoNicPid + m.node, e.t, (m.injected ? "in flight " : "queued ") + m.kind);
    nic_counters(m.node, e.t);
    // Out-of-order deliveries have a category of their own besides "delivery" (a filter in the UI
    // or `category GLOB '*out_of_order*'` in the trace processor) and say so in their name.
    w_.slice(m.dst, kPerfettoIncomingTid, e.t, 0, e.ooo ? "delivery,out_of_order" : "delivery",
             "deliver " + m.kind + (e.ooo ? " (out of order)" : ""),
             kvu("msg", e.id) + "," + kvu("op", m.op) + "," + kv("src", m.src) + "," + kv("ooo", e.ooo ? 1 : 0) + "," +
                 kvu("depth", e.depth));
    if (d.op && m.src == d.op->pe) {
      w_.flow('f', 2 * e.id, m.dst, kPerfettoIncomingTid, e.t, "message");
      w_.flow('s', 2 * e.id + 1, m.dst, kPerfettoIncomingTid, e.t, "ack");
    }
  }

  void completed(const Event& e, const MessageLifecycle::Completion& c) override
  {
    if (!c.op)
      return;
    const MessageLifecycle::Op& op = *c.op;
    if (c.msg.src != op.pe) { // a pulled put's read, done where it was sent from: at the put's target
      w_.slice(c.msg.src, kPerfettoIncomingTid, e.t, 0, "delivery", c.msg.kind + " done",
               kvu("msg", e.id) + "," + kvu("op", c.msg.op));
      if (c.op_completed)
        outstanding_counter(op.pe, op.thr, e.t);
      return;
    }
    w_.slice(op.pe, op.thr, e.t, 0, "ack", c.msg.kind == "put" || c.msg.kind == "atomic" ? "ack" : "reply",
             kvu("msg", e.id) + "," + kvu("op", c.msg.op));
    w_.flow('f', 2 * e.id + 1, op.pe, op.thr, e.t, "ack");
    if (c.op_completed)
      outstanding_counter(op.pe, op.thr, e.t);
  }

  void counter(const Event& e) override
  {
    w_.counter(e.pe, e.t, "ct " + std::to_string(e.ct), kvu("success", e.success) + "," + kvu("failure", e.failure));
  }

  void wait_closed(const Event& b, const Event& e) override
  {
    w_.slice(e.pe, e.thr, b.t, e.t - b.t, "wait", b.what,
             kv("ctx", b.ctx) + "," + kv("ct", b.ct) + "," + kvu("target", b.target) + "," +
                 kvu("final_target", e.target));
  }

  void wait_unfinished(const Event& b, std::int64_t end) override
  {
    w_.slice(b.pe, b.thr, b.t, end - b.t, "wait", b.what + " (unfinished)",
             kv("ctx", b.ctx) + "," + kv("ct", b.ct) + "," + kvu("target", b.target));
  }

  void computed(const Event& e) override { w_.slice(e.pe, e.thr, e.t, e.dur, "compute", "compute", ""); }
  void locked(const Event& e) override { w_.slice(e.pe, e.thr, e.t, e.dur, "lock", "shared lines / lock", ""); }

  /// A SHMEM routine's span on its thread: a begin at `call`, an end at `ret` (nesting the
  /// thread's operations and waits inside it).
  void routine(const Event& e) override
  {
    const std::pair<int, int> k{e.pe, e.thr};
    if (e.type == Type::Call) {
      if (open_routines_.count(k)) // a call without its ret (never written by the recorder): end it here
        end_routine(k, e.t);
      open_routines_[k] = e.what;
      w_.event("\"ph\":\"B\",\"pid\":" + std::to_string(e.pe) + ",\"tid\":" + std::to_string(e.thr) +
               ",\"ts\":" + us(e.t) + ",\"cat\":\"routine\",\"name\":" + str(e.what));
    } else if (open_routines_.count(k)) {
      end_routine(k, e.t);
    }
  }

  void end_routine(const std::pair<int, int>& k, std::int64_t t)
  {
    w_.event("\"ph\":\"E\",\"pid\":" + std::to_string(k.first) + ",\"tid\":" + std::to_string(k.second) +
             ",\"ts\":" + us(t) + ",\"cat\":\"routine\",\"name\":" + str(open_routines_[k]));
    open_routines_.erase(k);
  }

public:
  /// Ends the routines still under way at `end` (the run ended inside them), by PE, then thread.
  void close_open_routines(std::int64_t end)
  {
    while (!open_routines_.empty())
      end_routine(open_routines_.begin()->first, end);
  }

private:
  void limit(const Event& e) override
  {
    w_.event("\"ph\":\"i\",\"s\":\"p\",\"pid\":" + std::to_string(e.pe) + ",\"tid\":0,\"ts\":" + us(e.t) +
             ",\"name\":" + str("limit " + e.what) + ",\"args\":{}");
  }

  Writer& w_;
  const Tracks& tracks_;
  std::map<int, unsigned long long> link_bytes_;
  std::map<std::pair<int, int>, std::string> open_routines_; ///< (PE, thread) -> its routine
};

} // namespace

void write_perfetto(const EventSource& source, std::ostream& out)
{
  Trace header;
  const Tracks tracks = collect_tracks(source, &header);
  write_other_data(header, out);
  out << "\"traceEvents\":[";
  Writer w{out};
  declare_tracks(w, tracks);
  EventWriter events(w, tracks);
  std::int64_t last = 0;
  source([&](const Event& e) {
    events.visit(e);
    last = e.t;
  });
  events.close_open_waits(last);
  events.close_open_routines(last);
  out << "\n]}\n";
}

void write_perfetto(const Trace& tr, std::ostream& out)
{
  write_perfetto(events_of(tr), out);
}

} // namespace shmemsim::traces
