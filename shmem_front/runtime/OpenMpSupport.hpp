// What the project's OpenMP runtime (shmem_front/omp) asks of the PE runtime beyond threads: its
// state slots per PE and per thread, the default team size and the cores of a PE, and a callback
// run when a PE's main ends.
#pragma once

#include "shmem_front/runtime/PeSet.hpp"
#include "shmem_front/runtime/RuntimeParams.hpp"
#include "shmem_front/runtime/SimThreads.hpp"

namespace shmemsim::front {

class OpenMpSupport {
public:
  OpenMpSupport(const RuntimeParams& params, SimThreads& threads, PeSet& pes)
      : program_cores_(params.program_cores), threads_per_pe_(params.threads_per_pe), threads_(threads), pes_(pes)
  {
  }

  /// The running PE's and the running thread's slots (the OpenMP runtime's; initially null).
  void** pe_slot() const { return &threads_.current_pe()->omp; }
  void** thread_slot() const { return &threads_.current()->omp; }
  /// The default team size: job.threads.per_pe, or pe_cores().
  int default_threads() const;
  /// The node's program cores divided among its PEs (at least 1; omp_get_num_procs).
  int pe_cores() const;
  /// `fn` runs when a PE's main ends (returned, exit, pthread_exit), in its main thread.
  void set_pe_exit(void (*fn)()) { pe_exit_ = fn; }
  void pe_exiting() const;

private:
  int program_cores_;
  int threads_per_pe_;
  SimThreads& threads_;
  PeSet& pes_;
  void (*pe_exit_)() = nullptr;
};

} // namespace shmemsim::front
