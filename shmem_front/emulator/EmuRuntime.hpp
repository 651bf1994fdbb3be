// The runtime seam for one emulated PE (docs/emulator.md): a real OS process. Identity from the
// launcher, memory its own (the program's writable data and a mapped heap), real threads and
// clocks, the bootstrap service for the start-up barrier, and errors that end the whole job
// through the launcher. As Accounting it only counts library calls (the launcher's "no PE
// progressed" report): nothing is charged.
#pragma once

#include "base/ShmemObserver.hpp"
#include "shmem_front/emulator/BootClient.hpp"
#include "shmem_front/emulator/Config.hpp"
#include "shmem_front/emulator/Nic.hpp"
#include "shmem_front/lib/Seams.hpp"

#include <atomic>
#include <mutex>

namespace shmemsim::emulator {

class EmuRuntime final : public front::Runtime, public front::Accounting {
public:
  /// Built on the PE's main thread (thread 0 of thread_index()).
  EmuRuntime(const Config& cfg, Segments mem, BootClient& boot);

  // Runtime seam
  int my_pe() override { return cfg_.rank; }
  int n_pes() override { return cfg_.npes; }
  bool pe_accessible(int pe) override { return pe >= 0 && pe < cfg_.npes; }
  void* heap_base() override { return mem_.base[1]; }
  std::size_t heap_size() override { return mem_.size[1]; }
  bool is_symmetric(const void* addr, std::size_t n) override;
  /// Other PEs are other processes: no load/store access (shmem_ptr returns null for them).
  void* local_address(const void* addr, int pe) override;
  void poll_pause() override;
  double wtime() override;
  const char* platform_kind() override { return "emulated processes (shmemsim-run --emulate)"; }
  void startup_barrier() override;
  const char* getenv(const char* name) override;
  front::CollectiveParams collectives() override;
  front::OnExhaustion contexts_on_exhaustion() override { return cfg_.contexts.on_exhaustion; }
  [[noreturn]] void fatal(const std::string& message) override;
  [[noreturn]] void global_exit(int status) override;

  // Accounting seam: calls counted, nothing charged; with an observer, the time a thread spends
  // outside the library (the program's own code) is reported as its computation.
  void enter(const char* routine) override;
  void leave() override;
  /// Report the calling threads' computation to `obs` from now on (null: nobody).
  void set_observer(ShmemObserver* obs) { obs_ = obs; }
  /// The calling thread's number in this PE for observers: 0 the main thread, the others 1, 2,
  /// ... in the order they first ask.
  int thread_index();
  /// The calling thread (the PE's main thread, about to run the program's main) computes from now.
  void program_starts();

  std::uint64_t calls() const { return calls_.load(std::memory_order_relaxed); }
  /// The routine a thread of this PE last entered, if some thread is in the library now; null when
  /// every thread is in the program's own code (the launcher's deadlock report says which).
  const char* routine() const;
  /// The routine the calling thread is in (null: in the program's own code).
  static const char* thread_routine();

private:
  [[noreturn]] void end_job(int status);

  Config cfg_;
  Segments mem_;
  BootClient& boot_;
  std::mutex boot_mutex_;
  std::atomic<std::uint64_t> calls_{0};
  std::atomic<const char*> routine_{nullptr};
  std::atomic<int> inside_{0}; ///< threads in a library call now
  ShmemObserver* obs_ = nullptr;
  std::atomic<int> next_thread_{1};
};

} // namespace shmemsim::emulator
