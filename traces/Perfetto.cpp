#include "traces/Perfetto.hpp"

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
    event("\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
          std::to_string(index) + "}");
  }
  void slice(int pid, int tid, std::int64_t t, std::int64_t dur, const std::string& cat, const std::string& name, const std::string& args)
  {
    event("\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + us(t) + ",\"dur\":" + us(dur) +
          ",\"cat\":" + str(cat) + ",\"name\":" + str(name) + ",\"args\":{" + args + "}");
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
    event(std::string("\"ph\":\"") + ph + "\",\"cat\":\"" + (flight ? "in_flight" : "queued") + "\",\"id\":" +
          std::to_string(2 * msg + (flight ? 1 : 0)) + ",\"pid\":" + std::to_string(pid) + ",\"tid\":0,\"ts\":" + us(t) +
          ",\"name\":" + str(name));
  }
  void counter(int pid, std::int64_t t, const std::string& name, const std::string& args)
  {
    event("\"ph\":\"C\",\"pid\":" + std::to_string(pid) + ",\"ts\":" + us(t) + ",\"name\":" + str(name) + ",\"args\":{" + args + "}");
  }
  void instant(int pid, int tid, std::int64_t t, const std::string& name, const std::string& args)
  {
    event("\"ph\":\"i\",\"s\":\"t\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) + ",\"ts\":" + us(t) +
          ",\"name\":" + str(name) + ",\"args\":{" + args + "}");
  }
};

std::string kv(const char* k, long long v) { return std::string("\"") + k + "\":" + std::to_string(v); }
std::string kvu(const char* k, unsigned long long v) { return std::string("\"") + k + "\":" + std::to_string(v); }

struct OpState {
  int pe = 0, thr = 0, target = -1;
  std::int64_t issue = 0;
  int pending        = 0; ///< messages not yet done
  bool counted_done  = false;
};
struct MsgState {
  std::uint64_t op = 0;
  int src = -1, dst = -1;
  std::string kind;
  std::int64_t t = 0;
  bool injected = false;
};

} // namespace

