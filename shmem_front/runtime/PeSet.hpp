// The PEs of the run: their records, which memory each can reach (symmetric ranges, the memory of
// the PEs of its node), waking waiters when a PE's threads may have stored to memory, the
// start-up barrier, and the run's exit status.
#pragma once

#include "shmem_front/runtime/ElfSymbols.hpp"
#include "shmem_front/runtime/PeProcess.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace shmemsim::sim {
class Notifier;
class Simulation;
} // namespace shmemsim::sim

namespace shmemsim::front {

class PeSet {
public:
  PeSet(sim::Simulation& sim, std::vector<PeProcess>& pes) : sim_(sim), pes_(pes) {}

  std::vector<PeProcess>& all() { return pes_; }
  int size() const { return static_cast<int>(pes_.size()); }
  PeProcess& at(int id) { return pes_[static_cast<std::size_t>(id)]; }
  /// PEs placed on `node`.
  int on_node(int node) const;

  /// Whether [addr, addr+n) is symmetric memory of `me` (static data or heap).
  static bool is_symmetric(const PeProcess& me, const void* addr, std::size_t n);
  /// `me`'s symmetric `addr` in the memory of `pe` if it is on the same node, else null. Handing
  /// out another PE's memory is remembered: `me`'s stores may land there.
  void* local_address(PeProcess& me, const void* addr, int pe);
  /// For reports: the variable at `addr` by its symbol in a PE's copy of the program ("flag",
  /// "counts+8", with the PE), or its place in a PE's symmetric heap; empty when nothing names it.
  std::string name_address(const void* addr) const;
  /// The program's symbols, for name_address (ElfSymbols::read of the program's file).
  void set_symbols(ElfSymbols symbols) { symbols_ = std::move(symbols); }

  /// Called with a PE's id whenever one of its threads may have stored to its memory.
  void set_store_listener(std::function<void(int pe)> fn) { store_listener_ = std::move(fn); }
  /// Stores of `pe`'s threads may have happened: wake the waiters on the memory they can reach.
  void publish_stores(const PeProcess& pe) const;

  /// Barrier among the PEs' main threads without network traffic (startup only).
  void startup_barrier();
  /// The first non-zero exit status among the PEs (0 if all succeeded).
  int exit_status() const;

private:
  struct BarrierWait;
  sim::Simulation& sim_;
  std::vector<PeProcess>& pes_;
  std::function<void(int)> store_listener_;
  ElfSymbols symbols_;
  int arrived_              = 0;
  std::uint64_t generation_ = 0;
  std::vector<sim::Notifier*> barrier_waiters_;
};

} // namespace shmemsim::front
