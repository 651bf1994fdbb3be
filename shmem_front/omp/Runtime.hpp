// shmemsim's OpenMP runtime (libshmemsim_omp.so): the GOMP ABI that gcc 12 emits, on the
// simulated threads of the PE runtime. All simulated threads run cooperatively on one OS thread,
// so the structures below need no atomics: code between two blocking calls (charge, park) runs
// without interruption. The library is loaded once per process and shared by all PEs: its state
// lives in the PE runtime's per-PE and per-thread slots, never in globals or thread-locals.
#pragma once

#include "shmem_front/interpose/hooks.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace shmemsim::omp {

// Schedule kinds, numbered as gcc passes them (GOMP_loop_start) and as omp_sched_t.
enum Sched : int { kRuntime = 0, kStatic = 1, kDynamic = 2, kGuided = 3, kAuto = 4 };
constexpr unsigned kMonotonic = 0x80000000u;

/// Internal control variables (per thread; a team's threads inherit the encountering thread's).
struct Icv {
  int nthreads          = 1;
  int run_sched         = kDynamic; ///< omp_sched_t, the monotonic bit included
  long run_chunk        = 1;
  bool dynamic          = false;
  int max_active_levels = 1;
  int thread_limit      = 1 << 20;
};

struct Thread;
struct Team;

/// A lock with first-come first-served hand-over (critical sections, atomics, omp locks).
struct Lock {
  Thread* owner = nullptr;
  int count     = 0; ///< nest locks
  std::deque<Thread*> waiters;
};

struct TaskGroup {
  std::uint64_t count = 0; ///< tasks of the group (descendants included) not completed
  TaskGroup* prev     = nullptr;
};

struct Task {
  void (*fn)(void*)    = nullptr;
  void* data           = nullptr; ///< the task's own copy of its arguments (malloc'ed)
  Task* parent         = nullptr;
  TaskGroup* group     = nullptr; ///< the taskgroup the task counts in (may be null)
  TaskGroup* taskgroup = nullptr; ///< innermost taskgroup active in the task's region
  unsigned children    = 0;       ///< child tasks not completed
  bool done            = false;
  bool final           = false;
  bool implicit        = false;
};

/// One worksharing construct (loop, sections, single) of a team, shared by its threads, which
/// meet it in the same order (numbered by `seq`).
struct WorkShare {
  std::uint64_t seq   = 0;
  unsigned left       = 0; ///< threads that are done with it
  int sched           = kStatic;
  std::uint64_t chunk = 0;
  std::uint64_t n     = 0;                    ///< iterations
  std::uint64_t next  = 0;                    ///< dynamic, guided: first iteration not handed out
  std::uint64_t start = 0, incr = 0, end = 0; ///< raw 64-bit loop bounds (long or unsigned long long)
  bool ordered               = false;
  std::uint64_t ordered_next = 0;       ///< the first iteration whose chunk may run its ordered regions
  void* copy                 = nullptr; ///< copyprivate
  void* mem                  = nullptr; ///< lastprivate(conditional:) buffer
};

struct Team {
  unsigned nthreads    = 1;
  int level            = 0;
  int active_level     = 0;
  unsigned ancestor_id = 0; ///< the encountering thread's number in the parent team
  Team* parent         = nullptr;
  std::vector<Thread*> members;
  // barrier
  unsigned arrived         = 0;
  std::uint64_t generation = 0;
  std::vector<Thread*> waiters; ///< threads parked until something happens in the team
  // worksharing
  std::map<std::uint64_t, WorkShare*> work;
  // tasks
  std::deque<Task*> queue;
  std::uint64_t outstanding = 0; ///< tasks created and not completed
};

/// What an encountering thread was doing before it became thread 0 of a new team.
struct Saved {
  Team* team;
  unsigned id;
  Task* task;
  std::uint64_t ws_seq;
  WorkShare* ws;
  std::uint64_t static_trip;
  bool have_chunk;
  std::uint64_t chunk_lo, chunk_hi;
};

/// A simulated thread's OpenMP state (its slot in the PE runtime).
struct Thread {
  struct Pe* pe = nullptr;
  void* sim     = nullptr; ///< the simulated thread (hooks->self), for park/unpark
  Team* team    = nullptr;
  unsigned id   = 0;
  Icv icv;
  Task* task                = nullptr;
  std::uint64_t ws_seq      = 0;
  WorkShare* ws             = nullptr;
  std::uint64_t static_trip = 0;
  bool have_chunk           = false;
  std::uint64_t chunk_lo = 0, chunk_hi = 0;
  // pool workers
  bool worker       = false;
  bool busy         = false;
  bool has_work     = false;
  bool quit         = false;
  void (*fn)(void*) = nullptr;
  void* data        = nullptr;
  std::string waiting;      ///< what the thread is parked on (deadlock reports)
  std::vector<Saved> saved; ///< enclosing regions of the teams this thread is thread 0 of
};

/// A PE's OpenMP state (its slot in the PE runtime).
struct Pe {
  Icv defaults;
  std::vector<Thread*> workers; ///< the pool, in creation order
  std::vector<Team*> spare_teams;
  Lock critical, atomic;
  std::unordered_map<const void*, Lock> locks; ///< named critical sections and omp locks
};

const shmemsim_hooks* hooks();
Pe& pe_state();
/// The calling simulated thread's state (an initial thread gets a team of one on first use).
Thread& self();
[[noreturn]] void unsupported(const std::string& what);

// Synchronization inside a team.
void barrier(Thread& me, const char* routine);
void team_wait(Thread& me, const char* routine);
void wake_team(Team& t);
void lock_acquire(Thread& me, Lock& l, const char* routine, const std::string& what, bool nest);
bool lock_try(Thread& me, Lock& l, bool nest);
/// Charges the computation done while holding the lock first (it takes simulated time inside).
void lock_release(Thread& me, Lock& l, const char* routine);

// Tasks.
void run_task(Thread& me, Task* t);

// Parallel regions: the encountering thread becomes thread 0 of a new team.
unsigned resolve_threads(Thread& me, unsigned requested);
void parallel_begin(Thread& me, void (*fn)(void*), void* data, unsigned nthreads, WorkShare* combined);
void parallel_end(Thread& me);

} // namespace shmemsim::omp
