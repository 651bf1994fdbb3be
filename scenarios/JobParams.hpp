// Job parameters (job.* keys): endpoints and their placement, the program, compute accounting,
// the symmetric heap, contexts, threads and collective algorithms; and their declared keys
// (base/Params.hpp). The PE runtime (shmem_front/runtime) consumes them.
#pragma once

#include "shmem_front/lib/AsyncParams.hpp"
#include "shmem_front/lib/CollectiveParams.hpp"
#include "shmem_front/lib/Seams.hpp"             // CtxMapping, OnExhaustion
#include "shmem_front/runtime/RuntimeParams.hpp" // ComputeMode and the runtime's defaults
#include "base/Params.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::scenarios {

enum class Placement { Block, Cyclic };

struct JobParams {
  int pes             = 0; ///< endpoints (processes); 0: one per node
  int pes_per_node    = 1;
  Placement placement = Placement::Block;
  std::string program; ///< for shmemsim-run
  std::vector<std::string> args;
  std::vector<std::string> env;                                        ///< job.env: "NAME=value" for the PEs
  front::ComputeMode compute = front::RuntimeParams{}.compute;         ///< job.compute
  double compute_scale       = front::RuntimeParams{}.compute_scale;   ///< job.compute_scale
  Ps compute_quantum         = front::RuntimeParams{}.compute_quantum; ///< job.compute_quantum
  /// Usable symmetric heap per PE (job.symmetric_heap). The default follows common implementations:
  /// Sandia OpenSHMEM's SHMEM_SYMMETRIC_SIZE defaults to 512 MiB (src/shmem_env_defs.h), NVSHMEM's to
  /// 1 GiB (its environment-variable documentation); shmemsim-run reserves it lazily (MAP_NORESERVE).
  std::uint64_t symmetric_heap       = 512ull << 20;
  front::CtxMapping contexts_mapping = front::CtxMapping::Lean; ///< job.contexts.mapping
  /// job.contexts.on_exhaustion (the PEs' context tables' policy)
  front::OnExhaustion contexts_on_exhaustion = front::RuntimeParams{}.contexts_on_exhaustion;
  /// job.contexts.independent_mds: a created context's MDs carry the contexts paper's proposed
  /// PTL_MD_INDEPENDENT (an injection queue of their own while the NIC has spare ones).
  bool contexts_independent_mds = true;
  Ps library_lock               = front::RuntimeParams{}.library_lock;   ///< job.threads.library_lock
  int threads_per_pe            = front::RuntimeParams{}.threads_per_pe; ///< job.threads.per_pe
  /// job.collectives.<what>: the algorithm of each collective (its keys: CollectiveParams::keys()).
  front::CollectiveParams collectives;
  /// job.async.*: AsyncSHMEM's workers and runtime design (its keys: AsyncParams::keys()).
  front::AsyncParams async;

  /// The job.* keys but job.collectives.* (CollectiveParams::keys()) and job.async.* (AsyncParams::keys()).
  static const ParamTable<JobParams>& keys();
};

