// The PE runtime: the runtime seam on SimGrid. Each PE is an actor running `main` of its own
// private copy of the program; this class knows which PE is running, its memory, its process
// state (argv, getopt variables, errno, random generators), charges its computation, and ends
// the run on misuse, crashes, exit and global_exit.
#pragma once

#include "scenarios/Scenario.hpp"
#include "shmem_front/interpose/hooks.h"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/transport/PortalsTransport.hpp"
#include "sim/Simulation.hpp"

#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace shmemsim::front {

using ProgramMain = int (*)(int, char**, char**);

struct PeProcess {
  int id   = 0;
  int node = 0;
  PeMemory mem;
  ProgramMain main = nullptr;
  std::vector<std::string> args; ///< argv[0] is the program
  std::vector<char*> argv;
  int exit_status = 0;
  bool finished   = false;
  const char* routine = nullptr; ///< library routine the PE is in (for reports)
  // Process state kept per PE and swapped at every actor switch.
  int optind = 1, opterr = 1, optopt = '?';
  char* optarg = nullptr;
  int err      = 0;
  shmemsim_libc_state libc{};
  double cpu_mark = 0; ///< measured mode: CPU time when the PE last left the library
  FILE* out       = nullptr; ///< --tag-output: this PE's stdout and stderr (prefix every line)
  FILE* err_out   = nullptr;
  bool has_tls    = false;   ///< the program has thread-local variables (PT_TLS)
  void* handle    = nullptr; ///< this PE's copy of the program (dlopen)
  const std::byte* tls_image = nullptr; ///< the copy's initial TLS image (.tdata)
  std::size_t tls_filesz = 0, tls_memsz = 0;
  int threads     = 1;       ///< threads created so far (the main thread included)
  void* omp       = nullptr; ///< the OpenMP runtime's state for this PE (its slot)
  bool maps_peers = false;   ///< shmem_ptr gave it another PE's memory (its stores may land there)
  char** env      = nullptr; ///< its environment (libc's environ while it runs)
  std::vector<char*> env_storage; ///< its environment's array (null-terminated), when it is ours
  std::deque<std::string> env_strings; ///< "NAME=value" entries made by setenv
};

/// The interposition library's basic-block counter and the count at which the running thread's
/// time slice ends (both shared by every simulated thread; the runtime swaps the count per thread).
struct BlockCounter {
  unsigned long* blocks       = nullptr;
  unsigned long* slice_blocks = nullptr;
};

/// One simulated thread of a PE (its main thread included): an actor.
struct SimThread {
  PeProcess* pe        = nullptr;
  unsigned long tid    = 0;
  int index            = 0; ///< 0 for the PE's main thread
  int err              = 0; ///< errno, kept per thread
  const char* routine  = nullptr;
  sim::Notifier* notifier = nullptr;
  bool finished        = false;
  bool detached        = false;
  void* retval         = nullptr;
  std::vector<SimThread*> joiners;
  // condition-variable wait state
  bool cond_signaled = false;
  bool cond_timed_out = false;
  bool in_cond_wait  = false;
  std::uint64_t cond_generation = 0; ///< numbers this thread's condition waits (stale timeouts)
  std::map<unsigned, const void*> specific; ///< pthread_setspecific values
  std::vector<std::byte> tls; ///< this thread's copy of the program's TLS block (while it is switched out)
  void* omp        = nullptr; ///< the OpenMP runtime's state for this thread (its slot)
  bool unparked    = false;   ///< a wake-up for park() is pending
  const char* park_what = nullptr; ///< what a parked thread waits for (reports)
  unsigned long blocks = 0;  ///< basic blocks not yet charged (while it is switched out)
  bool computing       = false; ///< charging computation (in a SimGrid execution or a poll)
  sim::Ps last_call    = 0;  ///< when it last entered or left a charging call
  sim::Ps sliced_from  = -1; ///< start of the run of time slices in progress (-1: none)
};

class PeRuntime final : public Runtime {
public:
  PeRuntime(sim::Simulation& sim, const scenarios::Scenario& sc, std::vector<PeProcess>& pes,
            BlockCounter counter, double poll_cost_s = 100e-9);
  ~PeRuntime() override;

  /// The hook table for the interposition library.
  const shmemsim_hooks* hooks() const { return &hooks_; }
  /// Start every PE's actor.
  void spawn_all();
  /// The calling actor's PE, or null (maestro, or an actor that is not a PE). Kept up to date
  /// at every switch (the simulation's switch hooks), so this costs nothing.
  PeProcess* current() { return current_ != nullptr ? current_->pe : nullptr; }
  SimThread* current_thread() { return current_; }
  void forget_current() { current_ = nullptr; }

