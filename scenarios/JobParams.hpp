// Job parameters (job.* keys): endpoints and their placement, the program, the symmetric heap; and
// the settings of the parts that consume the rest, each with the keys it declares beside its
// struct (base/Params.hpp): the PE runtime's (compute accounting, threads, collective algorithms,
// AsyncSHMEM: shmem_front/runtime/RuntimeParams.hpp and shmem_front/lib/*Params.hpp) and the
// contexts' (shmem_front/lib/ContextParams.hpp).
#pragma once

#include "shmem_front/lib/AsyncParams.hpp"
#include "shmem_front/lib/CollectiveParams.hpp"
#include "shmem_front/lib/ContextParams.hpp"
#include "shmem_front/runtime/RuntimeParams.hpp"
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
  std::vector<std::string> env; ///< job.env: "NAME=value" for the PEs
  /// Usable symmetric heap per PE (job.symmetric_heap). The default follows common implementations:
  /// Sandia OpenSHMEM's SHMEM_SYMMETRIC_SIZE defaults to 512 MiB (src/shmem_env_defs.h), NVSHMEM's to
  /// 1 GiB (its environment-variable documentation); shmemsim-run reserves it lazily (MAP_NORESERVE).
  std::uint64_t symmetric_heap = 512ull << 20;
  /// The PE runtime's job.* settings, read through its own keys: RuntimeParams::keys() (job.compute*,
  /// job.threads.*), job.collectives.* and job.async.*. Its platform fields (core speed, latencies,
  /// program cores) are not read here: the program workload sets them from platform.* keys when it
  /// starts the runtime (run/ProgramWorkload.cpp).
  front::RuntimeParams runtime;
  /// job.contexts.*: how contexts map onto the NIC (ContextParams::keys()).
  front::ContextParams contexts;
  /// job.portals.event_queue: the Portals transport keeps an event queue per PE and completes
  /// blocking long puts at their SEND event (PortalsTransport::set_event_queue). Off by default:
  /// today's results (puts complete at their ACK) stay as they are.
  bool portals_event_queue = false;

  /// Every job.* key: the job's own, the runtime's (in the order `shmemsim keys` lists them), the
  /// contexts', the collectives' and AsyncSHMEM's.
  static const ParamTable<JobParams>& keys();
};

inline const ParamTable<JobParams>& JobParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  using shmemsim::mapped;
  const auto runtime = [](const char* path) {
    return nested(&JobParams::runtime, key_at(front::RuntimeParams::keys(), path));
  };
  static const ParamTable<JobParams> table = [&runtime] {
    ParamTable<JobParams> t = {
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
        runtime("job.threads.library_lock"),
        runtime("job.threads.per_pe"),
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
        runtime("job.compute"),
        runtime("job.compute_scale"),
        runtime("job.compute_quantum"),
        {.path  = "job.symmetric_heap",
         .kind  = K::Size,
         .doc   = "Symmetric heap per PE: what shmem_malloc and the other allocation routines can hand out "
                  "(the library keeps 4 KiB more for its collectives). Reserved as virtual memory: pages cost "
                  "memory only once touched. The default is Sandia OpenSHMEM's (512 MiB; NVSHMEM's is 1 GiB). "
                  "SHMEM_SYMMETRIC_SIZE (or SMA_SYMMETRIC_SIZE) in the environment overrides it.",
         .field = field(&JobParams::symmetric_heap)},
        {.path  = "job.portals.event_queue",
         .kind  = K::Bool,
         .doc   = "The simulator's Portals transport as Sandia OpenSHMEM's: one event queue of 2048 events per PE "
                  "(its error queue, on both portal table entries; one of platform.nic.limits.max_eqs) and one "
                  "more MD per context, from which a blocking put above max_volatile_size goes; that put returns at "
                  "its PTL_EVENT_SEND (local completion) instead of at its ACK. Default false: puts complete at "
                  "their ACK, as before. The emulator ignores it.",
         .field = field(&JobParams::portals_event_queue)},
    };
    for (auto part :
         {nested(&JobParams::contexts, front::ContextParams::keys()),
          nested(&JobParams::runtime, nested(&front::RuntimeParams::collectives, front::CollectiveParams::keys())),
          nested(&JobParams::runtime, nested(&front::RuntimeParams::async, front::AsyncParams::keys()))})
      t.insert(t.end(), part.begin(), part.end());
    return t;
  }();
  return table;
}

} // namespace shmemsim::scenarios
