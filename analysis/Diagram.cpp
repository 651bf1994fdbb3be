#include "analysis/Diagram.hpp"

#include "analysis/Svg.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace shmemsim::analysis {

using svg::esc;
using svg::num;

namespace {

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
/// The operation kind whose color a message of the NIC's `kind` gets.
const std::string& msg_op_kind(const std::string& kind)
{
  static const std::string amo = "amo";
  return kind == "fetch_atomic" || kind == "atomic" || kind == "swap" ? amo : kind;
}

constexpr double kLeft = 150, kRight = 30, kTop = 50, kLane = 60, kBox = 24;
/// A SHMEM routine's span: a band behind the lane's boxes, from above them to below, its name in
/// the strip under the boxes.
constexpr double kRoutineAbove = 15, kRoutineBelow = 27;
/// Out-of-order deliveries: their arrows in this colour, thicker, dashed.
constexpr const char* kOooColor       = "#d62728";
constexpr std::size_t kMaxTargetLanes = 8;

/// The lanes of a diagram: PE threads first (or whole PEs, for traces without PE threads), then
/// target PEs without a lane of their own.
struct Lanes {
  std::vector<ThreadKey> shown;   ///< thread lanes (thr -1: a PE's lane)
  std::vector<int> targets;       ///< target PE lanes, after the shown ones, in PE order
  std::size_t candidates = 0;     ///< lanes the selection allowed
  bool endpoints         = false; ///< lanes are PEs, not threads
  std::map<ThreadKey, int> lane_of;
  std::map<int, int> pe_lane; ///< first lane of a PE
  int count() const { return static_cast<int>(shown.size() + targets.size()); }
  std::string name(int i) const
  {
    if (i >= static_cast<int>(shown.size()))
      return "PE " + std::to_string(targets[static_cast<std::size_t>(i) - shown.size()]) + " (target)";
    const ThreadKey& k = shown[static_cast<std::size_t>(i)];
    return k.thr < 0 ? "PE " + std::to_string(k.pe) : label(k);
  }
};

/// Thread lanes: the selected threads; without a selection, whole PEs in order while they fit in
/// max_lanes (at least the first PE's threads, up to max_lanes).
void choose_thread_lanes(const Index& ix, const DiagramOptions& opt, Lanes& l)
{
  std::map<int, std::vector<ThreadKey>> by_pe;
  for (const ThreadKey& k : ix.threads) {
    if (!opt.pes.empty() && !opt.pes.count(k.pe))
      continue;
    if (!opt.threads.empty() && !opt.threads.count(k.thr))
      continue;
    ++l.candidates;
    by_pe[k.pe].push_back(k);
  }
  const bool chosen = opt.pes.empty() && opt.threads.empty();
  for (const auto& [pe, ks] : by_pe) {
    if (chosen && !l.shown.empty() && l.shown.size() + ks.size() > static_cast<std::size_t>(opt.max_lanes))
      break;
    for (const ThreadKey& k : ks)
      if (!chosen || static_cast<int>(l.shown.size()) < opt.max_lanes)
        l.shown.push_back(k);
  }
}

/// A trace without PE threads (built-in traffic patterns: messages only) gets a lane per PE that
/// sent or received (every PE if none did).
void choose_endpoint_lanes(const Index& ix, const DiagramOptions& opt, Lanes& l)
{
  const bool chosen = opt.pes.empty() && opt.threads.empty();
  std::set<int> pes;
  for (const auto& [id, m] : ix.msgs)
    pes.insert(m.src), pes.insert(m.dst);
  if (pes.empty())
    for (const auto& [pe, node] : ix.pe_node)
      pes.insert(pe);
  for (int pe : pes) {
    if (!opt.pes.empty() && !opt.pes.count(pe))
      continue;
    ++l.candidates;
    if (!chosen || static_cast<int>(l.shown.size()) < opt.max_lanes)
      l.shown.push_back({pe, -1});
  }
}

Lanes choose_lanes(const Index& ix, const DiagramOptions& opt, std::ostringstream& note)
{
  Lanes l;
  choose_thread_lanes(ix, opt, l);
  l.endpoints = ix.threads.empty() && opt.threads.empty();
  if (l.endpoints)
    choose_endpoint_lanes(ix, opt, l);
  if (l.shown.empty())
    throw std::invalid_argument("no PE thread matches the selection (the trace has " +
                                std::to_string(ix.threads.size()) + " PE threads)");
  if (l.shown.size() < l.candidates && l.endpoints)
    note << "lanes: " << l.shown.size() << " of " << l.candidates << " PEs (use --pes to choose); ";
  else if (l.shown.size() < l.candidates)
    note << "lanes: " << l.shown.size() << " of " << l.candidates << " PE threads (PE " << l.shown.front().pe
         << (l.shown.back().pe != l.shown.front().pe ? " to " + std::to_string(l.shown.back().pe) : std::string())
         << "; use --pes/--threads to choose); ";
  for (std::size_t i = 0; i < l.shown.size(); ++i) {
    l.lane_of[l.shown[i]] = static_cast<int>(i);
    l.pe_lane.emplace(l.shown[i].pe, static_cast<int>(i));
  }
  return l;
}

/// What the lanes show: their operations (in issue order) and the messages of no PE operation
/// (traffic patterns) sent from their PEs (in issue order).
struct Shown {
  std::vector<const OpInfo*> ops;
  std::vector<const MsgInfo*> free_msgs;
};

Shown shown_traffic(const Index& ix, const Lanes& l)
{
  Shown s;
  for (std::uint64_t id : ix.op_order) {
    const OpInfo& o = ix.ops.at(id);
    if (l.lane_of.count(o.thread()))
      s.ops.push_back(&o);
  }
  for (const auto& [id, m] : ix.msgs)
    if (!ix.ops.count(m.op) && l.pe_lane.count(m.src))
      s.free_msgs.push_back(&m);
  std::stable_sort(s.free_msgs.begin(), s.free_msgs.end(),
                   [](const MsgInfo* a, const MsgInfo* b) { return a->t < b->t; });
  return s;
}

/// The time window: --from/--to, or the span of the first max_ops operations (messages), with a
/// small margin. Says what it chose in `note`.
void choose_window(const Index& ix, const DiagramOptions& opt, const Lanes& l, const Shown& s, Diagram& d,
                   std::ostringstream& note)
{
  const std::vector<const OpInfo*>& ops        = s.ops;
  const std::vector<const MsgInfo*>& free_msgs = s.free_msgs;
  std::int64_t from = opt.from.value_or(ix.t_begin), to = opt.to.value_or(ix.t_end);
  if (!opt.from && !opt.to && ops.empty() && static_cast<int>(free_msgs.size()) > opt.max_ops) {
    std::int64_t end = free_msgs[0]->t;
    for (int i = 0; i < opt.max_ops; ++i)
      end = std::max({end, free_msgs[i]->t, free_msgs[i]->dlv, free_msgs[i]->done});
    to = end + std::max<std::int64_t>(1, (end - from) / 50);
    note << "window: the span of the first " << opt.max_ops << " of " << free_msgs.size() << " messages";
  } else if (ops.empty() && !free_msgs.empty()) {
    note << "window: all " << free_msgs.size() << " messages";
  } else if (!opt.from && !opt.to && static_cast<int>(ops.size()) > opt.max_ops) {
    std::int64_t end = ops[0]->issue;
    for (int i = 0; i < opt.max_ops; ++i)
      end = std::max({end, ops[i]->issue, ops[i]->delivered, ops[i]->completed});
    // Close the waits and computations running at that date, so the last boxes are whole.
    const std::int64_t cut = end;
    for (const WaitInfo& w : ix.waits)
      if (l.lane_of.count(w.thread()) && w.begin <= cut && w.end > end && w.begin >= from)
        end = std::max(end, std::min(w.end, cut + (cut - from) / 10));
    to = end + std::max<std::int64_t>(1, (end - from) / 50);
    note << "window: the span of the first " << opt.max_ops << " of " << ops.size() << " operations";
  } else {
    std::size_t shown = 0; // operations whose issue-to-completion span meets the window
    for (const OpInfo* o : ops)
      shown += o->issue <= to && std::max({o->issue, o->delivered, o->completed}) >= from;
    note << "window: " << shown << (shown < ops.size() ? " of " + std::to_string(ops.size()) : std::string())
         << " operations";
  }
  if (to <= from)
    throw std::invalid_argument("empty time window (--from must be before --to and inside the trace)");
  d.from = from, d.to = to;
  note << " from " << human_time(seconds(from)) << " to " << human_time(seconds(to));
  if (!opt.from && !opt.to)
    note << " (use --from/--to for another window)";
}

/// Target PEs without a lane, of the operations and messages in the window, get one lane each
/// (at most kMaxTargetLanes, in PE order). Says in `note` how many targets had no lane.
void add_target_lanes(const Shown& s, const Diagram& d, Lanes& l, std::ostringstream& note)
{
  std::size_t missing_targets = 0;
  auto add                    = [&](int pe) {
    if (l.targets.size() < kMaxTargetLanes) {
      l.targets.push_back(pe);
      l.pe_lane[pe] = static_cast<int>(l.shown.size() + l.targets.size() - 1);
    } else {
      ++missing_targets;
    }
  };
  for (const OpInfo* o : s.ops) {
    if (o->issue > d.to || (o->completed >= 0 && o->completed < d.from && o->delivered < d.from))
      continue;
    if (o->target_pe < 0 || l.pe_lane.count(o->target_pe))
      continue;
    add(o->target_pe);
  }
  for (const MsgInfo* m : s.free_msgs) {
    if (m->t > d.to || (m->done >= 0 && m->done < d.from) || m->dst < 0 || l.pe_lane.count(m->dst))
      continue;
    add(m->dst);
  }
  std::sort(l.targets.begin(), l.targets.end()); // target lanes in PE order
  for (std::size_t i = 0; i < l.targets.size(); ++i)
    l.pe_lane[l.targets[i]] = static_cast<int>(l.shown.size() + i);
  if (missing_targets)
    note << "; " << missing_targets << " operations or messages go to PEs without a lane (no arrow)";
}

/// Draws the diagram, part after part, into an SVG document.
class DiagramSvg {
public:
  DiagramSvg(const Index& ix, const DiagramOptions& opt, const Lanes& lanes, const Diagram& d)
      : ix_(ix), lanes_(lanes), from_(d.from), to_(d.to), W_(opt.width), plot_w_(W_ - kLeft - kRight),
        plot_h_(lanes.count() * kLane), axis_y_(kTop + plot_h_)
  {
  }

