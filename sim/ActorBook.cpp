#include "sim/ActorBook.hpp"

#include "base/Assert.hpp"

namespace shmemsim::sim {

ActorBook::State& ActorBook::at(std::size_t pid)
{
  if (pid >= states_.size())
    states_.resize(pid + 1);
  return states_[pid];
}

void ActorBook::started(std::size_t pid)
{
  State& s = at(pid);
  SHMEMSIM_ASSERT(s.what == What::Gone, "an actor is started once");
  s.what = What::Running;
}

void ActorBook::ended(std::size_t pid)
{
  State& s = at(pid);
  if (s.what == What::Running)
    --running_;
  else if (s.what == What::Timed)
    leave_timed(s);
  s.what = What::Gone;
}

void ActorBook::waits(std::size_t pid)
{
  State& s = at(pid);
  SHMEMSIM_ASSERT(s.what == What::Running, "only a running actor blocks");
  s.what = What::Waiting;
  --running_;
}

void ActorBook::woken(std::size_t pid)
{
  State& s = at(pid);
  SHMEMSIM_ASSERT(s.what == What::Waiting, "only a waiting actor is woken");
  s.what = What::Running;
  ++running_;
}

void ActorBook::timed(std::size_t pid, double earliest_end, bool computing)
{
  State& s = at(pid);
  SHMEMSIM_ASSERT(s.what == What::Running, "only a running actor starts an activity");
  s.what      = What::Timed;
  s.earliest  = earliest_end;
  s.computing = computing;
  s.slot      = timed_.size();
  timed_.push_back(pid);
  if (computing)
    ++computing_;
  --running_;
}

void ActorBook::resumed(std::size_t pid)
{
  State& s = at(pid);
  if (s.what != What::Timed)
    return; // ended meanwhile (killed inside the activity)
  leave_timed(s);
  s.what = What::Running;
  ++running_;
}

void ActorBook::leave_timed(State& s)
{
  const std::size_t last = timed_.back();
  timed_[s.slot]         = last;
  states_[last].slot     = s.slot;
  timed_.pop_back();
  if (s.computing)
    --computing_;
  s.computing = false;
}

double ActorBook::earliest_end() const
{
  double first = -1;
  for (const std::size_t pid : timed_) {
    const double e = states_[pid].earliest;
    if (first < 0 || e < first)
      first = e;
  }
  return first;
}

} // namespace shmemsim::sim
