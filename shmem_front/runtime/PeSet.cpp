#include "shmem_front/runtime/PeSet.hpp"

#include "sim/Notifier.hpp"
#include "sim/Simulation.hpp"

#include <dlfcn.h>
#include <link.h>

#include <string>

namespace shmemsim::front {

namespace {
/// The load base of the object holding `addr` (its link-time addresses + this = run-time ones).
bool load_base(const void* addr, std::uintptr_t& base)
{
  Dl_info info{};
  void* map = nullptr;
  if (dladdr1(addr, &info, &map, RTLD_DL_LINKMAP) == 0 || map == nullptr)
    return false;
  base = static_cast<const link_map*>(map)->l_addr;
  return true;
}
} // namespace

std::string PeSet::name_address(const void* addr) const
{
  const auto* p = static_cast<const std::byte*>(addr);
  for (const PeProcess& pe : pes_) {
    const PeMemory& m = pe.mem;
    if (p >= m.data && p < m.data + m.data_size) {
      std::uintptr_t base = 0;
      const std::string sym =
          load_base(addr, base) ? symbols_.name_at(reinterpret_cast<std::uintptr_t>(addr) - base) : std::string();
      return (sym.empty() ? "a variable" : "'" + sym + "'") + " of PE " + std::to_string(pe.id);
    }
    if (p >= m.heap && p < m.heap + m.heap_size)
      return "symmetric heap offset " + std::to_string(p - m.heap) + " of PE " + std::to_string(pe.id);
  }
  return {};
}

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
