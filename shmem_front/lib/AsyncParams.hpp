// AsyncSHMEM's settings (job.async.* keys, seed 001): how many workers each PE's work-stealing
// runtime has and which of the seed's two runtime designs runs the SHMEM calls of its tasks.
// Plain data (base/Params.hpp), parsed by the scenario layer and handed to the routines through
// Runtime::async_params() (Seams.hpp); SHMEM_ASYNC_WORKERS and SHMEM_ASYNC_RUNTIME in a PE's
// environment override them (docs/extensions-async.md).
#pragma once

#include "base/Params.hpp"

namespace shmemsim::front {

/// The seed's runtime designs: offload (one communication worker performs every SHMEM call of the
/// tasks; the calling task waits while its worker runs other tasks) and contexts (every worker
/// drives its own communication context).
enum class AsyncDesign { Offload, Contexts };

struct AsyncParams {
  /// Workers per PE (threads running tasks at a time; the PE's main thread starts as worker 0); 0: the PE's program cores.
  int workers        = 0;
  AsyncDesign design = AsyncDesign::Offload;

  /// The job.async.* keys.
  static const ParamTable<AsyncParams>& keys();
};

inline const ParamTable<AsyncParams>& AsyncParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<AsyncParams> table = {
      {.path  = "job.async.workers",
       .kind  = K::Int,
       .doc   = "AsyncSHMEM (shmemx_worker_init): workers per PE, i.e. threads running tasks at a time, the PE's "
                "main thread starting as worker 0 (SHMEM_ASYNC_WORKERS in the environment wins); 0: the node's "
                "program cores divided among its PEs. A suspended task keeps its thread while a spare one takes its "
                "worker's place; the offload runtime adds one communication worker and both add one thread that "
                "watches communication-driven tasks (docs/extensions-async.md).",
       .field = field(&AsyncParams::workers),
       .min   = 0,
       .max   = 1024},
      {.path    = "job.async.runtime",
       .kind    = K::Enum,
       .doc     = "AsyncSHMEM runtime design (SHMEM_ASYNC_RUNTIME wins): offload (one communication worker performs "
                  "every SHMEM call of the tasks; the calling task waits while its worker runs other tasks) or "
                  "contexts (each worker issues on a communication context of its own).",
       .field   = field(&AsyncParams::design),
       .choices = {"offload", "contexts"},
       .noun    = "AsyncSHMEM runtime"},
  };
  return table;
}

} // namespace shmemsim::front