  /// The SVG; `note` (what the window shows) gets what was drawn appended, and is the caption.
  std::string draw(const Shown& shown, std::string& note)
  {
    header();
    lane_backgrounds();
    s_ << "<g clip-path=\"url(#plot)\">\n";
    routines();
    compute_and_lock();
    const std::set<std::uint64_t> boxed = waits(shown.ops);
    operations(shown.ops, boxed);
    arrows(shown);
    s_ << "</g>\n";
    time_axis();
    legend();
    note += "; drawn: " + std::to_string(drawn_msgs_) + " message arrow" + (drawn_msgs_ == 1 ? "" : "s") + " (" +
            std::to_string(drawn_ooo_) + " out of order)";
    if (drawn_routines_ > 0)
      note += ", " + std::to_string(drawn_routines_) + " SHMEM routine span" + (drawn_routines_ == 1 ? "" : "s");
    title(note); // last in the document, once the caption can say what was drawn
    s_ << "</svg>\n";
    return s_.str();
  }

private:
  double X(std::int64_t t) const
  {
    return kLeft + static_cast<double>(t - from_) * plot_w_ / static_cast<double>(to_ - from_);
  }
  double lane_mid(int lane) const { return kTop + lane * kLane + kLane / 2; }
  bool visible(std::int64_t b, std::int64_t e) const { return e >= from_ && b <= to_; }

