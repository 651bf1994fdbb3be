// The readable summary of a Report (what `shmemsim report` prints): one section per part of the
// report, listing the threads with the largest values.
#include "analysis/Report.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <sstream>

namespace shmemsim::analysis {

namespace {

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...)
{
  char buf[512];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

using ull = unsigned long long;

/// A readable duration of `ps` picoseconds.
std::string ht(std::int64_t ps)
{
  return human_time(seconds(ps));
}

std::string by_what_text(const std::map<std::string, WaitStats::What>& by_what)
{
  std::string s;
  for (const auto& [k, v] : by_what) {
    if (!s.empty())
      s += ", ";
    s += k + " " + std::to_string(v.count) + " / " + ht(v.ps);
  }
  return s;
}

constexpr std::size_t kTop = 10; // threads listed per section of the summary

/// A section's list of threads: those whose `value` (picoseconds) is > 0, the largest first
/// (ties: in report order), at most kTop; then how many more there are.
class TopThreads {
public:
  TopThreads(const Report& r, const std::function<std::int64_t(const ThreadReport&)>& value)
  {
    std::vector<std::pair<double, const ThreadReport*>> v;
    for (const ThreadReport& t : r.threads)
      if (seconds(value(t)) > 0)
        v.emplace_back(seconds(value(t)), &t);
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; i < v.size() && i < kTop; ++i)
      top_.push_back(v[i].second);
    more_ = v.size() - top_.size();
  }
  const std::vector<const ThreadReport*>& threads() const { return top_; }
  void print_more(std::ostringstream& o) const
  {
    if (more_)
      o << "  ... and " << more_ << " more threads (report.json has them all)\n";
  }

private:
  std::vector<const ThreadReport*> top_;
  std::size_t more_ = 0;
};

void format_trace(std::ostringstream& o, const TraceSummary& t)
{
  o << fmt("trace: level %s, %llu events, %llu PEs, %llu threads, %llu operations, %llu messages, span %s\n",
           traces::to_string(t.level), static_cast<ull>(t.events), static_cast<ull>(t.pes), static_cast<ull>(t.threads),
           static_cast<ull>(t.operations), static_cast<ull>(t.messages), ht(t.end - t.begin).c_str());
}

void format_waits(std::ostringstream& o, const Report& r)
{
  const WaitStats& w = r.waits;
  o << fmt("ACK-counter waits: %llu, %s in total", static_cast<ull>(w.count), ht(w.ps).c_str());
  if (w.count > 0)
    o << " (" << by_what_text(w.by_what) << ")";
  o << "\n";
  if (!w.by_collective.empty())
    o << "  on collectives the NICs ran: " << by_what_text(w.by_collective) << "\n";
  const TopThreads top(r, [](const ThreadReport& t) { return t.waits.ps; });
  for (const ThreadReport* th : top.threads()) {
    const WaitStats& tw = th->waits;
    o << fmt("  %-22s %llu waits, %s (%s); waited for %llu ops, %llu bytes\n", label(th->key).c_str(),
             static_cast<ull>(tw.count), ht(tw.ps).c_str(), by_what_text(tw.by_what).c_str(),
             static_cast<ull>(tw.waited.all.n), static_cast<ull>(tw.waited.all.bytes));
  }
  top.print_more(o);
}

/// "thread 3: 1.2 us, thread 5: 800 ns, thread 1: 20 ns, 2 more threads": the three largest culprits.
std::string culprits_text(const ThreadReport& th)
{
  std::vector<std::pair<double, std::string>> culprits;
  for (const auto& [thr, ps] : th.interference_by_thread_ps)
    if (seconds(ps) > 0)
      culprits.emplace_back(seconds(ps), std::to_string(thr));
  std::stable_sort(culprits.begin(), culprits.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string from;
  for (std::size_t i = 0; i < culprits.size() && i < 3; ++i)
    from +=
        (from.empty() ? "" : ", ") + std::string("thread ") + culprits[i].second + ": " + human_time(culprits[i].first);
  if (culprits.size() > 3)
    from += fmt(", %zu more threads", culprits.size() - 3);
  return from;
}

void format_interference(std::ostringstream& o, const Report& r)
{
  o << "thread interference (waiting for other threads' operations): " << ht(r.interference.total_ps) << "\n";
  const TopThreads top(r, [](const ThreadReport& t) { return t.interference_ps; });
  for (const ThreadReport* th : top.threads())
    o << fmt("  %-22s %s (from %s)\n", label(th->key).c_str(), ht(th->interference_ps).c_str(),
             culprits_text(*th).c_str());
  top.print_more(o);
}

void format_overlap(std::ostringstream& o, const Report& r)
{
  const OverlapReport& ov = r.overlap;
  o << fmt("overlap of communication: hidden behind compute %s, exposed in waits %s, ratio %.2f\n",
           ht(ov.hidden_ps).c_str(), ht(ov.exposed_ps).c_str(), overlap_ratio(ov.hidden_ps, ov.exposed_ps));
  const TopThreads top(r, [](const ThreadReport& t) { return t.overlap.communication_ps; });
  for (const ThreadReport* th : top.threads()) {
    const ThreadReport::Overlap& x = th->overlap;
    o << fmt("  %-22s ratio %.2f (hidden %s, exposed %s, communicating %s, computing %s)\n", label(th->key).c_str(),
             overlap_ratio(x.hidden_ps, x.exposed_ps), ht(x.hidden_ps).c_str(), ht(x.exposed_ps).c_str(),
             ht(x.communication_ps).c_str(), ht(x.compute_ps).c_str());
  }
  top.print_more(o);
}

/// The five links that carried the most bytes.
void format_busiest_links(std::ostringstream& o, const NetworkReport& n)
{
  std::vector<const LinkReport*> links;
  for (const LinkReport& l : n.links)
    links.push_back(&l);
  std::stable_sort(links.begin(), links.end(),
                   [](const LinkReport* a, const LinkReport* b) { return a->bytes > b->bytes; });
  o << fmt("  links: %zu used; busiest:\n", links.size());
  for (std::size_t i = 0; i < links.size() && i < 5; ++i) {
    const LinkReport& l = *links[i];
    std::string u       = !l.utilization ? "utilization unknown (no link_bandwidth_Bps)"
                                         : fmt("utilization %.1f%%", 100 * *l.utilization);
    o << fmt("    %-20s %llu bytes in %llu packets, %s, contention: packets queued %s in total (max %s)\n",
             l.name.c_str(), static_cast<ull>(l.bytes), static_cast<ull>(l.packets), u.c_str(), ht(l.queued_ps).c_str(),
             ht(l.max_queued_ps).c_str());
  }
}

void format_network(std::ostringstream& o, const NetworkReport& n)
{
  o << fmt(
      "network: %llu messages, %llu bytes, %llu delivered, %llu out of order, %llu overtaken (reorder depth max %llu, mean "
      "%.2f)\n",
      static_cast<ull>(n.messages), static_cast<ull>(n.bytes), static_cast<ull>(n.deliveries),
      static_cast<ull>(n.out_of_order), static_cast<ull>(n.overtaken), static_cast<ull>(n.depth_max), n.depth_mean());
  for (const NicReport& nic : n.nics)
    o << fmt("  NIC of node %-4d %llu messages, %llu bytes; contention: queued %s in total (mean %s, max %s)\n",
             nic.node, static_cast<ull>(nic.messages), static_cast<ull>(nic.bytes), ht(nic.queued_ps).c_str(),
             human_time(nic.mean_queued_s()).c_str(), ht(nic.max_queued_ps).c_str());
  if (!n.links.empty())
    format_busiest_links(o, n);
}

void format_resources(std::ostringstream& o, const ResourcesReport& rs)
{
  std::string lim;
  for (const auto& [k, v] : rs.limits())
    lim += (lim.empty() ? "" : ", ") + std::string(k) + " " + (v ? meta_value_json(v).dump() : std::string("unknown"));
  o << "resources: limits " << lim << "\n";
  for (const PeResources& p : rs.pes) {
    std::string le;
    for (const auto& [k, v] : p.limit_events)
      le += fmt(", %s limit hit %llu times", k.c_str(), static_cast<ull>(v));
    if (p.created + p.refused + p.shared == 0 && le.empty())
      continue;
    o << fmt("  PE %-4d contexts created %llu, destroyed %llu, refused %llu, shared %llu, peak in use %llu%s\n", p.pe,
             static_cast<ull>(p.created), static_cast<ull>(p.destroyed), static_cast<ull>(p.refused),
             static_cast<ull>(p.shared), static_cast<ull>(p.peak_in_use), le.c_str());
  }
  if (rs.max_volatile_size)
    o << fmt("  puts: %llu volatile (%llu bytes), %llu buffered (%llu bytes)\n", static_cast<ull>(rs.volatile_puts.n),
             static_cast<ull>(rs.volatile_puts.bytes), static_cast<ull>(rs.buffered_puts.n),
             static_cast<ull>(rs.buffered_puts.bytes));
  else
    o << fmt("  puts: %llu (volatile or buffered unknown: no max_volatile_size in the trace)\n",
             static_cast<ull>(rs.volatile_puts.n + rs.buffered_puts.n));
}

} // namespace

std::string format_report(const Report& r)
{
  std::ostringstream o;
  format_trace(o, r.trace);
  format_waits(o, r);
  format_interference(o, r);
  format_overlap(o, r);
  format_network(o, r.network);
  format_resources(o, r.resources);
  return o.str();
}

} // namespace shmemsim::analysis
