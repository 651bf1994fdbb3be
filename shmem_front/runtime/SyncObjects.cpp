#include "shmem_front/runtime/SyncObjects.hpp"

#include "shmem_front/runtime/RuntimeParams.hpp"
#include "sim/Notifier.hpp"
#include "base/ShmemObserver.hpp"
#include "sim/Simulation.hpp"

#include <pthread.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>

namespace shmemsim::front {

namespace {
struct SyncWait final : sim::Waitable {
  const char* what;
  const void* object;
  const std::function<std::string(const void*)>* namer = nullptr;
  std::string describe_wait() const override
  {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", object);
    const std::string name = namer != nullptr && *namer ? (*namer)(object) : std::string();
    return std::string(what) + " " + buf + (name.empty() ? "" : " (" + name + ")");
  }
};

struct CondTimeout {
  SimThread* thread;
  std::uint64_t generation; ///< the wait it belongs to
  static void fire(void* o, std::uint64_t)
  {
    auto* self                          = static_cast<CondTimeout*>(o);
    SimThread* t                        = self->thread;
    const std::uint64_t self_generation = self->generation;
    delete self;
    if (t->in_cond_wait && !t->cond_signaled && t->cond_generation == self_generation) {
      t->cond_timed_out = true;
      t->notifier->notify();
    }
  }
};
} // namespace

void SyncObjects::wait_for_mutex(Mutex& mx, const void* key, const char* what, const char* call)
{
  SimThread* me = threads_.current();
  mx.waiters.push_back(me);
  while (mx.owner != me) {
    SyncWait w;
    w.what   = what;
    w.object = key;
    w.namer  = &name_address_;
    me->notifier->wait(&w, call);
  }
}

void SyncObjects::release_mutex(Mutex& mx)
{
  if (mx.waiters.empty()) {
    mx.owner = nullptr;
    return;
  }
  mx.owner = mx.waiters.front(); // hand over, first come first served
  mx.waiters.pop_front();
  mx.owner->notifier->notify();
}

int SyncObjects::mutex_lock(void* m, bool try_only)
{
  // Charge the computation first: it may let other threads run, so the state is read after.
  calls_.enter(try_only ? "pthread_mutex_trylock" : "pthread_mutex_lock");
  SimThread* me = threads_.current();
  Mutex& mx     = mutexes_[m];
  int result    = 0;
  if (mx.owner == nullptr)
    mx.owner = me;
  else if (mx.owner == me)
    result = try_only ? EBUSY : EDEADLK;
  else if (try_only)
    result = EBUSY;
  else
    wait_for_mutex(mx, m, "mutex", "pthread_mutex_lock");
  calls_.leave();
  return result;
}

int SyncObjects::mutex_unlock(void* m)
{
  auto it = mutexes_.find(m);
  if (it == mutexes_.end() || it->second.owner != threads_.current())
    return EPERM;
  release_mutex(it->second);
  return 0;
}

int SyncObjects::mutex_forget(void* m)
{
  auto it = mutexes_.find(m);
  if (it != mutexes_.end() && (it->second.owner != nullptr || !it->second.waiters.empty()))
    return EBUSY;
  if (it != mutexes_.end())
    mutexes_.erase(it);
  return 0;
}

int SyncObjects::cond_wait(void* c, void* m, const timespec* abstime)
{
  calls_.enter(abstime != nullptr ? "pthread_cond_timedwait" : "pthread_cond_wait");
  SimThread* me = threads_.current();
  auto owned    = mutexes_.find(m);
  if (owned == mutexes_.end() || owned->second.owner != me) {
    calls_.leave();
    return EPERM;
  }
  // Register before releasing the mutex: a signal sent in between must not be lost.
  Cond& cv           = conds_[c];
  me->cond_signaled  = false;
  me->cond_timed_out = false;
  me->in_cond_wait   = true;
  ++me->cond_generation;
  cv.waiters.push_back(me);
  if (abstime != nullptr) {
    const double deadline =
        static_cast<double>(abstime->tv_sec - kEpoch) + static_cast<double>(abstime->tv_nsec) * 1e-9;
    const Ps at = std::max(sim_.queue().now(), seconds_to_ps(std::max(deadline, 0.0)));
    sim_.queue().schedule(at, &CondTimeout::fire, new CondTimeout{me, me->cond_generation});
  }
  mutex_unlock(m);
  while (!me->cond_signaled && !me->cond_timed_out) {
    SyncWait w;
    w.what   = "condition variable";
    w.object = c;
    w.namer  = &name_address_;
    me->notifier->wait(&w, abstime != nullptr ? "pthread_cond_timedwait" : "pthread_cond_wait");
  }
  me->in_cond_wait = false;
  std::erase(cv.waiters, me);
  calls_.leave();
  mutex_lock(m, false);
  return me->cond_timed_out && !me->cond_signaled ? ETIMEDOUT : 0;
}

int SyncObjects::cond_signal(void* c, bool broadcast)
{
  auto it = conds_.find(c);
  if (it == conds_.end())
    return 0;
  std::vector<SimThread*> wake;
  auto& q = it->second.waiters;
  while (!q.empty() && (broadcast || wake.empty())) {
    SimThread* t = q.front();
    q.pop_front();
    t->cond_signaled = true;
    wake.push_back(t);
  }
  for (SimThread* t : wake)
    t->notifier->notify();
  return 0;
}

int SyncObjects::barrier_init(void* b, unsigned count)
{
  if (count == 0)
    return EINVAL;
  barriers_[b] = Barrier{count, 0, 0, {}};
  return 0;
}

int SyncObjects::barrier_wait(void* b)
{
  calls_.enter("pthread_barrier_wait");
  calls_.leave(); // computation charged: the barrier's state is read below without switches
  auto it = barriers_.find(b);
  if (it == barriers_.end())
    return EINVAL;
  Barrier& br             = it->second;
  SimThread* me           = threads_.current();
  const std::uint64_t gen = br.generation;
  if (++br.arrived == br.count) {
    br.arrived = 0;
    ++br.generation;
    std::vector<SimThread*> wake;
    wake.swap(br.waiting);
    for (SimThread* t : wake)
      t->notifier->notify();
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  calls_.enter("pthread_barrier_wait");
  br.waiting.push_back(me);
  while (br.generation == gen) {
    SyncWait w;
    w.what   = "barrier";
    w.object = b;
    w.namer  = &name_address_;
    me->notifier->wait(&w, "pthread_barrier_wait");
  }
  calls_.leave();
  return 0;
}

void SyncObjects::library_lock(const void* lock)
{
  SimThread* me = threads_.current();
  if (library_lock_ <= 0 || me == nullptr)
    return;
  // The computation was charged by the routine's entry: take the lock, hold it, hand it over.
  const Ps t0 = sim_.queue().now();
  const OpenInterval open(obs_, t0); // reported below, dated t0
  Mutex& mx = mutexes_[lock];
  if (mx.owner == nullptr)
    mx.owner = me;
  else
    wait_for_mutex(mx, lock, "the library's lock of context", "the library's internal lock");
  sim_.spin_for(library_lock_); // a detour while holding the lock lengthens the hold
  release_mutex(mx);
  SHMEMSIM_OBSERVE(obs_, lock(t0, sim_.queue().now() - t0, me->pe->id, me->index));
}

} // namespace shmemsim::front