inline const ParamTable<JobParams>& JobParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  using shmemsim::mapped;
  static const ParamTable<JobParams> table = {
      {.path  = "job.pes",
       .kind  = K::Int,
       .doc   = "Endpoints (processes); 0: platform.nodes x job.pes_per_node.",
       .field = field(&JobParams::pes)},
      {.path  = "job.pes_per_node",
       .kind  = K::Int,
       .doc   = "Endpoints per node.",
       .field = field(&JobParams::pes_per_node),
       .min   = 1},
      {.path    = "job.placement",
       .kind    = K::Enum,
       .doc     = "Endpoint to node mapping: block (0,1,.. on node 0) or cyclic (round-robin over nodes).",
       .field   = field(&JobParams::placement),
       .choices = {"block", "cyclic"},
       .noun    = "placement"},
      {.path  = "job.threads.library_lock",
       .kind  = K::Time,
       .doc   = "Under SHMEM_THREAD_MULTIPLE, every operation on a shared context (the default one, or one "
                "created without SHMEM_CTX_PRIVATE/SERIALIZED) holds the library's internal lock this long: "
                "threads of a PE contend for it (estimate; 0ns: no cost).",
       .field = field(&JobParams::library_lock)},
      {.path  = "job.threads.per_pe",
       .kind  = K::Int,
       .doc   = "Default OpenMP team size of a PE (OMP_NUM_THREADS in the environment wins; \"job\": {\"threads\": "
                "N} is short for it); 0: the node's program cores divided among its PEs.",
       .field = field(&JobParams::threads_per_pe),
       .min   = 0,
       .max   = 4096},
      {.path  = "job.program",
       .kind  = K::Str,
       .doc   = "The OpenSHMEM program (built with shmemsim-cc) for shmemsim-run; its command line gives it too.",
       .field = field(&JobParams::program)},
      {.path  = "job.args",
       .kind  = K::StrList,
       .doc   = "The program's arguments (shmemsim-run's command line replaces them).",
       .field = field(&JobParams::args)},
      {.path  = "job.env",
       .kind  = K::StrList,
       .doc   = "Environment variables of the PEs, each \"NAME=value\" (shmemsim-run sets them before it reads its "
                "own settings, such as SHMEM_SYMMETRIC_SIZE and OMP_NUM_THREADS; its -x NAME=value adds to them and "
                "wins). A run directory's scenario.json records them, -x's included, so that it reruns the run.",
       .field = field(&JobParams::env)},
      {.path = "job.compute",
       .kind = K::Enum,
       .doc =
           "How the program's own computation costs simulated time: counted (each executed basic block "
           "costs its instructions x platform.instruction_time, loops at least their dependency chain at "
           "the latencies platform.latency.*; deterministic), measured (CPU time between library calls, noisy), none.",
       .field   = field(&JobParams::compute),
       .choices = {"counted", "measured", "none"},
       .noun    = "compute mode"},
      {.path  = "job.compute_scale",
       .kind  = K::Number,
       .doc   = "Multiplies simulated computation time (counted and measured modes).",
       .field = field(&JobParams::compute_scale),
       .min   = 0,
       .max   = 1000000},
      {.path  = "job.compute_quantum",
       .kind  = K::Time,
       .doc   = "Time slice: a thread that computes this long (simulated) without calling the library or a "
                "blocking pthread/OpenMP routine is charged for it and lets other threads and the network run, "
                "so spin-waits on memory progress; they see a store at most this late (bench/time-slicing: "
                "2us costs about 6-9% of wall time, 1us about 11-17%). In none mode a quantum's "
                "worth of counted work (at the platform's costs) costs one 100ns poll instead. At least 100ns.",
       .field = field(&JobParams::compute_quantum),
       .min   = 100'000},
      {.path  = "job.symmetric_heap",
       .kind  = K::Size,
       .doc   = "Symmetric heap per PE: what shmem_malloc and the other allocation routines can hand out "
                "(the library keeps 4 KiB more for its collectives). Reserved as virtual memory: pages cost "
                "memory only once touched. The default is Sandia OpenSHMEM's (512 MiB; NVSHMEM's is 1 GiB). "
                "SHMEM_SYMMETRIC_SIZE (or SMA_SYMMETRIC_SIZE) in the environment overrides it.",
       .field = field(&JobParams::symmetric_heap)},
      {.path    = "job.contexts.mapping",
       .kind    = K::Enum,
       .doc     = "Contexts on Portals: lean (the paper's: one CT + one MD per context) or split (a put and a get "
                  "CT/MD pair per context).",
       .field   = field(&JobParams::contexts_mapping),
       .choices = {"lean", "split"},
       .noun    = "context mapping"},
      {.path  = "job.contexts.independent_mds",
       .kind  = K::Bool,
       .doc   = "Whether a created context's MDs carry PTL_MD_INDEPENDENT, the contexts paper's proposed MD option "
                "(section 6.2.1): the NIC then gives each such MD an injection queue of its own while it has spare "
                "ones (platform.nic.injection_queues), so contexts do not queue behind each other; false: every MD "
                "shares the queues round-robin, as Portals 4 does today. The default context never has one.",
       .field = field(&JobParams::contexts_independent_mds)},
      {.path    = "job.contexts.on_exhaustion",
       .kind    = K::Enum,
       .doc     = "When the NIC's CTs/MDs run out (the transport keeps 1 CT for its target counter and the default "
                  "context's CT + MD, lean, or 2 CTs + 2 MDs, split: lean, a PE can create max_cts - 2 and max_mds - 1 "
                  "contexts, split min((max_cts - 3) / 2, (max_mds - 2) / 2)): fail (shmem_ctx_create returns "
                  "non-zero and SHMEM_CTX_INVALID), share (the new context shares the default context's resources "
                  "and completion), round_robin (it shares those of the PE's created contexts that still own "
                  "resources, in turn; the default context's if there is none) or keep_private (contexts created "
                  "without SHMEM_CTX_PRIVATE always share the default context's, leaving the NIC's resources to "
                  "SHMEM_CTX_PRIVATE ones, which get their own while they last, then share the default's). The "
                  "first refused or shared context of a PE prints one notice line naming why.",
       .field   = field(&JobParams::contexts_on_exhaustion),
       .choices = {"fail", "share", "round_robin", "keep_private"},
       .noun    = "exhaustion policy"},
  };
  return table;
}

} // namespace shmemsim::scenarios