  void header()
  {
    const double H = axis_y_ + 50 + 80; // the axis, then two rows of legend
    s_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    s_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(W_) << "\" height=\"" << num(H)
       << "\" viewBox=\"0 0 " << num(W_) << ' ' << num(H)
       << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"11\">\n";
    s_ << "<defs>\n"
          "<pattern id=\"hatch-quiet\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(45)\">"
          "<rect width=\"6\" height=\"6\" fill=\"#fde3e1\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#c0392b\" stroke-width=\"2\"/></pattern>\n"
          "<pattern id=\"hatch-wait\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" patternTransform=\"rotate(-45)\">"
          "<rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#777777\" stroke-width=\"1.5\"/></pattern>\n";
    if (offloaded_waits_) // waits on collectives the NICs run (only then: other diagrams unchanged)
      s_ << "<pattern id=\"hatch-offload\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\" "
            "patternTransform=\"rotate(-45)\"><rect width=\"6\" height=\"6\" fill=\"#e3f1ec\"/><line x1=\"0\" y1=\"0\" "
            "x2=\"0\" y2=\"6\" stroke=\"#1e8a6a\" stroke-width=\"1.5\"/></pattern>\n";
    for (const char* c : {"#2f6fb5", "#e08a1e", "#8a5cc2", "#777777", kOooColor}) {
      s_ << "<marker id=\"arrow-" << (c + 1)
         << "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
            "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\""
         << c << "\"/></marker>\n";
    }
    s_ << "<clipPath id=\"plot\"><rect x=\"" << num(kLeft) << "\" y=\"" << num(kTop) << "\" width=\"" << num(plot_w_)
       << "\" height=\"" << num(plot_h_) << "\"/></clipPath>\n</defs>\n";
    s_ << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }

