#include "analysis/Diagram.hpp"

#include "analysis/Svg.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace shmemsim::analysis {

using svg::esc;
using svg::num;

namespace {

struct Style {
  const char* fill;
  const char* stroke;
};
// Colors of the boxes and arrows, by operation kind.
const char* op_color(const std::string& kind)
{
  if (kind.rfind("famo", 0) == 0 || kind == "amo")
    return "#e08a1e";
  if (kind.rfind("get", 0) == 0)
    return "#8a5cc2";
  return "#2f6fb5"; // puts
}
const char* op_label(const std::string& kind)
{
  if (kind.rfind("famo", 0) == 0)
    return "fadd";
  return kind.c_str();
}

constexpr double kLeft = 150, kRight = 30, kTop = 50, kLane = 46, kBox = 24;

} // namespace

Diagram make_diagram(const Index& ix, const DiagramOptions& opt)
{
  Diagram d;
  std::ostringstream note;

  // --- lanes ---
  // Lanes: the selected threads; without a selection, whole PEs in order while they fit in
  // max_lanes (at least the first PE's threads, up to max_lanes).
  std::vector<ThreadKey> lanes;
  std::map<int, std::vector<ThreadKey>> by_pe;
  std::size_t candidates = 0;
  for (const ThreadKey& k : ix.threads) {
    if (!opt.pes.empty() && !opt.pes.count(k.pe))
      continue;
    if (!opt.threads.empty() && !opt.threads.count(k.thr))
      continue;
    ++candidates;
    by_pe[k.pe].push_back(k);
  }
  const bool chosen = opt.pes.empty() && opt.threads.empty();
  for (const auto& [pe, ks] : by_pe) {
    if (chosen && !lanes.empty() && lanes.size() + ks.size() > static_cast<std::size_t>(opt.max_lanes))
      break;
    for (const ThreadKey& k : ks)
      if (!chosen || static_cast<int>(lanes.size()) < opt.max_lanes)
        lanes.push_back(k);
  }
  // A trace without PE threads (built-in traffic patterns: messages only) gets a lane per PE.
  const bool endpoints = ix.threads.empty() && opt.threads.empty();
  if (endpoints) {
    std::set<int> pes; // the PEs that sent or received (all of them if none did)
    for (const auto& [id, m] : ix.msgs)
      pes.insert(m.src), pes.insert(m.dst);
    if (pes.empty())
      for (const auto& [pe, node] : ix.pe_node)
        pes.insert(pe);
    for (int pe : pes) {
      if (!opt.pes.empty() && !opt.pes.count(pe))
        continue;
      ++candidates;
      if (!chosen || static_cast<int>(lanes.size()) < opt.max_lanes)
        lanes.push_back({pe, -1});
    }
  }
  if (lanes.empty())
    throw std::invalid_argument("no PE thread matches the selection (the trace has " + std::to_string(ix.threads.size()) +
                                " PE threads)");
  if (lanes.size() < candidates && endpoints)
    note << "lanes: " << lanes.size() << " of " << candidates << " PEs (use --pes to choose); ";
  else if (lanes.size() < candidates)
    note << "lanes: " << lanes.size() << " of " << candidates << " PE threads (PE " << lanes.front().pe
         << (lanes.back().pe != lanes.front().pe ? " to " + std::to_string(lanes.back().pe) : std::string())
         << "; use --pes/--threads to choose); ";
  std::map<ThreadKey, int> lane_of;
  std::map<int, int> pe_lane; // first lane of a PE
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    lane_of[lanes[i]] = static_cast<int>(i);
    pe_lane.emplace(lanes[i].pe, static_cast<int>(i));
  }

  // --- the operations of the shown lanes, and the window ---
  std::vector<const OpInfo*> ops;
  for (std::uint64_t id : ix.op_order) {
    const OpInfo& o = ix.ops.at(id);
    if (lane_of.count(o.thread()))
      ops.push_back(&o);
  }
  // Messages of no PE operation (traffic patterns), from the PEs with a lane, in issue order.
  std::vector<const MsgInfo*> free_msgs;
  for (const auto& [id, m] : ix.msgs)
    if (!ix.ops.count(m.op) && pe_lane.count(m.src))
      free_msgs.push_back(&m);
  std::stable_sort(free_msgs.begin(), free_msgs.end(), [](const MsgInfo* a, const MsgInfo* b) { return a->t < b->t; });

  std::int64_t from = opt.from.value_or(ix.t_begin), to = opt.to.value_or(ix.t_end);
  if (!opt.from && !opt.to && ops.empty() && static_cast<int>(free_msgs.size()) > opt.max_ops) {
    std::int64_t end = free_msgs[0]->t;
    for (int i = 0; i < opt.max_ops; ++i)
      end = std::max({end, free_msgs[i]->t, free_msgs[i]->dlv, free_msgs[i]->done});
    to = end + std::max<std::int64_t>(1, (end - from) / 50);
    note << "showing the first " << opt.max_ops << " of " << free_msgs.size() << " messages";
  } else if (ops.empty() && !free_msgs.empty()) {
    note << "showing " << free_msgs.size() << " messages";
  } else if (!opt.from && !opt.to && static_cast<int>(ops.size()) > opt.max_ops) {
    std::int64_t end = ops[0]->issue;
    for (int i = 0; i < opt.max_ops; ++i)
      end = std::max({end, ops[i]->issue, ops[i]->delivered, ops[i]->completed});
    // Close the waits and computations running at that date, so the last boxes are whole.
    const std::int64_t cut = end;
    for (const WaitInfo& w : ix.waits)
      if (lane_of.count(w.thread()) && w.begin <= cut && w.end > end && w.begin >= from)
        end = std::max(end, std::min(w.end, cut + (cut - from) / 10));
    to = end + std::max<std::int64_t>(1, (end - from) / 50);
    note << "showing the first " << opt.max_ops << " of " << ops.size() << " operations";
  } else {
    std::size_t shown = 0; // operations whose issue-to-completion span meets the window
    for (const OpInfo* o : ops)
      shown += o->issue <= to && std::max({o->issue, o->delivered, o->completed}) >= from;
    note << "showing " << shown << (shown < ops.size() ? " of " + std::to_string(ops.size()) : std::string()) << " operations";
  }
  if (to <= from)
    throw std::invalid_argument("empty time window (--from must be before --to and inside the trace)");
  d.from = from, d.to = to;
  note << " from " << human_time(seconds(from)) << " to " << human_time(seconds(to));
  if (!opt.from && !opt.to)
    note << " (use --from/--to for another window)";

  // Target PEs without a lane get one lane each (at most 8).
  std::vector<int> extra;
  std::size_t missing_targets = 0;
  for (const OpInfo* o : ops) {
    if (o->issue > to || (o->completed >= 0 && o->completed < from && o->delivered < from))
      continue;
    if (o->target_pe < 0 || pe_lane.count(o->target_pe))
      continue;
    if (extra.size() < 8) {
      extra.push_back(o->target_pe);
      pe_lane[o->target_pe] = static_cast<int>(lanes.size() + extra.size() - 1);
    } else {
      ++missing_targets;
    }
  }
  for (const MsgInfo* m : free_msgs) {
    if (m->t > to || (m->done >= 0 && m->done < from) || m->dst < 0 || pe_lane.count(m->dst))
      continue;
    if (extra.size() < 8) {
      extra.push_back(m->dst);
      pe_lane[m->dst] = static_cast<int>(lanes.size() + extra.size() - 1);
    } else {
      ++missing_targets;
    }
  }
  std::sort(extra.begin(), extra.end()); // target lanes in PE order
  for (std::size_t i = 0; i < extra.size(); ++i)
    pe_lane[extra[i]] = static_cast<int>(lanes.size() + i);
  if (missing_targets)
    note << "; " << missing_targets << " operations or messages go to PEs without a lane (no arrow)";
  const int nlanes = static_cast<int>(lanes.size() + extra.size());
  d.lanes          = nlanes;
  d.note           = note.str();

  const double W = opt.width, plot_w = W - kLeft - kRight;
  const double plot_h = nlanes * kLane, axis_y = kTop + plot_h;
  const double H      = axis_y + 50 + 60;
  auto X = [&](std::int64_t t) { return kLeft + static_cast<double>(t - from) * plot_w / static_cast<double>(to - from); };
  auto lane_mid = [&](int lane) { return kTop + lane * kLane + kLane / 2; };
  auto visible = [&](std::int64_t b, std::int64_t e) { return e >= from && b <= to; };

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W) << "\" height=\"" << num(H) << "\" viewBox=\"0 0 " << num(W)
    << ' ' << num(H) << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n";
  s << "<defs>\n"
       "<pattern id=\"hatch-quiet\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(45)\">"
       "<rect width=\"6\" height=\"6\" fill=\"#fde3e1\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c0392b\" stroke-width=\"2\"/></pattern>\n"
       "<pattern id=\"hatch-wait\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(-45)\">"
       "<rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#777777\" stroke-width=\"1.5\"/></pattern>\n";
  for (const char* c : {"#2f6fb5", "#e08a1e", "#8a5cc2", "#777777"}) {
    s << "<marker id=\"arrow-" << (c + 1) << "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
         "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\""
      << c << "\"/></marker>\n";
  }
  s << "<clipPath id=\"plot\"><rect x=\"" << num(kLeft) << "\" y=\"" << num(kTop) << "\" width=\"" << num(plot_w) << "\" height=\""
    << num(plot_h) << "\"/></clipPath>\n</defs>\n";
  s << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";

  std::string title = "shmemsim timing diagram";
  for (const char* key : {"scenario", "program"})
    if (auto it = ix.trace->meta.find(key); it != ix.trace->meta.end())
      title += std::string(" — ") + it->second.substr(it->second.find_last_of('/') + 1); // file names, not paths
  s << "<text x=\"" << num(kLeft) << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << esc(title) << "</text>\n";
  s << "<text x=\"" << num(kLeft) << "\" y=\"38\" fill=\"#555555\">" << esc(d.note) << "</text>\n";

  // Lanes and labels.
  s << "<g class=\"lanes\">\n";
  for (int i = 0; i < nlanes; ++i) {
    const double y = kTop + i * kLane;
    const std::string name = i < static_cast<int>(lanes.size())
                                 ? (lanes[i].thr < 0 ? "PE " + std::to_string(lanes[i].pe) : label(lanes[i]))
                                                                : "PE " + std::to_string(extra[i - lanes.size()]) + " (target)";
    s << "<rect x=\"" << num(kLeft) << "\" y=\"" << num(y) << "\" width=\"" << num(plot_w) << "\" height=\"" << num(kLane)
      << "\" fill=\"" << (i % 2 ? "#f6f6f6" : "#fcfcfc") << "\"/>\n";
    s << "<line x1=\"" << num(kLeft) << "\" y1=\"" << num(lane_mid(i)) << "\" x2=\"" << num(kLeft + plot_w) << "\" y2=\""
      << num(lane_mid(i)) << "\" stroke=\"#cccccc\"/>\n";
    s << "<text class=\"lane-label\" x=\"" << num(kLeft - 8) << "\" y=\"" << num(lane_mid(i) + 4) << "\" text-anchor=\"end\">"
      << esc(name) << "</text>\n";
  }
  s << "</g>\n<g clip-path=\"url(#plot)\">\n";

  auto box = [&](int lane, std::int64_t b, std::int64_t e, const std::string& fill, const std::string& stroke, const std::string& text,
                 const std::string& cls, double min_w = 1.5) {
    double x0 = X(std::max(b, from)), x1 = X(std::min(e, to));
    if (x1 - x0 < min_w)
      x1 = x0 + min_w;
    const double y = lane_mid(lane) - kBox / 2;
    s << "<rect class=\"" << cls << "\" x=\"" << num(x0) << "\" y=\"" << num(y) << "\" width=\"" << num(x1 - x0) << "\" height=\""
      << num(kBox) << "\" fill=\"" << fill << "\" stroke=\"" << stroke << "\" stroke-width=\"0.8\"/>\n";
    if (!text.empty() && x1 - x0 > 7.0 * static_cast<double>(text.size()))
      s << "<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << num(lane_mid(lane) + 4) << "\" text-anchor=\"middle\">" << esc(text)
        << "</text>\n";
  };

  // Compute and lock.
  for (const auto& [k, ivs] : ix.comps)
    if (lane_of.count(k))
      for (const Interval& i : ivs)
        if (visible(i.b, i.e))
          box(lane_of[k], i.b, i.e, "#a8d8a0", "#4a8a42", "compute", "compute");
  for (const auto& [k, ivs] : ix.locks)
    if (lane_of.count(k))
      for (const Interval& i : ivs)
        if (visible(i.b, i.e)) {
          const double x0 = X(std::max(i.b, from)), x1 = std::max(x0 + 1.0, X(std::min(i.e, to)));
          s << "<rect class=\"lock\" x=\"" << num(x0) << "\" y=\"" << num(lane_mid(lane_of[k]) + kBox / 2 + 1) << "\" width=\""
            << num(x1 - x0) << "\" height=\"4\" fill=\"#555555\"/>\n";
        }

  // Waits: blocking operations' completions are the operation's box; quiet/fence hatched.
  std::map<ThreadKey, std::vector<const OpInfo*>> ops_of;
  for (const OpInfo* o : ops)
    ops_of[o->thread()].push_back(o);
  std::set<std::uint64_t> boxed; // ops drawn as the box of their blocking wait
  for (const WaitInfo& w : ix.waits) {
    if (!lane_of.count(w.thread()) || !visible(w.begin, w.end))
      continue;
    const int lane = lane_of[w.thread()];
    if (w.what == "quiet" || w.what == "fence") {
      box(lane, w.begin, w.end, "url(#hatch-quiet)", "#c0392b", w.what, "wait-quiet");
    } else if (w.what == "wait_until") {
      box(lane, w.begin, w.end, "url(#hatch-wait)", "#777777", "wait_until", "wait-until");
    } else {
      // The blocking operation: the thread's last operation issued at or before the wait began.
      const OpInfo* op = nullptr;
      for (const OpInfo* o : ops_of[w.thread()]) {
        if (o->issue > w.begin)
          break;
        op = o;
      }
      std::int64_t b = w.begin;
      std::string kind = w.what == "amo" ? "famo" : w.what;
      if (op && op->issue <= w.begin && op->kind.find("nbi") == std::string::npos) {
        b    = op->issue;
        kind = op->kind;
        boxed.insert(op->id);
      }
      box(lane, b, w.end, op_color(kind), "#333333", op_label(kind), "op-" + kind);
    }
  }
  // Operations not drawn as a wait's box: nbi ones as small markers, blocking ones as thin boxes.
  for (const OpInfo* o : ops) {
    if (boxed.count(o->id) || o->issue < from || o->issue > to)
      continue;
    const int lane = lane_of[o->thread()];
    const double x = X(o->issue), y = lane_mid(lane);
    if (o->kind.find("nbi") != std::string::npos) {
      s << "<path class=\"op-" << o->kind << "\" d=\"M" << num(x) << ',' << num(y - kBox / 2) << " L" << num(x + 6) << ','
        << num(y - kBox / 2 - 8) << " L" << num(x - 6) << ',' << num(y - kBox / 2 - 8) << " z\" fill=\"" << op_color(o->kind)
        << "\" stroke=\"#333333\" stroke-width=\"0.6\"/>\n";
    } else {
      box(lane, o->issue, o->issue, op_color(o->kind), "#333333", "", "op-" + o->kind, 4);
    }
  }
  // Arrows: issue -> delivery at the target PE, delivery -> ACK/reply at the initiator.
  s << "<g class=\"arrows\" fill=\"none\">\n";
  auto arrows = [&](int src, int dst, std::int64_t issue, const MsgInfo& m, const char* c) {
    if (m.dlv < 0)
      return;
    if (visible(issue, m.dlv))
      s << "<line class=\"msg\" x1=\"" << num(X(issue)) << "\" y1=\"" << num(lane_mid(src)) << "\" x2=\"" << num(X(m.dlv))
        << "\" y2=\"" << num(lane_mid(dst)) << "\" stroke=\"" << c << "\" stroke-width=\"1.2\" marker-end=\"url(#arrow-" << (c + 1)
        << ")\"/>\n";
    if (m.done >= 0 && visible(m.dlv, m.done))
      s << "<line class=\"ack\" x1=\"" << num(X(m.dlv)) << "\" y1=\"" << num(lane_mid(dst)) << "\" x2=\"" << num(X(m.done))
        << "\" y2=\"" << num(lane_mid(src)) << "\" stroke=\"#777777\" stroke-width=\"1\" stroke-dasharray=\"4,3\" "
        << "marker-end=\"url(#arrow-777777)\"/>\n";
  };
  for (const OpInfo* o : ops)
    if (auto tl = pe_lane.find(o->target_pe); tl != pe_lane.end())
      for (std::uint64_t mid : o->msgs)
        arrows(lane_of[o->thread()], tl->second, o->issue, ix.msgs.at(mid), op_color(o->kind));
  for (const MsgInfo* m : free_msgs)
    if (auto tl = pe_lane.find(m->dst); tl != pe_lane.end())
      arrows(pe_lane.at(m->src), tl->second, m->t, *m,
             op_color(m->kind == "fetch_atomic" || m->kind == "atomic" || m->kind == "swap" ? "amo" : m->kind));
  s << "</g>\n</g>\n";

  // Time axis.
  const svg::TimeUnit u = svg::time_unit(to - from);
  s << "<g class=\"axis\">\n<line x1=\"" << num(kLeft) << "\" y1=\"" << num(axis_y) << "\" x2=\"" << num(kLeft + plot_w) << "\" y2=\""
    << num(axis_y) << "\" stroke=\"black\"/>\n";
  for (double v : svg::nice_ticks(static_cast<double>(from) / u.ps, static_cast<double>(to) / u.ps, 10)) {
    const double x = kLeft + (v * u.ps - static_cast<double>(from)) * plot_w / static_cast<double>(to - from);
    if (x < kLeft - 0.5 || x > kLeft + plot_w + 0.5)
      continue;
    s << "<line x1=\"" << num(x) << "\" y1=\"" << num(axis_y) << "\" x2=\"" << num(x) << "\" y2=\"" << num(axis_y + 5)
      << "\" stroke=\"black\"/><text x=\"" << num(x) << "\" y=\"" << num(axis_y + 18) << "\" text-anchor=\"middle\">"
      << svg::tick_label(v) << "</text>\n";
  }
  s << "<text x=\"" << num(kLeft + plot_w / 2) << "\" y=\"" << num(axis_y + 36) << "\" text-anchor=\"middle\">simulated time ("
    << u.name << ")</text>\n</g>\n";

  // Legend.
  s << "<g class=\"legend\">\n";
  struct Item {
    const char* name;
    const char* fill;
    const char* stroke;
    int shape; // 0 box, 1 triangle, 2 solid line, 3 dashed line, 4 thin bar
  };
  const Item items[] = {{"compute", "#a8d8a0", "#4a8a42", 0},       {"fetch-add", "#e08a1e", "#333333", 0},
                        {"blocking put", "#2f6fb5", "#333333", 0},  {"get", "#8a5cc2", "#333333", 0},
                        {"nbi op", "#2f6fb5", "#333333", 1},        {"quiet / fence", "url(#hatch-quiet)", "#c0392b", 0},
                        {"wait_until", "url(#hatch-wait)", "#777777", 0}, {"library lock", "#555555", "#555555", 4},
                        {"message", "#2f6fb5", "#2f6fb5", 2},       {"ACK / reply", "#777777", "#777777", 3}};
  double lx = kLeft;
  const double ly = axis_y + 58;
  for (const Item& it : items) {
    switch (it.shape) {
      case 0:
        s << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly - 9) << "\" width=\"18\" height=\"12\" fill=\"" << it.fill << "\" stroke=\""
          << it.stroke << "\" stroke-width=\"0.8\"/>\n";
        break;
      case 1:
        s << "<path d=\"M" << num(lx + 9) << ',' << num(ly + 3) << " L" << num(lx + 15) << ',' << num(ly - 7) << " L" << num(lx + 3)
          << ',' << num(ly - 7) << " z\" fill=\"" << it.fill << "\" stroke=\"" << it.stroke << "\" stroke-width=\"0.6\"/>\n";
        break;
      case 2:
      case 3:
        s << "<line x1=\"" << num(lx) << "\" y1=\"" << num(ly - 3) << "\" x2=\"" << num(lx + 18) << "\" y2=\"" << num(ly - 3)
          << "\" stroke=\"" << it.stroke << "\" stroke-width=\"1.2\"" << (it.shape == 3 ? " stroke-dasharray=\"4,3\"" : "") << "/>\n";
        break;
      default:
        s << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly - 5) << "\" width=\"18\" height=\"4\" fill=\"" << it.fill << "\"/>\n";
    }
    s << "<text x=\"" << num(lx + 22) << "\" y=\"" << num(ly + 1) << "\">" << it.name << "</text>\n";
    lx += 30 + 6.5 * static_cast<double>(std::char_traits<char>::length(it.name));
  }
  s << "</g>\n</svg>\n";
  d.svg = s.str();
  return d;
}

} // namespace shmemsim::analysis
