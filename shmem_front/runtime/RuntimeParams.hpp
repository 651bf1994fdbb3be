// The PE runtime's settings, as plain data; the runtime never reads scenarios. Its job.* keys are
// declared here, beside the fields (keys(), with job.collectives.* and job.async.* in their own
// structs): the scenario's job (scenarios/JobParams.hpp) holds a RuntimeParams and reads them into
// it. The platform's settings (core speed, instruction time, latencies, program cores) are filled
// from the platform's keys when a run starts the runtime (run/ProgramWorkload.cpp); their defaults
// are HostParams's (sim/HostParams.hpp).
#pragma once

#include "shmem_front/lib/AsyncParams.hpp"
#include "shmem_front/lib/CollectiveParams.hpp"
#include "shmem_front/lib/ContextParams.hpp" // OnExhaustion and its default
#include "sim/HostParams.hpp"
#include "base/Params.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <ctime>
#include <vector>

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

/// The memory hierarchy's parameters (platform.cache.*, platform.memory.*): the runtime's copy.
struct CacheConfig {
  std::uint64_t line = 64;            ///< bytes per cache line (a power of two, at most 4096)
  std::vector<std::uint64_t> sizes;   ///< bytes of each cache level, the first level first (0: none)
  std::vector<Ps> latencies;          ///< load-to-use latency of a hit in each level
  std::vector<Ps> line_times;         ///< a line of a sequential stream served by each level (the first's unused)
  std::vector<Ps> store_times;        ///< a line written (missing the first level) held by each level (0: as a load)
  Ps memory_latency              = 0; ///< a load that misses every level
  std::uint64_t memory_bandwidth = 0; ///< bit/s one core moves to and from memory (0: no limit)
  int parallelism                = 1; ///< independent misses a core keeps in flight
  unsigned sampling              = 0; ///< one line in `sampling` is simulated (0: no model)
  /// The data TLBs (4 KiB pages): entries of each level, the first first (0: none; no level: no TLB
  /// model); a reference whose page misses the first level and hits the second costs `tlb_hit`
  /// more, one that misses every level (a page walk) `tlb_walk` more, and the core does
  /// `tlb_walkers` walks at once.
  std::vector<std::uint64_t> tlb_entries;
  Ps tlb_hit      = 0;
  Ps tlb_walk     = 0;
  int tlb_walkers = 1;
};

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
  CacheConfig cache;     ///< platform.cache.*, platform.memory.* (CacheModel.hpp)
  /// job.threads.per_pe: default OpenMP team size (OMP_NUM_THREADS wins); 0: the node's program
  /// cores divided among its PEs.
  int threads_per_pe = 0;
  /// job.threads.library_lock: hold time of a library lock around operations on shared contexts
  /// under SHMEM_THREAD_MULTIPLE, for libraries that take one; 0 (the default): no lock, as in the
  /// Portals-SHMEM of the contexts paper, whose threads contend on shared cache lines instead
  /// (platform.coherence.*).
  Ps library_lock = 0;
  Ps poll_cost    = 100'000;    ///< what a poll that found nothing costs (100 ns)
  CollectiveParams collectives; ///< job.collectives.* (CollectiveParams::keys())
  AsyncParams async;            ///< job.async.* (AsyncParams::keys())
  /// What the PEs' context tables do when the counters run out: job.contexts.on_exhaustion, a key of
  /// ContextParams::keys() (the program workload sets it, as it sets the platform's fields).
  OnExhaustion contexts_on_exhaustion = ContextParams{}.on_exhaustion;

  /// The runtime's own job.* keys: job.compute, job.compute_scale, job.compute_quantum,
  /// job.threads.library_lock and job.threads.per_pe.
  static const ParamTable<RuntimeParams>& keys();
};

inline const ParamTable<RuntimeParams>& RuntimeParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<RuntimeParams> table = {
      {.path  = "job.threads.library_lock",
       .kind  = K::Time,
       .doc   = "Under SHMEM_THREAD_MULTIPLE, every operation on a shared context (the default one, or one "
                "created without SHMEM_CTX_PRIVATE/SERIALIZED) holds a library lock this long, for libraries "
                "that serialize shared contexts with a mutex: threads of a PE contend for it. Default 0ns: no "
                "lock, as in the Portals-SHMEM of the contexts paper, whose threads contend only on the shared "
                "objects they update with atomic instructions (platform.coherence.*).",
       .field = field(&RuntimeParams::library_lock)},
      {.path  = "job.threads.per_pe",
       .kind  = K::Int,
       .doc   = "Default OpenMP team size of a PE (OMP_NUM_THREADS in the environment wins; \"job\": {\"threads\": "
                "N} is short for it); 0: the node's program cores divided among its PEs.",
       .field = field(&RuntimeParams::threads_per_pe),
       .min   = 0,
       .max   = 4096},
      {.path = "job.compute",
       .kind = K::Enum,
       .doc =
           "How the program's own computation costs simulated time: counted (each executed basic block "
           "costs its instructions x platform.instruction_time, loops at least their dependency chain at "
           "the latencies platform.latency.*; deterministic), measured (CPU time between library calls, noisy), none.",
       .field   = field(&RuntimeParams::compute),
       .choices = {"counted", "measured", "none"},
       .noun    = "compute mode"},
      {.path  = "job.compute_scale",
       .kind  = K::Number,
       .doc   = "Multiplies simulated computation time (counted and measured modes).",
       .field = field(&RuntimeParams::compute_scale),
       .min   = 0,
       .max   = 1000000},
      {.path  = "job.compute_quantum",
       .kind  = K::Time,
       .doc   = "Time slice: a thread that computes this long (simulated) without calling the library or a "
                "blocking pthread/OpenMP routine is charged for it and lets other threads and the network run, "
                "so spin-waits on memory progress; they see a store at most this late (bench/time-slicing: "
                "2us costs about 6-9% of wall time, 1us about 11-17%). In none mode a quantum's "
                "worth of counted work (at the platform's costs) costs one 100ns poll instead. At least 100ns.",
       .field = field(&RuntimeParams::compute_quantum),
       .min   = 100'000},
  };
  return table;
}

} // namespace shmemsim::front