  void title(const std::string& note)
  {
    std::string title = "shmemsim timing diagram";
    for (const char* key : {"scenario", "program"})
      if (auto it = ix_.trace->meta.find(key); it != ix_.trace->meta.end())
        title += std::string(" — ") + it->second.substr(it->second.find_last_of('/') + 1); // file names, not paths
    s_ << "<text x=\"" << num(kLeft) << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\">" << esc(title)
       << "</text>\n";
    s_ << "<text x=\"" << num(kLeft) << "\" y=\"38\" fill=\"#555555\">" << esc(note) << "</text>\n";
  }

  void lane_backgrounds()
  {
    s_ << "<g class=\"lanes\">\n";
    for (int i = 0; i < lanes_.count(); ++i) {
      const double y = kTop + i * kLane;
      s_ << "<rect x=\"" << num(kLeft) << "\" y=\"" << num(y) << "\" width=\"" << num(plot_w_) << "\" height=\""
         << num(kLane) << "\" fill=\"" << (i % 2 ? "#f6f6f6" : "#fcfcfc") << "\"/>\n";
      s_ << "<line x1=\"" << num(kLeft) << "\" y1=\"" << num(lane_mid(i)) << "\" x2=\"" << num(kLeft + plot_w_)
         << "\" y2=\"" << num(lane_mid(i)) << "\" stroke=\"#cccccc\"/>\n";
      s_ << "<text class=\"lane-label\" x=\"" << num(kLeft - 8) << "\" y=\"" << num(lane_mid(i) + 4)
         << "\" text-anchor=\"end\">" << esc(lanes_.name(i)) << "</text>\n";
    }
    s_ << "</g>\n";
  }

  void box(int lane, std::int64_t b, std::int64_t e, const std::string& fill, const std::string& stroke,
           const std::string& text, const std::string& cls, double min_w = 1.5)
  {
    double x0 = X(std::max(b, from_)), x1 = X(std::min(e, to_));
    if (x1 - x0 < min_w)
      x1 = x0 + min_w;
    const double y = lane_mid(lane) - kBox / 2;
    s_ << "<rect class=\"" << cls << "\" x=\"" << num(x0) << "\" y=\"" << num(y) << "\" width=\"" << num(x1 - x0)
       << "\" height=\"" << num(kBox) << "\" fill=\"" << fill << "\" stroke=\"" << stroke
       << "\" stroke-width=\"0.8\"/>\n";
    if (!text.empty() && x1 - x0 > 7.0 * static_cast<double>(text.size()))
      s_ << "<text x=\"" << num((x0 + x1) / 2) << "\" y=\"" << num(lane_mid(lane) + 4) << "\" text-anchor=\"middle\">"
         << esc(text) << "</text>\n";
  }

