#include "tools/MicrobenchReport.hpp"

#include "analysis/AxisUnits.hpp"
#include "scenarios/Scenario.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace shmemsim::tools {

using scenarios::ScenarioError;

using json = nlohmann::json;
using analysis::Quantity;
using analysis::with_unit;

const std::vector<std::string>& microbench_atomics()
{
  static const std::vector<std::string> v = {"fetch",     "set",      "swap",      "compare_swap", "inc",
                                             "fetch_inc", "add",      "fetch_add", "and",          "fetch_and",
                                             "or",        "fetch_or", "xor",       "fetch_xor"};
  return v;
}

const std::vector<std::string>& microbench_collectives()
{
  static const std::vector<std::string> v = {"broadcast", "reduce", "collect", "fcollect", "alltoall"};
  return v;
}

namespace {

/// The program's figure lines: by name, then size.
using FigureLines = std::map<std::string, std::map<std::uint64_t, double>>;

FigureLines read_figure_lines(const std::string& text, const std::string& source)
{
  FigureLines out;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    std::istringstream l(line);
    std::string name, extra;
    unsigned long long size = 0;
    double v                = 0;
    if (!(l >> name >> size >> v) || (l >> extra) || !std::isfinite(v) || v <= 0)
      throw ScenarioError(source + ":" + std::to_string(n) + ": not a figure line 'FIGURE SIZE VALUE': '" + line + "'");
    out[name][size] = v;
  }
  return out;
}

/// The figure `name` of every size of `sizes`, or an error naming what is missing.
double need(const FigureLines& lines, const std::string& name, std::uint64_t size, const std::string& source)
{
  const auto it = lines.find(name);
  if (it == lines.end() || !it->second.count(size))
    throw ScenarioError(source + ": no figure '" + name + "' for size " + std::to_string(size) +
                        " (did the run finish?)");
  return it->second.at(size);
}

/// The sizes the figure `name` has, ascending; an error when there are none.
std::vector<std::uint64_t> sizes_of(const FigureLines& lines, const std::string& name, const std::string& source)
{
  std::vector<std::uint64_t> v;
  if (const auto it = lines.find(name); it != lines.end())
    for (const auto& [size, value] : it->second)
      v.push_back(size);
  if (v.empty())
    throw ScenarioError(source + ": no '" + name + "' figures (did the run finish?)");
  return v;
}

void no_unknown(const FigureLines& lines, const std::set<std::string>& known, const std::string& source)
{
  for (const auto& [name, values] : lines)
    if (!known.count(name))
      throw ScenarioError(source + ": unknown figure '" + name + "'");
}

CollectiveTime collective_time(const FigureLines& lines, const std::string& name, std::uint64_t size,
                               const std::string& source)
{
  return {need(lines, "coll_" + name, size, source), need(lines, "coll_" + name + "_min", size, source),
          need(lines, "coll_" + name + "_max", size, source)};
}

} // namespace

void parse_pair_output(const std::string& text, const std::string& source, MicrobenchFigures& f)
{
  const FigureLines lines     = read_figure_lines(text, source);
  std::set<std::string> known = {"put", "put_quiet", "get", "put_bw", "put_rate", "get_bw", "pingpong"};
  for (const std::string& a : microbench_atomics())
    known.insert("amo_" + a);
  no_unknown(lines, known, source);
  f.sizes.clear();
  for (std::uint64_t size : sizes_of(lines, "put", source))
    f.sizes.push_back({size, need(lines, "put", size, source), need(lines, "put_quiet", size, source),
                       need(lines, "get", size, source), need(lines, "put_bw", size, source),
                       need(lines, "put_rate", size, source), need(lines, "get_bw", size, source)});
  f.atomics_s.clear();
  for (const std::string& a : microbench_atomics())
    f.atomics_s.emplace_back(a, need(lines, "amo_" + a, 8, source));
  f.pingpong_s = need(lines, "pingpong", 8, source);
}

PesFigures parse_pes_output(const std::string& text, const std::string& source, int pes)
{
  const FigureLines lines     = read_figure_lines(text, source);
  std::set<std::string> known = {"mp_put_bw", "mp_put_rate"};
  for (const std::string& c : microbench_collectives())
    for (const char* suffix : {"", "_min", "_max"})
      known.insert("coll_" + c + suffix);
  for (const char* suffix : {"", "_min", "_max"})
    known.insert(std::string("coll_barrier") + suffix);
  no_unknown(lines, known, source);
  PesFigures p;
  p.pes = pes;
  if (pes % 2 == 0)
    for (std::uint64_t size : sizes_of(lines, "mp_put_bw", source))
      p.multi_pair.push_back({size, need(lines, "mp_put_bw", size, source), need(lines, "mp_put_rate", size, source)});
  p.barrier = collective_time(lines, "barrier", 0, source);
  for (const std::string& c : microbench_collectives())
    for (std::uint64_t size : sizes_of(lines, "coll_" + c, source))
      p.collectives[size][c] = collective_time(lines, c, size, source);
  return p;
}

