// Compute accounting and time slicing (simulator only): the program's own computation between
// charging calls becomes SimGrid executions on the node's cores, counted from the interposition
// library's basic-block counter, measured from CPU time, or free; a thread that runs a quantum of
// blocks without a charging call is charged (or, when computation is free, polls) and yields.
#pragma once

#include "shmem_front/runtime/PeProcess.hpp"
#include "shmem_front/runtime/RuntimeParams.hpp"
#include "sim/Time.hpp"

#include <deque>
#include <string>
#include <vector>

namespace shmemsim::sim {
class Simulation;
} // namespace shmemsim::sim
namespace shmemsim::front {
class ShmemObserver;
} // namespace shmemsim::front

namespace shmemsim::front {

/// The interposition library's basic-block counter and the count at which the running thread's
/// time slice ends (both shared by every simulated thread; the runtime swaps the count per thread).
struct BlockCounter {
  unsigned long* blocks       = nullptr;
  unsigned long* slice_blocks = nullptr;
};

class ComputeAccounting {
public:
  ComputeAccounting(sim::Simulation& sim, const RuntimeParams& params, BlockCounter counter);
  /// Report computation to `obs` (null: nobody).
  void set_observer(front::ShmemObserver* obs) { obs_ = obs; }

  /// Before the PEs start: the time slice in blocks.
  void arm_slices();
  /// A thread starts: it has computed nothing yet.
  void start_thread(SimThread& t);
  /// A PE's main starts.
  void start_pe(PeProcess& pe);
  /// Charge the running thread `t` (null: not a PE thread) of `pe` for its computation since its
  /// last charge. A time slice (`sliced`) is reported with the following ones as one computation.
  void charge(PeProcess& pe, SimThread* t, bool sliced = false);
  /// `t` ran a quantum of blocks without a charging call: charge it, or when computation costs
  /// nothing, let one poll's time pass (so that a spin-wait lets time and the network move).
  void slice(SimThread& t);
  /// Blocks counted outside any PE thread (loading, teardown): nothing to charge.
  void discard() { *blocks_ = 0; }
  /// `pe` left the library: measured mode starts measuring again.
  void left(PeProcess& pe);
  /// A poll that found nothing: one poll's time passes.
  void poll();
  /// At actor switches: the running thread's block count is kept with the thread.
  void save(SimThread& t) const { t.blocks = *blocks_; }
  void restore(const SimThread* t) const { *blocks_ = t != nullptr ? t->blocks : 0; }

  /// After a time limit: one line per thread that was computing (no library call), naming it.
  std::vector<std::string> computing(const std::deque<SimThread>& threads) const;

private:
  sim::Simulation& sim_;
  ComputeMode mode_;
  double scale_;
  double core_speed_;
  sim::Ps poll_cost_;
  unsigned long* blocks_;
  unsigned long* slice_blocks_;
  unsigned long quantum_blocks_ = 1; ///< the compute quantum in basic blocks
  front::ShmemObserver* obs_           = nullptr;
};

} // namespace shmemsim::front