  /// The SHMEM routines the lane's thread is in: a band behind its boxes, named below them (a
  /// collective's fetch-adds and waits sit inside the span of the collective that made them).
  void routines()
  {
    s_ << "<g class=\"routines\">\n";
    for (const RoutineInfo& r : ix_.routines) {
      auto lane = lanes_.lane_of.find(r.thread());
      if (lane == lanes_.lane_of.end() || !visible(r.begin, r.end))
        continue;
      ++drawn_routines_;
      const double x0 = X(std::max(r.begin, from_)), x1 = std::max(x0 + 1.0, X(std::min(r.end, to_)));
      const double y = lane_mid(lane->second);
      s_ << "<rect class=\"routine\" x=\"" << num(x0) << "\" y=\"" << num(y - kRoutineAbove) << "\" width=\""
         << num(x1 - x0) << "\" height=\"" << num(kRoutineAbove + kRoutineBelow)
         << "\" fill=\"#fff3c4\" stroke=\"#c9a227\" stroke-width=\"0.6\"><title>" << esc(label(r.thread())) << ": "
         << esc(r.name) << " from " << human_time(seconds(r.begin)) << " to " << human_time(seconds(r.end)) << " ("
         << human_time(seconds(r.end - r.begin)) << (r.unfinished ? ", unfinished at the end of the trace" : "")
         << ")</title></rect>\n";
      const std::string name = r.name.rfind("shmem_", 0) == 0 ? r.name.substr(6) : r.name;
      if (x1 - x0 > 5.5 * static_cast<double>(name.size()) + 4)
        s_ << "<text class=\"routine-name\" x=\"" << num(x0 + 2) << "\" y=\"" << num(y + kRoutineBelow - 3)
           << "\" font-size=\"9\" fill=\"#6b5300\">" << esc(name) << "</text>\n";
    }
    s_ << "</g>\n";
  }

  void compute_and_lock()
  {
    for (const auto& [k, ivs] : ix_.comps)
      if (auto lane = lanes_.lane_of.find(k); lane != lanes_.lane_of.end())
        for (const Interval& i : ivs)
          if (visible(i.b, i.e))
            box(lane->second, i.b, i.e, "#a8d8a0", "#4a8a42", "compute", "compute");
    for (const auto& [k, ivs] : ix_.locks)
      if (auto lane = lanes_.lane_of.find(k); lane != lanes_.lane_of.end())
        for (const Interval& i : ivs)
          if (visible(i.b, i.e)) {
            const double x0 = X(std::max(i.b, from_)), x1 = std::max(x0 + 1.0, X(std::min(i.e, to_)));
            s_ << "<rect class=\"lock\" x=\"" << num(x0) << "\" y=\"" << num(lane_mid(lane->second) + kBox / 2 + 1)
               << "\" width=\"" << num(x1 - x0) << "\" height=\"4\" fill=\"#555555\"/>\n";
          }
  }

