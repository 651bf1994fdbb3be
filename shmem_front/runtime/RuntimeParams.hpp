// The PE runtime's settings, as plain data: the launcher fills them from the scenario (job.* and
// platform keys); the runtime never reads scenarios. The defaults of the job.* settings are written
// here once (scenarios/JobParams.hpp takes them from a default RuntimeParams), those of the
// platform's cores in sim/HostParams.hpp (taken from a default HostParams here).
#pragma once

#include "shmem_front/lib/AsyncParams.hpp"
#include "shmem_front/lib/CollectiveParams.hpp"
#include "shmem_front/lib/Seams.hpp" // OnExhaustion
#include "sim/HostParams.hpp"
#include "base/Time.hpp"

#include <ctime>

namespace shmemsim::front {

/// How the program's own computation costs simulated time (job.compute).
enum class ComputeMode {
  Counted,  ///< executed instructions (counted per basic block at compile time) x instruction_time,
            ///< loops' dependency chains at the latencies per operation class, or their divides x
            ///< divide_time
  Measured, ///< the simulator's CPU time between library calls (noisy)
  None,     ///< free
};

/// Simulated wall-clock time starts at a fixed date, so runs are reproducible:
/// 2014-09-01T00:00:00Z (the contexts paper's year).
inline constexpr std::time_t kEpoch = 1409529600;

struct RuntimeParams {
  ComputeMode compute  = ComputeMode::Counted; ///< job.compute
  double compute_scale = 1.0;                  ///< job.compute_scale: multiplies computation time
  /// job.compute_quantum: simulated compute after which a thread that calls nothing is charged and
  /// yields (time slicing).
  Ps compute_quantum  = 2'000'000;
  double core_speed   = sim::HostParams{}.core_speed;       ///< platform.core_speed, flop/s
  Ps instruction_time = sim::HostParams{}.instruction_time; ///< platform.instruction_time: one counted instruction
  /// platform.latency.*: counted loops' chain latencies by operation class (defaults: HostParams's)
  Ps latency_int     = sim::HostParams{}.latency_int;
  Ps latency_load    = sim::HostParams{}.latency_load;
  Ps latency_fp_add  = sim::HostParams{}.latency_fp_add;
  Ps latency_fp_mul  = sim::HostParams{}.latency_fp_mul;
  int reorder_window = sim::HostParams{}.reorder_window; ///< platform.reorder_window, instructions
  /// platform.divide_time: the divider busy for one divide or square root
  Ps divide_time    = sim::HostParams{}.divide_time;
  int program_cores = 1; ///< cores of a node for programs (the NIC's progress core excluded)
  /// job.threads.per_pe: default OpenMP team size (OMP_NUM_THREADS wins); 0: the node's program
  /// cores divided among its PEs.
  int threads_per_pe = 0;
  /// job.threads.library_lock: hold time of the library's internal lock, paid by operations on
  /// shared contexts under SHMEM_THREAD_MULTIPLE (estimate: 100 ns; 0: no cost).
  Ps library_lock = 100'000;
  Ps poll_cost    = 100'000;    ///< what a poll that found nothing costs (100 ns)
  CollectiveParams collectives; ///< job.collectives.*
  AsyncParams async;            ///< job.async.*
  /// job.contexts.on_exhaustion: what the PEs' context tables do when the counters run out.
  OnExhaustion contexts_on_exhaustion = OnExhaustion::Fail;
};

} // namespace shmemsim::front
