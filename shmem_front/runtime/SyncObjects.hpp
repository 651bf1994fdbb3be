// The synchronization objects of the PEs' simulated threads, keyed by the program's address of
// the object: mutexes (also spinlocks and rwlocks), condition variables with simulated-time
// deadlines, barriers; and the library's internal lock of a shared context.
#pragma once

#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/runtime/SimThreads.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <ctime>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace shmemsim::sim {
class Simulation;
} // namespace shmemsim::sim
namespace shmemsim {
class ShmemObserver;
} // namespace shmemsim

namespace shmemsim::front {

class SyncObjects {
public:
  /// `calls` is told when a thread enters and leaves a blocking call; `library_lock` is the hold
  /// time of the library's lock (0: no cost).
  SyncObjects(sim::Simulation& sim, SimThreads& threads, Accounting& calls, Ps library_lock)
      : sim_(sim), threads_(threads), calls_(calls), library_lock_(library_lock)
  {
  }
  /// Report library-lock holds to `obs` (null: nobody).
  void set_observer(ShmemObserver* obs) { obs_ = obs; }
  /// How deadlock reports name a mutex, condition variable or barrier by its address (PeSet::name_address).
  void set_address_namer(std::function<std::string(const void*)> namer) { name_address_ = std::move(namer); }

  /// The pthread operations of the running thread; each returns 0 or an errno value.
  int mutex_lock(void* m, bool try_only);
  int mutex_unlock(void* m);
  int mutex_forget(void* m);
  /// `abstime`: a CLOCK_REALTIME deadline on the simulated clock, or null.
  int cond_wait(void* c, void* m, const timespec* abstime);
  int cond_signal(void* c, bool broadcast);
  int barrier_init(void* b, unsigned count);
  int barrier_wait(void* b);
  /// The library's lock `lock` (one per shared context): take it, hold it, hand it over.
  void library_lock(const void* lock);

private:
  struct Mutex {
    SimThread* owner = nullptr;
    std::deque<SimThread*> waiters;
  };
  struct Cond {
    std::deque<SimThread*> waiters;
  };
  struct Barrier {
    unsigned count = 0, arrived = 0;
    std::uint64_t generation = 0;
    std::vector<SimThread*> waiting;
  };
  /// Queue the running thread on a held mutex and block until it is handed over.
  void wait_for_mutex(Mutex& mx, const void* key, const char* what, const char* call);
  /// Free the mutex, or hand it to the first waiter.
  void release_mutex(Mutex& mx);

  sim::Simulation& sim_;
  SimThreads& threads_;
  Accounting& calls_;
  Ps library_lock_;
  ShmemObserver* obs_ = nullptr;
  std::function<std::string(const void*)> name_address_;
  std::unordered_map<const void*, Mutex> mutexes_;
  std::unordered_map<const void*, Cond> conds_;
  std::unordered_map<const void*, Barrier> barriers_;
};

} // namespace shmemsim::front
