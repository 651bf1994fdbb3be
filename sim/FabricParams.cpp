#include "sim/FabricParams.hpp"

namespace shmemsim::sim {

std::int64_t FabricParams::capacity() const
{
  if (topology == Topology::Dragonfly)
    return std::int64_t{dragonfly.endpoints_per_switch} * dragonfly.switches_per_group * dragonfly.group_count();
  std::int64_t c = 1;
  for (int d : down) {
    c *= d;
    if (c > (std::int64_t{1} << 31))
      return c;
  }
  return c;
}

/// Empty if the dragonfly's shape is possible, else why not.
static std::string check_dragonfly(const DragonflyParams& d)
{
  const std::int64_t ports = std::int64_t{d.switches_per_group} * d.global_per_switch; // global ports per group
  const std::int64_t g     = d.group_count();
  if (g < 2)
    return "dragonfly.groups must be at least 2 (or 0 for the largest, a*h+1), got " + std::to_string(g);
  if (g > ports + 1)
    return "dragonfly.groups is " + std::to_string(g) + ", more than a*h+1 = " + std::to_string(ports + 1) +
           " (switches_per_group " + std::to_string(d.switches_per_group) + " x global_per_switch " +
           std::to_string(d.global_per_switch) + " global ports per group, one per other group at least)";
  if (ports % (g - 1) != 0)
    return "dragonfly: the a*h = " + std::to_string(ports) + " global ports of a group do not split evenly over the " +
           std::to_string(g - 1) + " other groups (groups " + std::to_string(g) +
           "); choose groups - 1 dividing a*h, or 0 for a*h+1";
  if (std::int64_t{d.switches_per_group} * g > 10'000'000)
    return "the dragonfly would have more than 10 million switches";
  if (std::int64_t{d.endpoints_per_switch} * d.switches_per_group * g > (std::int64_t{1} << 31))
    return "the dragonfly would hold more than 2^31 nodes";
  return {};
}

std::string FabricParams::check() const
{
  if (topology == Topology::Dragonfly) {
    if (std::string err = check_dragonfly(dragonfly); !err.empty())
      return err;
    if (link_bandwidth == 0)
      return "link_bandwidth must be positive";
    if (mtu == 0)
      return "mtu must be positive";
    return {};
  }
  if (levels < 1 || levels > 8)
    return "levels must be between 1 and 8, got " + std::to_string(levels);
  if (static_cast<int>(down.size()) != levels)
    return "down must give one port count per level (" + std::to_string(levels) + "), got " +
           std::to_string(down.size());
  if (static_cast<int>(up.size()) != levels - 1)
    return "up must give one port count per level below the top (" + std::to_string(levels - 1) + "), got " +
           std::to_string(up.size());
  for (int d : down)
    if (d < 1)
      return "every down port count must be at least 1, got " + std::to_string(d);
  for (int u : up)
    if (u < 1)
      return "every up port count must be at least 1, got " + std::to_string(u);
  std::int64_t switches = 0;
  std::int64_t b        = 1;
  for (int l = 1; l <= levels; ++l) {
    std::int64_t above = 1;
    for (int j = l; j < levels; ++j)
      above *= down[static_cast<std::size_t>(j)];
    switches += above * b;
    if (l < levels)
      b *= up[static_cast<std::size_t>(l - 1)];
    if (switches > 10'000'000 || b > 10'000'000)
      return "the tree would have more than 10 million switches";
  }
  if (capacity() > (std::int64_t{1} << 31))
    return "the tree would hold more than 2^31 nodes";
  if (link_bandwidth == 0)
    return "link_bandwidth must be positive";
  if (mtu == 0)
    return "mtu must be positive";
  return {};
}

} // namespace shmemsim::sim