void write_perfetto(const Trace& tr, std::ostream& out)
{
  out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{";
  bool firstm = true;
  for (const auto& [k, v] : tr.meta) {
    out << (firstm ? "" : ",") << str(k) << ':' << str(v);
    firstm = false;
  }
  out << "},\"traceEvents\":[";
  Writer w{out};

  // Tracks: every PE and its threads, every NIC, every link.
  std::map<int, int> node_of;
  std::map<int, std::set<int>> threads;
  std::set<int> nodes;
  std::map<std::uint64_t, std::string> links;
  for (const Event& e : tr.events) {
    if (e.type == Type::Pe) {
      node_of[e.pe] = e.node;
      nodes.insert(e.node);
      threads[e.pe];
    } else if (e.type == Type::Link) {
      links[e.id] = e.what;
    } else if (e.pe >= 0 && e.thr >= 0 && e.type != Type::Ct && e.type != Type::Limit) {
      threads[e.pe].insert(e.thr);
    }
  }
  auto nic_of = [&](int pe) {
    auto it = node_of.find(pe);
    return it == node_of.end() ? pe : it->second;
  };
  for (const Event& e : tr.events)
    if (e.type == Type::Msg) {
      threads[e.src];
      threads[e.dst];
      nodes.insert(nic_of(e.src));
    }
  for (const auto& [pe, thrs] : threads) {
    w.meta(pe, -1, "process_name", "PE " + std::to_string(pe));
    w.sort_index(pe, pe);
    for (int t : thrs)
      w.meta(pe, t, "thread_name", "thread " + std::to_string(t));
    w.meta(pe, kPerfettoIncomingTid, "thread_name", "incoming (deliveries)");
  }
  for (int n : nodes) {
    w.meta(kPerfettoNicPid + n, -1, "process_name", "NIC of node " + std::to_string(n));
    w.sort_index(kPerfettoNicPid + n, kPerfettoNicPid + n);
  }
  if (!links.empty()) {
    w.meta(kPerfettoFabricPid, -1, "process_name", "fabric links");
    w.sort_index(kPerfettoFabricPid, kPerfettoFabricPid);
    for (const auto& [id, name] : links)
      w.meta(kPerfettoFabricPid, static_cast<int>(id), "thread_name", name);
  }

  std::map<std::uint64_t, OpState> ops;
  std::map<std::uint64_t, MsgState> msgs;
  std::map<std::pair<int, int>, long long> outstanding; // (pe, thr)
  std::map<int, long long> queued, in_flight;            // by NIC node
  std::map<std::pair<int, int>, Event> open_waits;
  std::map<int, unsigned long long> link_bytes;
  auto outstanding_counter = [&](int pe, int thr, std::int64_t t, long long delta) {
    long long& n = outstanding[{pe, thr}];
    n += delta;
    w.counter(pe, t, "outstanding ops, thread " + std::to_string(thr), kv("ops", n));
  };
  auto nic_counters = [&](int node, std::int64_t t) {
    w.counter(kPerfettoNicPid + node, t, "messages", kv("queued", queued[node]) + "," + kv("in_flight", in_flight[node]));
  };

  for (const Event& e : tr.events) {
    switch (e.type) {
      case Type::Pe:
      case Type::Link:
        break;
      case Type::Ctx:
        w.instant(e.pe, e.thr < 0 ? 0 : e.thr, e.t, "context " + e.what, kv("ctx", e.ctx) + "," + kv("ct", e.ct));
        break;
      case Type::Op: {
        ops[e.id] = {e.pe, e.thr, e.target_pe, e.t, 0, false};
        w.slice(e.pe, e.thr, e.t, 0, "op", e.what,
                kvu("id", e.id) + "," + kv("ctx", e.ctx) + "," + kv("ct", e.ct) + "," + kvu("seq", e.seq) + "," + kvu("bytes", e.bytes) +
                    "," + kv("target", e.target_pe));
        outstanding_counter(e.pe, e.thr, e.t, +1);
        break;
      }
      case Type::Msg: {
        msgs[e.id] = {e.op, e.src, e.dst, e.what, e.t, false};
        const int node = nic_of(e.src);
        ++queued[node];
        nic_counters(node, e.t);
        w.async('b', e.id, false, kPerfettoNicPid + node, e.t, "queued " + e.what);
        if (auto o = ops.find(e.op); o != ops.end()) {
          ++o->second.pending;
          w.flow('s', 2 * e.id, o->second.pe, o->second.thr, o->second.issue, "message");
        }
        break;
      }
      case Type::Inj: {
        auto m = msgs.find(e.id);
        if (m == msgs.end())
          break;
        const int node = nic_of(m->second.src);
        m->second.injected = true;
        --queued[node];
        ++in_flight[node];
        nic_counters(node, e.t);
        w.async('e', e.id, false, kPerfettoNicPid + node, e.t, "queued " + m->second.kind);
        w.async('b', e.id, true, kPerfettoNicPid + node, e.t, "in flight " + m->second.kind);
        break;
      }
      case Type::Hop:
        link_bytes[e.link] += e.bytes;
        w.instant(kPerfettoFabricPid, e.link, e.t, "packet", kvu("msg", e.id) + "," + kv("queued_ps", e.queued) + "," + kvu("bytes", e.bytes));
        w.counter(kPerfettoFabricPid, e.t, "bytes on " + (links.count(static_cast<std::uint64_t>(e.link)) ? links[e.link] : std::to_string(e.link)),
                  kvu("bytes", link_bytes[e.link]));
        break;
      case Type::Dlv: {
        auto m = msgs.find(e.id);
        if (m == msgs.end())
          break;
        const int node = nic_of(m->second.src);
        if (m->second.injected) {
          --in_flight[node];
          w.async('e', e.id, true, kPerfettoNicPid + node, e.t, "in flight " + m->second.kind);
        } else {
          --queued[node]; // no injection recorded: queued until delivered
          w.async('e', e.id, false, kPerfettoNicPid + node, e.t, "queued " + m->second.kind);
        }
        nic_counters(node, e.t);
        w.slice(m->second.dst, kPerfettoIncomingTid, e.t, 0, "delivery", "deliver " + m->second.kind,
                kvu("msg", e.id) + "," + kvu("op", m->second.op) + "," + kv("src", m->second.src) + "," + kv("ooo", e.ooo ? 1 : 0) + "," +
                    kvu("depth", e.depth));
        if (ops.count(m->second.op)) {
          w.flow('f', 2 * e.id, m->second.dst, kPerfettoIncomingTid, e.t, "message");
          w.flow('s', 2 * e.id + 1, m->second.dst, kPerfettoIncomingTid, e.t, "ack");
        }
        break;
      }
      case Type::Done: {
        auto m = msgs.find(e.id);
        if (m == msgs.end())
          break;
        auto o = ops.find(m->second.op);
        if (o == ops.end())
          break;
        w.slice(o->second.pe, o->second.thr, e.t, 0, "ack", m->second.kind == "put" || m->second.kind == "atomic" ? "ack" : "reply",
                kvu("msg", e.id) + "," + kvu("op", m->second.op));
        w.flow('f', 2 * e.id + 1, o->second.pe, o->second.thr, e.t, "ack");
        if (--o->second.pending <= 0 && !o->second.counted_done) {
          o->second.counted_done = true;
          outstanding_counter(o->second.pe, o->second.thr, e.t, -1);
        }
        break;
      }
      case Type::Ct:
        w.counter(e.pe, e.t, "ct " + std::to_string(e.ct), kvu("success", e.success) + "," + kvu("failure", e.failure));
        break;
      case Type::Wait:
        open_waits[{e.pe, e.thr}] = e;
        break;
      case Type::Wend: {
        auto it = open_waits.find({e.pe, e.thr});
        if (it == open_waits.end())
          break;
        const Event& b = it->second;
        w.slice(e.pe, e.thr, b.t, e.t - b.t, "wait", b.what,
                kv("ctx", b.ctx) + "," + kv("ct", b.ct) + "," + kvu("target", b.target) + "," + kvu("final_target", e.target));
        open_waits.erase(it);
        break;
      }
      case Type::Comp:
        w.slice(e.pe, e.thr, e.t, e.dur, "compute", "compute", "");
        break;
      case Type::Lock:
        w.slice(e.pe, e.thr, e.t, e.dur, "lock", "library lock", "");
        break;
      case Type::Limit:
        w.event("\"ph\":\"i\",\"s\":\"p\",\"pid\":" + std::to_string(e.pe) + ",\"tid\":0,\"ts\":" + us(e.t) + ",\"name\":" +
                str("limit " + e.what) + ",\"args\":{}");
        break;
    }
  }
  // Waits still open at the end of the trace.
  const std::int64_t end = tr.events.empty() ? 0 : tr.events.back().t;
  for (const auto& [k, b] : open_waits)
    w.slice(b.pe, b.thr, b.t, end - b.t, "wait", b.what + " (unfinished)",
            kv("ctx", b.ctx) + "," + kv("ct", b.ct) + "," + kvu("target", b.target));
  out << "\n]}\n";
}

} // namespace shmemsim::traces
