// Compute accounting and time slicing (simulator only): the program's own computation between
// charging calls becomes SimGrid executions on the node's cores, counted from the interposition
// library's work counter (each executed basic block adds its compile-time instruction count times
// the instruction time, an innermost loop's header its chain's latency floor; in femtoseconds),
// measured from CPU time, or free; a thread that runs a quantum of work without a charging call is
// charged (or, when computation is free, polls) and yields.
#pragma once

#include "shmem_front/interpose/hooks.h"
#include "shmem_front/runtime/CacheModel.hpp"
#include "shmem_front/runtime/PeProcess.hpp"
#include "shmem_front/runtime/RuntimeParams.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace shmemsim::sim {
class Simulation;
} // namespace shmemsim::sim
namespace shmemsim {
class ShmemObserver;
} // namespace shmemsim

namespace shmemsim::front {

/// The interposition library's work counter (femtoseconds of one core), the work at which the
/// running thread's time slice ends (both shared by every simulated thread; the runtime swaps the
/// count per thread), and the costs it counts at (femtoseconds per instruction, divide, and per
/// chain operation by class: SHMEMSIM_CHAIN_CLASSES of them, integer, load, floating add, multiply).
struct WorkCounter {
  unsigned long* work           = nullptr;
  unsigned long* slice_work     = nullptr;
  unsigned long* instruction_fs = nullptr;
  unsigned long* divide_fs      = nullptr;
  unsigned long* latency_fs     = nullptr;
  unsigned long* window         = nullptr; ///< platform.reorder_window, in instructions
  unsigned long* memory_mask    = nullptr; ///< the cache model's sampled lines: (address & mask) == match
  unsigned long* memory_match   = nullptr;
  void (*flush)()               = nullptr; ///< charges the deferred chain of the open loop execution
  void (*rearm)()               = nullptr; ///< after `work` or `slice_work` is set (the program's inline count)
};

class ComputeAccounting {
public:
  ComputeAccounting(sim::Simulation& sim, const RuntimeParams& params, WorkCounter counter);
  /// Report computation to `obs` (null: nobody).
  void set_observer(ShmemObserver* obs) { obs_ = obs; }

  /// Before the PEs start: the costs and the time slice, in the counter's units.
  void arm_slices();
  /// A thread starts: it has computed nothing yet.
  void start_thread(SimThread& t);
  /// A PE's main starts.
  void start_pe(PeProcess& pe);
  /// Charge the running thread `t` (null: not a PE thread) of `pe` for its computation since its
  /// last charge. A time slice (`sliced`) is reported with the following ones as one computation.
  void charge(PeProcess& pe, SimThread* t, bool sliced = false);
  /// `t` ran a quantum of work without a charging call: charge it, or when computation costs
  /// nothing, let one poll's time pass (so that a spin-wait lets time and the network move).
  void slice(SimThread& t);
  /// Work counted outside any PE thread (loading, teardown): nothing to charge.
  void discard() { take_work(); }
  /// `pe` left the library: measured mode starts measuring again.
  void left(PeProcess& pe);
  /// A poll that found nothing: one poll's time passes.
  void poll();
  /// At actor switches: the running thread's work count is kept with the thread.
  void save(SimThread& t) const { t.work = take_work(); }
  void restore(const SimThread* t) const { set_work(t != nullptr ? t->work : 0); }
  /// A sampled memory reference of the running thread `t` (hooks.h): its cost in femtoseconds, from
  /// the thread's own cache model (CacheModel.hpp); 0 outside a PE thread (null), without a model, or in
  /// the C library's main heap (small allocations, whose page offsets do not repeat from run to run).
  unsigned long memory(SimThread* t, unsigned long address, unsigned long flags);

  /// After a time limit: one line per thread that was computing (no library call), naming it.
  std::vector<std::string> computing(const std::deque<SimThread>& threads) const;

private:
  /// The running thread's counted work (deferred chains charged first), the counter reset.
  unsigned long take_work() const;
  /// The running thread's counted work is `work` (the program's inline count is set from it).
  void set_work(unsigned long work) const;
  /// A run of time slices of `t` starts at `from` (reported as one computation by charge).
  void open_slices(SimThread& t, Ps from);

  sim::Simulation& sim_;
  ComputeMode mode_;
  double scale_;
  double core_speed_;
  double flops_per_fs_; ///< one femtosecond of counted work, in flop of core_speed (scale included)
  Ps poll_cost_;
  WorkCounter counter_;
  unsigned long* work_;
  unsigned long instruction_fs_;
  unsigned long divide_fs_;
  unsigned long latency_fs_[SHMEMSIM_CHAIN_CLASSES]; ///< integer, load, floating add, floating multiply
  unsigned long window_;                             ///< platform.reorder_window (instructions)
  unsigned long quantum_work_ = 1;                   ///< the compute quantum in the counter's units (fs)
  CacheConfig cache_config_;                         ///< the model each thread's cache starts from
  bool cache_on_             = false;                ///< counted mode with a cache model
  std::uintptr_t heap_start_ = 0;                    ///< the C library's main heap (left out of the model)
  ShmemObserver* obs_        = nullptr;
};

} // namespace shmemsim::front
