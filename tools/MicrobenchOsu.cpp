// `shmemsim microbench`'s OSU-style text (DIR/osu.txt, or stdout with --osu): the figures laid out
// as the OSU OpenSHMEM benchmarks print theirs, so that the two can be read side by side.
#include "tools/MicrobenchReport.hpp"

#include <cstdarg>
#include <cstdio>
#include <sstream>

namespace shmemsim::tools {

namespace {

std::string line(const char* format, ...) __attribute__((format(printf, 1, 2)));

std::string line(const char* format, ...)
{
  char buf[256];
  va_list ap;
  va_start(ap, format);
  std::vsnprintf(buf, sizeof buf, format, ap);
  va_end(ap);
  return std::string(buf) + "\n";
}

double us(double s)
{
  return s * 1e6;
}
double mbps(double bps)
{
  return bps / 1e6;
}
unsigned long long ull(std::uint64_t v)
{
  return static_cast<unsigned long long>(v);
}

/// The C routine an atomic figure times ("shmem_long_atomic_fetch_add", "shmem_uint64_atomic_and").
std::string routine_of(const std::string& atomic)
{
  const std::string op = atomic.rfind("fetch_", 0) == 0 ? atomic.substr(6) : atomic;
  const bool bitwise   = op == "and" || op == "or" || op == "xor";
  return std::string(bitwise ? "shmem_uint64_atomic_" : "shmem_long_atomic_") + atomic;
}

void header(std::ostringstream& o, const std::string& test, const MicrobenchSetup& s, const std::string& what)
{
  o << "# OSU-style OpenSHMEM " << test << " (shmemsim microbench, "
    << (s.emulated ? "emulated: wall-clock time" : "simulated time") << ")\n# " << what << "\n";
}

void pair_blocks(std::ostringstream& o, const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  const std::string pair = "2 PEs, PE 0 -> PE 1" + std::string(s.nodes == 1 ? " on one node" : "") + ", " +
                           std::to_string(s.iterations) + " iterations";
  const std::string window = pair + ", window " + std::to_string(s.window) + " (operations per shmem_quiet)";
  // One OSU block per figure: its header, "# Size  COLUMN", a row per message size.
  auto by_size = [&](const char* test, const std::string& note, const char* column, auto value) {
    header(o, test, s, note);
    o << line("# %-8s%20s", "Size", column);
    for (const SizeFigures& z : f.sizes)
      o << line("%-10llu%20.2f", ull(z.size), value(z));
    o << "\n";
  };
  by_size("Put Latency Test", pair + "; blocking shmem_putmem", "Latency (us)",
          [](const SizeFigures& z) { return us(z.put_s); });
  by_size("Get Latency Test", pair + "; blocking shmem_getmem", "Latency (us)",
          [](const SizeFigures& z) { return us(z.get_s); });
  by_size("Put Bandwidth Test", window, "Bandwidth (MB/s)", [](const SizeFigures& z) { return mbps(z.put_bw_Bps); });
  by_size("Put Message Rate Test", window, "Messages/s", [](const SizeFigures& z) { return z.put_rate_per_s; });
  by_size("Get Bandwidth Test", window, "Bandwidth (MB/s)", [](const SizeFigures& z) { return mbps(z.get_bw_Bps); });
  header(o, "Atomic Operation Latency Test", s, pair + "; 8-byte operands");
  o << line("# %-32s%16s", "Operation", "Latency (us)");
  for (const auto& [a, t] : f.atomics_s)
    o << line("%-34s%16.2f", routine_of(a).c_str(), us(t));
}

void pes_blocks(std::ostringstream& o, const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  for (const PesFigures& p : f.pes) {
    if (p.multi_pair.empty())
      continue;
    o << "\n";
    header(o, "Multi-pair Put Bandwidth and Message Rate Test", s,
           std::to_string(p.pes) + " PEs, " + std::to_string(p.pes / 2) + (p.pes == 2 ? " pair" : " pairs") +
               " (PE i -> PE i + " + std::to_string(p.pes / 2) + "), window " + std::to_string(s.window) +
               ", summed over the pairs");
    o << line("# %-8s%20s%20s", "Size", "Bandwidth (MB/s)", "Messages/s");
    for (const MultiPairSize& m : p.multi_pair)
      o << line("%-10llu%20.2f%20.2f", ull(m.size), mbps(m.put_bw_Bps), m.put_rate_per_s);
  }
  o << "\n";
  header(o, "Barrier Latency Test", s, "shmem_barrier_all against the number of PEs; latency averaged over the PEs");
  o << line("# %-6s%20s%20s%20s", "PEs", "Latency (us)", "Min Latency (us)", "Max Latency (us)");
  for (const PesFigures& p : f.pes)
    o << line("%-8d%20.2f%20.2f%20.2f", p.pes, us(p.barrier.mean_s), us(p.barrier.min_s), us(p.barrier.max_s));
  const char* const titles[]   = {"Broadcast", "Reduce", "Collect", "Fcollect", "Alltoall"};
  const char* const routines[] = {"shmem_broadcast64", "shmem_long_sum_to_all", "shmem_collect64", "shmem_fcollect64",
                                  "shmem_alltoall64"};
  for (std::size_t i = 0; i < microbench_collectives().size(); ++i) {
    const std::string& c = microbench_collectives()[i];
    o << "\n";
    header(o, std::string(titles[i]) + " Latency Test", s,
           std::string(routines[i]) + " on all PEs against the number of PEs; latency averaged over the PEs");
    o << line("# %-6s%-10s%20s%20s%20s", "PEs", "Size", "Latency (us)", "Min Latency (us)", "Max Latency (us)");
    for (const PesFigures& p : f.pes)
      for (const auto& [size, by_name] : p.collectives)
        if (const auto at = by_name.find(c); at != by_name.end())
          o << line("%-8d%-10llu%20.2f%20.2f%20.2f", p.pes, ull(size), us(at->second.mean_s), us(at->second.min_s),
                    us(at->second.max_s));
  }
}

} // namespace

std::string microbench_osu_text(const MicrobenchFigures& f, const MicrobenchSetup& s)
{
  std::ostringstream o;
  pair_blocks(o, f, s);
  if (!f.pes.empty())
    pes_blocks(o, f, s);
  return o.str();
}

} // namespace shmemsim::tools
