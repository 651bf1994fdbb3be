#include "traces/Paje.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>
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

/// A timed line; sorted by (date, order class, sequence) so pops come before pushes at one date.
struct Line {
  std::int64_t t;
  int cls;
  std::size_t seq;
  std::string text;
};

std::string pe_alias(int pe) { return "pe" + std::to_string(pe); }
std::string thr_alias(int pe, int thr) { return "pe" + std::to_string(pe) + "t" + std::to_string(thr); }
std::string nic_alias(int node) { return "nic" + std::to_string(node); }

} // namespace

void write_paje(const Trace& tr, std::ostream& out)
{
  out << "# shmemsim trace, Paje format (pajeng, ViTE); dates in seconds\n" << kHeader;
  // Containers and types.
  std::map<int, int> node_of;
  std::map<int, std::set<int>> threads;
  std::set<int> cts;
  for (const Event& e : tr.events) {
    if (e.type == Type::Pe) {
      node_of[e.pe] = e.node;
      threads[e.pe];
    } else if (e.type == Type::Ct) {
      cts.insert(e.ct);
      threads[e.pe];
    } else if (e.type == Type::Msg) {
      threads[e.src];
      threads[e.dst];
    } else if (e.pe >= 0 && e.thr >= 0 && e.type != Type::Limit) {
      threads[e.pe].insert(e.thr);
    }
  }
  auto node = [&](int pe) {
    auto it = node_of.find(pe);
    return it == node_of.end() ? pe : it->second;
  };
  std::set<int> nodes;
  for (const auto& [pe, t] : threads)
    nodes.insert(node(pe));

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
  for (int c : cts)
    out << "1 ct" << c << " PE \"ct " << c << "\" \"0.5 0.2 0.6\"\n";
  for (int n : nodes) {
    out << "6 " << sec(0) << " node" << n << " Node 0 \"node " << n << "\"\n";
    out << "6 " << sec(0) << ' ' << nic_alias(n) << " NIC node" << n << " \"NIC " << n << "\"\n";
  }
  for (const auto& [pe, thrs] : threads) {
    out << "6 " << sec(0) << ' ' << pe_alias(pe) << " PE node" << node(pe) << " \"PE " << pe << "\"\n";
    for (int t : thrs)
      out << "6 " << sec(0) << ' ' << thr_alias(pe, t) << " Thread " << pe_alias(pe) << " \"thread " << t << "\"\n";
  }

  // Timed lines.
  std::vector<Line> lines;
  auto add = [&](std::int64_t t, int cls, std::string text) { lines.push_back({t, cls, lines.size(), std::move(text)}); };
  struct Op {
    int pe, thr;
    int pending = 0;
  };
  std::map<std::uint64_t, Op> ops;
  struct Msg {
    std::uint64_t op;
    int src, dst;
    std::string kind;
    bool injected = false;
  };
  std::map<std::uint64_t, Msg> msgs;
  std::map<std::pair<int, int>, long long> outstanding;
  std::map<int, long long> queued, inflight;
  std::map<std::pair<int, int>, std::int64_t> waits;
  auto setvar = [&](std::int64_t t, const std::string& type, const std::string& cont, long long v) {
    add(t, 1, "8 " + sec(t) + ' ' + type + ' ' + cont + ' ' + std::to_string(v));
  };
  auto state = [&](std::int64_t b, std::int64_t e, int pe, int thr, const char* v) {
    if (e <= b)
      return; // an empty state would pop before its push (pops sort first at a date)
    add(b, 2, "12 " + sec(b) + " Activity " + thr_alias(pe, thr) + ' ' + v);
    add(e, 0, "13 " + sec(e) + " Activity " + thr_alias(pe, thr));
  };
  for (const Event& e : tr.events) {
    switch (e.type) {
      case Type::Op:
        ops[e.id] = {e.pe, e.thr, 0};
        setvar(e.t, "outstanding", thr_alias(e.pe, e.thr), ++outstanding[{e.pe, e.thr}]);
        break;
      case Type::Msg: {
        msgs[e.id] = {e.op, e.src, e.dst, e.what, false};
        setvar(e.t, "queued", nic_alias(node(e.src)), ++queued[node(e.src)]);
        if (auto o = ops.find(e.op); o != ops.end()) {
          ++o->second.pending;
          add(e.t, 1, "15 " + sec(e.t) + " Message 0 " + e.what + ' ' + thr_alias(o->second.pe, o->second.thr) + " m" + std::to_string(e.id));
        }
        break;
      }
      case Type::Inj:
        if (auto m = msgs.find(e.id); m != msgs.end() && !m->second.injected) {
          m->second.injected = true;
          const int n        = node(m->second.src);
          setvar(e.t, "queued", nic_alias(n), --queued[n]);
          setvar(e.t, "inflight", nic_alias(n), ++inflight[n]);
        }
        break;
      case Type::Dlv:
        if (auto m = msgs.find(e.id); m != msgs.end()) {
          const int n = node(m->second.src);
          if (m->second.injected)
            setvar(e.t, "inflight", nic_alias(n), --inflight[n]);
          else
            setvar(e.t, "queued", nic_alias(n), --queued[n]);
          if (auto o = ops.find(m->second.op); o != ops.end()) {
            add(e.t, 1, "16 " + sec(e.t) + " Message 0 " + m->second.kind + ' ' + pe_alias(m->second.dst) + " m" + std::to_string(e.id));
            add(e.t, 1, "15 " + sec(e.t) + " Ack 0 ack " + pe_alias(m->second.dst) + " a" + std::to_string(e.id));
          }
        }
        break;
      case Type::Done:
        if (auto m = msgs.find(e.id); m != msgs.end())
          if (auto o = ops.find(m->second.op); o != ops.end()) {
            add(e.t, 1, "16 " + sec(e.t) + " Ack 0 ack " + thr_alias(o->second.pe, o->second.thr) + " a" + std::to_string(e.id));
            if (--o->second.pending == 0)
              setvar(e.t, "outstanding", thr_alias(o->second.pe, o->second.thr), --outstanding[{o->second.pe, o->second.thr}]);
          }
        break;
      case Type::Ct:
        setvar(e.t, "ct" + std::to_string(e.ct), pe_alias(e.pe), static_cast<long long>(e.success + e.failure));
        break;
      case Type::Wait:
        waits[{e.pe, e.thr}] = e.t;
        break;
      case Type::Wend:
        if (auto it = waits.find({e.pe, e.thr}); it != waits.end()) {
          state(it->second, e.t, e.pe, e.thr, "wait");
          waits.erase(it);
        }
        break;
      case Type::Comp:
        state(e.t, e.t + e.dur, e.pe, e.thr, "compute");
        break;
      case Type::Lock:
        state(e.t, e.t + e.dur, e.pe, e.thr, "lock");
        break;
      default:
        break;
    }
  }
  std::int64_t end = 0;
  for (const Event& e : tr.events)
    end = std::max({end, e.t, e.t + e.dur});
  for (const auto& [k, b] : waits)
    state(b, end, k.first, k.second, "wait");
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.t != b.t ? a.t < b.t : a.cls != b.cls ? a.cls < b.cls : a.seq < b.seq; });
  for (const Line& l : lines)
    out << l.text << '\n';
  for (const auto& [pe, thrs] : threads) {
    for (int t : thrs)
      out << "7 " << sec(end) << " Thread " << thr_alias(pe, t) << '\n';
    out << "7 " << sec(end) << " PE " << pe_alias(pe) << '\n';
  }
  for (int n : nodes) {
    out << "7 " << sec(end) << " NIC " << nic_alias(n) << '\n';
    out << "7 " << sec(end) << " Node node" << n << '\n';
  }
}

} // namespace shmemsim::traces
