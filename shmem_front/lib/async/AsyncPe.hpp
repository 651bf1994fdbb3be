// AsyncSHMEM (seed 001): one PE's work-stealing task runtime, on the PE's threads through the
// pthread API of the runtime seam (Runtime::pthreads), so the same code runs on the simulator's
// threads and on real ones. docs/extensions-async.md describes the design; in short:
// - n worker slots, each with a deque: its owner pushes and pops its own tasks at the back, idle
//   owners steal at the front of the others'. The PE's main thread owns slot 0 at the start,
//   threads of the runtime the others. shmemx_my_worker is the slot of the calling thread.
// - A task that waits (a scope's end, a future, an offloaded SHMEM call) is suspended
//   by blocking its thread: the thread hands its slot to a spare thread (made when none is idle),
//   which runs other tasks; once the condition holds the task's thread is re-inserted: it takes
//   the next slot that frees up (an owner gives its slot away between two tasks). So a waiting
//   task never runs below another task on one stack, and at most n threads run tasks at a time.
//   No user-level context switch: every suspended task keeps a thread of its own (the simulator's
//   threads are cheap actors, and the program's per-thread state stays with its task). A task in
//   wait_until or a collective keeps its slot (AsyncTransport::wait_for_update says why).
// - Offload design: a communication worker (one more thread) performs every transport operation
//   of the tasks (AsyncTransport forwards them); contexts design: each slot issues on a context of
//   its own, and a quiet of the default context completes every slot's context.
// - Communication-driven tasks: a watcher thread blocks in Transport::wait_for_update while
//   watches are registered and turns those whose condition holds into tasks: woken by deliveries,
//   never by polling.
// One lock per PE guards all of it (slots, deques, scopes, promises, watches, the offload queue).
#pragma once

#include "shmem_front/lib/ContextTable.hpp"
#include "shmem_front/lib/Seams.hpp"

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

struct shmemsim_promise;

namespace shmemsim::front::async {

/// A join counter (shmemx_task_scope_begin/end; the root scope of shmemx_worker_init).
struct Scope {
  std::int64_t pending = 0; ///< tasks (and registered watches) counted in it, not yet finished
  Scope* parent        = nullptr;
};

/// A ready task.
struct Task {
  void (*body)(void*)       = nullptr; ///< shmemx_task, _task_await, _task_when
  void* (*fbody)(void*)     = nullptr; ///< shmemx_task_future: its result satisfies `promise`
  void (*ibody)(int, void*) = nullptr; ///< shmemx_parallel_for: iterations [lo, hi)
  void* data                = nullptr;
  int lo = 0, hi = 0;
  shmemsim_promise* promise = nullptr;
  Scope* scope              = nullptr; ///< the scope it is counted in, and its children's
};

/// A communication-driven task waiting for its condition (shmemx_int_task_when / _when_any).
struct Watch {
  int* ivars    = nullptr;
  std::size_t n = 1;
  std::vector<int> status; ///< _when_any's mask (empty: every element)
  int cmp = 0, value = 0;
  Task task;
};

/// An operation the offload design's communication worker performs for a task.
struct OffloadOp {
  void (*run)(void*) = nullptr;
  void* arg          = nullptr;
  double posted      = 0; ///< wtime when queued
  bool done          = false;
};

/// What the runtime counted (shmemx_async_stats; docs/extensions-async.md).
struct Stats {
  std::uint64_t tasks = 0, steals = 0, offloaded = 0, watches_fired = 0, watcher_wakeups = 0;
  std::uint64_t suspensions = 0; ///< tasks suspended (their thread handed its slot over)
  std::uint64_t threads     = 0; ///< threads that ran tasks (the PE's main thread included)
  double comm_busy_s        = 0; ///< the communication worker performing operations
  double comm_queue_s       = 0; ///< operations waiting in its queue, summed
  double span_s             = 0; ///< the root task's start to the end of the last task
};

class AsyncPe {
public:
  /// The workers' contexts (contexts design) come from `contexts`, the PE's table.
  AsyncPe(int pe, int workers, AsyncDesign design, Runtime& rt, Transport& inner, ContextTable& contexts);
  ~AsyncPe();
  AsyncPe(const AsyncPe&)            = delete;
  AsyncPe& operator=(const AsyncPe&) = delete;

  /// Start the worker, communication and watcher threads (the caller owns slot 0).
  void start();
  /// Run `entry(data)` as the root task and wait for every task it made; then stop the threads.
  void run_root(void (*entry)(void*), void* data);

