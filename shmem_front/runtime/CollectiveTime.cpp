#include "shmem_front/runtime/CollectiveTime.hpp"

#include "base/Assert.hpp"

#include <cstring>
#include <string_view>

namespace shmemsim::front {

int CollectiveTimes::kind_of(const char* routine)
{
  const std::string_view r(routine);
  const auto ends = [&](std::string_view s) { return r.size() >= s.size() && r.substr(r.size() - s.size()) == s; };
  const auto has  = [&](std::string_view s) { return r.find(s) != std::string_view::npos; };
  if (ends("_req") || !(r.starts_with("shmem_") || r.starts_with("shmemx_")))
    return -1;
  if (has("barrier") || r == "shmem_sync" || r == "shmem_sync_all" || r == "shmem_team_sync" || r == "shmemx_sync" ||
      r == "shmemx_sync_all")
    return static_cast<int>(CollectiveKind::Barrier);
  if (has("broadcast"))
    return static_cast<int>(CollectiveKind::Broadcast);
  if (ends("_reduce") || has("_to_all"))
    return static_cast<int>(CollectiveKind::Reduce);
  if (has("alltoall"))
    return static_cast<int>(CollectiveKind::Alltoall);
  if (has("collect"))
    return static_cast<int>(CollectiveKind::Collect);
  return -1;
}

const char* CollectiveTimes::name(CollectiveKind k)
{
  switch (k) {
    case CollectiveKind::Barrier:
      return "barrier";
    case CollectiveKind::Broadcast:
      return "broadcast";
    case CollectiveKind::Reduce:
      return "reduce";
    case CollectiveKind::Collect:
      return "collect";
    case CollectiveKind::Alltoall:
      return "alltoall";
  }
  return "?";
}

void CollectiveTimes::add(int kind, Ps inside, Ps busy)
{
  SHMEMSIM_ASSERT(kind >= 0 && kind < kCollectiveKinds, "a collective kind out of range");
  SHMEMSIM_ASSERT(busy >= 0 && inside >= 0, "negative time inside a collective");
  CollectiveTime& t = times_[static_cast<std::size_t>(kind)];
  ++t.calls;
  t.inside += inside;
  t.busy += busy;
}

} // namespace shmemsim::front
