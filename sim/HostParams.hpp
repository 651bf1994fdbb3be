// Host parameters (platform.nodes, platform.cores_per_node, platform.core_speed,
// platform.instruction_time, platform.divide_time, platform.latency.*) and their
// declared keys (base/Params.hpp).
#pragma once

#include "base/Params.hpp"

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

  static const ParamTable<HostParams>& keys();
};

/// The largest per-instruction, per-operation or per-divide cost a scenario may give (1 ms).
inline constexpr Ps kMaxCostTime = 1'000'000'000;

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
  };
  return table;
}

} // namespace shmemsim::sim
