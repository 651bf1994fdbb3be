// Host parameters (platform.nodes, platform.cores_per_node, platform.core_speed,
// platform.instruction_time, platform.divide_time, platform.latency.*, the memory hierarchy
// platform.cache.* and platform.memory.*) and their declared keys (base/Params.hpp).
#pragma once

#include "base/Params.hpp"

#include <string>
#include <utility>

namespace shmemsim::sim {

struct HostParams {
  int nodes           = 16;
  int cores_per_node  = 12;
  double core_speed   = 13.32e9; ///< flop/s of one core
  Ps instruction_time = 150;     ///< one counted instruction on one core (qdr-16's X5680: 2 per cycle)
  Ps divide_time      = 4200;    ///< the divider busy for one divide or square root (X5680: 14 cycles)
  // Latencies of the operations of counted loops' dependency chains, by class (qdr-16's X5680:
  // Westmere's cycles x 300 ps).
  Ps latency_int    = 300;  ///< an integer ALU operation (1 cycle); also one cycle of other operations
  Ps latency_load   = 1200; ///< a load that hits L1 (4 cycles)
  Ps latency_fp_add = 900;  ///< a floating add or subtract (addsd: 3 cycles)
  Ps latency_fp_mul = 1500; ///< a floating multiply (mulsd: 5 cycles)
  /// Instructions an out-of-order core keeps in flight (qdr-16's X5680: Westmere's 128-entry reorder
  /// buffer), over which the chains of short loop executions overlap.
  int reorder_window = 128;
  /// Processor sockets of a node: its cores are divided among them in order (qdr-16: 2 x X5680).
  int sockets_per_node = 2;
  /// A locked read-modify-write (an atomic add, a compare-and-swap, a spin lock's acquire) on a
  /// cache line another core wrote last: the line's transfer, on one socket or between sockets
  /// (qdr-16's Westmere-EP; sources in its notes). Threads on shared library objects pay it
  /// (CacheLines.hpp).
  Ps line_same_socket  = 22'500;
  Ps line_cross_socket = 100'000;
  // The memory hierarchy counted compute charges (qdr-16's X5680, Westmere-EP; sources in its
  // notes): an L1 hit is latency_load.
  std::uint64_t cache_line       = 64;        ///< bytes per cache line
  std::uint64_t l1_size          = 32 << 10;  ///< the first-level data cache, bytes
  std::uint64_t l2_size          = 256 << 10; ///< the second level, bytes (0: none)
  Ps l2_latency                  = 3'000;     ///< a load that hits the second level (10 cycles)
  Ps l2_line_time                = 1'140;     ///< a line streamed from the second level (3.8 cycles)
  Ps l2_store_time               = 1'980;     ///< a line written to the second level, one store per line (6.6 cycles)
  std::uint64_t l3_size          = 12 << 20;  ///< the last level, bytes (0: none)
  Ps l3_latency                  = 15'800;    ///< a load that hits the last level (42 uncore cycles at 2.66 GHz)
  Ps l3_line_time                = 1'560;     ///< a line streamed from the last level (5.2 cycles)
  Ps l3_store_time               = 0;         ///< as l2_store_time for the last level (0: no figure, priced as a load)
  Ps memory_latency              = 82'000;    ///< a load that misses every level (42 cycles + 67 ns)
  std::uint64_t memory_bandwidth = 62'400'000'000; ///< bit/s one core moves to and from memory (7.8 GB/s)
  int memory_parallelism         = 10;             ///< independent misses a core keeps in flight (line fill buffers)
  int cache_sampling             = 16;             ///< one line in this many is simulated (0: no cache model)
  // The data TLBs (4 KiB pages; qdr-16's X5680, Westmere; sources in its notes).
  int tlb_l1_entries = 64;    ///< first-level data TLB entries (0: no TLB model)
  int tlb_l2_entries = 512;   ///< second-level (shared) TLB entries (0: none)
  Ps tlb_l2_latency  = 2'100; ///< a first-level miss that hits the second level (7 cycles)
  Ps tlb_walk        = 6'900; ///< a miss in every level: a page walk (23 cycles)
  int tlb_walkers    = 1;     ///< page walks one core does at once

