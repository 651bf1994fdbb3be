// The simulated threads of every PE: one record per thread (its main thread included), which one
// is running, thread ids, join and detach, thread-specific keys, and parking for the OpenMP
// runtime. A thread is a SimGrid actor; blocking goes through its actor's notifier.
#pragma once

#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/runtime/PeProcess.hpp"

#include <deque>
#include <map>
#include <unordered_map>
#include <vector>

namespace shmemsim::sim {
class Simulation;
}

namespace shmemsim::front {

class SimThreads {
public:
  /// `calls` is told when a thread enters and leaves a blocking call (computation is charged).
  SimThreads(sim::Simulation& sim, Accounting& calls) : sim_(sim), calls_(calls) {}

  /// The running thread, or null (maestro, or an actor that is not a PE's). Kept up to date at
  /// every switch, so this costs nothing.
  SimThread* current() const { return current_; }
  PeProcess* current_pe() const { return current_ != nullptr ? current_->pe : nullptr; }
  /// Switched out, or ending: no thread runs until resume().
  void forget_current() { current_ = nullptr; }
  /// Switched in: the calling actor's thread becomes the running one (null if it has none).
  SimThread* resume();

  /// The thread id of `pe`'s thread number `index` (0: its main thread).
  static unsigned long tid_of(int pe, int index);
  /// The calling actor becomes `pe`'s thread number `index`, and the running thread.
  SimThread* adopt(PeProcess& pe, int index);
  /// `t` ends: thread-specific destructors, joiners woken; a detached thread's resources go.
  void finish(SimThread& t);

  /// pthread_join, pthread_detach, pthread_self of the running thread (0 or an errno value).
  int join(unsigned long tid, void** retval);
  int detach(unsigned long tid);
  unsigned long self_tid() const { return current_->tid; }

  /// Thread-specific data keys (pthread_key_create and friends).
  int key_create(unsigned* key, void (*destructor)(void*));
  int key_delete(unsigned key);
  void* get_specific(unsigned key) const;
  int set_specific(unsigned key, const void* value);

  /// Block the running thread until unpark() (at once if a wake-up is pending); `routine` and
  /// `what` name the wait in reports. Ends with the accounting's leave().
  void park(const char* routine, const char* what);
  void unpark(SimThread* t);

  /// Every thread of the run, in creation order (records stay, also once the thread ended).
  const std::deque<SimThread>& all() const { return threads_; }

private:
  SimThread* lookup(std::size_t pid) const;
  /// A detached thread ended: forget its id and free what it held (its record stays, as timeouts
  /// and the OpenMP runtime may still name it).
  void reclaim(SimThread& t);

  sim::Simulation& sim_;
  Accounting& calls_;
  SimThread* current_ = nullptr;
  std::deque<SimThread> threads_; ///< every simulated thread of the run (stable addresses)
  std::vector<SimThread*> thread_of_pid_;
  std::unordered_map<unsigned long, SimThread*> by_tid_;
  unsigned next_key_ = 1;
  std::map<unsigned, void (*)(void*)> keys_;
};

} // namespace shmemsim::front