  /// Waits: a blocking operation's completion wait is the operation's box; quiet/fence and
  /// wait_until hatched. Returns the operations drawn as the box of their wait.
  std::set<std::uint64_t> waits(const std::vector<const OpInfo*>& ops)
  {
    std::map<ThreadKey, std::vector<const OpInfo*>> ops_of;
    for (const OpInfo* o : ops)
      ops_of[o->thread()].push_back(o);
    std::set<std::uint64_t> boxed;
    for (const WaitInfo& w : ix_.waits) {
      auto lane_it = lanes_.lane_of.find(w.thread());
      if (lane_it == lanes_.lane_of.end() || !visible(w.begin, w.end))
        continue;
      const int lane = lane_it->second;
      if (w.what == "quiet" || w.what == "fence") {
        box(lane, w.begin, w.end, "url(#hatch-quiet)", "#c0392b", w.what, "wait-quiet");
      } else if (w.what == "wait_until") {
        box(lane, w.begin, w.end, "url(#hatch-wait)", "#777777", "wait_until", "wait-until");
      } else if (w.offloaded()) {
        box(lane, w.begin, w.end, "url(#hatch-offload)", "#1e8a6a", w.kind(), "wait-offloaded");
      } else {
        // The blocking operation: the thread's last operation issued at or before the wait began.
        const OpInfo* op = nullptr;
        for (const OpInfo* o : ops_of[w.thread()]) {
          if (o->issue > w.begin)
            break;
          op = o;
        }
        std::int64_t b   = w.begin;
        std::string kind = w.what == "amo" ? "famo" : w.what;
        if (op && op->issue <= w.begin && op->kind.find("nbi") == std::string::npos) {
          b    = op->issue;
          kind = op->kind;
          boxed.insert(op->id);
        }
        box(lane, b, w.end, op_color(kind), "#333333", op_label(kind), "op-" + kind);
      }
    }
    return boxed;
  }

  /// Operations not drawn as a wait's box: nbi ones as small markers, blocking ones as thin boxes.
  void operations(const std::vector<const OpInfo*>& ops, const std::set<std::uint64_t>& boxed)
  {
    for (const OpInfo* o : ops) {
      if (boxed.count(o->id) || o->issue < from_ || o->issue > to_)
        continue;
      const int lane = lanes_.lane_of.at(o->thread());
      const double x = X(o->issue), y = lane_mid(lane);
      if (o->kind.find("nbi") != std::string::npos) {
        s_ << "<path class=\"op-" << o->kind << "\" d=\"M" << num(x) << ',' << num(y - kBox / 2) << " L" << num(x + 6)
           << ',' << num(y - kBox / 2 - 8) << " L" << num(x - 6) << ',' << num(y - kBox / 2 - 8) << " z\" fill=\""
           << op_color(o->kind) << "\" stroke=\"#333333\" stroke-width=\"0.6\"/>\n";
      } else {
        box(lane, o->issue, o->issue, op_color(o->kind), "#333333", "", "op-" + o->kind, 4);
      }
    }
  }

  /// A message's tooltip: what it is, between which lanes, its dates.
  std::string tooltip(int src, int dst, std::int64_t issue, const MsgInfo& m) const
  {
    std::string t = m.kind + " message " + std::to_string(m.id) + ", " + std::to_string(m.bytes) +
                    " B: " + lanes_.name(src) + " to " + lanes_.name(dst) + "; issued " + human_time(seconds(issue)) +
                    ", delivered " + human_time(seconds(m.dlv));
    if (m.done >= 0)
      t += ", ACK/reply " + human_time(seconds(m.done));
    if (m.ooo)
      t += "; out of order (" + std::to_string(m.depth) + " later-issued message" + (m.depth == 1 ? "" : "s") +
           " of the pair delivered before it)";
    return t;
  }

  /// A message: issue -> delivery at the target lane, delivery -> ACK/reply at the initiator. An
  /// out-of-order delivery's arrow is red, thicker and dashed.
  void message_arrows(int src, int dst, std::int64_t issue, const MsgInfo& m, const char* c)
  {
    if (m.dlv < 0)
      return;
    const std::string tip = tooltip(src, dst, issue, m);
    if (visible(issue, m.dlv)) {
      ++drawn_msgs_;
      drawn_ooo_ += m.ooo;
      if (m.ooo)
        c = kOooColor;
      s_ << "<line class=\"msg" << (m.ooo ? " ooo" : "") << "\" x1=\"" << num(X(issue)) << "\" y1=\""
         << num(lane_mid(src)) << "\" x2=\"" << num(X(m.dlv)) << "\" y2=\"" << num(lane_mid(dst)) << "\" stroke=\"" << c
         << (m.ooo ? "\" stroke-width=\"2.2\" stroke-dasharray=\"7,2\"" : "\" stroke-width=\"1.2\"")
         << " marker-end=\"url(#arrow-" << (c + 1) << ")\"><title>" << esc(tip) << "</title></line>\n";
    }
    if (m.done >= 0 && visible(m.dlv, m.done))
      s_ << "<line class=\"ack\" x1=\"" << num(X(m.dlv)) << "\" y1=\"" << num(lane_mid(dst)) << "\" x2=\""
         << num(X(m.done)) << "\" y2=\"" << num(lane_mid(src))
         << "\" stroke=\"#777777\" stroke-width=\"1\" stroke-dasharray=\"4,3\" "
         << "marker-end=\"url(#arrow-777777)\"><title>ACK/reply of " << esc(tip) << "</title></line>\n";
  }