  int workers() const { return n_workers_; }
  AsyncDesign design() const { return design_; }
  /// The calling thread's worker slot, -1 if it holds none.
  int my_worker();
  /// Whether the calling thread is the communication worker.
  bool is_comm_worker();
  /// The context slot `w` issues on (contexts design).
  TransportCtx* worker_ctx(int w) const { return ctxs_[static_cast<std::size_t>(w)]; }
  const std::vector<TransportCtx*>& worker_ctxs() const { return ctxs_; }
  const Stats& stats() const { return stats_; }

  // Tasks, scopes, futures (the caller is a worker)
  void spawn(const Task& t);
  void scope_begin();
  void scope_end();
  /// Satisfy `p` with `value` (false: it already was).
  bool satisfy(shmemsim_promise* p, void* value);
  void* future_wait(shmemsim_promise* p);
  /// Run `t` once `p` is satisfied.
  void await(shmemsim_promise* p, const Task& t);
  /// Register a communication-driven task (its condition is checked at once, then at every update).
  void watch(Watch w);

  /// Offload design: have the communication worker run `run(arg)`; the calling task is suspended.
  void offload(void (*run)(void*), void* arg);

private:
  /// A thread of the runtime (the PE's main thread included).
  struct Thread {
    pthread_t id{};
    int slot          = -1;                       ///< the worker slot it holds, -1: none
    Scope* scope      = nullptr;                  ///< innermost scope of the task it runs
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER; ///< its own wake-ups (condition held, slot given)
    std::function<bool()> until;                  ///< while its task is suspended: the condition it waits for
    AsyncPe* pe = nullptr;
  };
  static void* thread_main(void* self);
  static void* comm_main(void* self);
  static void* watcher_main(void* self);
  void lock();
  void unlock();
  /// The calling thread's record (null: no thread of the runtime); the lock is held.
  Thread* self();
  /// The calling thread, which must hold a slot (`routine` names the call in the error); the lock is held.
  Thread& worker(const char* routine);
  /// Start one more thread holding `slot` (-1: none, it takes the next free one).
  void add_thread(int slot);
  /// Run tasks while `me` holds a slot, park while it holds none; return once `done()` holds.
  void schedule(Thread& me, const std::function<bool()>& done);
  /// Slot `s` is free: give it to a suspended task whose condition holds, else to a spare thread.
  void place_slot(int s);
  /// Suspend the task of `me` until `done()` holds (lock held); `reacquire`: then take a slot again.
  void block_until(Thread& me, std::function<bool()> done, bool reacquire = true);
  void release(Thread& me);
  void acquire(Thread& me);
  /// Wake the suspended tasks whose conditions now hold.
  void notify_blocked();
  /// A ready task for slot `w` (own deque, then shared, then stolen), with the lock held.
  bool take(int w, Task* out);
  /// Run `t` on `me` (lock not held).
  void run(Thread& me, Task t);
  /// Queue a ready task on the slot of `me` (shared if it holds none) and wake an idle owner.
  void push_ready(Thread* me, const Task& t);
  void finish(Scope* s);
  static bool holds(const Watch& w);
  void fire_ready_watches();

  int pe_;
  int n_workers_;
  AsyncDesign design_;
  Runtime& rt_;
  Transport& inner_;
  ContextTable& contexts_;
  const Pthreads& pt_;
  pthread_mutex_t mu_      = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t work_cv_  = PTHREAD_COND_INITIALIZER; ///< slot owners: a task, a resumable task, stop
  pthread_cond_t spare_cv_ = PTHREAD_COND_INITIALIZER; ///< threads without a slot: a free slot, stop
  pthread_cond_t comm_cv_  = PTHREAD_COND_INITIALIZER; ///< the communication worker's queue
  pthread_cond_t watch_cv_ = PTHREAD_COND_INITIALIZER; ///< the watcher: a first watch, or stop
  std::deque<Thread> threads_;                         ///< [0]: the PE's main thread
  std::vector<std::deque<Task>> deques_;               ///< one per slot
  std::vector<int> free_slots_;
  std::deque<Thread*> resumable_; ///< suspended tasks whose condition holds, waiting for a slot
  std::vector<Thread*> blocked_;  ///< suspended tasks whose condition did not hold yet
  int idle_spares_ = 0;           ///< threads without a slot waiting for one
  int starting_    = 0;           ///< threads made without a slot that have not run yet
  std::deque<Task> shared_;       ///< tasks made ready by non-workers (the watcher)
  std::deque<OffloadOp*> ops_;
  std::vector<Watch> watches_;
  std::vector<TransportCtx*> ctxs_;
  pthread_t comm_{}, watcher_{};
  bool stop_ = false;
  Stats stats_;
};

/// The calling PE's runtime while shmemx_worker_init runs, else null.
AsyncPe* current();

} // namespace shmemsim::front::async