namespace {

std::string time_of(double s)
{
  return with_unit(s, Quantity::Time);
}

/// "| a | b |" with each cell right-aligned to `width`.
std::string row(const std::vector<std::string>& cells, int width)
{
  std::string out = "|";
  char buf[128];
  for (const std::string& c : cells) {
    std::snprintf(buf, sizeof buf, " %*s |", width, c.c_str());
    out += buf;
  }
  return out + "\n";
}

std::string rule(std::size_t columns, int width)
{
  std::string out = "|";
  for (std::size_t i = 0; i < columns; ++i)
    out += std::string(static_cast<std::size_t>(width) + 2, '-') + "|";
  return out + "\n";
}

void pair_table(std::ostringstream& o, const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  o << row({"size", "put", "put+quiet", "get", "put bandwidth", "message rate", "get bandwidth"}, 13) << rule(7, 13);
  for (const SizeFigures& z : f.sizes)
    o << row({with_unit(static_cast<double>(z.size), Quantity::Size), time_of(z.put_s), time_of(z.put_quiet_s),
              time_of(z.get_s), with_unit(z.put_bw_Bps, Quantity::Bandwidth),
              with_unit(z.put_rate_per_s, Quantity::Rate), with_unit(z.get_bw_Bps, Quantity::Bandwidth)},
             13);
  o << "\nbandwidth and rate: streams of non-blocking operations, a shmem_quiet every " << s.window
    << "; put ping-pong, one way: " << time_of(f.pingpong_s) << "\n\n8-byte atomics (latency of one call):\n\n";
  const std::size_t half = (f.atomics_s.size() + 1) / 2;
  o << row({"operation", "latency", "operation", "latency"}, 12) << rule(4, 12);
  for (std::size_t i = 0; i < half; ++i) {
    const auto& [a, t]             = f.atomics_s[i];
    std::vector<std::string> cells = {a, time_of(t), "", ""};
    if (half + i < f.atomics_s.size())
      cells[2] = f.atomics_s[half + i].first, cells[3] = time_of(f.atomics_s[half + i].second);
    o << row(cells, 12);
  }
}

void pes_tables(std::ostringstream& o, const MicrobenchFigures& f)
{
  std::vector<std::string> head = {"size"};
  std::set<std::uint64_t> sizes;
  for (const PesFigures& p : f.pes)
    if (!p.multi_pair.empty()) {
      head.push_back(std::to_string(p.pes / 2) + (p.pes == 2 ? " pair" : " pairs"));
      head.push_back("rate");
      for (const MultiPairSize& m : p.multi_pair)
        sizes.insert(m.size);
    }
  if (head.size() > 1) {
    o << "\nmulti-pair put streams (PE i -> PE i + N/2), bandwidth and message rate summed over the pairs:\n\n"
      << row(head, 12) << rule(head.size(), 12);
    for (std::uint64_t size : sizes) {
      std::vector<std::string> cells = {with_unit(static_cast<double>(size), Quantity::Size)};
      for (const PesFigures& p : f.pes)
        for (const MultiPairSize& m : p.multi_pair)
          if (m.size == size)
            cells.push_back(with_unit(m.put_bw_Bps, Quantity::Bandwidth)),
                cells.push_back(with_unit(m.put_rate_per_s, Quantity::Rate));
      o << row(cells, 12);
    }
  }
  head = {"collective", "size"};
  for (const PesFigures& p : f.pes)
    head.push_back(std::to_string(p.pes) + " PEs");
  o << "\ncollectives on every PE (mean time of one call, averaged over the PEs):\n\n"
    << row(head, 12) << rule(head.size(), 12);
  std::vector<std::string> cells = {"barrier", "-"};
  for (const PesFigures& p : f.pes)
    cells.push_back(time_of(p.barrier.mean_s));
  o << row(cells, 12);
  for (const auto& [size, by_name] : f.pes.front().collectives)
    for (const std::string& c : microbench_collectives()) {
      cells = {c, with_unit(static_cast<double>(size), Quantity::Size)};
      for (const PesFigures& p : f.pes) {
        const auto at = p.collectives.find(size);
        cells.push_back(at != p.collectives.end() && at->second.count(c) ? time_of(at->second.at(c).mean_s) : "-");
      }
      o << row(cells, 12);
    }
}

std::string clock_of(const MicrobenchSetup& s)
{
  return s.emulated ? "wall-clock time of each timed loop (emulated: real processes over TCP)"
                    : "simulated time of each timed loop";
}

} // namespace

