// A single-assignment promise of AsyncSHMEM (seed 001); its future is the same object seen
// through shmemx_future_t (shmemx_future_for_promise).
#pragma once

#include "shmem_front/lib/async/AsyncPe.hpp"

#include <cstdint>
#include <vector>

struct shmemsim_promise {
  std::uint32_t magic = 0x50524f4d; // "PROM": a pointer that is no promise is reported
  int pe              = -1;         ///< the PE that created it (promises are local to a PE)
  bool satisfied      = false;
  void* value         = nullptr;
  std::vector<shmemsim::front::async::Task> waiters; ///< shmemx_task_await tasks
};
