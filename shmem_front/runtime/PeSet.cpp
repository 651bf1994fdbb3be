#include "shmem_front/runtime/PeSet.hpp"

#include "sim/Notifier.hpp"
#include "sim/Simulation.hpp"

#include <string>

namespace shmemsim::front {

int PeSet::on_node(int node) const
{
  int n = 0;
  for (const PeProcess& pe : pes_)
    n += pe.node == node ? 1 : 0;
  return n;
}

bool PeSet::is_symmetric(const PeProcess& me, const void* addr, std::size_t n)
{
  const PeMemory& m = me.mem;
  const auto* p     = static_cast<const std::byte*>(addr);
  return (p >= m.data && n <= m.data_size && p <= m.data + m.data_size - n) ||
         (p >= m.heap && n <= m.heap_size && p <= m.heap + m.heap_size - n);
}

void* PeSet::local_address(PeProcess& me, const void* addr, int pe)
{
  const PeProcess& him = pes_.at(static_cast<std::size_t>(pe));
  if (him.node != me.node)
    return nullptr; // only PEs of one node share memory
  const auto* p   = static_cast<const std::byte*>(addr);
  const bool peer = &him != &me;
  if (p >= me.mem.data && p < me.mem.data + me.mem.data_size) {
    me.maps_peers |= peer;
    return him.mem.data + (p - me.mem.data);
  }
  if (p >= me.mem.heap && p < me.mem.heap + me.mem.heap_size) {
    me.maps_peers |= peer;
    return him.mem.heap + (p - me.mem.heap);
  }
  return nullptr;
}

void PeSet::publish_stores(const PeProcess& pe) const
{
  if (!store_listener_)
    return;
  if (!pe.maps_peers) {
    store_listener_(pe.id);
    return;
  }
  // It may also have stored to the memory of PEs of its node, through shmem_ptr.
  for (const PeProcess& p : pes_)
    if (p.node == pe.node)
      store_listener_(p.id);
}

struct PeSet::BarrierWait final : sim::Waitable {
  int arrived, total;
  std::string describe_wait() const override
  {
    return "the startup barrier (" + std::to_string(arrived) + " of " + std::to_string(total) + " PEs arrived)";
  }
};

void PeSet::startup_barrier()
{
  const std::uint64_t gen = generation_;
  if (++arrived_ == size()) {
    arrived_ = 0;
    ++generation_;
    std::vector<sim::Notifier*> wake;
    wake.swap(barrier_waiters_); // waking lets other actors run: leave no list half-walked
    for (sim::Notifier* n : wake)
      n->notify();
    return;
  }
  sim::Notifier& self = sim_.self_notifier();
  barrier_waiters_.push_back(&self);
  while (generation_ == gen) {
    BarrierWait w;
    w.arrived = arrived_;
    w.total   = size();
    self.wait(&w, "shmem_init");
  }
}

int PeSet::exit_status() const
{
  int worst = 0;
  for (const PeProcess& pe : pes_)
    if (pe.exit_status != 0 && worst == 0)
      worst = pe.exit_status;
  return worst;
}

} // namespace shmemsim::front