std::string microbench_table(const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  std::ostringstream o;
  o << "microbench: PE 0 -> PE 1, "
    << (s.emulated     ? "as real processes"
        : s.nodes == 1 ? "on one node"
        : s.nodes == 2 ? "on two nodes"
                       : "nodes not recorded")
    << ", " << s.iterations << " iterations; " << clock_of(s) << " (docs/microbench.md)\n";
  o << "scenario: " << s.scenario;
  for (const std::string& set : s.sets)
    o << " --set " << set;
  o << "\n\n";
  pair_table(o, f, s);
  if (!f.pes.empty())
    pes_tables(o, f);
  return o.str();
}

namespace {

/// What each figure measures (docs/microbench.md), by its JSON name.
json descriptions(long window)
{
  const std::string w = std::to_string(window);
  return {
      {"put_s", "mean time of one blocking shmem_putmem on PE 0 to PE 1 (returns when the source may be reused)"},
      {"put_quiet_s", "mean time of shmem_putmem + shmem_quiet (the data is at PE 1)"},
      {"get_s", "mean time of one blocking shmem_getmem from PE 1"},
      {"put_bw_Bps", "bytes per second of a stream of shmem_putmem_nbi, a shmem_quiet after every " + w + " puts"},
      {"put_rate_per_s", "puts per second of the same stream"},
      {"get_bw_Bps", "bytes per second of a stream of shmem_getmem_nbi, a shmem_quiet after every " + w + " gets"},
      {"atomics", "mean time of one 64-bit atomic of each kind on PE 1 (shmem_long_atomic_*, bitwise: "
                  "shmem_uint64_atomic_*), back to back; fetched values and the target's value checked by the program"},
      {"pingpong_s", "one-way latency of an 8-byte put: half the round trip of a put ping-pong between PE 0 and PE 1"},
      {"multi_pair", "PEs 0..N/2-1 each stream shmem_putmem_nbi to PE i + N/2, a shmem_quiet after every " + w +
                         ": every sender's bytes (puts) per second, summed"},
      {"collectives",
       "mean time of one call on all PEs (the active-set forms: shmem_broadcast64, shmem_long_sum_to_all, shmem_collect64, shmem_fcollect64, shmem_alltoall64), averaged over the PEs (min/max: the fastest and "
       "slowest PE's mean); each call timed alone, an untimed barrier between calls (barrier: "
       "back to back); the last call's data checked by the program"},
  };
}

json pes_json(const PesFigures& p)
{
  json mp = json::array();
  for (const MultiPairSize& m : p.multi_pair)
    mp.push_back({{"size_bytes", m.size}, {"put_bw_Bps", m.put_bw_Bps}, {"put_rate_per_s", m.put_rate_per_s}});
  json sizes = json::array();
  for (const auto& [size, by_name] : p.collectives) {
    json z = {{"size_bytes", size}};
    for (const auto& [name, t] : by_name)
      z[name + "_s"] = t.mean_s, z[name + "_min_s"] = t.min_s, z[name + "_max_s"] = t.max_s;
    sizes.push_back(z);
  }
  json out = {{"pes", p.pes},
              {"barrier_s", p.barrier.mean_s},
              {"barrier_min_s", p.barrier.min_s},
              {"barrier_max_s", p.barrier.max_s},
              {"collectives", sizes}};
  if (!p.multi_pair.empty())
    out["multi_pair"] = {{"pairs", p.pes / 2}, {"sizes", mp}};
  return out;
}

} // namespace

json microbench_json(const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  json sizes = json::array();
  for (const SizeFigures& z : f.sizes)
    sizes.push_back({{"size_bytes", z.size},
                     {"put_s", z.put_s},
                     {"put_quiet_s", z.put_quiet_s},
                     {"get_s", z.get_s},
                     {"put_bw_Bps", z.put_bw_Bps},
                     {"put_rate_per_s", z.put_rate_per_s},
                     {"get_bw_Bps", z.get_bw_Bps}});
  json atomics = {{"size_bytes", 8}};
  for (const auto& [a, t] : f.atomics_s)
    atomics[a + "_s"] = t;
  json pes = json::array();
  for (const PesFigures& p : f.pes)
    pes.push_back(pes_json(p));
  return {{"scenario", s.scenario},
          {"sets", s.sets},
          {"iterations", s.iterations},
          {"window", s.window},
          {"emulated", s.emulated},
          {"pes", 2},
          {"pes_per_node", s.pes_per_node},
          {"nodes_used", s.nodes},
          {"platform", s.platform},
          {"measures", s.emulated ? "wall-clock time of the benchmark's own timed loops (clock_gettime in the "
                                    "program), real processes over TCP (shmemsim-run --emulate)"
                                  : "simulated time of the benchmark's own timed loops (clock_gettime in the program), "
                                    "computation not simulated unless job.compute is set"},
          {"figures", descriptions(s.window)},
          {"sizes", sizes},
          {"atomics", atomics},
          {"pingpong_s", f.pingpong_s},
          {"by_pes", pes}};
}

} // namespace shmemsim::tools
