#include "shmem_front/runtime/SimThreads.hpp"

#include "base/Assert.hpp"
#include "sim/Notifier.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <cerrno>
#include <string>

namespace sg4 = simgrid::s4u;

namespace shmemsim::front {

SimThread* SimThreads::lookup(std::size_t pid) const
{
  return pid < thread_of_pid_.size() ? thread_of_pid_[pid] : nullptr;
}

SimThread* SimThreads::resume()
{
  sg4::Actor* self = sg4::Actor::self();
  current_         = self != nullptr ? lookup(static_cast<std::size_t>(self->get_pid())) : nullptr;
  return current_;
}

unsigned long SimThreads::tid_of(int pe, int index)
{
  return (static_cast<unsigned long>(pe) + 1) << 16 | static_cast<unsigned long>(index);
}

SimThread* SimThreads::adopt(PeProcess& pe, int index)
{
  SimThread& t = threads_.emplace_back();
  t.pe         = &pe;
  t.index      = index;
  t.tid        = tid_of(pe.id, index);
  t.pid        = static_cast<std::size_t>(sg4::this_actor::get_pid());
  t.notifier   = &sim_.self_notifier();
  t.notifier->set_context(&t.routine);
  by_tid_[t.tid] = &t;
  if (thread_of_pid_.size() <= t.pid)
    thread_of_pid_.resize(t.pid + 1, nullptr);
  thread_of_pid_[t.pid] = &t;
  current_              = &t;
  return &t;
}

void SimThreads::finish(SimThread& t)
{
  // Thread-specific data destructors, as POSIX runs them at thread exit.
  for (auto& [key, value] : t.specific) {
    auto d = keys_.find(key);
    if (value != nullptr && d != keys_.end() && d->second != nullptr)
      d->second(const_cast<void*>(value));
  }
  t.finished = true;
  std::vector<SimThread*> joiners;
  joiners.swap(t.joiners);
  for (SimThread* j : joiners)
    j->notifier->notify();
  current_ = nullptr;
  if (t.detached)
    reclaim(t);
}

void SimThreads::reclaim(SimThread& t)
{
  SHMEMSIM_ASSERT(t.finished && t.detached, "only a detached thread that ended is reclaimed");
  by_tid_.erase(t.tid); // its id names no thread any more: join and detach say ESRCH
  if (lookup(t.pid) == &t)
    thread_of_pid_[t.pid] = nullptr;
  std::map<unsigned, const void*>().swap(t.specific);
  std::vector<std::byte>().swap(t.tls);
  std::vector<SimThread*>().swap(t.joiners);
}

int SimThreads::join(unsigned long tid, void** retval)
{
  SimThread* me = current_;
  auto it       = by_tid_.find(tid);
  if (it == by_tid_.end() || it->second->pe != me->pe)
    return ESRCH;
  SimThread* target = it->second;
  if (target == me)
    return EDEADLK;
  if (target->detached)
    return EINVAL;
  calls_.enter("pthread_join");
  while (!target->finished) {
    target->joiners.push_back(me);
    struct JoinWait final : sim::Waitable {
      const SimThread* target;
      std::string describe_wait() const override
      {
        return "the end of PE " + std::to_string(target->pe->id) + " thread " + std::to_string(target->index);
      }
    } w;
    w.target = target;
    me->notifier->wait(&w, "pthread_join");
  }
  calls_.leave();
  if (retval != nullptr)
    *retval = target->retval;
  return 0;
}

int SimThreads::detach(unsigned long tid)
{
  auto it = by_tid_.find(tid);
  if (it == by_tid_.end() || it->second->pe != current_->pe)
    return ESRCH;
  SimThread& target = *it->second;
  if (target.detached)
    return EINVAL;
  target.detached = true;
  if (target.finished) // it ended before: nobody will join it, its resources go now
    reclaim(target);
  return 0;
}

int SimThreads::key_create(unsigned* key, void (*destructor)(void*))
{
  *key        = next_key_++;
  keys_[*key] = destructor;
  return 0;
}

int SimThreads::key_delete(unsigned key)
{
  return keys_.erase(key) == 1 ? 0 : EINVAL;
}

void* SimThreads::get_specific(unsigned key) const
{
  const auto& m = current_->specific;
  auto it       = m.find(key);
  return it == m.end() ? nullptr : const_cast<void*>(it->second);
}

int SimThreads::set_specific(unsigned key, const void* value)
{
  current_->specific[key] = value;
  return 0;
}

void SimThreads::park(const char* routine, const char* what)
{
  SimThread* me   = current_;
  me->routine     = routine;
  me->pe->routine = routine;
  struct ParkWait final : sim::Waitable {
    const char* what;
    std::string describe_wait() const override { return what; }
  } w;
  w.what = what;
  while (!me->unparked)
    me->notifier->wait(&w, routine);
  me->unparked = false;
  calls_.leave();
}

void SimThreads::unpark(SimThread* t)
{
  t->unparked = true;
  t->notifier->notify();
}

} // namespace shmemsim::front
