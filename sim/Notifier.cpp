#include "sim/Notifier.hpp"

#include "sim/EventQueue.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Actor.hpp>

namespace shmemsim::sim {

Notifier::Notifier(Simulation& sim, std::string owner)
    : sim_(sim), queue_(sim.queue()), owner_(std::move(owner)), sem_(simgrid::s4u::Semaphore::create(0))
{
  sim_.register_notifier(this);
}

Notifier::~Notifier()
{
  sim_.unregister_notifier(this);
}

void Notifier::wait(const Waitable* on, const char* call)
{
  on_       = on;
  call_     = call;
  waiting_  = true;
  signaled_ = false;
  {
    Simulation::SwitchGuard sw(sim_);
    sem_->acquire();
  }
  waiting_ = false;
  on_      = nullptr;
  call_    = nullptr;
}

void Notifier::notify()
{
  if (!waiting())
    return;
  signaled_ = true;
  if (queue_.defer_wake(this))
    return;
  if (simgrid::s4u::Actor::is_maestro()) {
    sem_->release();
    return;
  }
  // From an actor, the release is a simcall: other actors may run before this one continues,
  // the woken one included, which may end and destroy this notifier: use locals only.
  Simulation& sim                       = sim_;
  const simgrid::s4u::SemaphorePtr sem = sem_;
  Simulation::SwitchGuard sw(sim);
  sem->release();
}

void Notifier::release_now()
{
  sem_->release();
}

std::string Notifier::describe() const
{
  if (!waiting())
    return {};
  std::string s = owner_;
  if (context_ != nullptr && *context_ != nullptr)
    s += std::string(" in ") + *context_ + ",";
  s += std::string(" waits in ") + (call_ != nullptr ? call_ : "a blocking call");
  if (on_ != nullptr)
    s += " on " + on_->describe_wait();
  return s;
}

} // namespace shmemsim::sim
