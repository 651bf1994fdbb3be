// The PE runtime: the runtime seam (and the accounting one) on SimGrid. Each PE is an actor
// running `main` of its own private copy of the program. This class is the composition of the
// runtime's parts: it implements the seams and the interposition library's hook table by
// delegating to them, runs the PE and thread lifecycles (which touch every part), and swaps the
// running thread's state at every actor switch.
#pragma once

#include "shmem_front/interpose/hooks.h"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/runtime/CollectiveTime.hpp"
#include "shmem_front/runtime/ComputeAccounting.hpp"
#include "shmem_front/runtime/OpenMpSupport.hpp"
#include "shmem_front/runtime/OutputTagging.hpp"
#include "shmem_front/runtime/PeProcess.hpp"
#include "shmem_front/runtime/PeSet.hpp"
#include "shmem_front/runtime/ProcessState.hpp"
#include "shmem_front/runtime/RuntimeParams.hpp"
#include "shmem_front/runtime/SimThreads.hpp"
#include "shmem_front/runtime/SyncObjects.hpp"

#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace shmemsim::sim {
class Simulation;
} // namespace shmemsim::sim
namespace shmemsim {
class ShmemObserver;
} // namespace shmemsim

namespace shmemsim::front {

class PeRuntime final : public Runtime, public Accounting {
public:
  /// One per process: the hooks reach it through pe_runtime(). `pes` are the loaded PEs.
  PeRuntime(sim::Simulation& sim, const RuntimeParams& params, std::vector<PeProcess>& pes, WorkCounter counter);
  ~PeRuntime() override;
  PeRuntime(const PeRuntime&)            = delete;
  PeRuntime& operator=(const PeRuntime&) = delete;

  /// The hook table for the interposition library.
  const shmemsim_hooks* hooks() const;
  /// Start every PE's actor.
  void spawn_all();
  /// The calling actor's PE and thread, or null (maestro, or an actor that is not a PE's).
  PeProcess* current() { return threads_.current_pe(); }
  SimThread* current_thread() { return threads_.current(); }
  /// The calling thread's index in its PE (0: the main thread).
  int thread_index() const { return threads_.current() != nullptr ? threads_.current()->index : 0; }
  /// The first non-zero exit status among the PEs (0 if all succeeded).
  int exit_status() const { return pes_.exit_status(); }
  /// Report computation and library-lock holds to `obs` (null: nobody).
  void set_observer(ShmemObserver* obs);
  /// Prefix every line a PE writes to stdout or stderr with "[PE n] " (call before spawn_all).
  void tag_output() { output_.tag(pes_.all()); }
  /// Called with a PE's id whenever one of its threads may have stored to its memory (it enters a
  /// library routine or its time slice ends), so that waiters on that memory re-check.
  void set_store_listener(std::function<void(int pe)> fn) { pes_.set_store_listener(std::move(fn)); }
  /// After a time limit: one line per thread that was computing (no library call), naming it.
  std::vector<std::string> computing() const { return accounting_.computing(threads_.all()); }

  // The parts
  SimThreads& threads() { return threads_; }
  SyncObjects& sync() { return sync_; }
  ProcessState& process() { return process_; }
  OpenMpSupport& omp() { return omp_; }

  // Hooks (hooks.h) that involve several parts
  void now(int which, timespec* ts);
  void sleep(double seconds);
  /// exit() of a PE: it ends with `status`.
  [[noreturn]] void exit_pe(int status);
  int thread_create(unsigned long* tid, void* (*fn)(void*), void* arg);
  [[noreturn]] void thread_exit(void* retval);
  int yield();
  /// Charge the running thread's computation (the OpenMP runtime's calls).
  void charge(const char* routine);
  /// Time slicing: the running thread ran a quantum of counted instructions without a charging call.
  void slice();
  /// A sampled memory reference of the running thread: its cost (hooks.h, ComputeAccounting::memory).
  unsigned long memory(unsigned long address, unsigned long flags)
  {
    return accounting_.memory(threads_.current(), address, flags);
  }

  // Runtime seam
  int my_pe() override;
  int n_pes() override;
  bool pe_accessible(int pe) override;
  void* heap_base() override;
  std::size_t heap_size() override;
  bool is_symmetric(const void* addr, std::size_t n) override;
  void* local_address(const void* addr, int pe) override;
  std::string name_address(const void* addr) override { return pes_.name_address(addr); }
  /// Reports name the program's variables from its file's symbols.
  void load_symbols(const std::string& program) { pes_.set_symbols(ElfSymbols::read(program)); }
  void poll_pause() override;
  void library_lock(const void* lock) override;
  double wtime() override;
  void startup_barrier() override;
  const char* getenv(const char* name) override;
  CollectiveParams collectives() override;
  AsyncParams async_params() override;
  OnExhaustion contexts_on_exhaustion() override { return on_exhaustion_; }
  const Pthreads& pthreads() override { return pthreads_; }
  /// The pthread API the PEs' program copies see (the interposition library's), for the library's threads.
  void set_pthreads(const Pthreads& p) { pthreads_ = p; }
  [[noreturn]] void fatal(const std::string& message) override;
  [[noreturn]] void global_exit(int status) override;

  // Accounting seam
  void enter(const char* routine) override;
  void leave() override;
  /// The blocking collectives' calls, time inside and host CPU time so far (CollectiveTime.hpp).
  const CollectiveTimes& collective_times() const { return collective_times_; }

private:
  void run_pe(int id);
  /// The PE's main ends (returned, exit, pthread_exit): run the OpenMP runtime's callback.
  void pe_exiting() { omp_.pe_exiting(); }
  static void save_state(void* self);
  static void restore_state(void* self);

  sim::Simulation& sim_;
  CollectiveParams collectives_;
  AsyncParams async_;
  OnExhaustion on_exhaustion_;
  Pthreads pthreads_;
  PeSet pes_;
  SimThreads threads_;
  SyncObjects sync_;
  ComputeAccounting accounting_;
  ProcessState process_;
  OutputTagging output_;
  OpenMpSupport omp_;
  ShmemObserver* obs_ = nullptr; ///< told of the SHMEM routines the threads are in
  CollectiveTimes collective_times_;
};

/// The runtime of this process (one run per process), for the C hooks.
PeRuntime& pe_runtime();

} // namespace shmemsim::front
