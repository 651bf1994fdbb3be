#include "sim/CacheLines.hpp"

#include "base/Assert.hpp"

#include <algorithm>

namespace shmemsim::sim {

CacheLines::CacheLines(const HostParams& p, int cores)
    : same_socket_(p.line_same_socket), cross_socket_(p.line_cross_socket), cores_(std::max(cores, 1)),
      sockets_(std::clamp(p.sockets_per_node, 1, std::max(cores, 1)))
{
}

int CacheLines::socket_of(int core) const
{
  SHMEMSIM_ASSERT(core >= 0 && core < cores_, "a core of the node");
  return static_cast<int>(static_cast<long long>(core) * sockets_ / cores_);
}

Ps CacheLines::update(std::uint64_t key, int core, Ps now)
{
  Line& l = lines_[key];
  if (l.core == -1 || l.core == core) {
    // Held here already (or never used): no transfer. A later update of this core's waits for any
    // update it queued behind (an earlier one of its own).
    const Ps end = std::max(now, l.free_at);
    l.core       = core;
    l.free_at    = end;
    wait_time_ += end - now;
    return end;
  }
  const Ps start = std::max(now, l.free_at);
  const Ps end   = start + (socket_of(l.core) == socket_of(core) ? same_socket_ : cross_socket_);
  l.core         = core;
  l.free_at      = end;
  ++transfers_;
  wait_time_ += end - now;
  return end;
}

} // namespace shmemsim::sim
