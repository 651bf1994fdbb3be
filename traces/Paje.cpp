#include "traces/Paje.hpp"
#include "traces/Lifecycle.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <limits>
#include <ostream>
#include <queue>
#include <set>
#include <string>
#include <vector>

namespace shmemsim::traces {

namespace {

/// Seconds with 12 decimals from integer picoseconds.
std::string sec(std::int64_t ps)
{
  return ps_fixed(ps, 12);
}

const char* kHeader = R"(%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineVariableType 1
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineStateType 2
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineLinkType 4
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 5
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeCreateContainer 6
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 7
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajeSetVariable 8
%       Time date
%       Type string
%       Container string
%       Value double
%EndEventDef
%EventDef PajePushState 12
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajePopState 13
%       Time date
%       Type string
%       Container string
%EndEventDef
%EventDef PajeStartLink 15
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 16
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
)";

/// A timed line; written by (date, order class, sequence) so pops come before pushes at one date.
struct Line {
  std::int64_t t;
  int cls;
  std::size_t seq;
  std::string text;
};
struct LineLater {
  bool operator()(const Line& a, const Line& b) const
  {
    return a.t != b.t ? a.t > b.t : a.cls != b.cls ? a.cls > b.cls : a.seq > b.seq;
  }
};

std::string pe_alias(int pe)
{
  return "pe" + std::to_string(pe);
}
std::string thr_alias(int pe, int thr)
{
  return "pe" + std::to_string(pe) + "t" + std::to_string(thr);
}
std::string nic_alias(int node)
{
  return "nic" + std::to_string(node);
}

/// The containers: a Node per node holding its NIC and PEs, a Thread per PE thread; and the CTs
/// (a variable type each; a PE whose CTs change gets a container).
struct Containers : Endpoints {
  std::set<int> cts;
  std::set<int> nodes;
  std::int64_t end = 0; ///< the trace's last date, or the end of its last computation or lock
};

/// The containers and the end date (first pass over the events).
Containers collect_containers(const EventSource& events)
{
  Containers c;
  events([&](const Event& e) {
    c.see(e);
    if (e.type == Type::Ct) {
      c.cts.insert(e.ct);
      c.threads[e.pe];
    }
    c.end = std::max({c.end, e.t, e.t + e.dur});
  });
  for (const auto& [pe, t] : c.threads)
    c.nodes.insert(c.node(pe));
  return c;
}

/// The container, state, link and variable types, and every container, created at date 0.
void define_types_and_containers(std::ostream& out, const Containers& c)
{
  out << "0 Node 0 Node\n0 PE Node PE\n0 Thread PE Thread\n0 NIC Node NIC\n";
  out << "2 Activity Thread \"Thread activity\"\n";
  out << "5 compute Activity compute \"0.4 0.75 0.4\"\n";
  out << "5 wait Activity wait \"0.85 0.25 0.2\"\n";
  out << "5 lock Activity lock \"0.4 0.4 0.4\"\n";
  out << "4 Message 0 Thread PE Message\n";
  out << "4 Ack 0 PE Thread Ack\n";
  out << "1 outstanding Thread \"outstanding ops\" \"0.2 0.4 0.8\"\n";
  out << "1 queued NIC \"queued messages\" \"0.9 0.6 0.1\"\n";
  out << "1 inflight NIC \"messages in flight\" \"0.2 0.6 0.9\"\n";
  for (int ct : c.cts)
    out << "1 ct" << ct << " PE \"ct " << ct << "\" \"0.5 0.2 0.6\"\n";
  for (int n : c.nodes) {
    out << "6 " << sec(0) << " node" << n << " Node 0 \"node " << n << "\"\n";
    out << "6 " << sec(0) << ' ' << nic_alias(n) << " NIC node" << n << " \"NIC " << n << "\"\n";
  }
  for (const auto& [pe, thrs] : c.threads) {
    out << "6 " << sec(0) << ' ' << pe_alias(pe) << " PE node" << c.node(pe) << " \"PE " << pe << "\"\n";
    for (int t : thrs)
      out << "6 " << sec(0) << ' ' << thr_alias(pe, t) << " Thread " << pe_alias(pe) << " \"thread " << t << "\"\n";
  }
}

/// The timed lines (variables, states, links) of the trace's events, written in order as soon as
/// no earlier line can come.
class Timeline : public LifecycleWalk {
public:
  Timeline(const Containers& c, std::ostream& out) : LifecycleWalk(c), out_(out) {}

  void on(const Event& e)
  {
    visit(e);
    // Later events are dated e.t or after; only a wait still open adds a line before (its push).
    std::int64_t watermark = e.t;
    if (!wait_begins_.empty())
      watermark = std::min(watermark, *wait_begins_.begin());
    write_before(watermark);
  }

