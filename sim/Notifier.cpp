#include "sim/Notifier.hpp"

#include "sim/EventQueue.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Actor.hpp>

namespace shmemsim::sim {

Notifier::Notifier(Simulation& sim, std::string owner)
    : sim_(sim), queue_(sim.queue()), owner_(std::move(owner)),
      pid_(static_cast<std::size_t>(simgrid::s4u::this_actor::get_pid()))
{
  sim_.register_notifier(this);
}

Notifier::~Notifier()
{
  sim_.unregister_notifier(this);
}

void Notifier::wait(const Waitable* on, const char* call)
{
  sim_.settle();
  on_       = on;
  call_     = call;
  waiting_  = true;
  signaled_ = false;
  actor_    = simgrid::s4u::Actor::self();
  sim_.actors().waits(pid_);
  sim_.note_actor_stop();
  {
    Simulation::SwitchGuard sw(sim_);
    // Woken by a resume only once suspended: notify() resumes only a waiting() actor, from maestro
    // after this simcall was handled, or from another actor, which runs after this one blocked.
    do
      simgrid::s4u::this_actor::suspend();
    while (!signaled_);
  }
  waiting_ = false;
  on_      = nullptr;
  call_    = nullptr;
}

void Notifier::notify()
{
  sim_.settle(); // from the actor whose time slices are deferred, if any
  if (!waiting())
    return;
  signaled_ = true;
  if (queue_.defer_wake(this))
    return;
  if (simgrid::s4u::Actor::is_maestro()) {
    sim_.actors().woken(pid_);
    actor_->resume();
    return;
  }
  // From an actor, the resume is a simcall: other actors may run before this one continues,
  // the woken one included, which may end and destroy this notifier: use locals only.
  Simulation& sim            = sim_;
  simgrid::s4u::Actor* actor = actor_;
  sim.actors().woken(pid_);
  Simulation::SwitchGuard sw(sim);
  actor->resume();
}

void Notifier::release_now()
{
  sim_.actors().woken(pid_);
  actor_->resume();
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