  void arrows(const Shown& shown)
  {
    s_ << "<g class=\"arrows\" fill=\"none\">\n";
    for (const OpInfo* o : shown.ops)
      if (auto tl = lanes_.pe_lane.find(o->target_pe); tl != lanes_.pe_lane.end())
        for (std::uint64_t mid : o->msgs) {
          const MsgInfo& m = ix_.msgs.at(mid);
          if (m.src == o->pe) // from the operation's thread to its target
            message_arrows(lanes_.lane_of.at(o->thread()), tl->second, o->issue, m, op_color(o->kind));
          else // sent by the target for the operation (a pulled put's read): target -> thread -> target
            message_arrows(tl->second, lanes_.lane_of.at(o->thread()), m.t, m, op_color(o->kind));
        }
    for (const MsgInfo* m : shown.free_msgs)
      if (auto tl = lanes_.pe_lane.find(m->dst); tl != lanes_.pe_lane.end())
        message_arrows(lanes_.pe_lane.at(m->src), tl->second, m->t, *m, op_color(msg_op_kind(m->kind)));
    s_ << "</g>\n";
  }

  void time_axis()
  {
    const svg::TimeUnit u = svg::time_unit(to_ - from_);
    s_ << "<g class=\"axis\">\n<line x1=\"" << num(kLeft) << "\" y1=\"" << num(axis_y_) << "\" x2=\""
       << num(kLeft + plot_w_) << "\" y2=\"" << num(axis_y_) << "\" stroke=\"black\"/>\n";
    for (double v : svg::nice_ticks(static_cast<double>(from_) / u.ps, static_cast<double>(to_) / u.ps, 10)) {
      const double x = kLeft + (v * u.ps - static_cast<double>(from_)) * plot_w_ / static_cast<double>(to_ - from_);
      if (x < kLeft - 0.5 || x > kLeft + plot_w_ + 0.5)
        continue;
      s_ << "<line x1=\"" << num(x) << "\" y1=\"" << num(axis_y_) << "\" x2=\"" << num(x) << "\" y2=\""
         << num(axis_y_ + 5) << "\" stroke=\"black\"/><text x=\"" << num(x) << "\" y=\"" << num(axis_y_ + 18)
         << "\" text-anchor=\"middle\">" << svg::tick_label(v) << "</text>\n";
    }
    s_ << "<text x=\"" << num(kLeft + plot_w_ / 2) << "\" y=\"" << num(axis_y_ + 36) << "\" text-anchor=\"middle\">"
       << (real_clock() ? "real time" : "simulated time") << " (" << u.name << ")</text>\n</g>\n";
  }

  /// An emulated run's trace is dated by the hosts' clocks (its meta clock "real"), a simulated
  /// one by the simulation's.
  bool real_clock() const
  {
    const auto it = ix_.trace->meta.find("clock");
    return it != ix_.trace->meta.end() && it->second == "real";
  }