  static const ParamTable<HostParams>& keys();
  /// Why the memory hierarchy's keys describe no model counted compute can run: {key, problem}
  /// (both empty when they do).
  std::pair<std::string, std::string> cache_problem() const;
};

/// The largest per-instruction, per-operation or per-divide cost a scenario may give (1 ms).
inline constexpr Ps kMaxCostTime = 1'000'000'000;
/// The largest cache a scenario may give (1 TiB).
inline constexpr std::uint64_t kMaxCacheSize = std::uint64_t{1} << 40;

inline const ParamTable<HostParams>& HostParams::keys()
{
  using K                                   = ParamKind;
  static const ParamTable<HostParams> table = {
      {.path  = "platform.nodes",
       .kind  = K::Int,
       .doc   = "Compute nodes (hosts).",
       .field = field(&HostParams::nodes),
       .min   = 1},
      {.path  = "platform.cores_per_node",
       .kind  = K::Int,
       .doc   = "Cores per node.",
       .field = field(&HostParams::cores_per_node),
       .min   = 1},
      {.path  = "platform.core_speed",
       .kind  = K::Speed,
       .doc   = "Speed of one core, flop/s.",
       .field = field(&HostParams::core_speed)},
      {.path  = "platform.instruction_time",
       .kind  = K::Time,
       .doc   = "Time of one counted instruction on one core (job.compute=counted: each executed basic block "
                "costs its instruction count, estimated at compile time by shmemsim-cc, times this): "
                "cycle time / instructions per cycle. `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::instruction_time),
       .min   = 1,
       .tmax  = kMaxCostTime},
      {.path  = "platform.divide_time",
       .kind  = K::Time,
       .doc   = "Time the divider is busy with one divide or square root (job.compute=counted: an innermost "
                "loop takes at least its divides and square roots times this per iteration). `shmemsim "
                "calibrate` measures this machine's.",
       .field = field(&HostParams::divide_time),
       .min   = 1,
       .tmax  = kMaxCostTime},
      {.path  = "platform.latency.int",
       .kind  = K::Time,
       .doc   = "Latency of an integer ALU operation (add, logic, shift), one core cycle (job.compute=counted: an "
                "innermost loop whose iterations form a chain of dependent operations takes at least the sum "
                "of their latencies per iteration, the chain found at compile time; operations of no class "
                "of their own, such as integer multiplies and conversions, count their reference cycles, "
                "Westmere's, at this latency). `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::latency_int),
       .min   = 1,
       .tmax  = kMaxCostTime},
      {.path  = "platform.latency.load",
       .kind  = K::Time,
       .doc   = "Latency of a load that hits the first-level cache (job.compute=counted: loads on a loop's "
                "dependency chain, as in pointer chasing). `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::latency_load),
       .min   = 1,
       .tmax  = kMaxCostTime},
      {.path  = "platform.latency.fp_add",
       .kind  = K::Time,
       .doc   = "Latency of a floating-point add or subtract (job.compute=counted: on a loop's dependency "
                "chain, as in a sum). `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::latency_fp_add),
       .min   = 1,
       .tmax  = kMaxCostTime},
      {.path  = "platform.latency.fp_mul",
       .kind  = K::Time,
       .doc   = "Latency of a floating-point multiply (job.compute=counted: on a loop's dependency chain, as "
                "in a product). `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::latency_fp_mul),
       .min   = 1,
       .tmax  = kMaxCostTime},
      {.path  = "platform.reorder_window",
       .kind  = K::Int,
       .doc   = "Instructions one core keeps in flight, its reorder buffer (job.compute=counted: when one "
                "execution of an innermost loop, iterations x instructions per iteration, is shorter than this, "
                "as for one row of a sparse matrix, the dependency chains of that many instructions' worth of "
                "consecutive executions overlap, each costing its chain divided by the overlap; 0: chains never "
                "overlap). `shmemsim calibrate` measures this machine's.",
       .field = field(&HostParams::reorder_window),
       .min   = 0,
       .max   = 65536},
      {.path  = "platform.sockets_per_node",
       .kind  = K::Int,
       .doc   = "Processor sockets of a node; its cores are divided among them in order (the program's cores "
                "first, then the NIC's progress core). Sets which cache-line transfers cross sockets "
                "(platform.coherence.*).",
       .field = field(&HostParams::sockets_per_node),
       .min   = 1,
       .max   = 64},
      {.path  = "platform.coherence.same_socket",
       .kind  = K::Time,
       .doc   = "Time a core takes to get a cache line that another core of its socket wrote last, for a locked "
                "read-modify-write (an atomic update, a lock's acquire). Threads of a PE that update the same "
                "object of the communication library (a shared context's counters and descriptor, the NI's "
                "buffer pool, a connection's send queue) pay it, one after another; 0ns: no cost.",
       .field = field(&HostParams::line_same_socket),
       .tmax  = kMaxCostTime},
      {.path  = "platform.coherence.cross_socket",
       .kind  = K::Time,
       .doc   = "The same as platform.coherence.same_socket for a line that a core of another socket wrote last.",
       .field = field(&HostParams::line_cross_socket),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.line",
       .kind  = K::Size,
       .doc   = "Bytes of a cache line (job.compute=counted's cache model: a power of two, at most 4096). "
                "`shmemsim calibrate` reads this machine's from sysfs.",
       .field = field(&HostParams::cache_line),
       .umin  = 1,
       .umax  = 4096},
      {.path  = "platform.cache.l1.size",
       .kind  = K::Size,
       .doc   = "Bytes of a core's first-level data cache (job.compute=counted: a reference to a line it "
                "holds costs nothing more than its instructions; its latency is platform.latency.load). "
                "`shmemsim calibrate` reads this machine's from sysfs.",
       .field = field(&HostParams::l1_size),
       .umin  = 1,
       .umax  = kMaxCacheSize},
      {.path  = "platform.cache.l2.size",
       .kind  = K::Size,
       .doc   = "Bytes of a core's second-level cache (job.compute=counted's cache model; 0: none). `shmemsim "
                "calibrate` reads this machine's from sysfs.",
       .field = field(&HostParams::l2_size),
       .umax  = kMaxCacheSize},
      {.path  = "platform.cache.l2.latency",
       .kind  = K::Time,
       .doc   = "Load-to-use latency of a hit in the second-level cache (job.compute=counted: a miss in the first "
                "level that hits here costs this less platform.latency.load, in full on a loop's dependency "
                "chain, divided by platform.memory.parallelism otherwise). `shmemsim calibrate` measures this "
                "machine's with a pointer chase.",
       .field = field(&HostParams::l2_latency),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.l2.line_time",
       .kind  = K::Time,
       .doc   = "Time a core takes per line to read a sequential stream that the second-level cache holds "
                "(job.compute=counted: a stream's reference served there costs this). `shmemsim calibrate` "
                "measures this machine's with a read stream.",
       .field = field(&HostParams::l2_line_time),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.l2.store_time",
       .kind  = K::Time,
       .doc   = "Time a core takes per line to write lines that miss the first level and that the second-level "
                "cache holds, one store per line (job.compute=counted: a store served there costs at least this, "
                "independent or in a stream: stores leave the store buffer in order and their lines' reads for "
                "ownership overlap less than loads' misses; 0: priced as a load). `shmemsim calibrate` measures "
                "this machine's with a write stream, one store per line.",
       .field = field(&HostParams::l2_store_time),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.l3.size",
       .kind  = K::Size,
       .doc   = "Bytes of the last-level cache a core may fill (job.compute=counted's cache model; 0: none). "
                "`shmemsim calibrate` reads this machine's from sysfs.",
       .field = field(&HostParams::l3_size),
       .umax  = kMaxCacheSize},
      {.path  = "platform.cache.l3.latency",
       .kind  = K::Time,
       .doc   = "Load-to-use latency of a hit in the last-level cache (as platform.cache.l2.latency). `shmemsim "
                "calibrate` measures this machine's with a pointer chase.",
       .field = field(&HostParams::l3_latency),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.l3.line_time",
       .kind  = K::Time,
       .doc   = "As platform.cache.l2.line_time for the last-level cache.",
       .field = field(&HostParams::l3_line_time),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.l3.store_time",
       .kind  = K::Time,
       .doc   = "As platform.cache.l2.store_time for the last-level cache.",
       .field = field(&HostParams::l3_store_time),
       .tmax  = kMaxCostTime},
      {.path  = "platform.memory.latency",
       .kind  = K::Time,
       .doc   = "Load-to-use latency of a load that misses every cache level (as platform.cache.l2.latency). "
                "`shmemsim calibrate` measures this machine's with a pointer chase.",
       .field = field(&HostParams::memory_latency),
       .tmax  = kMaxCostTime},
      {.path  = "platform.memory.bandwidth",
       .kind  = K::Bandwidth,
       .doc   = "What one core moves to and from memory (job.compute=counted: an independent load that misses "
                "every level takes at least a line's transfer at this rate, a store two: the line is read, "
                "then written back). `shmemsim calibrate` measures this machine's with a read stream.",
       .field = field(&HostParams::memory_bandwidth),
       .umin  = 1},
      {.path  = "platform.memory.parallelism",
       .kind  = K::Int,
       .doc   = "Independent cache misses a core keeps in flight (job.compute=counted: misses off a loop's "
                "dependency chain overlap this many at a time).",
       .field = field(&HostParams::memory_parallelism),
       .min   = 1,
       .max   = 1024},
      {.path  = "platform.cache.tlb.l1.entries",
       .kind  = K::Int,
       .doc   = "Entries of a core's first-level data TLB for 4 KiB pages (job.compute=counted's cache model: "
                "each sampled reference's page is looked up in LRU lists of the TLB levels; a page this level "
                "holds costs nothing more; 0: no TLB model). `shmemsim calibrate` reads this machine's from "
                "cpuid, or finds the knee of a page-strided pointer chase.",
       .field = field(&HostParams::tlb_l1_entries),
       .min   = 0,
       .max   = 1 << 20},
      {.path  = "platform.cache.tlb.l2.entries",
       .kind  = K::Int,
       .doc   = "Entries of a core's second-level TLB for 4 KiB pages (as platform.cache.tlb.l1.entries; 0: "
                "none, a first-level miss walks the page tables).",
       .field = field(&HostParams::tlb_l2_entries),
       .min   = 0,
       .max   = 1 << 20},
      {.path  = "platform.cache.tlb.l2.latency",
       .kind  = K::Time,
       .doc   = "Time a reference whose page misses the first-level TLB and hits the second takes beyond a "
                "first-level hit (job.compute=counted: in full on a loop's dependency chain, divided by "
                "platform.memory.parallelism otherwise, added to the reference's cache price). `shmemsim "
                "calibrate` measures this machine's with page-strided pointer chases.",
       .field = field(&HostParams::tlb_l2_latency),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.tlb.walk",
       .kind  = K::Time,
       .doc   = "Time a reference whose page misses every TLB level (a page walk) takes beyond a first-level "
                "hit (job.compute=counted: in full on a loop's dependency chain; otherwise it overlaps with "
                "the other misses, divided by platform.memory.parallelism, but walks take at least this over "
                "platform.cache.tlb.walkers each; a sampled walk counts platform.cache.sampling times, a "
                "stream's once: its page's other lines follow). `shmemsim calibrate` measures this machine's "
                "with page-strided pointer chases.",
       .field = field(&HostParams::tlb_walk),
       .tmax  = kMaxCostTime},
      {.path  = "platform.cache.tlb.walkers",
       .kind  = K::Int,
       .doc   = "Page walks one core does at once (its page-miss handlers; job.compute=counted: independent "
                "references that walk take at least platform.cache.tlb.walk over this each). `shmemsim "
                "calibrate` measures this machine's from independent page-strided loads.",
       .field = field(&HostParams::tlb_walkers),
       .min   = 1,
       .max   = 64},
      {.path  = "platform.cache.sampling",
       .kind  = K::Int,
       .doc   = "job.compute=counted's cache model simulates one cache line in this many (the lines at every "
                "N-th position of each 4 KiB page; a power of two, each sampled reference costs N times its "
                "own): larger is faster and coarser; 0: no cache model (every reference costs an L1 hit).",
       .field = field(&HostParams::cache_sampling),
       .min   = 0,
       .max   = 4096},
  };
  return table;
}

inline std::pair<std::string, std::string> HostParams::cache_problem() const
{
  const auto pow2 = [](std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  if (cache_sampling == 0)
    return {};
  if (!pow2(cache_line) || cache_line > 4096)
    return {"platform.cache.line", std::to_string(cache_line) + " is not a power of two of at most 4096 bytes"};
  const auto sampling = static_cast<std::uint64_t>(cache_sampling);
  if (!pow2(sampling) || sampling * cache_line > 4096)
    return {"platform.cache.sampling", std::to_string(cache_sampling) + " is not a power of two of at most " +
                                           std::to_string(4096 / cache_line) +
                                           " (the cache lines of a 4 KiB page), nor 0 (no cache model)"};
  const std::pair<const char*, std::uint64_t> sizes[] = {
      {"platform.cache.l1.size", l1_size}, {"platform.cache.l2.size", l2_size}, {"platform.cache.l3.size", l3_size}};
  for (const auto& [key, size] : sizes)
    if (size != 0 && size < cache_line * sampling)
      return {key, std::to_string(size) +
                       " bytes is less than one sampled line (platform.cache.line x "
                       "platform.cache.sampling = " +
                       std::to_string(cache_line * sampling) + " bytes)"};
  return {};
}

} // namespace shmemsim::sim