  // pthreads of the PEs (hooks of the interposition library)
  int thread_create(unsigned long* tid, void* (*fn)(void*), void* arg);
  int thread_join(unsigned long tid, void** retval);
  [[noreturn]] void thread_exit(void* retval);
  int mutex_lock(void* m, bool try_only);
  int mutex_unlock(void* m);
  int mutex_forget(void* m);
  int cond_wait(void* c, void* m, const timespec* abstime);
  int cond_signal(void* c, bool broadcast);
  int barrier_init(void* b, unsigned count);
  int barrier_wait(void* b);
  int key_create(unsigned* key, void (*destructor)(void*));
  int key_delete(unsigned key);
  /// OpenMP runtime support (see hooks.h).
  int default_threads();
  int pe_cores();
  void park(const char* routine, const char* what);
  void unpark(SimThread* t);
  void set_pe_exit(void (*fn)()) { pe_exit_ = fn; }
  /// The PE's main ends (returned, exit, pthread_exit): run the OpenMP runtime's callback.
  void pe_exiting();
  /// The first non-zero exit status among the PEs (0 if all succeeded).
  int exit_status() const;
  /// Let simulated time pass for the calling PE.
  void sleep(double seconds);
  /// Let other runnable threads run first.
  void yield() { sim_.yield(); }
  /// Report computation and library-lock waits to `obs` (null: nobody).
  void set_observer(sim::Observer* obs) { obs_ = obs; }
  /// The calling thread's index in its PE (0: the main thread).
  int thread_index() const { return current_ != nullptr ? current_->index : 0; }
  /// Prefix every line a PE writes to stdout or stderr with "[PE n] " (call before spawn_all).
  void tag_output();
  /// Time slicing: the running thread ran a quantum of blocks without a charging call.
  void slice();
  /// Called with a PE's id whenever one of its threads may have stored to its memory (it enters a
  /// library routine or its time slice ends), so that waiters on that memory re-check.
  void set_store_listener(std::function<void(int pe)> fn) { store_listener_ = std::move(fn); }
  /// The calling PE's environment (hooks of the interposition library; 0 or -1 with errno).
  int env_set(const char* name, const char* value, bool overwrite);
  int env_put(char* entry);
  int env_unset(const char* name);
  int env_clear();
  /// After a time limit: one line per thread that was computing (no library call), naming it.
  std::vector<std::string> computing() const;

  // Runtime seam
  int my_pe() override;
  int n_pes() override;
  void* heap_base() override;
  std::size_t heap_size() override;
  bool is_symmetric(const void* addr, std::size_t n) override;
  void* local_address(const void* addr, int pe) override;
  bool pe_accessible(int pe) override;
  void enter(const char* routine) override;
  void leave() override;
  void poll_pause() override;
  double wtime() override;
  void startup_barrier() override;
  const char* getenv(const char* name) override;
  CollectiveParams collectives() override;
  void library_lock(const void* lock) override;
  [[noreturn]] void fatal(const std::string& message) override;
  [[noreturn]] void global_exit(int status) override;

private:
  void run_pe(int id);
  void run_thread(SimThread* t, void* (*fn)(void*), void* arg);
  void finish_thread(SimThread* t);
  SimThread* lookup_current();
  SimThread* adopt_actor(PeProcess& pe, int index);
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
  struct SyncWait;
  /// Queue the calling thread on a held mutex and block until it is handed over.
  void wait_for_mutex(Mutex& mx, const void* key, const char* what, const char* call);
  /// Free the mutex, or hand it to the first waiter.
  void release_mutex(Mutex& mx);
  /// Charge the calling thread's computation since its last charge. A time slice (`sliced`) is
  /// reported with the following ones as one computation.
  void charge_compute(PeProcess& pe, bool sliced = false);
  /// Stores of `pe`'s threads may have happened: wake the waiters on the memory they can reach.
  void publish_stores(const PeProcess& pe);
  static void save_state(void* self);
  static void restore_state(void* self);

  sim::Simulation& sim_;
  const scenarios::Scenario& sc_;
  std::vector<PeProcess>& pes_;
  unsigned long* blocks_;
  unsigned long* slice_blocks_;
  char** launcher_env_ = nullptr; ///< the simulator's environment (libc's environ outside PEs)
  unsigned long quantum_blocks_ = 1; ///< job.compute_quantum in basic blocks
  std::function<void(int)> store_listener_;
  sim::Ps poll_cost_;
  double core_speed_;
  std::vector<SimThread*> thread_of_pid_;
  SimThread* current_ = nullptr;
  std::deque<SimThread> threads_; ///< every simulated thread of the run (stable addresses)
  std::unordered_map<unsigned long, SimThread*> by_tid_;
  std::unordered_map<const void*, Mutex> mutexes_;
  std::unordered_map<const void*, Cond> conds_;
  std::unordered_map<const void*, Barrier> barriers_;
  unsigned next_key_ = 1;
  void (*pe_exit_)() = nullptr;
  std::map<unsigned, void (*)(void*)> keys_;
  shmemsim_hooks hooks_{};
  sim::Observer* obs_ = nullptr;
  // startup barrier
  int arrived_ = 0;
  std::uint64_t generation_ = 0;
  std::vector<sim::Notifier*> barrier_waiters_;
  struct BarrierWait;
};

/// The runtime of this process (one run per process), for the C hooks.
PeRuntime& pe_runtime();

} // namespace shmemsim::front
