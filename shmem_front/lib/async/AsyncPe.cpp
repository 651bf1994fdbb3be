// One PE's work-stealing runtime (AsyncPe.hpp): worker slots and their threads, deques, scopes,
// promises, the offload queue and the watcher of communication-driven tasks.
#include "shmem_front/lib/async/AsyncPe.hpp"

#include "shmem_front/lib/Compare.hpp"
#include "shmem_front/lib/async/Promise.hpp"
#include "base/Assert.hpp"

#include <shmem.h>

#include <algorithm>
#include <string>
#include <utility>

namespace shmemsim::front::async {

AsyncPe::AsyncPe(int pe, int workers, AsyncDesign design, Runtime& rt, Transport& inner, ContextTable& contexts)
    : pe_(pe), n_workers_(workers), design_(design), rt_(rt), inner_(inner), contexts_(contexts), pt_(rt.pthreads()),
      deques_(static_cast<std::size_t>(workers))
{
  SHMEMSIM_ASSERT(workers >= 1, "an AsyncSHMEM runtime has at least one worker");
}

AsyncPe::~AsyncPe()
{
  for (TransportCtx* c : ctxs_)
    contexts_.destroy(c); // quieted when the runtime stopped
}

void AsyncPe::lock()
{
  pt_.mutex_lock(&mu_);
}

void AsyncPe::unlock()
{
  pt_.mutex_unlock(&mu_);
}

AsyncPe::Thread* AsyncPe::self()
{
  const pthread_t me = pt_.self();
  for (Thread& t : threads_)
    if (t.id == me)
      return &t;
  return nullptr;
}

AsyncPe::Thread& AsyncPe::worker(const char* routine)
{
  Thread* t = self();
  if (t == nullptr || t->slot < 0)
    rt_.fatal(std::string(routine) + ": called by a thread that is no worker of shmemx_worker_init");
  return *t;
}

int AsyncPe::my_worker()
{
  lock();
  const Thread* t = self();
  const int w     = t != nullptr ? t->slot : -1;
  unlock();
  return w;
}

bool AsyncPe::is_comm_worker()
{
  if (design_ != AsyncDesign::Offload)
    return false;
  lock();
  const bool comm = comm_ == pt_.self();
  unlock();
  return comm;
}

// ------------------------------------------------------------------ threads and slots

void AsyncPe::start()
{
  Thread& main = threads_.emplace_back();
  main.id      = pt_.self();
  main.slot    = 0;
  main.pe      = this;
  ++stats_.threads;
  if (design_ == AsyncDesign::Contexts) {
    for (int w = 0; w < n_workers_; ++w) {
      TransportCtx* c = contexts_.create(0);
      if (c == nullptr)
        rt_.fatal("shmemx_worker_init: no communication context left for worker " + std::to_string(w) + " of " +
                  std::to_string(n_workers_) +
                  " (contexts runtime; the NIC's max_cts/max_mds): use fewer workers, the offload runtime, or "
                  "job.contexts.on_exhaustion share");
      ctxs_.push_back(c);
    }
  }
  lock();
  for (int w = 1; w < n_workers_; ++w)
    add_thread(w);
  unlock();
  if (design_ == AsyncDesign::Offload && pt_.create(&comm_, nullptr, &AsyncPe::comm_main, this) != 0)
    rt_.fatal("shmemx_worker_init: cannot create the communication worker");
  if (pt_.create(&watcher_, nullptr, &AsyncPe::watcher_main, this) != 0)
    rt_.fatal("shmemx_worker_init: cannot create the thread of communication-driven tasks");
}

void AsyncPe::add_thread(int slot)
{
  Thread& t = threads_.emplace_back();
  t.slot    = slot;
  t.pe      = this;
  if (slot < 0)
    ++starting_;
  ++stats_.threads;
  const int r = pt_.create(&t.id, nullptr, &AsyncPe::thread_main, &t);
  if (r != 0)
    rt_.fatal("shmemx_worker_init: cannot create a worker thread (pthread_create: error " + std::to_string(r) + "; " +
              std::to_string(threads_.size()) + " threads so far)");
}

void* AsyncPe::thread_main(void* arg)
{
  Thread& me = *static_cast<Thread*>(arg);
  AsyncPe& a = *me.pe;
  a.lock();
  // pthread_create stored the id before the creator (holding the lock) went on; written again only
  // where it had not (the join in run_root reads it without the lock).
  if (const pthread_t self = a.pt_.self(); !(me.id == self))
    me.id = self;
  if (me.slot < 0)
    --a.starting_;
  a.schedule(me, [&a] { return a.stop_; });
  a.unlock();
  return nullptr;
}

void AsyncPe::run_root(void (*entry)(void*), void* data)
{
  const double t0 = rt_.wtime();
  Scope root;
  Thread& main = threads_.front();
  main.scope   = &root;
  Task t;
  t.body = entry;
  t.data = data;
  spawn(t);
  lock();
  schedule(main, [&root] { return root.pending == 0; });
  main.scope    = nullptr;
  stats_.span_s = rt_.wtime() - t0;
  stop_         = true;
  pt_.cond_broadcast(&work_cv_);
  pt_.cond_broadcast(&spare_cv_);
  pt_.cond_broadcast(&comm_cv_);
  pt_.cond_broadcast(&watch_cv_);
  unlock();
  for (std::size_t i = 1; i < threads_.size(); ++i) // no thread is added after stop
    pt_.join(threads_[i].id, nullptr);
  if (design_ == AsyncDesign::Offload)
    pt_.join(comm_, nullptr);
  pt_.join(watcher_, nullptr);
  for (TransportCtx* c : ctxs_)
    inner_.quiet(c);
}

void AsyncPe::schedule(Thread& me, const std::function<bool()>& done)
{
  while (!done()) {
    if (me.slot < 0) { // a spare: take a free slot or park
      if (!free_slots_.empty()) {
        me.slot = free_slots_.back();
        free_slots_.pop_back();
      } else {
        ++idle_spares_;
        pt_.cond_wait(&spare_cv_, &mu_);
        --idle_spares_;
      }
      continue;
    }
    if (!resumable_.empty()) { // between two tasks: a resumed task has priority over new ones
      Thread* r = resumable_.front();
      resumable_.pop_front();
      r->slot = me.slot;
      me.slot = -1;
      pt_.cond_signal(&r->cv);
      continue;
    }
    Task t;
    if (take(me.slot, &t)) {
      unlock();
      run(me, t);
      lock();
      continue;
    }
    pt_.cond_wait(&work_cv_, &mu_);
  }
}

void AsyncPe::place_slot(int s)
{
  if (!resumable_.empty()) {
    Thread* r = resumable_.front();
    resumable_.pop_front();
    r->slot = s;
    pt_.cond_signal(&r->cv);
    return;
  }
  free_slots_.push_back(s);
  if (static_cast<int>(free_slots_.size()) > idle_spares_ + starting_)
    add_thread(-1);
  pt_.cond_signal(&spare_cv_);
}

void AsyncPe::release(Thread& me)
{
  const int s = me.slot;
  me.slot     = -1;
  ++stats_.suspensions;
  place_slot(s);
}

void AsyncPe::acquire(Thread& me)
{
  if (!free_slots_.empty()) {
    me.slot = free_slots_.back();
    free_slots_.pop_back();
    return;
  }
  resumable_.push_back(&me);
  pt_.cond_broadcast(&work_cv_); // idle owners hand their slot over
  while (me.slot < 0)
    pt_.cond_wait(&me.cv, &mu_);
}

void AsyncPe::block_until(Thread& me, std::function<bool()> done, bool reacquire)
{
  if (done())
    return;
  release(me);
  me.until = std::move(done);
  blocked_.push_back(&me);
  while (!me.until())
    pt_.cond_wait(&me.cv, &mu_);
  std::erase(blocked_, &me);
  me.until = nullptr;
  if (reacquire)
    acquire(me);
}

void AsyncPe::notify_blocked()
{
  for (Thread* t : blocked_)
    if (t->until())
      pt_.cond_signal(&t->cv);
}

// ------------------------------------------------------------------ tasks

bool AsyncPe::take(int w, Task* out)
{
  auto& own = deques_[static_cast<std::size_t>(w)];
  if (!own.empty()) {
    *out = own.back(); // newest first: depth-first on its own work
    own.pop_back();
    return true;
  }
  if (!shared_.empty()) {
    *out = shared_.front();
    shared_.pop_front();
    return true;
  }
  for (int i = 1; i < n_workers_; ++i) { // steal the oldest task, victims in a fixed order
    auto& victim = deques_[static_cast<std::size_t>((w + i) % n_workers_)];
    if (!victim.empty()) {
      *out = victim.front();
      victim.pop_front();
      ++stats_.steals;
      return true;
    }
  }
  return false;
}

void AsyncPe::run(Thread& me, Task t)
{
  Scope* const saved = me.scope;
  me.scope           = t.scope;
  if (t.ibody != nullptr) {
    // A range of parallel_for: hand the upper halves to the deque (thieves take the big ones),
    // run the first iteration here.
    while (t.hi - t.lo > 1) {
      Task right = t;
      right.lo   = t.lo + (t.hi - t.lo) / 2;
      t.hi       = right.lo;
      spawn(right);
    }
    t.ibody(t.lo, t.data);
  } else if (t.fbody != nullptr) {
    void* r = t.fbody(t.data);
    satisfy(t.promise, r);
  } else {
    t.body(t.data);
  }
  if (me.scope != t.scope)
    rt_.fatal("shmemx_task_scope_begin: a task returned with a task scope still open (every "
              "shmemx_task_scope_begin needs its shmemx_task_scope_end in the same task)");
  me.scope = saved;
  lock();
  ++stats_.tasks;
  finish(t.scope);
  unlock();
}

void AsyncPe::finish(Scope* s)
{
  SHMEMSIM_ASSERT(s->pending > 0, "a task scope's count went below zero");
  if (--s->pending != 0)
    return;
  notify_blocked();
  if (s->parent == nullptr) // the root scope: the main thread may be parked anywhere
    pt_.cond_broadcast(&work_cv_), pt_.cond_broadcast(&spare_cv_);
}

void AsyncPe::push_ready(Thread* me, const Task& t)
{
  (me != nullptr && me->slot >= 0 ? deques_[static_cast<std::size_t>(me->slot)] : shared_).push_back(t);
  pt_.cond_signal(&work_cv_);
}

void AsyncPe::spawn(const Task& t)
{
  lock();
  Thread& me = worker("shmemx_task");
  Task c     = t;
  c.scope    = me.scope;
  ++c.scope->pending;
  push_ready(&me, c);
  unlock();
}

void AsyncPe::scope_begin()
{
  lock();
  Thread& me = worker("shmemx_task_scope_begin");
  me.scope   = new Scope{0, me.scope};
  unlock();
}

void AsyncPe::scope_end()
{
  lock();
  Thread& me = worker("shmemx_task_scope_end");
  Scope* s   = me.scope;
  if (s == nullptr || s->parent == nullptr) {
    unlock();
    rt_.fatal("shmemx_task_scope_end: no task scope is open in this task (shmemx_task_scope_begin missing)");
  }
  block_until(me, [s] { return s->pending == 0; });
  me.scope = s->parent;
  unlock();
  delete s;
}

bool AsyncPe::satisfy(shmemsim_promise* p, void* value)
{
  lock();
  if (p->satisfied) {
    unlock();
    return false;
  }
  p->satisfied = true;
  p->value     = value;
  Thread* me   = self();
  for (const Task& t : p->waiters)
    push_ready(me, t);
  p->waiters.clear();
  notify_blocked();
  unlock();
  return true;
}

void* AsyncPe::future_wait(shmemsim_promise* p)
{
  lock();
  Thread& me = worker("shmemx_future_wait");
  block_until(me, [p] { return p->satisfied; });
  void* v = p->value;
  unlock();
  return v;
}

void AsyncPe::await(shmemsim_promise* p, const Task& t)
{
  lock();
  Thread& me = worker("shmemx_task_await");
  Task c     = t;
  c.scope    = me.scope;
  ++c.scope->pending;
  if (p->satisfied)
    push_ready(&me, c);
  else
    p->waiters.push_back(c);
  unlock();
}

// ------------------------------------------------------------------ communication-driven tasks

bool AsyncPe::holds(const Watch& w)
{
  for (std::size_t i = 0; i < w.n; ++i) {
    if (!w.status.empty() && w.status[i] != 0)
      continue;                                                   // masked out, as in shmem_wait_until_any's status
    const int v = __atomic_load_n(&w.ivars[i], __ATOMIC_ACQUIRE); // the network updates it meanwhile
    if (satisfied(v, w.cmp, w.value))
      return true;
  }
  return false;
}

void AsyncPe::watch(Watch w)
{
  lock();
  Thread& me   = worker("shmemx_int_task_when");
  w.task.scope = me.scope;
  ++w.task.scope->pending;
  if (holds(w)) {
    ++stats_.watches_fired;
    push_ready(&me, w.task);
  } else {
    watches_.push_back(std::move(w));
    pt_.cond_signal(&watch_cv_);
  }
  unlock();
}

void AsyncPe::fire_ready_watches()
{
  for (std::size_t i = 0; i < watches_.size();) {
    if (holds(watches_[i])) {
      push_ready(nullptr, watches_[i].task);
      watches_.erase(watches_.begin() + static_cast<std::ptrdiff_t>(i));
      ++stats_.watches_fired;
    } else {
      ++i;
    }
  }
}

void* AsyncPe::watcher_main(void* self)
{
  auto& a = *static_cast<AsyncPe*>(self);
  a.lock();
  while (!a.stop_) {
    if (a.watches_.empty()) {
      a.pt_.cond_wait(&a.watch_cv_, &a.mu_);
      continue;
    }
    // Read the update count before the conditions: an update after this read ends the wait.
    const std::uint64_t seen = a.inner_.updates();
    a.fire_ready_watches();
    if (a.watches_.empty())
      continue;
    a.unlock();
    a.inner_.wait_for_update(seen, "shmemx_int_task_when");
    a.lock();
    ++a.stats_.watcher_wakeups;
  }
  a.unlock();
  return nullptr;
}

// ------------------------------------------------------------------ offload design

void AsyncPe::offload(void (*run)(void*), void* arg)
{
  OffloadOp op;
  op.run    = run;
  op.arg    = arg;
  op.posted = rt_.wtime();
  lock();
  Thread* me = self();
  SHMEMSIM_ASSERT(me != nullptr && me->slot >= 0, "only a worker's task offloads");
  ops_.push_back(&op);
  ++stats_.offloaded;
  pt_.cond_signal(&comm_cv_);
  block_until(*me, [&op] { return op.done; });
  unlock();
}

void* AsyncPe::comm_main(void* self)
{
  auto& a = *static_cast<AsyncPe*>(self);
  a.lock();
  a.comm_ = a.pt_.self(); // as pthread_create stores it, which may be after this thread starts
  while (true) {
    while (a.ops_.empty() && !a.stop_)
      a.pt_.cond_wait(&a.comm_cv_, &a.mu_);
    if (a.ops_.empty())
      break;
    OffloadOp* op = a.ops_.front();
    a.ops_.pop_front();
    const double t0 = a.rt_.wtime();
    a.stats_.comm_queue_s += t0 - op->posted;
    a.unlock();
    op->run(op->arg);
    a.lock();
    a.stats_.comm_busy_s += a.rt_.wtime() - t0;
    op->done = true;
    a.notify_blocked();
  }
  a.unlock();
  return nullptr;
}

} // namespace shmemsim::front::async