  /// Closes the waits still open at `end` and writes the remaining lines.
  void finish(std::int64_t end)
  {
    close_open_waits(end);
    wait_begins_.clear();
    write_all();
  }

private:
  void add(std::int64_t t, int cls, std::string text) { lines_.push({t, cls, seq_++, std::move(text)}); }
  /// Writes the lines dated before `t` (a line at `t` may still be preceded by one of a lower class).
  void write_before(std::int64_t t)
  {
    while (!lines_.empty() && lines_.top().t < t) {
      out_ << lines_.top().text << '\n';
      lines_.pop();
    }
  }
  void write_all()
  {
    for (; !lines_.empty(); lines_.pop())
      out_ << lines_.top().text << '\n';
  }
  void setvar(std::int64_t t, const std::string& type, const std::string& cont, long long v)
  {
    add(t, 1, "8 " + sec(t) + ' ' + type + ' ' + cont + ' ' + std::to_string(v));
  }
  void state(std::int64_t b, std::int64_t e, int pe, int thr, const char* v)
  {
    if (e <= b)
      return; // an empty state would pop before its push (pops sort first at a date)
    add(b, 2, "12 " + sec(b) + " Activity " + thr_alias(pe, thr) + ' ' + v);
    add(e, 0, "13 " + sec(e) + " Activity " + thr_alias(pe, thr));
  }

  void issued(const Event& e) override
  {
    setvar(e.t, "outstanding", thr_alias(e.pe, e.thr), lifecycle().outstanding(e.pe, e.thr));
  }

  void queued(const Event& e, const std::optional<MessageLifecycle::Op>& op) override
  {
    const int n = lifecycle().node(e.src);
    setvar(e.t, "queued", nic_alias(n), lifecycle().queued(n));
    // From the operation's thread, or from the PE that sends it for the operation (a pulled put's
    // read, from its target).
    if (op)
      add(e.t, 1,
          "15 " + sec(e.t) + " Message 0 " + e.what + ' ' +
              (e.src == op->pe ? thr_alias(op->pe, op->thr) : pe_alias(e.src)) + " m" + std::to_string(e.id));
  }

  void injected(const Event& e, const MessageLifecycle::Msg& m) override
  {
    setvar(e.t, "queued", nic_alias(m.node), lifecycle().queued(m.node));
    setvar(e.t, "inflight", nic_alias(m.node), lifecycle().in_flight(m.node));
  }

  void delivered(const Event& e, const MessageLifecycle::Delivery& d) override
  {
    const int n = d.msg.node;
    if (d.msg.injected)
      setvar(e.t, "inflight", nic_alias(n), lifecycle().in_flight(n));
    else
      setvar(e.t, "queued", nic_alias(n), lifecycle().queued(n));
    if (d.op) {
      add(e.t, 1,
          "16 " + sec(e.t) + " Message 0 " + d.msg.kind + ' ' + pe_alias(d.msg.dst) + " m" + std::to_string(e.id));
      add(e.t, 1, "15 " + sec(e.t) + " Ack 0 ack " + pe_alias(d.msg.dst) + " a" + std::to_string(e.id));
    }
  }

  void completed(const Event& e, const MessageLifecycle::Completion& c) override
  {
    if (!c.op)
      return;
    add(e.t, 1,
        "16 " + sec(e.t) + " Ack 0 ack " +
            (c.msg.src == c.op->pe ? thr_alias(c.op->pe, c.op->thr) : pe_alias(c.msg.src)) + " a" +
            std::to_string(e.id));
    if (c.op_completed)
      setvar(e.t, "outstanding", thr_alias(c.op->pe, c.op->thr), lifecycle().outstanding(c.op->pe, c.op->thr));
  }

  void counter(const Event& e) override
  {
    setvar(e.t, "ct" + std::to_string(e.ct), pe_alias(e.pe), static_cast<long long>(e.success + e.failure));
  }

  void wait_opened(const Event& e, const Event* replaced) override
  {
    if (replaced != nullptr)
      wait_begins_.erase(wait_begins_.find(replaced->t));
    wait_begins_.insert(e.t);
  }

  void wait_closed(const Event& b, const Event& e) override
  {
    state(b.t, e.t, e.pe, e.thr, "wait");
    wait_begins_.erase(wait_begins_.find(b.t));
  }

  void wait_unfinished(const Event& b, std::int64_t end) override { state(b.t, end, b.pe, b.thr, "wait"); }

  void computed(const Event& e) override { state(e.t, e.t + e.dur, e.pe, e.thr, "compute"); }
  void locked(const Event& e) override { state(e.t, e.t + e.dur, e.pe, e.thr, "lock"); }

  std::ostream& out_;
  std::priority_queue<Line, std::vector<Line>, LineLater> lines_;
  std::size_t seq_ = 0;
  std::multiset<std::int64_t> wait_begins_; ///< of the open waits
};

void destroy_containers(std::ostream& out, const Containers& c, std::int64_t end)
{
  for (const auto& [pe, thrs] : c.threads) {
    for (int t : thrs)
      out << "7 " << sec(end) << " Thread " << thr_alias(pe, t) << '\n';
    out << "7 " << sec(end) << " PE " << pe_alias(pe) << '\n';
  }
  for (int n : c.nodes) {
    out << "7 " << sec(end) << " NIC " << nic_alias(n) << '\n';
    out << "7 " << sec(end) << " Node node" << n << '\n';
  }
}

} // namespace

void write_paje(const EventSource& source, std::ostream& out)
{
  out << "# shmemsim trace, Paje format (pajeng, ViTE); dates in seconds\n" << kHeader;
  const Containers containers = collect_containers(source);
  define_types_and_containers(out, containers);
  Timeline timeline(containers, out);
  source([&](const Event& e) { timeline.on(e); });
  timeline.finish(containers.end);
  destroy_containers(out, containers, containers.end);
}

void write_paje(const Trace& tr, std::ostream& out)
{
  write_paje(events_of(tr), out);
}

} // namespace shmemsim::traces