  void legend()
  {
    s_ << "<g class=\"legend\">\n";
    enum Shape { Box, Triangle, Line, DashedLine, OooLine, Bar };
    struct Item {
      const char* name;
      const char* fill;
      const char* stroke;
      Shape shape;
    };
    const Item items[] = {{"compute", "#a8d8a0", "#4a8a42", Box},
                          {"fetch-add", "#e08a1e", "#333333", Box},
                          {"blocking put", "#2f6fb5", "#333333", Box},
                          {"get", "#8a5cc2", "#333333", Box},
                          {"nbi op", "#2f6fb5", "#333333", Triangle},
                          {"quiet / fence", "url(#hatch-quiet)", "#c0392b", Box},
                          {"wait_until", "url(#hatch-wait)", "#777777", Box},
                          {"NIC-run collective", kOffloadHatch, "#1e8a6a", Box},
                          {"shared lines / lock", "#555555", "#555555", Bar},
                          {"SHMEM routine", "#fff3c4", "#c9a227", Box},
                          {"message", "#2f6fb5", "#2f6fb5", Line},
                          {"out of order", kOooColor, kOooColor, OooLine},
                          {"ACK / reply", "#777777", "#777777", DashedLine}};
    double lx = kLeft, ly = axis_y_ + 58;
    for (const Item& it : items) {
      if (it.fill == std::string_view(kOffloadHatch) && !offloaded_waits_)
        continue;
      const double w = 30 + 6.5 * static_cast<double>(std::char_traits<char>::length(it.name));
      if (lx > kLeft && lx + w > W_ - kRight) // a second row rather than past the right edge
        lx = kLeft, ly += 20;
      switch (it.shape) {
        case Box:
          s_ << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly - 9) << "\" width=\"18\" height=\"12\" fill=\""
             << it.fill << "\" stroke=\"" << it.stroke << "\" stroke-width=\"0.8\"/>\n";
          break;
        case Triangle:
          s_ << "<path d=\"M" << num(lx + 9) << ',' << num(ly + 3) << " L" << num(lx + 15) << ',' << num(ly - 7) << " L"
             << num(lx + 3) << ',' << num(ly - 7) << " z\" fill=\"" << it.fill << "\" stroke=\"" << it.stroke
             << "\" stroke-width=\"0.6\"/>\n";
          break;
        case Line:
        case DashedLine:
        case OooLine:
          s_ << "<line x1=\"" << num(lx) << "\" y1=\"" << num(ly - 3) << "\" x2=\"" << num(lx + 18) << "\" y2=\""
             << num(ly - 3) << "\" stroke=\"" << it.stroke << "\" stroke-width=\""
             << (it.shape == OooLine ? "2.2\" stroke-dasharray=\"7,2\"" : "1.2\"")
             << (it.shape == DashedLine ? " stroke-dasharray=\"4,3\"" : "") << "/>\n";
          break;
        case Bar:
          s_ << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly - 5) << "\" width=\"18\" height=\"4\" fill=\"" << it.fill
             << "\"/>\n";
      }
      s_ << "<text x=\"" << num(lx + 22) << "\" y=\"" << num(ly + 1) << "\">" << it.name << "</text>\n";
      lx += w;
    }
    s_ << "</g>\n";
  }

  const Index& ix_;
  const Lanes& lanes_;
  const std::int64_t from_, to_;
  const double W_, plot_w_, plot_h_, axis_y_;
  std::ostringstream s_;
  int drawn_msgs_ = 0, drawn_ooo_ = 0, drawn_routines_ = 0;
  static constexpr const char* kOffloadHatch = "url(#hatch-offload)";
  /// The trace has waits on collectives the NICs run: their pattern and legend entry are drawn.
  const bool offloaded_waits_ =
      std::any_of(ix_.waits.begin(), ix_.waits.end(), [](const WaitInfo& w) { return w.offloaded(); });
};

} // namespace

Diagram make_diagram(const Index& ix, const DiagramOptions& opt)
{
  Diagram d;
  std::ostringstream note;
  Lanes lanes       = choose_lanes(ix, opt, note);
  const Shown shown = shown_traffic(ix, lanes);
  choose_window(ix, opt, lanes, shown, d, note);
  add_target_lanes(shown, d, lanes, note);
  d.lanes = lanes.count();
  d.note  = note.str();
  d.svg   = DiagramSvg(ix, opt, lanes, d).draw(shown, d.note);
  return d;
}

} // namespace shmemsim::analysis
